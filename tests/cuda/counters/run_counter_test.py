#!/usr/bin/env python3
"""GPU tests of hardware counters on CUDA agents (CUPTI range profiler) through rocprofv3.

Usage: run_counter_test.py <test> --rocprofv3 PATH --program PATH [--program-cupti PATH]

Tests (CTest cuda.counters_<test>; README.md in this folder):
  vs_ncu          ncu and rocprofv3 (kernel replay) on cuda-counter-program, same metrics: equal
                  deterministic counts per launch, DRAM bytes read within 2%, both against the
                  program's analytic values
  replay_modes    the same groups under kernel replay and under application replay: equal values
  batched         application replay of one-pass groups through the batched path (one CUPTI
                  session per batch of dispatches; default batch and a batch of 3, so that the
                  counter data image fills several times) and through the per-dispatch path
                  (ROCPROFILER_CUDA_COUNTER_BATCH=0): the same rows, equal counts per launch
                  (the metrics of EXACT; DRAM bytes within TOLERANT)
  sets            each shipped sm_90 metric set (--pmc <set>, kernel replay) against two ncu runs,
                  and a shipped derived metric against its base counters
  multipass       metrics of several CUPTI passes under kernel replay against two ncu runs: counts
                  exact, the rest within the runs' spread + 2%; refused without kernel replay
  unknown_metric  an unknown metric: rocprofv3 exits non-zero naming it, the program is not run
  fault           a kernel that faults while counted: the program sees the fault as without a
                  profiler, rocprofv3 ends, the rows of the earlier launches are there and right
  cupti_held      the program holds CUPTI's range profiler itself: it finishes with correct
                  results and rocprofv3 says why it cannot count
  under_ncu       rocprofv3 run under ncu (another profiler): the same
  amd_names       each AMD counter name with an sm_90 definition, counted in one group with the
                  CUPTI metrics of its definition: equal to the definition over the same dispatch;
                  SQ_WAVES and FETCH_SIZE against the program's analytic values

Output: ${GPU_TEST_OUTPUT_DIR}/counters_<test>/validate.txt with `RESULT counters_<key>=<value>`
and `FAIL: ...` lines; exit 1 on any failure, 77 (SKIP) when ncu is needed and not found.
"""

import argparse
import csv
import glob
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time

SKIP = 77

# Plain counters (.sum/.avg) of the 21-metric set of the issue; the three percentages are left out
# (each may need several passes alone). COUNTERS_METRICS (space or comma separated) overrides.
DEFAULT_METRICS = [
    "sm__cycles_elapsed.avg",
    "smsp__inst_executed.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "l1tex__t_bytes.sum",
    "lts__t_bytes.sum",
    "smsp__warps_launched.sum",
    "sm__warps_active.avg",
    "smsp__inst_executed_pipe_fma.sum",
    "smsp__inst_executed_pipe_alu.sum",
    "smsp__inst_executed_pipe_lsu.sum",
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "lts__t_sectors_op_read.sum",
    "lts__t_sectors_op_write.sum",
]

# Counts that depend only on the code and the launch: equal between tools and replay modes.
EXACT = {
    "smsp__inst_executed.sum",
    "smsp__warps_launched.sum",
    "smsp__inst_executed_pipe_fma.sum",
    "smsp__inst_executed_pipe_alu.sum",
    "smsp__inst_executed_pipe_lsu.sum",
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
}
# Within 2% on these kernels (cold L2: the program scrubs it before them).
TOLERANT = {("dram__bytes_read.sum", "stream_read"): 0.02}

# A message that says counters could not be collected: an error or warning line about counters,
# metrics or the range profiler.
MESSAGE_LEVEL = re.compile(r"error|warn", re.I)
MESSAGE_TOPIC = re.compile(r"counter|metric|range.?profiler", re.I)

MAX_FAIL_LINES = 40


class Test:
    def __init__(self, name):
        root = os.environ.get("GPU_TEST_OUTPUT_DIR") or os.path.join(os.getcwd(), "gpu-test-output")
        self.name = "counters_" + name
        self.out = os.path.join(root, self.name)
        shutil.rmtree(self.out, ignore_errors=True)
        os.makedirs(self.out)
        self.validate = open(os.path.join(self.out, "validate.txt"), "w")
        self.failures = 0

    def line(self, text):
        print(text, flush=True)
        self.validate.write(text + "\n")
        self.validate.flush()

    def result(self, **kv):
        self.line("RESULT " + " ".join("counters_%s=%s" % (k, v) for k, v in kv.items()))

    def fail(self, msg):
        self.failures += 1
        if self.failures <= MAX_FAIL_LINES:
            self.line("FAIL: " + msg)
        elif self.failures == MAX_FAIL_LINES + 1:
            self.line("FAIL: (further failures counted, not printed)")

    def check(self, cond, msg):
        if not cond:
            self.fail(msg)
        return bool(cond)

    def skip(self, msg):
        text = "SKIP: " + msg
        print(text, flush=True)
        with open(os.path.join(self.out, "test.stdout"), "w") as f:
            f.write(text + "\n")
        self.validate.write("RESULT counters_skipped=1\n")
        self.validate.close()
        sys.exit(SKIP)

    def finish(self):
        self.line("RESULT counters_failures=%d" % self.failures)
        self.validate.close()
        sys.exit(1 if self.failures else 0)


class Run:
    def __init__(self, rc, wall, stdout, stderr, timed_out):
        self.rc, self.wall, self.stdout, self.stderr, self.timed_out = rc, wall, stdout, stderr, timed_out


def run(test, tag, cmd, env_extra=None, timeout=None):
    """Runs cmd (stdout/stderr to <out>/<tag>.stdout/.stderr); a run past timeout is killed."""
    env = dict(os.environ)
    env.update(env_extra or {})
    so = os.path.join(test.out, tag + ".stdout")
    se = os.path.join(test.out, tag + ".stderr")
    print("+ " + " ".join(cmd), flush=True)
    start = time.monotonic()
    timed_out = False
    with open(so, "w") as fo, open(se, "w") as fe:
        try:
            p = subprocess.Popen(cmd, stdout=fo, stderr=fe, env=env, start_new_session=True)
        except OSError as e:  # not found or not executable: as a shell would say
            fe.write("cannot execute %s: %s\n" % (cmd[0], e))
            p = None
            rc = 127
        if p is not None:
            try:
                rc = p.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                os.killpg(p.pid, signal.SIGKILL)
                rc = p.wait()
    wall = time.monotonic() - start
    r = Run(rc, wall, open(so, errors="replace").read(), open(se, errors="replace").read(), timed_out)
    print("  rc=%d wall=%.2fs%s" % (rc, wall, " (timed out)" if timed_out else ""), flush=True)
    if rc != 0 or timed_out:
        for l in r.stderr.splitlines()[-15:]:
            print("  stderr: " + l)
    return r


def find_ncu():
    cands = [os.environ.get("NCU", ""), shutil.which("ncu") or "", "/usr/local/cuda/bin/ncu"]
    cands += sorted(glob.glob("/usr/local/cuda*/bin/ncu")) + sorted(glob.glob("/opt/nvidia/nsight-compute/*/ncu"))
    for c in cands:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def base_name(name):
    """stream_read, from 'stream_read', 'void stream_read(float const*, ...)' or templates."""
    name = name.strip()
    name = re.split(r"[(<]", name, 1)[0].strip()
    return name.split()[-1] if name else name


