#!/usr/bin/env bash
# The GPU suite: configures the project with CUDA, builds the CUDA backend and its GPU tests, runs
# `ctest -L gpu`, and prints a short table last (test, result, key numbers). Run from the repository
# root on a machine with an NVIDIA GPU (for example an H200: `bash scripts/gpu-suite.sh`).
#
#   GPU_SUITE_BUILD_DIR   build folder (default build-gpu)
#   GPU_SUITE_JOBS        build jobs (default 16)
#   GPU_SUITE_BUILD_ONLY  1: configure and build only
#   GPU_SUITE_BENCH       0: skip the benchmarks; torch: only the PyTorch batched-counting one
#   GPU_SUITE_INCLUDE     regex: run only the GPU tests it matches (GPU_SUITE_EXCLUDE: leave out)
#   OUT                   where logs go (default: the build folder); the per-test outputs are
#                         packed into one gpu-tests.tgz there, so that few files need copying back
#
# Machines without the build's header-only dependencies and GoogleTest (nothing can be installed
# there) use build-deps/, which `scripts/gpu-suite.sh --bundle-deps` makes here from this machine's
# packages (nlohmann-json3-dev, libcli11-dev, libgtest-dev, libsqlite3-dev); carry it with the call.
set -uo pipefail
cd "$(dirname "$0")/.."
root="${PWD}"
deps="${root}/build-deps"

if [ "${1:-}" = "--bundle-deps" ]; then
    rm -rf "${deps}" && mkdir -p "${deps}/include" "${deps}/cmake/nlohmann_json" "${deps}/cmake/CLI11"
    cp -r /usr/include/nlohmann /usr/include/CLI "${deps}/include/"
    cp -r /usr/src/googletest "${deps}/googletest-src"
    # SQLite (rocprofv3 -f rocpd, the rocpd command): its header and this machine's library, under
    # both names the link and the loader look for.
    mkdir -p "${deps}/sqlite/include" "${deps}/sqlite/lib"
    cp /usr/include/sqlite3.h /usr/include/sqlite3ext.h "${deps}/sqlite/include/"
    so=$(readlink -f "$(ls /usr/lib/*/libsqlite3.so.0 | head -1)")
    cp "${so}" "${deps}/sqlite/lib/libsqlite3.so.0"
    cp "${so}" "${deps}/sqlite/lib/libsqlite3.so"
    for pkg in nlohmann_json:nlohmann_json:3.11.2 CLI11:CLI11:2.1.2; do
        IFS=: read -r name target version <<<"${pkg}"
        cat >"${deps}/cmake/${name}/${name}Config.cmake" <<CFG
