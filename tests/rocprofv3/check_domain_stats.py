#!/usr/bin/env python3
"""Statistics of every domain end to end (tests/rocprofv3/CMakeLists.txt).

Runs rocprofv3 --stats -S on the host-device programs with -f csv and compares each stats file
with the trace file of the same run: per name, the calls, total, min and max durations of
kernel_stats.csv, memory_copy_stats.csv and marker_api_stats.csv must be those of the rows of
kernel_trace.csv, memory_copy_trace.csv and marker_api_trace.csv, and domain_stats.csv must hold
one row per domain with its sums. Then the summary options (-D, --summary-groups,
--summary-units, --summary-output-file) and their bad values. Nothing is hard-coded but the
programs' own names.

Usage: check_domain_stats.py ROCPROFV3 HOST_KERNELS MARKER_PROGRAM WORK_DIR
"""
import collections
import csv
import os
import shutil
import subprocess
import sys

COLUMNS = ["Name", "Calls", "TotalDurationNs", "AverageNs", "Percentage", "MinNs", "MaxNs",
           "StdDev"]
ENV = {"ROCPROFILER_CUDA_AGENTS": "0"}


class Failed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failed(message)


def run(cmd, expect_rc=0):
    env = dict(os.environ)
    env.update(ENV)
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=240)
    if expect_rc is not None and p.returncode != expect_rc:
        raise Failed(f"{' '.join(cmd)}: exit {p.returncode}, expected {expect_rc}\n"
                     f"stdout:\n{p.stdout}\nstderr:\n{p.stderr}")
    return p


def read_csv(path):
    check(os.path.isfile(path), f"{path} was not written")
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    check(rows, f"{path} is empty")
    return rows[0], [dict(zip(rows[0], r)) for r in rows[1:]]


def trace_sums(path, name_column):
    """Per name: [calls, total, min, max] of the trace file's rows."""
    _, rows = read_csv(path)
    sums = {}
    for r in rows:
        d = max(0, int(r["End_Timestamp"]) - int(r["Start_Timestamp"]))
        s = sums.setdefault(r[name_column], [0, 0, None, 0])
        s[0] += 1
        s[1] += d
        s[2] = d if s[2] is None else min(s[2], d)
        s[3] = max(s[3], d)
    return sums


def check_stats(path, expected):
    header, rows = read_csv(path)
    check(header == COLUMNS, f"{path}: columns {header}, expected {COLUMNS}")
    got = {r["Name"]: [int(r["Calls"]), int(r["TotalDurationNs"]), int(r["MinNs"]),
                       int(r["MaxNs"])] for r in rows}
    check(len(got) == len(rows), f"{path}: a name is on two rows")
    check(got == expected, f"{path}: {got}\n  but the trace has {expected}")
    total = sum(v[1] for v in expected.values())
    pct = sum(float(r["Percentage"]) for r in rows)
    check(not rows or total == 0 or abs(pct - 100.0) < 0.1, f"{path}: percentages add to {pct}")
    totals = [int(r["TotalDurationNs"]) for r in rows]
    check(totals == sorted(totals, reverse=True), f"{path}: not sorted by total")


def domain_row(sums):
    calls = sum(v[0] for v in sums.values())
    return [calls, sum(v[1] for v in sums.values()), min(v[2] for v in sums.values()),
            max(v[3] for v in sums.values())]


