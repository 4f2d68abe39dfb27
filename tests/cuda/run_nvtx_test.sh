#!/usr/bin/env bash
# Runs an NVTX program (nvtx_markers.cu) under the SDK with nvtx-marker-tool, NVTX injected into
# the SDK (NVTX_INJECTION64_PATH), and compares the marker records with the expected lines.
# Usage: run_nvtx_test.sh <sdk library> <tool library> <program> <output file> [gpu]
# With "gpu" the program is the CUDA build, whose cudaProfilerStart/Stop are traced too.
set -u
sdk="$1" tool="$2" program="$3" out="$4" kind="${5:-cuda}"
rm -f "${out}"
env LD_PRELOAD="${sdk}" NVTX_INJECTION64_PATH="${sdk}" ROCP_TOOL_LIBRARIES="${tool}" \
    NVTX_MARKER_TOOL_OUTPUT="${out}" "${program}"
rc=$?
if [ ${rc} -ne 0 ]; then
    echo "FAIL: ${program} exited with ${rc}"
    exit 1
fi
controls=()
if [ "${kind}" = gpu ]; then
    controls=("roctxProfilerResume - tid=0" "roctxProfilerPause - tid=0")
fi
expected=$(printf '%s\n' \
    "roctxNameOsThread main thread -" \
    "roctxMarkA start -" \
    "roctxRangePushA outer 0" \
    "roctxRangePushA inner 1" \
    "${controls[@]}" \
    "roctxRangePop - 1" \
    "roctxRangePop - 0" \
    "roctxMarkA wide é -" \
    "roctxRangeStartA started 1" \
    "roctxRangeStop - id=1" \
    "roctxRangePushA registered 0" \
    "roctxRangePop - 0")
if ! diff <(printf '%s\n' "${expected}") "${out}"; then
    echo "FAIL: marker records differ from the expected ones (< expected, > recorded)"
    exit 1
fi
echo "PASS: $(wc -l <"${out}") marker records"
