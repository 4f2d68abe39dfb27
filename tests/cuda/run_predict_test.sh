#!/usr/bin/env bash
# Kernel replay's write-set prediction on CUDA (cuda-predict-program), under test-tool-cuda
# replaying every kernel N times.
# Usage: run_predict_test.sh <name> <predict|drift> <passes> <program>
#   predict: result bytes == a run without the SDK; each case's kernel was replayed (outcome=
#     replayed, reason none or write_outside_snapshot: the pass that wrote outside the snapshot
#     was the last, as the application would have run it); no verification_failed; the last two
#     of the five dispatches of offset_write are fully replayed from a learned prediction.
#   drift: the kernel that writes elsewhere on each pass ends with an error line naming it and
#     pass 1 (reason=write_outside_snapshot).
# Environment (set by CTest): SDK_LIBRARY, TEST_TOOL; GPU_TEST_OUTPUT_DIR (optional).
set -u
name="$1" mode="$2" n="$3" program="$4"
out="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/${name}"
rm -rf "${out}" && mkdir -p "${out}"
fail=0
note() { echo "$*" | tee -a "${out}/validate.txt"; }

"${program}" "${mode}" "${out}/reference.bin" >"${out}/reference.stdout" 2>"${out}/reference.stderr"
rc=$?
cat "${out}/reference.stdout"
if [ ${rc} -ne 0 ]; then
    tail -5 "${out}/reference.stderr"
    note "FAIL: the run without the SDK exited with ${rc}"
    exit 1
fi
d="${out}/n${n}"
mkdir -p "${d}"
env LD_PRELOAD="${SDK_LIBRARY}" ROCP_TOOL_LIBRARIES="${TEST_TOOL}" TEST_TOOL_OUTPUT="${d}/tool.json" \
    TEST_REPLAY_PASSES="${n}" TEST_REPLAY_SKIP= ROCPROFILER_LOG_LEVEL=debug \
    "${program}" "${mode}" "${d}/profiled.bin" >"${d}/stdout" 2>"${d}/stderr"
rc=$?
cat "${d}/stdout"
grep '^\[cuda-replay-memory\]' "${d}/stderr"
if [ ${rc} -ne 0 ]; then
    grep -v '\[debug\]' "${d}/stderr" | head -10
    note "FAIL: the profiled run exited with ${rc}"
    fail=1
fi
lines="${d}/replay_lines.txt"
grep -E '\[kernel-replay\] dispatch_id=' "${d}/stderr" >"${lines}"
note "RESULT replay_lines=$(wc -l <"${lines}")"

if [ "${mode}" = drift ]; then
    if grep 'drifting_write' "${lines}" | grep 'reason=write_outside_snapshot' |
        grep -q 'pass 1 changed memory outside the snapshot'; then
        note "RESULT drift_error_pass1=yes"
    else
        note "FAIL: no write_outside_snapshot line naming drifting_write and pass 1"
        grep 'drifting_write' "${lines}" | head -3
        fail=1
    fi
    exit ${fail}
fi

if cmp -s "${out}/reference.bin" "${d}/profiled.bin"; then
    note "RESULT bit_identical=yes"
else
    note "FAIL: result bytes differ from the run without the SDK"
    fail=1
fi
if grep -q 'reason=verification_failed' "${lines}"; then
    note "FAIL: a dispatch was declined with verification_failed"
    grep -m3 'reason=verification_failed' "${lines}"
    fail=1
fi
for kernel in one_past_end one_based packed_pointer pointer_table in_place atomic_sum \
    append_multiples offset_write; do
    ok=$(grep "${kernel}" "${lines}" | grep 'outcome=replayed' |
        grep -c -E 'reason=(none|write_outside_snapshot)')
    note "RESULT ${kernel}_replayed=${ok}"
    if [ "${ok}" -lt 1 ]; then
        note "FAIL: ${kernel} was never replayed"
        grep "${kernel}" "${lines}" | head -2
        fail=1
    fi
done
learned=$(grep 'offset_write' "${lines}" | tail -2 | grep "passes=${n} outcome=replayed reason=none" |
    grep -c 'prediction=learned')
note "RESULT offset_write_learned_replays=${learned}/2"
if [ "${learned}" -ne 2 ]; then
    note "FAIL: the last two dispatches of offset_write were not fully replayed from a learned prediction"
    grep 'offset_write' "${lines}"
    fail=1
fi
exit ${fail}
