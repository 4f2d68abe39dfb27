#!/usr/bin/env python3
"""Reads databases rocprofv3 wrote as a program written against AMD's rocpd schema reads them.

    amd_reader_tests.py --names amd_rocpd_schema_names.json DB=CSV_PREFIX...

The names (AMD's tables, views and their columns, in order) are data taken from AMD's own SQL
templates by extract_amd_schema_names.py; the file says which AMD commit and schema version. For
each database (DB, with the CSV files rocprofv3 wrote in the same run at CSV_PREFIX_*.csv):
  1. rocpd_metadata holds AMD's tags (schema_version, uuid, guid) with AMD's schema version, and
     uuid is the suffix of every rocpd_* table;
  2. every AMD view and per-table view answers a SELECT of AMD's columns by name, and shows them
     in AMD's order;
  3. the file opened as AMD's reader opens several files (attach, find the tables by each file's
     uuid, one view per table over them) answers the same SELECTs of AMD's table columns;
  4. the content is the run's: kernels holds each kernel of kernel_trace.csv as often (by name),
     top_kernels and top count the same calls, memory_copies holds memory_copy_trace.csv's copies
     (by direction), regions marker_api_trace.csv's rows (by function), processes the run's pid,
     threads every thread of the CSV files, busy a row per agent that ran a kernel.
Prints "amd_reader_tests: OK" when every check passes.
"""
import argparse
import collections
import csv
import json
import os
import sqlite3
import sys

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def csv_rows(path):
    if not os.path.exists(path):
        return None
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def quoted(names):
    return ", ".join(f'"{n}"' for n in names)


def select(db, view, columns):
    """SELECT of AMD's columns by name; returns (column names as SQLite reports them, rows)."""
    try:
        cur = db.execute(f'SELECT {quoted(columns)} FROM "{view}"')
        return [d[0] for d in cur.description], cur.fetchall()
    except sqlite3.Error as e:
        check(False, f"{view}: AMD's columns cannot be selected: {e}")
        return [], []


def check_database(names, path, prefix):
    label = os.path.basename(path)
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    meta = db.execute("SELECT tag, value FROM rocpd_metadata").fetchall()
    tags = dict(meta)
    for tag in names["metadata_tags"]:
        check(tag in tags, f"{label}: rocpd_metadata has no {tag}")
    check(tags.get("schema_version") == names["schema_version"],
          f"{label}: schema_version {tags.get('schema_version')}, AMD's {names['schema_version']}")
    suffix = tags.get("uuid", "")
    check(suffix == "_" + tags.get("guid", "").replace("-", "_"),
          f"{label}: uuid {suffix!r} is not guid {tags.get('guid')!r} as a suffix")
    tables = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND "
                                       "name LIKE 'rocpd_%'")]
    for t in tables:
        check(t.endswith(suffix), f"{label}: table {t} lacks the run's suffix {suffix}")

    # 2. AMD's views and per-table views, by AMD's column names, in AMD's order.
    for kind in ("tables", "views"):
        for view, columns in names[kind].items():
            got, _ = select(db, view, columns)
            have = [r[1].lower() for r in db.execute(f'SELECT * FROM pragma_table_info("{view}")')]
            check(have == [c.lower() for c in columns],
                  f"{label}: {view} has the columns {have}, AMD's are {columns}")
            if kind == "tables":
                check(view + suffix in tables, f"{label}: no table {view}{suffix}")

    # 3. As AMD's reader opens files: attached, its tables found by the file's uuid values.
    reader = sqlite3.connect(":memory:")
    reader.execute("ATTACH DATABASE ? AS db0", (f"file:{path}?mode=ro",))
    uuids = [v for (v,) in reader.execute("SELECT value FROM db0.rocpd_metadata WHERE tag = 'uuid'")]
    found = {}
    for (t,) in reader.execute("SELECT name FROM db0.sqlite_master WHERE type = 'table' AND "
                               "name LIKE 'rocpd_%'").fetchall():
        for u in uuids:
            if u in t:
                found[t.replace(u, "")] = f'SELECT * FROM db0."{t.replace(u, "")}"'
    check(set(found) == set(names["tables"]),
          f"{label}: the tables found by uuid are {sorted(found)}, AMD's {sorted(names['tables'])}")
    for base, sql in found.items():
        reader.execute(f'CREATE TEMP VIEW "{base}" AS {sql}')
        if base in names["tables"]:
            select(reader, base, names["tables"][base])

    # 4. The run's content.
    k = collections.Counter(n for (n,) in db.execute("SELECT name FROM kernels"))
    trace = csv_rows(prefix + "_kernel_trace.csv")
    if trace is not None:
        want = collections.Counter(r["Kernel_Name"] for r in trace)
        check(sum(want.values()) > 0, f"{prefix}_kernel_trace.csv has no row")
        check(k == want, f"{label}: kernels by name {dict(k)}, kernel_trace.csv {dict(want)}")
        top = dict(db.execute("SELECT name, total_calls FROM top_kernels"))
        check(top == dict(want), f"{label}: top_kernels calls {top}, CSV {dict(want)}")
        top_all = dict(db.execute("SELECT name, total_calls FROM top"))
        for name, n in want.items():
            check(top_all.get(name) == n, f"{label}: top has {top_all.get(name)} calls of {name}")
        agents = {a for (a,) in db.execute("SELECT DISTINCT agent_id FROM rocpd_kernel_dispatch")}
        busy = {a for (a,) in db.execute("SELECT agent_id FROM busy")}
        check(agents <= busy, f"{label}: busy has agents {busy}, the kernels ran on {agents}")
    copies = csv_rows(prefix + "_memory_copy_trace.csv")
    if copies is not None:
        m = collections.Counter(n for (n,) in db.execute("SELECT name FROM memory_copies"))
        want = collections.Counter(r["Direction"] for r in copies)
        check(sum(want.values()) > 0, f"{prefix}_memory_copy_trace.csv has no row")
        check(m == want, f"{label}: memory_copies by name {dict(m)}, the CSV {dict(want)}")
    markers = csv_rows(prefix + "_marker_api_trace.csv")
    if markers is not None:
        r = collections.Counter(n for (n,) in db.execute("SELECT name FROM regions"))
        want = collections.Counter(row["Function"] for row in markers)
        check(sum(want.values()) > 0, f"{prefix}_marker_api_trace.csv has no row")
        check(r == want, f"{label}: regions by name {dict(r)}, marker_api_trace.csv {dict(want)}")
    pids = [p for (p,) in db.execute("SELECT pid FROM processes")]
    check(pids == [int(tags.get("pid", -1))], f"{label}: processes has pids {pids}")
    threads = {t for (t,) in db.execute("SELECT tid FROM threads")}
    csv_threads = {int(row["Thread_Id"]) for rows in (trace, copies, markers) for row in rows or []}
    check(csv_threads <= threads, f"{label}: threads {threads} lacks {csv_threads - threads}")
    db.close()
    reader.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--names", required=True)
    parser.add_argument("cases", nargs="+", metavar="DB=CSV_PREFIX")
    args = parser.parse_args()
    names = json.load(open(args.names))
    print(f"AMD's names from {names['source']}, schema version {names['schema_version']}")
    for case in args.cases:
        path, prefix = case.split("=", 1)
        try:
            check_database(names, path, prefix)
        except sqlite3.Error as e:
            check(False, f"{path}: {e}")
    for f in failures[:40]:
        print("FAIL: " + f, file=sys.stderr)
    if failures:
        print(f"amd_reader_tests: {len(failures)} failure(s)")
        return 1
    print("amd_reader_tests: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
