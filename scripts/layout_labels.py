"""The SQLite layouts' store labels in the workloads, in the pages' order, and the names the
pages (docs/layouts.md: scripts/layouts_page.py, scripts/narrow_reads_page.py) give them."""

LAYOUTS = ["sqlite-apollo", "sqlite-compact", "sqlite-rows", "sqlite-rows-rowid", "sqlite-rows-ordered"]
NAMES = {
    "sqlite-apollo": "apollo (2.x blob)",
    "sqlite-compact": "compact (ours)",
    "sqlite-rows": "rows (3.0, WITHOUT ROWID)",
    "sqlite-rows-rowid": "rows, rowid table",
    "sqlite-rows-ordered": "rows-ordered (ours)",
}

if __name__ == "__main__":
    import sys

    sys.exit("layout_labels.py: a module of scripts/layouts_page.py and scripts/narrow_reads_page.py, not a command")
