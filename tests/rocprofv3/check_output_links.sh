#!/bin/sh
# check_output_links.sh CLI PROG WORK
# Issue 34: symbolic links planted in the output directory at output names (streamed: the kernel
# trace, the Perfetto trace, the spill file of results.json; whole files: agent_info.csv,
# results.json; the rocpd database), each to a file with known content outside the directory.
# rocprofv3 -f csv json rocpd pftrace must exit with 4 (an output error at the end), name each
# link in a "refusing to write '<link>': it is a symbolic link" error, leave every target's
# content as it was, and leave the links themselves in place.
set -u
cli=$1 prog=$2 work=$3
rm -rf "$work" && mkdir -p "$work/out" "$work/outside" && cd "$work" || exit 1
fail() {
    echo "FAIL: $*"
    echo "--- stderr:"
    cat stderr.txt
    exit 1
}
names="r_kernel_trace.csv r_results.pftrace r_results.json.kernel_dispatch.part r_agent_info.csv r_results.json r_results.db"
for name in $names; do
    echo "the user's $name, not to be touched" >"outside/$name"
    ln -s "$work/outside/$name" "out/$name" || exit 1
done
"$cli" --kernel-trace -f csv json rocpd pftrace -d out -o r -- "$prog" >stdout.txt 2>stderr.txt
rc=$?
[ "$rc" -eq 4 ] || fail "exit code $rc, expected 4 (output error at the end)"
for name in $names; do
    [ "$(cat "outside/$name")" = "the user's $name, not to be touched" ] ||
        fail "the target of out/$name was changed"
    [ -L "out/$name" ] || fail "the link out/$name was replaced or removed"
    grep -q "refusing to write '[^']*/out/$name': it is a symbolic link" stderr.txt ||
        fail "no error names the link out/$name"
done
grep -q "rocprofv3: error: the application ran, but [0-9]* output errors occurred" stderr.txt ||
    fail "rocprofv3's summary of the output errors is missing"
echo "check_output_links: OK"
