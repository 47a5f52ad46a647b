#!/usr/bin/env python3
"""Narrow reads of wide records, whole against projected: the tables of docs/layouts.md.

    scripts/narrow_reads_page.py [--results DIR] [--generated FILE]

Reads, from DIR (default results/), the CSVs of runs of this build, whole reads against
projected ones (read.projectedReads):
  layouts-narrow-samples.csv                    run Workloads/layouts-narrow.json --samples: its
                                                sweep of read.projectedReads gives both (results
                                                of before the sweep: this and a -projected twin)
  layouts-narrow-instructions.csv               the same with --instructions (not --quick: it
                                                would keep ItemsQuery alone)
  narrow-reads[-projected]-samples.csv          Workloads/narrow-reads[-projected].json --samples
  narrow-reads[-projected]-instructions.csv     the same with --instructions (every response:
                                                --quick's tenth would read records few details
                                                had written whole yet)
  narrow-lists[-projected]-...                  Workloads/narrow-lists[-projected].json, alike
and prints the tables as Markdown; a pair that is missing leaves its table out.

Which response is a narrow read comes from FILE, the workload.json that `cachebench generate
Workloads/narrow-reads.json --out DIR` writes: the operation of each response, in order (the same
seed and share draw the same at every k and list length, so one file serves both sweeps).

Exit codes: 0 done, 66 when none of the pairs is there.
"""
import argparse
import collections
import csv
import json
import os
import statistics
import sys

import layout_labels

LAYOUTS = layout_labels.LAYOUTS
NAMES = dict(layout_labels.NAMES)
CALENDAR = ["ItemsQuery", "ItemTitlesQuery", "ItemAgendaQuery"]


def samples(path):
    table = collections.defaultdict(list)
    with open(path) as file:
        for row in csv.DictReader(file):
            key = (row["variant"], row["store"], row["keys"], row["phase"], row["metric"])
            table[key].append((int(row["index"]), float(row["value"])))
    return table


def instructions(path):
    """(variant, store, keys) -> the read/instructions row; none when the run is not there."""
    if not os.path.exists(path):
        return {}
    with open(path) as file:
        return {
            (row["variant"], row["store"], row["keys"]): row
            for row in csv.DictReader(file)
            if row["phase"] == "read" and row["metric"] == "instructions"
        }


def grouped(table, key, group_of):
    """The samples of a metric, grouped by what group_of says of each index."""
    groups = collections.defaultdict(list)
    for index, value in table.get(key, []):
        groups[group_of(index)].append(value)
    return groups


def count(value):
    return f"{value:,.0f}"


def change(before, after):
    return f"{(after / before - 1) * 100:+.1f}%"


def time(ns):
    if ns >= 1_000_000:
        return f"{ns / 1_000_000:.2f} ms"
    return f"{ns / 1000:.0f} µs" if ns >= 10_000 else f"{ns / 1000:.1f} µs"


def projection(table, projected):
    """The rows of one variant of a run that sweeps read.projectedReads, as an unswept run's."""
    variant = f"projectedReads={'true' if projected else 'false'}"
    return {("",) + key[1:]: rows for key, rows in table.items() if key[0] == variant}


def whole_and_projected(results, name, load):
    """(whole, projected) of Workloads/<name>.json: the two variants of its sweep of
    read.projectedReads, or, from results of before the sweep, <name> and its -projected twin."""
    swept = load(os.path.join(results, name.format("")))
    if any(key[0].startswith("projectedReads=") for key in swept):
        return projection(swept, False), projection(swept, True)
    return swept, load(os.path.join(results, name.format("-projected")))


def calendar(results, keys):
    whole, projected = whole_and_projected(results, "layouts-narrow{}-samples.csv", samples)
    counts = list(whole_and_projected(results, "layouts-narrow{}-instructions.csv", instructions))
    operation = lambda index: index % len(CALENDAR)
    print(f"\n{keys}:\n")
    print("| layout | read | fields loaded | bytes loaded | instructions | Δ | p50 | Δ |")
    print("|---|---|---|---|---|---|---|---|")
    for store in ran(whole, LAYOUTS):
        key = ("", store, keys)
        fields = [grouped(t, key + ("lookup", "fields_loaded"), operation) for t in (whole, projected)]
        bytes_ = [grouped(t, key + ("lookup", "bytes_loaded"), operation) for t in (whole, projected)]
        latency = [grouped(t, key + ("read", "latency"), operation) for t in (whole, projected)]
        # Three reads a configuration, one per operation: ItemTitlesQuery reads fewest records,
        # ItemAgendaQuery more (start and end), ItemsQuery most; so min, p50 and max.
        read = [[float(c[key][s]) for s in ("max", "min", "p50")] if key in c else None for c in counts]
        for index, name in enumerate(CALENDAR):
            f = [statistics.median(x[index]) for x in fields]
            b = [statistics.median(x[index]) for x in bytes_]
            t = [statistics.median(x[index]) for x in latency]
            i = f"{count(read[0][index])} → {count(read[1][index])}" if all(read) else "-"
            di = change(read[0][index], read[1][index]) if all(read) else "-"
            print(f"| {NAMES[store]} | `{name}` | {count(f[0])} → {count(f[1])} | {count(b[0])} → {count(b[1])} | {i} | {di} | {time(t[0])} → {time(t[1])} | {change(t[0], t[1])} |")


