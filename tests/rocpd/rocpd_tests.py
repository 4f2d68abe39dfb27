#!/usr/bin/env python3
"""rocpd end to end (tests/rocpd/CMakeLists.txt).

`produce` runs rocprofv3 -f csv,rocpd on host-device programs: a job of four processes whose MPI
ranks are faked with OMPI_COMM_WORLD_RANK (-o rank_%rank%; with counters and rocprofv3's own
pftrace), a marker program, and one run of a different command (another job; counters only,
under kernel replay with two passes). Every other case runs rocpd on those databases and checks what it
prints against the same computation done here with Python's sqlite3 on the databases (nothing is
hard-coded), or against the CSV files rocprofv3 wrote in the same run. Every case also checks that
rocpd left its inputs byte for byte as they were.
"""
import argparse
import collections
import csv
import hashlib
import html.parser
import json
import os
import resource
import shutil
import sqlite3
import statistics
import struct
import subprocess
import sys
import threading

RANKS = 4
DOMAINS = {"kernel": "kernels", "memory_copy": "memory_copies", "region": "regions"}


class Failed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failed(message)


def run(cmd, env=None, expect_rc=0, timeout=240):
    full_env = dict(os.environ)
    full_env.update(env or {})
    p = subprocess.run(cmd, env=full_env, capture_output=True, text=True, timeout=timeout)
    if expect_rc is not None and p.returncode != expect_rc:
        raise Failed(
            f"{' '.join(cmd)}: exit {p.returncode}, expected {expect_rc}\n"
            f"stdout: {p.stdout[-3000:]}\nstderr: {p.stderr[-3000:]}"
        )
    return p


def job_dbs(a):
    return [os.path.join(a.work, "job", f"rank_{r}_results.db") for r in range(RANKS)]


def marker_db(a):
    return os.path.join(a.work, "markers", "run_results.db")


def other_db(a):
    return os.path.join(a.work, "other", "other_results.db")


def all_inputs(a):
    return job_dbs(a) + [marker_db(a), other_db(a)]


def digest(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def connect(path):
    # Read-only, as rocpd opens them: a check here must not change the file either.
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


# Counters of the host device: the ranks collect one group (with --kernel-trace), the other job
# two groups under kernel replay (two passes per dispatch, counters only).
RANK_COUNTERS = ["WORK_ITEMS", "DURATION_NS"]
REPLAY_GROUPS = [["WORK_ITEMS", "WORKGROUPS"], ["DURATION_NS", "CPU_TIME_NS"]]


def produce(a):
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    for r in range(RANKS):
        run(
            [a.rocprofv3, "--kernel-trace", "--memory-copy-trace", "--stats", "--pmc",
             *RANK_COUNTERS, "-f", "csv", "rocpd", "pftrace", "-d", os.path.join(a.work, "job"),
             "-o", "rank_%rank%", "--", a.program, "--copies"],
            env={"OMPI_COMM_WORLD_RANK": str(r), "OMPI_COMM_WORLD_SIZE": str(RANKS)},
        )
    run([a.rocprofv3, "--marker-trace", "--kernel-trace", "--stats", "-f", "csv", "rocpd",
         "-d", os.path.join(a.work, "markers"), "-o", "run", "--", a.marker_program,
         "--truth", os.path.join(a.work, "truth.json")])
    replay = [w for g in REPLAY_GROUPS for w in ["--pmc", *g]]
    run([a.rocprofv3, *replay, "--replay-mode", "kernel", "--kernel-replay-beta-enabled",
         "-f", "csv", "rocpd", "-d", os.path.join(a.work, "other"), "-o", "other", "--",
         a.program, "--iterations", "2"])
    for path in all_inputs(a):
        check(os.path.exists(path), f"rocprofv3 wrote no {path}")
    hashes = {p: digest(p) for p in all_inputs(a)}
    json.dump(hashes, open(os.path.join(a.work, "hashes.json"), "w"))


def inputs_unchanged(a):
    hashes = json.load(open(os.path.join(a.work, "hashes.json")))
    for path, value in hashes.items():
        check(digest(path) == value, f"{path} changed (rocpd must not write its inputs)")
        check(not os.path.exists(path + "-journal"), f"{path}-journal appeared")


def metadata(path):
    with connect(path) as c:
        return dict(c.execute("SELECT tag, value FROM rocpd_metadata"))


def run_table(path, base):
    """The run's table behind the view @p base (AMD's layout: the run's uuid as suffix)."""
    return base + metadata(path)["uuid"]


def writer_metadata(a):
    commands = set()
    for r, path in enumerate(job_dbs(a)):
        m = metadata(path)
        check(m.get("rank") == str(r), f"{path}: rank {m.get('rank')!r}, expected {r}")
        check(m.get("size") == str(RANKS), f"{path}: size {m.get('size')!r}")
        check(a.program in m.get("command", ""), f"{path}: command {m.get('command')!r}")
        check(m.get("pid", "").isdigit(), f"{path}: pid {m.get('pid')!r}")
        commands.add(m["command"])
    check(len(commands) == 1, f"the ranks recorded different commands: {commands}")
    check("rank" not in metadata(marker_db(a)), "a run outside a launcher recorded a rank")


# ---- summary -------------------------------------------------------------------------------

def expected_stats(durations_by_name):
    domain_total = sum(sum(d) for d in durations_by_name.values())
    out = {}
    for name, d in durations_by_name.items():
        out[name] = {
            "calls": len(d), "total_ns": sum(d), "mean_ns": sum(d) / len(d), "min_ns": min(d),
            "max_ns": max(d), "stddev_ns": statistics.pstdev(d),
            "percent": 100.0 * sum(d) / domain_total if domain_total else 0.0,
        }
    return out


def durations(paths, view):
    by_name = {}
    for path in paths:
        with connect(path) as c:
            for name, duration in c.execute(f"SELECT name, duration FROM {view}"):
                by_name.setdefault(name if name is not None else "", []).append(duration)
    return by_name


def close(a, b, what):
    if a is None or b is None or isinstance(a, str) or isinstance(b, str):
        check(a == b, f"{what}: {a!r} != {b!r}")
    elif isinstance(a, int) and isinstance(b, int):
        check(a == b, f"{what}: {a} != {b}")
    else:
        check(abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b)), f"{what}: {a} != {b}")


def compare_stats(rows, expected, what, key="name"):
    got = {r[key]: r for r in rows}
    check(set(got) == set(expected), f"{what}: names {sorted(got)} != {sorted(expected)}")
    for name, e in expected.items():
        for column, value in e.items():
            close(got[name][column], value, f"{what} {name} {column}")
    totals = [r["total_ns"] for r in rows]
    check(totals == sorted(totals, reverse=True), f"{what}: not sorted by total")


def summary(a):
    dbs = job_dbs(a)
    out = os.path.join(a.work, "summary")
    run([a.rocpd, "summary", "-i", *dbs, "--summary-by-rank", "--format", "json", "-d", out,
         "-o", "job"])
    doc = json.load(open(os.path.join(out, "job.json")))
    for domain, view in DOMAINS.items():
        by_name = durations(dbs, view)
        compare_stats(doc[f"{domain}_summary"], expected_stats(by_name), f"{domain}_summary")
        d = [x for v in by_name.values() for x in v]
        row = [r for r in doc["domain_summary"] if r["domain"] == domain]
        check(len(row) == 1, f"domain_summary has no row {domain}")
        check(row[0]["calls"] == len(d) and row[0]["total_ns"] == sum(d),
              f"domain_summary {domain}: {row[0]} vs {len(d)} calls {sum(d)} ns")
        # Per rank, and the spread of the rank totals.
        rank_totals = {}
        for r, path in enumerate(dbs):
            mine = durations([path], view)
            rows = [x for x in doc[f"{domain}_summary_by_rank"] if x["rank"] == str(r)]
            compare_stats(rows, expected_stats(mine), f"{domain} rank {r}")
            rank_totals[str(r)] = sum(sum(v) for v in mine.values())
        spread = [x for x in doc["rank_spread"] if x["domain"] == domain][0]
        totals = sorted(rank_totals.values())
        check(spread["ranks"] == RANKS, f"rank_spread {domain}: {spread['ranks']} ranks")
        check(spread["min_rank_total_ns"] == totals[0], f"rank_spread {domain} min")
        check(spread["max_rank_total_ns"] == totals[-1], f"rank_spread {domain} max")
        close(spread["median_rank_total_ns"], statistics.median(totals), f"{domain} median")
        # No rank with time in the domain: no slowest rank (null), not rank 0.
        slowest = (min((r for r in rank_totals if rank_totals[r] == totals[-1]), key=int)
                   if totals[-1] > 0 else None)
        check(spread["slowest_rank"] == slowest,
              f"rank_spread {domain}: slowest {spread['slowest_rank']} != {slowest}")
    check(len(doc["kernel_summary"]) > 0 and len(doc["memory_copy_summary"]) > 0,
          "the job has kernels and copies")
    same_as_rocprofv3_stats(a)

    # --domains picks tables; csv writes one file per table with the same numbers; the console
    # form and the rocpd2summary name run too.
    run([a.rocpd, "summary", "-i", *dbs, "--domains", "kernel", "--format", "csv", "-d", out,
         "-o", "k"])
    check(sorted(f for f in os.listdir(out) if f.startswith("k_")) ==
          ["k_domain_summary.csv", "k_kernel_summary.csv"], f"csv files: {os.listdir(out)}")
    rows = list(csv.DictReader(open(os.path.join(out, "k_kernel_summary.csv"))))
    for r, j in zip(rows, doc["kernel_summary"]):
        check(r["name"] == j["name"] and int(r["total_ns"]) == j["total_ns"] and
              float(r["stddev_ns"]) == j["stddev_ns"], f"csv row {r} != json row {j}")
    p = run([a.rocpd, "summary", "-i", *dbs])
    check("KERNEL_SUMMARY:" in p.stdout and "DOMAIN_SUMMARY:" in p.stdout, p.stdout[:500])
    alias = os.path.join(os.path.dirname(a.rocpd), "rocpd2summary")
    run([alias, "-i", *dbs, "--format", "json", "-d", out, "-o", "alias"])
    check(json.load(open(os.path.join(out, "alias.json")))["kernel_summary"] ==
          doc["kernel_summary"], "rocpd2summary differs from rocpd summary")


