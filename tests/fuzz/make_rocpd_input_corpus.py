#!/usr/bin/env python3
"""Writes the seed corpus of the rocpd_input fuzzer (corpus/rocpd_input/): small SQLite files
(512-byte pages) with the parts of a rocpd database that input_database checks (the rocpd_metadata
view with a uuid and schema_version, the views kernels, memory_copies, regions), each seed missing
or changing one of them, plus a truncated copy. Run from anywhere; it overwrites the seeds."""
import os
import sqlite3
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "rocpd_input")

VIEWS = "CREATE VIEW kernels AS SELECT 1 AS id; CREATE VIEW memory_copies AS SELECT 1 AS id; " \
        "CREATE VIEW regions AS SELECT 1 AS id;"


def metadata(rows):
    selects = " UNION ALL ".join(f"SELECT '{t}' AS tag, '{v}' AS value" for t, v in rows)
    return f"CREATE VIEW rocpd_metadata AS {selects};"


SEEDS = {
    "seed-valid": metadata([("uuid", "u1"), ("schema_version", "3")]) + VIEWS,
    "seed-merged": metadata([("uuid", "u1"), ("schema_version", "3"), ("pid", "7"),
                             ("uuid", "u2"), ("pid", "8")]) + VIEWS,
    "seed-version-2": metadata([("uuid", "u1"), ("schema_version", "2")]) + VIEWS,
    "seed-no-uuid": metadata([("schema_version", "3")]) + VIEWS,
    "seed-no-version": metadata([("uuid", "u1")]) + VIEWS,
    "seed-no-regions": metadata([("uuid", "u1"), ("schema_version", "3")]) +
    "CREATE VIEW kernels AS SELECT 1 AS id; CREATE VIEW memory_copies AS SELECT 1 AS id;",
    "seed-old-layout": "CREATE TABLE rocpd_metadata (tag TEXT, value TEXT); "
    "INSERT INTO rocpd_metadata VALUES ('schema_version', '3');" + VIEWS,
    "seed-not-rocpd": "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);",
}


def build(sql):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "db")
        db = sqlite3.connect(path)
        db.execute("PRAGMA page_size = 512")
        db.executescript(sql)
        db.commit()
        db.execute("VACUUM")
        db.close()
        with open(path, "rb") as f:
            return f.read()


os.makedirs(OUT, exist_ok=True)
for name, sql in SEEDS.items():
    data = build(sql)
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
    if name == "seed-valid":
        with open(os.path.join(OUT, "seed-truncated"), "wb") as f:
            f.write(data[: len(data) // 2])
