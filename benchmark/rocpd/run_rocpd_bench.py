#!/usr/bin/env python3
"""rocpd at job scale, against sqlite3 doing the same work (the floor), on the host device.

    benchmark/rocpd/run_rocpd_bench.py --build build [--work DIR] [--runs 3] [--rows 1000000]
                                       [--rank-rows 100000] [--ranks 8 16 32 64]

1. One database of --rows kernel dispatches: rocprofv3 profiles the host-kernels test program
   (-f rocpd), and its dispatches are repeated with shifted ids and times (INSERT ... SELECT, as
   the rocpd.summary_memory test does) until the table holds --rows. Then, --runs times each:
   `sqlite3` aggregating the kernels view per name in one statement (the floor) against
   `rocpd summary --domains kernel`, and `sqlite3 -csv SELECT * FROM kernels` against
   `rocpd convert -f csv`. Wall time and peak memory (getrusage of the child).
2. --ranks databases of --rank-rows dispatches each (copies of one, each with its own rank tag):
   `rocpd summary --summary-by-rank --domains kernel --force` over 8, 16, ... of them.
3. --union-dbs databases of --union-rows dispatches each, each profiled on its own (distinct runs):
   `rocpd query` of one GROUP BY over their union against `sqlite3` running it on the database
   `rocpd merge` writes of them (the floor), against merge + sqlite3 (the way without a union), and
   a query that reads no table of theirs (the union's fixed cost).
--parts picks which of 1 (one), 2 (ranks) and 3 (union) run (default: all).
Prints markdown tables: wall and CPU time (user + system; min - max over the runs), peak memory,
and the ratio of the median CPU times to the floor's. Timings depend on the machine and what else
runs (CPU time less than wall time): compare rows of one run only.
"""
import argparse
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time


def timed(cmd):
    """Wall seconds, peak resident KB and CPU seconds (user + system) of @p cmd, in a fresh probe
    process so that no earlier child's counts. CPU time is the steadier number on a busy
    machine."""
    probe = ("import resource, subprocess, sys, time\n"
             "t = time.monotonic()\n"
             "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
             "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
             "print(p.returncode, time.monotonic() - t, u.ru_maxrss, u.ru_utime + u.ru_stime)\n")
    out = subprocess.run([sys.executable, "-c", probe, *cmd], capture_output=True, text=True,
                         check=True).stdout.split()
    if out[0] != "0":
        sys.exit(f"run_rocpd_bench: {' '.join(cmd)} exited {out[0]}")
    return float(out[1]), int(out[2]), float(out[3])


def inflate(path, rows):
    with sqlite3.connect(path) as c:
        table = c.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE "
                          "'rocpd_kernel_dispatch%'").fetchone()[0]
        have = c.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0]
        step = c.execute(f'SELECT MAX(id) + 1 FROM "{table}"').fetchone()[0]
        copies = (rows - have) // have
        cols = [r[1] for r in c.execute(f'PRAGMA table_info("{table}")')]
        shifted = {"id": f"id + {step} * k.x", "start": "start + k.x", "end": '"end" + 2 * k.x'}
        c.execute(f"WITH RECURSIVE k(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM k WHERE "
                  f"x < {copies}) INSERT INTO \"{table}\" SELECT "
                  + ", ".join(shifted.get(col, f'"{col}"') for col in cols)
                  + f' FROM "{table}", k')
        return c.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0]


def set_rank(path, rank):
    with sqlite3.connect(path) as c:
        table = c.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE "
                          "'rocpd_metadata%'").fetchone()[0]
        c.execute(f'UPDATE "{table}" SET value = ? WHERE tag = \'rank\'', (str(rank),))


