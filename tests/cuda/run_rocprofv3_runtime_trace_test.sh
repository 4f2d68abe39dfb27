#!/usr/bin/env bash
# rocprofv3 --sys-trace on CUDA (the runtime and driver API, kernels, copies, markers): every
# launch of the runtime program is one driver launch row (cuLaunchKernel and its forms) in
# cuda_api_trace.csv, once per dispatch of kernel_trace.csv, with and without kernel replay (the
# SDK's replay passes are not the application's calls); the runtime rows name cudaMalloc and
# cudaLaunchKernel; the Perfetto trace has the calls' thread track; and the other driver calls
# are those of a run that traces the API only (the SDK's own calls are never rows).
# Usage: run_rocprofv3_runtime_trace_test.sh <rocprofv3> <program>
# Environment (set by CTest): GPU_TEST_OUTPUT_DIR (optional).
set -u
rocprofv3="$1" program="$2"
out="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/rocprofv3_runtime_trace"
rm -rf "${out}" && mkdir -p "${out}"
. "$(dirname "$0")/checks.sh"
launch_rows() { # driver rows of the kernel launch entry points
    grep -cE '^"CUDA_DRIVER_API","cuLaunch(Kernel|CooperativeKernel)(Ex)?(_ptsz)?",' "$1"
}
run_case() { # name, rocprofv3 options...
    local name="$1"
    shift
    local dir="${out}/${name}"
    mkdir -p "${dir}"
    "${rocprofv3}" --sys-trace -f csv pftrace "$@" -d "${dir}" -o run -- "${program}" \
        >"${dir}/stdout" 2>"${dir}/stderr"
    local rc=$?
    show_run "${dir}" 10
    check "[ ${rc} -eq 0 ]" "${name}: rocprofv3 exited with ${rc}"
    local api="${dir}/run_cuda_api_trace.csv" kt="${dir}/run_kernel_trace.csv"
    check "[ -s '${api}' ] && [ -s '${kt}' ]" "${name}: no ${api} or ${kt}"
    [ -s "${api}" ] && [ -s "${kt}" ] || return
    local dispatches launches runtime_launches mallocs
    dispatches=$(tail -n +2 "${kt}" | cut -d, -f6 | sort -u | wc -l)
    launches=$(launch_rows "${api}")
    runtime_launches=$(grep -c '^"CUDA_RUNTIME_API","cudaLaunchKernel",' "${api}")
    mallocs=$(grep -c '^"CUDA_RUNTIME_API","cudaMalloc",' "${api}")
    echo "RESULT ${name}_dispatches=${dispatches} ${name}_driver_launches=${launches}" \
        "${name}_runtime_launches=${runtime_launches} ${name}_mallocs=${mallocs}" \
        "${name}_api_rows=$(($(wc -l <"${api}") - 1))" | tee -a "${out}/validate.txt"
    check "[ ${dispatches} -ge 1 ] && [ ${launches} -eq ${dispatches} ]" \
        "${name}: ${launches} driver launch rows for ${dispatches} dispatches"
    check "[ ${runtime_launches} -ge 1 ]" "${name}: no cudaLaunchKernel row"
    check "[ ${mallocs} -ge 1 ]" "${name}: no cudaMalloc row"
    check "grep -qa 'CUDA API (thread' '${dir}/run_results.pftrace'" "${name}: no CUDA API track in the trace"
    # Every row has a start not after its end.
    local bad
    bad=$(tail -n +2 "${api}" | awk -F, '$6 > $7' | wc -l)
    check "[ ${bad} -eq 0 ]" "${name}: ${bad} rows end before they start"
}
run_case trace
run_case replay --pmc smsp__inst_executed.sum --pmc smsp__warps_launched.sum \
    --replay-mode kernel --kernel-replay-beta-enabled
# The SDK's own driver calls are not the application's: the driver calls other than launches are
# the same whether the SDK only traces the API, also traces kernels, or replays them.
mkdir -p "${out}/api_only"
"${rocprofv3}" --cuda-runtime-trace --cuda-driver-trace -f csv -d "${out}/api_only" -o run -- "${program}" \
    >"${out}/api_only/stdout" 2>"${out}/api_only/stderr"
counts() { # the non-launch driver calls, one "count name" line per function
    tail -n +2 "$1" | grep '^"CUDA_DRIVER_API"' | grep -vE '"cuLaunch(Kernel|CooperativeKernel)(Ex)?(_ptsz)?"' |
        cut -d, -f2 | sort | uniq -c
}
for name in trace replay; do
    if ! diff <(counts "${out}/api_only/run_cuda_api_trace.csv") \
        <(counts "${out}/${name}/run_cuda_api_trace.csv") >"${out}/${name}.diff"; then
        echo "FAIL: ${name}: driver calls differ from the API-only run (< API only, > ${name}):" |
            tee -a "${out}/validate.txt"
        cat "${out}/${name}.diff" | head -20
        fail=1
    fi
done
echo "RESULT failures=${fail}" | tee -a "${out}/validate.txt"
exit ${fail}