def number(text):
    t = text.strip().replace(",", "").replace("\u202f", "").replace(" ", "")
    if t == "" or t.lower() in ("n/a", "na", "-"):
        return None
    try:
        return float(t)
    except ValueError:
        return None


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def read_rocprof_csv(path):
    """Dispatches in Dispatch_Id order: {dispatch_id, kernel, metrics{name: value}, dups, passes}."""
    by_id = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            did = int(r["Dispatch_Id"])
            d = by_id.setdefault(
                did, {"dispatch_id": did, "kernel": base_name(r["Kernel_Name"]), "metrics": {}, "dups": [], "times": set()}
            )
            name = r["Counter_Name"]
            if name in d["metrics"]:
                d["dups"].append(name)
            # float() reads both of rocprofv3's forms: "16384.000000" (>= 1), "2.48342814e-02" (< 1).
            d["metrics"][name] = number(r["Counter_Value"])
            d["times"].add((r["Start_Timestamp"], r["End_Timestamp"]))
    return [by_id[k] for k in sorted(by_id)]


def read_replay_passes(path):
    """{dispatch_id: passes run} of the replayed dispatches (kernel_replay_outcome in
    <prefix>_results.json), and the plan's passes per dispatch (kernel_replay_plan, the largest
    over agents; 1 when nothing is replayed)."""
    data = load_json(path)
    if data is None:
        return None, 0
    passes, planned = {}, 0
    try:
        for tool in data["rocprofiler-sdk-tool"]:
            for o in tool["callback_records"].get("kernel_replay_outcome", []):
                passes[o["dispatch_id"]] = o["passes_run"]
            for p in tool.get("kernel_replay_plan", []):
                planned = max(planned, p["passes"])
    except (KeyError, TypeError):
        return None, 0
    return passes, planned


def read_ncu_csv(text):
    """Launches in ID order: {id, kernel, metrics}. Only lines that start with a quote are CSV."""
    lines = [l for l in text.splitlines() if l.startswith('"')]
    header, idx, by_id = None, {}, {}
    for row in csv.reader(lines):
        if header is None:
            if "ID" in row and "Metric Name" in row and "Metric Value" in row:
                header = row
                idx = {n: i for i, n in enumerate(row)}
            continue
        if row == header or len(row) < len(header):
            continue
        try:
            lid = int(number(row[idx["ID"]]))
        except (TypeError, ValueError):
            continue
        d = by_id.setdefault(lid, {"id": lid, "kernel": base_name(row[idx["Kernel Name"]]), "metrics": {}})
        d["metrics"][row[idx["Metric Name"]]] = number(row[idx["Metric Value"]])
    return [by_id[k] for k in sorted(by_id)]


def ncu_passes(text):
    return [int(m) for m in re.findall(r"(\d+)\s+pass(?:es)?\b", text)]


def within(value, expected, tol):
    if value is None or expected is None or math.isnan(value):
        return False
    if tol == 0:
        return value == expected
    return abs(value - expected) <= tol * abs(expected)


def rel_pct(a, b):
    if a is None or b is None:
        return float("nan")
    if b == 0:
        return 0.0 if a == 0 else float("inf")
    return 100.0 * abs(a - b) / abs(b)


def fmt(v):
    if v is None:
        return "none"
    if isinstance(v, float) and v.is_integer():
        return "%d" % v
    return "%.6g" % v


def program_ok(test, tag, r, json_path, runs=1):
    """The program's own verdict: exit 0, `results OK` once per run, ok in its JSON."""
    ok = test.check(not r.timed_out, "%s: timed out" % tag)
    ok &= test.check(r.rc == 0, "%s: exited with %d" % (tag, r.rc))
    n = r.stdout.count("results OK")
    ok &= test.check(n == runs, "%s: the program printed 'results OK' %d times (expected %d)" % (tag, n, runs))
    ok &= test.check("counter-program: FAIL" not in r.stdout, "%s: the program reported wrong results" % tag)
    truth = load_json(json_path)
    ok &= test.check(truth is not None and truth.get("ok") is True, "%s: program JSON %s missing or not ok" % (tag, json_path))
    return truth


def check_sequence(test, label, launches, truth):
    names = [l["kernel"] for l in truth["launches"]]
    got = [d["kernel"] for d in launches]
    ok = test.check(len(got) == len(names), "%s: %d launches, the program made %d" % (label, len(got), len(names)))
    ok &= test.check(got == names, "%s: kernel order %s, the program launched %s" % (label, got, names))
    return ok


def check_metrics_present(test, label, dispatches, metrics):
    ok = True
    for i, d in enumerate(dispatches):
        missing = [m for m in metrics if m not in d["metrics"]]
        ok &= test.check(not missing, "%s: launch %d (%s) lacks %s" % (label, i, d["kernel"], missing))
        ok &= test.check(not d.get("dups"), "%s: launch %d (%s) has %s more than once" % (label, i, d["kernel"], d.get("dups")))
        bad = [m for m in metrics if m in d["metrics"] and d["metrics"][m] is None]
        ok &= test.check(not bad, "%s: launch %d (%s) has no number for %s" % (label, i, d["kernel"], bad))
    return ok


def check_analytic(test, label, dispatches, truth, metrics):
    """Returns (ok, total) over the program's expectations for the collected metrics."""
    good = total = 0
    for i, (d, l) in enumerate(zip(dispatches, truth["launches"])):
        if l.get("fault"):
            continue
        for m, e in l["expected"].items():
            if m not in metrics:
                continue
            total += 1
            v = d["metrics"].get(m)
            if test.check(
                within(v, e["value"], e["tol"]),
                "%s: launch %d %s %s=%s, analytic %s (%s)"
                % (label, i, l["kernel"], m, fmt(v), fmt(e["value"]), "exact" if e["tol"] == 0 else "within %g%%" % (100 * e["tol"])),
            ):
                good += 1
    return good, total


def compare(test, label, a, b, metrics, report):
    """a, b: dispatch lists in the same launch order. Exact for EXACT, TOLERANT where listed."""
    good = total = 0
    for i, (x, y) in enumerate(zip(a, b)):
        for m in metrics:
            va, vb = x["metrics"].get(m), y["metrics"].get(m)
            report.setdefault(m, []).append((x["kernel"], va, vb))
            tol = TOLERANT.get((m, x["kernel"]))
            if m in EXACT:
                total += 1
                if test.check(va is not None and va == vb, "%s: launch %d %s %s: %s vs %s" % (label, i, x["kernel"], m, fmt(va), fmt(vb))):
                    good += 1
            elif tol is not None:
                total += 1
                if test.check(
                    va is not None and vb is not None and within(va, vb, tol),
                    "%s: launch %d %s %s: %s vs %s (%.2f%%, limit %g%%)" % (label, i, x["kernel"], m, fmt(va), fmt(vb), rel_pct(va, vb), 100 * tol),
                ):
                    good += 1
    return good, total


