#!/usr/bin/env python3
"""Jobs of several processes, profiled for real (tests/rocpd/CMakeLists.txt).

`mpi_job`: Open MPI's mpirun starts 4 ranks of mpi_ring (tests/rocprofv3/programs), each under
rocprofv3 -f rocpd with -d out/%hostname% -o rank_%rank%; the ranks exchange data and each
dispatches its own number of kernels and copies. Checked: the program's own result check, 4
databases under the host's name, the rank/size metadata from the launcher's variables, every
rank's dispatches and copies with its own counts (from the program's output and from its
design), rocpd summary --summary-by-rank, rocpd query over the 4, rocpd merge with distinct ids,
rocpd convert -f csv with each rank's rows, and -f pftrace: one trace, a process track per rank
holding that rank's dispatches and copies.

`mpi_ranks`: rocprofv3 --mpi-ranks under mpirun: only the listed ranks write databases, the
others run the application unprofiled (nothing preloaded) with the same exit code.

`python_workers`: one rocprofv3 command over a Python parent and 3 spawned workers, each using
the host device: one database per process, read as one job by rocpd summary, counts right.

Every rocprofv3/mpirun run is bounded (--timeout); a hung job is killed with its process group.
"""
import argparse
import glob
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys

RANKS = 4
SKIP = 77  # CTest's SKIP_RETURN_CODE for these tests


class Failed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failed(message)