class _HtmlTables(html.parser.HTMLParser):
    """The tables of a page: {id: (columns, rows)}, cell texts as a browser shows them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables, self.current, self.cell, self.row = {}, None, None, None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.current = dict(attrs).get("id")
            self.tables[self.current] = ([], [])
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            self.cell = ""
        else:
            check(self.cell is None, f"markup <{tag}> inside a cell: a name was not escaped")

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.row.append(self.cell)
            self.cell = None
        elif tag == "tr":
            columns, rows = self.tables[self.current]
            if columns:
                rows.append(self.row)
            else:
                columns.extend(self.row)

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def markdown_tables(path):
    """The pipe tables of a Markdown file: {title: (columns, rows)}, cells unescaped."""
    tables, title = {}, None
    for line in open(path, encoding="utf-8").read().splitlines():
        if line.startswith("## "):
            title = line[3:]
            tables[title] = ([], [])
        elif line.startswith("|") and not line.startswith("|---"):
            cells, cell, escaped = [], "", False
            for ch in line[1:]:
                if escaped:
                    cell, escaped = cell + ch, False
                elif ch == "\\":
                    escaped = True
                elif ch == "|":
                    cells.append(cell.strip())
                    cell = ""
                else:
                    cell += ch
            columns, rows = tables[title]
            (rows.append(cells) if columns else columns.extend(cells))
    return tables


def same_as_json(tables, doc, what):
    """Every table of the JSON summary, row for row, in a Markdown or HTML form (numbers as the
    console prints them: 3 decimals)."""
    check(sorted(k for k in tables) == sorted(doc), f"{what}: tables {sorted(tables)} != {sorted(doc)}")
    for name, rows in doc.items():
        columns, got = tables[name]
        check(len(got) == len(rows), f"{what} {name}: {len(got)} rows, JSON has {len(rows)}")
        for cells, row in zip(got, rows):
            check(len(cells) == len(columns) == len(row), f"{what} {name}: row {cells} has {len(cells)} cells")
            for column, text in zip(columns, cells):
                want = row[column]
                if want is None:
                    check(text == "NULL", f"{what} {name}.{column}: {text!r}, JSON null")
                elif isinstance(want, (int, float)) and not isinstance(want, bool):
                    check(abs(float(text) - want) <= 5e-4 * max(1.0, abs(want)),
                          f"{what} {name}.{column}: {text} != {want}")
                else:
                    check(text == want, f"{what} {name}.{column}: {text!r} != {want!r}")


def report_formats(a):
    """--format md and html of rocpd summary and rocpd query: the tables of the JSON form, row for
    row; a kernel name with markup and a '|' stays one cell of text in both."""
    out = os.path.join(a.work, "report_formats")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    db = os.path.join(out, "named.db")
    shutil.copyfile(job_dbs(a)[0], db)
    hostile = "<b>bold|pipe</b> & \\*x_y*"
    with sqlite3.connect(db) as c:
        table = run_table(db, "rocpd_info_kernel_symbol")
        c.execute(f'UPDATE "{table}" SET display_name = ? WHERE id = (SELECT MIN(id) FROM "{table}")',
                  (hostile,))
    dbs = [db] + job_dbs(a)[1:]
    for command, extra in [("summary", ["--summary-by-rank"]),
                           ("query", ["--query", "SELECT name, COUNT(*) AS n FROM kernels GROUP BY name"])]:
        for form in ["json", "md", "html"]:
            run([a.rocpd, command, "-i", *dbs, *extra, "--format", form, "-d", out, "-o", command])
        doc = json.load(open(os.path.join(out, f"{command}.json")))
        names = [r.get("name") for t in doc.values() for r in t]
        check(hostile in names, f"{command}: the renamed kernel is not in the JSON: {names}")
        same_as_json(markdown_tables(os.path.join(out, f"{command}.md")), doc, f"{command} md")
        page = _HtmlTables()
        page.feed(open(os.path.join(out, f"{command}.html"), encoding="utf-8").read())
        same_as_json(page.tables, doc, f"{command} html")
    p = run([a.rocpd, "summary", "-i", *dbs, "--format", "docx"], expect_rc=1)
    check("md, html" in p.stderr, f"an unknown format's message: {p.stderr}")


def same_as_rocprofv3_stats(a):
    """rocpd summary of a database and rocprofv3 --stats of the same run: the same numbers (one
    computation, model/domain_stats); the CSV file rounds the fractional columns to 2 decimals."""
    out = os.path.join(a.work, "summary_vs_stats")
    for db, prefix in [(job_dbs(a)[0], "rank_0"), (marker_db(a), "run")]:
        run([a.rocpd, "summary", "-i", db, "--format", "json", "-d", out, "-o", prefix])
        doc = json.load(open(os.path.join(out, f"{prefix}.json")))
        stats = os.path.join(os.path.dirname(db), f"{prefix}_kernel_stats.csv")
        rows = list(csv.DictReader(open(stats)))
        check(len(rows) > 0 and len(rows) == len(doc["kernel_summary"]),
              f"{len(rows)} rows in {stats}, {len(doc['kernel_summary'])} in kernel_summary")
        varied = 0
        for r, j in zip(rows, doc["kernel_summary"]):
            what = f"{stats}: kernel {r['Name']}"
            close(r["Name"], j["name"], what + " name")
            close(int(r["Calls"]), j["calls"], what + " calls")
            close(int(r["TotalDurationNs"]), j["total_ns"], what + " total")
            close(int(r["MinNs"]), j["min_ns"], what + " min")
            close(int(r["MaxNs"]), j["max_ns"], what + " max")
            for column, key in [("AverageNs", "mean_ns"), ("StdDev", "stddev_ns"),
                                ("Percentage", "percent")]:
                check(abs(float(r[column]) - j[key]) <= 0.005 + 1e-9,
                      f"{what} {column}: {r[column]} in the CSV, {j[key]} from rocpd summary")
            varied += j["stddev_ns"] > 0
        if prefix == "rank_0":
            check(varied > 0, "no kernel of rank 0 has durations that vary: stddev is not tested")


def peak_rss_kb(cmd):
    """The peak resident memory of @p cmd, in a fresh process so that no earlier child counts."""
    probe = ("import resource, subprocess, sys\n"
             "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
             "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    # Under AddressSanitizer (the sanitizer stage) freed memory waits in a quarantine of up to
    # 256 MB before reuse, so a streamed reader's peak would grow with the rows it freed: measured
    # without it. Other builds ignore the variable.
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = ":".join(x for x in [env.get("ASAN_OPTIONS", ""), "quarantine_size_mb=0"]
                                   if x)
    out = subprocess.run([sys.executable, "-c", probe, *cmd], capture_output=True, text=True,
                         check=True, env=env).stdout.split()
    check(out[0] == "0", f"{' '.join(cmd)}: exit {out[0]}")
    return int(out[1])


def summary_memory(a):
    """Streamed: a database of 10^6 dispatches costs rocpd no more memory than one of a few."""
    small = job_dbs(a)[0]
    big = os.path.join(a.work, "big.db")
    shutil.copyfile(small, big)
    try:
        dispatches = run_table(big, "rocpd_kernel_dispatch")
        with sqlite3.connect(big) as c:
            rows = c.execute("SELECT COUNT(*) FROM rocpd_kernel_dispatch").fetchone()[0]
            step = c.execute("SELECT MAX(id) + 1 FROM rocpd_kernel_dispatch").fetchone()[0]
            copies = 10**6 // rows
            cols = [r[1] for r in c.execute("PRAGMA table_info(rocpd_kernel_dispatch)")]
            shifted = {"id": f"id + {step} * k.x", "start": "start + k.x", "end": "end + 2 * k.x"}
            c.execute(f"WITH RECURSIVE k(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM k WHERE "
                      f"x < {copies}) INSERT INTO {dispatches} SELECT "
                      + ", ".join(shifted.get(col, col) for col in cols)
                      + " FROM rocpd_kernel_dispatch, k")
        with connect(big) as c:
            n = c.execute("SELECT COUNT(*) FROM kernels").fetchone()[0]
        check(n >= 10**6, f"the big database has {n} dispatches")
        small_kb = peak_rss_kb([a.rocpd, "summary", "-i", small, "--domains", "kernel"])
        big_kb = peak_rss_kb([a.rocpd, "summary", "-i", big, "--domains", "kernel"])
        # Rows held in memory would cost at least their name and duration: > 40 MB here.
        check(big_kb - small_kb < 30 * 1024,
              f"summary of {n} dispatches: {big_kb} KB peak, of {rows}: {small_kb} KB")
        print(f"summary peak memory: {small_kb} KB ({rows} dispatches), {big_kb} KB ({n})")
    finally:
        os.remove(big)


def convert_memory(a):
    """Streamed: convert holds one dispatch's counter values at a time, so a database of 10^5
    dispatches with counters costs it no more memory than one of a few."""
    small = job_dbs(a)[0]
    big = os.path.join(a.work, "big_counters.db")
    out = os.path.join(a.work, "convert_memory")
    shutil.rmtree(out, ignore_errors=True)
    shutil.copyfile(small, big)
    try:
        dispatches = run_table(big, "rocpd_kernel_dispatch")
        with sqlite3.connect(big) as c:
            rows = c.execute("SELECT COUNT(*) FROM rocpd_kernel_dispatch").fetchone()[0]
            step = c.execute("SELECT MAX(id) + 1 FROM rocpd_kernel_dispatch").fetchone()[0]
            copies = 10**5 // rows
            cols = [r[1] for r in c.execute("PRAGMA table_info(rocpd_kernel_dispatch)")]
            # Each copy keeps the original's event, and so its counter values (rocpd_pmc_event
            # rows name the event): a dispatch with counters of its own id and times.
            shifted = {"id": f"id + {step} * k.x", "start": "start + 3 * k.x",
                       "end": "end + 3 * k.x"}
            c.execute(f"WITH RECURSIVE k(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM k WHERE "
                      f"x < {copies}) INSERT INTO {dispatches} SELECT "
                      + ", ".join(shifted.get(col, col) for col in cols)
                      + " FROM rocpd_kernel_dispatch, k")
        values = count(big, "SELECT COUNT(*) FROM kernels AS k JOIN rocpd_kernel_dispatch AS kd "
                            "ON kd.id = k.id JOIN rocpd_pmc_event AS pe ON pe.event_id = "
                            "kd.event_id")
        check(values >= 10**5, f"the big database has {values} counter values")
        small_kb = peak_rss_kb([a.rocpd, "convert", "-i", small, "-f", "csv", "-d", out,
                                "-o", "small"])
        big_kb = peak_rss_kb([a.rocpd, "convert", "-i", big, "-f", "csv", "-d", out, "-o", "big"])
        written = len(csv_rows(os.path.join(out, "big_counter_collection.csv"))[1])
        check(written == values, f"{written} counter rows converted, {values} in the database")
        # Records held in memory would cost at least their columns and names: > 20 MB here.
        check(big_kb - small_kb < 10 * 1024,
              f"convert of {values} counter values: {big_kb} KB peak, of a few: {small_kb} KB")
        print(f"convert peak memory: {small_kb} KB ({rows} dispatches), {big_kb} KB "
              f"({values} counter values)")
    finally:
        os.remove(big)
        shutil.rmtree(out, ignore_errors=True)


def many_inputs(a):
    """One input open at a time: 300 databases under a limit of 64 open files, and memory that
    does not grow with the number of inputs."""
    one = job_dbs(a)[0]
    # A folder of its own: the cases run in parallel, and this one removes its folder at the end.
    folder = os.path.join(a.work, "many_inputs")
    os.makedirs(folder, exist_ok=True)
    paths = []
    for i in range(300):
        path = os.path.join(folder, f"copy_{i:03d}.db")
        shutil.copyfile(one, path)
        paths.append(path)
    try:
        def few_files():
            resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))

        # The copies share one guid: --force reads them together.
        summary_cmd = [a.rocpd, "summary", "--force", "--domains", "kernel", "--format", "json",
                       "-d", folder, "-o", "many"]
        p = subprocess.run(summary_cmd + ["-i", *paths], capture_output=True, text=True,
                           timeout=240, preexec_fn=few_files)
        check(p.returncode == 0, f"summary of 300 inputs under 64 open files: exit "
                                 f"{p.returncode}: {p.stderr[-500:]}")
        calls = sum(r["calls"] for r in json.load(open(os.path.join(folder, "many.json")))
                    ["kernel_summary"])
        with connect(one) as c:
            each = c.execute("SELECT COUNT(*) FROM kernels").fetchone()[0]
        check(each > 0 and calls == 300 * each, f"300 inputs summed to {calls} calls, one has {each}")
        p = subprocess.run([a.rocpd, "query", "--per-database", "--force", "-i", *paths, "--query",
                            "SELECT COUNT(*) FROM kernels", "--format", "csv", "-d", folder,
                            "-o", "many"], capture_output=True, text=True, timeout=240,
                           preexec_fn=few_files)
        check(p.returncode == 0, f"query of 300 inputs: exit {p.returncode}: {p.stderr[-500:]}")
        _, rows = csv_rows(os.path.join(folder, "many_query.csv"))
        check(len(rows) == 300 and all(int(r.rsplit(",", 1)[1]) == each for r in rows),
              f"query of 300 inputs gave {len(rows)} rows")
        few_kb = peak_rss_kb(summary_cmd + ["-i", *paths[:8]])
        many_kb = peak_rss_kb(summary_cmd + ["-i", *paths])
        # An input held open costs its connection, schema and page cache: 300 of them, > 150 MB.
        check(many_kb - few_kb < 20 * 1024,
              f"summary peak memory: {few_kb} KB for 8 inputs, {many_kb} KB for 300")
        print(f"summary peak memory: {few_kb} KB for 8 inputs, {many_kb} KB for 300")
    finally:
        shutil.rmtree(folder)


def as_amd_writes_it(src, dst, environment=None):
    """A copy of @p src with only what AMD's rocprofv3 writes: AMD's tables, views and metadata
    tags (schema_version, uuid, guid); rocprofv3's own tags and rocprofv3_* tables removed."""
    shutil.copyfile(src, dst)
    with sqlite3.connect(dst) as c:
        for kind, name in c.execute("SELECT type, name FROM sqlite_master WHERE name LIKE "
                                    "'rocprofv3%' AND type IN ('view', 'table')").fetchall():
            c.execute(f'DROP {kind.upper()} "{name}"')
        table = c.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE "
                          "'rocpd_metadata%'").fetchone()[0]
        c.execute(f'DELETE FROM "{table}" WHERE tag NOT IN (\'schema_version\', \'uuid\', '
                  f'\'guid\')')
        if environment is not None:
            process = c.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name "
                                "LIKE 'rocpd_info_process%'").fetchone()[0]
            c.execute(f'UPDATE "{process}" SET environment = ?', (json.dumps(environment),))


