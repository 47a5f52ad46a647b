#!/usr/bin/env python3
"""The SQLite layouts side by side: the tables and the plot of docs/layouts.md.

    scripts/layouts_page.py [--results DIR] [--plot FILE.png]

Reads, from DIR (default results/), the CSVs of runs of this build:
  layouts.csv                Workloads/layouts.json: calendar.json in every layout, its sweep of
                             read.projectedReads giving whole and projected reads (results of
                             before the sweep: this, whole, and a -projected twin)
  layouts-instructions.csv   Workloads/layouts.json --quick --instructions (callgrind counts),
                             alike
  layouts-store-records.csv  Workloads/store-records.json: the stores alone, 100,000 records
  apollo-tier2.csv           Workloads/apollo-tier2.json: Apollo iOS's Tier-2 scenarios
  lists.csv                  Workloads/lists.json: ADR 0006's list scenarios
and prints the tables as Markdown (a file that is missing leaves its table out), then draws the
plot (default DIR/layouts.png) when matplotlib is there.

Exit codes: 0 done, 66 when none of the files is there.
"""
import argparse
import csv
import os
import sys

import layout_labels

LAYOUTS = layout_labels.LAYOUTS
NAMES = {"memory": "memory", **layout_labels.NAMES}
STRATEGIES = ["path", "typePolicy", "programmatic"]
CALENDAR_OBJECTS = 5928


def load(path, variant=None):
    """{(store, keys, phase, metric): row} of a results CSV (of one variant when given), or None
    when it is not there."""
    if not os.path.exists(path):
        return None
    with open(path, newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if variant is None or r["variant"] == variant]
    return {(r["store"], r["keys"], r["phase"], r["metric"]): r for r in rows} or None


def whole_and_projected(path, name):
    """(whole, projected) of Workloads/<name>.json: the two variants of its sweep of
    read.projectedReads, or, from results of before the sweep, <name> and its -projected twin."""
    whole = load(path(name.format("")), "projectedReads=false")
    if whole is not None:
        return whole, load(path(name.format("")), "projectedReads=true")
    return load(path(name.format(""))), load(path(name.format("-projected")))


def value(rows, store, keys, phase, metric, statistic="p50"):
    row = rows.get((store, keys, phase, metric)) if rows else None
    return float(row[statistic]) if row and row[statistic] not in ("", None) else None


def fmt_ns(ns):
    if ns is None:
        return "-"
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.0f} ns"


def fmt(number, digits=0):
    return "-" if number is None else f"{number:,.{digits}f}"


def table(header, lines):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(line) + " |" for line in lines]
    return "\n".join(out)


def calendar_table(whole, projected):
    lines = []
    for keys in STRATEGIES:
        for store in LAYOUTS:
            lines.append([
                NAMES[store], keys,
                fmt(value(whole, store, keys, "footprint", "bytes_per_record")),
                fmt(value(whole, store, keys, "footprint", "bytes_per_record_checkpointed")),
                fmt_ns(value(whole, store, keys, "write", "latency")),
                fmt_ns(value(whole, store, keys, "read", "latency")),
                fmt_ns(value(projected, store, keys, "read", "latency")),
                fmt_ns(value(whole, store, keys, "lookup", "point_lookup")),
            ])
    return table(["layout", "keys", "bytes/record (db + WAL)", "after a checkpoint", "write p50",
                  "read p50, whole", "read p50, projected", "point lookup p50"], lines)


def instructions_table(whole, projected):
    lines = []
    compact = {}
    for store in LAYOUTS:
        merge = value(whole, store, "typePolicy", "merge", "instructions")
        read = value(whole, store, "typePolicy", "read", "instructions")
        read_projected = value(projected, store, "typePolicy", "read", "instructions")
        if store == "sqlite-compact":
            compact = {"merge": merge, "read": read, "projected": read_projected}

        def per_object(count, key):
            if count is None:
                return "-"
            ratio = f" ({count / compact[key]:.2f}x)" if compact.get(key) else ""
            return f"{count / CALENDAR_OBJECTS:,.0f}{ratio}"

        lines.append([NAMES[store], per_object(merge, "merge"), per_object(read, "read"), per_object(read_projected, "projected")])
    return table(["layout", "merge", "read, whole", "read, projected"], lines)


def store_records_table(rows):
    lines = []
    for store in ["memory"] + LAYOUTS:
        lines.append([
            NAMES[store],
            fmt_ns(value(rows, store, "typePolicy", "merge", "merge_new_per_record")),
            fmt_ns(value(rows, store, "typePolicy", "merge", "merge_unchanged_per_record")),
            fmt_ns(value(rows, store, "typePolicy", "lookup", "load_batch_per_key")),
            fmt_ns(value(rows, store, "typePolicy", "lookup", "point_lookup")),
            fmt(value(rows, store, "typePolicy", "footprint", "bytes_per_record")),
            fmt(value(rows, store, "typePolicy", "footprint", "bytes_per_record_checkpointed")),
        ])
    return table(["store", "merge, new (per record)", "merge, unchanged", "batch load (per key)", "point load",
                  "bytes/record", "after a checkpoint"], lines)