def write_report(test, fname, title, report):
    with open(os.path.join(test.out, fname), "w") as f:
        f.write("%s\n%-55s %-8s %s\n" % (title, "metric", "class", "max |a-b|/b % over launches (kernel: a / b)"))
        for m, rows in report.items():
            cls = "exact" if m in EXACT else ("2%" if any((m, k) in TOLERANT for k, _, _ in rows) else "report")
            worst = max((rel_pct(a, b) for _, a, b in rows), default=float("nan"))
            detail = " ".join("%s:%s/%s" % (k, fmt(a), fmt(b)) for k, a, b in rows)
            f.write("%-55s %-8s %8.3f  %s\n" % (m, cls, worst, detail))


def message_lines(text):
    return [l for l in text.splitlines() if MESSAGE_LEVEL.search(l) and MESSAGE_TOPIC.search(l)]


def rocprof_cmd(args, groups, outdir, program_args, kernel_replay=True, fmt_json=True, prog=None):
    cmd = [args.rocprofv3]
    for g in groups:
        cmd += ["--pmc"] + list(g)
    if kernel_replay:
        cmd += ["--replay-mode", "kernel", "--kernel-replay-beta-enabled"]
    # rocpd is rocprofv3's default format: the checks here read the CSV files.
    cmd += ["-f", "csv", "json"] if fmt_json else ["-f", "csv"]
    cmd += ["-d", outdir, "-o", "run", "--", prog or args.program] + list(program_args)
    return cmd


def stream_args():
    return ["--stream-mib", os.environ.get("COUNTERS_STREAM_MIB", "256")]


def metric_list():
    env = os.environ.get("COUNTERS_METRICS", "").replace(",", " ").split()
    return env or list(DEFAULT_METRICS)


# --------------------------------------------------------------------------------------------
def test_vs_ncu(t, args):
    ncu = find_ncu()
    if ncu is None:
        t.skip("ncu not found")
    metrics = metric_list()
    pargs = stream_args()
    plain = run(t, "plain", [args.program] + pargs, {"PROGRAM_OUTPUT": os.path.join(t.out, "plain.json")}, 300)
    truth = program_ok(t, "plain run", plain, os.path.join(t.out, "plain.json"))
    if truth is None or "launches" not in truth:
        return

    ncu_log = os.path.join(t.out, "ncu.csv")
    ncu_cmd = [ncu, "--csv", "--print-units", "base", "--replay-mode", "kernel", "--clock-control", "none"]
    ncu_cmd += ["--metrics", ",".join(metrics), "--log-file", ncu_log, args.program] + pargs
    nr = run(t, "ncu", ncu_cmd, {"PROGRAM_OUTPUT": os.path.join(t.out, "ncu.json")}, 500)
    program_ok(t, "under ncu", nr, os.path.join(t.out, "ncu.json"))
    ncu_text = open(ncu_log, errors="replace").read() if os.path.exists(ncu_log) else ""
    ncu_launches = read_ncu_csv(ncu_text) or read_ncu_csv(nr.stdout)
    t.check(ncu_launches, "no metric rows in ncu's CSV (%s, ncu.stdout)" % ncu_log)
    npasses = ncu_passes(ncu_text + nr.stdout + nr.stderr)

    rdir = os.path.join(t.out, "rocprofv3")
    rr = run(t, "rocprofv3", rocprof_cmd(args, [metrics], rdir, pargs), {"PROGRAM_OUTPUT": os.path.join(t.out, "rocprofv3.json")}, 500)
    program_ok(t, "under rocprofv3", rr, os.path.join(t.out, "rocprofv3.json"))
    csv_path = os.path.join(rdir, "run_counter_collection.csv")
    rp = read_rocprof_csv(csv_path) if os.path.exists(csv_path) else []
    t.check(rp, "no rows in %s" % csv_path)
    passes, planned = read_replay_passes(os.path.join(rdir, "run_results.json"))
    t.check(passes, "no kernel_replay_outcome records in run_results.json")
    split_note = any(re.search(r"split|single-pass", l, re.I) for l in rr.stderr.splitlines())

    seq_ok = check_sequence(t, "rocprofv3", rp, truth)
    seq_ok &= check_sequence(t, "ncu", ncu_launches, truth)
    check_metrics_present(t, "rocprofv3", rp, metrics)
    check_metrics_present(t, "ncu", ncu_launches, metrics)
    pass_counts = sorted(set((passes or {}).get(d["dispatch_id"], 0) for d in rp))
    t.check(len(pass_counts) == 1 and pass_counts[0] >= 2 and pass_counts[0] == planned,
            "rocprofv3 passes per dispatch %s: expected one count >= 2 (the set does not fit in one pass), the plan's %d" % (pass_counts, planned))
    for i, d in enumerate(rp):
        v = d["metrics"].get("smsp__inst_executed.sum")
        t.check(v is not None and v > 0, "rocprofv3: launch %d %s smsp__inst_executed.sum = %s" % (i, d["kernel"], fmt(v)))

    report = {}
    eq = tot = a_ok = a_tot = 0
    if seq_ok:
        eq, tot = compare(t, "rocprofv3 vs ncu", rp, ncu_launches, metrics, report)
        g1, t1 = check_analytic(t, "rocprofv3", rp, truth, metrics)
        g2, t2 = check_analytic(t, "ncu", ncu_launches, truth, metrics)
        a_ok, a_tot = g1 + g2, t1 + t2
        write_report(t, "comparison.txt", "rocprofv3 (a) vs ncu (b)", report)
    dram_vs_ncu = [rel_pct(a, b) for k, a, b in report.get("dram__bytes_read.sum", []) if k == "stream_read"]
    dram_vs_input = [
        rel_pct(d["metrics"].get("dram__bytes_read.sum"), truth.get("stream_bytes"))
        for d in rp
        if d["kernel"] == "stream_read"
    ]
    t.result(
        dispatches=len(rp),
        metrics=len(metrics),
        passes=(pass_counts[-1] if pass_counts else 0),
        ncu_passes=(max(npasses) if npasses else 0),
        exact_equal="%d/%d" % (eq, tot),
        analytic_ok="%d/%d" % (a_ok, a_tot),
    )
    t.result(
        dram_read_vs_ncu_pct="%.3f" % max(dram_vs_ncu or [float("nan")]),
        dram_read_vs_input_pct="%.3f" % max(dram_vs_input or [float("nan")]),
        rocprofv3_s="%.2f" % rr.wall,
        ncu_s="%.2f" % nr.wall,
        plain_s="%.2f" % plain.wall,
        split_message=int(split_note),
    )


