#!/usr/bin/env python3
"""OTF2 output end to end (tests/rocprofv3/CMakeLists.txt, tests/rocpd/CMakeLists.txt).

Each case runs rocprofv3 (and rocpd) on host-device programs with -f csv otf2, reads the archive
back with otf2-print (OTF2's own reader, -Werror: a warning fails) and compares it with the CSV
files written by the same run: every row of kernel_trace.csv, memory_copy_trace.csv and
marker_api_trace.csv must be one Enter/Leave pair of the region of that name with the row's
timestamps, on a location of the right kind, and nothing else may be there; every row of
counter_collection.csv one value of a Metric event at the dispatch's end on the agent's metric
location. Nothing is hard-coded
but the programs' own counts.

Exit 77 (skipped, CTest SKIP_RETURN_CODE) only when this build has no OTF2 and otf2-print is not
installed either; with the library built in, a missing otf2-print fails.
"""
import argparse
import collections
import csv
import os
import re
import shutil
import subprocess
import sys

SKIP = 77


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
        raise Failed(f"{' '.join(cmd)}: exit {p.returncode}, expected {expect_rc}\n"
                     f"stdout: {p.stdout[-3000:]}\nstderr: {p.stderr[-3000:]}")
    return p


def rows(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


# --- otf2-print ----------------------------------------------------------------------------------

EVENT = re.compile(r'^(ENTER|LEAVE)\s+(\d+)\s+(\d+)\s+Region: "(.*)" <(\d+)>\s*$')
LOCATION = re.compile(
    r'^LOCATION\s+(\d+)\s+Name: "(.*)" <\d+>, Type: (\w+), # Events: (\d+), Group: "(.*)" <(\d+)>')
GROUP = re.compile(r'^LOCATION_GROUP\s+(\d+)\s+Name: "(.*)" <\d+>, Type: (\w+), '
                   r'Parent: "(?:node::)?(.*)" <\d+>')
METRIC = re.compile(r'^METRIC\s+(\d+)\s+(\d+)\s+Metric: (\d+), (\d+) Values?: (.*)$')
METRIC_VALUE = re.compile(r'\("(.*?)" <\d+>; DOUBLE; ([^)]*)\)')
CLOCK = re.compile(r'^CLOCK_PROPERTIES\s+Ticks per Seconds: (\d+), Global Offset: (\d+), '
                   r'Length: (\d+)')


class Archive:
    """What otf2-print -G shows of an archive: locations, groups, clock, and per location the
    Enter/Leave pairs as (region, start, end)."""

    def __init__(self, otf2_print, anchor):
        check(os.path.isfile(anchor), f"{anchor}: no OTF2 anchor file")
        p = run([otf2_print, "-A", "-Werror", anchor], expect_rc=None)
        check(p.returncode == 0, f"otf2-print -A -Werror {anchor}: exit {p.returncode}\n"
                                 f"{p.stderr[-3000:]}")
        self.locations = {}
        self.groups = {}
        self.clock = None
        self.pairs = collections.defaultdict(list)
        # Per location, its Metric events as (time, counter name, value).
        self.metrics = collections.defaultdict(list)
        open_regions = collections.defaultdict(list)
        counted = collections.Counter()
        last_time = {}
        for line in p.stdout.splitlines():
            m = EVENT.match(line)
            if m:
                kind, loc, time, region = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
                check(time >= last_time.get(loc, 0),
                      f"location {loc}: time goes back at {line!r}")
                last_time[loc] = time
                counted[loc] += 1
                if kind == "ENTER":
                    open_regions[loc].append((region, time))
                else:
                    check(open_regions[loc], f"location {loc}: LEAVE without ENTER: {line!r}")
                    name, start = open_regions[loc].pop()
                    check(name == region, f"location {loc}: LEAVE {region} closes {name}")
                    self.pairs[loc].append((region, start, time))
                continue
            m = METRIC.match(line)
            if m:
                loc, time, count = int(m.group(1)), int(m.group(2)), int(m.group(4))
                check(time >= last_time.get(loc, 0), f"location {loc}: time goes back at {line!r}")
                last_time[loc] = time
                counted[loc] += 1
                values = METRIC_VALUE.findall(m.group(5))
                check(len(values) == count, f"{count} values announced, {len(values)} read: {line!r}")
                for name, value in values:
                    self.metrics[loc].append((time, name, float(value)))
                continue
            m = LOCATION.match(line)
            if m:
                self.locations[int(m.group(1))] = {"name": m.group(2), "type": m.group(3),
                                                   "events": int(m.group(4)),
                                                   "group": int(m.group(6))}
                continue
            m = GROUP.match(line)
            if m:
                self.groups[int(m.group(1))] = {"name": m.group(2), "type": m.group(3),
                                                "parent": m.group(4)}
                continue
            m = CLOCK.match(line)
            if m:
                self.clock = tuple(int(x) for x in m.groups())
        for loc, stack in open_regions.items():
            check(not stack, f"location {loc}: regions never left: {stack[:3]}")
        for loc, info in self.locations.items():
            check(info["events"] == counted[loc],
                  f"location {loc} ({info['name']}): {info['events']} events defined, "
                  f"{counted[loc]} in the trace")
        check(self.clock is not None, "no CLOCK_PROPERTIES definition")
        check(self.clock[0] == 10**9, f"timer resolution {self.clock[0]}, expected 1e9 (ns)")
        start, length = self.clock[1], self.clock[2]
        for loc, pairs in self.pairs.items():
            for region, s, e in pairs:
                check(start <= s and e <= start + length,
                      f"{region} [{s}, {e}] outside the clock's [{start}, {start + length}]")

    def intervals(self, where):
        """Counter of (region, start, end) on the locations whose info satisfies where()."""
        out = collections.Counter()
        for loc, pairs in self.pairs.items():
            if where(self.locations[loc]):
                out.update(pairs)
        return out


    def counter_values(self, where):
        """Counter of (time, counter name, value rounded as the CSV writes it) on the locations
        whose info satisfies where()."""
        out = collections.Counter()
        for loc, points in self.metrics.items():
            if where(self.locations[loc]):
                out.update((t, name, f"{value:.6f}") for t, name, value in points)
        return out


def same(expected, found, what):
    missing = expected - found
    extra = found - expected
    check(not missing and not extra,
          f"{what}: {sum(expected.values())} expected, {sum(found.values())} in the archive; "
          f"missing {list(missing.items())[:3]}, unexpected {list(extra.items())[:3]}")


def kernels_of(csv_rows):
    return collections.Counter(
        (r["Kernel_Name"], int(r["Start_Timestamp"]), int(r["End_Timestamp"])) for r in csv_rows)


def copies_of(csv_rows):
    return collections.Counter(
        (r["Direction"], int(r["Start_Timestamp"]), int(r["End_Timestamp"])) for r in csv_rows)


def markers_of(csv_rows):
    return collections.Counter(
        (r["Function"], int(r["Start_Timestamp"]), int(r["End_Timestamp"])) for r in csv_rows)


def is_queue(loc):
    return loc["type"] == "ACCELERATOR_STREAM" and " Queue " in loc["name"]


def is_copy(loc):
    return loc["type"] == "ACCELERATOR_STREAM" and "memory copies" in loc["name"]


def is_thread(loc):
    return loc["type"] == "CPU_THREAD"


def is_counters(loc):
    return loc["type"] == "METRIC" and loc["name"].endswith(" counters")


def counters_of(csv_rows):
    """Counter of (end time, counter name, value) of counter_collection.csv: one Metric value per
    row, at the dispatch's end."""
    return collections.Counter(
        (int(r["End_Timestamp"]), r["Counter_Name"], f"{float(r['Counter_Value']):.6f}")
        for r in csv_rows)


# --- cases ---------------------------------------------------------------------------------------


def case_kernels(a):
    """Kernels and copies of host_kernels: every dispatch an Enter/Leave pair on its queue."""
    out = os.path.join(a.work, "out")
    run([a.rocprofv3, "--kernel-trace", "--memory-copy-trace", "-f", "csv", "otf2", "-d", out,
         "-o", "run", "--", a.program, "--copies"])
    dispatches = rows(os.path.join(out, "run_kernel_trace.csv"))
    copies = rows(os.path.join(out, "run_memory_copy_trace.csv"))
    check(len(dispatches) == 9, f"{len(dispatches)} dispatches in kernel_trace.csv, expected 9")
    check(copies, "no memory copies in memory_copy_trace.csv")
    arch = Archive(a.otf2_print, os.path.join(out, "run_results.otf2"))
    same(kernels_of(dispatches), arch.intervals(is_queue), "kernel dispatches on queue locations")
    same(copies_of(copies), arch.intervals(is_copy), "memory copies on copy locations")
    # Each queue of the CSV is a location named after it.
    queues = {r["Queue_Id"] for r in dispatches}
    names = {loc["name"] for loc in arch.locations.values() if is_queue(loc)}
    for q in queues:
        check(any(n.endswith(f" Queue {q}") or f" Queue {q} (" in n for n in names),
              f"no location for queue {q} among {sorted(names)}")
    check(len(arch.groups) == 1, f"{len(arch.groups)} location groups, expected 1")
    group = next(iter(arch.groups.values()))
    check(group["type"] == "PROCESS" and "pid " in group["name"]
          and os.path.basename(a.program) in group["name"], f"process group {group}")
    total = sum(len(p) for p in arch.pairs.values())
    check(total == len(dispatches) + len(copies),
          f"{total} regions in the archive, expected {len(dispatches) + len(copies)}")
    # The comparison catches a dispatch missing from the archive and one a nanosecond off.
    for mutate in (lambda r: r[1:], lambda r: [dict(r[0], End_Timestamp=str(int(
            r[0]["End_Timestamp"]) + 1))] + r[1:]):
        try:
            same(kernels_of(mutate(dispatches)), arch.intervals(is_queue), "mutated")
        except Failed:
            continue
        raise Failed("the comparison accepted a mutated kernel_trace.csv")
    # A run without records (copies traced, none made) is still an archive OTF2 reads.
    empty = os.path.join(a.work, "empty")
    run([a.rocprofv3, "--memory-copy-trace", "-f", "otf2", "-d", empty, "-o", "run", "--",
         a.program])
    nothing = Archive(a.otf2_print, os.path.join(empty, "run_results.otf2"))
    check(len(nothing.groups) == 1 and not nothing.pairs,
          f"empty run: {nothing.groups}, {dict(nothing.pairs)}")
    print(f"check_otf2: kernels: {len(dispatches)} dispatches on {len(queues)} queues and "
          f"{len(copies)} copies, as in the CSV files")


def case_markers(a):
    """Markers (ranges, marks) and the kernels they enclose: markers on thread locations."""
    out = os.path.join(a.work, "out")
    run([a.rocprofv3, "--marker-trace", "--kernel-trace", "-f", "csv", "otf2", "-d", out, "-o",
         "run", "--", a.marker_program, "--truth", os.path.join(a.work, "truth.json")])
    markers = rows(os.path.join(out, "run_marker_api_trace.csv"))
    dispatches = rows(os.path.join(out, "run_kernel_trace.csv"))
    check(markers, "no rows in marker_api_trace.csv")
    arch = Archive(a.otf2_print, os.path.join(out, "run_results.otf2"))
    same(markers_of(markers), arch.intervals(is_thread), "markers on thread locations")
    same(kernels_of(dispatches), arch.intervals(is_queue), "kernel dispatches on queue locations")
    threads = {r["Thread_Id"] for r in markers}
    names = {loc["name"] for loc in arch.locations.values() if is_thread(loc)}
    for t in threads:
        check(any(n.startswith(f"Thread {t}") for n in names) or "Process ranges" in str(names),
              f"no location for thread {t} among {sorted(names)}")
    print(f"check_otf2: markers: {len(markers)} marker rows on {len(threads)} threads and "
          f"{len(dispatches)} dispatches, as in the CSV files")


def case_counters(a):
    """Counter values (--pmc) as Metric events on the agent's metric location, equal to the rows
    of counter_collection.csv; under kernel replay, one event per pass with that pass's group."""
    out = os.path.join(a.work, "out")
    run([a.rocprofv3, "--kernel-trace", "--pmc", "WORK_ITEMS", "WORKGROUPS", "-f", "csv", "otf2",
         "-d", out, "-o", "run", "--", a.program])
    values = rows(os.path.join(out, "run_counter_collection.csv"))
    check(len(values) == 2 * 9, f"{len(values)} rows in counter_collection.csv, expected 18")
    arch = Archive(a.otf2_print, os.path.join(out, "run_results.otf2"))
    same(counters_of(values), arch.counter_values(is_counters), "counter values")
    same(kernels_of(rows(os.path.join(out, "run_kernel_trace.csv"))), arch.intervals(is_queue),
         "kernel dispatches beside the counters")
    # Not vacuous: a value off by one is caught.
    changed = [dict(values[0], Counter_Value=str(float(values[0]["Counter_Value"]) + 1))]
    try:
        same(counters_of(changed + values[1:]), arch.counter_values(is_counters), "mutated")
    except Failed:
        pass
    else:
        raise Failed("the comparison accepted a changed counter value")
    # Kernel replay, two groups: each pass's record is an event with its own group's values.
    replay = os.path.join(a.work, "replay")
    run([a.rocprofv3, "--pmc", "WORK_ITEMS", "WORKGROUPS", "--pmc", "DURATION_NS", "--replay-mode",
         "kernel", "--kernel-replay-beta-enabled", "-f", "csv", "otf2", "-d", replay, "-o", "run",
         "--", a.program])
    replayed = rows(os.path.join(replay, "run_counter_collection.csv"))
    names = {r["Counter_Name"] for r in replayed}
    check(names == {"WORK_ITEMS", "WORKGROUPS", "DURATION_NS"}, f"replayed counters {names}")
    arch = Archive(a.otf2_print, os.path.join(replay, "run_results.otf2"))
    same(counters_of(replayed), arch.counter_values(is_counters), "replayed counter values")
    print(f"check_otf2: counters: {len(values)} values, then {len(replayed)} under kernel replay, "
          f"as in counter_collection.csv")


def case_rocpd_convert_counters(a):
    """rocpd convert -f otf2 of databases with counters: the same Metric events rocprofv3 writes."""
    runs = os.path.join(a.work, "runs")
    dbs = []
    for rank in (0, 1):
        run([a.rocprofv3, "--kernel-trace", "--pmc", "WORK_ITEMS", "WORKGROUPS", "-f", "csv",
             "rocpd", "-d", runs, "-o", f"rank_{rank}", "--", a.program],
            env={"OMPI_COMM_WORLD_RANK": str(rank), "OMPI_COMM_WORLD_SIZE": "2"})
        dbs.append(os.path.join(runs, f"rank_{rank}_results.db"))
    conv = os.path.join(a.work, "conv")
    run([a.rocpd, "convert", "-i"] + dbs + ["-f", "otf2", "-d", conv, "-o", "job"])
    arch = Archive(a.otf2_print, os.path.join(conv, "job_results.otf2"))
    for rank in (0, 1):
        groups = [g for g, info in arch.groups.items() if f"rank {rank}," in info["name"]]
        check(len(groups) == 1, f"rank {rank}: groups {arch.groups}")
        values = rows(os.path.join(runs, f"rank_{rank}_counter_collection.csv"))
        check(values, f"rank {rank}: no counter rows")
        same(counters_of(values),
             arch.counter_values(lambda l, g=groups[0]: l["group"] == g and is_counters(l)),
             f"rank {rank}: counter values")
    print("check_otf2: rocpd_convert_counters: both processes' counter values, as their CSV files")


def case_in_the_way(a):
    """The archive's folder name taken by a file: OTF2 fails, says why, the CSV files are whole."""
    out = os.path.join(a.work, "out")
    os.makedirs(out)
    blocker = os.path.join(out, "run_results")
    with open(blocker, "w") as f:
        f.write("not an archive folder\n")
    p = run([a.rocprofv3, "--kernel-trace", "-f", "csv", "otf2", "-d", out, "-o", "run", "--",
             a.program], expect_rc=4)
    check("could not write the OTF2 archive" in p.stderr and "in the way" in p.stderr,
          f"no clear OTF2 error in stderr: {p.stderr[-2000:]}")
    check(open(blocker).read() == "not an archive folder\n", "the file in the way was changed")
    check(not os.path.exists(os.path.join(out, "run_results.otf2")), "a partial archive was left")
    left = [n for n in os.listdir(out) if "otf2-partial" in n]
    check(not left, f"staging folders left: {left}")
    dispatches = rows(os.path.join(out, "run_kernel_trace.csv"))
    check(len(dispatches) == 9, f"{len(dispatches)} rows in kernel_trace.csv, expected 9")
    print("check_otf2: in_the_way: exit 4, the OTF2 error named, kernel_trace.csv whole")


def produce_two_runs(a):
    dbs = []
    for rank in (0, 1):
        out = os.path.join(a.work, "runs")
        run([a.rocprofv3, "--kernel-trace", "--memory-copy-trace", "-f", "csv", "rocpd", "-d",
             out, "-o", f"rank_{rank}", "--", a.program, "--copies"],
            env={"OMPI_COMM_WORLD_RANK": str(rank), "OMPI_COMM_WORLD_SIZE": "2"})
        dbs.append(os.path.join(out, f"rank_{rank}_results.db"))
    return dbs


def case_rocpd_convert(a):
    """rocpd convert -f csv otf2 over two databases: one archive, one process per database."""
    dbs = produce_two_runs(a)
    conv = os.path.join(a.work, "conv")
    p = run([a.rocpd, "convert", "-i"] + dbs + ["-f", "csv", "otf2", "-d", conv, "-o", "job"])
    check("job_results.otf2" in p.stderr, f"rocpd did not say what it wrote: {p.stderr}")
    arch = Archive(a.otf2_print, os.path.join(conv, "job_results.otf2"))
    check(len(arch.groups) == 2, f"{len(arch.groups)} location groups, expected 2")
    host = os.uname().nodename
    for rank in (0, 1):
        groups = [g for g, info in arch.groups.items() if f"rank {rank}," in info["name"]]
        check(len(groups) == 1, f"rank {rank}: groups {arch.groups}")
        g = groups[0]
        check(f"host {host}" in arch.groups[g]["name"] and arch.groups[g]["parent"] == host,
              f"rank {rank}: host missing in {arch.groups[g]}")
        runs = os.path.join(a.work, "runs")
        dispatches = rows(os.path.join(runs, f"rank_{rank}_kernel_trace.csv"))
        copies = rows(os.path.join(runs, f"rank_{rank}_memory_copy_trace.csv"))
        check(len(dispatches) == 9, f"rank {rank}: {len(dispatches)} dispatches, expected 9")
        same(kernels_of(dispatches), arch.intervals(lambda l: l["group"] == g and is_queue(l)),
             f"rank {rank}: kernel dispatches")
        same(copies_of(copies), arch.intervals(lambda l: l["group"] == g and is_copy(l)),
             f"rank {rank}: memory copies")
        # The CSV files of the same conversion are there too.
        converted = rows(os.path.join(conv, f"job_rank_{rank}_results_kernel_trace.csv"))
        check(len(converted) == 9, f"rank {rank}: {len(converted)} converted CSV rows")
    # rocpd2otf2 is rocpd convert -f otf2: one database, one process.
    out = os.path.join(a.work, "single")
    run([os.path.join(os.path.dirname(a.rocpd), "rocpd2otf2"), "-i", dbs[0], "-d", out, "-o",
         "one"])
    one = Archive(a.otf2_print, os.path.join(out, "one_results.otf2"))
    check(len(one.groups) == 1, f"{len(one.groups)} groups for one database")
    check(not [n for n in os.listdir(out) if n.endswith(".csv")], "rocpd2otf2 wrote CSV files")
    print("check_otf2: rocpd_convert: two processes (rank 0, rank 1) with every dispatch and copy")


def case_rocpd_convert_errors(a):
    """Bad output places for rocpd convert -f otf2: clear errors, the CSV files still written."""
    dbs = produce_two_runs(a)
    a_file = os.path.join(a.work, "a_file")
    with open(a_file, "w") as f:
        f.write("x\n")
    p = run([a.rocpd, "convert", "-i"] + dbs + ["-f", "otf2", "-d", a_file], expect_rc=6)
    check("cannot create the folder" in p.stderr, f"-d a file: {p.stderr}")
    conv = os.path.join(a.work, "conv")
    os.makedirs(conv)
    blocker = os.path.join(conv, "job_results")
    with open(blocker, "w") as f:
        f.write("x\n")
    p = run([a.rocpd, "convert", "-i"] + dbs + ["-f", "csv", "otf2", "-d", conv, "-o", "job"],
            expect_rc=6)
    check("could not write the OTF2 archive" in p.stderr and "in the way" in p.stderr,
          f"archive folder taken: {p.stderr}")
    for rank in (0, 1):
        converted = rows(os.path.join(conv, f"job_rank_{rank}_results_kernel_trace.csv"))
        check(len(converted) == 9, f"rank {rank}: CSV not written beside the failed archive")
    check(not os.path.exists(os.path.join(conv, "job_results.otf2")), "partial archive left")
    p = run([a.rocpd, "convert", "-i", dbs[0], "-f", "otf2", "json"], expect_rc=1)
    check("no conversion to json" in p.stderr, f"-f json: {p.stderr}")
    print("check_otf2: rocpd_convert_errors: -d a file, the archive's place taken, clear errors")


def case_not_built(a):
    """A build without OTF2: -f otf2 is refused before the application runs (exit 2)."""
    marker = os.path.join(a.work, "ran")
    p = run([a.rocprofv3, "--kernel-trace", "-f", "csv", "otf2", "-d", a.work, "--", a.program,
             "--marker", marker], expect_rc=2)
    check("built without OTF2 support" in p.stderr, f"stderr: {p.stderr}")
    check(not os.path.exists(marker), "the application ran")
    print("check_otf2: not_built: -f otf2 refused with exit 2, the application not run")


CASES = {
    "kernels": case_kernels,
    "markers": case_markers,
    "counters": case_counters,
    "in_the_way": case_in_the_way,
    "rocpd_convert_counters": case_rocpd_convert_counters,
    "rocpd_convert": case_rocpd_convert,
    "rocpd_convert_errors": case_rocpd_convert_errors,
    "not_built": case_not_built,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("--work", required=True)
    parser.add_argument("--rocprofv3", required=True)
    parser.add_argument("--rocpd", default="")
    parser.add_argument("--program", required=True)
    parser.add_argument("--marker-program", default="")
    parser.add_argument("--otf2-print", default="")
    parser.add_argument("--otf2-built", choices=["ON", "OFF"], required=True)
    a = parser.parse_args()
    if a.otf2_print in ("", "OTF2_PRINT-NOTFOUND") or "NOTFOUND" in a.otf2_print:
        a.otf2_print = shutil.which("otf2-print") or ""
    built = a.otf2_built == "ON"
    if a.case != "not_built":
        if not built and not a.otf2_print:
            print("check_otf2: SKIPPED: this build has no OTF2 (libotf2-trace-dev was not found "
                  "when it was configured) and otf2-print (otf2-tools) is not installed; "
                  "scripts/install-deps.sh installs both")
            return SKIP
        if not built:
            print("check_otf2: FAIL: otf2-print is installed but this build has no OTF2: install "
                  "libotf2-trace-dev and reconfigure", file=sys.stderr)
            return 1
        if not a.otf2_print:
            print("check_otf2: FAIL: otf2-print missing (install otf2-tools): the archive cannot "
                  "be checked", file=sys.stderr)
            return 1
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    try:
        CASES[a.case](a)
    except Failed as e:
        print(f"check_otf2: FAIL: {a.case}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
