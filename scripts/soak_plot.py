#!/usr/bin/env python3
"""Plot a soak (cachebench soak, docs/command-line.md#soak): every figure against the step.

Usage: scripts/soak_plot.py results/soak-series.csv [--growth results/soak.csv] [--out results/soak.png]

One panel per figure (resident set, jemalloc's live bytes, records, accounted bytes, database with
its WAL, WAL), a line per store x key strategy (x variant), the warm-up shaded; with --growth, each
line's label carries its growth per 100,000 steps after the warm-up (soak's own fit).
Needs matplotlib (`python3 -m pip install matplotlib`).
"""
import argparse
import csv
import sys
from collections import OrderedDict

try:
    import matplotlib
except ImportError:
    sys.exit("soak_plot.py: needs matplotlib (make plot installs it: python3 -m pip install matplotlib)")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SERIES_COLUMNS = ["workload", "variant", "store", "keys", "step", "rss_bytes", "live_bytes", "records",
                  "accounted_bytes", "db_bytes", "wal_bytes"]
GROWTH_COLUMNS = ["workload", "variant", "store", "keys", "figure", "warmup_steps", "samples", "first", "last",
                  "growth_per_100k_steps"]
PANELS = [
    ("rss_bytes", "resident set (VmRSS)", "MB"),
    ("live_bytes", "jemalloc live bytes (process)", "MB"),
    ("records", "records held", ""),
    ("accounted_bytes", "bytes the budget counts", "MB"),
    ("db_bytes", "database with its WAL", "MB"),
    ("wal_bytes", "WAL file", "MB"),
]


def read(path, columns):
    try:
        with open(path, newline="") as handle:
            rows = list(csv.DictReader(handle))
    except OSError as error:
        sys.exit(f"Error: cannot read {path}: {error.strerror}")
    if not rows or any(column not in rows[0] for column in columns):
        sys.exit(f"Error: {path} is not a soak CSV with the columns {','.join(columns)}")
    return rows


def session(row):
    name = f"{row['store']} x {row['keys']}"
    return name + (f" [{row['variant']}]" if row["variant"] else "")


def human(value, unit):
    if unit == "MB":
        return f"{value / 1e6:+.2f} MB" if abs(value) >= 1e5 else f"{value / 1e3:+.1f} kB"
    return f"{value:+,.0f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("series")
    parser.add_argument("--growth")
    parser.add_argument("--out")
    arguments = parser.parse_args()
    rows = read(arguments.series, SERIES_COLUMNS)
    sessions = OrderedDict()
    for row in rows:
        sessions.setdefault(session(row), []).append(row)
    growth, warmup = {}, None
    if arguments.growth:
        for row in read(arguments.growth, GROWTH_COLUMNS):
            growth[(session(row), row["figure"])] = float(row["growth_per_100k_steps"])
            warmup = int(row["warmup_steps"])
    panels = [panel for panel in PANELS if any(row[panel[0]] for row in rows)]
    columns = 2
    figure, axes = plt.subplots((len(panels) + 1) // columns, columns, figsize=(13, 3.6 * ((len(panels) + 1) // columns)),
                                squeeze=False)
    colours = {label: f"C{index % 10}" for index, label in enumerate(sessions)}
    for axis, (name, title, unit) in zip(axes.flat, panels):
        scale = 1e-6 if unit == "MB" else 1
        for label, points in sessions.items():
            kept = [(int(point["step"]), float(point[name]) * scale) for point in points if point[name]]
            if not kept:
                continue
            rate = growth.get((label, name))
            suffix = f" ({human(rate, unit)}/100k steps)" if rate is not None else ""
            axis.plot([step for step, _ in kept], [value for _, value in kept], label=label + suffix, linewidth=1.2,
                      color=colours[label])
        if warmup:
            axis.axvspan(0, warmup, color="0.9", zorder=0)
        axis.set_title(title)
        axis.set_xlabel("step")
        axis.set_ylabel(unit or "count")
        axis.ticklabel_format(axis="x", style="plain")
        axis.grid(alpha=0.3)
        axis.legend(fontsize=7)
    for axis in list(axes.flat)[len(panels):]:
        axis.remove()
    workload = rows[0]["workload"]
    figure.suptitle(f"{workload}: a long session sampled as it goes (shaded: the warm-up before the fit)")
    figure.tight_layout()
    out = arguments.out or arguments.series.replace("-series.csv", "").removesuffix(".csv") + ".png"
    figure.savefig(out, dpi=110)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