def test_replay_modes(t, args):
    groups = [
        ["smsp__inst_executed.sum"],
        ["smsp__warps_launched.sum"],
        ["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"],
        ["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "dram__bytes_read.sum"],
    ]
    metrics = [m for g in groups for m in g]
    pargs = stream_args()
    kdir, adir = os.path.join(t.out, "kernel"), os.path.join(t.out, "app")
    kr = run(t, "kernel_replay", rocprof_cmd(args, groups, kdir, pargs), {"PROGRAM_OUTPUT": os.path.join(t.out, "kernel.json")}, 280)
    truth = program_ok(t, "kernel replay", kr, os.path.join(t.out, "kernel.json"))
    # The same kernel replay with each pass measuring its own group (no CUPTI cycle per dispatch).
    sdir = os.path.join(t.out, "kernel_pass_schedule")
    sr = run(t, "kernel_replay_pass_schedule", rocprof_cmd(args, groups, sdir, pargs),
             {"PROGRAM_OUTPUT": os.path.join(t.out, "kernel_pass.json"), "ROCPROFILER_CUDA_COUNTER_SCHEDULE": "pass"}, 280)
    program_ok(t, "kernel replay, pass schedule", sr, os.path.join(t.out, "kernel_pass.json"))
    ar = run(t, "app_replay", rocprof_cmd(args, groups, adir, pargs, kernel_replay=False), {"PROGRAM_OUTPUT": os.path.join(t.out, "app.json")}, 280)
    pass_dirs = sorted(glob.glob(os.path.join(adir, "pass_*")), key=lambda p: int(re.sub(r"\D", "", os.path.basename(p)) or 0))
    t.check(len(pass_dirs) >= len(groups), "application replay: %d pass_N folders for %d groups" % (len(pass_dirs), len(groups)))
    program_ok(t, "application replay", ar, os.path.join(t.out, "app.json"), runs=max(len(pass_dirs), len(groups)))
    if truth is None or "launches" not in truth:
        return

    kcsv = os.path.join(kdir, "run_counter_collection.csv")
    kd = read_rocprof_csv(kcsv) if os.path.exists(kcsv) else []
    t.check(kd, "kernel replay: no rows in %s" % kcsv)
    kseq = check_sequence(t, "kernel replay", kd, truth)
    check_metrics_present(t, "kernel replay", kd, metrics)
    passes, planned = read_replay_passes(os.path.join(kdir, "run_results.json"))
    passes = passes or {}
    # CUPTI schedules the union of the groups into `planned` passes, at most one per group; one
    # planned pass means no replay (no outcomes), the counters collected in the program's run.
    pcounts = sorted(set(passes.get(d["dispatch_id"], 1) for d in kd))
    t.check(1 <= planned <= len(groups) and pcounts == [planned],
            "kernel replay: passes per dispatch %s, expected the plan's %d (1..%d)" % (pcounts, planned, len(groups)))

    # Application replay: one run per group; merge the runs per launch index.
    merged = None
    aseq = True
    for p in pass_dirs:
        c = os.path.join(p, "run_counter_collection.csv")
        d = read_rocprof_csv(c) if os.path.exists(c) else []
        label = "application replay %s" % os.path.basename(p)
        t.check(d, "%s: no rows in %s" % (label, c))
        aseq &= check_sequence(t, label, d, truth)
        for x in d:
            t.check(len(x["times"]) == 1, "%s: dispatch %d has rows of %d executions" % (label, x["dispatch_id"], len(x["times"])))
        if merged is None:
            merged = [{"kernel": x["kernel"], "metrics": {}, "dups": []} for x in d]
        for x, y in zip(merged, d):
            for m, v in y["metrics"].items():
                if m in x["metrics"]:
                    x["dups"].append(m)
                x["metrics"][m] = v
    merged = merged or []
    check_metrics_present(t, "application replay (merged)", merged, metrics)

    report = {}
    eq = tot = a_ok = a_tot = 0
    if kseq and aseq and merged:
        eq, tot = compare(t, "kernel vs application replay", kd, merged, metrics, report)
        g1, t1 = check_analytic(t, "kernel replay", kd, truth, metrics)
        g2, t2 = check_analytic(t, "application replay", merged, truth, metrics)
        a_ok, a_tot = g1 + g2, t1 + t2
        write_report(t, "comparison.txt", "kernel replay (a) vs application replay (b)", report)
    scsv = os.path.join(sdir, "run_counter_collection.csv")
    sd = read_rocprof_csv(scsv) if os.path.exists(scsv) else []
    t.check(sd, "kernel replay, pass schedule: no rows in %s" % scsv)
    s_eq = s_tot = 0
    if kseq and check_sequence(t, "kernel replay, pass schedule", sd, truth):
        sreport = {}
        s_eq, s_tot = compare(t, "dispatch vs pass schedule", kd, sd, metrics, sreport)
        write_report(t, "schedules.txt", "dispatch schedule (a) vs pass schedule (b)", sreport)
    dram = [rel_pct(a, b) for k, a, b in report.get("dram__bytes_read.sum", []) if k == "stream_read"]
    t.result(
        dispatches=len(kd),
        groups=len(groups),
        kernel_passes=(pcounts[-1] if pcounts else 0),
        app_runs=len(pass_dirs),
        equal="%d/%d" % (eq, tot),
        schedules_equal="%d/%d" % (s_eq, s_tot),
        analytic_ok="%d/%d" % (a_ok, a_tot),
        dram_kernel_vs_app_pct="%.3f" % max(dram or [float("nan")]),
        kernel_s="%.2f" % kr.wall,
        kernel_pass_schedule_s="%.2f" % sr.wall,
        app_s="%.2f" % ar.wall,
    )


CUDA_METRICS_LINE = re.compile(r"^\[cuda-metrics\] (.*)$", re.M)


def cuda_metrics_stats(text):
    """Sums the numbers of every `[cuda-metrics]` line (one per program run) in `text`."""
    out = {}
    for m in CUDA_METRICS_LINE.finditer(text):
        for kv in m.group(1).split():
            k, _, v = kv.partition("=")
            try:
                out[k] = out.get(k, 0) + (float(v) if "." in v else int(v))
            except ValueError:
                pass
    return out


def read_app_replay(t, label, adir, truth):
    """The rows of an application-replay run, merged per launch over its pass_N folders."""
    pass_dirs = sorted(glob.glob(os.path.join(adir, "pass_*")), key=lambda p: int(re.sub(r"\D", "", os.path.basename(p)) or 0))
    merged, seq = None, True
    for p in pass_dirs:
        c = os.path.join(p, "run_counter_collection.csv")
        d = read_rocprof_csv(c) if os.path.exists(c) else []
        t.check(d, "%s %s: no rows in %s" % (label, os.path.basename(p), c))
        seq &= check_sequence(t, "%s %s" % (label, os.path.basename(p)), d, truth)
        for x in d:
            t.check(len(x["times"]) == 1, "%s: dispatch %d has rows of %d executions" % (label, x["dispatch_id"], len(x["times"])))
        if merged is None:
            merged = [{"kernel": x["kernel"], "metrics": {}, "dups": []} for x in d]
        for x, y in zip(merged, d):
            for m, v in y["metrics"].items():
                if m in x["metrics"]:
                    x["dups"].append(m)
                x["metrics"][m] = v
    return (merged or []), seq, len(pass_dirs)


def test_batched(t, args):
    """The batched path (one CUPTI session over many dispatches) against the per-dispatch path."""
    groups = [
        ["smsp__inst_executed.sum"],
        ["smsp__warps_launched.sum"],
        ["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"],
        ["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "dram__bytes_read.sum"],
    ]
    metrics = [m for g in groups for m in g]
    pargs = stream_args()
    variants = [
        ("per_dispatch", {"ROCPROFILER_CUDA_COUNTER_BATCH": "0"}),
        ("batched", {}),
        ("batched_3", {"ROCPROFILER_CUDA_COUNTER_BATCH": "3"}),
    ]
    runs = {}
    for tag, env in variants:
        d = os.path.join(t.out, tag)
        out_json = os.path.join(t.out, tag + ".json")
        env = dict(env, PROGRAM_OUTPUT=out_json, ROCPROFILER_CUDA_TIMING_STATS="1")
        r = run(t, tag, rocprof_cmd(args, groups, d, pargs, kernel_replay=False), env, 280)
        truth = load_json(out_json)
        n_runs = len(glob.glob(os.path.join(d, "pass_*")))
        program_ok(t, tag, r, out_json, runs=max(n_runs, len(groups)))
        if truth is None or "launches" not in truth:
            runs[tag] = (r, [], False, cuda_metrics_stats(r.stderr + r.stdout))
            continue
        rows, seq, _ = read_app_replay(t, tag, d, truth)
        check_metrics_present(t, tag, rows, metrics)
        runs[tag] = (r, rows, seq, cuda_metrics_stats(r.stderr + r.stdout))
    # Which path counted: the per-dispatch run batched nothing; the batched runs batched every
    # counted dispatch, lost none, and the batch of 3 filled its image.
    per_stats, b_stats, b3_stats = runs["per_dispatch"][3], runs["batched"][3], runs["batched_3"][3]
    n_rows = len(runs["per_dispatch"][1])
    t.check("executions" in per_stats, "per_dispatch: no [cuda-metrics] line (ROCPROFILER_CUDA_TIMING_STATS=1)")
    t.check(per_stats.get("batched", 0) == 0, "per_dispatch: %s executions were batched" % per_stats.get("batched"))
    for tag, st in (("batched", b_stats), ("batched_3", b3_stats)):
        t.check(st.get("batched", 0) >= n_rows * len(groups) and st.get("batched") == st.get("executions"),
                "%s: %s of %s counted executions batched, expected all and at least %d (every dispatch of every run)"
                % (tag, st.get("batched"), st.get("executions"), n_rows * len(groups)))
        t.check(st.get("batch_dropped", 0) == 0, "%s: %s dispatches lost their range" % (tag, st.get("batch_dropped")))
    t.check(b3_stats.get("batch_full", 0) > 0, "batched_3: the counter data image never filled (batch_full=0)")
    report, eq, tot = {}, 0, 0
    for tag in ("batched", "batched_3"):
        a, b = runs["per_dispatch"], runs[tag]
        if a[2] and b[2] and a[1] and b[1]:
            # Counts exactly equal (EXACT), DRAM bytes of the streaming kernel within 2% (TOLERANT).
            g, n = compare(t, "per-dispatch vs %s" % tag, a[1], b[1], metrics, report)
            eq, tot = eq + g, tot + n
        else:
            t.fail("per-dispatch vs %s: rows missing or out of order" % tag)
    write_report(t, "comparison.txt", "per-dispatch path (a) vs batched path (b)", report)
    t.result(
        dispatches=n_rows,
        groups=len(groups),
        batched_equal="%d/%d" % (eq, tot),
        batched_execs=b_stats.get("batched", 0),
        batch_sessions=b_stats.get("batch_sessions", 0),
        batch3_full=b3_stats.get("batch_full", 0),
        per_dispatch_s="%.2f" % runs["per_dispatch"][0].wall,
        batched_s="%.2f" % runs["batched"][0].wall,
        batched_3_s="%.2f" % runs["batched_3"][0].wall,
    )


# Metrics that take several CUPTI passes even by themselves (ratios and throughputs over many
# raw counters), with counts and byte totals beside them. MULTIPASS_METRICS overrides.
MULTIPASS_METRICS = [
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    "lts__t_sector_hit_rate.pct",
    "smsp__inst_executed.sum",
    "smsp__warps_launched.sum",
    "dram__bytes_read.sum",
]


def compare_with_ncu_runs(t, label, rp, a, b, metrics, worst):
    """Per launch: counts (EXACT) equal to both ncu runs, other values within the two runs'
    difference plus 2% of the larger. Returns (good, total); worst[m] = max deviation in %."""
    good = total = 0
    for i, (r, x, y) in enumerate(zip(rp, a, b)):
        for m in metrics:
            v, n1, n2 = r["metrics"].get(m), x["metrics"].get(m), y["metrics"].get(m)
            total += 1
            if v is None or n1 is None or n2 is None or math.isnan(v):
                t.fail("%slaunch %d %s %s: rocprofv3 %s, ncu %s / %s" % (label, i, r["kernel"], m, fmt(v), fmt(n1), fmt(n2)))
                continue
            if m in EXACT:
                ok = v == n1 and v == n2
                limit = 0.0
            else:
                limit = abs(n1 - n2) + 0.02 * max(abs(n1), abs(n2))
                ok = abs(v - n1) <= limit or abs(v - n2) <= limit
            worst[m] = max(worst.get(m, 0.0), rel_pct(v, n1))
            if t.check(ok, "%slaunch %d %s %s: rocprofv3 %s, ncu %s / %s (limit %s)" % (label, i, r["kernel"], m, fmt(v), fmt(n1), fmt(n2), fmt(limit))):
                good += 1
    return good, total


def run_ncu_twice(t, ncu, args, tag, metrics, pargs):
    """Two ncu --replay-mode kernel runs of the program: [(launches, wall, passes)]."""
    runs = []
    for i in range(2):
        log = os.path.join(t.out, "%s_ncu%d.csv" % (tag, i))
        cmd = [ncu, "--csv", "--print-units", "base", "--replay-mode", "kernel", "--clock-control", "none",
               "--metrics", ",".join(metrics), "--log-file", log, args.program] + pargs
        r = run(t, "%s_ncu%d" % (tag, i), cmd, {"PROGRAM_OUTPUT": os.path.join(t.out, "%s_ncu%d.json" % (tag, i))}, 400)
        program_ok(t, "%s: under ncu (%d)" % (tag, i), r, os.path.join(t.out, "%s_ncu%d.json" % (tag, i)))
        text = open(log, errors="replace").read() if os.path.exists(log) else ""
        launches = read_ncu_csv(text) or read_ncu_csv(r.stdout)
        t.check(launches, "%s: ncu run %d: no metric rows" % (tag, i))
        runs.append((launches, r.wall, ncu_passes(text + r.stdout + r.stderr)))
    return runs


def shipped_sets(args):
    """{set name: metrics} of the sm_90 definitions in the metrics.json rocprofv3 ships."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(args.rocprofv3))), "share", "rocprofiler-sdk", "metrics.json")
    data = load_json(path) or {}
    return {s["name"]: s["metrics"] for s in data.get("sets", []) if "sm_90" in s.get("agents", [])}, path


def test_sets(t, args):
    """Every shipped sm_90 metric set, --pmc <set> under kernel replay, against two ncu runs with
    the set's metrics; and a shipped derived metric against its base counters."""
    ncu = find_ncu()
    if ncu is None:
        t.skip("ncu not found")
    sets, path = shipped_sets(args)
    t.check(len(sets) >= 5, "%s: %d sm_90 metric sets, expected at least 5" % (path, len(sets)))
    pargs = ["--stream-mib", "64", "--fma-iters", "256"]
    summary = []
    for name in sorted(sets):
        if name == "full":
            continue  # the union of the others
        metrics = sets[name]
        rdir = os.path.join(t.out, name)
        rr = run(t, name, [args.rocprofv3, "--pmc", name, "--replay-mode", "kernel", "--kernel-replay-beta-enabled",
                           "-f", "csv", "json", "-d", rdir, "-o", "run", "--", args.program] + pargs,
                 {"PROGRAM_OUTPUT": os.path.join(t.out, name + ".json")}, 400)
        truth = program_ok(t, "%s: under rocprofv3" % name, rr, os.path.join(t.out, name + ".json"))
        csv_path = os.path.join(rdir, "run_counter_collection.csv")
        rp = read_rocprof_csv(csv_path) if os.path.exists(csv_path) else []
        t.check(rp, "%s: no rows in %s" % (name, csv_path))
        check_metrics_present(t, name, rp, metrics)
        _, planned = read_replay_passes(os.path.join(rdir, "run_results.json"))
        runs = run_ncu_twice(t, ncu, args, name, metrics, pargs)
        good = total = 0
        worst = {}
        if truth is not None and "launches" in truth and all(check_sequence(t, "%s ncu %d" % (name, i), r[0], truth) for i, r in enumerate(runs)) \
                and check_sequence(t, name, rp, truth):
            good, total = compare_with_ncu_runs(t, name + ": ", rp, runs[0][0], runs[1][0], metrics, worst)
        with open(os.path.join(t.out, name + "_comparison.txt"), "w") as f:
            for m in metrics:
                f.write("%-70s max |rocprofv3 - ncu0|/ncu0 = %.3f%%\n" % (m, worst.get(m, float("nan"))))
        summary.append("%s:%d/%d,passes=%d,rocprofv3_s=%.1f,ncu_s=%.1f" % (name, good, total, planned, rr.wall, runs[0][1]))

    # A derived metric: SM_INST_PER_CYCLE = smsp__inst_executed.sum / sm__cycles_elapsed.sum, in
    # the same dispatch's rows.
    ddir = os.path.join(t.out, "derived")
    dr = run(t, "derived", rocprof_cmd(args, [["SM_INST_PER_CYCLE", "smsp__inst_executed.sum", "sm__cycles_elapsed.sum"]], ddir, pargs),
             {"PROGRAM_OUTPUT": os.path.join(t.out, "derived.json")}, 300)
    program_ok(t, "derived metric", dr, os.path.join(t.out, "derived.json"))
    dcsv = os.path.join(ddir, "run_counter_collection.csv")
    dd = read_rocprof_csv(dcsv) if os.path.exists(dcsv) else []
    t.check(dd, "derived metric: no rows in %s" % dcsv)
    derived_ok = 0
    for d in dd:
        m = d["metrics"]
        inst, cyc, ipc = m.get("smsp__inst_executed.sum"), m.get("sm__cycles_elapsed.sum"), m.get("SM_INST_PER_CYCLE")
        if t.check(inst is not None and cyc and ipc is not None and abs(ipc - inst / cyc) <= 1e-7 * abs(inst / cyc),
                   "derived metric: dispatch %d SM_INST_PER_CYCLE %s, %s / %s" % (d["dispatch_id"], fmt(ipc), fmt(inst), fmt(cyc))):
            derived_ok += 1
    t.result(sets=" ".join(summary))
    t.result(derived_equal="%d/%d" % (derived_ok, len(dd)))


def test_multipass(t, args):
    """Metrics of several passes under kernel replay against two ncu runs of the same program:
    counts exact, other values within the two ncu runs' spread plus 2%; without kernel replay
    rocprofv3 refuses them, naming the pass count."""
    ncu = find_ncu()
    if ncu is None:
        t.skip("ncu not found")
    env = os.environ.get("MULTIPASS_METRICS", "").replace(",", " ").split()
    metrics = env or list(MULTIPASS_METRICS)
    pargs = ["--stream-mib", "64", "--fma-iters", "256"]

    # Without kernel replay: exit 2 before the program runs, naming a multi-pass metric.
    nr_dir = os.path.join(t.out, "no_replay")
    refused = run(t, "no_replay", rocprof_cmd(args, [metrics[:1]], nr_dir, pargs, kernel_replay=False),
                  {"PROGRAM_OUTPUT": os.path.join(t.out, "no_replay.json")}, 120)
    t.check(refused.rc == 2, "without kernel replay: exit %d, expected 2" % refused.rc)
    t.check(re.search(r"counter '%s' takes \d+ passes" % re.escape(metrics[0]), refused.stderr),
            "without kernel replay: no message naming %s and its passes: %s" % (metrics[0], refused.stderr[-400:]))
    t.check("results OK" not in refused.stdout, "without kernel replay: the program ran")

    ncu_runs = run_ncu_twice(t, ncu, args, "multipass", metrics, pargs)

    rdir = os.path.join(t.out, "rocprofv3")
    rr = run(t, "rocprofv3", rocprof_cmd(args, [metrics], rdir, pargs), {"PROGRAM_OUTPUT": os.path.join(t.out, "rocprofv3.json")}, 400)
    truth = program_ok(t, "under rocprofv3", rr, os.path.join(t.out, "rocprofv3.json"))
    csv_path = os.path.join(rdir, "run_counter_collection.csv")
    rp = read_rocprof_csv(csv_path) if os.path.exists(csv_path) else []
    t.check(rp, "no rows in %s" % csv_path)
    passes, planned = read_replay_passes(os.path.join(rdir, "run_results.json"))
    pcounts = sorted(set((passes or {}).get(d["dispatch_id"], 0) for d in rp))
    t.check(planned >= 2 and pcounts == [planned], "rocprofv3: passes per dispatch %s, the plan's %d (>= 2)" % (pcounts, planned))
    t.check(not re.search(r"missing", rr.stderr), "rocprofv3 reports missing counter groups: %s" % rr.stderr[-400:])
    for d in rp:
        t.check(not d["dups"], "rocprofv3: dispatch %d has duplicate rows for %s" % (d["dispatch_id"], d["dups"]))
    if truth is None or "launches" not in truth or len(ncu_runs) != 2:
        return
    seq = check_sequence(t, "rocprofv3", rp, truth)
    for i, (launches, _, _) in enumerate(ncu_runs):
        seq &= check_sequence(t, "ncu run %d" % i, launches, truth)
    check_metrics_present(t, "rocprofv3", rp, metrics)
    good = total = 0
    worst = {}
    if seq:
        good, total = compare_with_ncu_runs(t, "", rp, ncu_runs[0][0], ncu_runs[1][0], metrics, worst)
    with open(os.path.join(t.out, "comparison.txt"), "w") as f:
        for m in metrics:
            f.write("%-66s max |rocprofv3 - ncu0|/ncu0 = %.3f%%\n" % (m, worst.get(m, float("nan"))))
    nps = [max(p) for _, _, p in ncu_runs if p]
    t.result(dispatches=len(rp), metrics=len(metrics), passes=planned, ncu_passes=(max(nps) if nps else 0),
             within_ncu_spread="%d/%d" % (good, total), rocprofv3_s="%.2f" % rr.wall,
             ncu_s="%.2f/%.2f" % (ncu_runs[0][1], ncu_runs[1][1]))


def test_unknown_metric(t, args):
    small = ["--stream-mib", "16", "--fma-iters", "64"]
    # Control: the same command without the unknown name runs the program.
    cdir = os.path.join(t.out, "control")
    cr = run(t, "control", rocprof_cmd(args, [["smsp__inst_executed.sum"]], cdir, small, fmt_json=False), {"PROGRAM_OUTPUT": os.path.join(t.out, "control.json")}, 100)
    program_ok(t, "control (known metric)", cr, os.path.join(t.out, "control.json"))
    t.check(os.path.exists(os.path.join(cdir, "run_counter_collection.csv")), "control: no counter_collection.csv")
    cases = [
        ("kernel", [["smsp__inst_executed.sum", "smsp__no_such_metric_xyz.sum"]], True, "smsp__no_such_metric_xyz.sum"),
        ("app", [["smsp__inst_executed.sum"], ["smsp__warps_launched.sum", "smsp__bogus_counter_abc.sum"]], False, "smsp__bogus_counter_abc.sum"),
    ]
    rcs = []
    for tag, groups, kernel, bad in cases:
        d = os.path.join(t.out, tag)
        pj = os.path.join(t.out, tag + ".json")
        r = run(t, tag, rocprof_cmd(args, groups, d, small, kernel_replay=kernel, fmt_json=False), {"PROGRAM_OUTPUT": pj}, 100)
        rcs.append(r.rc)
        t.check(not r.timed_out, "%s: timed out" % tag)
        t.check(r.rc != 0, "%s: rocprofv3 exited with 0 for the unknown metric %s" % (tag, bad))
        t.check(bad in r.stderr, "%s: stderr does not name %s" % (tag, bad))
        t.check("counter-program:" not in r.stdout and not os.path.exists(pj), "%s: the program ran despite the unknown metric" % tag)
        written = glob.glob(os.path.join(d, "**", "*_counter_collection.csv"), recursive=True)
        t.check(not written, "%s: counter files were written: %s" % (tag, written))
    t.result(unknown_rc="/".join(str(x) for x in rcs), control_rc=cr.rc)


def warps_by_kernel(truth):
    return {l["kernel"]: l["expected"]["smsp__warps_launched.sum"]["value"] for l in truth["launches"]}


def check_rows_if_any(t, label, csv_path, truth):
    """Rows that a run wrote while counters were unavailable must still be right (never made up)."""
    if not os.path.exists(csv_path) or truth is None:
        return 0
    rows = read_rocprof_csv(csv_path)
    expected = warps_by_kernel(truth)
    for d in rows:
        v = d["metrics"].get("smsp__warps_launched.sum")
        if "smsp__warps_launched.sum" in d["metrics"]:
            t.check(v == expected.get(d["kernel"]), "%s: dispatch %d %s smsp__warps_launched.sum=%s, analytic %s" % (label, d["dispatch_id"], d["kernel"], fmt(v), fmt(expected.get(d["kernel"]))))
    return len(rows)


def test_fault(t, args):
    pj0 = os.path.join(t.out, "plain.json")
    plain = run(t, "plain", [args.program, "--fault"], {"PROGRAM_OUTPUT": pj0}, 60)
    truth = program_ok(t, "plain run (control)", plain, pj0)
    t.check(truth is not None and truth.get("fault_observed", "cudaSuccess") != "cudaSuccess", "plain run: the fault was not observed")
    d = os.path.join(t.out, "rocprofv3")
    pj = os.path.join(t.out, "rocprofv3.json")
    groups = [["smsp__warps_launched.sum"], ["smsp__inst_executed.sum"]]
    r = run(t, "rocprofv3", rocprof_cmd(args, groups, d, ["--fault"]), {"PROGRAM_OUTPUT": pj}, 150)
    got = program_ok(t, "under rocprofv3", r, pj)
    fault = (got or {}).get("fault_observed", "none")
    t.check(fault not in ("none", "cudaSuccess"), "under rocprofv3: the program did not see the fault (%s)" % fault)
    t.check((got or {}).get("results_before_fault_ok") is True, "under rocprofv3: results before the fault wrong")
    csv_path = os.path.join(d, "run_counter_collection.csv")
    rows = read_rocprof_csv(csv_path) if os.path.exists(csv_path) else []
    t.check(rows, "no counter rows after the fault (%s)" % csv_path)
    if truth is not None:
        good = [l for l in truth["launches"] if not l.get("fault")]
        for i, l in enumerate(good):
            hit = rows[i] if i < len(rows) else None
            if not t.check(hit is not None and hit["kernel"] == l["kernel"], "launch %d (%s) before the fault has no rows" % (i, l["kernel"])):
                continue
            w = hit["metrics"].get("smsp__warps_launched.sum")
            n = hit["metrics"].get("smsp__inst_executed.sum")
            t.check(w == l["expected"]["smsp__warps_launched.sum"]["value"], "launch %d %s: smsp__warps_launched.sum=%s, analytic %s" % (i, l["kernel"], fmt(w), fmt(l["expected"]["smsp__warps_launched.sum"]["value"])))
            t.check(n is not None and n > 0, "launch %d %s: smsp__inst_executed.sum=%s" % (i, l["kernel"], fmt(n)))
    t.result(fault_rc=r.rc, fault_error=fault, fault_rows=len(rows), fault_s="%.2f" % r.wall, fault_messages=len(message_lines(r.stderr)))


def test_cupti_held(t, args):
    if not args.program_cupti:
        t.fail("no --program-cupti given")
        return
    pargs = ["--hold-cupti", "--stream-mib", "32"]
    pj0 = os.path.join(t.out, "plain.json")
    plain = run(t, "plain", [args.program_cupti] + pargs, {"PROGRAM_OUTPUT": pj0}, 100)
    truth = program_ok(t, "plain run (control: the program holds CUPTI alone)", plain, pj0)
    t.check("cupti_hold=ok" in plain.stdout, "plain run: the program could not set up its own CUPTI session")
    hold = (truth or {}).get("cupti_hold", {})
    if truth is not None:
        want = [l["expected"]["smsp__warps_launched.sum"]["value"] for l in truth["launches"]]
        t.check(hold.get("warps") == want, "plain run: the program's own CUPTI session measured %s, analytic %s" % (hold.get("warps"), want))
    d = os.path.join(t.out, "rocprofv3")
    pj = os.path.join(t.out, "rocprofv3.json")
    groups = [["smsp__warps_launched.sum", "smsp__inst_executed.sum"], ["smsp__inst_executed_pipe_lsu.sum"]]
    r = run(t, "rocprofv3", rocprof_cmd(args, groups, d, pargs, prog=args.program_cupti),
            {"PROGRAM_OUTPUT": pj}, 150)
    got = program_ok(t, "under rocprofv3", r, pj)
    t.check("cupti_hold=ok" in r.stdout, "under rocprofv3: the program did not get CUPTI first (precondition)")
    held = (got or {}).get("cupti_hold", {})
    t.check(held.get("released") is True, "under rocprofv3: the program's own CUPTI session broke: %s" % held.get("release_error"))
    msgs = message_lines(r.stderr)
    t.check(msgs, "rocprofv3's stderr has no error/warning line about counters, metrics or the range profiler")
    for m in msgs[:3]:
        print("  message: " + m)
    rows = check_rows_if_any(t, "under rocprofv3", os.path.join(d, "run_counter_collection.csv"), truth)
    t.result(held_rc=r.rc, held_messages=len(msgs), held_rows=rows, holder_ranges=held.get("ranges", 0))


def test_under_ncu(t, args):
    ncu = find_ncu()
    if ncu is None:
        t.skip("ncu not found")
    pargs = ["--stream-mib", "16", "--fma-iters", "256"]
    pj0 = os.path.join(t.out, "plain.json")
    plain = run(t, "plain", [args.program] + pargs, {"PROGRAM_OUTPUT": pj0}, 60)
    truth = program_ok(t, "plain run", plain, pj0)
    d = os.path.join(t.out, "rocprofv3")
    pj = os.path.join(t.out, "rocprofv3.json")
    cmd = [ncu, "--replay-mode", "kernel", "--clock-control", "none", "--metrics", "smsp__warps_launched.sum"]
    cmd += ["--csv", "--log-file", os.path.join(t.out, "ncu.csv")]
    cmd += rocprof_cmd(args, [["smsp__warps_launched.sum", "smsp__inst_executed.sum"]], d, pargs)
    r = run(t, "ncu_rocprofv3", cmd, {"PROGRAM_OUTPUT": pj}, 280)
    t.check(not r.timed_out, "timed out")
    t.check("results OK" in r.stdout and "counter-program: FAIL" not in r.stdout, "the program did not report correct results under ncu + rocprofv3")
    got = load_json(pj)
    t.check(got is not None and got.get("ok") is True, "the program's JSON is missing or not ok")
    msgs = message_lines(r.stderr)
    t.check(msgs, "rocprofv3's stderr has no error/warning line about counters, metrics or the range profiler")
    for m in msgs[:3]:
        print("  message: " + m)
    rows = check_rows_if_any(t, "under ncu", os.path.join(d, "run_counter_collection.csv"), truth)
    t.result(under_ncu_rc=r.rc, under_ncu_messages=len(msgs), under_ncu_rows=rows, under_ncu_s="%.2f" % r.wall)


# AMD's counter names (source/share/rocprofiler-sdk/amd_equivalents.json) on the CUDA agent.
AMD_TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "source", "share",
                         "rocprofiler-sdk", "amd_equivalents.json")
CUPTI_NAME = re.compile(r"[a-z0-9]+__[A-Za-z0-9_.]+")


def amd_sm90_expressions():
    """{expression: [AMD names defined by it on sm_90]}, in the table's order."""
    table = load_json(AMD_TABLE) or {}
    by_expr = {}
    for e in table.get("equivalents", []):
        for d in e.get("definitions", []):
            if "sm_90" in d.get("agents", []):
                by_expr.setdefault(d["expression"], []).append(e["name"])
    return by_expr


def evaluate(expression, values):
    """The expression over measured values (the table's language here: + - * / ( ) and numbers)."""
    text = CUPTI_NAME.sub(lambda m: repr(float(values[m.group(0)])), expression)
    if not re.fullmatch(r"[0-9eE.+\-*/() ]+", text):
        raise ValueError("not an arithmetic expression: " + text)
    try:
        return eval(text, {"__builtins__": {}})  # digits and operators only (checked above)
    except ZeroDivisionError:
        return float("nan")


def test_amd_names(t, args):
    """Each AMD name with an sm_90 definition, in one group with the CUPTI metrics of its
    definition (kernel replay): every row is named as asked, and its value equals the definition
    evaluated over the metrics of the same dispatch; SQ_WAVES equals the program's analytic warps
    and FETCH_SIZE its analytic DRAM bytes read / 1024."""
    by_expr = amd_sm90_expressions()
    t.check(len(by_expr) >= 10, "%s: %d sm_90 definitions, expected the shipped table" % (AMD_TABLE, len(by_expr)))
    small = ["--stream-mib", "64", "--fma-iters", "64"]
    names_ok = equal = compared = analytic = 0
    for i, (expr, names) in enumerate(by_expr.items()):
        base = sorted(set(CUPTI_NAME.findall(expr)))
        tag = "amd_%02d" % i
        d = os.path.join(t.out, tag)
        pj = os.path.join(t.out, tag + ".json")
        r = run(t, tag, rocprof_cmd(args, [names + base], d, small, fmt_json=False), {"PROGRAM_OUTPUT": pj}, 120)
        truth = program_ok(t, "%s (%s)" % (tag, names[0]), r, pj)
        path = os.path.join(d, "run_counter_collection.csv")
        if not t.check(os.path.exists(path), "%s: %s: no counter_collection.csv" % (tag, names)):
            continue
        rows = read_rocprof_csv(path)
        if not check_metrics_present(t, "%s %s" % (tag, names[0]), rows, names + base):
            continue
        names_ok += 1
        for k, row in enumerate(rows):
            want = evaluate(expr, row["metrics"])
            for n in names:
                got = row["metrics"][n]
                compared += 1
                same = (math.isnan(want) and math.isnan(got)) or math.isclose(got, want, rel_tol=1e-5, abs_tol=1e-5)
                if t.check(same, "%s: dispatch %d %s %s=%s, its definition %s over the same dispatch = %s" % (tag, row["dispatch_id"], row["kernel"], n, fmt(got), expr, fmt(want))):
                    equal += 1
            if truth is None or k >= len(truth.get("launches", [])):
                continue
            expected = truth["launches"][k].get("expected", {})
            for n, metric, scale in (("SQ_WAVES", "smsp__warps_launched.sum", 1.0), ("FETCH_SIZE", "dram__bytes_read.sum", 1024.0)):
                if n in names and metric in expected:
                    e = expected[metric]
                    analytic += 1
                    t.check(within(row["metrics"][n] * scale, e["value"], e["tol"]), "%s: launch %d %s %s=%s, analytic %s / %g" % (tag, k, row["kernel"], n, fmt(row["metrics"][n]), fmt(e["value"]), scale))
    t.check(analytic > 0, "no SQ_WAVES or FETCH_SIZE value was compared with the program's analytic values")
    t.result(amd_definitions=len(by_expr), amd_runs_named=names_ok, amd_values_equal="%d/%d" % (equal, compared), amd_analytic=analytic)


TESTS = {
    "vs_ncu": test_vs_ncu,
    "replay_modes": test_replay_modes,
    "multipass": test_multipass,
    "batched": test_batched,
    "sets": test_sets,
    "unknown_metric": test_unknown_metric,
    "fault": test_fault,
    "cupti_held": test_cupti_held,
    "under_ncu": test_under_ncu,
    "amd_names": test_amd_names,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("test", choices=sorted(TESTS))
    ap.add_argument("--rocprofv3", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--program-cupti", default="")
    args = ap.parse_args()
    t = Test(args.test)
    try:
        TESTS[args.test](t, args)
    except SystemExit:
        raise
    except Exception as e:  # a crash of the checker is a failure, with its reason
        import traceback

        traceback.print_exc()
        t.fail("checker error: %s: %s" % (type(e).__name__, e))
    t.finish()


if __name__ == "__main__":
    main()
