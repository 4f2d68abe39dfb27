#!/usr/bin/env bash
# SPM on a CUDA agent (docs/cuda.md, *SPM*): the fixed-work program under the SDK with spm-tool-cuda.
# Passes when an agent offered SPM, every sampled dispatch delivered samples and one DISPATCH_END,
# no batch lost samples, and the median sampled total of the chosen `.sum` counter is within 5% of
# the median counted total of the same launch (the stated tolerance: the samples cover the kernel
# to about one interval, 20,000 cycles against a kernel of several milliseconds).
# Usage: run_spm_test.sh <sdk library> <tool> <program>
set -u
sdk="$1" tool="$2" program="$3"
dir="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/spm"
mkdir -p "${dir}"
out="$(env LD_PRELOAD="${sdk}" ROCP_TOOL_LIBRARIES="${tool}" "${program}" 2>&1)"
rc=$?
echo "${out}" | grep -v '^\[rocprofiler-sdk\]\[debug\]' | tail -30 | tee "${dir}/validate.txt"
[ ${rc} -eq 0 ] || { echo "FAIL: program exited with ${rc}"; exit 1; }
line="$(echo "${out}" | grep '^RESULT spm ')"
[ -n "${line}" ] || { echo "FAIL: no RESULT line from the tool"; exit 1; }
value() { echo "${line}" | sed -E "s/.* $1=([0-9.]+).*/\1/"; }
agents=$(value agents) sampled=$(value sampled) samples=$(value samples) loss=$(value data_loss)
ends=$(value ends) counted=$(value counted) ratio=$(value ratio)
[ "${agents}" -ge 1 ] || { echo "FAIL: no agent offered SPM"; exit 1; }
[ "${sampled}" -ge 3 ] || { echo "FAIL: ${sampled} sampled dispatch(es), expected 3"; exit 1; }
[ "${samples}" -gt 0 ] || { echo "FAIL: no samples"; exit 1; }
[ "${ends}" -eq "${sampled}" ] || { echo "FAIL: ${ends} DISPATCH_END for ${sampled} sampled dispatches"; exit 1; }
[ "${loss}" -eq 0 ] || { echo "FAIL: ${loss} batch(es) flagged DATA_LOSS"; exit 1; }
[ "${counted}" -ge 3 ] || { echo "FAIL: ${counted} counted dispatch(es), expected 3"; exit 1; }
awk -v r="${ratio}" 'BEGIN { exit !(r >= 0.95 && r <= 1.05) }' ||
    { echo "FAIL: sampled/counted ratio=${ratio} outside [0.95, 1.05]"; exit 1; }
echo "PASS"