def spread(samples, index):
    values = [s[index] for s in samples]
    return min(values), max(values), statistics.median(values)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True)
    parser.add_argument("--work", default="rocpd-bench")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rows", type=int, default=10**6)
    parser.add_argument("--rank-rows", type=int, default=10**5)
    parser.add_argument("--ranks", type=int, nargs="+", default=[8, 16, 32, 64])
    parser.add_argument("--union-dbs", type=int, default=8)
    parser.add_argument("--union-rows", type=int, default=10**5)
    parser.add_argument("--parts", nargs="+", choices=["one", "ranks", "union"],
                        default=["one", "ranks", "union"])
    a = parser.parse_args()
    rocprofv3 = os.path.join(a.build, "bin", "rocprofv3")
    rocpd = os.path.join(a.build, "bin", "rocpd")
    program = os.path.join(a.build, "tests", "rocprofv3", "rocprofv3-host-kernels")
    if not os.path.exists(program):
        found = subprocess.run(["find", a.build, "-name", "rocprofv3-host-kernels", "-type", "f"],
                               capture_output=True, text=True).stdout.split()
        program = found[0] if found else program
    sqlite = shutil.which("sqlite3")
    if sqlite is None:
        sys.exit("run_rocpd_bench: sqlite3 (the floor) is not installed")
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    subprocess.run([rocprofv3, "--kernel-trace", "-f", "rocpd", "-d", a.work, "-o", "seed", "--",
                    program], check=True, stdout=subprocess.DEVNULL, env=dict(
                        os.environ, OMPI_COMM_WORLD_RANK="0", OMPI_COMM_WORLD_SIZE="1"))
    seed = os.path.join(a.work, "seed_results.db")

    out = os.path.join(a.work, "out")
    os.makedirs(out)
    if "one" in a.parts:
        one_database(a, seed, sqlite, rocpd, out)
    if "ranks" in a.parts:
        by_rank(a, seed, rocpd, out)
    if "union" in a.parts:
        union(a, rocprofv3, rocpd, sqlite, program, out)
    shutil.rmtree(a.work)
    return 0


def table_of(pairs, runs):
    print("| command | wall time (min - max) | CPU time (min - max) | peak memory | median CPU / "
          "floor's |")
    print("|---|---|---|---|---|")
    floor = None
    for label, cmd, is_floor in pairs:
        samples = [timed(cmd) for _ in range(runs)]
        lo, hi, _ = spread(samples, 0)
        clo, chi, cmed = spread(samples, 2)
        mem = max(s[1] for s in samples) / 1024
        if is_floor:
            floor = cmed
        ratio = f"{cmed / floor:.2f}"
        print(f"| {label} | {lo:.2f} - {hi:.2f} s | {clo:.2f} - {chi:.2f} s | {mem:.1f} MB | "
              f"{ratio} |")


def union(a, rocprofv3, rocpd, sqlite, program, out):
    paths = []
    for r in range(a.union_dbs):
        subprocess.run([rocprofv3, "--kernel-trace", "-f", "rocpd", "-d", a.work, "-o", f"u{r}",
                        "--", program], check=True, stdout=subprocess.DEVNULL,
                       env=dict(os.environ, OMPI_COMM_WORLD_RANK=str(r),
                                OMPI_COMM_WORLD_SIZE=str(a.union_dbs)))
        paths.append(os.path.join(a.work, f"u{r}_results.db"))
        per_db = inflate(paths[-1], a.union_rows)
    merged = os.path.join(a.work, "union_merged.db")
    subprocess.run([rocpd, "merge", "-i", *paths, "-o", merged], check=True,
                   stderr=subprocess.DEVNULL)
    sql = "SELECT name, COUNT(*), SUM(duration) FROM kernels GROUP BY name"
    merge_then_query = ["sh", "-c", f'"$0" merge -i "$@" -o "{merged}.again" && "{sqlite}" '
                        f'"{merged}.again" "{sql}"', rocpd, *paths]
    pairs = [
        (f"`sqlite3 merged.db \"{sql}\"` (the floor: the merged database)", [sqlite, merged, sql],
         True),
        (f"`rocpd query -i <{a.union_dbs} databases> --query \"{sql}\"`",
         [rocpd, "query", "-i", *paths, "--query", sql, "--format", "csv", "-d", out, "-o", "u"],
         False),
        ("`rocpd merge -i <the databases> -o m.db` then `sqlite3 m.db ...`", merge_then_query,
         False),
        ("`rocpd query -i <the databases> --query \"SELECT COUNT(*) FROM rocprofv3_merge\"` "
         "(reads none of their tables)",
         [rocpd, "query", "-i", *paths, "--query", "SELECT COUNT(*) FROM rocprofv3_merge",
          "--format", "csv", "-d", out, "-o", "n"], False),
        (f"`rocpd query --per-database -i <the databases> --query \"{sql}\"`",
         [rocpd, "query", "--per-database", "-i", *paths, "--query", sql, "--format", "csv",
          "-d", out, "-o", "p"], False),
    ]
    print(f"\n## rocpd query over the union of {a.union_dbs} databases of {per_db} dispatches "
          f"each ({a.runs} runs each)\n")
    table_of(pairs, a.runs)