def amd_written(a):
    """Databases in AMD's layout with AMD's tags only (as AMD's rocprofv3 writes them): read as
    one job (their command), named by the process row, summarized and converted as ours are."""
    dbs = job_dbs(a)[:2]
    folder = os.path.join(a.work, "amd_written")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    amd = [os.path.join(folder, "amd_0.db"), os.path.join(folder, "amd_1.db")]
    as_amd_writes_it(dbs[0], amd[0])
    as_amd_writes_it(dbs[1], amd[1], environment={"OMPI_COMM_WORLD_RANK": "7"})
    with connect(amd[0]) as c:
        tags = sorted(r[0] for r in c.execute("SELECT tag FROM rocpd_metadata"))
        pid = c.execute("SELECT pid FROM rocpd_info_process").fetchone()[0]
    check(tags == ["guid", "schema_version", "uuid"], f"the AMD-like copy keeps tags {tags}")
    # No job tags: one job by the command of their process rows, no --force needed.
    run([a.rocpd, "summary", "-i", *amd, "--summary-by-rank", "--format", "json", "-d", folder,
         "-o", "amd"])
    run([a.rocpd, "summary", "-i", *dbs, "--summary-by-rank", "--format", "json", "-d", folder,
         "-o", "ours"])
    got = json.load(open(os.path.join(folder, "amd.json")))
    want = json.load(open(os.path.join(folder, "ours.json")))
    check(got["kernel_summary"] == want["kernel_summary"] and
          got["memory_copy_summary"] == want["memory_copy_summary"],
          "the AMD-like copies summarize differently from the databases they were made of")
    ranks = sorted({r["rank"] for r in got["kernel_summary_by_rank"]})
    check(ranks == sorted([f"pid {pid}", "7"]),
          f"ranks {ranks}: want the process's pid for one and the launcher's rank for the other")
    p = run([a.rocpd, "convert", "-i", *amd, "-f", "csv", "pftrace", "-d", folder, "-o", "c"])
    for i, path in enumerate(dbs):
        rows = len(csv_rows(os.path.join(folder, f"c_amd_{i}_kernel_trace.csv"))[1])
        want_rows = count(path, "SELECT COUNT(*) FROM kernels")
        check(rows == want_rows, f"amd_{i}: {rows} kernel rows converted, {want_rows} in it")
        counters = csv_rows(os.path.join(folder, f"c_amd_{i}_counter_collection.csv"))
        check(counters == csv_rows(os.path.join(a.work, "job", f"rank_{i}_counter_collection.csv")),
              f"amd_{i}: the counter rows converted are not rocprofv3's")
    check("(2 processes)" in p.stderr, f"the Perfetto trace: {p.stderr}")
    run([a.rocpd, "merge", "-i", *amd, "-o", os.path.join(folder, "merged.db")])
    check(count(os.path.join(folder, "merged.db"), "SELECT COUNT(*) FROM kernels") ==
          sum(count(x, "SELECT COUNT(*) FROM kernels") for x in amd), "merge lost kernels")


def summary_amd_options(a):
    """AMD's summary options: --region-categories, --mangled-kernels, --truncate-kernels,
    --domain-summary, and --format pdf refused with the reason."""
    out = os.path.join(a.work, "summary_amd")
    markers = marker_db(a)
    with connect(markers) as c:
        categories = {cat: sorted(n for (n,) in c.execute(
            "SELECT DISTINCT name FROM regions WHERE category = ?", (cat,)))
            for (cat,) in c.execute("SELECT DISTINCT category FROM regions")}
    check(len(categories) >= 2 and all(k.startswith("MARKER_") for k in categories),
          f"the marker run's region categories: {categories} (not a test)")

    def tables(extra, name):
        run([a.rocpd, "summary", "-i", markers, *extra, "--format", "json", "-d", out, "-o", name])
        return json.load(open(os.path.join(out, f"{name}.json")))

    # MARKER takes every MARKER_* category; one category only its own regions.
    doc = tables(["--region-categories", "MARKER"], "marker")
    got = sorted(r["name"] for r in doc["region_summary"])
    check(got == sorted(n for v in categories.values() for n in v), f"MARKER: {got}")
    check("kernel_summary" not in doc and "memory_copy_summary" not in doc,
          f"MARKER kept the views: {list(doc)}")
    one = sorted(categories)[0]
    doc = tables(["--region-categories", one.lower()], "one")
    check(sorted(r["name"] for r in doc["region_summary"]) == categories[one],
          f"{one}: {doc['region_summary']}")
    # NONE: every view, no region; a view's name keeps that view only.
    doc = tables(["--region-categories", "NONE"], "none")
    check("region_summary" not in doc and "kernel_summary" in doc, f"NONE: {list(doc)}")
    doc = tables(["--region-categories", "KERNEL", "--domain-summary"], "kernel")
    check(set(doc) == {"domain_summary", "kernel_summary"}, f"KERNEL: {list(doc)}")
    p = run([a.rocpd, "summary", "-i", markers, "--region-categories", "a;b"], expect_rc=1)
    check("--region-categories takes category names" in p.stderr and "'a;b'" in p.stderr,
          p.stderr)

    # Kernel names: a copy whose first kernel has a mangled name and its demangled display name.
    named = os.path.join(a.work, "mangled.db")
    shutil.copyfile(job_dbs(a)[0], named)
    with sqlite3.connect(named) as c:
        table = run_table(named, "rocpd_info_kernel_symbol")
        first = c.execute(f'SELECT MIN(id) FROM "{table}"').fetchone()[0]
        c.execute(f'UPDATE "{table}" SET kernel_name = ?, display_name = ? WHERE id = ?',
                  ("_Z3addIfEvPT_i", "void add<float>(float*, int)", first))
    with connect(named) as c:
        calls = c.execute("SELECT COUNT(*) FROM kernels k WHERE k.kernel_id = ?",
                          (first,)).fetchone()[0]
    check(calls > 0, "the renamed kernel has no dispatches (not a test)")
    for extra, expected in [([], "void add<float>(float*, int)"),
                            (["--mangled-kernels"], "_Z3addIfEvPT_i"),
                            (["--truncate-kernels"], "add")]:
        run([a.rocpd, "summary", "-i", named, "--domains", "kernel", *extra, "--format", "json",
             "-d", out, "-o", "names"])
        rows = json.load(open(os.path.join(out, "names.json")))["kernel_summary"]
        found = [r for r in rows if r["name"] == expected]
        check(len(found) == 1 and found[0]["calls"] == calls,
              f"{extra}: no row {expected!r} with {calls} calls: {[r['name'] for r in rows]}")

    p = run([a.rocpd, "summary", "-i", markers, "--format", "pdf"], expect_rc=1)
    check("--format pdf is not supported" in p.stderr and "html" in p.stderr, p.stderr)


