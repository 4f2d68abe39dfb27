#!/usr/bin/env bash
# CUDA graph kernels under rocprofv3 (cuda/tracing/graph_kernels.hpp):
#   trace   --kernel-trace of the graph program (a plain launch, then a graph of three captured
#           kernels launched twice): each kernel node is a row of kernel_trace.csv with its own
#           dispatch id, the three rows of one graph launch share its correlation id (the two
#           launches' differ, and differ from the plain launch's), grid and block as launched,
#           start before end; the program's result is right.
#   ids     the same with -f json rocpd: the 6 node dispatches carry graph_id and graph_node_id
#           (3 distinct nodes per launch), the plain launch none.
#   replay  the same under kernel replay (a multi-pass metric): the plain launch is replayed, each
#           graph launch is declined (reason=graph_launch in the SDK's log), the result is right.
#   counted --pmc smsp__warps_launched.sum --kernel-trace (one group: one application run, no
#           replay): CUPTI's kernel activity is off while dispatches are counted, so the graph's
#           nodes are neither traced nor counted; rocprofv3 says so (a warning at the first graph
#           launch, "2 of 2 CUDA graph launches" at exit), the plain launch is traced and counted,
#           the result is right. Under kernel replay (step replay) the same total is reported.
#   torch   torch.cuda.graph, captured once and replayed 5 times, under --kernel-trace: at least 5
#           correlation ids each with the same two or more kernels (skipped without PyTorch).
# Usage: run_graph_test.sh <rocprofv3> <graph program> <torch_graph.py>
# Environment (set by CTest): ROCPROF_TOOL_LIBRARY, ROCPROF_SDK_LIBRARY; GPU_TEST_OUTPUT_DIR.
set -u
rocprofv3="$1" program="$2" torch_script="$3"
out="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/graph_kernels"
rm -rf "${out}" && mkdir -p "${out}"
. "$(dirname "$0")/checks.sh"
export ROCPROFILER_LOG_LEVEL=warning PYTHONUNBUFFERED=1

profile() { # name, program..., after "--": rocprofv3 options come first
    local name="$1"
    shift
    local dir="${out}/${name}"
    mkdir -p "${dir}"
    local opts=()
    while [ "$1" != "--" ]; do opts+=("$1"); shift; done
    shift
    "${rocprofv3}" "${opts[@]}" -f csv -d "${dir}" -o run -- "$@" >"${dir}/stdout" 2>"${dir}/stderr"
    echo $?
}

# Groups kernel_trace.csv by correlation id; prints "rows= groups=<n> ..." facts for the checks.
summarize() { # csv, expected graph kernel names (comma-separated)
    python3 - "$1" "$2" <<'PY'
import csv, sys, collections
rows = list(csv.DictReader(open(sys.argv[1])))
want = set(sys.argv[2].split(",")) if sys.argv[2] else set()
def short(name):
    return name.split("(")[0].split(" ")[-1]
by_corr = collections.defaultdict(list)
for r in rows:
    by_corr[r["Correlation_Id"]].append(r)
ids = [r["Dispatch_Id"] for r in rows]
print(f"rows={len(rows)}")
print(f"unique_dispatch_ids={int(len(set(ids)) == len(ids))}")
print(f"start_before_end={int(all(int(r['Start_Timestamp']) < int(r['End_Timestamp']) for r in rows))}")
if want:
    groups = [g for g in by_corr.values() if {short(r['Kernel_Name']) for r in g} == want and len(g) == len(want)]
    print(f"graph_groups={len(groups)}")
    plain = [r for r in rows if short(r["Kernel_Name"]) == "graph_plain"]
    print(f"plain_rows={len(plain)}")
    other = int(all(r["Correlation_Id"] not in {g[0]["Correlation_Id"] for g in groups} for r in plain))
    print(f"plain_correlation_apart={other}")
    sizes = {(r["Grid_Size_X"], r["Workgroup_Size_X"]) for g in groups for r in g}
    print("grid_block=" + ";".join(sorted(f"{a}/{b}" for a, b in sizes)))
else:
    multi = collections.Counter(tuple(sorted(short(r["Kernel_Name"]) for r in g)) for g in by_corr.values() if len(g) >= 2)
    print(f"repeated_groups={max(multi.values()) if multi else 0}")
    print(f"group_size={max((len(k) for k in multi), default=0)}")
PY
}

