#!/usr/bin/env python3
"""Plot a cachebench results CSV (SPEC §6 long format).

Usage: scripts/plot.py results/default.csv [--out results/default.png]

One figure, four panels, one bar group per store x key strategy (or, for a sweep, one line per
store x key strategy over the sweep's values): write and read latency (p50, with p90 as error
bar), bytes per record, object ratio (dedup), loads per read. Needs matplotlib
(`python3 -m pip install matplotlib`).
"""
import argparse
import csv
import os
import sys
from collections import OrderedDict, defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PANELS = [
    ("write", "latency", "write latency (µs, p50 to p90)", 1e-3),
    ("read", "latency", "read latency (µs, p50 to p90)", 1e-3),
    ("footprint", "bytes_per_record", "bytes per record", 1.0),
    ("dedup", "object_ratio", "objects per record (dedup)", 1.0),
]
STORE_PANELS = [
    ("merge", "merge_new_per_record", "merge into empty store (ns/record)", 1.0),
    ("merge", "merge_unchanged_per_record", "merge unchanged (ns/record)", 1.0),
    ("lookup", "load_batch_per_key", "batched load (ns/key)", 1.0),
    ("footprint", "bytes_per_record", "bytes per record", 1.0),
]


def read_rows(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        expected = ["run_id", "timestamp", "git_rev", "host", "workload", "variant", "store", "keys", "phase",
                    "metric", "unit", "better", "deterministic", "n", "min", "p50", "p90", "p99", "max", "mean",
                    "stddev"]
        if reader.fieldnames != expected:
            sys.exit(f"{path}: not a cachebench results file (header {reader.fieldnames})")
        return list(reader)


def sweep_value(variant):
    try:
        return float(variant.split("=", 1)[1])
    except (IndexError, ValueError):
        return variant


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv")
    parser.add_argument("--out", help="PNG to write (default: the CSV's name with .png)")
    args = parser.parse_args()
    rows = read_rows(args.csv)
    if not rows:
        sys.exit(f"{args.csv}: no rows")
    out = args.out or os.path.splitext(args.csv)[0] + ".png"

    values = {}
    for row in rows:
        values[(row["variant"], row["store"], row["keys"], row["phase"], row["metric"])] = row
    is_store_benchmark = any(row["metric"] == "merge_new_per_record" for row in rows)
    panels = STORE_PANELS if is_store_benchmark else PANELS
    configs = list(OrderedDict.fromkeys((row["store"], row["keys"]) for row in rows))
    variants = list(OrderedDict.fromkeys(row["variant"] for row in rows))
    swept = len(variants) > 1

    fig, axes = plt.subplots(1, len(panels), figsize=(4.5 * len(panels), 4.2))
    workload = rows[0]["workload"]
    fig.suptitle(f"cachebench: {workload} ({rows[0]['git_rev']}, {rows[0]['timestamp']})")
    for axis, (phase, metric, title, scale) in zip(axes, panels):
        axis.set_title(title, fontsize=10)
        if swept:
            for store, keys in configs:
                xs, ys = [], []
                for variant in variants:
                    row = values.get((variant, store, keys, phase, metric))
                    if row:
                        xs.append(sweep_value(variant))
                        ys.append(float(row["p50"]) * scale)
                if xs:
                    axis.plot(xs, ys, marker="o", label=f"{store} × {keys}")
            axis.set_xlabel(variants[0].split("=", 1)[0])
        else:
            labels, heights, errors = [], [], []
            for store, keys in configs:
                row = values.get(("", store, keys, phase, metric))
                if not row:
                    continue
                labels.append(store if is_store_benchmark else f"{store}\n{keys}")
                heights.append(float(row["p50"]) * scale)
                errors.append(max(0.0, (float(row["p90"]) - float(row["p50"])) * scale))
            # One-sided bars: from the median up to p90.
            axis.bar(range(len(labels)), heights, yerr=[[0.0] * len(errors), errors], capsize=3, color="#4c72b0")
            axis.set_xticks(range(len(labels)))
            axis.set_xticklabels(labels, fontsize=7, rotation=30, ha="right")
        axis.grid(axis="y", alpha=0.3)
    if swept:
        axes[0].legend(fontsize=7)
    fig.tight_layout()
    tmp = out + ".tmp.png"
    fig.savefig(tmp, dpi=110)
    os.replace(tmp, out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
