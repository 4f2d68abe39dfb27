#!/usr/bin/env bash
# Hardware counters under kernel replay: rocprofv3 against Nsight Compute on cuda-counter-bench
# (60 launches over 256 MiB), with the same metrics, in the same run. A benchmark, not a test: no
# timed assertions; it exits 1 only when a run failed or the two tools disagree on
# smsp__inst_executed.sum. README.md in this folder explains the output.
# Usage: run_counter_bench.sh <rocprofv3> <cuda-counter-bench> <outdir>
# Environment:
#   BENCH_COUNTER_METRICS  metrics (space or comma separated); default: 34 plain counters that
#                          CUPTI schedules over 8 passes on GH100; if rocprofv3 rejects them
#                          (exit 2), the first 18 of them
#   BENCH_COUNTER_REPS     repetitions of each timing (default 3; medians reported)
#   BENCH_COUNTER_ARGS     arguments of the program (default: none, i.e. --mib 64 --iters 10)
#   BENCH_COUNTER_TIMEOUT  seconds per run (default 900)
#   NCU                    ncu to use (default: PATH, then /usr/local/cuda/bin/ncu)
set -u
rocprofv3="$1" program="$2" out="$3"
here="$(cd "$(dirname "$0")" && pwd)"
rm -rf "${out}" && mkdir -p "${out}"
reps="${BENCH_COUNTER_REPS:-3}"
limit="${BENCH_COUNTER_TIMEOUT:-900}"
read -r -a pargs <<<"${BENCH_COUNTER_ARGS:-}"

full="sm__cycles_elapsed.avg smsp__inst_executed.sum dram__bytes_read.sum dram__bytes_write.sum
l1tex__t_bytes.sum lts__t_bytes.sum smsp__warps_launched.sum sm__warps_active.avg
smsp__inst_executed_pipe_fma.sum smsp__inst_executed_pipe_alu.sum smsp__inst_executed_pipe_lsu.sum
smsp__sass_thread_inst_executed_op_fadd_pred_on.sum smsp__sass_thread_inst_executed_op_fmul_pred_on.sum
smsp__sass_thread_inst_executed_op_ffma_pred_on.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum lts__t_sectors_op_read.sum lts__t_sectors_op_write.sum"
# 16 more plain counters, each collectable in one pass by itself, that bring CUPTI's own schedule
# of the set to 8 passes on GH100 (checked with the profiler host API, cuda-metrics-tests).
extra="l1tex__data_bank_conflicts_pipe_lsu_mem_gds.sum l1tex__data_bank_conflicts_pipe_lsu_mem_gds_op_atom.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_gds_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_gds_op_red.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_gds_op_st.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_misc.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
l1tex__data_bank_conflicts_type_arbitration.sum l1tex__data_bank_reads.sum l1tex__data_bank_writes.sum
l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"
if [ -n "${BENCH_COUNTER_METRICS:-}" ]; then
    read -r -a metrics <<<"${BENCH_COUNTER_METRICS//,/ }"
    fallback=()
else
    read -r -a metrics <<<"$(echo ${full} ${extra})"
    read -r -a fallback <<<"$(echo ${full})"
fi

ncu="${NCU:-}"
[ -z "${ncu}" ] && ncu="$(command -v ncu 2>/dev/null)"
[ -z "${ncu}" ] && [ -x /usr/local/cuda/bin/ncu ] && ncu=/usr/local/cuda/bin/ncu
[ -n "${ncu}" ] && [ ! -x "${ncu}" ] && ncu=""

times="${out}/times.txt"
: >"${times}"
timed() { # kind rep command...
    local kind="$1" rep="$2"
    shift 2
    local t0 t1 rc
    echo "+ $*" >>"${out}/commands.txt"
    t0=$(date +%s%N)
    PROGRAM_OUTPUT="${out}/${kind}_${rep}.json" timeout "${limit}" "$@" \
        >"${out}/${kind}_${rep}.stdout" 2>"${out}/${kind}_${rep}.stderr"
    rc=$?
    t1=$(date +%s%N)
    echo "${kind} ${rep} $(awk -v a="${t0}" -v b="${t1}" 'BEGIN { printf "%.3f", (b - a) / 1e9 }') ${rc}" >>"${times}"
    [ ${rc} -eq 0 ] || { echo "bench: ${kind} run ${rep} exited with ${rc}"; tail -3 "${out}/${kind}_${rep}.stderr"; }
    return ${rc}
}
run_rocprofv3() {
    ROCPROFILER_CUDA_TIMING_STATS=1 timed rocprofv3 "$1" "${rocprofv3}" --pmc "${metrics[@]}" --replay-mode kernel --kernel-replay-beta-enabled \
        -f csv json -d "${out}/rocprofv3_$1" -o bench -- "${program}" "${pargs[@]}"
}
run_ncu() {
    timed ncu "$1" "${ncu}" --csv --print-units base --replay-mode kernel --clock-control none \
        --metrics "$(IFS=,; echo "${metrics[*]}")" --log-file "${out}/ncu_$1.csv" "${program}" "${pargs[@]}"
}

note=""
for rep in $(seq 1 "${reps}"); do
    timed base "${rep}" "${program}" "${pargs[@]}"
    run_rocprofv3 "${rep}"
    rc=$?
    if [ "${rep}" = 1 ] && [ ${rc} -eq 2 ] && [ ${#fallback[@]} -gt 0 ]; then
        note="rocprofv3 rejected the 34-metric set (exit 2: $(grep -m1 'error' "${out}/rocprofv3_1.stderr" | cut -c1-160)); using the 18 plain counters"
        echo "BENCH counters_note ${note}"
        metrics=("${fallback[@]}")
        sed -i '/^rocprofv3 1 /d' "${times}"
        mv "${out}/rocprofv3_1.stderr" "${out}/rocprofv3_rejected.stderr"
        run_rocprofv3 1
    fi
    [ -n "${ncu}" ] && run_ncu "${rep}"
done
printf '%s\n' "${metrics[@]}" >"${out}/metrics.txt"

python3 "${here}/bench_report.py" "${out}" "${ncu:+ncu}" | tee "${out}/bench.txt"
rc=${PIPESTATUS[0]}
# The CUPTI floor (cupti_cycle_floor.cu, next to the program when it was built): the range
# profiler's own cost for one replay cycle of the same metrics per dispatch, without the SDK.
floor_bin="$(dirname "${program}")/cuda-cupti-cycle-floor"
if [ -x "${floor_bin}" ]; then
    timeout 300 "${floor_bin}" --dispatches 20 "${metrics[@]}" >"${out}/cupti_floor.txt" 2>&1
    grep -h '^BENCH' "${out}/cupti_floor.txt" | tee -a "${out}/bench.txt"
    grep -h -v '^BENCH' "${out}/cupti_floor.txt" | head -3
fi
# Where rocprofv3's time goes per counted execution (the SDK's [cuda-metrics] line, last run).
phases=$(grep -h '^\[cuda-metrics\]' "${out}"/rocprofv3_*.stderr 2>/dev/null | tail -1)
[ -n "${phases}" ] && echo "BENCH counters_phases ${phases#\[cuda-metrics\] }" | tee -a "${out}/bench.txt"
exit "${rc}"
