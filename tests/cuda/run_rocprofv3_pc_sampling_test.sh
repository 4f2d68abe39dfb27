#!/usr/bin/env bash
# rocprofv3's PC sampling on a CUDA agent: `rocprofv3 --pc-sampling-beta-enabled
# --pc-sampling-method stochastic --pc-sampling-unit cycles --pc-sampling-interval 65536
# --kernel-trace` of the hot-loop program (every 2^16 cycles: a few hundred thousand samples
# rather than millions). Passes when run_pc_sampling_stochastic.csv has samples, each of a
# dispatch of the kernel trace, a stall reason on every sample whose wave did not issue, and both
# issued and stalled samples; the program's exit code comes through.
# Usage: run_rocprofv3_pc_sampling_test.sh <rocprofv3> <cuda-pc-sampling-program>
# Environment (set by CTest): ROCPROF_TOOL_LIBRARY, ROCPROF_SDK_LIBRARY; GPU_TEST_OUTPUT_DIR.
set -u
rocprofv3="$1" program="$2"
out="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/rocprofv3_pc_sampling"
rm -rf "${out}" && mkdir -p "${out}/run"
. "$(dirname "$0")/checks.sh"
"${rocprofv3}" --pc-sampling-beta-enabled --pc-sampling-method stochastic --pc-sampling-unit cycles \
    --pc-sampling-interval 65536 --kernel-trace -f csv -d "${out}/run" -o run -- "${program}" \
    >"${out}/stdout" 2>"${out}/stderr"
rc=$?
show_run "${out}"
check "[ ${rc} -eq 0 ]" "rocprofv3 exited with ${rc}"
csv="${out}/run/run_pc_sampling_stochastic.csv"
trace="${out}/run/run_kernel_trace.csv"
check "[ -s '${csv}' ]" "no ${csv}"
check "[ -s '${trace}' ]" "no ${trace}"
if [ -s "${csv}" ] && [ -s "${trace}" ]; then
    facts=$(python3 - "${csv}" "${trace}" <<'PY'
import csv, sys
samples = list(csv.DictReader(open(sys.argv[1])))
dispatches = {r["Dispatch_Id"] for r in csv.DictReader(open(sys.argv[2]))}
def did_issue(s):
    return s["Wave_Issued_Instruction"] in ("1", "true", "True")
issued = [s for s in samples if did_issue(s)]
stalled = [s for s in samples if not did_issue(s)]
print(f"samples={len(samples)}")
print(f"outside_trace={sum(1 for s in samples if s['Dispatch_Id'] not in dispatches)}")
print(f"issued={len(issued)} stalled={len(stalled)}")
print(f"stalled_without_reason={sum(1 for s in stalled if not s['Stall_Reason'])}")
PY
)
    echo "${facts}"
    get() { sed -nE "s/.*$1=([0-9]+).*/\\1/p" <<<"${facts}"; }
    check "[ '$(get samples)' -gt 0 ]" "no samples in ${csv}"
    check "[ '$(get outside_trace)' = 0 ]" "$(get outside_trace) samples of dispatches not in the kernel trace"
    check "[ '$(get stalled_without_reason)' = 0 ]" "$(get stalled_without_reason) stalled samples without a stall reason"
    check "[ '$(get issued)' -gt 0 ] && [ '$(get stalled)' -gt 0 ]" "issued=$(get issued) stalled=$(get stalled): expected both"
    echo "RESULT rocprofv3_pc_samples=$(get samples) issued=$(get issued) stalled=$(get stalled)" | tee "${out}/validate.txt"
fi
echo "RESULT failures=${fail}" | tee -a "${out}/validate.txt"
[ ${fail} -eq 0 ]
