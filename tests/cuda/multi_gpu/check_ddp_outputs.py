# Checks what rocprofv3 wrote for the ranks of ddp_step.py, run as
#   rocprofv3 --pmc smsp__inst_executed.sum --pmc lts__t_sector_hit_rate.pct --replay-mode kernel
#             --kernel-replay-beta-enabled --kernel-trace --output-format csv json -d <dir>
#             -- python3 ddp_step.py run <rank_dir>
# with ROCPROFILER_LOG_LEVEL=debug and DDP_RANK_STDERR=1 (each rank's SDK log in
# <rank_dir>/rank<r>.stderr). Usage:
#   python3 check_ddp_outputs.py <dir>/<host> <rank_dir> <world_size>
# Per rank (its pid from <rank_dir>/rank<r>.json):
# - its own files: <pid>_results.json, _kernel_trace.csv, _counter_collection.csv, _agent_info.csv
#   (no -o: AMD's default prefix %hostname%/%pid%, so the files are in <dir>/<host>); distinct
#   pids; nothing overwritten: results.json's pid,
#   and every counter row's Process_Id, is the rank's pid; the CSV row counts equal the JSON's;
# - every dispatch on the rank's GPU (agent logical_node_type_id = rank);
# - NCCL kernels ran once (one trace row, one counter record: pass 0, group 1) and each has a
#   `[kernel-replay] ... outcome=declined reason=collective_kernel` line; none was replayed;
# - every other kernel was replayed: 2 trace rows, pass 0 = group 1, pass 1 = group 2;
# - no `agent_drain_stuck` decline (a drain that waited on a collective until the timeout);
# - ranks saw about as many dispatches as each other.
# Prints RESULT multi_gpu_ddp_* and FAIL lines; exits 1 on a failure.
import csv
import json
import os
import re
import sys

# The --pmc groups of run_ddp_test.sh: the L2 hit rate takes two CUPTI passes by itself, so every
# compute dispatch is replayed whatever plan rocprofv3 makes (kernel_replay_plan in results.json).
GROUPS = ["smsp__inst_executed.sum", "lts__t_sector_hit_rate.pct"]
NCCL = re.compile(r"^(void )?nccl")
LINE = re.compile(r"\[kernel-replay\] dispatch_id=(\d+) kernel=(.*) passes=(\d+) outcome=(\w+) reason=(\S+)")

failures = []


def fail(message):
    print(f"FAIL: {message}")
    failures.append(message)


