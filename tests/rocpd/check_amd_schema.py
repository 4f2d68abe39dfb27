#!/usr/bin/env python3
"""Checks rocpd's layout (AMD's schema, docs/rocpd.md "The schema") without a build.

    check_amd_schema.py [--schema FILE]        the schema text: rocpd/schema.sql by default
    check_amd_schema.py --database DB...       databases a writer made in that layout

With --schema (the default) the file's placeholders are filled in as the writer will fill them
({{uuid}} -> '_' + the UUID with '-' made '_', {{guid}} -> the UUID), the text runs in an in-memory
SQLite, and then:
  1. every statement ran; every table carries the suffix; rocpd_metadata holds schema_version 3,
     uuid (the suffix) and guid;
  2. the rocpd_* tables have AMD's columns in AMD's order, nothing more (TABLES below);
  3. every table has its unsuffixed view with the table's columns;
  4. every view AMD's tools query exists with AMD's columns in AMD's order (VIEWS below) and reads
     exactly the tables it should (SQLite's authorizer reports each table a prepared SELECT reads,
     through the views);
  5. a small run's rows, inserted with foreign keys enforced, come out of every view with the
     expected number of rows and values (no row lost by a join);
  6. a second run with another UUID and the same ids, merged as `rocpd merge` will merge
     (its suffixed tables beside the first's, each rocpd_<x> view the UNION ALL of both), keeps
     the runs apart in every view (joins on id and guid), and the tables a reader finds from each
     rocpd_metadata uuid all have their unsuffixed view;
  7. the two runs as two files, opened together the way AMD's reader opens several files (attach,
     find the tables by each file's uuid, union the files' per-table views, define the other
     views over those), show the same rows as the merged file.
With --database, checks 1-4 on each file (read-only), and that kernels, memory_copies and regions
have as many rows as the tables under them.

With --amd-views DIR (a folder holding AMD's installed rocpd templates rocpd_views.sql,
data_views.sql and summary_views.sql: share/rocprofiler-sdk-rocpd of an AMD rocprofiler-sdk
install), also:
  8. AMD's own views, loaded from those files as AMD's reader loads them over one file and over
     two files of this layout, show the same columns and rows as this layout's views. Over two
     files, AMD's threads and memory_allocations views also pair a row with the other file's
     process or thread (their joins there do not match the guid); for those two, each of this
     layout's rows must be among AMD's.

CTest runs it twice (tests/rocpd/CMakeLists.txt): on the schema file, and with --database on the
databases tests/rocpd writes. Exit 0 when every check passes; otherwise each failure on stderr and
exit 1.
"""
import argparse
import os
import re
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SCHEMA = os.path.join(
    HERE, "..", "..", "source", "lib", "rocprofiler-sdk-tool", "rocpd", "schema.sql"
)

# AMD's tables (schema version 3), their columns in order. The interface: a program written
# against AMD's schema names these.
TABLES = {
    "rocpd_metadata": "id tag value",
    "rocpd_string": "id guid string",
    "rocpd_info_node": "id guid hash machine_id system_name hostname release version "
    "hardware_name domain_name",
    "rocpd_info_process": "id guid nid ppid pid init fini start end command environment extdata",
    "rocpd_info_thread": "id guid nid ppid pid tid name start end extdata",
    "rocpd_info_agent": "id guid nid pid type absolute_index logical_index type_index uuid name "
    "model_name vendor_name product_name user_name extdata",
    "rocpd_info_queue": "id guid nid pid name extdata",
    "rocpd_info_stream": "id guid nid pid name extdata",
    "rocpd_info_pmc": "id guid nid pid agent_id target_arch event_code instance_id name symbol "
    "description long_description component units value_type block expression is_constant "
    "is_derived extdata",
    "rocpd_info_code_object": "id guid nid pid agent_id uri load_base load_size load_delta "
    "storage_type extdata",
    "rocpd_info_kernel_symbol": "id guid nid pid code_object_id kernel_name display_name "
    "kernel_object kernarg_segment_size kernarg_segment_alignment group_segment_size "
    "private_segment_size sgpr_count arch_vgpr_count accum_vgpr_count extdata",
    "rocpd_track": "id guid nid pid tid name_id extdata",
    "rocpd_event": "id guid category_id stack_id parent_stack_id correlation_id call_stack "
    "line_info extdata",
    "rocpd_arg": "id guid event_id position type name value extdata",
    "rocpd_pmc_event": "id guid event_id pmc_id value extdata",
    "rocpd_region": "id guid nid pid tid start end name_id event_id extdata",
    "rocpd_sample": "id guid track_id timestamp event_id extdata",
    "rocpd_kernel_dispatch": "id guid nid pid tid agent_id kernel_id dispatch_id queue_id "
    "stream_id start end private_segment_size group_segment_size workgroup_size_x "
    "workgroup_size_y workgroup_size_z grid_size_x grid_size_y grid_size_z region_name_id "
    "event_id extdata",
    "rocpd_memory_copy": "id guid nid pid tid start end name_id dst_agent_id dst_address "
    "src_agent_id src_address size queue_id stream_id region_name_id event_id extdata",
    "rocpd_memory_allocate": "id guid nid pid tid agent_id type level start end address size "
    "queue_id stream_id event_id extdata",
}
# This SDK's own tables (AMD's readers look at rocpd_* only).
OWN_TABLES = {"rocprofv3_kernel_replay_outcome", "rocprofv3_raw_name"}
# The one table without a run's suffix: what `rocpd merge` records of a merged file's inputs
# (docs/design/rocpd_amd_schema.md, "rocpd merge").
UNSUFFIXED_OK = {"rocprofv3_merge"}

