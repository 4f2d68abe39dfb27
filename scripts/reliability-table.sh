#!/usr/bin/env bash
# Runs the tests of the `reliability` CTest label (the reproductions of issue 17: bad environment
# values, tool variables and command lines, output directories, tools and callbacks that throw,
# exit-time messages, bounded replay, a short soak) and prints one row per test: case, result,
# seconds. Exits with ctest's status.
# Usage: scripts/reliability-table.sh [build directory (default: build)] [extra ctest arguments]
set -uo pipefail
cd "$(dirname "$0")/.."

build="${1:-build}"
[ $# -gt 0 ] && shift
if [ ! -f "${build}/CTestTestfile.cmake" ]; then
    echo "scripts/reliability-table.sh: '${build}' is not a configured build directory" >&2
    exit 2
fi

log="$(mktemp)"
trap 'rm -f "${log}"' EXIT
ctest --test-dir "${build}" -L reliability -LE 'gpu|soak' -j 2 --timeout 300 "$@" >"${log}" 2>&1
status=$?

# ctest's result lines: "  3/21 Test  #7: name ......   Passed    0.52 sec" (or "***Failed",
# "***Timeout", "***Exception: ...", "Not Run").
awk '
/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: / {
    line = $0
    sub(/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: /, "", line)
    name = line; sub(/ .*/, "", name)
    rest = substr(line, length(name) + 1)
    sub(/^ *\.* */, "", rest)
    seconds = ""
    if (match(rest, /[0-9.]+ sec$/)) {
        seconds = substr(rest, RSTART, RLENGTH - 4)
        rest = substr(rest, 1, RSTART - 1)
    }
    sub(/^\*+/, "", rest); sub(/ +$/, "", rest)
    result = (rest == "Passed") ? "pass" : "FAIL (" rest ")"
    rows[++n] = sprintf("| %s | %s | %s |", name, result, seconds)
    if (length(name) > width) width = length(name)
}
END {
    if (n == 0) { print "no test ran (is the `reliability` label defined in this build?)"; exit 1 }
    print "| case | result | seconds |"
    print "|---|---|---|"
    for (i = 1; i <= n; ++i) print rows[i]
}' "${log}" | { read -r header; echo "${header}"; read -r rule; echo "${rule}"; sort -t'|' -k2,2; }
awk_status=${PIPESTATUS[0]}

grep -E "tests passed|tests failed" "${log}" | tail -n 1
if [ "${status}" -ne 0 ]; then
    echo "scripts/reliability-table.sh: ctest failed; its output:" >&2
    grep -E "^The following tests FAILED|^\s+[0-9]+ - " "${log}" >&2
fi
[ "${awk_status}" -ne 0 ] && exit 1
exit "${status}"