def ran(samples_by_key, layouts):
    """The layouts of `layouts` that the run has samples of, in that order (a workload need not
    run every layout)."""
    stores = {key[1] for key in samples_by_key}
    return [store for store in layouts if store in stores]


def generated(results, name, narrow):
    """One row a variant: what the list reads loaded, whole → projected (alike in every layout),
    then per layout the change in the instructions of all the reads and, in brackets, in the list
    reads' p50."""
    whole = samples(os.path.join(results, f"{name}-samples.csv"))
    projected = samples(os.path.join(results, f"{name}-projected-samples.csv"))
    counts = [instructions(os.path.join(results, f"{name}{p}-instructions.csv")) for p in ("", "-projected")]
    is_narrow = lambda index: narrow[index % len(narrow)]
    order = lambda variant: [int(part) if part.isdigit() else part for part in variant.replace("=", ",").replace(":", ",").strip("}").split(",")]
    variants = sorted({key[0] for key in whole}, key=order)
    layouts = ran(whole, LAYOUTS)
    print(f"\n{name}: read instructions Δ (list read p50 Δ), projected against whole\n")
    print("| variant | list reads: fields loaded | bytes loaded | " + " | ".join(NAMES[s] for s in layouts) + " |")
    print("|---|---|---|" + "---|" * len(layouts))
    for variant in variants:
        cells = []
        fields = bytes_ = None
        for store in layouts:
            key = (variant, store, "typePolicy")
            fields = [sum(grouped(t, key + ("lookup", "fields_loaded"), is_narrow)[True]) for t in (whole, projected)]
            bytes_ = [sum(grouped(t, key + ("lookup", "bytes_loaded"), is_narrow)[True]) for t in (whole, projected)]
            lists = [statistics.median(grouped(t, key + ("read", "latency"), is_narrow)[True]) for t in (whole, projected)]
            total = [float(c[key]["mean"]) * int(c[key]["n"]) if key in c else None for c in counts]
            cell = change(total[0], total[1]) if all(total) else "-"
            cells.append(f"{cell} ({change(lists[0], lists[1])})")
        print(f"| `{variant}` | {count(fields[0])} → {count(fields[1])} | {count(bytes_[0])} → {count(bytes_[1])} | " + " | ".join(cells) + " |")
    print(f"\n{name}: instructions of all the reads, whole → projected\n")
    print("| variant | " + " | ".join(NAMES[s] for s in layouts) + " |")
    print("|---|" + "---|" * len(layouts))
    for variant in variants:
        cells = []
        for store in layouts:
            key = (variant, store, "typePolicy")
            total = [float(c[key]["mean"]) * int(c[key]["n"]) if key in c else None for c in counts]
            cells.append(f"{count(total[0])} → {count(total[1])}" if all(total) else "-")
        print(f"| `{variant}` | " + " | ".join(cells) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default="results")
    parser.add_argument("--generated", help="the workload.json of cachebench generate Workloads/narrow-reads.json")
    args = parser.parse_args()
    printed = False
    if os.path.exists(os.path.join(args.results, "layouts-narrow-samples.csv")):
        for keys in ("typePolicy", "path", "programmatic"):
            calendar(args.results, keys)
        printed = True
    if args.generated:
        with open(args.generated) as file:
            entries = json.load(file)["recorded"]["operations"]
        narrow = [entry["operationName"].endswith("ListQuery") for entry in entries]
        for name in ("narrow-reads", "narrow-lists"):
            if all(os.path.exists(os.path.join(args.results, f"{name}{p}-samples.csv")) for p in ("", "-projected")):
                generated(args.results, name, narrow)
                printed = True
    if not printed:
        print(f"{args.results}: none of the runs is there", file=sys.stderr)
        return 66
    return 0


if __name__ == "__main__":
    sys.exit(main())
