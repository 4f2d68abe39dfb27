#!/usr/bin/env bash
# One-pass counters on a PyTorch training step (tests/cuda/torch_training_step.py: 95 kernel
# launches): the batched path (one CUPTI range-profiler session over up to
# ROCPROFILER_CUDA_COUNTER_BATCH dispatches, the default) against the per-dispatch path
# (ROCPROFILER_CUDA_COUNTER_BATCH=0: a CUPTI session per dispatch), Nsight Compute on the same
# metrics (--clock-control none) and the step without a profiler, in the same run. A benchmark,
# not a test: medians of wall times and ratios, no timed assertion; it exits 1 only when a run
# failed or the two rocprofv3 paths disagree on a value.
# Usage: run_torch_batched_bench.sh <rocprofv3> <torch_training_step.py> <outdir>
# Environment: BENCH_TORCH_REPS (default 3), BENCH_TORCH_METRICS (default: two one-pass counters),
#              NCU (default: PATH, then /usr/local/cuda/bin/ncu).
set -u
rocprofv3="$1" script="$2" out="$3"
rm -rf "${out}" && mkdir -p "${out}"
reps="${BENCH_TORCH_REPS:-3}"
metrics="${BENCH_TORCH_METRICS:-smsp__inst_executed.sum,smsp__warps_launched.sum}"
ncu="${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}"
python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null ||
    { echo "BENCH torch_batched SKIP: PyTorch with CUDA is not importable"; exit 0; }

wall() { # tag, command...: runs it, prints seconds; output in ${out}/<tag>.log
    local tag="$1"
    shift
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >"${out}/${tag}.log" 2>&1 || { echo "FAIL ${tag}: exit $?" >&2; echo -1; return; }
    t1=$(date +%s.%N)
    echo "${t1} ${t0}" | awk '{ printf "%.3f\n", $1 - $2 }'
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR ? a[int((NR + 1) / 2)] : -1) }'; }

declare -A times
fail=0
for ((i = 0; i < reps; ++i)); do
    times[plain]+="$(wall plain python3 "${script}" "${out}/plain.bin") "
    times[batched]+="$(wall batched "${rocprofv3}" --pmc "${metrics//,/ }" -f csv -d "${out}/batched" -o run \
        -- python3 "${script}" "${out}/batched.bin") "
    times[per_dispatch]+="$(wall per_dispatch env ROCPROFILER_CUDA_COUNTER_BATCH=0 "${rocprofv3}" \
        --pmc "${metrics//,/ }" -f csv -d "${out}/per_dispatch" -o run -- python3 "${script}" "${out}/per.bin") "
    if [ -x "${ncu}" ]; then
        times[ncu]+="$(wall ncu "${ncu}" --clock-control none --metrics "${metrics}" --csv \
            python3 "${script}" "${out}/ncu.bin") "
    fi
done
for tag in plain batched per_dispatch ncu; do
    [ -n "${times[${tag}]:-}" ] || continue
    if grep -qw -- -1 <<<"${times[${tag}]}"; then fail=1; fi
done

# The two rocprofv3 paths must give the same values (the step is deterministic).
same=$(python3 - "${out}/batched/run_counter_collection.csv" "${out}/per_dispatch/run_counter_collection.csv" <<'PY'
import csv, sys
def load(path):
    try:
        rows = list(csv.DictReader(open(path)))
    except OSError:
        return None
    return sorted((r["Kernel_Name"], r["Counter_Name"], r["Counter_Value"]) for r in rows)
a, b = load(sys.argv[1]), load(sys.argv[2])
print("%d %d %d" % (len(a or []), len(b or []), int(a is not None and a == b and len(a) > 0)))
PY
)
read -r rows_batched rows_per equal <<<"${same}"
[ "${equal}" = 1 ] || { echo "FAIL: batched and per-dispatch values differ (${rows_batched} vs ${rows_per} rows)" >&2; fail=1; }

m() { tr ' ' '\n' <<<"${times[$1]:-}" | grep -v '^$' | median; }
plain=$(m plain) batched=$(m batched) per=$(m per_dispatch) ncu_s=$(m ncu)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else print "n/a" }'; }
echo "BENCH torch_batched metrics=${metrics} reps=${reps} rows=${rows_batched} values_equal=${equal}" \
    "plain_s=${plain} batched_s=${batched} per_dispatch_s=${per} ncu_s=${ncu_s:-n/a}" \
    "per_dispatch/batched=$(ratio "${per}" "${batched}") ncu/batched=$(ratio "${ncu_s:-0}" "${batched}")" \
    "batched/plain=$(ratio "${batched}" "${plain}")"
exit ${fail}
