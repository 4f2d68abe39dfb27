#!/usr/bin/env bash
# rocprofv3 --memory-copy-trace on CUDA, with the copy program (tests/cuda/copy_program.cu, run
# with COPY_TEST_NO_TOOL=1 so that only rocprofv3's tool traces it): its three copies must be the
# rows of run_memory_copy_trace.csv and the memory_copy records of run_results.json, in order, with
# their directions, sizes and agents (host memory: "host" / handle 0; device memory: the agent of
# the program's kernel, "Agent <n>" in the CSV files), with and without kernel replay (a metric CUPTI needs several passes for:
# the kernel must be replayed, kernel replay's own snapshot and restore copies must not appear,
# and the program must see one run's results).
# Usage: run_rocprofv3_copies_test.sh <rocprofv3> <copy program>
# Environment (set by CTest): GPU_TEST_OUTPUT_DIR (optional), COPY_TEST_NO_TOOL=1.
set -u
rocprofv3="$1" program="$2"
out="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/rocprofv3_memory_copy_trace"
rm -rf "${out}" && mkdir -p "${out}"
. "$(dirname "$0")/checks.sh"
mib4=$((4 << 20)) mib2=$((2 << 20))

run_case() { # name, rocprofv3 options...
    local name="$1"
    shift
    local dir="${out}/${name}"
    mkdir -p "${dir}"
    "${rocprofv3}" --memory-copy-trace --kernel-trace -f csv json "$@" -d "${dir}" -o run \
        -- "${program}" >"${dir}/stdout" 2>"${dir}/stderr"
    local rc=$?
    show_run "${dir}" 10
    check "[ ${rc} -eq 0 ]" "${name}: rocprofv3 exited with ${rc}"
    check "grep -q 'RESULT wrong_elements=0' '${dir}/stdout'" "${name}: the program's results"
    local csv="${dir}/run_memory_copy_trace.csv" kt="${dir}/run_kernel_trace.csv"
    check "[ -s '${csv}' ]" "${name}: no ${csv}"
    [ -s "${csv}" ] || return
    head -4 "${csv}"
    # The kernel's agent, as the CSV files name it ("Agent 0", quoted in the file).
    local gpu
    gpu=$(awk -F, 'NR == 2 {gsub(/"/, "", $2); print $2}' "${kt}")
    check "[[ '${gpu}' =~ ^Agent\ [0-9]+$ ]]" "${name}: kernel_trace.csv's Agent_Id '${gpu}' is not \"Agent <n>\""
    local got
    got=$(awk -F, 'NR > 1 {gsub(/"/, ""); print $2, $9, $4, $5}' "${csv}" | sort -k1,1 | tr '\n' ';')
    local want="MEMORY_COPY_DEVICE_TO_DEVICE ${mib4} ${gpu} ${gpu};MEMORY_COPY_DEVICE_TO_HOST ${mib2} ${gpu} host;MEMORY_COPY_HOST_TO_DEVICE ${mib4} host ${gpu};"
    check "[ '${got}' = '${want}' ]" "${name}: copies '${got}', expected '${want}'"
    local order
    order=$(awk -F, 'NR > 1 {gsub(/"/, ""); print $7, $2}' "${csv}" | sort -n | awk '{print $2}' | tr '\n' ' ')
    check "[ '${order}' = 'MEMORY_COPY_HOST_TO_DEVICE MEMORY_COPY_DEVICE_TO_DEVICE MEMORY_COPY_DEVICE_TO_HOST ' ]" \
        "${name}: copies in the order issued (got ${order})"
    local json_copies
    json_copies=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(len(d['rocprofiler-sdk-tool'][0]['buffer_records']['memory_copy']))" "${dir}/run_results.json" 2>/dev/null || echo none)
    check "[ '${json_copies}' = 3 ]" "${name}: results.json has ${json_copies} memory_copy records"
    if [ "${name}" = replay ]; then
        local replayed
        replayed=$(awk -F, '$1 == "\"REPLAYED\"" {n += $3} END {print n + 0}' "${dir}/run_kernel_replay_summary.csv")
        check "[ ${replayed} -ge 1 ]" "replay: no dispatch was replayed (kernel_replay_summary.csv)"
        echo "RESULT replay_replayed_dispatches=${replayed}" | tee -a "${out}/validate.txt"
    fi
    echo "RESULT ${name}_copies=$(($(wc -l <"${csv}") - 1)) ${name}_json_copies=${json_copies}" | tee -a "${out}/validate.txt"
}

run_case trace
run_case replay --pmc sm__throughput.avg.pct_of_peak_sustained_elapsed --replay-mode kernel \
    --kernel-replay-beta-enabled
echo "RESULT failures=${fail}" | tee -a "${out}/validate.txt"
exit ${fail}
