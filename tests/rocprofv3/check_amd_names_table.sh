#!/bin/sh
# check_amd_names_table.sh CLI SDK_LIB TOOL_LIB SHARE_DIR PROGRAM WORK
# A broken table of AMD's counter names (share/rocprofiler-sdk/amd_equivalents.json) beside a copy
# of rocprofv3 and its libraries: never a crash. A file that is not a table gives one warning
# per program that reads it and no AMD names (-L lists none; --pmc SQ_WAVES is an unknown counter,
# exit 2, not "no equivalent"); a table with one bad entry skips that entry alone, with a message
# naming it, and the other names still work. A missing table is a warning too.
set -u
cli=$1 sdk=$2 tool=$3 share=$4 prog=$5 work=$6
rm -rf "$work" && mkdir -p "$work/bin" "$work/lib" "$work/share/rocprofiler-sdk" || exit 1
cd "$work" || exit 1
cp "$cli" bin/rocprofv3 && cp "$tool" lib/ && cp "$share/metrics.json" share/rocprofiler-sdk/ || exit 1
# The SDK library and its soname links, as installed.
cp -P "$(dirname "$sdk")"/librocprofiler-sdk.so* lib/ || exit 1
table=share/rocprofiler-sdk/amd_equivalents.json
export ROCPROFILER_CUDA_AGENTS=0 LD_LIBRARY_PATH="$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fail() {
    echo "FAIL: $*"
    echo "--- stdout:"; head -c 3000 stdout.txt
    echo "--- stderr:"; head -c 3000 stderr.txt
    exit 1
}
# list: rocprofv3 -L with the table in place; 124: it hung.
list() {
    timeout 120 bin/rocprofv3 -L >stdout.txt 2>stderr.txt </dev/null
    rc=$?
    [ "$rc" -eq 0 ] || fail "-L: exit code $rc, expected 0"
}

# Sanity: the good table gives the names, and the copy reads its own table.
cp "$share/amd_equivalents.json" "$table" || exit 1
list
grep -q "equivalent of AMD's SQ_WAVES" stdout.txt || fail "good table: SQ_WAVES not listed"

# Not JSON: one warning naming the file, no AMD names, no "without an equivalent" section.
printf '{"version": 1, "equivalents": [' >"$table"
list
n=$(grep -c "AMD counter names: .*amd_equivalents.json.*AMD's counter names are not offered" stderr.txt)
[ "$n" -eq 1 ] || fail "not JSON: $n warnings, expected 1"
grep -q "SQ_WAVES" stdout.txt && fail "not JSON: an AMD name is listed"
grep -q "WORK_ITEMS" stdout.txt || fail "not JSON: the native counters are not listed"
timeout 120 bin/rocprofv3 --pmc SQ_WAVES -d out -- "$prog" >stdout.txt 2>stderr.txt </dev/null
rc=$?
[ "$rc" -eq 2 ] || fail "not JSON: --pmc SQ_WAVES exit code $rc, expected 2"
grep -q "unknown counter 'SQ_WAVES'" stderr.txt || fail "not JSON: not an unknown counter"
grep -q "no equivalent" stderr.txt && fail "not JSON: says 'no equivalent'"

# Wrong version: the same.
printf '{"version": 7, "equivalents": []}' >"$table"
list
grep -q "\"version\" must be 1; AMD's counter names are not offered" stderr.txt ||
    fail "wrong version: no warning"
grep -q "SQ_WAVES" stdout.txt && fail "wrong version: an AMD name is listed"

# One bad entry (a bad expression for SQ_WAVES): it alone is skipped; Wavefronts still works.
python3 - "$share/amd_equivalents.json" "$table" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
for e in doc["equivalents"]:
    if e["name"] == "SQ_WAVES":
        for d in e["definitions"]:
            d["expression"] = "WORK_ITEMS +"
json.dump(doc, open(sys.argv[2], "w"))
PY
list
grep -q "AMD counter name 'SQ_WAVES': bad expression" stderr.txt || fail "bad entry: no message"
grep -q "^  SQ_WAVES	equivalent" stdout.txt && fail "bad entry: SQ_WAVES is a counter"
grep -q "^  SQ_WAVES	no equivalent: its equivalent WORK_ITEMS + is not offered by the SDK" \
    stdout.txt || fail "bad entry: SQ_WAVES is not listed as not offered"
grep -q "^  Wavefronts	equivalent of AMD's Wavefronts" stdout.txt ||
    fail "bad entry: Wavefronts is not listed"

# Missing: one warning, no AMD names.
rm -f "$table"
list
n=$(grep -c "amd_equivalents.json is missing; AMD's counter names are not offered" stderr.txt)
[ "$n" -eq 1 ] || fail "missing: $n warnings, expected 1"
grep -q "SQ_WAVES" stdout.txt && fail "missing: an AMD name is listed"
echo "check_amd_names_table: OK"
