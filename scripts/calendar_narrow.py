#!/usr/bin/env python3
"""The responses of the calendar's narrow operations (issue 39 item 3), cut from the whole one.

    scripts/calendar_narrow.py [--check]

Workloads/calendar/ItemTitlesQuery.graphql and ItemAgendaQuery.graphql read the items of
ItemsQuery (the same root field, the same arguments, so the same entities) with fewer fields.
Their responses are calendar_response.json with only what they select: each object keeps its
`__typename` where the whole response has one (as ItemsQuery's response does without selecting
it), and the selected fields in the whole response's order. Writes
Workloads/calendar/ItemTitlesQuery_response.json and ItemAgendaQuery_response.json; --check
compares them with what is written instead, exit 1 when they differ.
"""
import json
import os
import sys

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Workloads", "calendar")
DATE_TIME = {"date": None, "dateTime": None, "timeZone": None}
SELECTIONS = {
    "ItemTitlesQuery": {"items": {"edges": {"id": None, "node": {"id": None, "title": None}}}},
    "ItemAgendaQuery": {
        "items": {"edges": {"id": None, "node": {"id": None, "title": None, "start": DATE_TIME, "end": DATE_TIME}}}
    },
}


def project(value, selection):
    """The value cut to the selection: None selects a leaf whole."""
    if selection is None or value is None:
        return value
    if isinstance(value, list):
        return [project(element, selection) for element in value]
    return {
        key: project(field, selection.get(key))
        for key, field in value.items()
        if key == "__typename" or key in selection
    }


def fail(message):
    """One line on standard error, exit 2: never a traceback."""
    print(f"calendar_narrow.py: {message}", file=sys.stderr)
    sys.exit(2)


def main():
    unknown = [argument for argument in sys.argv[1:] if argument != "--check"]
    if unknown:
        fail(f"unknown argument '{unknown[0]}' (usage: scripts/calendar_narrow.py [--check])")
    source = os.path.join(HERE, "calendar_response.json")
    try:
        with open(source) as file:
            whole = json.load(file)
    except (OSError, ValueError) as error:
        fail(f"{source}: {error}")
    data = whole.get("data", whole) if isinstance(whole, dict) else None
    edges = data.get("items", {}).get("edges") if isinstance(data, dict) and isinstance(data.get("items"), dict) else None
    if not isinstance(edges, list) or not edges:
        fail(f"{source}: no data.items.edges to cut the narrow responses from")
    differ = False
    for name, selection in SELECTIONS.items():
        text = json.dumps({"data": project(data, selection)}, separators=(",", ":"), ensure_ascii=False) + "\n"
        path = os.path.join(HERE, name + "_response.json")
        if "--check" in sys.argv[1:]:
            if not os.path.exists(path):
                print(f"{path}: missing, where the script writes one", file=sys.stderr)
                differ = True
                continue
            with open(path) as file:
                if file.read() != text:
                    print(f"{path}: differs from what the script writes", file=sys.stderr)
                    differ = True
            continue
        with open(path, "w") as file:
            file.write(text)
        print(f"wrote {path} ({len(text.encode())} bytes)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
