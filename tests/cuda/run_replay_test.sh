#!/usr/bin/env bash
# Replay of non-idempotent / concurrent / captured work (cuda-replay-program), compared byte for
# byte with a run without the SDK.
# Usage: run_replay_test.sh <name> <nonidem|streams|capture|notrack> "<passes...>" <program>
#   nonidem|streams|capture: for each N in passes, the program under the SDK with test-tool-cuda
#     replaying every kernel N times; result bytes == the reference's, every dispatch N records,
#     each inside its PASS (cuda-gpu-validate <mode>); capture also needs reason=stream_capture in
#     the SDK's log (ROCPROFILER_LOG_LEVEL=debug).
#   notrack: the SDK with a tool that only traces (no replay): bytes identical, dispatches traced,
#     and none of the SDK's [kernel-replay] lines (tracker, snapshot) in its debug log.
# Environment (set by CTest): SDK_LIBRARY, TEST_TOOL, VALIDATOR; GPU_TEST_OUTPUT_DIR (optional).
set -u
name="$1" mode="$2" passes_list="$3" program="$4"
out="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/${name}"
rm -rf "${out}" && mkdir -p "${out}"
export CUBLAS_WORKSPACE_CONFIG=:4096:8
pmode="${mode}"
[ "${mode}" = notrack ] && pmode=nonidem
: >"${out}/validate.txt"
fail=0
"${program}" "${pmode}" "${out}/reference.bin" >"${out}/reference.stdout" 2>"${out}/reference.stderr"
rc=$?
cat "${out}/reference.stdout"
if [ ${rc} -ne 0 ]; then
    tail -5 "${out}/reference.stderr"
    echo "FAIL: the run without the SDK exited with ${rc}" | tee -a "${out}/validate.txt"
    exit 1
fi
[ "${mode}" = notrack ] && passes_list=0
identical=0 runs=0
for n in ${passes_list}; do
    d="${out}/n${n}"
    mkdir -p "${d}"
    start=$(date +%s%N)
    env LD_PRELOAD="${SDK_LIBRARY}" ROCP_TOOL_LIBRARIES="${TEST_TOOL}" TEST_TOOL_OUTPUT="${d}/tool.json" \
        TEST_REPLAY_PASSES="${n}" TEST_REPLAY_SKIP= ROCPROFILER_LOG_LEVEL=debug \
        "${program}" "${pmode}" "${d}/profiled.bin" >"${d}/stdout" 2>"${d}/stderr"
    rc=$?
    end=$(date +%s%N)
    runs=$((runs + 1))
    cat "${d}/stdout"
    grep -v -E '^\[rocprofiler-sdk\]\[debug\]|^\[cuda-timing\]|\[debug\]' "${d}/stderr" | head -10
    echo "RESULT n${n}_wall_ms=$(((end - start) / 1000000))" | tee -a "${out}/validate.txt"
    if [ ${rc} -ne 0 ]; then
        echo "FAIL: N=${n}: the profiled run exited with ${rc}" | tee -a "${out}/validate.txt"
        fail=1
    fi
    if cmp -s "${out}/reference.bin" "${d}/profiled.bin"; then
        identical=$((identical + 1))
    else
        echo "FAIL: N=${n}: result bytes differ from the run without the SDK" | tee -a "${out}/validate.txt"
        fail=1
    fi
    if [ "${mode}" = notrack ]; then
        lines=$(grep -c '\[kernel-replay\]' "${d}/stderr")
        dbg=$(grep -c '\[debug\]' "${d}/stderr")
        echo "RESULT notrack_kernel_replay_lines=${lines} debug_lines=${dbg}" | tee -a "${out}/validate.txt"
        if [ "${lines}" -ne 0 ]; then
            { echo "FAIL: [kernel-replay] lines with no replay configured:"; grep -m3 '\[kernel-replay\]' "${d}/stderr"; } |
                tee -a "${out}/validate.txt"
            fail=1
        fi
        # The SDK's own statistics line (ROCPROFILER_CUDA_TIMING_STATS=1): no snapshot, no restore.
        if grep -q '^\[cuda-timing\]' "${d}/stderr"; then
            if grep -E '^\[cuda-timing\]' "${d}/stderr" | grep -q ' snapshot_bytes_max=0 restores=0 '; then
                echo "RESULT notrack_snapshots=0" | tee -a "${out}/validate.txt"
            else
                echo "FAIL: notrack: a snapshot or restore without replay" | tee -a "${out}/validate.txt"
                fail=1
            fi
        fi
        if ! python3 -c "import json,sys; t=json.load(open(sys.argv[1])); sys.exit(0 if t['dispatch'] and not t['replay'] and not t['errors'] else 1)" "${d}/tool.json"; then
            echo "FAIL: notrack: dispatches traced, no replay callbacks, no tool errors" | tee -a "${out}/validate.txt"
            fail=1
        fi
        echo "RESULT notrack_dispatches=$(grep -c '"dispatch_id"' "${d}/tool.json")" | tee -a "${out}/validate.txt"
        continue
    fi
    # Positive control for no_replay_no_tracking: with replay configured, the tracker's debug line.
    if grep -q '\[kernel-replay\] CUDA allocation tracker enabled' "${d}/stderr"; then
        echo "RESULT n${n}_tracker_line=yes" | tee -a "${out}/validate.txt"
    else
        echo "FAIL: N=${n}: no '[kernel-replay] CUDA allocation tracker enabled' debug line" | tee -a "${out}/validate.txt"
        fail=1
    fi
    if [ "${mode}" = capture ]; then
        if grep -q 'reason=stream_capture' "${d}/stderr"; then
            echo "RESULT n${n}_stream_capture_declined=yes" | tee -a "${out}/validate.txt"
        else
            echo "FAIL: N=${n}: no reason=stream_capture in the SDK's log" | tee -a "${out}/validate.txt"
            fail=1
        fi
    fi
    "${VALIDATOR}" "${mode}" "${d}/tool.json" "" "${n}" >"${d}/validate.txt" 2>&1
    vrc=$?
    grep -E '^FAIL' "${d}/validate.txt" | head -5 | sed -E "s/^FAIL: /FAIL: N=${n}: /" | tee -a "${out}/validate.txt"
    grep -E '^RESULT (dispatches|replayed_dispatches|[a-z]+_queues)' "${d}/validate.txt" | sed -E "s/^RESULT /RESULT n${n}_/" |
        tee -a "${out}/validate.txt"
    [ ${vrc} -eq 0 ] || fail=1
done
echo "RESULT bit_identical=${identical}/${runs}" | tee -a "${out}/validate.txt"
exit ${fail}