# AMD's views: columns in order, and the tables (unsuffixed names) each reads.
VIEWS = {
    "code_objects": (
        "id guid nid pid agent_abs_index uri load_base load_size load_delta storage_type_str "
        "code_object_size storage_type memory_base memory_size",
        "info_code_object info_agent info_process",
    ),
    "kernel_symbols": (
        "id guid nid pid code_object_id kernel_name display_name kernel_object "
        "kernarg_segment_size kernarg_segment_alignment group_segment_size private_segment_size "
        "sgpr_count arch_vgpr_count accum_vgpr_count kernel_symbol_size kernel_id "
        "kernel_code_entry_byte_offset formatted_kernel_name demangled_kernel_name "
        "truncated_kernel_name kernel_address",
        "info_kernel_symbol info_process",
    ),
    "processes": (
        "nid machine_id system_name hostname system_release system_version guid ppid pid init "
        "start end fini command",
        "info_process info_node",
    ),
    "threads": (
        "nid machine_id system_name hostname system_release system_version guid ppid pid tid "
        "start end name",
        "info_thread info_process info_node",
    ),
    "regions": (
        "id guid category name nid pid tid start end duration event_id stack_id parent_stack_id "
        "corr_id extdata call_stack line_info",
        "region event string info_process info_thread",
    ),
    "region_args": ("id guid nid pid type name value", "region event arg info_process"),
    "samples": (
        "id guid category name nid pid tid timestamp event_id stack_id parent_stack_id corr_id "
        "extdata call_stack line_info",
        "sample track event string info_process info_thread",
    ),
    "sample_regions": (
        "id guid category name nid pid tid start end duration event_id stack_id parent_stack_id "
        "corr_id extdata call_stack line_info",
        "sample track event string info_process info_thread",
    ),
    "regions_and_samples": (
        "id guid category name nid pid tid start end duration event_id stack_id parent_stack_id "
        "corr_id extdata call_stack line_info",
        "region sample track event string arg_unused info_process info_thread",
    ),
    "kernels": (
        "id guid tid category region name nid pid agent_abs_index agent_log_index "
        "agent_type_index agent_type code_object_id kernel_id dispatch_id stream_id queue_id "
        "queue stream start end duration grid_x grid_y grid_z workgroup_x workgroup_y "
        "workgroup_z lds_size scratch_size vgpr_count accum_vgpr_count sgpr_count "
        "static_lds_size static_scratch_size stack_id parent_stack_id corr_id",
        "kernel_dispatch info_agent event string info_kernel_symbol info_stream info_queue "
        "info_process info_thread",
    ),
    "pmc_info": (
        "id guid nid pid agent_abs_index is_constant is_derived name description block "
        "expression",
        "info_pmc info_agent info_process",
    ),
    "pmc_events": (
        "id guid pmc_id event_id category name nid pid dispatch_id start end duration "
        "counter_name counter_value",
        "pmc_event info_pmc event string kernel_dispatch info_kernel_symbol info_process",
    ),
    "events_args": (
        "event_id category stack_id parent_stack_id correlation_id arg_position arg_type "
        "arg_name arg_value call_stack line_info extdata",
        "event arg string",
    ),
    "stream_args": (
        "argument_id event_id arg_position arg_type arg_value stream_id nid pid stream_name "
        "extdata",
        "arg info_stream info_process",
    ),
    "memory_copies": (
        "id guid category nid pid tid start end duration name region_name stream_id queue_id "
        "stream_name queue_name size dst_device dst_agent_abs_index dst_agent_log_index "
        "dst_agent_type_index dst_agent_type dst_address src_device src_agent_abs_index "
        "src_agent_log_index src_agent_type_index src_agent_type src_address stack_id "
        "parent_stack_id corr_id",
        "memory_copy string info_agent info_queue info_stream event info_process info_thread",
    ),
    "memory_allocations": (
        "id guid category nid pid tid start end duration type level agent_name agent_abs_index "
        "agent_log_index agent_type_index agent_type address size queue_id queue_name stream_id "
        "stream_name stack_id parent_stack_id corr_id",
        "memory_allocate info_agent info_queue info_stream event string info_process "
        "info_thread",
    ),
    "scratch_memory": (
        "id guid nid pid operation agent_name agent_abs_index agent_log_index agent_type_index "
        "agent_type queue_id tid alloc_flags start end duration size address correlation_id "
        "stack_id parent_stack_id corr_id category event_extdata",
        "memory_allocate info_agent event string info_process info_thread",
    ),
    "counters_collection": (
        "id guid dispatch_id kernel_id event_id correlation_id stack_id parent_stack_id pid tid "
        "agent_id agent_abs_index agent_log_index agent_type_index agent_type queue_id "
        "grid_size_x grid_size_y grid_size_z grid_size kernel_name kernel_region "
        "workgroup_size_x workgroup_size_y workgroup_size_z workgroup_size lds_block_size "
        "scratch_size vgpr_count accum_vgpr_count sgpr_count counter_name counter_symbol "
        "component description block expression value_type counter_id value start end "
        "is_constant is_derived duration category nid extdata code_object_id",
        "pmc_event info_pmc event string kernel_dispatch info_agent info_kernel_symbol "
        "info_process info_thread",
    ),
    "top_kernels": (
        "name total_calls total_duration average percentage",
        "kernel_dispatch info_kernel_symbol",
    ),
    "busy": ("agent_id type GpuTime WallTime Busy", "kernel_dispatch memory_copy info_agent"),
    "top": (
        "name total_calls total_duration average percentage",
        "kernel_dispatch info_kernel_symbol memory_copy string region",
    ),
}
# regions_and_samples reads what regions and sample_regions read ("arg_unused" is not a table).
VIEWS["regions_and_samples"] = (
    VIEWS["regions_and_samples"][0],
    "region sample track event string info_process info_thread",
)

