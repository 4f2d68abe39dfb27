#!/usr/bin/env python3
"""Extracts the names of AMD's rocpd schema (tables, views and their columns, in order) from AMD's
SQL templates, as data for amd_reader_tests.py.

    extract_amd_schema_names.py DIR SOURCE > amd_rocpd_schema_names.json

DIR holds AMD's templates (rocpd_tables.sql, rocpd_views.sql, data_views.sql, summary_views.sql:
share/rocprofiler-sdk-rocpd of an AMD rocprofiler-sdk install, or
projects/rocprofiler-sdk/source/share/rocprofiler-sdk-rocpd of ROCm/rocm-systems); SOURCE says
where they came from (repository and commit), recorded in the output. The templates are run in an
in-memory SQLite with their placeholders filled in as AMD's writer fills them, and SQLite itself
reports each table's and view's columns; nothing of the SQL is kept, only the names.
"""
import json
import os
import sqlite3
import sys

UUID = "00000000-0000-7000-8000-000000000000"


def main():
    folder, source = sys.argv[1], sys.argv[2]
    db = sqlite3.connect(":memory:")
    for name in ("rocpd_tables.sql", "rocpd_views.sql", "data_views.sql", "summary_views.sql"):
        text = open(os.path.join(folder, name), encoding="utf-8").read()
        text = text.replace("{{uuid}}", "_" + UUID.replace("-", "_")).replace("{{guid}}", UUID)
        db.executescript(text)
    suffix = "_" + UUID.replace("-", "_")
    meta = dict(db.execute("SELECT tag, value FROM rocpd_metadata"))

    def columns(name):
        return [r[1] for r in db.execute(f'SELECT * FROM pragma_table_info("{name}")')]

    tables, views = {}, {}
    for kind, name in db.execute("SELECT type, name FROM sqlite_master WHERE name NOT LIKE "
                                 "'sqlite_%' AND type IN ('table', 'view') ORDER BY name"):
        if kind == "table":
            tables[name[: -len(suffix)] if name.endswith(suffix) else name] = columns(name)
        elif not (name.startswith("rocpd_") and name + suffix in
                  [n for (n,) in db.execute("SELECT name FROM sqlite_master")]):
            views[name] = columns(name)
    json.dump({"source": source, "schema_version": meta.get("schema_version"),
               "metadata_tags": sorted(meta), "tables": tables, "views": views},
              sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