def package(a):
    """rocpd package: a folder with index.yaml that stands for the databases as -i of every
    command; -c moves them in, --copy copies; AMD's index form read; nothing overwritten."""
    dbs = job_dbs(a)
    work = os.path.join(a.work, "package")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    def kernel_calls(inputs):
        out = os.path.join(work, "s")
        run([a.rocpd, "summary", "-i", *inputs, "--domains", "kernel", "--format", "json",
             "-d", out, "-o", "s"])
        return json.load(open(os.path.join(out, "s.json")))["domain_summary"][0]["calls"]

    whole = kernel_calls(dbs)
    before = [digest(p) for p in dbs]
    # An index of the databases where they are: the folder and the index both stand for them.
    run([a.rocpd, "package", "-i", *dbs, "-d", os.path.join(work, "job")])
    folder = os.path.join(work, "job.rpdb")
    check(os.path.isfile(os.path.join(folder, "index.yaml")), f"no index in {folder}")
    check(kernel_calls([folder]) == whole, "the package folder is not the job")
    check(kernel_calls([os.path.join(folder, "index.yaml")]) == whole, "the index is not the job")
    check([digest(p) for p in dbs] == before, "package changed a database")
    # -c --copy: copies in the folder, the originals kept; then -c moves copies of two ranks.
    run([a.rocpd, "package", "-i", *dbs[:2], "-d", os.path.join(work, "copied"), "-c", "--copy"])
    copied = os.path.join(work, "copied.rpdb")
    expected = sorted(["index.yaml"] + [os.path.basename(p) for p in dbs[:2]])
    check(sorted(os.listdir(copied)) == expected, f"copied package: {os.listdir(copied)}")
    check(all(os.path.exists(p) for p in dbs), "--copy removed an original")
    loose = os.path.join(work, "loose")
    os.makedirs(loose)
    for p in dbs[2:]:
        shutil.copyfile(p, os.path.join(loose, os.path.basename(p)))
    run([a.rocpd, "package", "-i", loose, "-d", copied, "-c"])  # a folder as input; added to
    check(not [n for n in os.listdir(loose) if n.endswith(".db")], "-c left the databases")
    check(kernel_calls([copied]) == whole, "the package added to does not hold every rank")
    # A folder given with '..' from another working directory: the index still finds them.
    sub = os.path.join(work, "sub")
    os.makedirs(sub)
    subprocess.run([a.rocpd, "package", "-i", os.path.relpath(dbs[0], sub), "-d",
                    os.path.join("..", "rel")], cwd=sub, check=True, capture_output=True)
    check(kernel_calls([os.path.join(work, "rel.rpdb")]) ==
          count(dbs[0], "SELECT COUNT(*) FROM kernels"),
          "a package made with a relative -d does not find its database")
    # Nothing overwritten: a database already in the folder stops the move before it starts.
    again = os.path.join(work, "again")
    os.makedirs(again)
    shutil.copyfile(dbs[0], os.path.join(again, os.path.basename(dbs[0])))
    p = run([a.rocpd, "package", "-i", os.path.join(again, os.path.basename(dbs[0])), "-d",
             copied, "-c"], expect_rc=6)
    check("is already there; nothing was moved" in p.stderr, p.stderr)
    check(os.path.exists(os.path.join(again, os.path.basename(dbs[0]))), "moved anyway")
    # AMD's index form (no quotes, the list at the key's indentation, a wildcard).
    amd = os.path.join(work, "amd")
    os.makedirs(amd)
    for p in dbs:
        shutil.copyfile(p, os.path.join(amd, os.path.basename(p)))
    with open(os.path.join(amd, "index.yaml"), "w") as f:
        f.write("rocprofiler-sdk:\n  rocpd:\n    files:\n    - rank_*_results.db\n"
                "    path: .\n    rocpd_package_version: '1.0'\n")
    check(kernel_calls([amd]) == whole, "AMD's index form was not read")
    # Bad inputs: a folder without databases, an index listing a missing file or nothing.
    empty = os.path.join(work, "empty")
    os.makedirs(empty)
    p = run([a.rocpd, "summary", "-i", empty], expect_rc=2)
    check("a folder without databases" in p.stderr, p.stderr)
    bad = os.path.join(work, "bad.yaml")
    with open(bad, "w") as f:
        f.write("rocprofiler-sdk:\n  rocpd:\n    files: missing.db\n")
    p = run([a.rocpd, "summary", "-i", bad], expect_rc=2)
    check("missing.db" in p.stderr, p.stderr)
    with open(bad, "w") as f:
        f.write("something: else\n")
    p = run([a.rocpd, "summary", "-i", bad], expect_rc=2)
    check("not a rocpd package index" in p.stderr, p.stderr)
    p = run([a.rocpd, "package", "-i", dbs[0], "--copy"], expect_rc=1)
    check("it needs -c" in p.stderr, p.stderr)


# ---- query ---------------------------------------------------------------------------------

def query(a):
    dbs = job_dbs(a)
    out = os.path.join(a.work, "query")
    # On the union of the inputs: the statement sees the job as `rocpd merge` would write it, so
    # aggregates and joins span every rank; each result equals that of the merged database.
    merged = os.path.join(a.work, "query_merged.db")
    run([a.rocpd, "merge", "-i", *dbs, "-o", merged])
    statements = [
        "SELECT name, COUNT(*) AS n, SUM(duration) AS total FROM kernels GROUP BY name ORDER BY name",
        "SELECT COUNT(DISTINCT guid) AS processes, COUNT(*) AS dispatches FROM kernels",
        "SELECT pid, COUNT(*) AS n FROM kernels GROUP BY pid ORDER BY pid",
        "SELECT k.name, a.name AS agent, COUNT(*) AS n FROM kernels k JOIN rocpd_kernel_dispatch d "
        "ON d.id = k.id AND d.guid = k.guid JOIN rocpd_info_agent a ON a.id = d.agent_id AND "
        "a.guid = d.guid GROUP BY k.name, a.name ORDER BY k.name, a.name",
        "SELECT COUNT(*) AS n, SUM(size) AS bytes FROM memory_copies",
        "SELECT counter_name, COUNT(*) AS n, SUM(value) AS total FROM counters_collection "
        "GROUP BY counter_name ORDER BY counter_name",
        "SELECT name, total_calls FROM top ORDER BY name",
        "SELECT COUNT(*) AS n FROM rocprofv3_merge",
    ]
    copied = {}
    for i, sql in enumerate(statements):
        p = run([a.rocpd, "query", "-i", *dbs, "--query", sql, "--format", "json", "-d", out,
                 "-o", f"union_{i}"])
        line = [x for x in p.stderr.splitlines() if "rows copied from" in x]
        check(len(line) == 1, f"union query {sql}: no line naming the tables copied: {p.stderr}")
        copied[i] = set(line[0].split("rows copied from ", 1)[1].split(", "))
        got = json.load(open(os.path.join(out, f"union_{i}.json")))["query"]
        with connect(merged) as c:
            cursor = c.execute(sql)
            names = [d[0] for d in cursor.description]
            expected = [dict(zip(names, row)) for row in cursor]
        check(got == expected, f"union query {sql}:\n{got}\nexpected (merged):\n{expected}")
        check(len(got) > 0, f"union query {sql}: no rows (the comparison proves nothing)")
    # Only the tables a statement reads are copied: the kernels, not the copies, and the reverse.
    check("rocpd_kernel_dispatch" in copied[1] and "rocpd_memory_copy" not in copied[1] and
          "rocpd_region" not in copied[1] and "rocpd_pmc_event" not in copied[1],
          f"a query of the kernels copied {sorted(copied[1])}")
    check("rocpd_memory_copy" in copied[4] and "rocpd_kernel_dispatch" not in copied[4],
          f"a query of the copies copied {sorted(copied[4])}")
    check(copied[7] == {"no table"}, f"a query of rocprofv3_merge copied {sorted(copied[7])}")
    totals = json.load(open(os.path.join(out, "union_1.json")))["query"][0]
    check(totals["processes"] == len(dbs), f"union of {len(dbs)} ranks: {totals}")
    # The union is read-only as the inputs are; nothing is written to them.
    before = [digest(p) for p in dbs]
    p = run([a.rocpd, "query", "-i", *dbs, "--query",
             f"DELETE FROM {run_table(dbs[0], 'rocpd_string')}"], expect_rc=5)
    check("readonly" in p.stderr, p.stderr)
    p = run([a.rocpd, "query", "-i", *dbs, "--query", "SELECT * FROM no_such_view"], expect_rc=5)
    check("no such table: no_such_view" in p.stderr and "union" in p.stderr, p.stderr)
    check([digest(p) for p in dbs] == before, "a query changed an input")
    # A run given twice is refused on the union (its rows would count twice), even with --force.
    p = run([a.rocpd, "query", "-i", dbs[0], dbs[0], "--force", "--query", "SELECT 1"],
            expect_rc=2)
    check("is in two inputs" in p.stderr, p.stderr)

    # --per-database: each input separately, rows led by the database.
    sql = statements[0]
    run([a.rocpd, "query", "--per-database", "-i", *dbs, "--query", sql, "--format", "json",
         "-d", out, "-o", "q"])
    got = json.load(open(os.path.join(out, "q.json")))["query"]
    expected = []
    for path in dbs:
        with connect(path) as c:
            for name, n, total in c.execute(sql):
                expected.append({"database": path, "name": name, "n": n, "total": total})
    check(got == expected, f"query rows:\n{got}\nexpected:\n{expected}")
    run([a.rocpd, "query", "--per-database", "-i", *dbs, "--query", sql, "--format", "csv",
         "-d", out, "-o", "q"])
    rows = list(csv.DictReader(open(os.path.join(out, "q_query.csv"))))
    check([r["database"] for r in rows] == [e["database"] for e in expected], "csv databases")
    check([int(r["total"]) for r in rows] == [e["total"] for e in expected], "csv totals")

    # More databases than SQLite can attach to one connection (10 in Debian's build): 70 copies
    # of one rank, read separately (--force: they are one database 70 times).
    many = os.path.join(a.work, "query_many")
    os.makedirs(many, exist_ok=True)
    copies = []
    for i in range(70):
        copies.append(os.path.join(many, f"copy_{i}.db"))
        shutil.copyfile(dbs[0], copies[-1])
    run([a.rocpd, "query", "--per-database", "-i", *copies, "--query",
         "SELECT COUNT(*) AS n FROM kernels", "--format", "json", "-d", out, "-o", "many",
         "--force"])
    with connect(dbs[0]) as c:
        n = c.execute("SELECT COUNT(*) FROM kernels").fetchone()[0]
    got = json.load(open(os.path.join(out, "many.json")))["query"]
    check([r["n"] for r in got] == [n] * 70, f"70 databases: {got[:3]}...")
    # A query that fails on a later database leaves no partial file.
    failing = os.path.join(out, "fails_query.csv")
    p = run([a.rocpd, "query", "--per-database", "-i", dbs[0], without_counters_view(a),
             "--query", "SELECT * FROM counters_collection", "--format", "csv", "-d", out,
             "-o", "fails"], expect_rc=5)
    check("no such table: counters_collection" in p.stderr, p.stderr)
    check(not os.path.exists(failing), f"{failing} left behind")
    p = run([a.rocpd, "query", "--per-database", "-i", *dbs, "--query",
             "SELECT name FROM regions LIMIT 0"])
    check("QUERY:" in p.stdout and "database" in p.stdout, p.stdout)


def query_union_of_many(a):
    """The union of more databases than SQLite attaches to one connection: 12 processes, each
    profiled on its own, queried as one job (every dispatch counted once, per process right)."""
    folder = os.path.join(a.work, "union_many")
    os.makedirs(folder, exist_ok=True)
    paths = []
    for i in range(12):
        run([a.rocprofv3, "--kernel-trace", "-d", folder, "-o", f"p{i}", "--", a.program])
        paths.append(os.path.join(folder, f"p{i}_results.db"))
    each = [count(p, "SELECT COUNT(*) FROM kernels") for p in paths]
    run([a.rocpd, "query", "--force", "-i", *paths, "--query",
         "SELECT pid, COUNT(*) AS n FROM kernels GROUP BY pid ORDER BY pid", "--format", "json",
         "-d", folder, "-o", "u"])
    got = json.load(open(os.path.join(folder, "u.json")))["query"]
    expected = sorted((int(metadata(p)["pid"]), n) for p, n in zip(paths, each))
    check([(r["pid"], r["n"]) for r in got] == expected, f"12 processes: {got} != {expected}")


def without_counters_view(a):
    """A copy of rank 1's database without the counters_collection view (a query of it fails
    there only)."""
    path = os.path.join(a.work, "no_counters_view.db")
    shutil.copyfile(job_dbs(a)[1], path)
    with sqlite3.connect(path) as c:
        c.execute("DROP VIEW counters_collection")
    return path


# ---- merge ---------------------------------------------------------------------------------

VIEWS = ["kernels", "memory_copies", "regions", "counters_collection"]


def count(path, sql):
    with connect(path) as c:
        return c.execute(sql).fetchone()[0]