TIER2 = ["single_key_load_10_fields", "batch_load_100_records", "projected_load_3_of_10_fields",
         "projected_batch_load_3_of_10_fields_100_records", "projected_list_load_100_elements",
         "inline_fragment_overfetch_40_fields_8_used", "single_record_merge_10_fields",
         "many_record_merge_1000_records", "pattern_delete_10k_records"]


def tier2_table(rows):
    lines = []
    for store in ["memory"] + LAYOUTS:
        lines.append([NAMES[store]] + [fmt_ns(value(rows, store, "typePolicy", "tier2", s, "mean")) for s in TIER2])
    return table(["store (mean of 50)"] + [s.replace("_", " ") for s in TIER2], lines)


def lists_table(rows, kind):
    lines = []
    for store in ["memory"] + LAYOUTS:
        line = [NAMES[store]]
        for operation in ["read", "write", "mutate"]:
            line.append(" / ".join(fmt_ns(value(rows, store, "typePolicy", "lists", f"{operation}_{kind}_{n}")) for n in (10, 100, 1000)))
        line.append(" / ".join(fmt(value(rows, store, "typePolicy", "lists", f"bytes_per_record_{kind}_{n}")) for n in (10, 100, 1000)))
        lines.append(line)
    return table([f"store ({kind}; N = 10 / 100 / 1,000)", "read the record", "write it", "change element N/2", "bytes/record"], lines)


def plot(path, whole, instructions, projected_instructions, lists):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot", file=sys.stderr)
        return
    short = {"sqlite-rows-rowid": "rows,\nrowid table", "sqlite-rows-ordered": "rows-ordered\n(ours)"}
    labels = [short.get(s, NAMES[s].split(" (")[0]) for s in LAYOUTS]
    figure, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    bars = [value(whole, s, "typePolicy", "footprint", "bytes_per_record_checkpointed") or 0 for s in LAYOUTS]
    axes[0].bar(labels, bars, color=["#888", "#2a7", "#c53", "#e96", "#b87"])
    axes[0].set_title("calendar, typePolicy: file bytes per record\n(after a checkpoint)")
    if instructions:
        width = 0.27
        xs = range(len(LAYOUTS))
        series = [("merge", instructions, "merge"), ("read, whole", instructions, "read"), ("read, projected", projected_instructions, "read")]
        for offset, (name, rows, phase) in enumerate(series):
            counts = [(value(rows, s, "typePolicy", phase, "instructions") or 0) / CALENDAR_OBJECTS for s in LAYOUTS]
            axes[1].bar([x + (offset - 1) * width for x in xs], counts, width, label=name)
        axes[1].set_xticks(list(xs))
        axes[1].set_xticklabels(labels)
        axes[1].legend()
    axes[1].set_title("calendar, typePolicy: instructions per object")
    if lists:
        for store, label in zip(LAYOUTS, labels):
            ys = [value(lists, store, "typePolicy", "lists", f"mutate_references_{n}") for n in (10, 100, 1000)]
            axes[2].plot([10, 100, 1000], [y / 1000 if y else None for y in ys], marker="o", label=label)
        axes[2].set_xscale("log")
        axes[2].set_yscale("log")
        axes[2].set_xlabel("N, elements in the list")
        axes[2].set_ylabel("µs (p50)")
        axes[2].legend()
    axes[2].set_title("change one element of a list of N references")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    print(f"wrote {path}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description="The SQLite layouts side by side (docs/layouts.md).")
    parser.add_argument("--results", default="results")
    parser.add_argument("--plot")
    arguments = parser.parse_args()
    path = lambda name: os.path.join(arguments.results, name)
    whole, projected = whole_and_projected(path, "layouts{}.csv")
    instructions, projected_instructions = whole_and_projected(path, "layouts{}-instructions.csv")
    store_records, tier2, lists = load(path("layouts-store-records.csv")), load(path("apollo-tier2.csv")), load(path("lists.csv"))
    if not any([whole, projected, instructions, store_records, tier2, lists]):
        print(f"none of the layouts' results is in {arguments.results}", file=sys.stderr)
        return 66
    sections = []
    if whole:
        sections.append("calendar.json, every layout and key strategy (WAL):\n\n" + calendar_table(whole, projected))
    if instructions:
        sections.append("Instructions per object, calendar.json, typePolicy (callgrind; x: against compact):\n\n"
                        + instructions_table(instructions, projected_instructions))
    if store_records:
        sections.append("The stores alone, 100,000 ten-field records (store-records.json, WAL, synchronous NORMAL):\n\n"
                        + store_records_table(store_records))
    if tier2:
        sections.append("Apollo iOS's Tier-2 scenarios (apollo-tier2.json: rollback journal, synchronous FULL, as theirs):\n\n"
                        + tier2_table(tier2))
    if lists:
        sections.append("Lists (lists.json, WAL, synchronous NORMAL), p50:\n\n" + lists_table(lists, "references")
                        + "\n\n" + lists_table(lists, "scalars"))
    print("\n\n".join(sections))
    plot(arguments.plot or path("layouts.png"), whole, instructions, projected_instructions, lists)
    return 0


if __name__ == "__main__":
    sys.exit(main())
