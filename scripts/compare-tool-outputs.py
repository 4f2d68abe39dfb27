#!/usr/bin/env python3
"""Compares the outputs of rocprofv3 between two builds, in content.

  compare-tool-outputs.py capture BUILD_DIR OUT_DIR   runs a fixed set of rocprofv3 runs
  compare-tool-outputs.py compare REF_DIR NEW_DIR     compares two captures; exit 1 on a difference

The runs cover every format (csv, json, rocpd, pftrace) with kernel trace, counters, kernel replay
(one replayed, one with a missing group), memory copies, markers, selected regions, API traces,
application replay and stats. Only what legitimately varies between two runs of one build is
normalized: timestamps, durations and time counters, process and thread ids, the command line and
paths, the memory the machine has free. Rows, records and packets are then compared as sorted
multisets (threads deliver records in varying order): CSV rows, results.json records, every rocpd
table's rows (through sqlite3), every Perfetto packet (decoded from the protobuf wire format).
Two captures of the same build compare equal; that is the check of the normalization itself.
"""
import csv
import json
import os
import re
import sqlite3
import subprocess
import sys

# Counters whose values are times (they differ from run to run).
TIME_COUNTERS = {"DURATION_NS", "CPU_TIME_NS", "NS_PER_WORK_ITEM", "WORKERS_ACTIVE"}
# Column or key names whose values vary between runs.
VARYING = re.compile(
    r"(?i)(timestamp|^start$|^end$|^start_|^end_|_start$|_end$|process_id|thread_id|^pid$|^tid$|"
    r"^nid$|duration|_ns$|^time|_time|percentage|average|^min|^max|stddev|command|path|output_file|"
    r"free_memory|hostname|^guid$|^uuid$|init_time|fini_time|^args$|^ppid$|^init$|^fini$|"
    r"kernel_object|address|load_base|load_delta)"
)
MASK = "<varies>"
# Process and thread ids inside text ("Markers (thread 4297)", "rocprofv3-4297-13446926852484").
IDS_IN_TEXT = re.compile(r"((?:thread|process|pid) |rocprofv3-)\d+(-\d+)?")


def text(value):
    return IDS_IN_TEXT.sub(lambda m: m.group(1) + "N", value) if isinstance(value, str) else value


# One host worker thread: records arrive in one order, so the ids given in arrival order (rocpd's
# row ids, the Perfetto trace's track uuids) are the same from run to run.
SERIAL = {"ROCPROFILER_HOST_WORKERS": "1"}


def runs(prog, marker_prog, truth):
    """(name, rocprofv3 arguments, application, extra environment)."""
    all_formats = ["-f", "csv,json,pftrace,rocpd"]
    counting = [prog, "--accumulate"]
    return [
        ("kernel_trace", ["--kernel-trace", "--stats"] + all_formats, [prog], {}),
        (
            "counters",
            ["--pmc", "WORK_ITEMS", "WORKGROUPS", "DURATION_NS", "--kernel-trace"] + all_formats,
            counting,
            {},
        ),
        (
            "kernel_replay",
            ["--pmc", "WORK_ITEMS", "WORKGROUPS", "--pmc", "DURATION_NS", "CPU_TIME_NS",
             "--replay-mode", "kernel", "--kernel-replay-beta-enabled", "--kernel-trace"]
            + all_formats,
            counting,
            {},
        ),
        (
            "kernel_replay_missing_group",
            ["--pmc", "WORK_ITEMS", "--pmc", "DURATION_NS", "--replay-mode", "kernel",
             "--kernel-replay-beta-enabled", "--kernel-trace"] + all_formats,
            counting,
            {"ROCPROFILER_REPLAY_HOST_BUDGET_MB": "0"},
        ),
        (
            "memory_copies",
            ["--memory-copy-trace", "--kernel-trace"] + all_formats,
            [prog, "--copies", "--truth", truth],
            {},
        ),
        ("markers", ["--marker-trace", "--kernel-trace"] + all_formats, [marker_prog], {}),
        (
            "selected_regions",
            ["--selected-regions", "--marker-trace", "--kernel-trace"] + all_formats,
            [marker_prog],
            {},
        ),
        ("api_trace", ["-r"] + all_formats, [marker_prog], {}),
        (
            "application_replay",
            ["--pmc", "DURATION_NS", "--pmc", "WORK_ITEMS", "--kernel-trace", "-f", "csv,json"],
            [prog],
            {},
        ),
        (
            "stats_summary_config",
            ["--kernel-trace", "--stats", "-S", "--output-config", "-f", "csv,json"],
            [prog],
            {},
        ),
    ]