def merge(a):
    dbs = job_dbs(a)
    merged = os.path.join(a.work, "merged.db")
    run([a.rocpd, "merge", "-i", *dbs, "-o", merged])
    for view in VIEWS:
        total = sum(count(p, f"SELECT COUNT(*) FROM {view}") for p in dbs)
        check(count(merged, f"SELECT COUNT(*) FROM {view}") == total,
              f"merged {view}: {count(merged, f'SELECT COUNT(*) FROM {view}')} rows != {total}")
    # Each run keeps its tables (named with its uuid) and its ids: (guid, id) stays distinct.
    for base in ["rocpd_kernel_dispatch", "rocpd_memory_copy", "rocpd_event", "rocpd_info_agent",
                 "rocpd_info_thread", "rocpd_info_process"]:
        total = sum(count(p, f"SELECT COUNT(*) FROM {base}") for p in dbs)
        check(count(merged, f"SELECT COUNT(DISTINCT guid || ':' || id) FROM {base}") == total,
              f"merged {base}: (guid, id) not distinct or rows lost")
        for p in dbs:
            check(count(merged, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND "
                                f"name = '{run_table(p, base)}'") == 1,
                  f"merged: no table {run_table(p, base)}")
    check(sorted(r for (r,) in connect(merged).execute("SELECT value FROM rocpd_metadata WHERE "
                                                       "tag = 'uuid'")) ==
          sorted(metadata(p)["uuid"] for p in dbs), "merged rocpd_metadata: not one uuid per run")
    # The joins of the views still find each process's own rows: per guid, the merged view holds
    # what that input's view held, column for column.
    for p in dbs:
        guid = metadata(p)["guid"]
        for view, cols in [("kernels", "pid, tid, agent_abs_index, agent_log_index, name, "
                                       "corr_id, start, \"end\", queue, region"),
                           ("memory_copies", "name, pid, tid, src_device, dst_device, size, start, "
                                             "\"end\", corr_id, category")]:
            with connect(p) as c:
                want = sorted(c.execute(f"SELECT {cols} FROM {view}"), key=repr)
            with connect(merged) as c:
                got = sorted(c.execute(f"SELECT {cols} FROM {view} WHERE guid = ?", (guid,)),
                             key=repr)
            check(got == want, f"merged {view} rows of {p} differ")
    # Converted, the merged database gives every run's counter rows, each with its own process.
    out = os.path.join(a.work, "merged_csv")
    run([a.rocpd, "convert", "-i", merged, "-f", "csv", "-d", out, "-o", "merged"])
    want = sorted(row for r in range(RANKS) for row in csv_rows(
        os.path.join(a.work, "job", f"rank_{r}_counter_collection.csv"))[1])
    got = csv_rows(os.path.join(out, "merged_counter_collection.csv"))[1]
    check(got == want, f"the merged database's counter rows ({len(got)}) are not the ranks' "
                       f"({len(want)}): {[x for x in got if x not in want][:2]}")
    # The same for marker rows: two processes of the marker program, merged and converted, give
    # each process's rows with its own Process_Id, as each wrote them.
    second = os.path.join(a.work, "markers_2")
    run([a.rocprofv3, "--marker-trace", "--kernel-trace", "-f", "csv", "rocpd", "-d", second,
         "-o", "run", "--", a.marker_program, "--truth", os.path.join(second, "truth.json")])
    merged_markers = os.path.join(a.work, "merged_markers.db")
    run([a.rocpd, "merge", "--force", "-i", marker_db(a), os.path.join(second, "run_results.db"),
         "-o", merged_markers])
    run([a.rocpd, "convert", "-i", merged_markers, "-f", "csv", "-d", out, "-o", "markers"])
    want = sorted(row for folder in [os.path.join(a.work, "markers"), second]
                  for row in csv_rows(os.path.join(folder, "run_marker_api_trace.csv"))[1])
    got = sorted(csv_rows(os.path.join(out, "markers_marker_api_trace.csv"))[1])
    pids = {row["Process_Id"] for row in csv_dicts(os.path.join(out, "markers_marker_api_trace.csv"))}
    check(len(want) > 0 and got == want and len(pids) == 2,
          f"the merged database's marker rows ({len(got)}, processes {pids}) are not the two "
          f"processes' ({len(want)}): {[x for x in got if x not in want][:2]}")
    m = metadata(merged)
    with connect(merged) as c:
        inputs = c.execute("SELECT path, guid, rank FROM rocprofv3_merge ORDER BY rank").fetchall()
    check(m.get("schema_version") == "3" and
          inputs == [(p, metadata(p)["guid"], str(r)) for r, p in enumerate(dbs)],
          f"merged metadata: {m}, inputs {inputs}")
    # The merged database is an input like any other: its summary is the job's.
    out = os.path.join(a.work, "merge_summary")
    run([a.rocpd, "summary", "-i", *dbs, "--format", "json", "-d", out, "-o", "parts"])
    run([a.rocpd, "summary", "-i", merged, "--format", "json", "-d", out, "-o", "whole"])
    parts = json.load(open(os.path.join(out, "parts.json")))
    whole = json.load(open(os.path.join(out, "whole.json")))
    for table in ["kernel_summary", "memory_copy_summary", "domain_summary"]:
        for x, y in zip(parts[table], whole[table]):
            for k in x:
                close(x[k], y[k], f"{table} {k}")
    # Another job's databases only with --force; the output may not be an input.
    run([a.rocpd, "merge", "-i", *dbs, marker_db(a), "-o", merged], expect_rc=3)
    run([a.rocpd, "merge", "-i", *dbs, marker_db(a), "-o", merged, "--force"])
    check(count(merged, "SELECT COUNT(*) FROM regions") ==
          sum(count(p, "SELECT COUNT(*) FROM regions") for p in dbs + [marker_db(a)]),
          "merged regions")
    # A table merge does not know would be lost: refused, or left out with a warning (--force).
    extra = os.path.join(a.work, "extra.db")
    shutil.copyfile(dbs[0], extra)
    with sqlite3.connect(extra) as c:
        c.execute("CREATE TABLE later_table (x)")
    p = run([a.rocpd, "merge", "-i", extra, "-o", merged], expect_rc=2)
    check("table later_table is not in the rocpd schema; --force leaves it out" in p.stderr, p.stderr)
    p = run([a.rocpd, "merge", "-i", extra, "-o", merged, "--force"])
    check("warning" in p.stderr and "later_table" in p.stderr, p.stderr)
    p = run([a.rocpd, "merge", "-i", merged, "-o", merged], expect_rc=1)
    check("is one of the inputs" in p.stderr, p.stderr)
    # A run in two inputs (the same file twice) is refused even with --force; a merged file
    # merges again like any input.
    p = run([a.rocpd, "merge", "-i", dbs[0], dbs[0], "-o", merged, "--force"], expect_rc=2)
    check(f"run {metadata(dbs[0])['guid']} is in two inputs" in p.stderr, p.stderr)
    half = os.path.join(a.work, "half.db")
    run([a.rocpd, "merge", "-i", *dbs[:2], "-o", half])
    again = os.path.join(a.work, "again.db")
    run([a.rocpd, "merge", "-i", half, *dbs[2:], "-o", again])
    check(count(again, "SELECT COUNT(*) FROM kernels") ==
          sum(count(p, "SELECT COUNT(*) FROM kernels") for p in dbs), "a merged file merged again")
    # Its record of the inputs holds each run once (the merged input's rows, not a second row).
    check(count(again, "SELECT COUNT(*) FROM rocprofv3_merge") == len(dbs) and
          count(again, "SELECT COUNT(DISTINCT guid) FROM rocprofv3_merge") == len(dbs),
          "rocprofv3_merge of a merged file merged again: a run recorded twice")


# ---- convert -------------------------------------------------------------------------------

def csv_rows(path):
    with open(path, newline="") as f:
        lines = f.read().splitlines()
    return lines[0], sorted(lines[1:])