UUID_A = "0190b5e2-6c1d-7a3e-9f00-1b2c3d4e5f60"
UUID_B = "0190b5e2-7777-7bbb-8ccc-000000000002"


def suffix_of(uuid):
    return "_" + uuid.replace("-", "_")


class Checks:
    def __init__(self, label):
        self.label = label
        self.failures = []

    def expect(self, condition, message):
        if not condition:
            self.failures.append(f"{self.label}: {message}")
        return condition


def statements(text):
    """The schema's statements, in order (sqlite3.complete_statement decides where each ends)."""
    out, current = [], ""
    for line in text.splitlines(keepends=True):
        if not current and (line.strip() == "" or line.lstrip().startswith("--")):
            continue
        current += line
        if sqlite3.complete_statement(current):
            out.append(current.strip())
            current = ""
    if current.strip():
        out.append(current.strip())
    return out


def fill(text, uuid):
    return text.replace("{{uuid}}", suffix_of(uuid)).replace("{{guid}}", uuid)


def columns(db, name):
    """The columns of a table or view; none for a view that does not compile (a view it reads is
    missing), which the callers report as a difference."""
    try:
        return [r[1] for r in db.execute(f'SELECT * FROM pragma_table_info("{name}")')]
    except sqlite3.Error:
        return []