def find(build, name):
    for root, _, files in os.walk(build):
        if name in files and os.access(os.path.join(root, name), os.X_OK):
            return os.path.join(root, name)
    sys.exit(f"compare-tool-outputs: {name} not found under {build}")


def capture(build, out):
    cli = find(os.path.join(build, "bin"), "rocprofv3")
    prog = find(os.path.join(build, "tests"), "rocprofv3-host-kernels")
    marker_prog = find(os.path.join(build, "tests"), "rocprofv3-marker-program")
    os.makedirs(out, exist_ok=True)
    truth = os.path.join(out, "truth.json")
    for name, args, app, env in runs(prog, marker_prog, truth):
        folder = os.path.join(out, name)
        cmd = [cli] + args + ["-d", folder, "-o", "run", "--"] + app
        proc = subprocess.run(
            cmd, env={**os.environ, **SERIAL, **env}, capture_output=True, text=True, timeout=600
        )
        with open(os.path.join(out, name + ".stderr"), "w") as f:
            f.write(proc.stderr)
        print(f"{name}: rc {proc.returncode}")
    os.remove(truth) if os.path.exists(truth) else None


def time_counter(row):
    for key in ("Counter_Name", "counter_name", "name"):
        if isinstance(row, dict) and row.get(key) in TIME_COUNTERS:
            return True
    return False


def norm_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        return []
    header = rows[0]
    out = []
    for row in rows[1:]:
        named = dict(zip(header, row))
        cells = []
        for key, value in zip(header, row):
            if VARYING.search(key) or (key == "Counter_Value" and time_counter(named)):
                value = MASK
            cells.append(value)
        out.append(json.dumps(cells))
    return [json.dumps(header)] + sorted(out)


def handle(value):
    return value.get("handle") if isinstance(value, dict) else value


def timed_counter_ids(value, found):
    """The ids of the counters named in TIME_COUNTERS, from results.json's counter list."""
    if isinstance(value, dict):
        if value.get("name") in TIME_COUNTERS and "id" in value:
            found.add(handle(value["id"]))
        for v in value.values():
            timed_counter_ids(v, found)
    elif isinstance(value, list):
        for v in value:
            timed_counter_ids(v, found)
    return found


TIMED_IDS = set()


def norm_json_value(value, key=""):
    if isinstance(value, dict):
        timed = time_counter(value) or (
            "counter_id" in value and handle(value["counter_id"]) in TIMED_IDS
        )
        return {
            k: (MASK if VARYING.search(k) or (timed and k == "value") else norm_json_value(v, k))
            for k, v in value.items()
        }
    if isinstance(value, list):
        items = [norm_json_value(v, key) for v in value]
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True))
    return text(value)


def norm_json(path):
    with open(path) as f:
        doc = json.load(f)
    TIMED_IDS.clear()
    TIMED_IDS.update(timed_counter_ids(doc, set()))
    return json.dumps(norm_json_value(doc), indent=1, sort_keys=True).splitlines()


