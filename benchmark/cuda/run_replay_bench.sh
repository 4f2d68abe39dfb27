#!/usr/bin/env bash
# Runs cuda-replay-bench without and with the SDK and prints ratios against the targets
# (docs/PERFORMANCE.md). A benchmark, not a test: it exits 0 unless a run failed.
# Usage: run_replay_bench.sh <cuda-replay-bench> <libtest-tool-cuda.so> <librocprofiler-sdk.so> <outdir>
set -u
bench="$1" tool="$2" sdk="$3" out="$4"
mkdir -p "${out}"
bytes="${BENCH_RESTORE_BYTES:-1073741824}"
iters="${BENCH_FIXED_ITERS:-200}"
launches="${BENCH_LAUNCHES:-100000}"
traced_launches="${BENCH_TRACED_LAUNCHES:-20000}"
many="${BENCH_MANY_ALLOCS:-256}"
rc_all=0
run() { # name passes(-1: no SDK, 0: SDK without tool, t: SDK + tracing tool, N: replay N) args...
    local name="$1" p="$2"
    shift 2
    local pre="${sdk}" tl="${tool}" np="${p}"
    [ "${p}" = -1 ] && pre="" && tl=""
    [ "${p}" = 0 ] && tl=""
    [ "${p}" = t ] && np=0
    env ${EXTRA:-} LD_PRELOAD="${pre}" ROCP_TOOL_LIBRARIES="${tl}" TEST_REPLAY_PASSES="${np}" TEST_REPLAY_SKIP= \
        TEST_TOOL_OUTPUT="${out}/${name}.tool.json" ROCPROFILER_CUDA_TIMING_STATS=1 \
        ROCPROFILER_LOG_LEVEL=warning timeout 120 "${bench}" "$@" >"${out}/${name}.stdout" 2>"${out}/${name}.stderr"
    local rc=$?
    [ ${rc} -eq 0 ] || { echo "bench: ${name} exited with ${rc}"; tail -3 "${out}/${name}.stderr"; rc_all=1; }
}
val() { grep -ho -E "(^| )$2=[0-9.]+" "${out}/$1.stdout" "${out}/$1.stderr" 2>/dev/null | head -1 | sed -E 's/.*=//'; }

run restore_replay 2 restore "${bytes}"
run verify_replay 2 verify "${BENCH_VERIFY_BYTES:-8589934592}"
run fixed_base -1 fixed "${iters}"
run fixed_sdk 0 fixed "${iters}"
run fixed_traced t fixed "${iters}"
run fixed_r2 2 fixed "${iters}"
run fixed_r4 4 fixed "${iters}"
EXTRA=ROCPROFILER_CUDA_TIMESTAMPS=events run fixed_r2_events 2 fixed "${iters}"
run many_base -1 many "${many}" "${iters}"
run many_r2 2 many "${many}" "${iters}"
# Launch-bound loop: 3 alternating repetitions each, medians.
for rep in 1 2 3; do
    run "launch_base_${rep}" -1 launch "${launches}"
    run "launch_sdk_${rep}" 0 launch "${launches}"
done
run launch_base_t -1 launch "${traced_launches}"
run launch_traced t launch "${traced_launches}"

d2d_gbps=$(val restore_replay d2d_gbps)
snap=$(val restore_replay snapshot_bytes_max)
rest_us=$(val restore_replay restore_us_mean)
rest_max=$(val restore_replay restore_us_max)
t0=$(val fixed_base dispatch_us_median) tc=$(val fixed_base copy_us_median)
ts=$(val fixed_sdk dispatch_us_median) tt=$(val fixed_traced dispatch_us_median)
t2=$(val fixed_r2 dispatch_us_median) t4=$(val fixed_r4 dispatch_us_median)
t2e=$(val fixed_r2_events dispatch_us_median)
med3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
lbs=() lss=()
for rep in 1 2 3; do
    lbs+=("$(val "launch_base_${rep}" launch_us_per)")
    lss+=("$(val "launch_sdk_${rep}" launch_us_per)")
