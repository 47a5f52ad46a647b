"""Compares what scripts/apollo3-interop's two directions read (run by that script, not alone).

OUT holds fixture.jsonl (the records meant), A-ours/A-apollo.jsonl (cachebench wrote; each read),
B-apollo/B-ours.jsonl (Apollo wrote; each read), A-rows.txt/B-rows.txt (the rows each wrote).
A record matches when the other side reads what the writer reads back and both are the fixture's
record (fields in no order; values and dates exact). KNOWN lists the records that differ as
docs/stores.md says, with what each side reads: such a record is a known difference, and one that
differs otherwise, or no longer differs, is a mismatch (exit 1).
"""
import json
import sys

def one(value, at=1):
    """A record of one field, `value`, as a side reads it."""
    return {"fields": {"value": {"at": at, "value": value}}}


def fails(prefix):
    """A read that fails with an error whose text begins so."""
    return {"error_prefix": prefix}


D = lambda text: {"double": text}
THREE_DEEP_AS_APOLLO_READS = {"fields": {
    "grid": {"at": 1700000000, "value": {"list": [
        {"list": [{"list": [{"bool": True}]}, {"list": [{"int": "2"}, {"int": "3"}]}]}, {"list": [{"list": []}]}]}},
    "strings": {"at": 1700000000, "value": {"list": [{"list": [{"list": [{"string": "a"}]}]}]}}}}

# (direction, key): (what the writer's side reads, what the other side reads, the reason), as
# docs/stores.md "Interoperability with Apollo's code" gives them. None: the fixture's record.
KNOWN = {
    ("A", "Edge:negativeZero"): (None, one({"bool": False}),
        "-0.0: REAL keeps no -0.0, so cachebench writes the text -0.0 in custom_scalar_value; Apollo parses it as JSON and narrows Bool first: false"),
    ("A", "Edge:negativeZeroInList"): (None, one({"list": [D("1.0"), {"bool": False}]}),
        "-0.0 in a list, as above"),
    ("A", "Edge:nan"): (None, fails("Error Domain=NSCocoaErrorDomain Code=3840"),
        "NaN: cachebench writes the text NaN in custom_scalar_value; not JSON, Apollo's read of the record fails"),
    ("A", "Edge:nul"): (None, one({"string": "a"}, at=0),
        "NUL: Apollo reads a text with String(cString:), cut at the first NUL"),
    ("B", "Edge:negativeZero"): (one(D("0.0")), one(D("0.0")),
        "-0.0: Apollo binds it as REAL, which SQLite stores as 0.0"),
    ("B", "Edge:negativeZeroInList"): (one({"list": [D("1.0"), D("0.0")]}), one({"list": [D("1.0"), D("0.0")]}),
        "-0.0 in a list, as above"),
    ("B", "Edge:nan"): (fails("Row has no populated value column"), fails("SQLite error 11: a row without a value"),
        "NaN: Apollo binds it as REAL, which SQLite stores as NULL: a row without a value, which both refuse"),
    ("B", "Edge:nul"): (one({"string": "a"}, at=0), one({"string": "a"}, at=0),
        "NUL: Apollo binds a text with length -1, so it writes what comes before the first NUL"),
    ("B", "Lists:threeDeep"): (THREE_DEEP_AS_APOLLO_READS,
        fails('SQLite error 11: rows of sub-record "Lists:threeDeep.grid.$[0]" out of order'),
        "a list three deep: on Linux Apollo writes its second level as JSON text at position -1 of the sub-record"
        " (the inner NSArray does not cast to [Record.Value]); Apollo reads the JSON's 1 back as true, cachebench"
        " refuses the record (SQLITE_CORRUPT: no such row in the layout)"),
}


def as_known(read, want):
    """Whether a read is what KNOWN says (`want`: a record without its key, or fails(...))."""
    if read is None:
        return False
    if "error_prefix" in want:
        return read.get("error", "").startswith(want["error_prefix"])
    return strip(read) == want


def load(path):
    with open(path, encoding="utf-8") as f:
        return {r["key"]: r for r in map(json.loads, f)}


