#!/usr/bin/env python3
"""Checks a rocprofv3 PC sampling run (host-trap samples of the host device).

  check_pc_sampling.py --dir DIR --prefix PREFIX --hot KERNEL [--min-share 0.5] [--json]

<prefix>_pc_sampling_host_trap.csv must have AMD's columns in AMD's order (then Code_Object_Id,
Code_Object_Offset), hold at least one sample, and every sample's Dispatch_Id and Correlation_Id
must be those of a dispatch of <prefix>_kernel_trace.csv. At least --min-share of the samples must
belong to the dispatches of KERNEL, and those must carry a code object and an offset inside the
kernel's function (below 4096 bytes: the loop is a few hundred). With --json, <prefix>_results.json
must hold the same samples in buffer_records.pc_sample_host_trap (upstream's key), in the same
order. Prints "check_pc_sampling: OK".
"""
import argparse
import csv
import json
import os
import sys

HEADER = [
    "Sample_Timestamp",
    "Exec_Mask",
    "Dispatch_Id",
    "Instruction",
    "Instruction_Comment",
    "Correlation_Id",
    "Code_Object_Id",
    "Code_Object_Offset",
]


def fail(message):
    print(f"check_pc_sampling: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--prefix", required=True)
    parser.add_argument("--hot", required=True)
    parser.add_argument("--min-share", type=float, default=0.5)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--dropped", action="store_true",
                        help="the run lost samples: results.json must count them")
    args = parser.parse_args()

    samples_path = os.path.join(args.dir, f"{args.prefix}_pc_sampling_host_trap.csv")
    trace_path = os.path.join(args.dir, f"{args.prefix}_kernel_trace.csv")
    for path in (samples_path, trace_path):
        if not os.path.exists(path):
            fail(f"{path} is missing")

    with open(trace_path, newline="") as f:
        trace = list(csv.DictReader(f))
    dispatches = {row["Dispatch_Id"]: row for row in trace}
    hot = {d for d, row in dispatches.items() if row["Kernel_Name"] == args.hot}
    if not hot:
        fail(f"no dispatch of {args.hot} in {trace_path}")

    with open(samples_path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header != HEADER:
            fail(f"header {header}, expected {HEADER}")
        rows = [dict(zip(header, row)) for row in reader]
    if not rows:
        fail("no sample")

    in_hot = 0
    for row in rows:
        if len(row) != len(HEADER):
            fail(f"row of {len(row)} fields: {row}")
        dispatch = dispatches.get(row["Dispatch_Id"])
        if dispatch is None:
            fail(f"sample of dispatch {row['Dispatch_Id']}, which the kernel trace does not have")
        if row["Correlation_Id"] != dispatch["Correlation_Id"]:
            fail(
                f"sample of dispatch {row['Dispatch_Id']} has correlation id "
                f"{row['Correlation_Id']}, the trace {dispatch['Correlation_Id']}"
            )
        if int(row["Exec_Mask"]) != 1:
            fail(f"exec mask {row['Exec_Mask']} (one work-item per worker: 1)")
        if row["Instruction"] or row["Instruction_Comment"]:
            fail("Instruction and Instruction_Comment are documented as empty")
        if row["Dispatch_Id"] in hot and int(row["Code_Object_Id"]) != 0:
            if int(row["Code_Object_Offset"]) >= 4096:
                fail(f"offset {row['Code_Object_Offset']} is outside {args.hot}'s loop")
            in_hot += 1
    if args.json:
        with open(os.path.join(args.dir, f"{args.prefix}_results.json")) as f:
            tool = json.load(f)["rocprofiler-sdk-tool"][0]
        samples = tool["buffer_records"]["pc_sample_host_trap"]
        if tool["buffer_records"]["pc_sample_stochastic"]:
            fail("stochastic samples in a host-trap run")
        if len(samples) != len(rows):
            fail(f"{len(samples)} samples in results.json, {len(rows)} in the CSV file")
        for s, row in zip(samples, rows):
            r = s["record"]
            got = (r["timestamp"], r["dispatch_id"], r["pc"]["code_object_id"], r["pc"]["code_object_offset"])
            want = tuple(int(row[k]) for k in ("Sample_Timestamp", "Dispatch_Id", "Code_Object_Id", "Code_Object_Offset"))
            if got != want or s["inst_index"] != -1:
                fail(f"results.json sample {s} differs from the CSV row {row}")
        dropped = tool["metadata"]["pc_samples_dropped"]
        if args.dropped and dropped == 0:
            fail("the run dropped samples but pc_samples_dropped is 0")
        if not args.dropped and dropped != 0:
            fail(f"pc_samples_dropped {dropped}")
    share = in_hot / len(rows)
    print(f"check_pc_sampling: {len(rows)} samples, {in_hot} inside {args.hot} ({share:.0%})")
    if share < args.min_share:
        fail(f"only {share:.0%} of the samples are inside {args.hot}")
    print("check_pc_sampling: OK")


if __name__ == "__main__":
    main()
