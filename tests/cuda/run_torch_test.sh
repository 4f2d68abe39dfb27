#!/usr/bin/env bash
# PyTorch under the SDK with test-tool-cuda replaying every kernel twice (N=2): the result bytes
# must be identical to a run without the profiler, and kernels must have been traced and replayed.
# Exits 77 (CTest SKIP) when PyTorch or CUDA is unavailable.
# Usage: run_torch_test.sh <program.py> [<test name, default pytorch_replay>]
# Environment (set by CTest): SDK_LIBRARY, TEST_TOOL, VALIDATOR; GPU_TEST_OUTPUT_DIR (optional).
set -u
script="$1"
name="${2:-pytorch_replay}"
out="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/${name}"
rm -rf "${out}" && mkdir -p "${out}"
python="${PYTHON:-python3}"
command -v "${python}" >/dev/null 2>&1 || { echo "SKIP: no ${python}"; exit 77; }
export PYTHONUNBUFFERED=1 CUBLAS_WORKSPACE_CONFIG=:4096:8
"${python}" "${script}" "${out}/reference.bin" >"${out}/reference.stdout" 2>"${out}/reference.stderr"
rc=$?
cat "${out}/reference.stdout"
if [ ${rc} -eq 77 ]; then exit 77; fi
if [ ${rc} -ne 0 ]; then
    tail -20 "${out}/reference.stderr"
    echo "FAIL: the reference run exited with ${rc}" | tee "${out}/validate.txt"
    exit 1
fi
start=$(date +%s%N)
env LD_PRELOAD="${SDK_LIBRARY}" ROCP_TOOL_LIBRARIES="${TEST_TOOL}" TEST_TOOL_OUTPUT="${out}/tool.json" \
    TEST_REPLAY_PASSES=2 TEST_REPLAY_SKIP= "${python}" "${script}" "${out}/profiled.bin" \
    >"${out}/stdout" 2>"${out}/stderr"
rc=$?
end=$(date +%s%N)
cat "${out}/stdout"
grep -v -E '^\[rocprofiler-sdk\]\[debug\]|^\[cuda-timing\]' "${out}/stderr" | head -30
echo "RESULT wall_ms=$(((end - start) / 1000000))" | tee "${out}/validate.txt"
grep -E '^\[cuda-timing\] ' "${out}/stderr" | sed -E 's/^\[cuda-timing\] /RESULT timing /' |
    tee -a "${out}/validate.txt"
fail=0
if [ ${rc} -ne 0 ]; then echo "FAIL: the profiled run exited with ${rc}" | tee -a "${out}/validate.txt"; fail=1; fi
if cmp -s "${out}/reference.bin" "${out}/profiled.bin"; then
    echo "RESULT bit_identical=yes" | tee -a "${out}/validate.txt"
else
    echo "FAIL: result differs from the run without the profiler (bit_identical=NO)" |
        tee -a "${out}/validate.txt"
    fail=1
fi
"${VALIDATOR}" torch "${out}/tool.json" "" 2 | tee -a "${out}/validate.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || fail=1
# TORCH_TEST_ALL_REPLAYED=1: every kernel must have been replayed. A kernel whose arguments point
# into memory the tracker missed is declined (untracked_memory) and runs once instead.
if [ "${TORCH_TEST_ALL_REPLAYED:-0}" = 1 ]; then
    declined=$(grep -c 'untracked_memory' "${out}/stderr")
    echo "RESULT untracked_memory_lines=${declined}" | tee -a "${out}/validate.txt"
    grep -h '^RESULT .*segments=' "${out}/stdout" | tee -a "${out}/validate.txt"
    if ! grep -q '^RESULT dispatches=.* run_once=0 ' "${out}/validate.txt"; then
        echo "FAIL: some kernels ran once instead of being replayed (run_once > 0)" | tee -a "${out}/validate.txt"
        fail=1
    fi
fi
# TORCH_TEST_EXPECT_EXPANDABLE=1: the allocator must have used expandable (VMM) segments.
if [ "${TORCH_TEST_EXPECT_EXPANDABLE:-0}" = 1 ] && ! grep -q 'expandable_segments=[1-9]' "${out}/stdout"; then
    echo "FAIL: PyTorch's allocator used no expandable segments (no VMM memory was exercised)" | tee -a "${out}/validate.txt"
    fail=1
fi
exit ${fail}
