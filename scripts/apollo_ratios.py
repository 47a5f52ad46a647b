#!/usr/bin/env python3
"""Apollo iOS 2.3's Tier-2 figures against cachebench's, from interleaved runs (docs/apollo.md).

    scripts/apollo_ratios.py APOLLO_1.json OURS_1.json [APOLLO_2.json OURS_2.json ...]

Each APOLLO file is the dataset JSON that ../shared/tools/apollo-harness's `tier2` prints; each OURS
file is `cachebench export --format apollo` of a run of Workloads/apollo-tier2.json made right after
it (the pairs in turns: A, B, A, B, ...). For every store of ours and every scenario it prints, as a
Markdown table, the median over the pairs of Apollo's mean / ours (above 1: ours is faster; the
memory store against Apollo's InMemoryNormalizedCache, every SQLite layout against its
SQLiteNormalizedCache, opened our way and, `_as_apollo`, as Apollo opens its file), and for each SQLite layout the median of its p50 / its floor's
(`limit-<layout>-...`, docs/metrics.md#layout-floors): 1.00 is the floor itself. Apollo 2.3 has no
projected load: a projected load of ours is set against its whole load of the same records (what
2.3's `loadFields` does); the list load, the over-fetch and its matched-type-case-only baseline
have no ratio.
"""
import json
import statistics
import sys

SCENARIOS = [
    "single_key_load_10_fields",
    "batch_load_100_records",
    "projected_load_3_of_10_fields",
    "projected_batch_load_3_of_10_fields_100_records",
    "projected_list_load_100_elements",
    "inline_fragment_overfetch_40_fields_8_used",
    "inline_fragment_matched_type_case_only_8_fields",
    "single_record_merge_10_fields",
    "many_record_merge_1000_records",
    "pattern_delete_10k_records",
]

# Apollo 2.3 has no projected load: its `loadFields` is `loadRecords` and a filter, so a
# projected load is set against its whole load of the same records (docs/apollo.md#verdicts).
WHOLE_LOAD = {
    "projected_load_3_of_10_fields": "single_key_load_10_fields",
    "projected_batch_load_3_of_10_fields_100_records": "batch_load_100_records",
}


def means(path, statistic="mean_ms"):
    """{(backend, scenario): statistic} of one dataset (its mean, or p50_ms)."""
    try:
        with open(path, encoding="utf-8") as file:
            dataset = json.load(file)
    except (OSError, ValueError) as error:
        sys.exit(f"apollo_ratios.py: {path}: {error}")
    result = {}
    for entry in dataset.get("results", []):
        parts = entry.get("scenario", "").split(".")
        if len(parts) == 3 and parts[0] == "tier2":
            result[(parts[1], parts[2])] = float(entry[statistic])
    return result


def main(arguments):
    if len(arguments) < 2 or len(arguments) % 2:
        sys.exit("usage: scripts/apollo_ratios.py APOLLO_1.json OURS_1.json [APOLLO_2.json OURS_2.json ...]")
    pairs = [(means(a), means(b)) for a, b in zip(arguments[0::2], arguments[1::2])]
    # A floor's share from the medians: a few fsyncs that wait long move a mean of 50 far.
    medians = [means(b, "p50_ms") for b in arguments[1::2]]
    backends = []
    for _, ours in pairs:
        for backend, _ in ours:
            if backend not in backends and not backend.startswith("limit_"):
                backends.append(backend)
    print(f"Median of {len(pairs)} interleaved pair(s). Apollo 2.3 mean / ours (above 1: ours faster); "
          "in brackets, ours / its layout's floor (p50 over p50).\n")
    print("| scenario | " + " | ".join(f"`{b}`" for b in backends) + " |")
    print("|---|" + "---|" * len(backends))
    for scenario in SCENARIOS:
        cells = []
        for backend in backends:
            reference = "inmemory" if backend.startswith("inmemory") else "sqlite"
            theirs = lambda a: a.get((reference, scenario), a.get((reference, WHOLE_LOAD.get(scenario))))
            ratios = [theirs(a) / b[(backend, scenario)]
                      for a, b in pairs if theirs(a) is not None and (backend, scenario) in b]
            floor = floor_name(backend, pairs[0][1])
            shares = [b[(backend, scenario)] / b[(floor, scenario)]
                      for b in medians if floor and (backend, scenario) in b and (floor, scenario) in b]
            cell = f"{statistics.median(ratios):.2f}x" if ratios else "–"
            if shares:
                cell += f" ({statistics.median(shares):.2f})"
            cells.append(cell)
        print(f"| `{scenario}` | " + " | ".join(cells) + " |")


def floor_name(backend, ours):
    """The floor of a SQLite layout's backend (`sqlite` is the apollo layout), if it ran: a store
    opened as Apollo opens it (`_as_apollo`, docs/stores.md#how-a-file-is-opened) against the floor
    opened alike (`..._mmap0_fullmutex`), any other against the floor opened our way."""
    as_apollo = backend.endswith("_as_apollo")
    base = backend[: -len("_as_apollo")] if as_apollo else backend
    layout = {"sqlite": "apollo", "sqlite_apollo": "apollo", "sqlite_compact": "compact", "sqlite_rows": "rows",
              "sqlite_rows_rowid": "rows_rowid", "sqlite_rows_ordered": "rows_ordered"}.get(base)
    if not layout:
        return None
    # limit_<layout>_<journal>_<synchronous>[_mmap0_fullmutex]: the journal right after the
    # layout, so that rows does not take rows_rowid's or rows_ordered's floor.
    journals = ("delete", "truncate", "persist", "memory", "wal", "off")
    for candidate, _ in ours:
        if any(candidate.startswith(f"limit_{layout}_{journal}_") for journal in journals):
            if candidate.endswith("_mmap0_fullmutex") == as_apollo:
                return candidate
    return None


if __name__ == "__main__":
    main(sys.argv[1:])
