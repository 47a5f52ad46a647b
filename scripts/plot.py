#!/usr/bin/env python3
"""Plot a cachebench results CSV (docs/csv.md long format).

Usage: scripts/plot.py results/default.csv [--samples results/default-samples.csv] [--out results/default.png]

One colour per key strategy throughout (path blue, typePolicy orange, programmatic green).
- A workload of responses: write and read latency side by side, as distributions per store x
  strategy when --samples is given (box plots, log scale), else p50 bars with p90 whiskers; store
  bytes in total and per record; dedup (objects per record); allocations per write.
- A sweep (rows with variants): each of those metrics against the swept knob, a line per strategy,
  a line style per store.
- A budget sweep (`"sweep": {"stores.maxSizeBytes": [...]}` with a traffic section): hit ratio,
  fetched bytes, evictions, peak bytes, eviction cost and read latency against the budget, a line
  per key strategy (colour) and store (line style and marker).
- The store-level benchmark: merge and load rates and bytes per record per store.
Beside a workload of responses it writes <out>-strategies.png: each key strategy against path in
the same store (records, store bytes, write and read p50, watchers woken per write), as the
lines `cachebench run` prints after its table.
Needs matplotlib (`python3 -m pip install matplotlib`).
"""
import argparse
import csv
import os
import sys
from collections import OrderedDict, defaultdict

try:
    import matplotlib
except ImportError:
    sys.exit("plot.py: needs matplotlib (make plot installs it: python3 -m pip install matplotlib)")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLUMNS = ["run_id", "timestamp", "git_rev", "host", "workload", "variant", "store", "keys", "phase", "metric",
           "unit", "better", "deterministic", "n", "min", "p50", "p90", "p99", "max", "mean", "stddev"]
SAMPLE_COLUMNS = ["run_id", "workload", "variant", "store", "keys", "phase", "metric", "unit", "index", "value"]
STRATEGIES = ["path", "typePolicy", "programmatic"]
COLOURS = {"path": "#4c72b0", "typePolicy": "#dd8452", "programmatic": "#55a868"}
STORE_STYLES = ["-", "--", ":", "-."]
PANELS = [
    ("write", "latency", "write latency per response", "ns"),
    ("read", "latency", "read latency per response", "ns"),
    ("dedup", "store_bytes", "store bytes after the writes", "bytes"),
    ("footprint", "bytes_per_record", "bytes per record", "bytes"),
    ("dedup", "object_ratio", "objects per record (dedup)", "ratio"),
    ("write", "allocations", "allocations per write (p50)", "count"),
]
STORE_PANELS = [
    ("merge", "merge_new_per_record", "merge into an empty store (ns/record)", "ns"),
    ("merge", "merge_unchanged_per_record", "merge unchanged (ns/record)", "ns"),
    ("lookup", "load_batch_per_key", "batched load (ns/key)", "ns"),
    ("footprint", "bytes_per_record", "bytes per record", "bytes"),
]
SCALES = {"ns": (1e-3, "µs"), "bytes": (1e-6, "MB"), "ratio": (1, ""), "count": (1, "")}


def fail(message):
    sys.exit(f"Error: {message}")


def read_csv(path, columns, what):
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            if reader.fieldnames != columns:
                fail(f"{path}:1: not a cachebench {what} file (header {','.join(reader.fieldnames or [])})")
            return list(reader)
    except OSError as error:
        fail(f"cannot open '{path}': {error.strerror}")


def scaled(value, unit, metric):
    factor, _ = SCALES[unit]
    return value * (1 if metric in ("bytes_per_record",) else factor)


def label(unit, metric):
    return "" if metric == "bytes_per_record" else SCALES[unit][1]


def grouped_bars(axis, stores, values, errors=None):
    """Bars grouped by store, one per strategy, in the strategy's colour."""
    width = 0.8 / len(STRATEGIES)
    for index, strategy in enumerate(STRATEGIES):
        xs = [i + (index - 1) * width for i in range(len(stores))]
        heights = [values.get((store, strategy), 0) for store in stores]
        err = None
        if errors:
            err = [[0] * len(stores), [errors.get((store, strategy), 0) for store in stores]]
        axis.bar(xs, heights, width, yerr=err, capsize=2, color=COLOURS[strategy], label=strategy)
    axis.set_xticks(range(len(stores)))
    axis.set_xticklabels(stores, fontsize=8)


