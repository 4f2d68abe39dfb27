#!/usr/bin/env bash
# Kernel replay at full GPU memory: torch_full_memory.py holding 90% of the device's memory (and,
# for comparison, 8 GiB), under rocprofv3 with two and with four --pmc groups and kernel replay,
# and under Nsight Compute's kernel replay with the same metrics, in the same run. A benchmark, not
# a test: it exits 1 only when a run failed or a profiled run's results differ from the run
# without a profiler. Prints a table last; README.md in this folder explains the columns.
# Usage: run_full_memory_bench.sh <rocprofv3> <outdir>
# Environment:
#   BENCH_HOLD_FRACTION  fraction of the device's memory held (default 0.9)
#   BENCH_STEPS          training steps per run (default 2: the first sees every kernel for the
#                        first time, the second replays what the first learned)
#   BENCH_PARTS          what runs besides the references: "rocprofv3", "ncu" or "all" (default)
#   BENCH_TIMEOUT        seconds per run (default 600)
#   NCU                  ncu to use (default: PATH, then /usr/local/cuda/bin/ncu)
set -u
rocprofv3="$1" out="$2"
here="$(cd "$(dirname "$0")" && pwd)"
rm -rf "${out}" && mkdir -p "${out}"
python="${PYTHON:-python3}"
program="${here}/torch_full_memory.py"
fraction="${BENCH_HOLD_FRACTION:-0.9}"
steps="${BENCH_STEPS:-2}"
limit="${BENCH_TIMEOUT:-600}"
ncu="${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}"
export PYTHONUNBUFFERED=1 CUBLAS_WORKSPACE_CONFIG=:4096:8
two=(smsp__inst_executed.sum dram__bytes_read.sum)
four=(smsp__inst_executed.sum dram__bytes_read.sum dram__bytes_write.sum sm__cycles_elapsed.avg)
fail=0
rows=()

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# run <name> <hold args> -- <command prefix...>: runs the program, records wall time and exit.
run() {
    local name="$1" hold="$2"
    shift 3
    local start end rc
    start=$(now_ms)
    # shellcheck disable=SC2086
    timeout "${limit}" "$@" "${python}" "${program}" "${out}/${name}.bin" ${hold} --steps "${steps}" \
        >"${out}/${name}.stdout" 2>"${out}/${name}.stderr"
    rc=$?
    end=$(now_ms)
    echo "$((end - start))" >"${out}/${name}.ms"
    echo "${rc}" >"${out}/${name}.rc"
    if [ "${rc}" -eq 77 ]; then cat "${out}/${name}.stdout"; exit 77; fi
    [ "${rc}" -eq 0 ] || { echo "FAIL: ${name} exited with ${rc}"; tail -5 "${out}/${name}.stderr"; fail=1; }
}

identical() { cmp -s "${out}/reference.bin" "${out}/$1.bin" && echo yes || echo NO; }

# Replay statistics from the SDK's debug lines: replayed, declined, ended early, and the ratio of
# shadow bytes to written bytes per replayed dispatch (median, max; over dispatches that wrote).
replay_stats() {
    grep -a '^\[rocprofiler-sdk\]\[debug\] \[kernel-replay\]\|\[kernel-replay\] dispatch_id' "$1" |
        python3 -c '
import re, statistics, sys
rep = dec = early = 0; ratios = []; learned = []; reasons = {}
for line in sys.stdin:
    m = re.search(r"outcome=(\w+) reason=(\w+)", line)
    if not m: continue
    outcome, reason = m.groups()
    if outcome == "declined":
        if reason in ("single_pass", "not_requested"): continue
        dec += 1; reasons[reason] = reasons.get(reason, 0) + 1; continue
    if reason == "none": rep += 1
    else: early += 1; reasons[reason] = reasons.get(reason, 0) + 1
    s = re.search(r"snapshot_bytes=(\d+) verified_bytes=(\d+) written_bytes=(\d+) .*?prediction=(\w+)", line)
    if s and int(s.group(3)) > 0:
        r = int(s.group(1)) / int(s.group(3)); ratios.append(r)
        if s.group(4) == "learned": learned.append(r)
med = lambda v: f"{statistics.median(v):.2f}" if v else "-"
mx = lambda v: f"{max(v):.2f}" if v else "-"
why = ",".join(f"{k}:{v}" for k, v in sorted(reasons.items())) or "-"
print(f"{rep} {dec} {early} {why} {med(ratios)} {mx(ratios)} {med(learned)} {mx(learned)}")
'
}

