#!/usr/bin/env bash
# rocprofv3-avail and rocprofv3 -L on a machine with a CUDA GPU:
#   - `list --pmc` lists CUPTI's metrics (smsp__inst_executed.sum among them) and AMD's names that
#     have an sm_90 definition (SQ_WAVES);
#   - `info --pmc smsp__inst_executed.sum` describes it; `pmc-check` of it answers one pass (exit 0);
#   - `list --pc-sampling` names a CUDA agent (CUPTI's PC Sampling API);
#   - ROCPROFILER_CUDA_METRIC_FILTER_DEVICE0='^smsp__inst' keeps only matching metrics; a pattern
#     std::regex is not given (a repetition count above 1000, 'a{2000}') lists every metric, with a warning
#     naming the variable;
#   - `rocprofv3 -L` lists the same CUPTI metric.
# Usage: run_avail_test.sh <rocprofv3-avail> <rocprofv3>
# Environment (set by CTest): GPU_TEST_OUTPUT_DIR (optional).
set -u
avail="$1" rocprofv3="$2"
out="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/avail"
rm -rf "${out}" && mkdir -p "${out}"
. "$(dirname "$0")/checks.sh"
: >"${out}/validate.txt"

# CUPTI metric names hold a double underscore; the host device's names do not.
cupti_names() { grep -oE '[a-z0-9]+__[A-Za-z0-9_.]+' "$1" | sort -u; }

"${avail}" list --pmc >"${out}/list.txt" 2>"${out}/list.stderr"
rc=$?
check "[ ${rc} -eq 0 ]" "list --pmc exited with ${rc}: $(head -3 "${out}/list.stderr")"
all=$(cupti_names "${out}/list.txt" | wc -l)
check "[ ${all} -ge 100 ]" "list --pmc: ${all} CUPTI metrics listed, expected hundreds"
check "grep -qw 'smsp__inst_executed.sum' '${out}/list.txt'" "list --pmc: no smsp__inst_executed.sum"
check "grep -qw 'SQ_WAVES' '${out}/list.txt'" "list --pmc: AMD's SQ_WAVES (sm_90 definition) not listed"

"${avail}" info --pmc smsp__inst_executed.sum >"${out}/info.txt" 2>"${out}/info.stderr"
rc=$?
check "[ ${rc} -eq 0 ]" "info --pmc smsp__inst_executed.sum exited with ${rc}"
check "[ \$(wc -l <'${out}/info.txt') -ge 2 ]" "info --pmc: no description of smsp__inst_executed.sum"

"${avail}" pmc-check smsp__inst_executed.sum >"${out}/check.txt" 2>"${out}/check.stderr"
rc=$?
check "[ ${rc} -eq 0 ]" "pmc-check smsp__inst_executed.sum exited with ${rc} (0: one pass): $(head -3 "${out}/check.txt")"
"${avail}" pmc-check no_such__metric.sum >"${out}/check_bad.txt" 2>&1
bad_rc=$?
check "[ ${bad_rc} -eq 3 ]" "pmc-check of an unknown metric exited with ${bad_rc}, expected 3"

"${avail}" list --pc-sampling >"${out}/pcs.txt" 2>"${out}/pcs.stderr"
rc=$?
check "[ ${rc} -eq 0 ]" "list --pc-sampling exited with ${rc}"
check "grep -qiE 'NVIDIA|H100|H200|sm_90' '${out}/pcs.txt'" "list --pc-sampling names no CUDA agent: $(tr '\n' ' ' <"${out}/pcs.txt" | head -c 300)"

ROCPROFILER_CUDA_METRIC_FILTER_DEVICE0='^smsp__inst' "${avail}" list --pmc >"${out}/filtered.txt" 2>"${out}/filtered.stderr"
rc=$?
check "[ ${rc} -eq 0 ]" "filtered list exited with ${rc}"
kept=$(cupti_names "${out}/filtered.txt" | wc -l)
others=$(cupti_names "${out}/filtered.txt" | grep -vc '^smsp__inst')
check "[ ${kept} -ge 1 ] && [ ${kept} -lt ${all} ]" "filter ^smsp__inst kept ${kept} of ${all} metrics"
check "[ ${others} -eq 0 ]" "filter ^smsp__inst kept ${others} metrics that do not match"

ROCPROFILER_CUDA_METRIC_FILTER_DEVICE0='a{2000}' "${avail}" list --pmc >"${out}/refused.txt" 2>"${out}/refused.stderr"
rc=$?
check "[ ${rc} -eq 0 ]" "list with a refused filter exited with ${rc}"
refused_all=$(cupti_names "${out}/refused.txt" | wc -l)
check "[ ${refused_all} -eq ${all} ]" "a refused filter listed ${refused_all} metrics, every one (${all}) expected"
check "grep -q 'ROCPROFILER_CUDA_METRIC_FILTER_DEVICE0' '${out}/refused.stderr'" "no warning names ROCPROFILER_CUDA_METRIC_FILTER_DEVICE0: $(head -3 "${out}/refused.stderr")"

"${rocprofv3}" -L >"${out}/L.txt" 2>"${out}/L.stderr"
rc=$?
check "[ ${rc} -eq 0 ]" "rocprofv3 -L exited with ${rc}"
check "grep -qw 'smsp__inst_executed.sum' '${out}/L.txt'" "rocprofv3 -L does not list smsp__inst_executed.sum"

echo "RESULT avail_metrics=${all} avail_filtered=${kept} avail_refused_filter=${refused_all}" | tee -a "${out}/validate.txt"
echo "RESULT failures=${fail}" | tee -a "${out}/validate.txt"
exit ${fail}