def objects(db, kind):
    return {
        r[0]
        for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%'", (kind,)
        )
    }


def tables_read(db, view):
    """The tables a SELECT of @p view reads, as SQLite's authorizer reports them (it reports the
    views on the way too: those are left out)."""
    seen = set()

    def authorizer(action, arg1, arg2, dbname, source):
        if action == sqlite3.SQLITE_READ and arg1 and not arg1.startswith("sqlite_"):
            seen.add(arg1)
        return sqlite3.SQLITE_OK

    db.set_authorizer(authorizer)
    try:
        db.execute(f'SELECT * FROM "{view}" LIMIT 0').fetchall()
    finally:
        db.set_authorizer(None)
    return seen & objects(db, "table")


def check_layout(db, checks, suffixes):
    """Checks 1-4 on an open database whose runs have @p suffixes."""
    tables, views = objects(db, "table"), objects(db, "view")
    for t in sorted(tables - UNSUFFIXED_OK):
        checks.expect(
            any(t.endswith(s) for s in suffixes), f"table {t} carries no run's suffix"
        )
    for s in suffixes:
        for base in list(TABLES) + sorted(OWN_TABLES):
            name = base + s
            if not checks.expect(name in tables, f"no table {name}"):
                continue
            if base in TABLES:
                checks.expect(
                    columns(db, name) == TABLES[base].split(),
                    f"{name} has columns {columns(db, name)}, AMD's are {TABLES[base].split()}",
                )
            if checks.expect(base in views, f"no view {base} over {name}"):
                checks.expect(
                    columns(db, base) == columns(db, name),
                    f"view {base} has columns {columns(db, base)}, {name} {columns(db, name)}",
                )
    meta = db.execute("SELECT tag, value FROM rocpd_metadata").fetchall()
    checks.expect(
        sorted(v for t, v in meta if t == "uuid") == sorted(suffixes),
        f"rocpd_metadata's uuid rows are not the runs' suffixes: {meta}",
    )
    checks.expect(
        {v for t, v in meta if t == "schema_version"} == {"3"},
        f"schema_version is not 3: {meta}",
    )
    checks.expect(
        len([v for t, v in meta if t == "guid"]) == len(suffixes), f"one guid per run: {meta}"
    )
    # What a reader does with several files: from each uuid in rocpd_metadata, the rocpd_* tables
    # whose names hold it, and the view named as the table without it.
    for uuid in (v for t, v in meta if t == "uuid"):
        for t in tables:
            if t.startswith("rocpd_") and uuid in t:
                checks.expect(t.replace(uuid, "") in views, f"no view for table {t}")
    for view, (cols, reads) in VIEWS.items():
        if not checks.expect(view in views, f"no view {view}"):
            continue
        checks.expect(
            columns(db, view) == cols.split(),
            f"view {view} has columns {columns(db, view)}, AMD's are {cols.split()}",
        )
        try:
            read = tables_read(db, view)
        except sqlite3.Error as e:
            checks.expect(False, f"view {view} does not run: {e}")
            continue
        expected = {f"rocpd_{t}{s}" for t in reads.split() for s in suffixes}
        checks.expect(
            read == expected,
            f"view {view} reads {sorted(read - expected)} that it should not and not "
            f"{sorted(expected - read)} that it should",
        )


