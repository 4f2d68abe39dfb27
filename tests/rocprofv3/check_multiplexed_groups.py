#!/usr/bin/env python3
"""AMD's multiplexed counter groups end to end (tests/rocprofv3/CMakeLists.txt).

An input file's pmc_groups without a replay mode is one run in which each dispatch is counted with
one group: the n-th counted dispatch of an agent (from 0) with group (n / pmc_group_interval) %
groups. Checked on the host-device program from its CSV files: every dispatch of the kernel trace
has counter rows of exactly its turn's group, no other counter, and the run is one run (no
application replay). Then the default interval (1), pmc_groups under kernel replay (every dispatch
gets every group, the interval ignored with a warning), and the refusals: pmc_groups together with
--pmc or the job's pmc, and an interval that is not a positive number. Nothing is hard-coded but
the counter names and the program's.

Usage: check_multiplexed_groups.py ROCPROFV3 HOST_KERNELS WORK_DIR
"""
import collections
import csv
import json
import os
import shutil
import subprocess
import sys

ENV = {"ROCPROFILER_CUDA_AGENTS": "0"}
GROUPS = [["WORK_ITEMS"], ["DURATION_NS", "CPU_TIME_NS"]]


class Failed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failed(message)


def run(cmd, expect_rc):
    env = dict(os.environ)
    env.update(ENV)
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=240)
    if p.returncode != expect_rc:
        raise Failed(f"{' '.join(cmd)}: exit {p.returncode}, expected {expect_rc}\n"
                     f"stdout: {p.stdout[-2000:]}\nstderr: {p.stderr[-2000:]}")
    return p


def job_file(work, name, job):
    path = os.path.join(work, name + ".json")
    with open(path, "w") as f:
        json.dump({"jobs": [job]}, f)
    return path


def rows(path):
    check(os.path.exists(path), f"{path} was not written")
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def counted_groups(out):
    """{dispatch id: (agent, set of counters)} of the run's counter_collection.csv, and the
    dispatches of its kernel trace."""
    counted = {}
    for r in rows(os.path.join(out, "run_counter_collection.csv")):
        d = int(r["Dispatch_Id"])
        agent, names = counted.setdefault(d, (r["Agent_Id"], set()))
        check(agent == r["Agent_Id"], f"dispatch {d}: rows of two agents")
        names.add(r["Counter_Name"])
    traced = {int(r["Dispatch_Id"]): r["Agent_Id"]
              for r in rows(os.path.join(out, "run_kernel_trace.csv"))}
    check(traced, f"{out}: no dispatch traced")
    check(set(counted) == set(traced),
          f"{out}: dispatches traced but not counted {sorted(set(traced) - set(counted))[:10]}, "
          f"counted but not traced {sorted(set(counted) - set(traced))[:10]}")
    return counted


def check_rotation(out, interval):
    counted = counted_groups(out)
    turns = collections.Counter()
    seen = collections.defaultdict(set)
    for d in sorted(counted):
        agent, names = counted[d]
        n = turns[agent]
        turns[agent] += 1
        want = GROUPS[(n // interval) % len(GROUPS)]
        check(names == set(want),
              f"{out}: dispatch {d} (counted dispatch {n} of {agent}) has {sorted(names)}, "
              f"its turn is group {(n // interval) % len(GROUPS) + 1} {want}")
        seen[agent].add((n // interval) % len(GROUPS))
    for agent, groups in seen.items():
        check(len(groups) == len(GROUPS), f"{out}: {agent} never counted with every group")
    return sum(turns.values())


def main():
    cli, prog, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    # pmc_groups with an interval of 2: one run, the groups in turns of two dispatches.
    out = os.path.join(work, "every2")
    p = run([cli, "-i", job_file(work, "every2", {"pmc_groups": GROUPS, "pmc_group_interval": 2}),
             "-f", "csv", "--kernel-trace", "-d", out, "-o", "run", "--", prog], 0)
    check("multiplexing 2 counter groups" in p.stderr and "every 2 counted" in p.stderr,
          f"no multiplexing line on stderr: {p.stderr[-1000:]}")
    check("application replay" not in p.stderr, "pmc_groups ran application replay")
    check(sorted(os.listdir(out)) == ["pass_1"], f"{out}: {sorted(os.listdir(out))}, one run")
    n = check_rotation(os.path.join(out, "pass_1"), 2)
    check(n >= 8, f"only {n} dispatches: too few to see the turns")

    # Without pmc_group_interval: AMD's default, a group per dispatch (YAML this time).
    out = os.path.join(work, "every1")
    yaml = os.path.join(work, "every1.yaml")
    with open(yaml, "w") as f:
        f.write("jobs:\n  - pmc_groups: [[WORK_ITEMS], [DURATION_NS, CPU_TIME_NS]]\n")
    run([cli, "-i", yaml, "-f", "csv", "--kernel-trace", "-d", out, "-o", "run", "--", prog], 0)
    check_rotation(os.path.join(out, "pass_1"), 1)

    # Under kernel replay every dispatch gets every group; the interval is ignored, with a warning.
    out = os.path.join(work, "replayed")
    p = run([cli, "-i", job_file(work, "replayed", {"pmc_groups": GROUPS, "pmc_group_interval": 3}),
             "--replay-mode", "kernel", "--kernel-replay-beta-enabled", "-f", "csv",
             "--kernel-trace", "-d", out, "-o", "run", "--", prog], 0)
    check("pmc_group_interval is ignored: under --replay-mode kernel" in p.stderr,
          f"no warning about the interval: {p.stderr[-1000:]}")
    every = set(GROUPS[0]) | set(GROUPS[1])
    for d, (_, names) in counted_groups(os.path.join(out, "pass_1")).items():
        check(names == every, f"kernel replay: dispatch {d} has {sorted(names)}")

    # Refusals, before the program runs (its --marker file is never written).
    marker = os.path.join(work, "ran")
    cases = [
        ([cli, "--pmc", "WORK_ITEMS", "-i", job_file(work, "both_cli", {"pmc_groups": GROUPS})], 2,
         "pmc_groups and --pmc both name counters"),
        ([cli, "-i", job_file(work, "both_job", {"pmc_groups": GROUPS, "pmc": ["WORK_ITEMS"]})], 2,
         "pmc_groups and the job's pmc both name counters"),
        ([cli, "-i", job_file(work, "zero", {"pmc_groups": GROUPS, "pmc_group_interval": 0})], 1,
         "pmc_group_interval is 0, expected a positive number of dispatches"),
        ([cli, "-i", job_file(work, "text", {"pmc_groups": GROUPS, "pmc_group_interval": "two"})], 1,
         "pmc_group_interval is \"two\", expected a positive number of dispatches"),
        ([cli, "-i", job_file(work, "flat", {"pmc_groups": "WORK_ITEMS"})], 1,
         "pmc_groups is \"WORK_ITEMS\", expected a list of counter groups"),
    ]
    for cmd, rc, message in cases:
        p = run(cmd + ["-d", os.path.join(work, "refused"), "--", prog, "--marker", marker], rc)
        check(message in p.stderr, f"{' '.join(cmd)}: stderr lacks '{message}': {p.stderr[-1000:]}")
        check(not os.path.exists(marker), f"{' '.join(cmd)}: the program ran")
    print("check_multiplexed_groups: OK")


if __name__ == "__main__":
    try:
        main()
    except Failed as e:
        print(f"check_multiplexed_groups: FAILED: {e}")
        sys.exit(1)