# trace
rc=$(profile trace --kernel-trace -- "${program}")
show_run "${out}/trace" 10
check "[ ${rc} -eq 0 ]" "trace: rocprofv3 exited with ${rc}"
check "grep -q 'RESULT wrong_elements=0' '${out}/trace/stdout'" "trace: the program's results"
csv="${out}/trace/run_kernel_trace.csv"
check "[ -s '${csv}' ]" "trace: no ${csv}"
if [ -s "${csv}" ]; then
    facts=$(summarize "${csv}" graph_add,graph_scale,graph_sub)
    echo "${facts}"
    get() { sed -n "s/^$1=//p" <<<"${facts}"; }
    check "[ '$(get rows)' = 7 ]" "trace: $(get rows) kernel rows, expected 7 (1 plain + 2 launches x 3 nodes)"
    check "[ '$(get graph_groups)' = 2 ]" "trace: $(get graph_groups) graph launches with their 3 nodes under one correlation id, expected 2"
    check "[ '$(get plain_rows)' = 1 ]" "trace: the plain launch has $(get plain_rows) rows"
    check "[ '$(get plain_correlation_apart)' = 1 ]" "trace: the plain launch shares a graph launch's correlation id"
    check "[ '$(get unique_dispatch_ids)' = 1 ]" "trace: dispatch ids repeat"
    check "[ '$(get start_before_end)' = 1 ]" "trace: a row ends before it starts"
    check "[ '$(get grid_block)' = '65536/256' ]" "trace: grid/block of the nodes '$(get grid_block)', expected 65536/256"
    echo "RESULT graph_rows=$(get rows) graph_launch_groups=$(get graph_groups)" | tee -a "${out}/validate.txt"
fi

# ids: the same run with JSON and rocpd outputs; each graph node names its graph and node
# (experimental/graph.h), the plain launch names none.
dir="${out}/ids"
mkdir -p "${dir}"
"${rocprofv3}" --kernel-trace -f json rocpd pftrace -d "${dir}" -o run -- "${program}" >"${dir}/stdout" 2>"${dir}/stderr"
rc=$?
# A build without SQLite has no rocpd output (rocprofv3 says so, exit 1): the JSON part still runs,
# the rocpd part is reported as not built rather than failed.
with_rocpd=1
if [ ${rc} -ne 0 ] && grep -q "rocpd output was not built" "${dir}/stderr"; then
    with_rocpd=0
    "${rocprofv3}" --kernel-trace -f json pftrace -d "${dir}" -o run -- "${program}" >"${dir}/stdout" 2>"${dir}/stderr"
    rc=$?
fi
show_run "${dir}" 10
check "[ ${rc} -eq 0 ]" "ids: rocprofv3 exited with ${rc}"
ids=$(python3 - "${dir}/run_results.json" "${dir}/run_results.db" "${with_rocpd}" <<'PY'
import collections, json, sqlite3, sys
doc = json.load(open(sys.argv[1]))["rocprofiler-sdk-tool"][0]
recs = doc["buffer_records"]["kernel_dispatch"]
with_ids = [r for r in recs if "graph_id" in r["dispatch_info"]]
by_corr = collections.defaultdict(set)
for r in with_ids:
    by_corr[r["correlation_id"]["internal"]].add(r["dispatch_info"]["graph_node_id"])
print(f"json_graph_nodes={len(with_ids)} json_plain={len(recs) - len(with_ids)}"
      f" json_launches_with_3_nodes={sum(1 for v in by_corr.values() if len(v) == 3)}")
if sys.argv[3] == "1":
    db = sqlite3.connect(sys.argv[2])
    n = db.execute("SELECT count(*) FROM rocpd_kernel_dispatch WHERE json_extract(extdata, '$.graph_node_id') IS NOT NULL").fetchone()[0]
    print(f"rocpd_graph_nodes={n}")
PY
)
echo "${ids}"
idget() { sed -nE "s/.*$1=([0-9]+).*/\1/p" <<<"${ids}"; }
check "[ '$(idget json_graph_nodes)' = 6 ]" "ids: $(idget json_graph_nodes) JSON records with graph ids, expected 6"
check "[ '$(idget json_plain)' = 1 ]" "ids: $(idget json_plain) JSON records without graph ids, expected 1"
check "[ '$(idget json_launches_with_3_nodes)' = 2 ]" "ids: launches with 3 distinct node ids: $(idget json_launches_with_3_nodes), expected 2"
if [ ${with_rocpd} = 1 ]; then
    check "[ '$(idget rocpd_graph_nodes)' = 6 ]" "ids: $(idget rocpd_graph_nodes) rocpd rows with graph ids, expected 6"
    rocpd_ids=$(idget rocpd_graph_nodes)
else
    rocpd_ids=not_built