def insert_run(db, uuid, kernel_name, counter_values):
    """One small run: one process, two threads, a CPU and a GPU agent, one dispatch with a
    counter of two instances, one host-to-device copy, one marker region with a stream argument,
    one sample, one scratch allocation. Every id starts at 1, as in every run."""
    s, g = suffix_of(uuid), uuid

    def put(table, **row):
        names = ", ".join(f'"{k}"' for k in row)
        marks = ", ".join("?" for _ in row)
        db.execute(f'INSERT INTO "{table}{s}" ({names}) VALUES ({marks})', tuple(row.values()))

    put("rocpd_info_node", id=1, guid=g, hash=7, machine_id="m-" + g, hostname="node0")
    put("rocpd_info_process", id=1, guid=g, nid=1, ppid=1, pid=4242, init=0, start=0, end=1000)
    put("rocpd_info_thread", id=1, guid=g, nid=1, ppid=1, pid=1, tid=4242)
    put("rocpd_info_thread", id=2, guid=g, nid=1, ppid=1, pid=1, tid=4243)
    put("rocpd_info_agent", id=1, guid=g, nid=1, pid=1, type="CPU", absolute_index=0,
        logical_index=0, type_index=0, name="host")
    put("rocpd_info_agent", id=2, guid=g, nid=1, pid=1, type="GPU", absolute_index=1,
        logical_index=1, type_index=0, name="gpu0")
    put("rocpd_info_queue", id=1, guid=g, nid=1, pid=1, name="queue 1")
    put("rocpd_info_stream", id=1, guid=g, nid=1, pid=1, name="stream 1")
    put("rocpd_info_code_object", id=1, guid=g, nid=1, pid=1, agent_id=2, uri="file:///a.out",
        load_base=65536, load_size=512, load_delta=0, storage_type="FILE", extdata='{"size": 64}')
    put("rocpd_info_kernel_symbol", id=1, guid=g, nid=1, pid=1, code_object_id=1,
        kernel_name=kernel_name, display_name=kernel_name, kernel_object=4096,
        kernarg_segment_size=24, kernarg_segment_alignment=8, group_segment_size=2,
        private_segment_size=3, sgpr_count=8, arch_vgpr_count=4, accum_vgpr_count=5)
    for i, text in enumerate(["KERNEL_DISPATCH", kernel_name, "MEMORY_COPY",
                              "MEMORY_COPY_HOST_TO_DEVICE", "MARKER_CORE_API", "range_a",
                              "SCRATCH_MEMORY"], start=1):
        put("rocpd_string", id=i, guid=g, string=text)
    for i, cat in [(1, 1), (2, 3), (3, 5), (4, 5), (5, 7)]:
        put("rocpd_event", id=i, guid=g, category_id=cat, stack_id=i, parent_stack_id=0,
            correlation_id=100 + i)
    put("rocpd_kernel_dispatch", id=1, guid=g, nid=1, pid=1, tid=1, agent_id=2, kernel_id=1,
        dispatch_id=1, queue_id=1, stream_id=1, start=100, end=300, private_segment_size=16,
        group_segment_size=32, workgroup_size_x=64, workgroup_size_y=2, workgroup_size_z=3,
        grid_size_x=1024, grid_size_y=6, grid_size_z=7, region_name_id=2, event_id=1)
    put("rocpd_info_pmc", id=1, guid=g, nid=1, pid=1, agent_id=2, target_arch="GPU",
        name="SQ_WAVES", symbol="SQ_WAVES", value_type="ABS", is_constant=0, is_derived=0)
    for i, v in enumerate(counter_values, start=1):
        put("rocpd_pmc_event", id=i, guid=g, event_id=1, pmc_id=1, value=v)
    put("rocpd_memory_copy", id=1, guid=g, nid=1, pid=1, tid=1, start=400, end=500, name_id=4,
        src_agent_id=1, dst_agent_id=2, size=4096, queue_id=1, stream_id=1, event_id=2)
    put("rocpd_region", id=1, guid=g, nid=1, pid=1, tid=1, start=50, end=650, name_id=6,
        event_id=3)
    put("rocpd_arg", id=1, guid=g, event_id=3, position=0, type="hipStream_t", name="stream",
        value="0x1", extdata='{"stream_id": 1}')
    put("rocpd_track", id=1, guid=g, nid=1, pid=1, tid=1, name_id=6)
    put("rocpd_sample", id=1, guid=g, track_id=1, timestamp=700, event_id=4)
    put("rocpd_memory_allocate", id=1, guid=g, nid=1, pid=1, tid=2, agent_id=2, type="ALLOC",
        level="SCRATCH", start=600, end=610, size=256, queue_id=1, event_id=5,
        extdata='{"flags": 0}')
    put("rocprofv3_kernel_replay_outcome", dispatch_id=1, agent_id=2, kernel_id=1,
        outcome="collected", reason="")


def count(db, view):
    return db.execute(f'SELECT COUNT(*) FROM "{view}"').fetchone()[0]