def norm_rocpd(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    lines = []
    tables = [
        r[0]
        for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
    ]
    schema = [
        r[0] or ""
        for r in db.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
    ]
    lines += schema
    # AMD's layout: every table is named with the run's UUID (its suffix, rocpd_metadata's uuid),
    # which differs from run to run; the unsuffixed views read them.
    meta = dict(db.execute("SELECT tag, value FROM rocpd_metadata")) if "rocpd_metadata" in {
        r[0] for r in db.execute("SELECT name FROM sqlite_master")} else {}
    suffix, guid = meta.get("uuid", "\0"), meta.get("guid", "\0")
    base = {t: t.replace(suffix, "") for t in tables}
    objects = set(base.values())
    # pmc ids whose counter is a time: their values vary.
    timed_pmc = set()
    if "rocpd_info_pmc" in objects:
        cols = [c[1] for c in db.execute("PRAGMA table_info(rocpd_info_pmc)")]
        if "name" in cols:
            timed_pmc = {
                r[0]
                for r in db.execute("SELECT id, name FROM rocpd_info_pmc")
                if r[1] in TIME_COUNTERS
            }
    # Events are numbered in arrival order: an event is named by the dispatch it belongs to.
    events = {}
    if "rocpd_kernel_dispatch" in objects:
        events = {
            r[0]: f"dispatch {r[1]}"
            for r in db.execute("SELECT event_id, dispatch_id FROM rocpd_kernel_dispatch")
        }
    numbered = {"rocpd_event", "rocpd_arg", "rocpd_pmc_event", "rocpd_kernel_dispatch",
                "rocpd_memory_copy", "rocpd_region"}
    for table in tables:
        cols = [c[1] for c in db.execute(f"PRAGMA table_info('{table}')")]
        rows = []
        for r in db.execute(f"SELECT * FROM '{table}'"):
            named = dict(zip(cols, r))
            timed = named.get("pmc_id") in timed_pmc
            # A thread's row id is its tid (and the table's autoincrement counter ends at one).
            if table == "sqlite_sequence" and base.get(named.get("name")) == "rocpd_info_thread":
                r = (r[0], MASK)
            cells = []
            for c, v in zip(cols, r):
                if VARYING.search(c) or (timed and c == "value"):
                    v = MASK
                elif c == "id" and (base[table] == "rocpd_info_thread" or base[table] in numbered):
                    v = MASK
                elif c == "event_id" or (base[table] == "rocpd_event" and c == "id"):
                    v = events.get(v, MASK)
                else:
                    v = normalize_cell(c, v)
                cells.append(v)
            rows.append(json.dumps(cells, default=str))
        lines.append(f"table {table} {json.dumps(cols)}")
        lines += [f"  {r}" for r in sorted(rows)]
    db.close()
    return [line.replace(suffix, "_<uuid>").replace(guid, "<guid>") for line in lines]


def normalize_cell(column, value):
    if isinstance(value, str) and value.startswith("{"):
        try:
            return json.dumps(norm_json_value(json.loads(value)), sort_keys=True)
        except ValueError:
            return value
    return text(value)


# --- Perfetto: a generic protobuf wire decoder -----------------------------------------------


def varint(data, i):
    shift = value = 0
    while True:
        b = data[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return value, i


def decode(data):
    """The message as [(field, value)]; a length-delimited value that parses as a message is
    decoded, else kept as text or bytes. None when data is not a message."""
    fields = []
    i = 0
    try:
        while i < len(data):
            key, i = varint(data, i)
            field, wire = key >> 3, key & 7
            if field == 0:
                return None
            if wire == 0:
                value, i = varint(data, i)
            elif wire == 1:
                value, i = ("f64", data[i : i + 8].hex()), i + 8
            elif wire == 5:
                value, i = ("f32", data[i : i + 4].hex()), i + 4
            elif wire == 2:
                n, i = varint(data, i)
                raw = data[i : i + n]
                i += n
                if len(raw) != n:
                    return None
                value = raw
            else:
                return None
            fields.append((field, value))
        if i != len(data):
            return None
    except IndexError:
        return None
    return fields


def expand(fields):
    out = []
    for field, value in fields:
        if isinstance(value, bytes):
            sub = decode(value) if value else None
            try:
                string = value.decode("utf-8")
                printable = all(c.isprintable() or c in "\n\t" for c in string)
            except UnicodeDecodeError:
                printable = False
            if printable and (sub is None or len(value) < 2 or string.isprintable()):
                value = globals()["text"](string)
            elif sub is not None:
                value = expand(sub)
            else:
                value = value.hex()
        out.append([field, value])
    return out


# Paths (field numbers from the packet down) whose values vary between runs.
PFTRACE_VARYING = [
    (8,),  # TracePacket.timestamp
    (6, 1, 2),  # ClockSnapshot.clocks.timestamp
    (60, 3, 1),  # TrackDescriptor.process.pid
    (60, 4, 1),  # TrackDescriptor.thread.pid
    (60, 4, 2),  # TrackDescriptor.thread.tid
]


def mask_paths(fields, path=()):
    for item in fields:
        here = path + (item[0],)
        if here in PFTRACE_VARYING:
            item[1] = MASK
        elif isinstance(item[1], list):
            mask_paths(item[1], here)
    return fields


def mask_annotations(fields):
    """Debug annotations (TrackEvent field 4) named like a varying column, and counter values of
    time counter tracks, are masked."""
    for item in fields:
        if isinstance(item[1], list):
            sub = item[1]
            names = [v for f, v in sub if f == 10 and isinstance(v, str)]
            if names and VARYING.search(names[0]):
                item[1] = [[f, v if f == 10 else MASK] for f, v in sub]
            else:
                mask_annotations(sub)
    return fields


def norm_pftrace(path):
    with open(path, "rb") as f:
        data = f.read()
    top = decode(data)
    if top is None:
        return ["<not a protobuf trace>"]
    packets = []
    timed_tracks = set()
    decoded = [expand(decode(v) or []) for f, v in top if f == 1]
    # Counter tracks of time counters: their values vary.
    for p in decoded:
        for f, v in p:
            if f == 60 and isinstance(v, list):
                names = [x for g, x in v if g == 2 and isinstance(x, str)]
                uuids = [x for g, x in v if g == 1]
                if names and uuids and any(c in names[0] for c in TIME_COUNTERS):
                    timed_tracks.add(uuids[0])
    # Track uuids are numbered in arrival order: a track is named by its path of names.
    parents, names = {}, {}
    for p in decoded:
        for f, v in p:
            if f == 60 and isinstance(v, list):
                uuid = next((x for g, x in v if g == 1), None)
                parents[uuid] = next((x for g, x in v if g == 5), None)
                names[uuid] = next((x for g, x in v if g == 2 and isinstance(x, str)), "")
                if any(g == 3 for g, _ in v):
                    names[uuid] = "process"

    def label(uuid, depth=0):
        if uuid not in names or depth > 16:
            return f"track {uuid}"
        parent = parents.get(uuid)
        return (label(parent, depth + 1) + "/" if parent in names else "") + names[uuid]

    for p in decoded:
        for f, v in p:
            if f == 60 and isinstance(v, list):
                for item in v:
                    if item[0] in (1, 5):
                        item[1] = label(item[1])
            if f == 11 and isinstance(v, list):
                for item in v:
                    if item[0] == 11:
                        item[1] = label(item[1])
    timed_tracks = {label(t) for t in timed_tracks}
    for p in decoded:
        mask_paths(p)
        mask_annotations(p)
        for f, v in p:
            if f == 11 and isinstance(v, list):
                track = [x for g, x in v if g == 11]
                if track and track[0] in timed_tracks:
                    for item in v:
                        if item[0] == 44:
                            item[1] = MASK
        packets.append(json.dumps(p))
    return sorted(packets)


def norm_stderr(path):
    with open(path) as f:
        text = f.read()
    text = re.sub(r" +", " ", re.sub(r"\d+(\.\d+)?", "N", text))
    # The summary table is sorted by duration.
    return sorted(text.splitlines())


def normalized(path):
    name = os.path.basename(path)
    if name.endswith(".csv"):
        return norm_csv(path)
    if name.endswith(".json"):
        return norm_json(path)
    if name.endswith(".db"):
        return norm_rocpd(path)
    if name.endswith(".pftrace"):
        return norm_pftrace(path)
    if name.endswith(".stderr"):
        return norm_stderr(path)
    with open(path, "rb") as f:
        return [f.read().hex()]


def files(root):
    out = set()
    for r, _, names in os.walk(root):
        for n in names:
            out.add(os.path.relpath(os.path.join(r, n), root))
    return out


def compare(ref, new):
    ref_files, new_files = files(ref), files(new)
    bad = 0
    for only, where in ((ref_files - new_files, "only in " + ref), (new_files - ref_files, "only in " + new)):
        for f in sorted(only):
            print(f"DIFFERENT: {f} {where}")
            bad += 1
    for f in sorted(ref_files & new_files):
        a, b = normalized(os.path.join(ref, f)), normalized(os.path.join(new, f))
        if a == b:
            print(f"same: {f} ({len(a)} lines)")
            continue
        bad += 1
        print(f"DIFFERENT: {f}")
        import difflib

        for line in list(difflib.unified_diff(a, b, "ref", "new", lineterm="", n=0))[:20]:
            print("   " + line[:300])
    print(f"compare-tool-outputs: {len(ref_files & new_files)} files compared, {bad} differences")
    return 1 if bad else 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "capture":
        capture(sys.argv[2], sys.argv[3])
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "compare":
        return compare(sys.argv[2], sys.argv[3])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