def kernels_and_copies(cli, prog, work):
    out = os.path.join(work, "copies")
    p = run([cli, "-f", "csv", "--kernel-trace", "--memory-copy-trace", "--stats", "-S",
             "-d", out, "-o", "run", "--", prog, "--copies"])
    f = lambda name: os.path.join(out, "run_" + name)
    kernels = trace_sums(f("kernel_trace.csv"), "Kernel_Name")
    copies = trace_sums(f("memory_copy_trace.csv"), "Direction")
    check(kernels and copies, "the run traced no kernel or no copy")
    check_stats(f("kernel_stats.csv"), kernels)
    check_stats(f("memory_copy_stats.csv"), copies)
    check_stats(f("domain_stats.csv"),
                {"KERNEL_DISPATCH": domain_row(kernels), "MEMORY_COPY": domain_row(copies)})
    check(not os.path.exists(f("marker_api_stats.csv")), "marker_api_stats.csv without markers")
    names = len(kernels) + len(copies)
    title = f"rocprofv3 summary of KERNEL_DISPATCH, MEMORY_COPY ({names} names)"
    check(title in p.stderr, f"-S: no '{title}' on stderr:\n{p.stderr}")
    check("rocprofv3 summary per domain (2 domains)" in p.stderr, f"-S:\n{p.stderr}")
    for name in list(kernels) + list(copies):
        check(name in p.stderr, f"-S: '{name}' is not in the summary")


def markers(cli, prog, work):
    out = os.path.join(work, "markers")
    summary = os.path.join(work, "summary.txt")
    run([cli, "-f", "csv", "--kernel-trace", "--marker-trace", "--stats", "-D",
         "--summary-groups", "KERNEL_.*|MARKER_API", "MARKER_.*", "-u", "usec",
         "--summary-output-file", summary, "-d", out, "-o", "run", "--", prog])
    f = lambda name: os.path.join(out, "run_" + name)
    marks = trace_sums(f("marker_api_trace.csv"), "Function")
    kernels = trace_sums(f("kernel_trace.csv"), "Kernel_Name")
    check(marks, "the run traced no marker")
    check_stats(f("marker_api_stats.csv"), marks)
    check_stats(f("domain_stats.csv"),
                {"KERNEL_DISPATCH": domain_row(kernels), "MARKER_API": domain_row(marks)})
    check(os.path.isfile(summary), "--summary-output-file: no file")
    text = open(summary).read()
    for title in [f"rocprofv3 summary of KERNEL_DISPATCH ({len(kernels)} names)",
                  f"rocprofv3 summary of MARKER_API ({len(marks)} names)",
                  "rocprofv3 summary per domain (2 domains)",
                  f"matching 'KERNEL_.*|MARKER_API' ({len(kernels) + len(marks)} names)",
                  f"matching 'MARKER_.*' ({len(marks)} names)", "TOTAL_USEC"]:
        check(title in text, f"summary file: no '{title}' in\n{text}")
    # stdout as the destination.
    p = run([cli, "-f", "csv", "--kernel-trace", "-S", "--summary-output-file", "stdout",
             "-d", os.path.join(work, "stdout"), "-o", "run", "--", prog])
    check("rocprofv3 summary of KERNEL_DISPATCH" in p.stdout, f"stdout:\n{p.stdout}")
    check("rocprofv3 summary of" not in p.stderr, f"stderr:\n{p.stderr}")


def bad_values(cli, prog, work):
    ran = os.path.join(work, "ran")
    # (options, a word the error must show, exit status: 1 usage, 3 output)
    cases = [
        (["-S", "-u", "minutes"], "minutes", 1),
        (["-S", "--summary-groups", "KERNEL_("], "KERNEL_(", 1),
        (["-S", "--summary-output-file", os.path.join(work, "no_such_dir", "s.txt")],
         "no_such_dir", 3),
    ]
    for extra, word, rc in cases:
        p = run([cli, "--kernel-trace", "-d", os.path.join(work, "bad")] + extra +
                ["--", prog, "--marker", ran], expect_rc=rc)
        check(word in p.stderr and "summary" in p.stderr,
              f"{extra}: the error does not name the value:\n{p.stderr}")
        check(not os.path.exists(ran), f"{extra}: the application ran")


def main():
    cli, prog, marker_prog, work = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    try:
        kernels_and_copies(cli, prog, work)
        markers(cli, marker_prog, work)
        bad_values(cli, prog, work)
    except Failed as e:
        print(f"check_domain_stats: FAILED: {e}")
        return 1
    print("check_domain_stats: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