hold_full="--hold-fraction ${fraction}"
hold_small="--hold-gib 8"
run reference "${hold_full}" --
run reference8 "${hold_small}" --
cmp -s "${out}/reference.bin" "${out}/reference8.bin" ||
    echo "note: the 8 GiB and the full-memory reference differ (expected only if the program is nondeterministic)"

pmc_args() { local a=(); for m in "$@"; do a+=(--pmc "${m}"); done; echo "${a[@]}"; }
metrics_of() { if [ "$1" = two ]; then echo "${two[@]}"; else echo "${four[@]}"; fi; }
parts="${BENCH_PARTS:-all}"
# The default verification (every tracked allocation outside the snapshot) and the reachable one
# (the allocations the kernel's pointers reach), docs/kernel_replay.md.
for verify in all reachable; do
    for groups in two four; do
        [ "${parts}" = ncu ] && break
        read -r -a metrics <<<"$(metrics_of "${groups}")"
        name="rocprofv3_${groups}"
        [ "${verify}" = all ] || name="${name}_${verify}"
        # shellcheck disable=SC2046
        run "${name}" "${hold_full}" -- env ROCPROFILER_LOG_LEVEL=debug \
            ROCPROFILER_REPLAY_VERIFY="${verify}" "${rocprofv3}" $(pmc_args "${metrics[@]}") \
            --replay-mode kernel --kernel-replay-beta-enabled -f csv -d "${out}/${name}.d" -o run --
    done
done
# The same program at 8 GiB held: the predicted snapshot against the whole-footprint snapshot the
# SDK took before (ROCPROFILER_REPLAY_SNAPSHOT=all).
for scope in predicted all; do
    [ "${parts}" = ncu ] && break
    # shellcheck disable=SC2046
    run "rocprofv3_two_8gib_${scope}" "${hold_small}" -- env ROCPROFILER_LOG_LEVEL=debug \
        ROCPROFILER_REPLAY_SNAPSHOT="${scope}" "${rocprofv3}" $(pmc_args "${two[@]}") \
        --replay-mode kernel --kernel-replay-beta-enabled -f csv -d "${out}/rocprofv3_8_${scope}.d" -o run --
done
if [ "${parts}" != rocprofv3 ] && [ -x "${ncu}" ]; then
    for groups in two four; do
        read -r -a metrics <<<"$(metrics_of "${groups}")"
        run "ncu_${groups}" "${hold_full}" -- "${ncu}" --replay-mode kernel --clock-control none \
            --metrics "$(IFS=,; echo "${metrics[*]}")" -o "${out}/ncu_${groups}" -f --
    done
fi

ref_ms=$(cat "${out}/reference.ms")
ref8_ms=$(cat "${out}/reference8.ms")
printf '%-26s %9s %8s %9s %9s %7s %-28s %13s %13s\n' run wall_ms "+ms" identical replayed declined \
    "ended early (reasons)" "ratio med/max" "learned m/max"
for name in rocprofv3_two rocprofv3_four rocprofv3_two_reachable rocprofv3_four_reachable ncu_two \
    ncu_four rocprofv3_two_8gib_predicted rocprofv3_two_8gib_all; do
    [ -f "${out}/${name}.ms" ] || continue
    ms=$(cat "${out}/${name}.ms")
    base=${ref_ms}
    case "${name}" in *8gib*) base=${ref8_ms} ;; esac
    ref="reference"
    case "${name}" in *8gib*) ref="reference8" ;; esac
    same=$(cmp -s "${out}/${ref}.bin" "${out}/${name}.bin" && echo yes || echo NO)
    [ "${same}" = yes ] || fail=1
    stats="- - - - - - - -"
    case "${name}" in rocprofv3*) stats=$(replay_stats "${out}/${name}.stderr") ;; esac
    read -r rep dec early why rmed rmax lmed lmax <<<"${stats}"
    printf '%-26s %9s %8s %9s %9s %7s %-28s %13s %13s\n' "${name}" "${ms}" "$((ms - base))" \
        "${same}" "${rep}" "${dec}" "${early} (${why})" "${rmed}/${rmax}" "${lmed}/${lmax}"
done
echo "reference wall_ms: ${ref_ms} (full memory), ${ref8_ms} (8 GiB); $(cat "${out}/reference.stdout")"
exit "${fail}"