def one_database(a, seed, sqlite, rocpd, out):
    big = os.path.join(a.work, "big.db")
    shutil.copyfile(seed, big)
    rows = inflate(big, a.rows)
    floor_sql = ("SELECT name, COUNT(*), SUM(duration), AVG(duration), MIN(duration), "
                 "MAX(duration), SUM(duration * duration) FROM kernels GROUP BY name")
    pairs = [
        ("`sqlite3 big.db \"" + floor_sql + "\"` (the floor)", [sqlite, big, floor_sql]),
        ("`rocpd summary -i big.db --domains kernel --format csv`",
         [rocpd, "summary", "-i", big, "--domains", "kernel", "--format", "csv", "-d", out, "-o",
          "s"]),
        ("`sqlite3 -csv big.db \"SELECT * FROM kernels\"` (the floor)",
         [sqlite, "-csv", big, "SELECT * FROM kernels"]),
        ("`rocpd convert -i big.db -f csv`", [rocpd, "convert", "-i", big, "-f", "csv", "-d", out,
                                              "-o", "c"]),
    ]
    print(f"## rocpd over one database of {rows} dispatches ({a.runs} runs each)\n")
    table_of([(label, cmd, i % 2 == 0) for i, (label, cmd) in enumerate(pairs)], a.runs)
    os.remove(big)


def by_rank(a, seed, rocpd, out):
    rank_seed = os.path.join(a.work, "rank_seed.db")
    shutil.copyfile(seed, rank_seed)
    per_rank = inflate(rank_seed, a.rank_rows)
    paths = []
    for r in range(max(a.ranks)):
        path = os.path.join(a.work, f"rank_{r}.db")
        shutil.copyfile(rank_seed, path)
        set_rank(path, r)
        paths.append(path)
    print(f"\n## rocpd summary --summary-by-rank over databases of {per_rank} dispatches each "
          f"({a.runs} runs each)\n")
    print("| databases | rows | wall time (min - max) | CPU time (min - max) | peak memory | "
          "CPU µs per row |")
    print("|---|---|---|---|---|---|")
    for n in a.ranks:
        cmd = [rocpd, "summary", "--force", "--summary-by-rank", "--domains", "kernel", "--format",
               "csv", "-d", out, "-o", f"r{n}", "-i", *paths[:n]]
        samples = [timed(cmd) for _ in range(a.runs)]
        lo, hi, _ = spread(samples, 0)
        clo, chi, cmed = spread(samples, 2)
        mem = max(s[1] for s in samples) / 1024
        print(f"| {n} | {n * per_rank / 1e6:.1f} M | {lo:.2f} - {hi:.2f} s | {clo:.2f} - {chi:.2f} "
              f"s | {mem:.1f} MB | {cmed / (n * per_rank) * 1e6:.2f} |")


if __name__ == "__main__":
    sys.exit(main())
