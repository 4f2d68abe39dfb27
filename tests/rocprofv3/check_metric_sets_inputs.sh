#!/bin/sh
# check_metric_sets_inputs.sh CLI WORK
# Metric set files (ROCPROFILER_METRICS_PATH: a file, or each *.json of a directory) are read by
# rocprofv3 and its tool only when they are regular files of at most 256 MiB: a FIFO, /dev/zero, a
# directory named like a set file and a file over the cap are each refused (exit 2) with a message
# naming the path and what it is, never a hang or an unbounded read. `rocprofv3 -L` loads the sets
# before it lists anything; each case runs under a 60-second timeout (124 = it hung).
set -u
cli=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() {
    echo "FAIL: $*"
    echo "--- stderr:"
    head -c 2000 stderr.txt
    exit 1
}
# refused PATH PATTERN: rocprofv3 -L with ROCPROFILER_METRICS_PATH=PATH exits 2 saying PATTERN.
refused() {
    ROCPROFILER_METRICS_PATH="$1" timeout 60 "$cli" -L >stdout.txt 2>stderr.txt </dev/null
    rc=$?
    [ "$rc" -eq 2 ] || fail "$1: exit code $rc, expected 2 (124: it hung)"
    grep -q -- "$2" stderr.txt || fail "$1: stderr does not say '$2'"
}

mkfifo sets.json || exit 1
refused "$PWD/sets.json" "sets.json is a FIFO, not a regular file"
refused /dev/zero "/dev/zero is a character device, not a regular file"
# In a directory: a directory and a FIFO named *.json.
mkdir -p dir/inner.json && mkfifo dir/pipe.json || exit 1
refused "$PWD/dir" "inner.json is a directory, not a regular file"
rmdir dir/inner.json
refused "$PWD/dir" "pipe.json is a FIFO, not a regular file"
# Over the cap (a sparse file: nothing is written or read).
truncate -s 300M big.json || exit 1
refused "$PWD/big.json" "big.json is 314572800 bytes, over the limit of 256 MiB"
echo "check_metric_sets_inputs: OK"
