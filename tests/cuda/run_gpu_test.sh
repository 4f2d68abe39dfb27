#!/usr/bin/env bash
# Runs one GPU test program under the SDK (LD_PRELOAD) with test-tool-cuda, then validates.
# Usage: run_gpu_test.sh <name> <runtime|driver|trace|none> <passes> <program> [args...]
# Environment (set by CTest): SDK_LIBRARY, TEST_TOOL, VALIDATOR; GPU_TEST_OUTPUT_DIR (optional).
set -u
name="$1" mode="$2" passes="$3"
shift 3
out="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/${name}"
mkdir -p "${out}"
rm -f "${out}/tool.json" "${out}/program.json"
tool="${TEST_TOOL}"
[ "${mode}" = "none" ] && tool=""
start=$(date +%s%N)
env LD_PRELOAD="${SDK_LIBRARY:-}" ROCP_TOOL_LIBRARIES="${tool}" TEST_TOOL_OUTPUT="${out}/tool.json" \
    PROGRAM_OUTPUT="${out}/program.json" TEST_REPLAY_PASSES="${passes}" "$@" \
    >"${out}/stdout" 2>"${out}/stderr"
rc=$?
end=$(date +%s%N)
cat "${out}/stdout"
grep -v -E '^\[rocprofiler-sdk\]\[debug\]|^\[cuda-timing\]' "${out}/stderr" | head -40
echo "RESULT wall_ms=$(((end - start) / 1000000))" | tee "${out}/validate.txt"
grep -E '^\[cuda-timing\] ' "${out}/stderr" | sed -E 's/^\[cuda-timing\] /RESULT timing /' |
    tee -a "${out}/validate.txt"
grep -q "kernel timestamps come from CUDA events" "${out}/stderr" &&
    echo "RESULT cupti=no (event timestamps)" | tee -a "${out}/validate.txt"
if [ ${rc} -ne 0 ]; then
    echo "FAIL: program exited with ${rc}" | tee -a "${out}/validate.txt"
    exit 1
fi
set -o pipefail
"${VALIDATOR}" "${mode}" "${out}/tool.json" "${out}/program.json" "${passes}" | tee -a "${out}/validate.txt"
rc=$?
if [ "${COMPARE_ONLY:-0}" = 1 ]; then
    echo "RESULT comparison_only validator_rc=${rc}" | tee -a "${out}/validate.txt"
    exit 0
fi
exit ${rc}