def csv_dicts(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def counter_csv_value(value):
    """A counter value as counter_collection.csv writes it (csv/rows.hpp csv_counter_value)."""
    return f"{value:.6f}" if value >= 1 else f"{value:.8e}"


def convert(a):
    out = os.path.join(a.work, "convert")
    run([a.rocpd, "convert", "-i", *job_dbs(a), "-f", "csv", "-d", out])
    # Rows are compared sorted: rocprofv3 writes each file's rows as the records arrive (in
    # completion order; counter rows per pass under kernel replay), rocpd convert in the
    # dispatches' start order.
    pairs = []
    for r in range(RANKS):
        for kind in ["kernel_trace", "memory_copy_trace", "counter_collection"]:
            pairs.append((os.path.join(a.work, "job", f"rank_{r}_{kind}.csv"),
                          os.path.join(out, f"rank_{r}_results_{kind}.csv")))
        names = {row["Counter_Name"] for row in
                 csv_dicts(os.path.join(a.work, "job", f"rank_{r}_counter_collection.csv"))}
        check(names == set(RANK_COUNTERS), f"rank {r} collected {names}, not {RANK_COUNTERS}")
    # Kernel replay, counters only: a dispatch's counters come from two passes, each with its own
    # times (its row in the database holds the first pass's).
    run([a.rocpd, "convert", "-i", other_db(a), "-f", "csv", "-d", out, "-o", "replay"])
    replayed = os.path.join(a.work, "other", "other_counter_collection.csv")
    pairs.append((replayed, os.path.join(out, "replay_counter_collection.csv")))
    starts = {}
    for row in csv_dicts(replayed):
        starts.setdefault(row["Dispatch_Id"], set()).add(row["Start_Timestamp"])
    check(any(len(v) == len(REPLAY_GROUPS) for v in starts.values()),
          f"{replayed}: no dispatch has the times of {len(REPLAY_GROUPS)} passes: not a test")
    check(not os.path.exists(os.path.join(out, "replay_kernel_trace.csv")),
          "a kernel_trace.csv converted from a run without --kernel-trace")
    # Kernel replay with the kernel trace: each pass's kernel trace record is a row of
    # kernel_trace.csv (the database keeps the further passes' times in extdata).
    traced = os.path.join(a.work, "replay_traced")
    replay = [w for g in REPLAY_GROUPS for w in ["--pmc", *g]]
    run([a.rocprofv3, "--kernel-trace", *replay, "--replay-mode", "kernel",
         "--kernel-replay-beta-enabled", "-f", "csv", "rocpd", "-d", traced, "-o", "rt", "--",
         a.program])
    run([a.rocpd, "convert", "-i", os.path.join(traced, "rt_results.db"), "-f", "csv", "-d", out,
         "-o", "replay_traced"])
    for kind in ["kernel_trace", "counter_collection"]:
        pairs.append((os.path.join(traced, f"rt_{kind}.csv"),
                      os.path.join(out, f"replay_traced_{kind}.csv")))
    passes = {}
    for row in csv_dicts(os.path.join(traced, "rt_kernel_trace.csv")):
        passes[row["Dispatch_Id"]] = passes.get(row["Dispatch_Id"], 0) + 1
    check(any(n == len(REPLAY_GROUPS) for n in passes.values()),
          f"rt_kernel_trace.csv: no dispatch has {len(REPLAY_GROUPS)} rows: not a test ({passes})")
    alias = os.path.join(os.path.dirname(a.rocpd), "rocpd2csv")
    run([alias, "-i", marker_db(a), "-f", "csv", "-d", out, "-o", "markers"])
    for kind in ["kernel_trace", "marker_api_trace"]:
        pairs.append((os.path.join(a.work, "markers", f"run_{kind}.csv"),
                      os.path.join(out, f"markers_{kind}.csv")))
    for original, converted in pairs:
        check(os.path.exists(converted), f"rocpd convert wrote no {converted}")
        h1, rows1 = csv_rows(original)
        h2, rows2 = csv_rows(converted)
        check(h1 == h2, f"{converted}: header\n{h2}\n!= rocprofv3's\n{h1}")
        check(len(rows1) > 0, f"{original} has no rows")
        if rows1 != rows2:
            diff = [x for x in rows1 if x not in rows2][:3] + ["--"] + [x for x in rows2 if x not in rows1][:3]
            raise Failed(f"{converted}: rows differ from {original}:\n" + "\n".join(diff))
    p = run([a.rocpd, "convert", "-i", *job_dbs(a), "-f", "json"], expect_rc=1)
    check("no conversion to json" in p.stderr and "AMD" in p.stderr, p.stderr)


# ---- convert -f pftrace ---------------------------------------------------------------------

def proto_fields(data):
    """The fields of one protobuf message: (field, wire type, value) with the varint's value, the
    length-delimited payload's bytes, or the fixed field's bytes. Decoded here, independently of
    the writer (https://protobuf.dev/programming-guides/encoding/)."""
    def varint(at):
        value, shift = 0, 0
        while True:
            check(at < len(data), "truncated varint")
            byte = data[at]
            at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value, at
    at, out = 0, []
    while at < len(data):
        key, at = varint(at)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, at = varint(at)
        elif wire == 2:
            size, at = varint(at)
            check(at + size <= len(data), "truncated field")
            value, at = data[at:at + size], at + size
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
            value, at = data[at:at + size], at + size
        else:
            raise Failed(f"wire type {wire} in the trace")
        out.append((field, wire, value))
    return out


def graph_ids(a):
    """A CUDA graph node's ids (rocprofv3 keeps them in the dispatch row's extdata) reach the
    slices of rocpd's Perfetto conversion as rocprofv3's own trace shows them, ids above 2^63
    exactly; other dispatches carry none. (The host device has no graphs: the ids are put into a
    copy of a database as rocprofv3 writes them on a CUDA agent.)"""
    folder = os.path.join(a.work, "graph_ids")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    db = os.path.join(folder, "graph.db")
    shutil.copyfile(job_dbs(a)[0], db)
    table = run_table(db, "rocpd_kernel_dispatch")
    nodes = {}  # dispatch id -> (graph id, node id)
    with sqlite3.connect(db) as c:
        rows = c.execute(f'SELECT id, dispatch_id, extdata FROM "{table}" ORDER BY id LIMIT 2').fetchall()
        check(len(rows) == 2, "the job's first database has fewer than 2 dispatches")
        for (row, dispatch, ext), ids in zip(rows, [(7, 11), (7, 2**64 - 5)]):
            data = json.loads(ext or "{}")
            data.update(graph_id=ids[0], graph_node_id=ids[1])
            c.execute(f'UPDATE "{table}" SET extdata = ? WHERE id = ?', (json.dumps(data), row))
            nodes[dispatch] = ids
    run([a.rocpd, "convert", "-i", db, "-f", "pftrace", "-d", folder, "-o", "g"])
    _, slices, _ = read_pftrace(os.path.join(folder, "g_results.pftrace"))
    kernels = [n for (_, _, _, _, n, _) in slices if "dispatch_id" in n]
    check(kernels, "no kernel slice names its dispatch_id: not a test")
    with_ids = {n["dispatch_id"]: (n.get("graph_id"), n.get("graph_node_id")) for n in kernels
                if "graph_node_id" in n}
    check(with_ids == nodes, f"slices with graph ids {with_ids}, the database has {nodes}")
    check(len(kernels) > len(with_ids), "every slice has graph ids")


def first(fields, number, default=None):
    for f, _, v in fields:
        if f == number:
            return v
    return default


def read_pftrace(path, counters=None):
    """Tracks {uuid: {name, parent, pid, process_name, counter}} and slices [(track, name, begin,
    end, annotations, sequence)] of a Perfetto trace (field numbers:
    tests/rocprofv3/perfetto_subset.proto); the counter values [(track, timestamp, value)] are
    appended to @p counters when given."""
    tracks, slices, open_slices, sequences = {}, [], {}, set()
    for field, wire, packet in proto_fields(open(path, "rb").read()):
        check(field == 1 and wire == 2, "a Trace holds packets only")
        p = proto_fields(packet)
        sequence = first(p, 10)
        check(sequence is not None, "a packet without trusted_packet_sequence_id")
        sequences.add(sequence)
        ts = first(p, 8)
        descriptor = first(p, 60)
        if descriptor is not None:
            d = proto_fields(descriptor)
            uuid = first(d, 1)
            check(uuid not in tracks, f"track uuid {uuid} defined twice")
            process = first(d, 3)
            entry = {"name": (first(d, 2) or b"").decode(), "parent": first(d, 5),
                     "sequence": sequence, "counter": first(d, 8) is not None}
            if process is not None:
                pd = proto_fields(process)
                entry["pid"] = first(pd, 1)
                entry["process_name"] = (first(pd, 6) or b"").decode()
            tracks[uuid] = entry
        event = first(p, 11)
        if event is not None:
            e = proto_fields(event)
            track, kind = first(e, 11), first(e, 9)
            check(track in tracks, f"an event on track {track} before its descriptor")
            check(tracks[track]["sequence"] == sequence, "an event on another sequence's track")
            if kind == 1:
                notes = {}
                for f, _, v in e:
                    if f == 4:
                        n = proto_fields(v)
                        name = first(n, 10).decode()
                        notes[name] = first(n, 3, first(n, 4, first(n, 6)))
                open_slices.setdefault(track, []).append(
                    (first(e, 23, b"").decode(), ts, notes))
            elif kind == 2:
                check(open_slices.get(track), f"a slice end without a begin on track {track}")
                name, begin, notes = open_slices[track].pop()
                slices.append((track, name, begin, ts, notes, sequence))
            elif kind == 4 and counters is not None:
                check(tracks[track]["counter"], f"a counter value on track {track}, not a counter track")
                counters.append((track, ts, struct.unpack("<d", first(e, 44))[0]))
    check(all(not v for v in open_slices.values()), "a slice without its end")
    return tracks, slices, sequences


def process_of(tracks, uuid):
    while tracks[uuid].get("parent"):
        uuid = tracks[uuid]["parent"]
    return uuid


def kind_of_track(tracks, uuid):
    name = tracks[uuid]["name"]
    for kind in ["Memory copies", "Markers", "CUDA API"]:
        if name.startswith(kind):
            return kind
    return "Kernels" if name.startswith("Queue ") else name


def counter_tracks(tracks, counters, process, csv_path):
    """The counter values of @p process's counter tracks [(counter, agent track, timestamp,
    value)], checked against counter_collection.csv @p csv_path: each row's value at its start on
    the track of its counter, one track per agent and counter, and no other value than the
    returns to 0 at the rows' ends."""
    rows = csv_dicts(csv_path)
    check(rows, f"{csv_path} has no rows: not a test")
    mine = [(tracks[t]["name"], tracks[tracks[t]["parent"]]["name"], ts, v)
            for t, ts, v in counters if process_of(tracks, t) == process]
    want = collections.Counter((r["Counter_Name"], int(r["Start_Timestamp"]), r["Counter_Value"])
                               for r in rows)
    got = collections.Counter((n, ts, counter_csv_value(v)) for n, _, ts, v in mine)
    missing = list((want - got).elements())
    check(not missing, f"{csv_path}: {len(missing)} values not in the trace, e.g. {missing[:3]}")
    ends = {int(r["End_Timestamp"]) for r in rows}
    extra = [e for e in (got - want).elements()
             if not (e[2] == counter_csv_value(0.0) and e[1] in ends)]
    check(not extra, f"{csv_path}: values in the trace that are not its rows': {extra[:3]}")
    own = [u for u, t in tracks.items() if t["counter"] and process_of(tracks, u) == process]
    agents_counters = {(r["Agent_Id"], r["Counter_Name"]) for r in rows}
    check(len(own) == len(agents_counters),
          f"{len(own)} counter tracks for {len(agents_counters)} agents and counters")
    return mine


def convert_pftrace(a):
    out = os.path.join(a.work, "pftrace")
    shutil.rmtree(out, ignore_errors=True)
    dbs = job_dbs(a) + [marker_db(a)]
    run([a.rocpd, "convert", "-i", *dbs, "-f", "pftrace", "-d", out, "-o", "job", "--force"])
    path = os.path.join(out, "job_results.pftrace")
    check(os.path.exists(path), f"no {path}")
    if a.protoc:
        proto = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rocprofv3",
                             "perfetto_subset.proto")
        with open(path, "rb") as f:
            p = subprocess.run([a.protoc, f"--proto_path={os.path.dirname(proto)}",
                                "--decode=perfetto_subset.Trace", os.path.basename(proto)],
                               stdin=f, capture_output=True)
        check(p.returncode == 0, f"protoc cannot decode {path}: {p.stderr[-2000:]!r}")
    counters = []
    tracks, slices, sequences = read_pftrace(path, counters)
    processes = {u: t for u, t in tracks.items() if "pid" in t}
    check(len(processes) == len(dbs), f"{len(processes)} process tracks for {len(dbs)} databases")
    check(len(sequences) == len(dbs), f"{len(sequences)} packet sequences for {len(dbs)} databases")
    by_pid = {t["pid"]: u for u, t in processes.items()}
    check(len(by_pid) == len(dbs), "two process tracks with the same pid")
    for i, db in enumerate(dbs):
        meta = metadata(db)
        pid = int(meta["pid"])
        check(pid in by_pid, f"{db}: no process track for pid {pid}")
        uuid = by_pid[pid]
        name = processes[uuid]["process_name"]
        check(f"pid {pid}" in name and meta.get("hostname", "") in name, f"process name {name!r}")
        if i < RANKS:
            check(f"rank {i}" in name, f"{db}: process name {name!r} has no rank {i}")
        mine = [s for s in slices if process_of(tracks, s[0]) == uuid]
        with connect(db) as c:
            kernels = sorted(c.execute(
                "SELECT k.dispatch_id, k.name, k.start, k.\"end\" FROM kernels AS k "
                "JOIN rocpd_kernel_dispatch AS kd ON kd.id = k.id AND kd.guid = k.guid "
                "WHERE json_extract(kd.extdata, '$.source') IS NOT 'counter_collection'"))
            copies = sorted(c.execute("SELECT name, start, \"end\", size FROM memory_copies"))
            markers = sorted(c.execute("SELECT name, start, \"end\" FROM regions "
                                       "WHERE category LIKE 'MARKER%'"))
            span = c.execute("SELECT MIN(start), MAX(\"end\") FROM (SELECT start, \"end\" "
                             "FROM kernels UNION ALL SELECT start, \"end\" FROM memory_copies "
                             "UNION ALL SELECT start, \"end\" FROM regions)").fetchone()
        got_kernels = sorted((s[4]["dispatch_id"], s[1], s[2], s[3]) for s in mine
                             if kind_of_track(tracks, s[0]) == "Kernels")
        check(len(kernels) > 0, f"{db} has no kernels")
        check(got_kernels == kernels,
              f"{db}: {len(got_kernels)} kernel slices, {len(kernels)} dispatches; first "
              f"differences {[k for k in kernels if k not in got_kernels][:2]} "
              f"{[k for k in got_kernels if k not in kernels][:2]}")
        got_copies = sorted((s[1], s[2], s[3], s[4]["bytes"]) for s in mine
                            if kind_of_track(tracks, s[0]) == "Memory copies")
        check(got_copies == copies, f"{db}: {len(got_copies)} copy slices, {len(copies)} copies")
        got_markers = sorted((s[1], s[2], s[3]) for s in mine
                             if kind_of_track(tracks, s[0]) == "Markers")
        check(got_markers == markers, f"{db}: {len(got_markers)} marker slices, {len(markers)}")
        for s in mine:
            check(span[0] <= s[2] <= s[3] <= span[1],
                  f"{db}: slice {s[1]} [{s[2]}, {s[3]}] outside the process's [{span[0]}, {span[1]}]")
        check(len({s[5] for s in mine}) == 1, f"{db}: its slices on several sequences")
        if i < RANKS:
            # The counter tracks: the values of rocprofv3's counter_collection.csv, and the tracks
            # and values of rocprofv3's own trace of the same run (its returns to 0 may differ
            # where one dispatch ends as the next starts, as the records come in another order).
            values = counter_tracks(tracks, counters, uuid, os.path.join(
                a.work, "job", f"rank_{i}_counter_collection.csv"))
            own_counters = []
            own_tracks, _, _ = read_pftrace(
                os.path.join(a.work, "job", f"rank_{i}_results.pftrace"), own_counters)
            own = [(own_tracks[t]["name"], own_tracks[own_tracks[t]["parent"]]["name"], ts, v)
                   for t, ts, v in own_counters]
            check({v[:2] for v in values} == {v[:2] for v in own},
                  f"{db}: counter tracks {sorted({v[:2] for v in values})}, rocprofv3's trace "
                  f"has {sorted({v[:2] for v in own})}")
            check(sorted(v for v in values if v[3] != 0) == sorted(v for v in own if v[3] != 0),
                  f"{db}: the counter values differ from rocprofv3's trace")
    check(len(slices) == sum(1 for s in slices if process_of(tracks, s[0]) in processes),
          "a slice outside every process")
    # Kernel replay: each pass's counters at that pass's times.
    run([a.rocpd, "convert", "-i", other_db(a), "-f", "pftrace", "-d", out, "-o", "replay"])
    counters = []
    tracks, _, _ = read_pftrace(os.path.join(out, "replay_results.pftrace"), counters)
    process = next(u for u, t in tracks.items() if "pid" in t)
    counter_tracks(tracks, counters, process,
                   os.path.join(a.work, "other", "other_counter_collection.csv"))
    # The stand-alone name writes the same trace (-f pftrace implied).
    alias = os.path.join(os.path.dirname(a.rocpd), "rocpd2pftrace")
    run([alias, "-i", job_dbs(a)[0], "-d", out, "-o", "one"])
    one_tracks, one_slices, _ = read_pftrace(os.path.join(out, "one_results.pftrace"))
    check(sum(1 for t in one_tracks.values() if "pid" in t) == 1, "rocpd2pftrace: process tracks")
    check(len(one_slices) == count(job_dbs(a)[0], "SELECT COUNT(*) FROM kernels") +
          count(job_dbs(a)[0], "SELECT COUNT(*) FROM memory_copies"), "rocpd2pftrace: slices")
    # AMD's other word for the format.
    run([a.rocpd, "convert", "-i", job_dbs(a)[0], "-f", "perfetto", "-d", out, "-o", "word"])
    check(open(os.path.join(out, "word_results.pftrace"), "rb").read() != b"", "-f perfetto")
    # A folder that cannot be written: an error, no partial file.
    blocked = os.path.join(out, "blocked")
    open(blocked, "w").close()
    p = run([a.rocpd, "convert", "-i", job_dbs(a)[0], "-f", "pftrace", "-d", blocked], expect_rc=6)
    check("blocked" in p.stderr, p.stderr)


