#!/usr/bin/env python3
"""Plot a comparison written by `cachebench compare --out` or `cachebench ab --out`.

Usage: scripts/compare_plot.py comparison.csv [--out comparison.png] [--all]

One bar per metric: its change (current / baseline - 1), with the 95% interval where the
comparison has one (ab); red regressed, green improved, grey otherwise. By default only the rows
that changed (regressed, improved, inconclusive, advisory); --all shows every row.
Needs matplotlib (`python3 -m pip install matplotlib`).
"""
import argparse
import csv
import os
import sys

try:
    import matplotlib
except ImportError:
    sys.exit("compare_plot.py: needs matplotlib (make plot installs it: python3 -m pip install matplotlib)")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from plot import save  # noqa: E402  (the scripts directory is on the path)

REQUIRED = ["workload", "variant", "store", "keys", "phase", "metric", "baseline", "current", "ratio", "ci_low",
            "ci_high", "status"]
COLOURS = {"regressed": "#c44e52", "improved": "#55a868"}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv")
    parser.add_argument("--out")
    parser.add_argument("--all", action="store_true")
    args = parser.parse_args()
    try:
        with open(args.csv, newline="") as f:
            reader = csv.DictReader(f)
            missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
            if missing:
                sys.exit(f"Error: {args.csv}:1: not a comparison file: missing column(s) {', '.join(missing)}")
            rows = [r for r in reader if r["ratio"]]
    except OSError as error:
        sys.exit(f"Error: cannot open '{args.csv}': {error.strerror}")
    if not args.all:
        rows = [r for r in rows if r["status"] in ("regressed", "improved", "inconclusive", "advisory")]
    rows.sort(key=lambda r: float(r["ratio"]))
    out = args.out or os.path.splitext(args.csv)[0] + ".png"
    fig, axis = plt.subplots(figsize=(10, max(2.5, 0.28 * len(rows) + 1.2)))
    labels = [" ".join(p for p in (r["store"], r["keys"], r["variant"], r["phase"], r["metric"]) if p) for r in rows]
    changes = [(float(r["ratio"]) - 1) * 100 for r in rows]
    errors = [[0] * len(rows), [0] * len(rows)]
    for i, r in enumerate(rows):
        if r["ci_low"] and r["ci_high"]:
            errors[0][i] = changes[i] - (float(r["ci_low"]) - 1) * 100
            errors[1][i] = (float(r["ci_high"]) - 1) * 100 - changes[i]
    axis.barh(range(len(rows)), changes, xerr=errors, capsize=2,
              color=[COLOURS.get(r["status"], "#999999") for r in rows])
    axis.axvline(0, color="black", linewidth=0.8)
    axis.set_yticks(range(len(rows)))
    axis.set_yticklabels(labels, fontsize=7)
    axis.set_xlabel("change, % (current / baseline - 1), 95% interval where repeated runs give one")
    axis.set_title(f"{os.path.basename(args.csv)}: {len(rows)} metrics; red regressed, green improved")
    axis.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    save(fig, out)


if __name__ == "__main__":
    main()
