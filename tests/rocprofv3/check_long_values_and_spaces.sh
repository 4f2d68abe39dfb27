#!/bin/sh
# check_long_values_and_spaces.sh CLI PROG WORK
# Issue 34, items 3 and 4, on a real run:
# - a value too long for exec (a 200,000-byte regex from an input file) is rocprofv3's usage error
#   (exit 1) naming the option and the limit, the application not run; never "Argument list too
#   long" at exec (exit 126);
# - 200,000 repeats of a counter in a text input file are one counter: the run succeeds;
# - a --preload path with a space is refused (exit 1) naming it;
# - rocprofv3 installed under a path with a space runs and traces (its libraries are preloaded
#   through links in the run's private directory), and says clearly when no such directory can
#   be made (TMPDIR with a space: exit 2, the application not run).
set -u
cli=$1 prog=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() {
    echo "FAIL: $*"
    echo "--- stderr:"
    head -c 2000 stderr.txt
    exit 1
}
long() { # long CHAR COUNT: COUNT copies of CHAR
    head -c "$2" /dev/zero | tr '\0' "$1"
}

# A regex over MAX_ARG_STRLEN from an input file.
printf '{"jobs": [{"kernel_trace": true, "kernel_include_regex": "%s"}]}\n' "$(long a 200000)" \
    >long_regex.json
"$cli" -i long_regex.json -d out_long -o r -- "$prog" >stdout.txt 2>stderr.txt
rc=$?
[ "$rc" -eq 1 ] || fail "long regex: exit code $rc, expected 1 (usage error)"
grep -q -- "--kernel-include-regex: the value is 200000 bytes.*over the 131072 bytes exec takes in one string (MAX_ARG_STRLEN)" stderr.txt ||
    fail "long regex: the error does not name the option and the limit"
grep -q "Argument list too long" stderr.txt && fail "long regex: exec failed"
[ -e out_long ] && fail "long regex: the application ran (out_long exists)"

# 200,000 repeats of one counter in a text input file: one counter, collected.
chunk=$(long x 100 | sed 's/x/ WORK_ITEMS/g')
{
    printf 'pmc:'
    i=0
    while [ $i -lt 2000 ]; do
        printf '%s' "$chunk"
        i=$((i + 1))
    done
    printf '\n'
} >repeats.txt
[ "$(wc -c <repeats.txt)" -gt 2000000 ] || fail "repeats.txt is smaller than intended"
"$cli" -f csv -i repeats.txt -d out_repeats -o r -- "$prog" >stdout.txt 2>stderr.txt
rc=$?
[ "$rc" -eq 0 ] || fail "repeated counters: exit code $rc, expected 0"
[ -s out_repeats/pmc_1/r_counter_collection.csv ] || fail "repeated counters: no counter output"

# --preload with a space in its path.
mkdir -p "with space" && cp /dev/null "with space/libx.so"
"$cli" --kernel-trace --preload "$work/with space/libx.so" -d out_preload -o r -- "$prog" \
    >stdout.txt 2>stderr.txt
rc=$?
[ "$rc" -eq 1 ] || fail "--preload with a space: exit code $rc, expected 1"
grep -q -- "--preload '$work/with space/libx.so': the path holds a space" stderr.txt ||
    fail "--preload with a space: the error does not name the path and why"
[ -e out_preload ] && fail "--preload with a space: the application ran"

# rocprofv3 installed under a path with a space: bin/rocprofv3 and lib/ side by side.
libdir=$(cd "$(dirname "$cli")/../lib" && pwd)
mkdir -p "my tools/bin" "my tools/lib" || exit 1
cp "$cli" "my tools/bin/rocprofv3" || exit 1
for lib in librocprofiler-sdk-tool.so librocprofiler-sdk.so; do
    ln -s "$libdir/$lib" "my tools/lib/$lib" || exit 1
done
"$work/my tools/bin/rocprofv3" --kernel-trace -f csv -d out_spaced -o r -- "$prog" >stdout.txt 2>stderr.txt
rc=$?
[ "$rc" -eq 0 ] || fail "installed under a space: exit code $rc, expected 0"
grep -q "cannot be preloaded" stderr.txt && fail "installed under a space: a loader error"
[ "$(wc -l <out_spaced/r_kernel_trace.csv)" -gt 1 ] || fail "installed under a space: no trace"

# ... and with TMPDIR under a space too: no link can be made without one; said, nothing run.
mkdir -p "tmp dir"
TMPDIR="$work/tmp dir" "$work/my tools/bin/rocprofv3" --kernel-trace -d out_tmp -o r -- "$prog" \
    >stdout.txt 2>stderr.txt
rc=$?
[ "$rc" -eq 2 ] || fail "TMPDIR with a space: exit code $rc, expected 2"
grep -q "set TMPDIR to a directory whose path has no space or ':'" stderr.txt ||
    fail "TMPDIR with a space: the error does not say what to do"
[ -s out_tmp/r_kernel_trace.csv ] && fail "TMPDIR with a space: the application ran"
echo "check_long_values_and_spaces: OK"