get_filename_component(_dir "\${CMAKE_CURRENT_LIST_DIR}/../../include" ABSOLUTE)
if(NOT TARGET ${target}::${target})
    add_library(${target}::${target} INTERFACE IMPORTED)
    set_target_properties(${target}::${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "\${_dir}")
endif()
CFG
        cat >"${deps}/cmake/${name}/${name}ConfigVersion.cmake" <<CFG
set(PACKAGE_VERSION ${version})
if(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)
    set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
    set(PACKAGE_VERSION_COMPATIBLE TRUE)
endif()
CFG
    done
    du -sh "${deps}"
    exit 0
fi

build="${GPU_SUITE_BUILD_DIR:-build-gpu}"
jobs="${GPU_SUITE_JOBS:-16}"
logs="${OUT:-${build}}"
mkdir -p "${build}" "${logs}"
log="${logs}/gpu-suite.log"
: >"${log}"
start_s=$(date +%s)

note() { echo "gpu-suite: $*" | tee -a "${log}"; }

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | tee -a "${log}"

# Dependencies: the system's, else build-deps/.
prefixes=()
if [ ! -f /usr/include/nlohmann/json.hpp ] || [ ! -d /usr/include/CLI ]; then
    [ -d "${deps}" ] || { note "nlohmann_json/CLI11 missing and no build-deps/"; exit 1; }
    prefixes+=("${deps}/cmake/nlohmann_json" "${deps}/cmake/CLI11")
    note "using header-only dependencies from build-deps/"
fi
if ! ls -d /usr/lib/*/cmake/GTest /usr/lib/cmake/GTest /usr/local/lib/cmake/GTest >/dev/null 2>&1; then
    [ -d "${deps}/googletest-src" ] || { note "GoogleTest missing and no build-deps/"; exit 1; }
    gtest_prefix="/tmp/rocp-gtest"
    if [ ! -d "${gtest_prefix}/lib/cmake/GTest" ] && [ ! -d "${gtest_prefix}/lib64/cmake/GTest" ]; then
        note "building GoogleTest from build-deps/"
        cmake -S "${deps}/googletest-src" -B /tmp/rocp-gtest-build -DCMAKE_BUILD_TYPE=Release \
            -DCMAKE_INSTALL_PREFIX="${gtest_prefix}" -DCMAKE_POSITION_INDEPENDENT_CODE=ON >>"${log}" 2>&1 &&
            cmake --build /tmp/rocp-gtest-build -j "${jobs}" >>"${log}" 2>&1 &&
            cmake --install /tmp/rocp-gtest-build >>"${log}" 2>&1 || { note "GoogleTest build failed"; exit 1; }
    fi
    prefixes+=("${gtest_prefix}")
fi
prefix_path="$(IFS=';'; echo "${prefixes[*]:-}")"
sqlite=()
if [ ! -f /usr/include/sqlite3.h ] && [ -f "${deps}/sqlite/include/sqlite3.h" ]; then
    sqlite=(-DSQLite3_INCLUDE_DIR="${deps}/sqlite/include" -DSQLite3_LIBRARY="${deps}/sqlite/lib/libsqlite3.so")
    note "using SQLite from build-deps/"
fi

generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
note "configure"
if ! cmake -S . -B "${build}" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DROCPROFILER_BUILD_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DROCPROFILER_BUILD_SAMPLES=OFF \
    -DROCPROFILER_BUILD_TESTS=ON \
    -DROCPROFILER_BUILD_BENCHMARKS=ON \
    -DCMAKE_PREFIX_PATH="${prefix_path}" "${sqlite[@]}" >>"${log}" 2>&1; then
    tail -30 "${log}"
    note "configure FAILED"
    exit 1
fi
note "build (-j${jobs})"
if ! cmake --build "${build}" -j "${jobs}" --target rocprofiler-sdk cuda-gpu-tests cuda-backend-tests cuda-metrics-tests rocprofv3 rocprofiler-sdk-tool \
    cuda-replay-bench cuda-counter-bench \
    >>"${log}" 2>&1; then
    grep -E "error|FAILED" "${log}" | head -40
    note "build FAILED"
    exit 1
fi
build_s=$(($(date +%s) - start_s))
# GPU_SUITE_BUILD_ONLY=1: configure and build, run nothing (for ad-hoc runs on the GPU machine).
if [ "${GPU_SUITE_BUILD_ONLY:-0}" = 1 ]; then
    note "built in ${build_s} s (GPU_SUITE_BUILD_ONLY=1: no tests)"
    exit 0
fi

note "ctest -L gpu"
GPU_TEST_OUTPUT_DIR="$(cd "${build}" && pwd)/gpu-tests"
rm -rf "${GPU_TEST_OUTPUT_DIR}"
export GPU_TEST_OUTPUT_DIR
# GPU_SUITE_EXCLUDE=<regex> leaves out the tests it matches (ctest -E), to split a long suite
# over several calls.
# GPU_SUITE_INCLUDE=<regex> runs only the tests it matches (ctest -R).
exclude=()
[ -n "${GPU_SUITE_EXCLUDE:-}" ] && exclude=(-E "${GPU_SUITE_EXCLUDE}")
[ -n "${GPU_SUITE_INCLUDE:-}" ] && exclude+=(-R "${GPU_SUITE_INCLUDE}")
ctest --test-dir "${build}" -L gpu "${exclude[@]}" --output-on-failure --timeout 120 2>&1 | tee "${logs}/ctest.log"
ctest_rc=${PIPESTATUS[0]}
"${build}/source/lib/rocprofiler-sdk/cuda/tests/cuda-backend-tests" >"${logs}/unit.log" 2>&1
unit_rc=$?
"${build}/source/lib/rocprofiler-sdk/cuda/tests/cuda-metrics-tests" >"${logs}/metrics-unit.log" 2>&1
metrics_rc=$?

# The replay benchmark (benchmark/cuda/): ratios against the targets, printed before the table.
# GPU_SUITE_BENCH=0 skips it.
bench_lines=()
if [ "${GPU_SUITE_BENCH:-1}" = 1 ]; then
    note "benchmark (benchmark/cuda/run_replay_bench.sh)"
    mapfile -t bench_lines < <(bash benchmark/cuda/run_replay_bench.sh "${build}/bin/cuda-replay-bench" \
        "${build}/tests/cuda/libtest-tool-cuda.so" "${build}/lib/librocprofiler-sdk.so" \
        "${GPU_TEST_OUTPUT_DIR}/bench" 2>&1)
    note "benchmark (benchmark/cuda/counters/run_counter_bench.sh)"
    mapfile -t -O "${#bench_lines[@]}" bench_lines < <(bash benchmark/cuda/counters/run_counter_bench.sh \
        "${build}/bin/rocprofv3" "${build}/bin/cuda-counter-bench" "${GPU_TEST_OUTPUT_DIR}/counter_bench" 2>&1 |
        grep -E '^BENCH|FAIL|error')
fi
if [ "${GPU_SUITE_BENCH:-1}" = 1 ] || [ "${GPU_SUITE_BENCH:-1}" = torch ]; then
    note "benchmark (benchmark/cuda/counters/run_torch_batched_bench.sh)"
    mapfile -t -O "${#bench_lines[@]}" bench_lines < <(bash benchmark/cuda/counters/run_torch_batched_bench.sh \
        "${build}/bin/rocprofv3" tests/cuda/torch_training_step.py "${GPU_TEST_OUTPUT_DIR}/torch_bench" 2>&1 |
        grep -E '^BENCH|FAIL|error')
fi
[ ${#bench_lines[@]} -eq 0 ] || printf '%s\n' "${bench_lines[@]}" >>"${log}"


# GPU_SUITE_FLUSH_MATRIX=1: the runtime program traced and replayed under CUPTI flush variants
# (docs/cuda.md, "Who flushes"), GPU_SUITE_FLUSH_REPS times each; one line per run, before the table.
matrix_lines=()
if [ "${GPU_SUITE_FLUSH_MATRIX:-0}" = 1 ]; then
    note "flush matrix"
    variants=(
        "owner|"
        "loop|ROCPROFILER_CUDA_FLUSH=loop"
        "owner_p0|ROCPROFILER_CUDA_FLUSH_PERIOD_MS=0"
        "owner_p10|ROCPROFILER_CUDA_FLUSH_PERIOD_MS=10"
        "owner_r0|ROCPROFILER_CUDA_BUFFER_RECORDS=0"
        "owner_ptb0|ROCPROFILER_CUDA_PER_THREAD_BUFFERS=0"
    )
    for v in "${variants[@]}"; do
        vname="${v%%|*}" venv="${v#*|}"
        for t in "trace 0" "runtime 3"; do
            read -r mode passes <<<"${t}"
            for rep in $(seq 1 "${GPU_SUITE_FLUSH_REPS:-2}"); do
                d="${GPU_TEST_OUTPUT_DIR}/matrix"
                mkdir -p "${d}"
                tname="m_${vname}_${mode}_${rep}"
                env ${venv} SDK_LIBRARY="${build}/lib/librocprofiler-sdk.so" \
                    TEST_TOOL="${build}/tests/cuda/libtest-tool-cuda.so" \
                    VALIDATOR="${build}/tests/cuda/cuda-gpu-validate" TEST_REPLAY_SKIP=timed_spin \
                    ROCPROFILER_CUDA_TIMING_STATS=1 ROCPROFILER_LOG_LEVEL=warning \
                    GPU_TEST_OUTPUT_DIR="${d}" timeout 120 bash tests/cuda/run_gpu_test.sh "${tname}" \
                    "${mode}" "${passes}" "${build}/tests/cuda/cuda-runtime-program" >/dev/null 2>&1
                rc=$?
                f="${d}/${tname}/validate.txt"
                nums=$(grep -E '^RESULT (launch_call|gpu_start_delay|max_timestamp|pass_gap|wall_ms)' "${f}" 2>/dev/null |
                    sed -E 's/^RESULT //' | tr '\n' ' ')
                tim=$(grep -E '^RESULT timing ' "${f}" 2>/dev/null | tr ' ' '\n' |
                    grep -E '^(flushes|flush_us_max|pass_flushes|record_wait_us_max|record_timeouts|dur_err_ns_max)=' | tr '\n' ' ')
                matrix_lines+=("$(printf '%-12s %-8s %s rc=%s %s| %s' "${vname}" "${mode}" "${rep}" "${rc}" "${nums}" "${tim}")")
            done
        done
    done
fi

# The table: one row per GPU test, with the numbers its validator printed.
tar czf "${logs}/gpu-tests.tgz" -C "$(dirname "${GPU_TEST_OUTPUT_DIR}")" gpu-tests 2>/dev/null
timing_fields='overhead_ns|dur_err_ns_p50|dur_err_ns_max|start_err_ns_max|flushes|flush_us_max|pass_flushes|record_wait_us_max|record_timeouts|restore_us_mean|snapshot_bytes_max'
if [ ${#matrix_lines[@]} -gt 0 ]; then
    echo
    echo "== flush matrix (variant mode rep rc numbers | timing) =="
    printf '%s\n' "${matrix_lines[@]}"
fi
if [ ${#bench_lines[@]} -gt 0 ]; then
    echo
    echo "== replay benchmark (benchmark/cuda) =="
    printf '%s\n' "${bench_lines[@]}"
fi
echo
echo "== GPU suite: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1), $(date -u +%F), build ${build_s} s, total $(($(date +%s) - start_s)) s =="
printf '%-34s %-7s %s\n' "test" "result" "key numbers"
while read -r line; do
    name=$(sed -E 's/.*Test +#[0-9]+: (cuda\.[A-Za-z0-9_]+) .*/\1/' <<<"${line}")
    result=FAIL
    grep -qE ' Passed ' <<<"${line}" && result=PASS
    grep -qE 'Skipped|Not Run' <<<"${line}" && result=SKIP
    short="${name#cuda.}"
    f="${GPU_TEST_OUTPUT_DIR}/${short}/validate.txt"
    numbers=""
    if [ -f "${f}" ]; then
        grep -q 'comparison_only' "${f}" && result="CMP($(grep -c '^FAIL' "${f}")F)"
        numbers=$(grep -E '^RESULT ' "${f}" |
            grep -E 'counters_|avail_|rocpd_|device_counting_|multi_gpu_|fault_|globals_|dispatches=|replayed_|max_timestamp|one_run|failures=[1-9]|latency|pass_gap|pass_detail|launch_call|gpu_start_delay|bit_identical|segments=|rows=|symbols=|notrack_|stream_capture_declined|_queues=|graph_|pc_sampling |spm ' |
            sed -E 's/^RESULT //' | tr '\n' ' ')
        timing=$(grep -E '^RESULT timing ' "${f}" | tr ' ' '\n' | grep -E "^(${timing_fields})=" | tr '\n' ' ')
        [ -n "${timing}" ] && numbers="${numbers}| ${timing}"
        [ "${result}" = SKIP ] && numbers="$(grep -h '^SKIP' "${GPU_TEST_OUTPUT_DIR}/${short}"/*.stdout 2>/dev/null | head -1) ${numbers}"
    fi
    printf '%-34s %-7s %s\n' "${name}" "${result}" "${numbers}"
done < <(grep -E 'Test +#[0-9]+: cuda\.' "${logs}/ctest.log")
printf '%-34s %-7s %s\n' "cuda-backend-tests (CPU unit)" "$([ ${unit_rc} -eq 0 ] && echo PASS || echo FAIL)" \
    "$(grep -E 'PASSED|FAILED' "${logs}/unit.log" | head -1)"
printf '%-34s %-7s %s\n' "cuda-metrics-tests (CPU unit)" "$([ ${metrics_rc} -eq 0 ] && echo PASS || echo FAIL)" \
    "$(grep -E 'PASSED|FAILED' "${logs}/metrics-unit.log" | head -1)"
agent_line=$(grep -h -m1 -E '^RESULT agent=' "${GPU_TEST_OUTPUT_DIR}"/*/validate.txt 2>/dev/null | head -1)
[ -n "${agent_line}" ] && echo "  agent: ${agent_line#RESULT }"
for t in runtime_trace runtime_replay; do
    f="${GPU_TEST_OUTPUT_DIR}/${t}/validate.txt"
    [ -f "${f}" ] && grep -E '^RESULT timed_' "${f}" | sed -E "s/^RESULT /  ${t}: /"
done
[ ${ctest_rc} -eq 0 ] && [ ${unit_rc} -eq 0 ]
