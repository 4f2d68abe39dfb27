#!/usr/bin/env bash
# rocprofv3 --selected-regions on CUDA: the NVTX program (nvtx_markers.cu) launches `fill` once
# before cudaProfilerStart and once between it and cudaProfilerStop. Only the second launch may be
# in kernel_trace.csv; marker_api_trace.csv must hold the program's NVTX ranges and the two
# profiler controls. Usage: run_rocprofv3_selected_regions_test.sh <rocprofv3> <program>
# Environment (set by CTest): GPU_TEST_OUTPUT_DIR (optional).
set -u
rocprofv3="$1" program="$2"
out="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/rocprofv3_selected_regions"
rm -rf "${out}" && mkdir -p "${out}/trace"
"${rocprofv3}" --selected-regions --kernel-trace --marker-trace -f csv -d "${out}/trace" -o run \
    -- "${program}" >"${out}/stdout" 2>"${out}/stderr"
rc=$?
. "$(dirname "$0")/checks.sh"
show_run "${out}"
check "[ ${rc} -eq 0 ]" "rocprofv3 exited with ${rc}"
kernels="${out}/trace/run_kernel_trace.csv"
markers="${out}/trace/run_marker_api_trace.csv"
check "[ -s '${kernels}' ]" "no ${kernels}"
check "[ -s '${markers}' ]" "no ${markers}"
if [ -s "${kernels}" ] && [ -s "${markers}" ]; then
    rows=$(($(wc -l <"${kernels}") - 1))
    check "[ ${rows} -eq 1 ]" "one dispatch between cudaProfilerStart and cudaProfilerStop (got ${rows})"
    for name in outer inner roctxProfilerResume roctxProfilerPause; do
        check "grep -q '\"${name}\"' '${markers}'" "${name} missing from marker_api_trace.csv"
    done
    echo "RESULT kernel_rows=${rows} marker_rows=$(($(wc -l <"${markers}") - 1))" |
        tee -a "${out}/validate.txt"
    cat "${markers}"
fi
echo "RESULT failures=${fail}" | tee -a "${out}/validate.txt"
exit ${fail}