# ---- --start/--end --------------------------------------------------------------------------

SPAN_SQL = ("SELECT MIN(start), MAX(\"end\") FROM (SELECT start, \"end\" FROM kernels UNION ALL "
            "SELECT start, \"end\" FROM memory_copies UNION ALL SELECT start, \"end\" FROM regions)")


def window_of(stderr):
    for line in stderr.splitlines():
        if line.startswith("rocpd: time window "):
            words = line.split()
            return int(words[3]), int(words[5])
    raise Failed(f"no time window reported: {stderr[-1000:]}")


def traced_kernels(path, where, args):
    """The names of the kernel trace's dispatches (not the counter-only rows) that match @p where."""
    with connect(path) as c:
        return [r[0] for r in c.execute(
            "SELECT k.name FROM kernels AS k JOIN rocpd_kernel_dispatch AS kd ON kd.id = k.id "
            "AND kd.guid = k.guid WHERE json_extract(kd.extdata, '$.source') IS NOT "
            "'counter_collection' AND " + where, args)]


def kernels_in(path, start, end):
    """Those that overlap [start, end]."""
    return traced_kernels(path, "k.start <= ? AND k.\"end\" >= ?", (end, start))


def time_window(a):
    dbs = job_dbs(a)
    spans = []
    for path in dbs:
        with connect(path) as c:
            spans.append(c.execute(SPAN_SQL).fetchone())
    first, last = min(x[0] for x in spans), max(x[1] for x in spans)
    out = os.path.join(a.work, "window")
    shutil.rmtree(out, ignore_errors=True)
    # Percentages of the whole job's span.
    p = run([a.rocpd, "summary", "-i", *dbs, "--start", "25%", "--end", "75%", "--format", "json",
             "-d", out, "-o", "w"])
    start, end = window_of(p.stderr)
    check(abs(start - (first + (last - first) * 0.25)) <= 1 and
          abs(end - (first + (last - first) * 0.75)) <= 1,
          f"window {start}..{end} is not 25%..75% of {first}..{last}")
    expected = {}
    for path in dbs:
        for name in kernels_in(path, start, end):
            expected[name] = expected.get(name, 0) + 1
    total = sum(count(p, "SELECT COUNT(*) FROM kernels") for p in dbs)
    check(0 < sum(expected.values()) < total,
          f"the window holds {sum(expected.values())} of {total} dispatches: not a test")
    doc = json.load(open(os.path.join(out, "w.json")))
    got = {r["name"]: r["calls"] for r in doc["kernel_summary"] if r["calls"]}
    check(got == expected, f"summary in the window: {got} != {expected}")
    # Nanoseconds; convert keeps the records that overlap the window.
    p = run([a.rocpd, "convert", "-i", *dbs, "-f", "csv", "-d", out, "--start", str(start),
             "--end", str(end)])
    check(window_of(p.stderr) == (start, end), p.stderr)
    counter_rows = [0, 0]  # in the window, in all
    for r, path in enumerate(dbs):
        want = len(kernels_in(path, start, end))
        csv_path = os.path.join(out, f"rank_{r}_results_kernel_trace.csv")
        rows = len(csv_rows(csv_path)[1]) if os.path.exists(csv_path) else 0
        check(rows == want, f"{csv_path}: {rows} rows, {want} dispatches overlap the window")
        # The counter rows of the dispatches that overlap the window, as rocprofv3 wrote them.
        with connect(path) as c:
            inside = {str(x[0]) for x in c.execute(
                "SELECT dispatch_id FROM kernels WHERE start <= ? AND \"end\" >= ?", (end, start))}
        header, all_rows = csv_rows(os.path.join(a.work, "job", f"rank_{r}_counter_collection.csv"))
        column = next(csv.reader([header])).index("Dispatch_Id")
        want_rows = sorted(x for x in all_rows if next(csv.reader([x]))[column] in inside)
        csv_path = os.path.join(out, f"rank_{r}_results_counter_collection.csv")
        got_rows = csv_rows(csv_path)[1] if os.path.exists(csv_path) else []
        check(got_rows == want_rows, f"{csv_path}: {len(got_rows)} counter rows, "
                                     f"{len(want_rows)} of rocprofv3's overlap the window")
        counter_rows[0] += len(want_rows)
        counter_rows[1] += len(all_rows)
    check(0 < counter_rows[0] < counter_rows[1],
          f"the window holds {counter_rows[0]} of {counter_rows[1]} counter rows: not a test")
    # Bad windows: a usage error naming the value, nothing written.
    for extra, named in [(["--start", "50%", "--end", "10%"], "'10%'"),
                         (["--start", "120%"], "'120%'"),
                         (["--end", "abc"], "'abc'"),
                         (["--start", "-5"], "'-5'"),
                         (["--start", "200", "--end", "100"], "'100'"),
                         (["--start", "99%", "--end", str(first)], f"'{first}'")]:
        for cmd in (["summary"], ["convert", "-f", "csv", "-d", os.path.join(out, "bad")]):
            p = run([a.rocpd, *cmd, "-i", *dbs, *extra], expect_rc=1)
            check(named in p.stderr, f"{cmd[0]} {extra}: {p.stderr}")
    check(not os.path.exists(os.path.join(out, "bad")) or not os.listdir(os.path.join(out, "bad")),
          "a bad window wrote files")
    marker_window(a)


def kernels_inside(path, start, end):
    """Those wholly inside [start, end]."""
    return traced_kernels(path, "k.start >= ? AND k.\"end\" <= ?", (start, end))


def marker_window(a):
    """--start-marker/--end-marker: the window between the starts of two markers named once;
    --inclusive false keeps the records wholly inside; a missing, repeated or doubly given bound
    is a usage error naming it."""
    db = marker_db(a)
    with connect(db) as c:
        once = c.execute("SELECT name, MIN(start) FROM regions WHERE category LIKE 'MARKER%' "
                         "GROUP BY name HAVING COUNT(*) = 1 ORDER BY MIN(start)").fetchall()
    check(len(once) >= 2, f"the marker program has {len(once)} markers named once: not a test")
    (first_name, first_start), (last_name, last_start) = once[0], once[-1]
    check(first_start < last_start, f"markers {once[0]} and {once[-1]} start together")
    out = os.path.join(a.work, "marker_window")
    shutil.rmtree(out, ignore_errors=True)
    for inclusive, select in [("true", kernels_in), ("false", kernels_inside)]:
        p = run([a.rocpd, "summary", "-i", db, "--start-marker", first_name, "--end-marker",
                 last_name, "--inclusive", inclusive, "--domains", "kernel", "--format", "json",
                 "-d", out, "-o", f"m_{inclusive}"])
        check(window_of(p.stderr) == (first_start, last_start),
              f"window {window_of(p.stderr)} != the markers' starts {first_start}..{last_start}")
        expected = {}
        for name in select(db, first_start, last_start):
            expected[name] = expected.get(name, 0) + 1
        doc = json.load(open(os.path.join(out, f"m_{inclusive}.json")))
        got = {r["name"]: r["calls"] for r in doc["kernel_summary"] if r["calls"]}
        check(got == expected, f"--inclusive {inclusive}: {got} != {expected}")
    total = count(db, "SELECT COUNT(*) FROM kernels")
    check(sum(got.values()) < total, f"the marker window holds all {total} dispatches: not a test")
    # The same database twice (--force): every marker name is there twice, ambiguous.
    for extra, named in [(["--start-marker", "no such marker"], "'no such marker'"),
                         (["--start-marker", first_name, "-i", db, "--force"], "2 markers"),
                         (["--start", "0", "--start-marker", first_name], "--start-marker"),
                         (["--end", "100%", "--end-marker", last_name], "--end-marker"),
                         (["--inclusive", "maybe"], "'maybe'"),
                         (["--start-marker", last_name, "--end-marker", first_name],
                          f"'{first_name}'")]:
        p = run([a.rocpd, "summary", "-i", db, *extra], expect_rc=1)
        check(named in p.stderr, f"summary {extra}: {p.stderr}")


# ---- errors --------------------------------------------------------------------------------

