#!/usr/bin/env bash
# Device counting on a CUDA agent: the AMD-style sample tool (samples/amd_style/device_counting.cpp)
# over the CUDA runtime program, synchronous and asynchronous samples. The tool chooses
# smsp__warps_launched.sum and AMD's SQ_WAVES on the GPU agent, samples after every kernel, and
# passes when the latest sample of each equals the warps the launches' grids give and the window
# left no execution out (experimental/device_counting.h). The program's results must be right.
# Usage: run_device_counting_test.sh <librocprofiler-sdk.so> <tool.so> <program>
# Environment (set by CTest): GPU_TEST_OUTPUT_DIR (optional).
set -u
sdk="$1" tool="$2" program="$3"
out="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/device_counting"
rm -rf "${out}" && mkdir -p "${out}"
. "$(dirname "$0")/checks.sh"
: >"${out}/validate.txt"
for mode in sync async; do
    d="${out}/${mode}"
    mkdir -p "${d}"
    LD_PRELOAD="${sdk}" ROCP_TOOL_LIBRARIES="${tool}" AMD_STYLE_COUNTER_MODE="${mode}" \
        AMD_STYLE_OUTPUT="${d}/tool.txt" PROGRAM_OUTPUT="${d}/program.json" "${program}" \
        >"${d}/stdout" 2>"${d}/stderr"
    rc=$?
    show_run "${d}" 10
    cat "${d}/tool.txt" 2>/dev/null
    check "[ ${rc} -eq 0 ]" "${mode}: the program exited with ${rc}"
    check "grep -q '\"wrong_elements\": 0' '${d}/program.json'" "${mode}: the program's results"
    check "grep -q ': PASS$' '${d}/tool.txt'" "${mode}: the tool did not report PASS"
    check "grep -q 'counter smsp__warps_launched.sum total=' '${d}/tool.txt'" \
        "${mode}: no CUDA agent was counted (smsp__warps_launched.sum)"
    warps=$(sed -nE 's/.*counter smsp__warps_launched.sum total=([0-9.e+]+) .*/\1/p' "${d}/tool.txt" | head -1)
    counted=$(grep -oE 'executions counted=[0-9]+ unmeasured=[0-9]+' "${d}/tool.txt" | head -1)
    echo "RESULT device_counting_${mode} warps=${warps:-none} ${counted:-no coverage}" | tee -a "${out}/validate.txt"
done
echo "RESULT failures=${fail}" | tee -a "${out}/validate.txt"
exit ${fail}
