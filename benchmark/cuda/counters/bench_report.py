#!/usr/bin/env python3
"""The BENCH lines of run_counter_bench.sh from what its runs left in <outdir>.

Usage: bench_report.py <outdir> [ncu]   ("ncu" when ncu ran)
Exit 1 when a run failed, a program's self-check failed, or rocprofv3 and ncu report different
smsp__inst_executed.sum for the same launch.
"""

import csv
import json
import os
import re
import statistics
import sys

INST = "smsp__inst_executed.sum"


def number(text):
    t = text.strip().replace(",", "").replace(" ", "")
    try:
        return float(t)
    except ValueError:
        return None


def base_name(name):
    name = re.split(r"[(<]", name.strip(), 1)[0].strip()
    return name.split()[-1] if name else name


def read_text(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def rocprof_dispatches(path):
    by_id = {}
    try:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                d = by_id.setdefault(int(r["Dispatch_Id"]), {"kernel": base_name(r["Kernel_Name"]), "metrics": {}, "times": set()})
                d["metrics"][r["Counter_Name"]] = number(r["Counter_Value"])
                d["times"].add(r["Start_Timestamp"])
    except OSError:
        return {}
    return by_id


def rocprof_passes(path):
    try:
        with open(path) as f:
            data = json.load(f)
        passes = {}
        for tool in data["rocprofiler-sdk-tool"]:
            for rec in tool["callback_records"]["counter_collection"]:
                did = rec["dispatch_data"]["dispatch_info"]["dispatch_id"]
                passes.setdefault(did, set()).add(rec.get("replay_pass", 0))
        return {k: len(v) for k, v in passes.items()}
    except (OSError, ValueError, KeyError, TypeError):
        return None


def ncu_launches(text):
    lines = [l for l in text.splitlines() if l.startswith('"')]
    header, idx, by_id = None, {}, {}
    for row in csv.reader(lines):
        if header is None:
            if "ID" in row and "Metric Name" in row and "Metric Value" in row:
                header, idx = row, {n: i for i, n in enumerate(row)}
            continue
        if row == header or len(row) < len(header):
            continue
        lid = number(row[idx["ID"]])
        if lid is None:
            continue
        d = by_id.setdefault(int(lid), {"kernel": base_name(row[idx["Kernel Name"]]), "metrics": {}})
        d["metrics"][row[idx["Metric Name"]]] = number(row[idx["Metric Value"]])
    return [by_id[k] for k in sorted(by_id)]


def main():
    out = sys.argv[1]
    with_ncu = len(sys.argv) > 2 and sys.argv[2] == "ncu"
    runs = {}
    bad = []
    for line in read_text(os.path.join(out, "times.txt")).splitlines():
        kind, rep, secs, rc = line.split()
        runs.setdefault(kind, []).append(float(secs))
        prog = read_text(os.path.join(out, "%s_%s.stdout" % (kind, rep)))
        if rc != "0":
            bad.append("%s run %s exited with %s" % (kind, rep, rc))
        elif "ok=1" not in prog:
            bad.append("%s run %s: the program's self-check failed or did not print" % (kind, rep))
    med = {k: statistics.median(v) for k, v in runs.items()}
    metrics = read_text(os.path.join(out, "metrics.txt")).split()

    rp = rocprof_dispatches(os.path.join(out, "rocprofv3_1", "bench_counter_collection.csv"))
    passes = rocprof_passes(os.path.join(out, "rocprofv3_1", "bench_results.json"))
    order = sorted(rp)
    dispatches = len(order)
    if passes:
        r_execs = sum(passes.get(k, 0) for k in order)
    else:  # no JSON: distinct start timestamps per dispatch, one per pass
        r_execs = sum(len(rp[k]["times"]) for k in order)
    r_pass = sorted(set((passes or {}).get(k, len(rp[k]["times"])) for k in order))

    base = med.get("base", float("nan"))
    rs = med.get("rocprofv3", float("nan"))
    per_r = (rs - base) / r_execs * 1e6 if r_execs else float("nan")
    print("BENCH counters_metrics count=%d rocprofv3_passes_per_dispatch=%s dispatches=%d" % (len(metrics), "/".join(map(str, r_pass)) or "0", dispatches))

    nl = []
    ns = float("nan")
    per_n = float("nan")
    n_execs = 0
    if with_ncu:
        text = read_text(os.path.join(out, "ncu_1.csv"))
        nl = ncu_launches(text) or ncu_launches(read_text(os.path.join(out, "ncu_1.stdout")))
        npasses = [int(m) for m in re.findall(r"(\d+)\s+pass(?:es)?\b", text + read_text(os.path.join(out, "ncu_1.stdout")) + read_text(os.path.join(out, "ncu_1.stderr")))]
        n_execs = sum(npasses)
        ns = med.get("ncu", float("nan"))
        per_n = (ns - base) / n_execs * 1e6 if n_execs else float("nan")
        print("BENCH counters_total rocprofv3_s=%.2f ncu_s=%.2f baseline_s=%.2f speedup=%.2f overhead_speedup=%.2f" % (rs, ns, base, ns / rs if rs else float("nan"), (ns - base) / (rs - base) if rs > base else float("nan")))
        print("BENCH counters_per_pass rocprofv3_us=%.1f ncu_us=%.1f rocprofv3_pass_execs=%d ncu_pass_execs=%d ncu_passes_per_kernel=%s" % (per_r, per_n, r_execs, n_execs, "/".join(map(str, sorted(set(npasses)))) or "0"))
    else:
        print("BENCH counters_total rocprofv3_s=%.2f ncu_s=nan baseline_s=%.2f speedup=nan (SKIP: ncu not found)" % (rs, base))
        print("BENCH counters_per_pass rocprofv3_us=%.1f rocprofv3_pass_execs=%d" % (per_r, r_execs))
    print("BENCH counters_runs " + " ".join("%s_s=[%s]" % (k, ",".join("%.2f" % x for x in v)) for k, v in runs.items()))

    fail = bool(bad)
    for b in bad:
        print("BENCH counters_error %s" % b)
    expected = []
    try:
        with open(os.path.join(out, "base_1.json")) as f:
            expected = json.load(f).get("kernels", [])
    except (OSError, ValueError):
        pass
    names_r = [rp[k]["kernel"] for k in order]
    if not dispatches or (expected and names_r != expected):
        print("BENCH counters_error rocprofv3 recorded %d dispatches %s; the program launched %d" % (dispatches, "in another order" if dispatches == len(expected) else "", len(expected)))
        fail = True
    if with_ncu:
        names_n = [d["kernel"] for d in nl]
        equal = total = 0
        if names_n != names_r:
            print("BENCH counters_error ncu profiled %d launches, rocprofv3 %d, or in another order" % (len(names_n), len(names_r)))
            fail = True
        else:
            for i, k in enumerate(order):
                total += 1
                a, b = rp[k]["metrics"].get(INST), nl[i]["metrics"].get(INST)
                if a is not None and a == b:
                    equal += 1
                elif total - equal <= 5:
                    print("BENCH counters_mismatch launch=%d kernel=%s rocprofv3=%s ncu=%s" % (i, names_r[i], a, b))
        print("BENCH counters_check inst_executed_equal=%d/%d" % (equal, total))
        fail |= total == 0 or equal != total
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