fi
# Perfetto: the slices' arguments name graph_id and graph_node_id (rocprofv3's own trace, and
# rocpd's conversion of the database when rocpd is built).
check "grep -aq graph_node_id '${dir}/run_results.pftrace'" "ids: run_results.pftrace has no graph_node_id argument"
pftrace_ids=$(grep -ac graph_node_id "${dir}/run_results.pftrace" 2>/dev/null)
rocpd_cli="$(dirname "${rocprofv3}")/rocpd"
if [ ${with_rocpd} = 1 ] && [ -x "${rocpd_cli}" ]; then
    "${rocpd_cli}" convert -i "${dir}/run_results.db" -f pftrace -d "${dir}/convert" -o job >"${dir}/convert.stdout" 2>"${dir}/convert.stderr"
    check "[ $? -eq 0 ]" "ids: rocpd convert -f pftrace failed: $(head -3 "${dir}/convert.stderr")"
    check "grep -aq graph_node_id ${dir}/convert/job*.pftrace" "ids: rocpd's Perfetto conversion has no graph_node_id argument"
fi
echo "RESULT graph_ids_json=$(idget json_graph_nodes) graph_ids_rocpd=${rocpd_ids} graph_ids_pftrace_lines=${pftrace_ids:-0}" | tee -a "${out}/validate.txt"

# replay
rc=$(profile replay --kernel-trace --pmc sm__throughput.avg.pct_of_peak_sustained_elapsed \
    --replay-mode kernel --kernel-replay-beta-enabled -- "${program}")
show_run "${out}/replay" 10
check "[ ${rc} -eq 0 ]" "replay: rocprofv3 exited with ${rc}"
check "grep -q 'RESULT wrong_elements=0' '${out}/replay/stdout'" "replay: the program's results"
check "grep -q 'reason=graph_launch' '${out}/replay/stderr'" "replay: no graph_launch decline in the log"
declined=$(grep -c 'reason=graph_launch' "${out}/replay/stderr")
check "grep -q '2 of 2 CUDA graph launches ran while' '${out}/replay/stderr'" \
    "replay: the graph launches whose nodes are not traced are not reported at exit"
echo "RESULT graph_replay_declined_lines=${declined}" | tee -a "${out}/validate.txt"

# counted: nothing lost silently while counting
rc=$(profile counted --kernel-trace --pmc smsp__warps_launched.sum -- "${program}")
show_run "${out}/counted" 10
check "[ ${rc} -eq 0 ]" "counted: rocprofv3 exited with ${rc}"
check "grep -q 'RESULT wrong_elements=0' '${out}/counted/stdout'" "counted: the program's results"
check "grep -q 'CUDA graph was launched while CUPTI' '${out}/counted/stderr'" \
    "counted: no warning at the first graph launch"
check "grep -q '2 of 2 CUDA graph launches ran while' '${out}/counted/stderr'" \
    "counted: the untraced graph launches are not reported at exit"
counted_rows=$(python3 -c 'import csv,sys; print(len(list(csv.DictReader(open(sys.argv[1])))))' \
    "${out}/counted/run_kernel_trace.csv" 2>/dev/null)
counter_rows=$(python3 -c 'import csv,sys; print(len(list(csv.DictReader(open(sys.argv[1])))))' \
    "${out}/counted/run_counter_collection.csv" 2>/dev/null)
check "[ '${counted_rows}' = 1 ]" "counted: ${counted_rows:-no} kernel rows, expected the plain launch's 1"
check "[ '${counter_rows}' = 1 ]" "counted: ${counter_rows:-no} counter rows, expected the plain launch's 1"
echo "RESULT graph_counted_kernel_rows=${counted_rows:-none} graph_counted_counter_rows=${counter_rows:-none}" | tee -a "${out}/validate.txt"

# torch.cuda.graph
rc=$(profile torch --kernel-trace -- python3 "${torch_script}")
if grep -q '^SKIP' "${out}/torch/stdout"; then
    echo "RESULT graph_torch=skipped ($(head -1 "${out}/torch/stdout"))" | tee -a "${out}/validate.txt"
else
    show_run "${out}/torch" 10
    check "[ ${rc} -eq 0 ]" "torch: rocprofv3 exited with ${rc}"
    check "grep -q 'RESULT torch_graph_equal=1' '${out}/torch/stdout'" "torch: the replayed graph's output"
    csv="${out}/torch/run_kernel_trace.csv"
    check "[ -s '${csv}' ]" "torch: no ${csv}"
    if [ -s "${csv}" ]; then
        facts=$(summarize "${csv}" "")
        echo "${facts}"
        repeated=$(sed -n 's/^repeated_groups=//p' <<<"${facts}")
        check "[ ${repeated:-0} -ge 5 ]" "torch: ${repeated:-0} graph launches with the same kernels, expected 5 replays"
        echo "RESULT graph_torch_replays_traced=${repeated:-0} graph_torch_$(grep '^group_size=' <<<"${facts}")" | tee -a "${out}/validate.txt"
    fi
fi
echo "RESULT failures=${fail}" | tee -a "${out}/validate.txt"
[ ${fail} -eq 0 ]
