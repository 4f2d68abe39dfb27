#!/usr/bin/env bash
# PC sampling on a CUDA agent (docs/pc_sampling.md): the hot-loop program under the SDK with
# pc-sampling-tool-cuda. Passes when the agent was sampled, every launch has samples, and the 8
# most sampled PCs (the loop's few instructions) hold at least 80% of them.
# Usage: run_pc_sampling_test.sh <sdk library> <tool> <program>
set -u
sdk="$1" tool="$2" program="$3"
dir="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/pc_sampling"
mkdir -p "${dir}"
out="$(env LD_PRELOAD="${sdk}" ROCP_TOOL_LIBRARIES="${tool}" "${program}" 2>&1)"
rc=$?
echo "${out}" | grep -v '^\[rocprofiler-sdk\]\[debug\]' | tail -20 | tee "${dir}/validate.txt"
[ ${rc} -eq 0 ] || { echo "FAIL: program exited with ${rc}"; exit 1; }
line="$(echo "${out}" | grep '^RESULT pc_sampling ')"
[ -n "${line}" ] || { echo "FAIL: no RESULT line from the tool"; exit 1; }
value() { echo "${line}" | sed -E "s/.* $1=([0-9.]+).*/\1/"; }
agents=$(value agents) samples=$(value samples) dispatches=$(value dispatches) top=$(value top8_fraction)
[ "${agents}" -ge 1 ] || { echo "FAIL: no agent offered stochastic PC sampling"; exit 1; }
[ "${samples}" -gt 0 ] || { echo "FAIL: no samples"; exit 1; }
[ "${dispatches}" -ge 3 ] || { echo "FAIL: samples of ${dispatches} dispatch(es), expected 3"; exit 1; }
awk -v t="${top}" 'BEGIN { exit !(t >= 0.8) }' || { echo "FAIL: top8_fraction=${top} < 0.8"; exit 1; }
echo "PASS"
