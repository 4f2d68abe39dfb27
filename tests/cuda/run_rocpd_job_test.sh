#!/usr/bin/env bash
# rocpd on databases written on a CUDA agent: two rocprofv3 runs of the runtime program (one with
# --kernel-trace and one counter group; one with two counter groups under kernel replay) write
# rocpd and CSV; then, over both databases as one job:
#   - `rocpd convert -f csv`: every kernel_trace.csv and counter_collection.csv row equal to the
#     rows rocprofv3 wrote itself (sorted; every column);
#   - `rocpd summary`: the kernel domain's calls and total equal the kernel_trace.csv rows and
#     the sum of their durations;
#   - `rocpd convert -f pftrace`: a trace with the kernels' names;
#   - `rocpd query`: one row per dispatch of the traced run.
# Usage: run_rocpd_job_test.sh <rocprofv3> <rocpd> <program>
# Environment (set by CTest): GPU_TEST_OUTPUT_DIR (optional).
set -u
rocprofv3="$1" rocpd="$2" program="$3"
out="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/rocpd_job"
rm -rf "${out}" && mkdir -p "${out}"
. "$(dirname "$0")/checks.sh"
: >"${out}/validate.txt"

# ROCPD_JOB_METRICS="A B" names the two counters (a dry run of this script on the host device).
read -r metric metric2 <<<"${ROCPD_JOB_METRICS:-smsp__inst_executed.sum dram__bytes_read.sum}"
run_profile() { # <name> <rocprofv3 options...>
    local name="$1"
    shift
    mkdir -p "${out}/${name}"
    PROGRAM_OUTPUT="${out}/${name}/program.json" "${rocprofv3}" "$@" -f rocpd csv -d "${out}/job" \
        -o "${name}" -- "${program}" >"${out}/${name}/stdout" 2>"${out}/${name}/stderr"
    local rc=$?
    show_run "${out}/${name}" 10
    check "[ ${rc} -eq 0 ]" "${name}: rocprofv3 exited with ${rc}"
    [ -n "${ROCPD_JOB_METRICS:-}" ] ||
        check "grep -q '\"wrong_elements\": 0' '${out}/${name}/program.json'" "${name}: the program's results"
}
run_profile traced --kernel-trace --pmc "${metric}"
run_profile replayed --pmc "${metric}" --pmc "${metric2}" --replay-mode kernel --kernel-replay-beta-enabled
dbs=("${out}/job/traced_results.db" "${out}/job/replayed_results.db")
for db in "${dbs[@]}"; do check "[ -s '${db}' ]" "no ${db}"; done

# convert -f csv: the rows rocprofv3 wrote, column for column.
"${rocpd}" convert -i "${dbs[@]}" -f csv -d "${out}/convert" >"${out}/convert.stdout" 2>"${out}/convert.stderr"
rc=$?
check "[ ${rc} -eq 0 ]" "rocpd convert -f csv exited with ${rc}: $(head -3 "${out}/convert.stderr")"
same=0
for pair in traced:kernel_trace traced:counter_collection replayed:counter_collection; do
    name="${pair%%:*}" kind="${pair#*:}"
    mine="${out}/job/${name}_${kind}.csv" conv="${out}/convert/${name}_results_${kind}.csv"
    check "[ -s '${mine}' ] && [ -s '${conv}' ]" "${kind} of ${name}: ${mine} or ${conv} missing"
    [ -s "${mine}" ] && [ -s "${conv}" ] || continue
    rows=$(($(wc -l <"${mine}") - 1))
    check "[ ${rows} -gt 0 ]" "${mine} has no rows"
    check "[ \"\$(head -1 '${mine}')\" = \"\$(head -1 '${conv}')\" ]" "${conv}: header differs from rocprofv3's"
    if diff <(tail -n +2 "${mine}" | sort) <(tail -n +2 "${conv}" | sort) >"${out}/${name}_${kind}.diff"; then
        same=$((same + 1))
    else
        check false "${conv}: rows differ from ${mine} (${name}_${kind}.diff: $(head -4 "${out}/${name}_${kind}.diff" | tr '\n' ' '))"
    fi
done

# summary: the kernel domain against kernel_trace.csv.
"${rocpd}" summary -i "${dbs[0]}" >"${out}/summary.txt" 2>"${out}/summary.stderr"
rc=$?
check "[ ${rc} -eq 0 ]" "rocpd summary exited with ${rc}: $(head -3 "${out}/summary.stderr")"
read -r want_calls want_total < <(python3 - "${out}/job/traced_kernel_trace.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
print(len(rows), sum(int(r["End_Timestamp"]) - int(r["Start_Timestamp"]) for r in rows))
PY
)
read -r got_calls got_total < <(awk '$1 == "kernel" { print $2, $3; exit }' "${out}/summary.txt")
check "[ '${got_calls:-}' = '${want_calls:-x}' ]" "summary: kernel calls ${got_calls:-none}, kernel_trace.csv has ${want_calls:-?} rows"
check "[ '${got_total:-}' = '${want_total:-x}' ]" "summary: kernel total ${got_total:-none} ns, kernel_trace.csv sums to ${want_total:-?} ns"

# convert -f pftrace: the job's trace names the kernels.
"${rocpd}" convert -i "${dbs[@]}" -f pftrace -d "${out}/convert" -o job >"${out}/pftrace.stdout" 2>"${out}/pftrace.stderr"
rc=$?
check "[ ${rc} -eq 0 ]" "rocpd convert -f pftrace exited with ${rc}: $(head -3 "${out}/pftrace.stderr")"
trace=$(ls "${out}"/convert/job*.pftrace 2>/dev/null | head -1)
check "[ -s '${trace:-none}' ]" "rocpd convert -f pftrace wrote no trace"
[ -s "${trace:-none}" ] && check "grep -aq '${ROCPD_JOB_KERNEL:-accumulate}' '${trace}'" "the Perfetto trace does not name the ${ROCPD_JOB_KERNEL:-accumulate} kernel"

# query: one row per traced dispatch.
queried=$("${rocpd}" query -i "${dbs[0]}" --query "SELECT COUNT(*) AS n FROM kernels" 2>"${out}/query.stderr" |
    awk 'NF == 1 && $1 ~ /^[0-9]+$/ { print $1 }')
check "[ '${queried:-}' = '${want_calls:-x}' ]" "query: ${queried:-none} kernels, kernel_trace.csv has ${want_calls:-?} rows"

echo "RESULT rocpd_rows_equal=${same}/3 rocpd_summary_calls=${got_calls:-none} rocpd_query_kernels=${queried:-none}" |
    tee -a "${out}/validate.txt"
echo "RESULT failures=${fail}" | tee -a "${out}/validate.txt"
exit ${fail}
