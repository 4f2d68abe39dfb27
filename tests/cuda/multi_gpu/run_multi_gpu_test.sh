#!/usr/bin/env bash
# One process, two threads, kernel replay (multi-gpu-tool, N passes): runs cuda-multi-gpu-program
# without the SDK (reference), then under the SDK, compares the result bytes and validates the
# replay windows. Exits 77 (CTest SKIP) when the program says the machine cannot run the layout.
# Usage: run_multi_gpu_test.sh <name> <layout two|one> <memory device|managed|peer>
#                              <expect overlap|serial> <passes> <program>
# Environment (set by CTest): SDK_LIBRARY, MULTI_GPU_TOOL, MULTI_GPU_VALIDATOR;
# GPU_TEST_OUTPUT_DIR (optional); MULTI_GPU_TIMEOUT_S (default 300) bounds each run.
set -u
name="$1" layout="$2" memory="$3" expect="$4" passes="$5" program="$6"
out="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/${name}"
rm -rf "${out}" && mkdir -p "${out}"
v="${out}/validate.txt"
: >"${v}"
limit="${MULTI_GPU_TIMEOUT_S:-300}"
say() { echo "$*" | tee -a "${v}"; }

timeout -k 10 "${limit}" "${program}" run "${layout}" "${memory}" "${out}/reference.bin" \
    "${out}/reference.json" >"${out}/reference.stdout" 2>"${out}/reference.stderr"
rc=$?
cat "${out}/reference.stdout"
if [ ${rc} -eq 77 ]; then
    say "RESULT multi_gpu_skipped=$(head -1 "${out}/reference.stdout" | tr ' ' '_')"
    exit 77
fi
if [ ${rc} -ne 0 ]; then
    tail -20 "${out}/reference.stderr"
    say "FAIL: the reference run (no SDK) exited with ${rc}"
    exit 1
fi

start=$(date +%s%N)
env LD_PRELOAD="${SDK_LIBRARY}" ROCP_TOOL_LIBRARIES="${MULTI_GPU_TOOL}" \
    MULTI_GPU_TOOL_OUTPUT="${out}/tool.json" MULTI_GPU_PASSES="${passes}" \
    timeout -k 10 "${limit}" "${program}" run "${layout}" "${memory}" "${out}/profiled.bin" \
    "${out}/profiled.json" >"${out}/profiled.stdout" 2>"${out}/profiled.stderr"
rc=$?
end=$(date +%s%N)
cat "${out}/profiled.stdout"
grep -v -E '^\[rocprofiler-sdk\]\[debug\]|^\[cuda-timing\]' "${out}/profiled.stderr" | head -40
say "RESULT multi_gpu_wall_ms=$(((end - start) / 1000000))"
grep -E '^\[cuda-timing\] ' "${out}/profiled.stderr" | sed -E 's/^\[cuda-timing\] /RESULT timing /' |
    tee -a "${v}"
fail=0
if [ ${rc} -eq 124 ] || [ ${rc} -eq 137 ]; then
    say "FAIL: the profiled run did not finish within ${limit} s (hang)"
    exit 1
fi
if [ ${rc} -ne 0 ]; then
    grep '^FAIL' "${out}/profiled.stderr" | head -10 | tee -a "${v}"
    say "FAIL: the profiled run exited with ${rc}"
    fail=1
fi
if [ ! -s "${out}/tool.json" ]; then
    say "FAIL: multi-gpu-tool wrote no ${out}/tool.json"
    exit 1
fi
if cmp -s "${out}/reference.bin" "${out}/profiled.bin"; then
    say "RESULT multi_gpu_bit_identical=yes"
else
    say "FAIL: result bytes differ from the run without the SDK (multi_gpu_bit_identical=NO)"
    fail=1
fi
set -o pipefail
if ! "${MULTI_GPU_VALIDATOR}" windows "${out}/tool.json" "${out}/profiled.json" "${expect}" "${passes}" |
    tee -a "${v}"; then fail=1; fi
exit ${fail}