# Rows each view shows for one run of insert_run().
ONE_RUN = {"code_objects": 1, "kernel_symbols": 1, "processes": 1, "threads": 2, "regions": 1,
           "region_args": 1, "samples": 1, "sample_regions": 1, "regions_and_samples": 2,
           "kernels": 1, "pmc_info": 1, "pmc_events": 2, "events_args": 1, "stream_args": 1,
           "memory_copies": 1, "memory_allocations": 1, "scratch_memory": 1,
           "counters_collection": 1, "top_kernels": 1, "busy": 1, "top": 3}


def check_schema(path):
    checks = Checks(os.path.basename(path))
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for token in re.findall(r"\{\{\s*(\w+)\s*\}\}", text):
        checks.expect(token in ("uuid", "guid"), f"unknown placeholder {{{{{token}}}}}")
    db = sqlite3.connect(":memory:")
    db.execute("PRAGMA foreign_keys = ON")
    parts = statements(fill(text, UUID_A))
    for stmt in parts:
        try:
            db.execute(stmt)
        except sqlite3.Error as e:
            checks.expect(False, f"statement does not run ({e}):\n{stmt[:300]}")
    if checks.failures:
        return checks.failures
    suffix_a = suffix_of(UUID_A)
    check_layout(db, checks, [suffix_a])
    try:
        check_rows(db, checks, text, suffix_a)
    except sqlite3.Error as e:
        checks.expect(False, f"a query of the sample rows failed: {e}")
    return checks.failures


def check_rows(db, checks, text, suffix_a):
    """Checks 5 and 6."""

    # 5: one run's rows through every view.
    insert_run(db, UUID_A, "vector_add", [3.0, 4.0])
    db.commit()
    checks.expect(db.execute("PRAGMA foreign_key_check").fetchall() == [], "foreign key check")
    for view, rows in ONE_RUN.items():
        got = count(db, view)
        checks.expect(got == rows, f"{view} has {got} rows, expected {rows}")
    k = db.execute("SELECT name, region, category, agent_type, duration, grid_x, grid_y, grid_z, "
                   "workgroup_x, workgroup_y, workgroup_z, lds_size, scratch_size, vgpr_count, "
                   "accum_vgpr_count, sgpr_count, static_lds_size, static_scratch_size, queue, "
                   "stream, corr_id FROM kernels").fetchall()
    checks.expect(k == [("vector_add", "vector_add", "KERNEL_DISPATCH", "GPU", 200, 1024, 6, 7,
                         64, 2, 3, 32, 16, 4, 5, 8, 2, 3, "queue 1", "stream 1", 101)],
                  f"kernels row {k}")
    c = db.execute("SELECT counter_name, value, kernel_name FROM counters_collection").fetchall()
    checks.expect(c == [("SQ_WAVES", 7.0, "vector_add")], f"counters_collection row {c}")
    m = db.execute("SELECT name, src_device, dst_device, src_agent_type, dst_agent_type, "
                   "duration, category FROM memory_copies").fetchall()
    checks.expect(m == [("MEMORY_COPY_HOST_TO_DEVICE", "host", "gpu0", "CPU", "GPU", 100,
                         "MEMORY_COPY")], f"memory_copies row {m}")
    b = db.execute("SELECT agent_id, type, GpuTime, WallTime FROM busy").fetchall()
    checks.expect(b == [(2, "GPU", 300, 400)], f"busy row {b}")
    t = dict(db.execute("SELECT name, total_calls FROM top").fetchall())
    checks.expect(t == {"vector_add": 1, "MEMORY_COPY_HOST_TO_DEVICE": 1, "range_a": 1},
                  f"top rows {t}")

    # 6: a second run, same ids, another UUID, merged beside the first.
    suffix_b = suffix_of(UUID_B)
    for stmt in statements(fill(text, UUID_B)):
        if stmt.upper().startswith(("CREATE TABLE", "INSERT")):
            db.execute(stmt)
    for base in list(TABLES) + sorted(OWN_TABLES):
        db.execute(f'DROP VIEW "{base}"')
        db.execute(f'CREATE VIEW "{base}" AS SELECT * FROM "{base}{suffix_a}" '
                   f'UNION ALL SELECT * FROM "{base}{suffix_b}"')
    insert_run(db, UUID_B, "matrix_mul", [5.0, 6.0])
    db.commit()
    checks.label += " (merged)"
    check_layout(db, checks, [suffix_a, suffix_b])
    check_two_runs(db, checks)
    checks.expect(db.execute("PRAGMA foreign_key_check").fetchall() == [], "foreign key check")
    checks.label = checks.label.replace(" (merged)", " (two files, read as AMD's reader reads)")
    check_two_files(text, checks)


