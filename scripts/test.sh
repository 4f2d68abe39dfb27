#!/usr/bin/env bash
# The project's test command: configures, builds and runs every CPU test, then the same suite
# under AddressSanitizer and UndefinedBehaviorSanitizer, then the concurrent parts under
# ThreadSanitizer, then the fuzzers' bounded runs. Exits non-zero on any failure.
# Usage: scripts/test.sh [--no-sanitizers]
set -euo pipefail
cd "$(dirname "$0")/.."

jobs="$(nproc 2>/dev/null || echo 2)"
sanitizers=1
[ "${1:-}" = "--no-sanitizers" ] && sanitizers=0

# Says whether the CUDA parts are compiled in a build, so that a machine without the toolkit is
# noticed.
report_cuda() {
    if grep -q '^ROCPROFILER_BUILD_CUDA:BOOL=ON' "$1/CMakeCache.txt"; then
        echo "scripts/test.sh: $1: CUDA parts compiled (CUDA backend and GPU test programs; GPU tests run only on a GPU machine: scripts/gpu-suite.sh)"
    else
        echo "scripts/test.sh: $1: CUDA parts NOT compiled"
    fi
}

# Compile flags per build: line tables only (-g1: backtraces and sanitizer reports keep file and
# line, and the template-heavy test sources compile about 30% faster than with -g); the
# sanitizer builds at -O1, as the sanitizers' documentation advises (a validator that takes 22 s at
# -O2 -g takes 6.6 s at -O1 -g1).
o2_flags=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG")
o1_flags=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG")
# How long each stage took, so that the CI log shows where its time goes.
start_s=$(date +%s)
stage_s=${start_s}
stage() {
    local now
    now=$(date +%s)
    echo "scripts/test.sh: stage '$1' took $((now - stage_s)) s (total $((now - start_s)) s)"
    stage_s=${now}
}

run_suite() {
    local dir="$1"; shift
    cmake -S . -B "${dir}" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROCPROFILER_WERROR=ON \
        -DROCPROFILER_BUILD_TESTS=ON "$@"
    report_cuda "${dir}"
    cmake --build "${dir}" -j "${jobs}"
    stage "${dir}: build"
    # `gpu`: needs a GPU (scripts/gpu-suite.sh); `soak`: a 30-minute run (ctest -L soak).
    ctest --test-dir "${dir}" --output-on-failure -j "${jobs}" --timeout 300 -LE 'gpu|soak'
    stage "${dir}: ctest"
}

scripts/check-format.sh
scripts/check-layering.sh
stage "format and layering"
run_suite build "${o2_flags[@]}"
if [ "${sanitizers}" -eq 1 ]; then
    # rocprofv3 preloads the (instrumented) SDK and tool libraries ahead of the application, so
    # the ASan runtime is not the first library; it is still loaded before any of them runs.
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:verify_asan_link_order=0 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        run_suite build-sanitizers -DROCPROFILER_BUILD_SANITIZERS=ON -DROCPROFILER_BUILD_CUDA=OFF "${o1_flags[@]}"
fi
if [ "${sanitizers}" -eq 1 ]; then
    # ThreadSanitizer on the concurrent parts: the host device runtime, buffers and callback
    # threads, kernel replay, counters, PC sampling's signal handler and SPM's sampler thread (each
    # binary runs whole, so threads of consecutive tests overlap as they would in a tool).
    tsan_targets=(host-runtime-tests rocprofiler-sdk-buffer-tests kernel-replay-tests kernel-replay-stress-tests kernel-replay-multi-agent-tests
                  kernel-replay-reliability-tests rocprofiler-sdk-counters-tests rocprofiler-sdk-pc-sampling-tests
                  rocprofiler-sdk-spm-tests
                  rocprofiler-sdk-memory-copy-tests rocprofiler-sdk-device-counting-tests)
    cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROCPROFILER_WERROR=ON \
        -DROCPROFILER_BUILD_TESTS=ON -DROCPROFILER_BUILD_TSAN=ON -DROCPROFILER_BUILD_CUDA=OFF -DROCPROFILER_BUILD_SAMPLES=OFF \
        "${o1_flags[@]}"
    cmake --build build-tsan -j "${jobs}" --target "${tsan_targets[@]}"
    stage "build-tsan: build"
    for target in "${tsan_targets[@]}"; do
        binary="$(find build-tsan -type f -name "${target}" -perm -u+x | head -n 1)"
        echo "scripts/test.sh: ThreadSanitizer: ${target}"
        TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" ROCPROFILER_HOST_WORKERS=4 \
            "${binary}" --gtest_brief=1
    done
    stage "build-tsan: tests"
fi
if [ "${sanitizers}" -eq 1 ]; then
    # The fuzzers (tests/fuzz/, clang and libFuzzer with ASan and UBSan): each over its corpus,
    # then a bounded run from a fixed seed (FUZZ_RUNS inputs, at most FUZZ_SECONDS seconds).
    # Longer runs: scripts/fuzz.sh <target> <seconds>.
    cmake -S tests/fuzz -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
    cmake --build build-fuzz -j "${jobs}"
    stage "build-fuzz: build"
    ctest --test-dir build-fuzz --output-on-failure -j "${jobs}" -L fuzz
    stage "build-fuzz: ctest"
fi
report_cuda build
echo "scripts/test.sh: all test suites passed"