def show(record):
    if record is None:
        return "nothing"
    if "error" in record:
        return "error: " + record["error"]
    if record.get("absent"):
        return "no record"
    return json.dumps(record["fields"], ensure_ascii=False, sort_keys=True)


def field_diffs(a, b):
    """The fields where two reads differ, as text."""
    if "fields" not in a or "fields" not in b:
        return [f"{show(a)} / {show(b)}"]
    out = []
    for name in sorted(set(a["fields"]) | set(b["fields"])):
        x, y = a["fields"].get(name), b["fields"].get(name)
        if x != y:
            out.append(f"{name}: {json.dumps(x, ensure_ascii=False)} / {json.dumps(y, ensure_ascii=False)}")
    return out


def strip(record):
    return {k: v for k, v in record.items() if k != "key"}


def main(out):
    fixture = load(f"{out}/fixture.jsonl")
    reads = {"A": (load(f"{out}/A-ours.jsonl"), load(f"{out}/A-apollo.jsonl"), "cachebench", "Apollo"),
             "B": (load(f"{out}/B-apollo.jsonl"), load(f"{out}/B-ours.jsonl"), "Apollo", "cachebench")}
    with open(f"{out}/builds.txt", encoding="utf-8") as f:
        print(f.read().rstrip())
    bad = 0
    summary = []
    for direction, (own, other, writer, reader) in reads.items():
        print(f"\n{direction}: {writer} writes; {writer} and {reader} read")
        counts = {"match": 0, "known": 0, "mismatch": 0}
        for key, want in fixture.items():
            w, r = own.get(key), other.get(key)
            if w == want and r == want:
                verdict, detail = "match", ""
            else:
                known = KNOWN.get((direction, key))
                if known is not None:
                    ew = strip(want) if known[0] is None else known[0]
                    er = strip(want) if known[1] is None else known[1]
                if known is not None and as_known(w, ew) and as_known(r, er):
                    verdict, detail = "known", f"known difference ({known[2]})"
                else:
                    verdict, detail = "mismatch", "MISMATCH"
                parts = []
                if w != want:
                    parts.append(f"{writer} reads back (fixture / read) " + "; ".join(field_diffs(want, w or {})))
                if r != want:
                    parts.append(f"{reader} reads (fixture / read) " + "; ".join(field_diffs(want, r or {})))
                detail += ": " + " | ".join(parts)
            counts[verdict] += 1
            print(f"  {key}: {verdict if verdict == 'match' else detail}")
        for k in (d for (dd, d) in KNOWN if dd == direction):
            if k not in fixture:
                print(f"  {k}: MISMATCH: a known difference of a record the fixture no longer holds")
                counts["mismatch"] += 1
        bad += counts["mismatch"]
        summary.append(f"{direction}: {counts['match']} match, {counts['known']} known differences, "
                       f"{counts['mismatch']} mismatches, of {len(fixture)} records")
    rows = [open(f"{out}/{d}-rows.txt", encoding="utf-8", errors="replace").read().splitlines() for d in "AB"]
    only_a = [x for x in rows[0] if x not in set(rows[1])]
    only_b = [x for x in rows[1] if x not in set(rows[0])]
    print(f"\nrows: A holds {len(rows[0])}, B {len(rows[1])}; {len(only_a)} of A's are not in B, {len(only_b)} of B's not in A"
          " (cache_key|field_name|position|int|string|hex(string)|float|bool|child_key|custom_scalar|written_at)")
    for x in only_a:
        print("  A only: " + x)
    for x in only_b:
        print("  B only: " + x)
    with open(f"{out}/A-metadata.txt") as fa, open(f"{out}/B-metadata.txt") as fb:
        print(f"schema_metadata: A {fa.read().strip()}, B {fb.read().strip()}")
    print("\nsummary: " + "; ".join(summary))
    print("verdict: " + ("every record matches or differs as docs/stores.md says" if bad == 0 else f"{bad} mismatches"))
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: compare.py OUT (run by scripts/apollo3-interop)", file=sys.stderr)
        sys.exit(2)
    try:
        sys.exit(main(sys.argv[1]))
    except (OSError, ValueError, KeyError) as e:
        print(f"compare.py: {e}", file=sys.stderr)
        sys.exit(2)