def check_two_runs(db, checks):
    """Runs A and B side by side: every view shows both, and neither's rows join the other's."""
    for view, rows in ONE_RUN.items():
        want = 2 * rows
        if view == "top":
            want = 4  # vector_add, matrix_mul, and the copy and region names both runs share
        if view == "top_kernels":
            want = 2
        got = count(db, view)
        checks.expect(got == want, f"{view} has {got} rows, expected {want}")
    pairs = sorted(db.execute("SELECT guid, name FROM kernels").fetchall())
    checks.expect(pairs == [(UUID_A, "vector_add"), (UUID_B, "matrix_mul")],
                  f"kernels mixes the runs: {pairs}")
    c = sorted(db.execute("SELECT kernel_name, value FROM counters_collection").fetchall())
    checks.expect(c == [("matrix_mul", 11.0), ("vector_add", 7.0)], f"counters_collection {c}")
    t = dict(db.execute("SELECT name, total_calls FROM top").fetchall())
    checks.expect(t == {"vector_add": 1, "matrix_mul": 1, "MEMORY_COPY_HOST_TO_DEVICE": 2,
                        "range_a": 2}, f"top rows {t}")


def check_two_files(text, checks):
    """Two single-run files opened together the way AMD's reader opens several: each attached,
    the uuid values read from its rocpd_metadata view, the rocpd_* tables whose names hold one
    found, and a temporary view per table name without it, the UNION ALL of each file's view of
    that name; then the data and summary views again, as temporary views over those."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        for i, (uuid, name, values) in enumerate(
            [(UUID_A, "vector_add", [3.0, 4.0]), (UUID_B, "matrix_mul", [5.0, 6.0])]
        ):
            f = sqlite3.connect(os.path.join(folder, f"run{i}.db"))
            for stmt in statements(fill(text, uuid)):
                f.execute(stmt)
            insert_run(f, uuid, name, values)
            f.commit()
            f.close()
        db = sqlite3.connect(":memory:")
        unions = union_by_uuid(
            db, [os.path.join(folder, "run0.db"), os.path.join(folder, "run1.db")])
        checks.expect(set(unions) == set(TABLES), f"tables found by uuid: {sorted(unions)}")
        per_table = set(TABLES) | OWN_TABLES
        for stmt in statements(text):
            m = re.match(r'CREATE VIEW "(\w+)"', stmt)
            if m and m.group(1) not in per_table:
                db.execute("CREATE TEMP VIEW" + stmt[len("CREATE VIEW"):])
        check_two_runs(db, checks)
        db.close()


def union_by_uuid(db, paths):
    """Attaches @p paths to @p db and defines, as temporary views, each rocpd_* table name without
    its run's suffix as the UNION ALL of every file's view of that name (as AMD's reader does)."""
    unions = {}
    for i, path in enumerate(paths):
        db.execute(f"ATTACH DATABASE ? AS db{i}", (path,))
        uuids = [r[0] for r in db.execute(
            f"SELECT value FROM db{i}.rocpd_metadata WHERE tag = 'uuid'")]
        for (table,) in db.execute(
            f"SELECT name FROM db{i}.sqlite_master WHERE type = 'table' AND name LIKE 'rocpd_%'"
        ).fetchall():
            for uuid in uuids:
                if uuid in table:
                    select = f'SELECT * FROM db{i}."{table.replace(uuid, "")}"'
                    unions.setdefault(table.replace(uuid, ""), []).append(select)
    for base, selects in unions.items():
        db.execute(f'CREATE TEMP VIEW "{base}" AS ' + " UNION ALL ".join(selects))
    return unions


def check_against_amd_views(text, amd_dir, checks):
    """Check 8: AMD's views from AMD's installed templates against this layout's views."""
    import tempfile

    try:
        amd_sql = [open(os.path.join(amd_dir, f), encoding="utf-8").read()
                   for f in ("rocpd_views.sql", "data_views.sql", "summary_views.sql")]
    except OSError as e:
        checks.expect(False, f"AMD's templates: {e}")
        return
    # As AMD's reader loads them: no suffix, temporary views (per-table ones already exist).
    amd_sql = [t.replace("{{uuid}}", "").replace("{{guid}}", "")
               .replace("CREATE VIEW", "CREATE TEMPORARY VIEW") for t in amd_sql]
    per_table = set(TABLES) | OWN_TABLES
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for i, (uuid, name, values) in enumerate(
            [(UUID_A, "vector_add", [3.0, 4.0]), (UUID_B, "matrix_mul", [5.0, 6.0])]
        ):
            paths.append(os.path.join(folder, f"run{i}.db"))
            f = sqlite3.connect(paths[-1])
            for stmt in statements(fill(text, uuid)):
                f.execute(stmt)
            insert_run(f, uuid, name, values)
            f.commit()
            f.close()
        for label, files in [("one file", paths[:1]), ("two files", paths)]:
            amd = sqlite3.connect(":memory:")
            union_by_uuid(amd, files)
            for script in amd_sql:
                amd.executescript(script)
            ours = sqlite3.connect(":memory:")
            union_by_uuid(ours, files)
            for stmt in statements(text):
                m = re.match(r'CREATE VIEW "(\w+)"', stmt)
                if m and m.group(1) not in per_table:
                    ours.execute("CREATE TEMP VIEW" + stmt[len("CREATE VIEW"):])
            for view in VIEWS:
                try:
                    a = amd.execute(f'SELECT * FROM "{view}"')
                except sqlite3.Error as e:
                    checks.expect(False, f"{label}: AMD's view {view} does not run here: {e}")
                    continue
                o = ours.execute(f'SELECT * FROM "{view}"')
                a_cols = [d[0].lower() for d in a.description]
                o_cols = [d[0].lower() for d in o.description]
                a_rows, o_rows = sorted(map(repr, a.fetchall())), sorted(map(repr, o.fetchall()))
                checks.expect(a_cols == o_cols, f"{label}: {view} columns {o_cols}, AMD's {a_cols}")
                if len(files) > 1 and view in ("threads", "memory_allocations"):
                    checks.expect(set(o_rows) <= set(a_rows),
                                  f"{label}: {view} shows rows AMD's view does not: "
                                  f"{sorted(set(o_rows) - set(a_rows))[:2]}")
                    continue
                checks.expect(a_rows == o_rows,
                              f"{label}: {view} shows {len(o_rows)} rows, AMD's view "
                              f"{len(a_rows)}: {o_rows[:2]} against {a_rows[:2]}")
            amd.close()
            ours.close()


def check_database(path):
    checks = Checks(path)
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        meta = db.execute("SELECT tag, value FROM rocpd_metadata").fetchall()
    except sqlite3.Error as e:
        return [f"{path}: cannot read rocpd_metadata: {e}"]
    suffixes = [v for t, v in meta if t == "uuid"]
    if not checks.expect(suffixes, "no uuid in rocpd_metadata"):
        return checks.failures
    check_layout(db, checks, suffixes)
    views = objects(db, "view")
    for view, table in [("kernels", "rocpd_kernel_dispatch"), ("memory_copies",
                        "rocpd_memory_copy"), ("regions", "rocpd_region")]:
        if view in views and table in views:
            checks.expect(count(db, view) == count(db, table),
                          f"{view} shows {count(db, view)} rows, {table} has {count(db, table)}")
    return checks.failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema", default=DEFAULT_SCHEMA)
    parser.add_argument("--database", nargs="+")
    parser.add_argument("--amd-views", metavar="DIR")
    args = parser.parse_args()
    failures = []
    try:
        if args.database:
            for path in args.database:
                failures += check_database(path)
        else:
            failures += check_schema(args.schema)
            if args.amd_views:
                checks = Checks(os.path.basename(args.schema) + " (AMD's views)")
                with open(args.schema, encoding="utf-8") as f:
                    check_against_amd_views(f.read(), args.amd_views, checks)
                failures += checks.failures
    except (sqlite3.Error, OSError) as e:
        failures.append(f"stopped: {e}")
    for f in failures:
        print(f, file=sys.stderr)
    print(f"check_amd_schema: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