def latency_panel(axis, rows, samples, phase, stores):
    if samples:
        data, positions, colours = [], [], []
        for s, store in enumerate(stores):
            for k, strategy in enumerate(STRATEGIES):
                values = [float(x["value"]) / 1e3 for x in samples
                          if x["store"] == store and x["keys"] == strategy and x["phase"] == phase
                          and x["metric"] == "latency" and x["variant"] == ""]
                if values:
                    data.append(values)
                    positions.append(s + (k - 1) * 0.27)
                    colours.append(COLOURS[strategy])
        if data:
            boxes = axis.boxplot(data, positions=positions, widths=0.22, patch_artist=True, showfliers=True,
                                 flierprops={"markersize": 2})
            for patch, colour in zip(boxes["boxes"], colours):
                patch.set_facecolor(colour)
            axis.set_yscale("log")
            axis.set_xticks(range(len(stores)))
            axis.set_xticklabels(stores, fontsize=8)
            axis.set_ylabel("µs (log)")
            return
    values, errors = {}, {}
    for row in rows:
        if row["phase"] == phase and row["metric"] == "latency" and row["variant"] == "":
            values[(row["store"], row["keys"])] = float(row["p50"]) / 1e3
            errors[(row["store"], row["keys"])] = max(0, (float(row["p90"]) - float(row["p50"])) / 1e3)
    grouped_bars(axis, stores, values, errors)
    axis.set_ylabel("µs (p50, whisker to p90)")


COMPARISON = [
    ("dedup", "records", "records", "p50"),
    ("dedup", "store_bytes", "store bytes", "p50"),
    ("write", "latency", "write p50", "p50"),
    ("read", "latency", "read p50", "p50"),
    ("watch", "invalidations", "watchers woken per write", "mean"),
]


