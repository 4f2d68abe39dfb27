#!/usr/bin/env bash
# One longer run of one fuzzer (tests/fuzz/): builds the fuzzers with clang when needed, then runs
# fuzz_<target> for <seconds> on a working copy of its corpus in build-fuzz/long/<target>/, so new
# inputs never land in the source tree. A crash, leak, timeout or sanitizer report stops the run
# and leaves the input under build-fuzz/long/<target>/artifacts/: fix it, then add the input to
# tests/fuzz/corpus/<target>/ as a regression case.
#   scripts/fuzz.sh <target> <seconds>        e.g. scripts/fuzz.sh metrics_file 1800
# FUZZ_TIMEOUT (seconds, default 10) is the time one input may take before it counts as a hang:
# raise it when the fuzzer shares a busy machine at low priority (a starved input is no hang).
#   scripts/fuzz.sh --list
set -euo pipefail
cd "$(dirname "$0")/.."
build="${FUZZ_BUILD_DIR:-build-fuzz}"
targets=$(sed -n 's/^ *fuzz_target(\([a-z_]*\) .*/\1/p' tests/fuzz/CMakeLists.txt)
if [ "${1:-}" = "--list" ]; then echo "${targets}"; exit 0; fi
if [ $# -ne 2 ] || ! grep -qx "$1" <<<"${targets}" || ! [[ "$2" =~ ^[0-9]+$ ]]; then
    echo "usage: scripts/fuzz.sh <target> <seconds>; targets:" ${targets} >&2
    exit 2
fi
if ! [[ "${FUZZ_TIMEOUT:-10}" =~ ^[1-9][0-9]*$ ]]; then
    echo "fuzz.sh: FUZZ_TIMEOUT='${FUZZ_TIMEOUT}' is not a whole number of seconds" >&2
    exit 2
fi
target="$1"
seconds="$2"
cmake -S tests/fuzz -B "${build}" -G Ninja -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build "${build}" --target "fuzz_${target}" >/dev/null
work="${build}/long/${target}"
mkdir -p "${work}/corpus" "${work}/artifacts"
cp -n tests/fuzz/corpus/"${target}"/* "${work}/corpus/" 2>/dev/null || true
dict=()
[ -f "tests/fuzz/dict/${target}.dict" ] && dict=("-dict=tests/fuzz/dict/${target}.dict")
echo "fuzz.sh: ${target} for ${seconds} s, corpus ${work}/corpus"
"${build}/fuzz_${target}" -max_total_time="${seconds}" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="${work}/artifacts/" "${dict[@]}" \
    "${work}/corpus"
