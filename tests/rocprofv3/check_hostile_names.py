#!/usr/bin/env python3
# Names the application chooses, as each output holds them (docs/rocprofv3.md, "Names that are not
# valid UTF-8 or hold control characters"): rocprofv3-hostile-names runs a kernel named
# "bad\xff\xfe" and one named "evil\nrocprofv3: error: FAKE\x1b]0;t\x07\x1b[2J", with ROCTx marks
# and ranges of the same names.
#
#   check_hostile_names.py ROCPROFV3 PROGRAM PROTOC PROTO WORK_DIR
#
# Checks, and exits non-zero with a message on the first violation:
# - the CSV files hold both names byte for byte (kernel_trace.csv, marker_api_trace.csv);
# - Python's sqlite3 reads every row of the rocpd database's kernels, regions, kernel symbols and
#   strings (it raises on TEXT that is not UTF-8), the bad name showing as "bad\ufffd\ufffd", and
#   rocprofv3_raw_name holds its bytes;
# - protoc decodes the .pftrace without an "invalid UTF-8" complaint, and the slices are named
#   with U+FFFD in place of the bad bytes;
# - the JSON file parses as UTF-8 with the same names as rocpd;
# - stderr of a run with --progress (kernel replay) and --summary, and of the trace run, holds no
#   raw ESC, BEL or newline from a name, no line starting with the forged "rocprofv3: error:", and
#   the escaped form of the names;
# - rocprofv3's own error lines (an unknown option, an unknown counter) quote the evil name escaped.
import csv
import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys

BAD = b"bad\xff\xfe"
EVIL = b"evil\nrocprofv3: error: FAKE\x1b]0;t\x07\x1b[2J"
BAD_TEXT = "bad\ufffd\ufffd"
EVIL_TEXT = EVIL.decode()
EVIL_ESCAPED = b"evil\\nrocprofv3: error: FAKE\\e]0;t\\x07\\e[2J"
BAD_ESCAPED = b"bad\\xff\\xfe"


def fail(message):
    print(f"check_hostile_names: FAIL: {message}")
    sys.exit(1)


def run(argv, what):
    result = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if result.returncode != 0:
        fail(f"{what} exited {result.returncode}: {result.stderr[-2000:]!r}")
    return result


def check_stderr(stderr, what):
    # Every line of stderr is one line of a message: no name's newline, ESC or BEL in it.
    for byte in (b"\x1b", b"\x07"):
        if byte in stderr:
            fail(f"{what}: stderr holds a raw {byte!r}: {stderr[-2000:]!r}")
    for line in stderr.split(b"\n"):
        if line.startswith(b"rocprofv3: error: FAKE"):
            fail(f"{what}: a name forged a line of its own: {stderr[-2000:]!r}")


def find_key(value, key):
    # The first member named @key in the document, depth first.
    if isinstance(value, dict):
        if key in value:
            return value[key]
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            found = find_key(item, key)
            if found is not None:
                return found
    return None


def csv_column(path, column):
    with open(path, "rb") as f:
        data = f.read()
    # CSV keeps the bytes: read it as Latin-1 so that every byte maps to one character.
    rows = list(csv.DictReader(io.StringIO(data.decode("latin-1"), newline="")))
    return [row[column].encode("latin-1") for row in rows]


