#!/usr/bin/env python3
"""Plot metrics over the runs of a history file written by `cachebench run --history FILE.csv`.

Usage:
  scripts/trend.py results/history.csv [--metric write/latency] [--metric dedup/records]
                   [--store memory] [--keys typePolicy] [--workload quick]
                   [--baseline Baselines/quick.csv] [--out results/trend.png]

One panel per metric (default: write/latency, read/latency, write/allocations,
footprint/bytes_per_record), one line per store x key strategy: the p50 of each run in the order
of its timestamp, labelled with its git revision. With --baseline, each line's baseline value is
drawn dashed. Needs matplotlib (`python3 -m pip install matplotlib`).
"""
import argparse
import csv
import sys
from collections import OrderedDict, defaultdict

try:
    import matplotlib
except ImportError:
    sys.exit("trend.py: needs matplotlib (make plot installs it: python3 -m pip install matplotlib)")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from plot import save  # noqa: E402  (the scripts directory is on the path)

DEFAULT_METRICS = ["write/latency", "read/latency", "write/allocations", "footprint/bytes_per_record"]
STRATEGY_COLOURS = {"path": "#4c72b0", "typePolicy": "#dd8452", "programmatic": "#55a868"}  # as plot.py
REQUIRED = ["run_id", "timestamp", "git_rev", "workload", "store", "keys", "phase", "metric", "unit", "p50"]


def read_rows(path):
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
            if missing:
                sys.exit(f"Error: {path}:1: not a results file: missing column(s) {', '.join(missing)}")
            return list(reader)
    except OSError as error:
        sys.exit(f"Error: cannot open '{path}': {error.strerror}")


def keep(row, args):
    return ((not args.store or row["store"] in args.store)
            and (not args.keys or row["keys"] in args.keys)
            and (not args.workload or row["workload"] in args.workload))


def main():
    parser = argparse.ArgumentParser(description="Plot metrics over the runs of a cachebench history.")
    parser.add_argument("history")
    parser.add_argument("--metric", action="append", help="phase/metric, repeatable")
    parser.add_argument("--store", action="append")
    parser.add_argument("--keys", action="append")
    parser.add_argument("--workload", action="append")
    parser.add_argument("--baseline", help="a results CSV whose values are drawn dashed")
    parser.add_argument("--out", help="the PNG to write (default: the history's name with .png)")
    args = parser.parse_args()
    metrics = args.metric or DEFAULT_METRICS
    rows = [r for r in read_rows(args.history) if keep(r, args)]
    runs = OrderedDict()
    for row in sorted(rows, key=lambda r: (r["timestamp"], r["run_id"])):
        runs.setdefault(row["run_id"], row["git_rev"])
    index = {run_id: i for i, run_id in enumerate(runs)}
    baseline = {}
    if args.baseline:
        for row in read_rows(args.baseline):
            baseline[(row["workload"], row["variant"], row["store"], row["keys"], row["phase"], row["metric"])] = float(row["p50"])

    figure, axes = plt.subplots(len(metrics), 1, figsize=(10, 3.2 * len(metrics)), squeeze=False)
    for axis, metric in zip(axes[:, 0], metrics):
        phase, _, name = metric.partition("/")
        lines = defaultdict(list)
        unit = ""
        for row in rows:
            if row["phase"] == phase and row["metric"] == name:
                key = (row["workload"], row["variant"], row["store"], row["keys"])
                lines[key].append((index[row["run_id"]], float(row["p50"])))
                unit = row["unit"]
        if not lines:
            axis.set_title(f"{metric}: no rows")
            continue
        for key, points in sorted(lines.items()):
            points.sort()
            colour = STRATEGY_COLOURS.get(key[3])
            label = " ".join(part for part in (key[2], key[3], key[1]) if part)
            linestyle = "-" if key[2] == "memory" else "--" if key[2].startswith("sqlite") else ":"
            axis.plot([p[0] for p in points], [p[1] for p in points], marker="o", color=colour,
                      linestyle=linestyle, label=label)
            reference = baseline.get((key[0], key[1], key[2], key[3], phase, name))
            if reference is not None:
                axis.axhline(reference, color=colour, linestyle=(0, (2, 4)), linewidth=0.8)
        axis.set_title(f"{metric} (p50, {unit})")
        axis.set_xticks(range(len(runs)))
        axis.set_xticklabels(list(runs.values()), rotation=45, ha="right", fontsize=7)
        axis.legend(fontsize=6, ncol=3)
    figure.tight_layout()
    out = args.out or args.history.rsplit(".", 1)[0] + ".png"
    save(figure, out, dpi=110, note=f" ({len(runs)} runs, {len(metrics)} metrics)")


if __name__ == "__main__":
    main()