def result(key, value):
    print(f"RESULT multi_gpu_ddp_{key}={value}")


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def check_rank(out_dir, rank_dir, rank, info):
    pid = str(info["pid"])
    tag = f"rank{rank}"
    paths = {s: os.path.join(out_dir, f"{pid}_{s}") for s in
             ("results.json", "kernel_trace.csv", "counter_collection.csv", "agent_info.csv")}
    missing = [p for p in paths.values() if not os.path.exists(p)]
    for p in missing:
        fail(f"{tag} (pid {pid}) wrote no {os.path.basename(p)}")
    if missing:
        return None

    with open(paths["results.json"]) as f:
        tool = json.load(f)["rocprofiler-sdk-tool"][0]
    if str(tool["metadata"]["pid"]) != pid:
        fail(f"{tag}: {pid}_results.json holds pid {tool['metadata']['pid']}: overwritten by another process")
    trace = read_csv(paths["kernel_trace.csv"])
    counters = read_csv(paths["counter_collection.csv"])
    foreign = sorted({r["Process_Id"] for r in counters if r["Process_Id"] != pid})
    if foreign:
        fail(f"{tag}: {pid}_counter_collection.csv has rows of processes {foreign}: overwritten")
    json_dispatches = tool["buffer_records"]["kernel_dispatch"]
    json_counters = tool["callback_records"]["counter_collection"]
    json_counter_rows = sum(len(r["records"]) for r in json_counters)
    if len(trace) != len(json_dispatches):
        fail(f"{tag}: kernel_trace.csv has {len(trace)} rows, results.json {len(json_dispatches)} dispatch records")
    if len(counters) != json_counter_rows:
        fail(f"{tag}: counter_collection.csv has {len(counters)} rows, results.json {json_counter_rows} values")
    if not trace:
        fail(f"{tag}: no kernel dispatch was traced")

    gpu_of = {a["id"]["handle"]: a.get("logical_node_type_id") for a in tool["agents"] if a.get("type") == "GPU"}
    names = {int(k): v["kernel_name"] for k, v in tool["kernel_symbols"].items()}
    counter_names = {c["id"]["handle"]: c["name"] for c in tool["counters"]}

    rows = {}  # dispatch id -> trace rows
    for r in trace:
        rows.setdefault(int(r["Dispatch_Id"]), []).append(r)
    wrong_agent = sum(1 for r in json_dispatches
                      if gpu_of.get(r["dispatch_info"]["agent_id"]["handle"]) != info["device"])
    if wrong_agent:
        fail(f"{tag}: {wrong_agent} dispatches not on GPU {info['device']}")

    passes = {}  # dispatch id -> {pass: [counter names]}
    for r in json_counters:
        did = r["dispatch_data"]["dispatch_info"]["dispatch_id"]
        p = r.get("replay_pass", -1)
        passes.setdefault(did, {}).setdefault(p, []).extend(
            counter_names.get(v["counter_id"]["handle"], "?") for v in r["records"])

    lines = {}
    stderr_path = os.path.join(rank_dir, f"rank{rank}.stderr")
    if os.path.exists(stderr_path):
        with open(stderr_path, errors="replace") as f:
            for line in f:
                m = LINE.search(line)
                if m:
                    lines[int(m.group(1))] = (m.group(2), int(m.group(3)), m.group(4), m.group(5))
    else:
        fail(f"{tag}: no {stderr_path} (the SDK's log of this rank)")
    reasons = {}
    for _, _, outcome, reason in lines.values():
        key = f"{outcome}:{reason}"
        reasons[key] = reasons.get(key, 0) + 1
    result(f"{tag}_log_outcomes", ",".join(f"{k}x{v}" for k, v in sorted(reasons.items())) or "none")
    if any(r == "agent_drain_stuck" for _, _, _, r in lines.values()):
        fail(f"{tag}: a replay was declined with agent_drain_stuck (a drain waited until the timeout)")

    # rocprofv3's plan for this rank's GPU: the passes of each replayed dispatch, and the counters
    # each pass's record reports (a group of several passes, or one configuration of all groups,
    # is reported by its first pass only).
    planned, expected = 0, {}
    for p in tool.get("kernel_replay_plan", []):
        if gpu_of.get(p["agent_id"]["handle"]) != info["device"]:
            continue
        planned = p["passes"]
        for i, step in enumerate(p["pass_plan"]):
            if step["reports_groups"]:
                expected[i] = [name for g in step["reports_groups"] for name in p["groups"][g]]
    result(f"{tag}_planned_passes", planned)
    if planned < 2:
        fail(f"{tag}: rocprofv3 planned {planned} passes per dispatch; the L2 hit rate needs 2")
    if sorted(n for names in expected.values() for n in names) != sorted(GROUPS):
        fail(f"{tag}: the plan reports {expected}, not each of {GROUPS} once")

    nccl, compute_replayed, compute_once, bad_rows, bad_groups = [], 0, [], [], []
    for did, rs in sorted(rows.items()):
        name = rs[0]["Kernel_Name"] or names.get(int(rs[0]["Kernel_Id"]), "")
        if NCCL.match(name):
            nccl.append(did)
            if len(rs) != 1:
                fail(f"{tag}: NCCL kernel {name} (dispatch {did}) has {len(rs)} trace rows: it was replayed")
            # It ran once, in pass 0's configuration: values only where that takes one pass.
            if passes.get(did, {}) and passes[did] != {0: expected.get(0)}:
                bad_groups.append(f"{did}:{passes[did]}")
            seen = lines.get(did)
            if seen is None or seen[2] != "declined" or seen[3] != "collective_kernel":
                fail(f"{tag}: NCCL dispatch {did} ({name}) has no 'outcome=declined reason=collective_kernel' "
                     f"line (got {seen})")
            continue
        if len(rs) == planned and planned >= 2:
            compute_replayed += 1
            if passes.get(did) != expected:
                bad_groups.append(f"{did}:{passes.get(did)}")
        elif len(rs) == 1:
            compute_once.append((did, name, lines.get(did, ("", 1, "?", "no log line"))[3]))
        else:
            bad_rows.append(f"{did}:{len(rs)}")
    # A kernel that reads pinned host memory (PyTorch's batched cat passes its metadata that way)
    # is declined with untracked_memory by design (REPLAY_RULES: no silent wrong replay); any
    # other reason is a failure.
    host_declined = [c for c in compute_once if c[2] == "untracked_memory"]
    compute_once = [c for c in compute_once if c[2] != "untracked_memory"]
    if host_declined:
        print(f"RESULT multi_gpu_ddp_{tag}_declined_untracked_memory={len(host_declined)}")
    if compute_once:
        fail(f"{tag}: {len(compute_once)} compute kernels were not replayed: " +
             "; ".join(f"{d} {n[:60]} ({r})" for d, n, r in compute_once[:5]))
    if bad_rows:
        fail(f"{tag}: dispatches with neither 1 nor {planned} trace rows: {bad_rows[:8]}")
    if bad_groups:
        fail(f"{tag}: {len(bad_groups)} dispatches whose records do not report what the plan says ({expected}): {bad_groups[:4]}")
    if compute_replayed == 0:
        fail(f"{tag}: no compute kernel was replayed")
    replayed_nccl = [d for d, (n, p, o, _) in lines.items() if NCCL.match(n) and o == "replayed"]
    if replayed_nccl:
        fail(f"{tag}: NCCL kernels replayed per the log: {replayed_nccl[:8]}")
    result(f"{tag}_pid", pid)
    result(f"{tag}_trace_rows", len(trace))
    result(f"{tag}_counter_rows", len(counters))
    result(f"{tag}_compute_replayed", compute_replayed)
    result(f"{tag}_nccl_dispatches", len(nccl))
    result(f"{tag}_collective_declined_lines",
           sum(1 for _, _, o, r in lines.values() if o == "declined" and r == "collective_kernel"))
    return {"compute": compute_replayed + len(compute_once), "nccl": len(nccl)}


