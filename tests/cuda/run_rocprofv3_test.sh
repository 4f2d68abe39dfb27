#!/usr/bin/env bash
# rocprofv3 on CUDA: `rocprofv3 --kernel-trace --stats -d <dir> -o run -- <cuda runtime program>`
# must write run_kernel_trace.csv with the program's kernel names (from CODE_OBJECT tracing) and
# run_kernel_stats.csv. Usage: run_rocprofv3_test.sh <rocprofv3> <program>
# Environment (set by CTest): GPU_TEST_OUTPUT_DIR (optional).
set -u
rocprofv3="$1" program="$2"
out="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/rocprofv3_kernel_trace"
rm -rf "${out}" && mkdir -p "${out}/trace"
start=$(date +%s%N)
PROGRAM_OUTPUT="${out}/program.json" "${rocprofv3}" --kernel-trace --stats -f csv -d "${out}/trace" -o run \
    -- "${program}" >"${out}/stdout" 2>"${out}/stderr"
rc=$?
end=$(date +%s%N)
. "$(dirname "$0")/checks.sh"
show_run "${out}"
echo "RESULT wall_ms=$(((end - start) / 1000000))" | tee "${out}/validate.txt"
check "[ ${rc} -eq 0 ]" "rocprofv3 exited with ${rc}"
csv="${out}/trace/run_kernel_trace.csv"
stats="${out}/trace/run_kernel_stats.csv"
check "[ -s '${csv}' ]" "no ${csv}"
check "[ -s '${stats}' ]" "no ${stats}"
if [ -s "${csv}" ]; then
    rows=$(($(wc -l <"${csv}") - 1))
    for k in fill accumulate shared_and_local timed_spin host_increment; do
        n=$(grep -c "\"${k}(" "${csv}")
        check "[ ${n} -ge 1 ]" "kernel ${k} missing from kernel_trace.csv"
    done
    acc=$(grep -c '"accumulate(' "${csv}")
    check "[ ${acc} -eq 6 ]" "6 accumulate rows (got ${acc})"
    check "[ ${rows} -eq 12 ]" "12 dispatch rows (got ${rows})"
    unnamed=$(awk -F, 'NR > 1 && ($8 == "\"\"" || $8 == "")' "${csv}" | wc -l)
    check "[ ${unnamed} -eq 0 ]" "${unnamed} rows without a kernel name"
    echo "RESULT rows=${rows} accumulate_rows=${acc} stats_rows=$(($(wc -l <"${stats}") - 1))" |
        tee -a "${out}/validate.txt"
    head -3 "${csv}"
fi
echo "RESULT failures=${fail}" | tee -a "${out}/validate.txt"
exit ${fail}