def main():
    cli, program, protoc, proto, work = sys.argv[1:6]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    out = os.path.join(work, "out")

    # 1. Every format, markers, the summary table on stderr.
    trace = run([cli, "--kernel-trace", "--marker-trace", "--stats", "--summary", "-f", "csv",
                 "json", "pftrace", "rocpd", "-d", out, "-o", "run", "--", program],
                "the trace run")
    check_stderr(trace.stderr, "the trace run")
    if BAD_ESCAPED not in trace.stderr or EVIL_ESCAPED not in trace.stderr:
        fail(f"the summary table does not show the escaped names: {trace.stderr!r}")

    prefix = os.path.join(out, "run")
    kernels = csv_column(prefix + "_kernel_trace.csv", "Kernel_Name")
    for name in (BAD, EVIL):
        if kernels.count(name) != 2:
            fail(f"kernel_trace.csv has {kernels.count(name)} rows of {name!r}, not 2: {kernels!r}")
    markers = csv_column(prefix + "_marker_api_trace.csv", "Function")
    for name in (BAD, EVIL):
        if markers.count(name) < 2:
            fail(f"marker_api_trace.csv has {markers.count(name)} rows of {name!r}: {markers!r}")

    db = sqlite3.connect(prefix + "_results.db")
    try:
        rows = {view: db.execute(f"SELECT * FROM {view}").fetchall()
                for view in ("kernels", "regions", "rocpd_info_kernel_symbol", "rocpd_string")}
    except sqlite3.OperationalError as e:
        fail(f"sqlite3 could not read the database: {e}")
    names = [r[0] for r in db.execute("SELECT name FROM kernels")]
    for name in (BAD_TEXT, EVIL_TEXT):
        if names.count(name) != 2:
            fail(f"rocpd kernels has {names.count(name)} rows named {name!r}: {names!r}")
    regions = [r[0] for r in db.execute("SELECT name FROM regions")]
    for name in (BAD_TEXT, EVIL_TEXT):
        if name not in regions:
            fail(f"rocpd regions has no {name!r}: {regions!r}")
    raw = db.execute("SELECT table_name, raw FROM rocprofv3_raw_name").fetchall()
    tables = sorted(t for t, r in raw if bytes(r) == BAD)
    if tables != ["rocpd_info_kernel_symbol", "rocpd_string"]:
        fail(f"rocprofv3_raw_name does not hold {BAD!r} for its kernel symbol and its string: "
             f"{raw!r}")
    if any(bytes(r) != BAD for _, r in raw):
        fail(f"rocprofv3_raw_name holds a name that is valid UTF-8: {raw!r}")

    with open(prefix + "_results.json", "rb") as f:
        doc = json.loads(f.read().decode("utf-8"))
    json_names = [s["kernel_name"] for s in find_key(doc, "kernel_symbols").values()]
    for name in (BAD_TEXT, EVIL_TEXT):
        if name not in json_names:
            fail(f"the JSON file has no kernel symbol {name!r}: {json_names!r}")

    decoded = subprocess.run([protoc, f"--proto_path={os.path.dirname(proto)}",
                              "--decode=perfetto_subset.Trace", os.path.basename(proto)],
                             stdin=open(prefix + "_results.pftrace", "rb"),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if decoded.returncode != 0 or b"invalid UTF-8" in decoded.stderr:
        fail(f"protoc: rc {decoded.returncode}: {decoded.stderr[-2000:]!r}")
    # protoc's text format writes each byte above 0x7F in octal: U+FFFD is \357\277\275.
    if b'name: "bad\\357\\277\\275\\357\\277\\275"' not in decoded.stdout:
        fail("the trace has no slice named bad\\ufffd\\ufffd")
    if b'name: "evil\\nrocprofv3: error: FAKE\\033]0;t\\007\\033[2J"' not in decoded.stdout:
        fail("the trace has no slice named with the evil name")

    # 2. Kernel replay with progress lines, which name each replayed dispatch's kernel.
    replay = run([cli, "--pmc", "WORK_ITEMS", "--pmc", "DURATION_NS", "--replay-mode", "kernel",
                  "--kernel-replay-beta-enabled", "--kernel-trace", "--progress", "-d",
                  os.path.join(work, "replay"), "-o", "run", "--", program], "the replay run")
    check_stderr(replay.stderr, "the replay run")
    for name in (BAD_ESCAPED, EVIL_ESCAPED):
        if b"[rocprofv3] " + name + b" (dispatch " not in replay.stderr:
            fail(f"no progress line names {name!r}: {replay.stderr!r}")

    # 3. rocprofv3's own errors quote what was typed: an unknown option (a usage error, exit 1)
    #    named with the evil name, and an unknown counter (exit 2) named with its control
    #    characters (--pmc splits at white space, so the counter name has none).
    counter = "evil\x1b]0;t\x07\x1b[2J"
    for argv, code, escaped, what in [
            ([cli, "--no-such-option-" + EVIL_TEXT, "--", program], 1, EVIL_ESCAPED,
             "an unknown option"),
            ([cli, "--pmc", counter, "-d", os.path.join(work, "bad"), "--", program], 2,
             b"'evil\\e]0;t\\x07\\e[2J'", "an unknown counter")]:
        p = subprocess.run(argv, capture_output=True, timeout=120)
        if p.returncode != code:
            fail(f"{what}: exit {p.returncode}, not {code}: {p.stderr!r}")
        check_stderr(p.stderr, what)
        if escaped not in p.stderr:
            fail(f"{what}: the error does not quote the name escaped: {p.stderr!r}")
    print("check_hostile_names: OK")


main()