def main(out_dir, rank_dir, world_size):
    infos = []
    for rank in range(world_size):
        path = os.path.join(rank_dir, f"rank{rank}.json")
        if not os.path.exists(path):
            fail(f"rank {rank} wrote no {path}")
            continue
        with open(path) as f:
            infos.append((rank, json.load(f)))
    pids = [str(i["pid"]) for _, i in infos]
    if len(set(pids)) != len(pids):
        fail(f"ranks share a process id: {pids}")
    files = sorted(os.listdir(out_dir)) if os.path.isdir(out_dir) else []
    prefixes = sorted({f.split("_", 1)[0] for f in files if "_" in f})
    result("output_prefixes", ",".join(prefixes) or "none")
    others = [p for p in prefixes if p not in pids]
    for p in others:  # the launcher (mp.spawn's parent) runs under rocprofv3 too
        path = os.path.join(out_dir, f"{p}_results.json")
        count = "?"
        if os.path.exists(path):
            with open(path) as f:
                count = len(json.load(f)["rocprofiler-sdk-tool"][0]["buffer_records"]["kernel_dispatch"])
        result(f"other_process_{p}_dispatches", count)
    seen = {}
    for rank, info in infos:
        seen[rank] = check_rank(out_dir, rank_dir, rank, info)
    counts = [s["compute"] for s in seen.values() if s]
    if len(counts) > 1 and min(counts) < 0.9 * max(counts):
        fail(f"ranks saw implausibly different numbers of compute dispatches: {counts}")
    if world_size > 1:
        for rank, s in seen.items():
            if s and s["nccl"] == 0:
                fail(f"rank{rank}: no NCCL kernel was seen, so the collective check did not run")
        result("variant_checks", "compute_replayed,nccl_declined_once,no_hang,bit_identical,per_process_files")
    else:
        nccl = sum(s["nccl"] for s in seen.values() if s)
        print("NOTE: world size 1 (one GPU): NCCL with one rank launched "
              f"{nccl} nccl* kernels; this variant shows compute kernels replayed under an NCCL "
              "process group, no hang, results bit-identical and the process's own files; the "
              "decline of collectives and two processes writing outputs at once need 2 GPUs")
        result("variant_checks", "compute_replayed,no_hang,bit_identical,per_process_files" +
               (",nccl_declined_once" if nccl else ""))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print("usage: check_ddp_outputs.py <rocprofv3 dir> <rank dir> <world size>", file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
