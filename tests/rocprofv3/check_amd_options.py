#!/usr/bin/env python3
"""check_amd_options.py CLI PROGRAM WORK

Every option of AMD's rocprofv3 (inputs/amd_options.txt: its names, its kind, what this rocprofv3
does with it, sample arguments), run one after the other against the host program PROGRAM with
--kernel-trace -d <dir> -o run. Each either works (exit 0; the program ran and wrote its files,
or, for the options that print instead, did not run) or is answered "not supported on this
device" naming the option, with exit 2, before the program runs. Never a parser error. Then AMD's
boolean forms (a trace of -s turned off, unsupported traces turned off, bad booleans), --echo's
line, the placeholders AMD has and -o with sub-directories.
Prints "check_amd_options: OK" on success.
"""
import datetime
import glob
import os
import shutil
import subprocess
import sys

cli, program, work = [os.path.abspath(a) for a in sys.argv[1:4]]
here = os.path.dirname(os.path.abspath(__file__))
inputs = os.path.join(here, "inputs")
# CHECK_AMD_OPTIONS_CUDA=1: the same table on a machine with a CUDA GPU, PROGRAM a CUDA program
# that takes --marker (cuda.rocprofv3_amd_options): CUDA agents stay on, the counters are AMD's
# names that sm_90 and the host both have, PC sampling is CUPTI's stochastic method in cycles.
cuda = os.environ.get("CHECK_AMD_OPTIONS_CUDA") == "1"
env = dict(os.environ) if cuda else dict(os.environ, ROCPROFILER_CUDA_AGENTS="0")
CUDA_SAMPLES = {"WORK_ITEMS": "SQ_WAVES", "host_trap": "stochastic", "time": "cycles",
                "1000000": "65536", "^v": "^f"}
failures = []


def fail(message):
    failures.append(message)
    print("FAIL: " + message, flush=True)