done
lb=$(med3 "${lbs[@]}") ls=$(med3 "${lss[@]}")
lbt=$(val launch_base_t launch_us_per) lt=$(val launch_traced launch_us_per)
# The SDK's phase breakdown of its replay windows ([cuda-replay-memory], ROCPROFILER_CUDA_TIMING_STATS=1).
phases() { # run name
    local f
    for f in windows window_us_mean drain_us_mean drain_us_max snapshot_us_mean restore_host_us_mean restore_gpu_us_mean release_us_mean stream_ordered host_synced pool_hits pool_allocs pool_frees temp_blocks copy_calls batch_calls batch_failures; do
        printf '%s=%s ' "${f}" "$(val "$1" "${f}")"
    done
}
mb=$(val many_base many_dispatch_us_median) mr=$(val many_r2 many_dispatch_us_median)
awk -v d2d="${d2d_gbps:-0}" -v snap="${snap:-0}" -v rus="${rest_us:-0}" -v rmax="${rest_max:-0}" \
    -v t0="${t0:-0}" -v tc="${tc:-0}" -v ts="${ts:-0}" -v tt="${tt:-0}" -v t2="${t2:-0}" -v t4="${t4:-0}" \
    -v t2e="${t2e:-0}" -v lb="${lb:-0}" -v ls="${ls:-0}" -v lbt="${lbt:-0}" -v lt="${lt:-0}" \
    -v lball="${lbs[*]}" -v lsall="${lss[*]}" 'BEGIN {
    rg = (rus > 0) ? snap / rus / 1e3 : 0
    printf "BENCH restore: snapshot %d B, restore %.1f us mean (max %.1f, host-timed) = %.1f GB/s; plain cuMemcpyDtoD %.1f GB/s; ratio %.3f (target >= 0.90)\n", snap, rus, rmax, rg, d2d, (d2d > 0 ? rg / d2d : 0)
    f2 = t2 - 2 * (t0 + tc); f4 = t4 - 4 * (t0 + tc); f2e = t2e - 2 * (t0 + tc)
    printf "BENCH fixed cost (4 KiB working set, tiny kernel; launch+sync medians): no SDK %.2f us, SDK no tool %.2f us, traced no replay %.2f us; replayed N=2 %.1f us, N=4 %.1f us, N=2 event timestamps %.1f us; 4 KiB copy+sync %.2f us\n", t0, ts, tt, t2, t4, t2e, tc
    printf "BENCH fixed cost = t_N - N*(kernel+sync + copy+sync): N=2 %.1f us, N=4 %.1f us, per extra pass %.1f us, N=2 events %.1f us (target < 100 us); tracing alone adds %.1f us\n", f2, f4, (t4 - t2) / 2 - t0 - tc, f2e, tt - t0
    printf "BENCH launch-bound (empty kernels, medians of 3 alternating runs: no SDK [%s], SDK [%s]): no SDK %.3f us/launch, SDK loaded (no tool, replay off) %.3f us/launch: overhead %.3f us/launch (target < 1 us); tracing tool (no replay, 1 run each) %.3f vs %.3f: %.3f us/launch\n", lball, lsall, lb, ls, ls - lb, lt, lbt, lt - lbt
}' | tee "${out}/bench.txt"
{
    echo "BENCH phases fixed N=2 (per window; window = drain start to release end, passes included): $(phases fixed_r2)"
    echo "BENCH phases fixed N=4: $(phases fixed_r4)"
    echo "BENCH phases restore 1 GiB N=2: $(phases restore_replay)"
    awk -v n="${many}" -v mb="${mb:-0}" -v mr="${mr:-0}" -v t0="${t0:-0}" -v tc="${tc:-0}" 'BEGIN {
        printf "BENCH many allocations (%d x 64 KiB tracked, 4 KiB kernel): no SDK %.2f us, replayed N=2 %.1f us, fixed cost %.1f us (t - 2*(kernel+sync + copy+sync))\n", n, mb, mr, mr - 2 * (t0 + tc)
    }'
    echo "BENCH phases many N=2: $(phases many_r2)"
    # Hash and compare kernels: the verification of tracked memory outside the snapshot (8 GiB
    # not written, by default) and the comparison of a 1 GiB snapshot after pass 0.
    echo "BENCH verify: $(val verify_replay verify_bytes) B outside the snapshot, dispatch N=2 $(val verify_replay verify_dispatch_us_median) us;" \
        "hash calls=$(val verify_replay hash_calls) us_mean=$(val verify_replay hash_us_mean) GB/s=$(val verify_replay hash_gbps) (host-timed round trips; target >= 3500 on an H200);" \
        "compare (restore run) calls=$(val restore_replay compare_calls) us_mean=$(val restore_replay compare_us_mean) GB/s=$(val restore_replay compare_gbps)"
} | tee -a "${out}/bench.txt"
exit ${rc_all}
