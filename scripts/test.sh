#!/usr/bin/env bash
# The project's test command: configures, builds and runs every CPU test, then the same suite
# under AddressSanitizer and UndefinedBehaviorSanitizer. Exits non-zero on any failure.
# Usage: scripts/test.sh [--no-sanitizers]
set -euo pipefail
cd "$(dirname "$0")/.."

jobs="$(nproc 2>/dev/null || echo 2)"
sanitizers=1
[ "${1:-}" = "--no-sanitizers" ] && sanitizers=0

run_suite() {
    local dir="$1"; shift
    cmake -S . -B "${dir}" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROCPROFILER_WERROR=ON "$@"
    cmake --build "${dir}" -j "${jobs}"
    ctest --test-dir "${dir}" --output-on-failure -j "${jobs}" --timeout 300 -LE gpu
}

run_suite build
if [ "${sanitizers}" -eq 1 ]; then
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        run_suite build-sanitizers -DROCPROFILER_BUILD_SANITIZERS=ON -DROCPROFILER_BUILD_CUDA=OFF
fi
echo "scripts/test.sh: all test suites passed"
