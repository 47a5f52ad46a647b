#!/usr/bin/env python3
"""Independent check of the calendar corpus's record counts under the three key strategies.

Walks calendar_response.json with Python's json module and docs/keys.md's rules, without any of
cachebench's code: the concrete type of each object comes from a field -> type map read by hand
from schema.graphqls (the response has no __typename on the {id, node} wrappers), the keyed
types from Workloads/calendar/extensions.graphqls. Prints the object count and, per strategy,
the number of records (QUERY_ROOT included). The Swift tests assert the same numbers.

Usage: scripts/calendar_counts.py [Workloads/calendar/calendar_response.json]
"""
import json
import sys

# Field name -> named type, by parent type, as schema.graphqls declares them.
FIELD_TYPES = {
    "Query": {"items": "ItemConnection"},
    "ItemConnection": {"edges": "ItemEdge", "pageInfo": "PageInfo"},
    "ItemEdge": {"node": "Item"},
    "Item": {"type": "ItemTypeEdge", "icon": "IconEdge", "category": "CategoryEdge",
             "start": "DateTimeInfo", "end": "DateTimeInfo", "series": "SeriesInfo",
             "calendar": "CalendarEdge"},
    "ItemTypeEdge": {"node": "ItemType"},
    "ItemType": {"defaultCategory": "CategoryEdge", "defaultIcon": "IconEdge"},
    "IconEdge": {"node": "Icon"},
    "CategoryEdge": {"node": "Category"},
    "Category": {"icon": "IconEdge"},
    "SeriesInfo": {"node": "Series"},
    "Series": {"rules": "RuleInfo"},
    "RuleInfo": {"start": "DateTimeInfo", "until": "DateTimeInfo", "byDays": "RuleByDaysInfo"},
    "CalendarEdge": {"node": "Calendar"},
    "Calendar": {"provider": "CalendarProviderEdge"},
    "CalendarProviderEdge": {"node": "CalendarProvider"},
}
TYPE_POLICY = {"Item", "ItemEdge", "ItemType", "Icon", "Category", "Calendar", "CalendarProvider", "Series"}
# Apollo's CacheKeyForField: an input object in brackets, its fields sorted (docs/keys.md).
ROOT_FIELD_KEY = ("items([args:[filterBy:deleted:false,endingAfter:2022-01-01T00:00:00Z,"
                  "startingBefore:2023-01-01T00:00:00Z]])")


def scalar_id(value):
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    return None


def escape(s):
    return s.replace("\\", "\\\\").replace("+", "\\+")


def count(data, strategy):
    keys = {"QUERY_ROOT"}
    objects = 0

    def key_for(obj, typename, path):
        if strategy == "typePolicy" and typename in TYPE_POLICY and scalar_id(obj.get("id")) is not None:
            return typename + ":" + escape(scalar_id(obj["id"]))
        if strategy == "programmatic" and scalar_id(obj.get("id")) is not None:  # the `id` resolver
            return typename + ":" + scalar_id(obj["id"])
        return path

    def walk(value, typename, path):
        nonlocal objects
        if isinstance(value, list):
            for index, element in enumerate(value):
                walk(element, typename, path + "." + str(index))
        elif isinstance(value, dict):
            objects += 1
            typename = value.get("__typename", typename)
            key = key_for(value, typename, path)
            keys.add(key)
            visit(value, typename, key)

    def visit(obj, typename, key):
        for field, child in obj.items():
            child_type = FIELD_TYPES.get(typename, {}).get(field)
            if child_type is not None:
                walk(child, child_type, key + "." + field)
            elif isinstance(child, (dict, list)) and any(isinstance(x, dict) for x in (child if isinstance(child, list) else [child])):
                raise SystemExit(f"unmapped object field {typename}.{field}")

    items = data["items"]
    walk(items, "ItemConnection", "QUERY_ROOT." + ROOT_FIELD_KEY)
    return objects, len(keys)


def main():
    if len(sys.argv) > 2 or (len(sys.argv) == 2 and sys.argv[1].startswith("-")):
        sys.exit("calendar_counts.py: usage: scripts/calendar_counts.py [RESPONSE.json]")
    path = sys.argv[1] if len(sys.argv) > 1 else "Workloads/calendar/calendar_response.json"
    try:
        with open(path) as f:
            data = json.load(f)["data"]
        data["items"]
    except (OSError, ValueError) as error:
        sys.exit(f"calendar_counts.py: {path}: {error}")
    except (KeyError, TypeError):
        sys.exit(f"calendar_counts.py: {path}: no data.items, as the calendar's response has")
    for strategy in ("path", "typePolicy", "programmatic"):
        objects, records = count(data, strategy)
        print(f"{strategy:13} objects={objects} records={records}")


if __name__ == "__main__":
    main()