def errors(a):
    bad = os.path.join(a.work, "bad")
    shutil.rmtree(bad, ignore_errors=True)
    os.makedirs(bad)
    good = job_dbs(a)[0]

    text = os.path.join(bad, "text.db")
    open(text, "w").write("rank,kernel\n0,a\n" * 20)
    plain = os.path.join(bad, "plain.db")
    with sqlite3.connect(plain) as c:
        c.execute("CREATE TABLE t (x)")
    version = os.path.join(bad, "version.db")
    shutil.copyfile(good, version)
    with sqlite3.connect(version) as c:
        c.execute(f"UPDATE {run_table(version, 'rocpd_metadata')} SET value = '99' "
                  "WHERE tag = 'schema_version'")
    truncated = os.path.join(bad, "truncated.db")
    data = open(good, "rb").read()
    check(len(data) > 8192, "the database is too small to truncate meaningfully")
    open(truncated, "wb").write(data[: len(data) // 2])
    noviews = os.path.join(bad, "noviews.db")
    shutil.copyfile(good, noviews)
    with sqlite3.connect(noviews) as c:
        c.execute("DROP VIEW kernels")

    # The layout rocprofv3 wrote before it followed AMD's: unsuffixed tables, a metadata table.
    old_layout = os.path.join(bad, "old_layout.db")
    with sqlite3.connect(old_layout) as c:
        c.execute("CREATE TABLE rocpd_metadata (id INTEGER PRIMARY KEY, tag TEXT, value TEXT)")
        c.execute("INSERT INTO rocpd_metadata (tag, value) VALUES ('schema_version', '3')")
        for view in DOMAINS.values():
            c.execute(f"CREATE VIEW {view} AS SELECT 1 AS name, 1 AS duration")
    no_uuid = os.path.join(bad, "no_uuid.db")
    shutil.copyfile(good, no_uuid)
    with sqlite3.connect(no_uuid) as c:
        c.execute(f"DELETE FROM {run_table(no_uuid, 'rocpd_metadata')} WHERE tag = 'uuid'")
    # A dispatch whose kept counter record thread and times are not a list of them.
    bad_kept = os.path.join(bad, "bad_kept.db")
    shutil.copyfile(good, bad_kept)
    with sqlite3.connect(bad_kept) as c:
        row, dispatch = c.execute(
            "SELECT kd.id, kd.dispatch_id FROM rocpd_kernel_dispatch AS kd JOIN rocpd_pmc_event "
            "AS pe ON pe.event_id = kd.event_id LIMIT 1").fetchone()
        c.execute(f"UPDATE {run_table(bad_kept, 'rocpd_kernel_dispatch')} SET extdata = "
                  "json_set(extdata, '$.counter_records', 'late') WHERE id = ?", (row,))

    cases = [
        (["summary", "-i", os.path.join(bad, "missing.db")], 2, "missing.db: no such file"),
        (["summary", "-i", old_layout], 2,
         "old_layout.db: a rocpd database of the layout rocprofv3 wrote before it followed AMD's"),
        (["summary", "-i", no_uuid], 2, "no_uuid.db: not a rocpd database of AMD's layout"),
        (["summary", "-i", text], 2, "text.db: not an SQLite database"),
        (["summary", "-i", plain], 2, "plain.db: an SQLite database, but not a rocpd database"),
        (["summary", "-i", noviews], 2, "noviews.db: not a rocpd database this reader knows"),
        (["summary", "-i", version], 2, "version.db: rocpd schema version 99"),
        (["summary", "-i", truncated], 2, "truncated.db: truncated SQLite database"),
        (["summary", "-i", good, other_db(a)], 3, "databases of different jobs"),
        (["summary", "-i", good, good], 3, "are the same database"),
        (["summary", "-i", good, "--format", "xml"], 1, "unknown format 'xml'"),
        (["summary", "-i", good, "--domains", "kernel", "hip"], 1, "unknown domain 'hip'"),
        (["summary", "-i", good, "--frobnicate"], 1, "unknown option '--frobnicate'"),
        (["summary"], 1, "no input database"),
        (["analyze", "-i", good], 1, "unknown command 'analyze'"),
        (["query", "-i", good, "--query", "SELEC name FROM kernels"], 5, "syntax error"),
        (["query", "-i", good, "--query", "SELECT * FROM no_such_view"], 5,
         "no such table: no_such_view"),
        (["query", "-i", good, "--query", f"DELETE FROM {run_table(good, 'rocpd_string')}"], 5,
         "readonly"),
        (["query", "-i", good, "--query", "DELETE FROM rocpd_string"], 5,
         "cannot modify rocpd_string because it is a view"),
        (["query", "-i", good, "--query", "SELECT 1; SELECT 2"], 5, "exactly one SQL statement"),
        (["merge", "-i", good], 1, "no output database"),
        (["convert", "-i", good, "-f", "json"], 1, "no conversion to json"),
        (["convert", "-i", bad_kept, "-f", "csv", "-d", bad], 2,
         f"bad_kept.db: dispatch {dispatch}: its extdata's counter_records is not a list"),
    ]
    for args, rc, message in cases:
        p = run([a.rocpd, *args], expect_rc=rc)
        check(message in p.stderr, f"rocpd {' '.join(args)}: stderr {p.stderr!r} lacks {message!r}")
    # Different jobs are read together with --force.
    run([a.rocpd, "summary", "-i", good, other_db(a), "--force"])

    # A writer that died in the middle of a transaction left a hot journal: reading would mean
    # rolling it back, a write; rocpd refuses and leaves both files as they are.
    hot = os.path.join(bad, "hot.db")
    shutil.copyfile(good, hot)
    subprocess.run([sys.executable, "-c", (
        "import sqlite3, os, sys\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('PRAGMA journal_mode = DELETE'); c.execute('PRAGMA cache_size = 1')\n"
        "c.execute('BEGIN')\n"
        "for i in range(20000):\n"
        "    c.execute(f'INSERT INTO {sys.argv[2]} (guid, string) VALUES (?, ?)', ('g', 'x' * 100 + str(i)))\n"
        "os._exit(0)\n"), hot, run_table(hot, "rocpd_string")], check=True)
    check(os.path.exists(hot + "-journal"), "the dying writer left no journal")
    before = (digest(hot), digest(hot + "-journal"))
    p = run([a.rocpd, "summary", "-i", hot], expect_rc=2)
    check("an interrupted write left a journal" in p.stderr, p.stderr)
    check((digest(hot), digest(hot + "-journal")) == before, "rocpd changed the hot database")

    # A database locked by a writer: rocpd waits --busy-timeout, then names it.
    locked = os.path.join(bad, "locked.db")
    shutil.copyfile(good, locked)
    holder = sqlite3.connect(locked, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        p = run([a.rocpd, "summary", "-i", locked, "--busy-timeout", "300"], expect_rc=4)
        check("locked.db: database is locked" in p.stderr, p.stderr)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    run([a.rocpd, "summary", "-i", locked])


# ---- names from the application -------------------------------------------------------------

def raw_names(path):
    """(text of the row the raw bytes belong to, raw bytes) for every rocprofv3_raw_name row."""
    with connect(path) as c:
        out = []
        for table, row_id, guid, raw in c.execute(
                "SELECT table_name, row_id, guid, raw FROM rocprofv3_raw_name"):
            column = "string" if table == "rocpd_string" else "kernel_name"
            # Row ids are a run's own: a merged file holds each run's rows under its guid.
            text = c.execute(f"SELECT {column} FROM {table} WHERE id = ? AND guid = ?",
                             (row_id, guid)).fetchone()
            check(text is not None, f"{path}: raw name of {table} row {row_id}: no such row")
            out.append((text[0], bytes(raw)))
        return out


def hostile_names(a):
    """Kernel and marker names that are not UTF-8 or hold control characters: rocpd's console
    prints them escaped, and merge keeps each raw name with the row it belongs to."""
    work = os.path.join(a.work, "hostile")
    shutil.rmtree(work, ignore_errors=True)
    dbs = []
    for r in range(2):
        run([a.rocprofv3, "--kernel-trace", "--marker-trace", "-f", "rocpd", "-d", work,
             "-o", "rank_%rank%", "--", a.hostile_program],
            env={"OMPI_COMM_WORLD_RANK": str(r), "OMPI_COMM_WORLD_SIZE": "2"})
        dbs.append(os.path.join(work, f"rank_{r}_results.db"))
    before = {p: digest(p) for p in dbs}
    for path in dbs:
        pairs = raw_names(path)
        check(pairs, f"{path}: no raw name recorded for the names that are not UTF-8")
        for text, raw in pairs:
            check(text == raw.decode("utf-8", "replace"),
                  f"{path}: raw {raw!r} belongs to {text!r}")

    p = run([a.rocpd, "summary", "-i", *dbs, "--format", "console"])
    for bad in ("\x1b", "\x07"):
        check(bad not in p.stdout, f"rocpd summary printed a raw control character: {p.stdout!r}")
    check(not any(line.startswith("rocprofv3: error: FAKE") for line in p.stdout.splitlines()),
          f"a kernel name forged a line of rocpd's output: {p.stdout!r}")
    check("evil" in p.stdout, f"the hostile kernel is missing from the summary: {p.stdout!r}")

    merged = os.path.join(work, "merged.db")
    run([a.rocpd, "merge", "-i", *dbs, "-o", merged])
    got = raw_names(merged)
    want = [pair for path in dbs for pair in raw_names(path)]
    check(sorted(set(got)) == sorted(set(want)),
          f"merge moved raw names to other rows: {sorted(set(got))} != {sorted(set(want))}")
    # Kernel symbols are rows of their process: each input's raw kernel names follow its own rows
    # (both inputs hold the same names, so only the runs' rows can tell a raw name left behind).
    symbol_rows = ("SELECT guid || ':' || row_id FROM rocprofv3_raw_name WHERE table_name = "
                   "'rocpd_info_kernel_symbol'")
    per_input = sum(len(list(connect(path).execute(symbol_rows))) for path in dbs)
    merged_rows = [r for (r,) in connect(merged).execute(symbol_rows)]
    check(per_input > 0 and len(merged_rows) == per_input == len(set(merged_rows)),
          f"raw kernel names: {len(merged_rows)} rows after merge ({len(set(merged_rows))} "
          f"distinct), {per_input} in the inputs")
    for path in dbs:
        check(digest(path) == before[path], f"{path} changed")


CASES = {"produce": produce, "writer_metadata": writer_metadata, "summary": summary,
         "summary_memory": summary_memory, "summary_amd_options": summary_amd_options,
         "many_inputs": many_inputs, "package": package,
         "amd_written": amd_written,
         "query": query, "query_union_of_many": query_union_of_many, "merge": merge, "convert": convert, "convert_memory": convert_memory,
         "convert_pftrace": convert_pftrace, "graph_ids": graph_ids,
         "report_formats": report_formats,
         "time_window": time_window,
         "errors": errors,
         "hostile_names": hostile_names}


def main():
    parser = argparse.ArgumentParser()
    for option in ["--rocprofv3", "--rocpd", "--program", "--marker-program", "--work",
                   "--hostile-program"]:
        parser.add_argument(option, required=True)
    parser.add_argument("--protoc", default="", help="decodes the Perfetto trace too when given")
    parser.add_argument("case", choices=sorted(CASES))
    a = parser.parse_args()
    try:
        CASES[a.case](a)
        if a.case != "produce":
            inputs_unchanged(a)
    except Failed as e:
        print(f"rocpd {a.case}: FAILED: {e}", file=sys.stderr)
        return 1
    print(f"rocpd {a.case}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
