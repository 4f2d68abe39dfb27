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
#              BENCH_TORCH_STEPS (training steps in one process, default 2: 95 launches; more
#              steps make the counting cost stand out of Python's and PyTorch's start-up),
#              NCU (default: PATH, then /usr/local/cuda/bin/ncu).
set -u
rocprofv3="$1" script="$2" out="$3"
rm -rf "${out}" && mkdir -p "${out}"
reps="${BENCH_TORCH_REPS:-3}"
metrics="${BENCH_TORCH_METRICS:-smsp__inst_executed.sum,smsp__warps_launched.sum}"
export TORCH_STEPS="${BENCH_TORCH_STEPS:-2}"
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
    times[batched]+="$(wall batched env ROCPROFILER_CUDA_TIMING_STATS=1 "${rocprofv3}" --pmc "${metrics//,/ }" -f csv -d "${out}/batched" -o run \
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

# The two rocprofv3 paths must give the same values. A kernel whose count varies from run to run
# (split-K GEMMs that finish with atomics do: Nsight Compute and the per-dispatch path disagree on
# it too) may differ by up to 1%; anything else is a failure. The differing kernels are named.
same=$(python3 - "${out}/batched/run_counter_collection.csv" "${out}/per_dispatch/run_counter_collection.csv" "${out}/ncu.log" <<'PY'
import collections, csv, re, sys
def load(path):
    try:
        rows = list(csv.DictReader(open(path)))
    except OSError:
        return None
    out = collections.defaultdict(list)
    for r in rows:
        out[(r["Kernel_Name"], r["Counter_Name"])].append(float(r["Counter_Value"]))
    return {k: sorted(v) for k, v in out.items()}
def base(name):  # Nsight Compute spells template arguments differently: match on the base name
    return re.split(r"[<(]", name, 1)[0].strip()
def load_ncu(path):
    out = collections.defaultdict(list)
    try:
        lines = [l for l in open(path) if l.startswith('"')]
    except OSError:
        return out
    for r in csv.DictReader(lines):
        try:
            out[(base(r["Kernel Name"]), r["Metric Name"])].append(float(r["Metric Value"].replace(",", "")))
        except (KeyError, ValueError):
            pass
    return out
a, b, ncu = load(sys.argv[1]), load(sys.argv[2]), load_ncu(sys.argv[3])
if not a or not b or set(a) != set(b):
    print("0 0 0 0 none")
    sys.exit()
total = sum(len(v) for v in a.values())
equal = 0
spread_only, wrong = [], []
for key, va in a.items():
    vb = b[key]
    equal += sum(1 for x, y in zip(va, vb) if x == y)
    if va == vb:
        continue
    # Variation is shown when the two references disagree on the kernel (per-dispatch here,
    # Nsight Compute in its own run); then each batched value must be within 1% of a reference's.
    ref = ncu.get((base(key[0]), key[1]), [])
    varies = bool(ref) and sorted(ref) != vb
    seen = vb + ref
    near = all(any(abs(x - y) <= 0.01 * max(abs(y), 1.0) for y in seen) for x in va)
    (spread_only if varies and near and len(va) == len(vb) else wrong).append(key[0][:40])
print(total, equal, len(spread_only), len(wrong), ";".join(sorted(set(spread_only + wrong))).replace(" ", "_") or "none")
PY
)
read -r rows_batched equal_rows spread_kernels wrong_kernels differing <<<"${same}"
equal=$([ "${rows_batched}" -gt 0 ] && [ "${wrong_kernels}" = 0 ] && echo 1 || echo 0)
[ "${equal}" = 1 ] || { echo "FAIL: batched and per-dispatch values differ beyond a kernel's run-to-run spread (${wrong_kernels} kernel(s): ${differing})" >&2; fail=1; }

# How many range-profiler sessions the batched path opened for how many counted executions (its
# [cuda-metrics] line at exit; the statistics are kept in every run, printing them costs nothing).
stat() { grep -o "\b$1=[0-9]*" "${out}/batched.log" 2>/dev/null | tail -1 | cut -d= -f2; }
sessions=$(stat batch_sessions) batched_execs=$(stat batched)
m() { tr ' ' '\n' <<<"${times[$1]:-}" | grep -v '^$' | median; }
plain=$(m plain) batched=$(m batched) per=$(m per_dispatch) ncu_s=$(m ncu)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else print "n/a" }'; }
echo "BENCH torch_batched metrics=${metrics} steps=${TORCH_STEPS} reps=${reps} rows=${rows_batched} values_equal=${equal_rows}/${rows_batched}" \
    "differing_within_spread=${spread_kernels} differing_beyond=${wrong_kernels} differing_kernels=${differing}" \
    "batch_sessions=${sessions:-n/a} batched_executions=${batched_execs:-n/a}" \
    "plain_s=${plain} batched_s=${batched} per_dispatch_s=${per} ncu_s=${ncu_s:-n/a}" \
    "per_dispatch/batched=$(ratio "${per}" "${batched}") ncu/batched=$(ratio "${ncu_s:-0}" "${batched}")" \
    "batched/plain=$(ratio "${batched}" "${plain}")"
exit ${fail}
