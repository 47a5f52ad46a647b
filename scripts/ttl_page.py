#!/usr/bin/env python3
"""The tables and the plot of docs/ttl.md from runs of Workloads/ttl-default.json and ttl-calendar.json.

Usage: scripts/ttl_page.py results/ttl-default.csv results/ttl-small.csv results/ttl-calendar.csv
           [--instructions results/ttl-calendar-instructions.csv ...] [--out results/ttl.png]

Prints Markdown tables (what dates cost per store, from each file's first variant, for files with
a store both with dates and without; with --instructions, the instruction counts of those runs;
the TTL rows of the traffic per variant and key strategy) and draws one figure: the TTL miss share
(every traffic.secondsPerStep sweep given, a line style per workload) and the expired fields per
read (the first sweep) against secondsPerStep, a colour per key strategy.
A store with dates is labelled as the store without them plus "-dates" (memory, memory-dates).
Needs matplotlib (`python3 -m pip install matplotlib`).
"""
import argparse
import csv
import sys
from collections import OrderedDict

try:
    import matplotlib
except ImportError:
    sys.exit("ttl_page.py: needs matplotlib (make plot installs it: python3 -m pip install matplotlib)")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STRATEGIES = ["path", "typePolicy", "programmatic"]
COLOURS = {"path": "tab:blue", "typePolicy": "tab:orange", "programmatic": "tab:green"}
SUFFIX = "-dates"


def read(path):
    """{(workload, variant, store, keys, phase, metric): row} of a results CSV (docs/csv.md)."""
    try:
        with open(path, newline="") as handle:
            rows = list(csv.DictReader(handle))
    except OSError as error:
        sys.exit(f"Error: cannot read {path}: {error.strerror}")
    if rows and "metric" not in rows[0]:
        sys.exit(f"Error: {path}: not a cachebench results CSV (no 'metric' column)")
    return OrderedDict(((r["workload"], r["variant"], r["store"], r["keys"], r["phase"], r["metric"]), r) for r in rows)


def value(rows, workload, variant, store, keys, phase, metric, column):
    row = rows.get((workload, variant, store, keys, phase, metric))
    return float(row[column]) if row and row[column] != "" else None


def first_variant(rows):
    workload, variant = next(iter(rows))[:2]
    return workload, variant


def dated_pairs(rows):
    """(store, its dated twin) for every store of the file that has one, in the file's order."""
    stores = list(OrderedDict.fromkeys(key[2] for key in rows))
    return [(s, s + SUFFIX) for s in stores if s + SUFFIX in stores]


def dated_stores(rows):
    """The stores with dates (labelled `<store>-dates`), in the file's order."""
    return [s for s in OrderedDict.fromkeys(key[2] for key in rows) if s.endswith(SUFFIX)]


def change(before, after):
    if before is None or after is None or before == 0:
        return "-"
    return f"{(after - before) / before * 100:+.1f}%"


def human(number, unit=""):
    if number is None:
        return "-"
    if unit == "ns":
        return f"{number / 1000:.0f} µs" if number >= 1000 else f"{number:.0f} ns"
    return f"{number:,.1f}" if number < 1000 else f"{number:,.0f}"


def bytes_per_record(rows, workload, variant, store, keys):
    """(payload bytes per record, the store's bytes per record): SQLite's after a checkpoint, when
    the run has it (the WAL's size depends on when SQLite last checkpointed), else `bytes_per_record`."""
    def get(phase, metric):
        return value(rows, workload, variant, store, keys, phase, metric, "mean")
    records, payload = get("dedup", "records"), get("footprint", "payload_bytes")
    stored = get("footprint", "bytes_per_record_checkpointed") or get("footprint", "bytes_per_record")
    return (payload / records if records and payload is not None else None), stored


