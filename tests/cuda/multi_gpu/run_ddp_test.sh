#!/usr/bin/env bash
# A PyTorch DDP training step over NCCL (ddp_step.py, one process per GPU) without the profiler,
# then under `rocprofv3 --pmc smsp__inst_executed.sum --pmc lts__t_sector_hit_rate.pct --replay-mode
# kernel --kernel-replay-beta-enabled`: nothing hangs (every run is bounded), tensors of every rank
# bit-identical, and check_ddp_outputs.py on each rank's files and log. Exits 77 (CTest SKIP)
# without PyTorch/NCCL or with fewer GPUs than the world size.
# Usage: run_ddp_test.sh <name> <world size 1|2> <rocprofv3> <ddp_step.py> <check_ddp_outputs.py>
# Environment (set by CTest): ROCPROF_TOOL_LIBRARY, ROCPROF_SDK_LIBRARY; GPU_TEST_OUTPUT_DIR
# (optional); PYTHON (default python3); MULTI_GPU_TIMEOUT_S (default 420) bounds each run.
set -u
name="$1" world="$2" rocprofv3="$3" script="$4" checker="$5"
out="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/${name}"
rm -rf "${out}" && mkdir -p "${out}/reference" "${out}/profiled" "${out}/rocprof"
v="${out}/validate.txt"
: >"${v}"
limit="${MULTI_GPU_TIMEOUT_S:-420}"
say() { echo "$*" | tee -a "${v}"; }
python="${PYTHON:-python3}"
command -v "${python}" >/dev/null 2>&1 || { say "RESULT multi_gpu_skipped=no_${python}"; echo "SKIP: no ${python}"; exit 77; }
export PYTHONUNBUFFERED=1 CUBLAS_WORKSPACE_CONFIG=:4096:8 DDP_WORLD_SIZE="${world}" DDP_TIMEOUT_S=120

timeout -k 15 "${limit}" "${python}" "${script}" run "${out}/reference" \
    >"${out}/reference.stdout" 2>"${out}/reference.stderr"
rc=$?
cat "${out}/reference.stdout"
if [ ${rc} -eq 77 ]; then
    say "RESULT multi_gpu_skipped=$(grep -m1 '^SKIP' "${out}/reference.stdout" | tr ' ' '_')"
    exit 77
fi
if [ ${rc} -ne 0 ]; then
    tail -30 "${out}/reference.stderr"
    [ ${rc} -eq 124 ] || [ ${rc} -eq 137 ] && say "FAIL: the reference run (no profiler) did not finish within ${limit} s"
    say "FAIL: the reference run (no profiler) exited with ${rc}"
    exit 1
fi

start=$(date +%s%N)
env DDP_RANK_STDERR=1 ROCPROFILER_LOG_LEVEL=debug timeout -k 15 "${limit}" "${rocprofv3}" \
    --pmc smsp__inst_executed.sum --pmc lts__t_sector_hit_rate.pct --replay-mode kernel \
    --kernel-replay-beta-enabled --kernel-trace --output-format csv json -d "${out}/rocprof" -- \
    "${python}" "${script}" run "${out}/profiled" >"${out}/profiled.stdout" 2>"${out}/profiled.stderr"
rc=$?
end=$(date +%s%N)
cat "${out}/profiled.stdout"
grep -v -E '^\[rocprofiler-sdk\]\[debug\]' "${out}/profiled.stderr" | head -30
for f in "${out}"/profiled/rank*.stderr; do
    [ -f "${f}" ] && grep -v -E '^\[rocprofiler-sdk\]\[debug\]' "${f}" | head -10
done
say "RESULT multi_gpu_ddp_world_size=${world}"
say "RESULT multi_gpu_wall_ms=$(((end - start) / 1000000))"
fail=0
if [ ${rc} -eq 124 ] || [ ${rc} -eq 137 ]; then
    say "FAIL: the profiled run did not finish within ${limit} s (hang)"
    exit 1
fi
if [ ${rc} -ne 0 ]; then
    say "FAIL: rocprofv3 exited with ${rc}"
    fail=1
fi
set -o pipefail
if ! "${python}" "${script}" compare "${out}/reference" "${out}/profiled" | tee -a "${v}"; then fail=1; fi
if ! "${python}" "${checker}" "${out}/rocprof/$(uname -n)" "${out}/profiled" "${world}" | tee -a "${v}"; then fail=1; fi
exit ${fail}
