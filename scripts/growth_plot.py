#!/usr/bin/env python3
"""Plot growth (docs/metrics.md#growth): each scenario's p50 against its size, log-log, per store.

Usage: scripts/growth_plot.py results/runs/apollo-tier2-growth.csv [--out results/growth.png]

Reads the timings of a results CSV whose scenarios run at several sizes: Apollo's Tier-2 and Tier-3
scenarios at store sizes (`tier2/<scenario>_at_<records>x<fields>`,
`tier3/<scenario>_at_<records>x<fields>`, against the records) and the list scenarios
(`lists/<operation>_<kind>_<N>`, against N). One panel per scenario, a line per store,
each line's label carrying its growth row's k (`growth_<scenario>`), the fit cachebench wrote.
Needs matplotlib (`python3 -m pip install matplotlib`).
"""
import argparse
import csv
import math
import re
import sys
from collections import OrderedDict

try:
    import matplotlib
except ImportError:
    sys.exit("growth_plot.py: needs matplotlib (make plot installs it: python3 -m pip install matplotlib)")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLUMNS = ["store", "phase", "metric", "unit", "p50"]
SIZED = {
    "tier2": re.compile(r"^(?P<name>.+)_at_(?P<size>\d+)x\d+$"),
    "tier3": re.compile(r"^(?P<name>.+)_at_(?P<size>\d+)x\d+$"),
    "lists": re.compile(r"^(?P<name>(read|write|mutate)_[a-z]+)_(?P<size>\d+)$"),
}


def read(path):
    try:
        with open(path, newline="") as handle:
            rows = list(csv.DictReader(handle))
    except OSError as error:
        sys.exit(f"Error: cannot read {path}: {error.strerror}")
    except (UnicodeDecodeError, csv.Error) as error:
        sys.exit(f"Error: {path} is not a results CSV: {error}")
    if not rows or any(column not in rows[0] for column in COLUMNS):
        sys.exit(f"Error: {path} is not a results CSV with the columns {','.join(COLUMNS)}")
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", help="a results CSV of cachebench run")
    parser.add_argument("--out", default="results/growth.png", help="the PNG to write")
    args = parser.parse_args()
    rows = read(args.results)
    points = OrderedDict()  # (phase, scenario) -> store -> [(size, p50)]
    exponents = {}
    for row in rows:
        if row["store"].startswith("limit-"):
            continue
        pattern = SIZED.get(row["phase"])
        try:
            value = float(row["p50"])
        except ValueError:
            sys.exit(f"Error: {args.results}: p50 {row['p50']!r} of {row['metric']} is not a number")
        if row["unit"] == "exponent" and row["metric"].startswith("growth_"):
            exponents[(row["phase"], row["metric"][len("growth_"):], row["store"])] = value
            continue
        match = pattern.match(row["metric"]) if pattern and row["unit"] == "ns" else None
        if match and value > 0:
            series = points.setdefault((row["phase"], match["name"]), OrderedDict()).setdefault(row["store"], [])
            series.append((int(match["size"]), value))
    scenarios = [key for key, stores in points.items() if any(len(series) >= 2 for series in stores.values())]
    if not scenarios:
        sys.exit(f"Error: {args.results} has no scenario at two sizes or more (tier2 or tier3 ..._at_RxF, lists OP_KIND_N)")
    columns = 3
    lines = math.ceil(len(scenarios) / columns)
    figure, axes = plt.subplots(lines, columns, figsize=(5 * columns, 3.6 * lines), squeeze=False)
    for index, (phase, name) in enumerate(scenarios):
        axis = axes[index // columns][index % columns]
        for store, series in points[(phase, name)].items():
            series.sort()
            k = exponents.get((phase, name, store))
            label = store + (f" (k {k:.2f})" if k is not None else "")
            axis.plot([size for size, _ in series], [p50 / 1e3 for _, p50 in series], marker="o", label=label)
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_title(f"{phase}: {name}", fontsize=9)
        axis.set_xlabel("list length N" if phase == "lists" else "records in the store", fontsize=8)
        axis.set_ylabel("p50 (µs)", fontsize=8)
        axis.legend(fontsize=6)
        axis.grid(True, which="both", alpha=0.3)
    for index in range(len(scenarios), lines * columns):
        axes[index // columns][index % columns].axis("off")
    figure.tight_layout()
    try:
        figure.savefig(args.out, dpi=90)
    except OSError as error:
        sys.exit(f"Error: cannot write {args.out}: {error.strerror}")
    print(f"wrote {args.out}: {len(scenarios)} scenarios")


if __name__ == "__main__":
    main()