def cost_table(rows):
    """What dates cost, per store and key strategy, from the file's first variant (p50 timings)."""
    workload, variant = first_variant(rows)
    if not dated_pairs(rows):
        return ""
    lines = [f"**{workload}** ({variant or 'no variant'}; timings are p50 of the run's repetitions)", "",
             "| store | keys | payload B/record | with dates | store B/record | with dates | write | with dates "
             "| read | with dates, clock on | unchanged refetch, same date | a step later |",
             "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for plain, dated in dated_pairs(rows):
        for keys in STRATEGIES:
            def get(store, phase, metric):
                return value(rows, workload, variant, store, keys, phase, metric, "p50")
            (payload_plain, stored_plain), (payload_dated, stored_dated) = (
                bytes_per_record(rows, workload, variant, store, keys) for store in (plain, dated))
            if payload_plain is None:
                continue
            write_plain, write_dated = get(plain, "write", "latency"), get(dated, "write", "latency")
            read_plain, ttl_dated = get(plain, "read", "latency"), get(dated, "ttl", "latency")
            lines.append(
                f"| {plain} | {keys} | {human(payload_plain)} | {human(payload_dated)} ({change(payload_plain, payload_dated)}) "
                f"| {human(stored_plain)} | {human(stored_dated)} ({change(stored_plain, stored_dated)}) "
                f"| {human(write_plain, 'ns')} | {human(write_dated, 'ns')} ({change(write_plain, write_dated)}) "
                f"| {human(read_plain, 'ns')} | {human(ttl_dated, 'ns')} ({change(read_plain, ttl_dated)}) "
                f"| {human(get(dated, 'refresh', 'same_date_latency'), 'ns')} | {human(get(dated, 'refresh', 'latency'), 'ns')} |")
    return "\n".join(lines)


def instructions_table(rows):
    """Instruction counts (run --instructions) of writes and reads, with dates and without."""
    workload, variant = first_variant(rows)
    lines = [f"**{workload}**, instructions (`run --instructions`, `SWIFT_DETERMINISTIC_HASHING=1`)", "",
             "| store | keys | write | with dates | read | dated, clock off | dated, clock on | checks on vs off "
             "| the write's merge, dated | an unchanged refetch's merge a step later |",
             "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for plain, dated in dated_pairs(rows):
        for keys in STRATEGIES:
            def get(store, phase):
                return value(rows, workload, variant, store, keys, phase, "instructions", "mean")
            write_plain, write_dated = get(plain, "write"), get(dated, "write")
            read_plain, read_dated, ttl_dated = get(plain, "read"), get(dated, "read"), get(dated, "ttl")
            if write_plain is None:
                continue
            lines.append(
                f"| {plain} | {keys} | {human(write_plain)} | {human(write_dated)} ({change(write_plain, write_dated)}) "
                f"| {human(read_plain)} | {human(read_dated)} ({change(read_plain, read_dated)}) "
                f"| {human(ttl_dated)} ({change(read_plain, ttl_dated)}) | {change(read_dated, ttl_dated)} "
                f"| {human(get(dated, 'merge'))} | {human(get(dated, 'refresh'))} |")
    return "\n".join(lines)


def traffic_table(rows):
    """The traffic's TTL rows of every dated store's first pair, per variant and key strategy."""
    stores = dated_stores(rows)
    if not stores:
        return ""
    dated = stores[0]
    workload = first_variant(rows)[0]
    variants = list(OrderedDict.fromkeys(key[1] for key in rows))
    lines = [f"**{workload}**, store {dated} (the other dated stores give the same counts)", "",
             "| variant | keys | hit ratio | ttl_miss_share | stale_share | expired_fields per read | ttl_fetched_bytes | fetched_bytes |",
             "|---|---|--:|--:|--:|--:|--:|--:|"]
    for variant in variants:
        for keys in STRATEGIES:
            def get(metric):
                return value(rows, workload, variant, dated, keys, "traffic", metric, "mean")
            if get("hit_ratio") is None:
                continue
            lines.append(
                f"| {variant} | {keys} | {get('hit_ratio'):.3f} | {get('ttl_miss_share'):.3f} | {get('stale_share'):.3f} "
                f"| {get('expired_fields'):.1f} | {get('ttl_fetched_bytes') / 1e6:.1f} MB | {get('fetched_bytes') / 1e6:.1f} MB |")
    return "\n".join(lines)


def sweep_lines(rows):
    """(workload, dated store, [secondsPerStep], {strategy: ([ttl_miss_share], [expired_fields])})."""
    stores = dated_stores(rows)
    variants = [v for v in OrderedDict.fromkeys(key[1] for key in rows) if v.startswith("secondsPerStep=")]
    if not stores or not variants:
        return None
    workload, dated = first_variant(rows)[0], stores[0]
    lines = {}
    for keys in STRATEGIES:
        lines[keys] = tuple([value(rows, workload, v, dated, keys, "traffic", metric, "mean") for v in variants]
                            for metric in ("ttl_miss_share", "expired_fields"))
    return workload, dated, [int(v.split("=", 1)[1]) for v in variants], lines


def plot(files, out):
    """TTL miss share (every sweep) and expired fields per read (the first) against secondsPerStep,
    a colour per key strategy, a line style per workload."""
    sweeps = [line for line in map(sweep_lines, files) if line]
    if not sweeps:
        sys.exit("Error: no file has a traffic.secondsPerStep sweep with a store with dates")
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.4))
    for index, (workload, dated, seconds, lines) in enumerate(sweeps):
        for keys in STRATEGIES:
            style = dict(color=COLOURS[keys], marker="os^"[index % 3], linestyle=["-", "--", ":"][index % 3])
            miss, fields = lines[keys]
            left.plot(seconds, miss, label=f"{workload}, {keys}", **style)
            if index == 0:
                right.plot(seconds, fields, label=f"{workload}, {keys}", **style)
    for axis, title in ((left, "strict reads that missed only because of expiry"),
                        (right, f"expired fields per read ({sweeps[0][0]})")):
        axis.set_xscale("log")
        axis.set_xlabel("traffic.secondsPerStep (s)")
        axis.set_title(title, fontsize=10)
        axis.grid(True, alpha=0.3)
        axis.legend(fontsize=8)
    left.set_ylabel("ttl_miss_share (= stale_share when permissive)")
    figure.suptitle("@cacheControl maxAge 60 s to 1 h on half the types and fields; stores with dates", fontsize=11)
    figure.tight_layout()
    figure.savefig(out, dpi=110)
    print(f"wrote {out}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", nargs="+", help="results of Workloads/ttl-*.json")
    parser.add_argument("--instructions", nargs="*", default=[], help="results of run --instructions")
    parser.add_argument("--out", default="results/ttl.png")
    arguments = parser.parse_args()
    files = [read(path) for path in arguments.results]
    print("### What dates cost\n")
    for table in filter(None, map(cost_table, files)):
        print(table + "\n")
    for path in arguments.instructions:
        print(instructions_table(read(path)) + "\n")
    print("### What expiry refetches\n")
    for table in filter(None, map(traffic_table, files)):
        print(table + "\n")
    plot(files, arguments.out)


if __name__ == "__main__":
    main()
