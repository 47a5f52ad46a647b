#!/usr/bin/env python3
"""Summarises a scripts/paired-campaign directory: per campaign, the runs with any row regressed,
the rows flagged by store, the wall time, the pairs a row, and how far the largest row moved.

    python3 scripts/paired_summary.py /tmp/paired/c2
"""
import csv
import glob
import os
import re
import statistics
import sys

if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
    sys.exit("paired_summary.py: usage: python3 scripts/paired_summary.py DIRECTORY (of scripts/paired-campaign)")
directory = sys.argv[1]
if not os.path.isfile(os.path.join(directory, "summary.txt")):
    sys.exit(f"paired_summary.py: {directory}: no summary.txt: not a directory of scripts/paired-campaign")
summary = {}
for line in open(os.path.join(directory, "summary.txt")):
    name = line.split()[0]
    seconds = int(re.search(r"seconds=(\d+)", line).group(1))
    pairs = re.search(r"(\d+) pairs a row", line)
    detect = re.search(r"median over rows\): ([+-][\d.]+)%", line)
    summary[name] = (seconds, int(pairs.group(1)) if pairs else None, float(detect.group(1)) if detect else None,
                     "stopped early" in line, int(re.search(r"rc=(\d+)", line).group(1)))

campaigns = {}
for name in summary:
    campaigns.setdefault(re.sub(r"-\d+$", "", name), []).append(name)

for campaign, names in campaigns.items():
    flagged_runs = 0
    by_store = {}
    largest = []
    for name in names:
        path = os.path.join(directory, name + ".csv")
        if not os.path.exists(path):
            continue
        rows = list(csv.DictReader(open(path)))
        regressed = [r for r in rows if r["status"] == "regressed"]
        if regressed:
            flagged_runs += 1
        stores = {}
        for r in regressed:
            stores[r["store"]] = stores.get(r["store"], 0) + 1
        for store, count in stores.items():
            by_store.setdefault(store, []).append(count)
        largest.append(max(abs(float(r["ratio"]) - 1) for r in rows if r["ratio"]) * 100)
    seconds = [summary[n][0] for n in names]
    pairs = [summary[n][1] for n in names if summary[n][1]]
    detect = [summary[n][2] for n in names if summary[n][2] is not None]
    early = sum(summary[n][3] for n in names)
    print(f"{campaign}: {len(names)} runs, {flagged_runs} with a row regressed; "
          f"regressed rows by store (runs: rows each): "
          + (", ".join(f"{s} ({len(c)}: {min(c)}..{max(c)})" for s, c in sorted(by_store.items())) or "none"))
    print(f"  wall time {min(seconds)}..{max(seconds)} s (median {statistics.median(seconds):.0f}), "
          f"{early} stopped early; pairs a row {min(pairs)}..{max(pairs)}; "
          f"median detectable change +{min(detect):.1f}%..+{max(detect):.1f}% (median +{statistics.median(detect):.1f}%); "
          f"largest |change| of any row {min(largest):.1f}%..{max(largest):.1f}%")
