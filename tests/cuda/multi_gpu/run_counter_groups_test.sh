#!/usr/bin/env bash
# Agents with different counter group sets under rocprofv3 kernel replay: two --pmc groups, group
# 2's metric filtered out of one device (ROCPROFILER_CUDA_METRIC_FILTER_DEVICE<N>), and
# results.json's replay_pass fields checked per device.
#   filtered1 (two GPUs): device 0 collects both groups (pass i = group i), device 1 only group 1
#                         (one pass); the program's two threads run on devices 0 and 1 at once.
#   unfiltered (one GPU): no filter, both threads on device 0: every dispatch 2 passes, group i in
#                         pass i (what the one-GPU machine can run: a group whose metric no agent
#                         lists is an error of rocprofv3's counter check, so filtering group 2 out
#                         of the only GPU cannot be tested).
# Exits 77 (CTest SKIP) when the machine has too few GPUs.
# Usage: run_counter_groups_test.sh <name> <filtered1|unfiltered> <rocprofv3> <program>
# Environment (set by CTest): ROCPROF_TOOL_LIBRARY, ROCPROF_SDK_LIBRARY, MULTI_GPU_VALIDATOR;
# GPU_TEST_OUTPUT_DIR (optional); MULTI_GPU_TIMEOUT_S (default 300).
set -u
name="$1" mode="$2" rocprofv3="$3" program="$4"
out="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/${name}"
rm -rf "${out}" && mkdir -p "${out}"
v="${out}/validate.txt"
: >"${v}"
limit="${MULTI_GPU_TIMEOUT_S:-300}"
say() { echo "$*" | tee -a "${v}"; }

case "${mode}" in
filtered1) layout=two filtered=1 ;;
unfiltered) layout=one filtered="" ;;
*) echo "unknown mode ${mode}" >&2; exit 2 ;;
esac
# Every metric of the device except those of group 2 (ECMAScript, matched anywhere in the name).
filter='^(?!smsp__warps_launched)'

timeout -k 10 "${limit}" "${program}" run "${layout}" device "${out}/reference.bin" \
    "${out}/reference.json" >"${out}/reference.stdout" 2>"${out}/reference.stderr"
rc=$?
cat "${out}/reference.stdout"
if [ ${rc} -eq 77 ]; then
    say "RESULT multi_gpu_skipped=$(head -1 "${out}/reference.stdout" | tr ' ' '_')"
    exit 77
fi
if [ ${rc} -ne 0 ]; then
    tail -20 "${out}/reference.stderr"
    say "FAIL: the reference run (no profiler) exited with ${rc}"
    exit 1
fi

filter_env=()
[ -n "${filtered}" ] && filter_env=("ROCPROFILER_CUDA_METRIC_FILTER_DEVICE${filtered}=${filter}")
# What the devices list (for the log; the validator reads results.json).
env ${filter_env[@]+"${filter_env[@]}"} "${rocprofv3}" -L >"${out}/list.stdout" 2>"${out}/list.stderr"

start=$(date +%s%N)
env ${filter_env[@]+"${filter_env[@]}"} timeout -k 10 "${limit}" "${rocprofv3}" --pmc smsp__inst_executed.sum --pmc smsp__warps_launched.sum \
    --replay-mode kernel --kernel-replay-beta-enabled --output-format json -d "${out}/rocprof" -o run -- \
    "${program}" run "${layout}" device "${out}/profiled.bin" "${out}/profiled.json" \
    >"${out}/profiled.stdout" 2>"${out}/profiled.stderr"
rc=$?
end=$(date +%s%N)
cat "${out}/profiled.stdout"
grep -v -E '^\[rocprofiler-sdk\]\[debug\]' "${out}/profiled.stderr" | head -40
say "RESULT multi_gpu_wall_ms=$(((end - start) / 1000000))"
say "RESULT multi_gpu_filter=${filter_env[*]:-none}"
fail=0
if [ ${rc} -eq 124 ] || [ ${rc} -eq 137 ]; then
    say "FAIL: the profiled run did not finish within ${limit} s (hang)"
    exit 1
fi
if [ ${rc} -ne 0 ]; then
    grep -E '^FAIL|rocprofv3: error|\[rocprofv3\] error' "${out}/profiled.stderr" | head -10 | tee -a "${v}"
    say "FAIL: rocprofv3 exited with ${rc}"
    fail=1
fi
if cmp -s "${out}/reference.bin" "${out}/profiled.bin"; then
    say "RESULT multi_gpu_bit_identical=yes"
else
    say "FAIL: result bytes differ from the run without the profiler (multi_gpu_bit_identical=NO)"
    fail=1
fi
results="${out}/rocprof/run_results.json"
if [ ! -s "${results}" ]; then
    say "FAIL: rocprofv3 wrote no ${results}"
    exit 1
fi
set -o pipefail
if ! "${MULTI_GPU_VALIDATOR}" counters "${results}" "${out}/profiled.json" "${mode}" | tee -a "${v}"; then fail=1; fi
exit ${fail}