def run(cmd, env=None, expect_rc=0, timeout=60):
    """Runs @p cmd in its own process group; on timeout the whole group is killed."""
    full_env = dict(os.environ)
    # In the sanitizer build (scripts/test.sh sets ASAN_OPTIONS): what Open MPI and the Python
    # interpreter leave allocated at exit is theirs, not the profiler's; leak checks off here.
    if "ASAN_OPTIONS" in full_env:
        full_env["ASAN_OPTIONS"] += ":detect_leaks=0"
    full_env.update(env or {})
    p = subprocess.Popen(cmd, env=full_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        raise Failed(f"{' '.join(cmd)}: still running after {timeout} s, killed\n"
                     f"stdout: {out[-3000:]}\nstderr: {err[-3000:]}")
    if expect_rc is not None and p.returncode != expect_rc:
        raise Failed(f"{' '.join(cmd)}: exit {p.returncode}, expected {expect_rc}\n"
                     f"stdout: {out[-3000:]}\nstderr: {err[-3000:]}")
    return subprocess.CompletedProcess(cmd, p.returncode, out, err)


def mpirun(a, ranks, work):
    """mpirun for a 2-core container as root with no network but loopback: oversubscribed,
    shared memory between the ranks (no single-copy mechanism, which needs ptrace rights), its
    files in the test's own directory, the launcher's own traffic on lo."""
    return [a.mpirun, "--allow-run-as-root", "--oversubscribe", "-np", str(ranks),
            "--mca", "btl", "self,vader", "--mca", "btl_vader_single_copy_mechanism", "none",
            "--mca", "btl_vader_backing_directory", work, "--mca", "oob_tcp_if_include", "lo"]


def connect(path):
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def metadata(path):
    with connect(path) as c:
        return dict(c.execute("SELECT tag, value FROM rocpd_metadata"))


def scalar(path, sql, args=()):
    with connect(path) as c:
        return c.execute(sql, args).fetchone()[0]


def by_name(path, sql):
    with connect(path) as c:
        return dict(c.execute(sql))


def program_counts(stdout):
    """{rank: (kernels, copies)} from mpi_ring's lines; every rank's check must say ok."""
    counts = {}
    for m in re.finditer(r"mpi_ring: rank (\d+) of (\d+): kernels (\d+) copies (\d+) check (\S+)",
                         stdout):
        rank, size, kernels, copies, result = m.groups()
        check(int(size) == RANKS, f"mpi_ring saw {size} ranks: {m.group(0)}")
        check(result == "ok", f"the program's own check failed: {m.group(0)}")
        counts[int(rank)] = (int(kernels), int(copies))
    check(sorted(counts) == list(range(RANKS)), f"lines of ranks {sorted(counts)}:\n{stdout}")
    for rank, (kernels, copies) in counts.items():
        # mpi_ring's design: rank r dispatches r + 2 kernels and makes r + 5 copies.
        check((kernels, copies) == (rank + 2, rank + 5), f"rank {rank}: {kernels} {copies}")
    return counts


def mpi_job(a):
    work = os.path.join(a.work, "job")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    out = os.path.join(work, "out")
    p = run(mpirun(a, RANKS, work) + [
        a.rocprofv3, "--kernel-trace", "--memory-copy-trace", "-f", "rocpd",
        "-d", os.path.join(out, "%hostname%"), "-o", "rank_%rank%", "--", a.program])
    counts = program_counts(p.stdout)

    host = socket.gethostname()
    dbs = sorted(glob.glob(os.path.join(out, "*", "*.db")))
    expected = [os.path.join(out, host, f"rank_{r}_results.db") for r in range(RANKS)]
    check(dbs == expected, f"databases {dbs}, expected {expected}")

    pids, guids = set(), {}
    for r, path in enumerate(dbs):
        m = metadata(path)
        check(m.get("rank") == str(r) and m.get("size") == str(RANKS),
              f"{path}: rank {m.get('rank')!r} size {m.get('size')!r}, expected {r} and {RANKS}")
        check(m.get("hostname") == host, f"{path}: hostname {m.get('hostname')!r}")
        check(a.program in m.get("command", ""), f"{path}: command {m.get('command')!r}")
        pids.add(m["pid"])
        guids[m["guid"]] = r
        kernels, copies = counts[r]
        names = by_name(path, "SELECT name, COUNT(*) FROM kernels GROUP BY name")
        check(names == {"ring_scale": r + 1, "ring_add": 1},
              f"rank {r}: kernels {names}, expected ring_scale {r + 1}, ring_add 1")
        check(sum(names.values()) == kernels, f"rank {r}: {names} != the program's {kernels}")
        kinds = by_name(path, "SELECT name, COUNT(*) FROM memory_copies GROUP BY name")
        check(sum(kinds.values()) == copies, f"rank {r}: copies {kinds}, the program made {copies}")
        check(kinds.get("MEMORY_COPY_DEVICE_TO_DEVICE") == r + 1,
              f"rank {r}: device-to-device copies {kinds}")
    check(len(pids) == RANKS and len(guids) == RANKS, f"pids {pids}, guids {sorted(guids)}")

    # The job by rank, as the docs show it, then as JSON to check.
    p = run([a.rocpd, "summary", "-i", *dbs, "--summary-by-rank"])
    check("KERNEL_SUMMARY_BY_RANK" in p.stdout and "RANK_SPREAD" in p.stdout, p.stdout[:2000])
    with open(os.path.join(work, "summary.txt"), "w") as f:
        f.write(p.stdout)
    run([a.rocpd, "summary", "-i", *dbs, "--summary-by-rank", "--format", "json",
         "-d", work, "-o", "summary"])
    doc = json.load(open(os.path.join(work, "summary.json")))
    for r in range(RANKS):
        rows = {x["name"]: x["calls"] for x in doc["kernel_summary_by_rank"]
                if x["rank"] == str(r)}
        check(rows == {"ring_scale": r + 1, "ring_add": 1}, f"summary rank {r}: {rows}")
        copies = sum(x["calls"] for x in doc["memory_copy_summary_by_rank"] if x["rank"] == str(r))
        check(copies == counts[r][1], f"summary rank {r}: {copies} copies")
    total = {x["name"]: x["calls"] for x in doc["kernel_summary"]}
    check(total == {"ring_scale": sum(range(1, RANKS + 1)), "ring_add": RANKS},
          f"summary of the job: {total}")
    spread = {x["domain"]: x for x in doc["rank_spread"]}
    check(spread["kernel"]["ranks"] == RANKS, f"rank_spread: {spread['kernel']}")
    # The ring makes no marker regions: that domain has no slowest rank (null), not rank 0.
    check(spread["region"]["max_rank_total_ns"] == 0 and spread["region"]["slowest_rank"] is None,
          f"rank_spread of a domain without data: {spread['region']}")

    # One query over the four databases, each separately: a row per database, in input order.
    run([a.rocpd, "query", "--per-database", "-i", *dbs, "--query",
         "SELECT COUNT(*) AS dispatches FROM kernels", "--format", "json", "-d", work, "-o", "q"])
    rows = json.load(open(os.path.join(work, "q.json")))["query"]
    check([(x["database"], x["dispatches"]) for x in rows] ==
          [(dbs[r], counts[r][0]) for r in range(RANKS)], f"query rows {rows}")
    # And on their union, one statement over the job: the dispatches of every rank, per rank.
    run([a.rocpd, "query", "-i", *dbs, "--query",
         "SELECT COUNT(*) AS dispatches, COUNT(DISTINCT pid) AS ranks FROM kernels",
         "--format", "json", "-d", work, "-o", "u"])
    rows = json.load(open(os.path.join(work, "u.json")))["query"]
    check(rows == [{"dispatches": sum(counts[r][0] for r in range(RANKS)), "ranks": RANKS}],
          f"union query rows {rows}")

    # One database of the whole job: each rank's rows (its own tables, named with its uuid) kept
    # apart by their guid, (guid, id) distinct, each rank's rows found by its guid.
    merged = os.path.join(work, "job.db")
    run([a.rocpd, "merge", "-i", *dbs, "-o", merged])
    for table in ["rocpd_kernel_dispatch", "rocpd_memory_copy", "rocpd_info_process"]:
        rows = sum(scalar(p, f"SELECT COUNT(*) FROM {table}") for p in dbs)
        check(scalar(merged, f"SELECT COUNT(DISTINCT guid || ':' || id) FROM {table}") == rows ==
              scalar(merged, f"SELECT COUNT(*) FROM {table}"),
              f"merged {table}: (guid, id) not distinct or rows lost ({rows} in the inputs)")
    for guid, r in guids.items():
        n = scalar(merged, "SELECT COUNT(*) FROM kernels WHERE guid = ?", (guid,))
        check(n == counts[r][0], f"merged: rank {r} has {n} dispatches")

    # Back to rocprofv3's CSV files, one set per rank.
    csv_dir = os.path.join(work, "csv")
    run([a.rocpd, "convert", "-i", *dbs, "-f", "csv", "-d", csv_dir])
    for r in range(RANKS):
        for kind, n in [("kernel_trace", counts[r][0]), ("memory_copy_trace", counts[r][1])]:
            path = os.path.join(csv_dir, f"rank_{r}_results_{kind}.csv")
            check(os.path.exists(path), f"rocpd convert wrote no {path}")
            rows = len(open(path).read().splitlines()) - 1
            check(rows == n, f"{path}: {rows} rows, rank {r} made {n}")

    # One Perfetto trace of the job: a process track per rank (pid, rank and host in its name),
    # under each exactly the dispatches and copies that rank made (decoded by rocpd_tests.py's
    # protobuf reader).
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import rocpd_tests
    run([a.rocpd, "convert", "-i", *dbs, "-f", "pftrace", "-d", work, "-o", "job"])
    try:
        tracks, slices, _ = rocpd_tests.read_pftrace(os.path.join(work, "job_results.pftrace"))
    except rocpd_tests.Failed as e:
        raise Failed(f"job_results.pftrace: {e}")
    processes = {u: t for u, t in tracks.items() if "pid" in t}
    check(len(processes) == RANKS, f"pftrace: {len(processes)} process tracks for {RANKS} ranks")
    for path in dbs:
        meta = metadata(path)
        r = int(meta["rank"])
        uuid = [u for u, t in processes.items() if t["pid"] == int(meta["pid"])]
        check(len(uuid) == 1, f"pftrace: no process track for rank {r} (pid {meta['pid']})")
        name = processes[uuid[0]]["process_name"]
        check(f"rank {r}" in name and meta["hostname"] in name, f"pftrace: process {name!r}")
        mine = [s for s in slices if rocpd_tests.process_of(tracks, s[0]) == uuid[0]]
        kinds = [rocpd_tests.kind_of_track(tracks, s[0]) for s in mine]
        check(kinds.count("Kernels") == counts[r][0] and kinds.count("Memory copies") ==
              counts[r][1], f"pftrace rank {r}: {kinds.count('Kernels')} kernel and "
              f"{kinds.count('Memory copies')} copy slices, the rank made {counts[r]}")
    print(open(os.path.join(work, "summary.txt")).read())


def mpi_ranks(a):
    work = os.path.join(a.work, "ranks")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    for listed, ranks in [("0,2", [0, 2]), ("0-1,3", [0, 1, 3])]:
        out = os.path.join(work, listed.replace(",", "_"))
        p = run(mpirun(a, RANKS, work) + [
            a.rocprofv3, "--kernel-trace", "--memory-copy-trace", "-f", "rocpd", "csv",
            "--mpi-ranks", listed, "-d", out, "-o", "rank_%rank%", "--", a.program])
        program_counts(p.stdout)
        files = sorted(os.listdir(out))
        wrote = sorted({int(re.match(r"rank_(\d+)_", f).group(1)) for f in files})
        check(wrote == ranks, f"--mpi-ranks {listed}: files of ranks {wrote}: {files}")
        for r in ranks:
            n = scalar(os.path.join(out, f"rank_{r}_results.db"), "SELECT COUNT(*) FROM kernels")
            check(n == r + 2, f"--mpi-ranks {listed}: rank {r} has {n} dispatches")

    # Unlisted ranks: the application itself, nothing preloaded, none of the tool's variables.
    probe = "echo rank=$OMPI_COMM_WORLD_RANK preload=$LD_PRELOAD tool=$ROCP_TOOL_LIBRARIES"
    p = run(mpirun(a, 2, work) + [a.rocprofv3, "--kernel-trace", "--mpi-ranks", "1",
                                  "-d", os.path.join(work, "probe"), "--", "sh", "-c", probe])
    lines = dict(re.findall(r"rank=(\d) (.*)", p.stdout))
    check(sorted(lines) == ["0", "1"], p.stdout)
    check("rocprofiler" not in lines["0"], f"rank 0 (unlisted) ran profiled: {lines['0']}")
    check("rocprofiler-sdk-tool" in lines["1"], f"rank 1 (listed) ran unprofiled: {lines['1']}")

    # The same exit code, listed or not; a rank variable as the launcher sets it.
    for rank in ["0", "1"]:
        p = run([a.rocprofv3, "--kernel-trace", "--mpi-ranks", "1", "-d",
                 os.path.join(work, "rc"), "--", "sh", "-c", "exit 7"],
                env={"OMPI_COMM_WORLD_RANK": rank}, expect_rc=7)
    p = run([a.rocprofv3, "--kernel-trace", "--mpi-ranks", "1", "--", "no-such-program-x"],
            env={"OMPI_COMM_WORLD_RANK": "0"}, expect_rc=127)
    check("cannot execute 'no-such-program-x'" in p.stderr, p.stderr)

    # Bad lists: usage errors naming the value; outside a launcher: no rank to choose by.
    for bad, message in [("0,,2", "an empty item"), ("x", "item 'x' is neither a rank"),
                         ("3-1", "range '3-1' ends before it starts")]:
        p = run([a.rocprofv3, "--kernel-trace", "--mpi-ranks", bad, "--", "true"], expect_rc=1)
        check(f"--mpi-ranks '{bad}': {message}" in p.stderr, p.stderr)
    env = {v: "" for v in ["SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "MV2_COMM_WORLD_RANK",
                           "PMI_RANK", "MPI_RANK"]}
    p = run([a.rocprofv3, "--kernel-trace", "--mpi-ranks", "0", "--", "true"], env=env,
            expect_rc=2)
    check("found no MPI rank in its environment" in p.stderr, p.stderr)


def python_workers(a):
    work = os.path.join(a.work, "python")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    out = os.path.join(work, "out")
    results = os.path.join(work, "results.json")
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "python_workers.py")
    p = run([a.rocprofv3, "--kernel-trace", "-f", "rocpd", "-d", out, "-o", "proc_%pid%", "--",
             sys.executable, script, a.sdk_library, results])
    check("python_workers: ok" in p.stdout, p.stdout + p.stderr)
    counts = json.load(open(results))
    check(len(counts) == 4, f"processes {counts}")
    dbs = sorted(glob.glob(os.path.join(out, "*.db")))
    check(sorted(os.path.basename(d) for d in dbs) ==
          sorted(f"proc_{pid}_results.db" for pid in counts),
          f"databases {dbs}, processes {sorted(counts)}")
    for path in dbs:
        pid = metadata(path)["pid"]
        n = scalar(path, "SELECT COUNT(*) FROM kernels")
        check(n == counts[pid], f"{path}: {n} dispatches, process {pid} made {counts[pid]}")
    # One job, though the workers' command lines are not the parent's.
    run([a.rocpd, "summary", "-i", *dbs, "--summary-by-rank", "--format", "json",
         "-d", work, "-o", "summary"])
    doc = json.load(open(os.path.join(work, "summary.json")))
    got = {x["rank"]: x["calls"] for x in doc["kernel_summary_by_rank"]}
    check(got == {f"pid {pid}": n for pid, n in counts.items()}, f"summary by process {got}")
    check(doc["kernel_summary"][0]["calls"] == sum(counts.values()), "summary of the job")


CASES = {"mpi_job": mpi_job, "mpi_ranks": mpi_ranks, "python_workers": python_workers}


def main():
    parser = argparse.ArgumentParser()
    for option in ["--rocprofv3", "--rocpd", "--work"]:
        parser.add_argument(option, required=True)
    parser.add_argument("--mpirun", default="")
    parser.add_argument("--program", default="")
    parser.add_argument("--sdk-library", default="")
    parser.add_argument("case", choices=sorted(CASES))
    a = parser.parse_args()
    if a.case.startswith("mpi") and not (a.mpirun and os.path.exists(a.mpirun) and a.program):
        print(f"{a.case}: skipped: Open MPI not found when configuring (mpirun and mpicxx: Debian "
              "openmpi-bin and libopenmpi-dev, which scripts/install-deps.sh installs)")
        return SKIP
    try:
        CASES[a.case](a)
    except Failed as e:
        print(f"{a.case}: FAILED: {e}", file=sys.stderr)
        return 1
    print(f"{a.case}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