def strategy_figure(rows, stores, title):
    """What `cachebench run` prints after its table: each strategy against path in the same store,
    one small panel per measure, a bar per store x strategy; 1 (the dashed line) is path."""
    def value(store, strategy, phase, metric, statistic):
        for r in rows:
            if (r["store"], r["keys"], r["phase"], r["metric"], r["variant"]) == (store, strategy, phase, metric, ""):
                return float(r[statistic])
        return None

    measures = [m for m in COMPARISON if any(r["phase"] == m[0] and r["metric"] == m[1] for r in rows)]
    others = [s for s in STRATEGIES[1:] if any(r["keys"] == s for r in rows)]
    if not measures or not others or not any(r["keys"] == "path" for r in rows):
        return None
    fig, axes = plt.subplots(1, len(measures), figsize=(3.4 * len(measures), 4.0), squeeze=False)
    fig.suptitle(title + ": key strategies against path")
    width = 0.8 / len(others)
    def ratio_label(h):
        return f"{h:.0f}x" if h >= 100 else f"{h:.1f}x" if h >= 10 else f"{h:.2f}x"

    for axis, (phase, metric, name, statistic) in zip(axes[0], measures):
        # Only the stores that have the measure under path and another strategy: the limit stores
        # have no write, no watchers (a missing value is not a 0x bar).
        here = [s for s in stores if value(s, "path", phase, metric, statistic)
                and any(value(s, o, phase, metric, statistic) is not None for o in others)]
        for k, strategy in enumerate(others):
            xs, heights = [], []
            for i, store in enumerate(here):
                base, current = value(store, "path", phase, metric, statistic), value(store, strategy, phase, metric, statistic)
                if current is None:
                    continue
                xs.append(i + (k - (len(others) - 1) / 2) * width)
                heights.append(current / base)
            axis.bar(xs, heights, width, color=COLOURS[strategy], label=strategy)
            # Upright labels over each bar: side by side they ran into each other ("0.33x0.33x").
            for x, h in zip(xs, heights):
                axis.annotate(ratio_label(h), (x, h), xytext=(0, 2), textcoords="offset points", ha="center",
                              va="bottom", fontsize=7, rotation=90)
        axis.axhline(1, color="#4c72b0", linestyle="--", linewidth=1)
        axis.set_xticks(range(len(here)))
        axis.set_xticklabels(here, fontsize=8, rotation=25, ha="right")
        axis.margins(y=0.25)
        axis.set_title(f"{name} (x path)", fontsize=10)
        if metric == "invalidations":
            axis.set_yscale("log")
        axis.grid(axis="y", alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.tight_layout()
    return fig


def save(fig, out, dpi=100, note=""):
    """Writes the figure to a temporary file and renames it into place: a PNG whole or none."""
    temporary = out + ".tmp.png"
    fig.savefig(temporary, dpi=dpi)
    os.replace(temporary, out)
    print(f"wrote {out}{note}")


def sweep_figure(rows, variants, stores, title):
    knob = variants[0].split("=", 1)[0]

    def value(variant):
        try:
            return float(variant.split("=", 1)[1])
        except (IndexError, ValueError):
            return variant

    fig, axes = plt.subplots(2, 3, figsize=(15, 8.5))
    fig.suptitle(title)
    for axis, (phase, metric, name, unit) in zip(axes.flat, PANELS):
        for s, store in enumerate(stores):
            for strategy in STRATEGIES:
                points = sorted((value(r["variant"]), scaled(float(r["p50"]), unit, metric)) for r in rows
                                if r["store"] == store and r["keys"] == strategy and r["phase"] == phase
                                and r["metric"] == metric)
                if points:
                    axis.plot([p[0] for p in points], [p[1] for p in points], marker="o", color=COLOURS[strategy],
                              linestyle=STORE_STYLES[s % len(STORE_STYLES)], label=f"{store} {strategy}")
        axis.set_title(f"{name} {label(unit, metric)}".strip(), fontsize=10)
        axis.set_xlabel(knob)
        axis.grid(alpha=0.3)
    axes.flat[0].legend(fontsize=7)
    return fig


# (phase, metric, title, statistic, factor, unit, x): x "share" is the swept budget, "bytes" the
# budget each store resolved it to (budget_bytes), so that strategies compare per byte.
BUDGET_PANELS = [
    ("traffic", "hit_ratio", "hit ratio (reads served whole)", "p50", 1, "", "share"),
    ("traffic", "hit_ratio", "hit ratio per byte of budget", "p50", 1, "", "bytes"),
    ("traffic", "fetched_bytes", "fetched from the network", "p50", 1e-6, "MB", "share"),
    ("traffic", "evictions", "records evicted in all", "total", 1e-3, "thousand", "share"),
    ("traffic", "eviction_per_record", "eviction per record evicted", "p50", 1e-3, "µs", "share"),
    ("traffic", "read_latency", "read during traffic (p50)", "p50", 1e-3, "µs", "share"),
]
MARKERS = ["o", "s", "^", "D", "v", "P", "X"]
EXTRA_COLOURS = ["#c44e52", "#8172b2", "#937860", "#da8bc3", "#8c8c8c"]


def colour(strategy, strategies):
    """The strategy's colour: the three built-in ones fixed, named resolvers (programmatic:sku) after them."""
    if strategy in COLOURS:
        return COLOURS[strategy]
    others = [s for s in strategies if s not in COLOURS]
    return EXTRA_COLOURS[others.index(strategy) % len(EXTRA_COLOURS)]


def budget_value(variant):
    """`maxSizeBytes=25%` -> (25.0, True); `maxSizeBytes=500000` -> (500000.0, False)."""
    text = variant.split("=", 1)[1] if "=" in variant else variant
    if text.endswith("%"):
        return float(text[:-1]), True
    return float(text), False


def budget_figure(rows, stores, title):
    """A budget sweep (`"sweep": {"stores.maxSizeBytes": [...]}`): the traffic's figures against the
    budget, a line per key strategy (colour) and store (line style and marker)."""
    strategies = list(OrderedDict.fromkeys(r["keys"] for r in rows))
    shares = None
    fig, axes = plt.subplots(2, 3, figsize=(16, 9))
    fig.suptitle(title + ": the traffic under a budget")
    budgets = {(r["variant"], r["store"], r["keys"]): float(r["p50"]) for r in rows if r["metric"] == "budget_bytes"}
    for axis, (phase, metric, name, statistic, factor, unit, x_axis) in zip(axes.flat, BUDGET_PANELS):
        drawn = False
        for s, store in enumerate(stores):
            for strategy in strategies:
                points = []
                for r in rows:
                    if (r["store"], r["keys"], r["phase"], r["metric"]) != (store, strategy, phase, metric):
                        continue
                    x, is_share = budget_value(r["variant"])
                    shares = is_share if shares is None else shares
                    if x_axis == "bytes":
                        if (r["variant"], store, strategy) not in budgets:
                            continue
                        x = budgets[(r["variant"], store, strategy)] / 1e6
                    value = float(r["mean"]) * float(r["n"]) if statistic == "total" else float(r[statistic])
                    points.append((x, value * factor))
                if not points:
                    continue
                points.sort()
                drawn = True
                axis.plot([p[0] for p in points], [p[1] for p in points], color=colour(strategy, strategies),
                          linestyle=STORE_STYLES[s % len(STORE_STYLES)], marker=MARKERS[s % len(MARKERS)],
                          markersize=4, linewidth=1.3, alpha=0.85)
        axis.set_title(f"{name} ({unit})" if unit else name, fontsize=10)
        if x_axis == "bytes":
            axis.set_xlabel("budget (MB, as each store resolved it)")
        else:
            axis.set_xlabel("budget, % of the unbounded store" if shares else "budget (bytes)")
        if metric == "hit_ratio":
            axis.set_ylim(-0.02, 1.02)
        axis.grid(alpha=0.3)
        if not drawn:
            axis.text(0.5, 0.5, "not measured", ha="center", va="center", transform=axis.transAxes, color="#888888")
    strategy_handles = [plt.Line2D([], [], color=colour(k, strategies), linewidth=2) for k in strategies]
    store_handles = [plt.Line2D([], [], color="#444444", linestyle=STORE_STYLES[i % len(STORE_STYLES)],
                                marker=MARKERS[i % len(MARKERS)], markersize=4) for i in range(len(stores))]
    fig.tight_layout()
    # Room under the title for the legend (tight_layout does not count a figure legend).
    fig.subplots_adjust(top=0.86)
    fig.legend(strategy_handles + store_handles, strategies + stores, loc="upper center", bbox_to_anchor=(0.5, 0.945),
               ncol=len(strategies) + len(stores), fontsize=9, frameon=False)
    return fig


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv")
    parser.add_argument("--samples", help="the --samples CSV of the same run, for latency distributions")
    parser.add_argument("--out", help="PNG to write (default: the CSV's name with .png)")
    args = parser.parse_args()
    rows = read_csv(args.csv, COLUMNS, "results")
    if not rows:
        fail(f"{args.csv}: no rows")
    samples = []
    if args.samples:
        samples = read_csv(args.samples, SAMPLE_COLUMNS, "samples")
        runs = {r["run_id"] for r in rows}
        foreign = sorted({s["run_id"] for s in samples} - runs)
        if foreign:
            fail(f"{args.samples} does not match {args.csv}: its run {foreign[0]} is not in the results")
    out = args.out or os.path.splitext(args.csv)[0] + ".png"
    # The concurrency phase's rows (variant readers=N) get a figure of their own.
    concurrent = [r for r in rows if r["phase"] == "concurrency"]
    if concurrent:
        save(concurrency_figure(concurrent, f"cachebench: {rows[0]['workload']} ({rows[0]['git_rev']}, "
                                            f"{rows[0]['timestamp']}): reads on several threads"),
             os.path.splitext(out)[0] + "-concurrency.png")
        rows = [r for r in rows if r["phase"] != "concurrency"]
        samples = [s for s in samples if s["phase"] != "concurrency"]
    laid_out = False
    stores = list(OrderedDict.fromkeys(r["store"] for r in rows))
    variants = list(OrderedDict.fromkeys(r["variant"] for r in rows))
    title = f"cachebench: {rows[0]['workload']} ({rows[0]['git_rev']}, {rows[0]['timestamp']})"

    if len(variants) > 1 and variants[0].startswith("maxSizeBytes=") and any(r["phase"] == "traffic" for r in rows):
        fig = budget_figure(rows, stores, title)
        laid_out = True
    elif len(variants) > 1:
        fig = sweep_figure(rows, variants, stores, title)
    elif any(r["metric"] == "merge_new_per_record" for r in rows):
        fig, axes = plt.subplots(1, len(STORE_PANELS), figsize=(4.5 * len(STORE_PANELS), 4.2))
        fig.suptitle(title)
        for axis, (phase, metric, name, unit) in zip(axes, STORE_PANELS):
            values = [float(next((r["p50"] for r in rows if r["store"] == s and r["phase"] == phase
                                  and r["metric"] == metric), 0)) for s in stores]
            axis.bar(range(len(stores)), values, color=COLOURS["typePolicy"])
            axis.set_xticks(range(len(stores)))
            axis.set_xticklabels(stores, fontsize=8, rotation=20)
            axis.set_title(name, fontsize=10)
            axis.grid(axis="y", alpha=0.3)
    else:
        fig, axes = plt.subplots(2, 3, figsize=(15, 8.5))
        fig.suptitle(title)
        for axis, (phase, metric, name, unit) in zip(axes.flat, PANELS):
            axis.set_title(f"{name} {label(unit, metric)}".strip(), fontsize=10)
            # Only the stores that have the metric: the limit stores have no write, dedup or allocations.
            here = [s for s in stores if any(r["store"] == s and r["phase"] == phase and r["metric"] == metric
                                             for r in rows)]
            if metric == "latency":
                latency_panel(axis, rows, samples, phase, here)
            else:
                values = {(r["store"], r["keys"]): scaled(float(r["p50"]), unit, metric) for r in rows
                          if r["phase"] == phase and r["metric"] == metric}
                grouped_bars(axis, here, values)
            axis.grid(axis="y", alpha=0.3)
        handles = [plt.Rectangle((0, 0), 1, 1, color=COLOURS[s]) for s in STRATEGIES]
        fig.legend(handles, STRATEGIES, loc="upper left", ncol=3, fontsize=9)
    if not laid_out:
        fig.tight_layout()
    save(fig, out)
    if len(variants) == 1:
        comparison = strategy_figure(rows, stores, title)
        if comparison:
            save(comparison, os.path.splitext(out)[0] + "-strategies.png")


def concurrency_figure(rows, title):
    """Reads per second against the reader count (alone, solid; beside the writers, dashed; on hot
    records, dotted), read p99 alike, and the writers' merge p50: one line per store and strategy."""
    def readers(variant):
        last = variant.split(" ")[-1]
        return int(last.split("=", 1)[1])
    lines = list(OrderedDict.fromkeys((r["store"], r["keys"]) for r in rows))
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.8))
    fig.suptitle(title)
    panels = [
        (axes[0], [("reads_per_second", "-", "alone"), ("reads_per_second_writing", "--", "beside the writers"),
                   ("reads_per_second_hot", ":", "hot records")],
         "reads per second", "p50", 1e-3, "thousand reads/s"),
        (axes[1], [("read_latency", "-", "alone"), ("read_latency_writing", "--", "beside the writers"),
                   ("read_latency_hot", ":", "hot records")],
         "read p99", "p99", 1e-3, "µs"),
        (axes[2], [("write_latency", "-", "merges beside the readers")], "merge p50", "p50", 1e-3, "µs"),
    ]
    markers = ["o", "s", "^", "D", "v", "P"]
    for axis, metrics, name, statistic, factor, unit in panels:
        for index, (store, keys) in enumerate(lines):
            for metric, style, _ in metrics:
                points = sorted((readers(r["variant"]), float(r[statistic]) * factor) for r in rows
                                if (r["store"], r["keys"], r["metric"]) == (store, keys, metric))
                if points:
                    axis.plot([p[0] for p in points], [p[1] for p in points], linestyle=style,
                              marker=markers[index % len(markers)], color=plt.cm.tab10(index % 10),
                              label=f"{store} {keys}" if style == "-" else None)
        axis.set_title(f"{name} ({unit})", fontsize=10)
        axis.set_xlabel("reader threads")
        axis.set_xticks(sorted({readers(r["variant"]) for r in rows}))
        axis.set_ylim(bottom=0)
        axis.grid(alpha=0.3)
    axes[0].legend(fontsize=8, loc="best")
    axes[1].plot([], [], "k-", label="alone")
    axes[1].plot([], [], "k--", label="beside the writers")
    axes[1].plot([], [], "k:", label="hot records")
    axes[1].legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig


if __name__ == "__main__":
    main()