def run(args, cwd=work, timeout=60):
    try:
        proc = subprocess.run([cli] + args, env=env, cwd=cwd, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    return proc


def read_table():
    rows = []
    with open(os.path.join(inputs, "amd_options.txt")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            names, kind, outcome, sample = (line.rstrip("\n").split("\t") + [""])[:4]
            rows.append((names.split(","), kind, outcome, [s for s in sample.split("|") if s]))
    return rows


shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
if cuda:
    with open(os.path.join(work, "counters.txt"), "w") as f:
        f.write("pmc: SQ_WAVES\npmc: SQ_WAVES GRBM_COUNT\n")

rows = read_table()
if len(rows) != 77:
    fail(f"inputs/amd_options.txt lists {len(rows)} options, AMD's rocprofv3 1.0.0 has 77")

for index, (names, kind, outcome, sample) in enumerate(rows, 1):
    name = names[-1] if names[-1].startswith("--") else names[0]
    where = os.path.join(work, f"{index:02d}{name.lstrip('-')}")
    os.makedirs(where)
    marker = os.path.join(where, "ran")
    sample = [s.replace("@INPUTS@", inputs).replace("@WORK@", where) for s in sample]
    if cuda:
        sample = [os.path.join(work, "counters.txt") if s == os.path.join(inputs, "counters.txt")
                  else CUDA_SAMPLES.get(s, s) for s in sample]
    base = ["--kernel-trace"]
    # CSV, which this check reads (rocpd is the default format).
    if name != "--output-format":
        base += ["-f", "csv"]
    if name != "--output-directory":
        base += ["-d", where]
    if name != "--output-file":
        base += ["-o", "run"]
    # The short spelling where AMD has one, so that both spellings are run across the table.
    given = names[0] if index % 2 == 0 else name
    args = base + [given] + sample + ["--", program, "--marker", marker]
    proc = run(args, cwd=where)
    what = " ".join([given] + sample)
    if proc is None:
        fail(f"{what}: no answer within 60 s")
        continue
    rc, err, out = proc.returncode, proc.stderr, proc.stdout
    ran = os.path.exists(marker)
    if rc in (1,) or rc >= 100 and rc < 126:
        fail(f"{what}: exit {rc}, a parser or usage error:\n{err[-1500:]}")
        continue
    if outcome == "unsupported":
        if rc != 2 or "not supported on this device" not in err or name not in err or ran:
            fail(f"{what}: expected exit 2 'not supported on this device' naming {name}, the "
                 f"program not run; got exit {rc}, ran={ran}:\n{err[-1500:]}")
        continue
    if rc != 0:
        fail(f"{what}: exit {rc}:\n{err[-1500:]}")
        continue
    if outcome == "norun":
        if ran:
            fail(f"{what}: the program ran")
        elif not out.strip():
            fail(f"{what}: printed nothing on stdout")
        continue
    # outcome "run": the program ran and its kernel trace is there (under the -d and -o given).
    traces = glob.glob(os.path.join(where, "**", "*_kernel_trace.csv"), recursive=True)
    if not ran or not traces:
        fail(f"{what}: ran={ran}, kernel traces {traces}:\n{err[-1500:]}")
print(f"check_amd_options: {len(rows)} options run", flush=True)


def case(title, args, expect_rc, cwd=None):
    where = os.path.join(work, title)
    os.makedirs(where, exist_ok=True)
    marker = os.path.join(where, "ran")
    full = [a.replace("@WORK@", where) for a in args]
    if "--" not in full:
        full += ["--", program, "--marker", marker]
    proc = run(full, cwd=cwd or where)
    if proc is None:
        fail(f"{title}: no answer within 60 s")
        return where, "", ""
    if proc.returncode != expect_rc:
        fail(f"{title}: exit {proc.returncode}, expected {expect_rc}:\n{proc.stderr[-1500:]}")
    return where, proc.stdout, proc.stderr


# -s with one trace turned off in AMD's forms, and traces this device lacks turned off (no error).
where, _, err = case("sys_trace_minus_copies",
                     ["-f", "csv", "-s", "--memory-copy-trace=False", "--scratch-memory-trace=False",
                      "--hip-trace", "no", "-d", "@WORK@", "-o", "run"], 0)
if not os.path.exists(os.path.join(where, "run_kernel_trace.csv")):
    fail("-s --memory-copy-trace=False: no kernel trace")
if glob.glob(os.path.join(where, "run_memory_copy_trace.csv")):
    fail("-s --memory-copy-trace=False: a memory copy trace was written")
# A value after a space; --stats=0 turns statistics off.
where, _, _ = case("space_and_zero", ["-f", "csv", "--kernel-trace", "true", "--stats=0", "-d", "@WORK@",
                                      "-o", "run"], 0)
if glob.glob(os.path.join(where, "run_kernel_stats.csv")):
    fail("--stats=0: statistics were written")
# A bad boolean: a usage error naming the option and the value, nothing run.
where, _, err = case("bad_boolean", ["--kernel-trace=maybe", "-d", "@WORK@"], 1)
if "--kernel-trace 'maybe' is not a boolean" not in err or os.path.exists(
        os.path.join(where, "ran")):
    fail(f"--kernel-trace=maybe: {err}")
# --echo: the command as AMD's prints it, nothing run, no output directory.
where, out, _ = case("echo", ["--kernel-trace", "--echo", "-d", "@WORK@/out", "--", program,
                              "it's", "a b"], 0)
expected = f"command: ['{program}', \"it's\", 'a b']\n"
if out != expected or os.path.exists(os.path.join(where, "out")):
    fail(f"--echo printed {out!r}, expected {expected!r}")

# AMD's placeholders: %cwd% (the program's working directory), %launch_date% (ROCPROF_DATE_FORMAT,
# %F by default), %argN%, %psize%; -o with sub-directories under -d.
before = datetime.date.today().isoformat()
where, _, err = case("placeholders", ["-f", "csv", "--kernel-trace", "-d", "%cwd%/out", "-o",
                                      "%launch_date%/%arg2%_%psize%/run", "--", program,
                                      "--exit-code", "0"], 0)
after = datetime.date.today().isoformat()
found = [p for day in {before, after}
         for p in glob.glob(os.path.join(where, "out", day, "0_[0-9]*", "run_kernel_trace.csv"))]
if len(found) != 1:
    fail(f"-d %cwd%/out -o %launch_date%/%arg2%_%psize%/run: {found}; files: "
         f"{glob.glob(os.path.join(where, '**'), recursive=True)}\n{err[-1500:]}")
# -o that leaves -d: an error before the run.
where, _, err = case("absolute_output_file", ["--kernel-trace", "-o", "/tmp/x"], 1)
if "is an absolute path" not in err or os.path.exists(os.path.join(where, "ran")):
    fail(f"-o /tmp/x: {err}")

# How the libraries are found: --readlink preloads a link's target, --realpath the canonical
# path; --sdk-soversion / --sdk-version name a library missing under its unversioned name.
links = os.path.join(work, "links")
os.makedirs(links)
sdk = os.path.realpath(os.path.join(os.path.dirname(os.path.dirname(cli)), "lib",
                                    "librocprofiler-sdk.so"))
os.symlink(sdk, os.path.join(links, "first.so"))
os.symlink("first.so", os.path.join(links, "second.so"))
os.symlink(sdk, os.path.join(links, "libsdk.so.7"))
os.symlink(sdk, os.path.join(links, "libsdk.so.7.1.2"))
show = ["--", "/bin/sh", "-c", 'echo "$LD_PRELOAD"']
for flag, library, expected in [([], "second.so", "second.so"),
                                (["--readlink"], "second.so", "first.so"),
                                (["--realpath"], "second.so", None),
                                (["--sdk-soversion", "7"], "libsdk.so", "libsdk.so.7"),
                                (["--sdk-version", "7.1.2"], "libsdk.so", "libsdk.so.7.1.2")]:
    env["ROCPROF_SDK_LIBRARY"] = os.path.join(links, library)
    proc = run(["--kernel-trace", "-d", os.path.join(links, "out")] + flag + show)
    del env["ROCPROF_SDK_LIBRARY"]
    want = sdk if expected is None else os.path.join(links, expected)
    if proc is None or proc.returncode != 0 or want not in proc.stdout.strip().split(":"):
        fail(f"{flag} {library}: expected {want} in LD_PRELOAD: "
             f"{proc and (proc.returncode, proc.stdout, proc.stderr[-800:])}")
env["ROCPROF_SDK_LIBRARY"] = os.path.join(links, "libsdk.so")
proc = run(["--kernel-trace", "--sdk-soversion", "8"] + show)
del env["ROCPROF_SDK_LIBRARY"]
if proc is None or proc.returncode != 2 or "libsdk.so.8' not found" not in proc.stderr:
    fail(f"--sdk-soversion 8: {proc and (proc.returncode, proc.stderr)}")

if failures:
    print(f"check_amd_options: {len(failures)} failures")
    sys.exit(1)
print("check_amd_options: OK")
