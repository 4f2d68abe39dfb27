#!/usr/bin/env python3
"""check_amd_names.py CLI PROGRAM WORK

AMD's counter names on the host device (docs/rocprofv3.md, "AMD counter names"), end to end:
  - --pmc SQ_WAVES is counted as the host's WORK_ITEMS: the same program run with --pmc SQ_WAVES
    and with --pmc WORK_ITEMS gives the same value for each dispatch (values measured in both
    runs, compared with each other), and so does one run with both in one group;
  - every output names the counter as asked (SQ_WAVES) and records what it was measured as where
    the format has counter definitions (results.json "counters", rocpd's counters_collection);
  - rocprofv3 warns that the name is measured through an equivalent;
  - an input file's pmc line takes the AMD name too.
Prints "check_amd_names: OK" on success.
"""
import csv
import json
import os
import shutil
import sqlite3
import subprocess
import sys

cli, program, work = sys.argv[1:4]
env = dict(os.environ, ROCPROFILER_CUDA_AGENTS="0")


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(name, args):
    out = os.path.join(work, name)
    command = [cli] + args + ["--kernel-trace", "-f", "csv", "json", "rocpd", "pftrace",
                              "-d", out, "-o", "run", "--", program]
    proc = subprocess.run(command, env=env, cwd=work, capture_output=True, text=True,
                          timeout=300)
    if proc.returncode != 0:
        fail(f"{name}: exit code {proc.returncode}\n{proc.stderr[-3000:]}")
    return out, proc.stderr


def csv_values(out, name):
    """{counter name: [value of each dispatch, in Dispatch_Id order]} and the rows' kernels."""
    path = os.path.join(out, "run_counter_collection.csv")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        fail(f"{path} has no rows")
    values = {}
    for row in sorted(rows, key=lambda r: int(r["Dispatch_Id"])):
        values.setdefault(row["Counter_Name"], []).append(
            (row["Kernel_Name"], float(row["Counter_Value"])))
    return values


shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)

amd, amd_err = run("amd", ["--pmc", "SQ_WAVES"])
native, _ = run("native", ["--pmc", "WORK_ITEMS"])
both, _ = run("both", ["--pmc", "SQ_WAVES", "WORK_ITEMS"])

if "counter 'SQ_WAVES' is AMD's counter name: on agent" not in amd_err or \
        "measured as WORK_ITEMS" not in amd_err or "warning" not in amd_err:
    fail("no warning that SQ_WAVES is measured as WORK_ITEMS:\n" + amd_err[-2000:])

a = csv_values(amd, "SQ_WAVES")
n = csv_values(native, "WORK_ITEMS")
if list(a) != ["SQ_WAVES"] or list(n) != ["WORK_ITEMS"]:
    fail(f"counter names in the CSVs: {list(a)} and {list(n)}")
if a["SQ_WAVES"] != n["WORK_ITEMS"]:
    fail(f"SQ_WAVES per dispatch {a['SQ_WAVES']} differs from WORK_ITEMS {n['WORK_ITEMS']}")
if not any(v > 0 for _, v in a["SQ_WAVES"]):
    fail("every SQ_WAVES value is 0")
b = csv_values(both, None)
if b.get("SQ_WAVES") != b.get("WORK_ITEMS") or not b.get("SQ_WAVES"):
    fail(f"one group: SQ_WAVES {b.get('SQ_WAVES')} differs from WORK_ITEMS {b.get('WORK_ITEMS')}")

# results.json: the counter is named SQ_WAVES, its expression is the native counter, and its
# records carry the CSV's values.
with open(os.path.join(amd, "run_results.json")) as f:
    doc = json.load(f)["rocprofiler-sdk-tool"][0]
info = [c for c in doc["counters"] if c.get("name") == "SQ_WAVES"]
if len(info) != 1 or info[0].get("expression") != "WORK_ITEMS" or \
        not info[0].get("description", "").startswith("equivalent of AMD's SQ_WAVES: "):
    fail(f"results.json counters entry for SQ_WAVES: {info}")
ids = {c["id"]["handle"] if isinstance(c["id"], dict) else c["id"]: c["name"]
       for c in doc["counters"]}
json_values = []
for rec in doc["callback_records"]["counter_collection"]:
    for r in rec["records"]:
        cid = r["counter_id"]["handle"] if isinstance(r["counter_id"], dict) else r["counter_id"]
        if ids.get(cid) != "SQ_WAVES":
            fail(f"results.json record of counter {cid} ({ids.get(cid)})")
        json_values.append(float(r["value"]))
if sorted(json_values) != sorted(v for _, v in a["SQ_WAVES"]):
    fail(f"results.json values {json_values} differ from the CSV's")

# rocpd: counter_name as asked, expression the native counter, the same values.
db = sqlite3.connect(os.path.join(amd, "run_results.db"))
rows = db.execute("SELECT counter_name, expression, value FROM counters_collection "
                  "ORDER BY dispatch_id").fetchall()
if {(r[0], r[1]) for r in rows} != {("SQ_WAVES", "WORK_ITEMS")}:
    fail(f"rocpd counters_collection names/expressions: {set((r[0], r[1]) for r in rows)}")
if [float(r[2]) for r in rows] != [v for _, v in a["SQ_WAVES"]]:
    fail("rocpd values differ from the CSV's")

# pftrace: the counter track is named as asked.
with open(os.path.join(amd, "run_results.pftrace"), "rb") as f:
    trace = f.read()
if b"SQ_WAVES" not in trace or b"WORK_ITEMS" in trace:
    fail("the Perfetto trace does not name its counter track SQ_WAVES only")

# An input file's pmc line.
with open(os.path.join(work, "input.txt"), "w") as f:
    f.write("pmc: SQ_WAVES\n")
from_file, _ = run("input", ["-i", os.path.join(work, "input.txt")])
i = csv_values(os.path.join(from_file, "pmc_1"), "SQ_WAVES")
if i.get("SQ_WAVES") != n["WORK_ITEMS"]:
    fail(f"input file: SQ_WAVES {i.get('SQ_WAVES')} differs from WORK_ITEMS {n['WORK_ITEMS']}")

print(f"check_amd_names: OK ({len(a['SQ_WAVES'])} dispatches, SQ_WAVES == WORK_ITEMS)")
