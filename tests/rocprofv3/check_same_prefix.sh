#!/bin/sh
# check_same_prefix.sh VALIDATE DIR PREFIX FILES ROWS [VALIDATOR_OPTION...]
# Exactly FILES kernel traces <PREFIX>_kernel_trace.csv and <PREFIX>.<pid>_kernel_trace.csv are in
# DIR, each valid (the validator, 3 kernels with the same count, and the further options such as
# --json), with ROWS rows in all: no process overwrote another's.
set -u
validate=$1 dir=$2 prefix=$3 files=$4 rows=$5
shift 5
cd "$dir" || exit 1
n=0
total=0
for f in "${prefix}_kernel_trace.csv" "${prefix}".*_kernel_trace.csv; do
    [ -f "$f" ] || { echo "FAIL: missing $f"; exit 1; }
    p=${f%_kernel_trace.csv}
    r=$(($(wc -l <"$f") - 1))
    "$validate" --dir . --prefix "$p" --kernel vector_add=$((r / 3)) \
        --kernel scale,with_comma=$((r / 3)) --kernel reduce_sum=$((r / 3)) "$@" || exit 1
    n=$((n + 1))
    total=$((total + r))
done
[ "$n" -eq "$files" ] || { echo "FAIL: $n kernel traces, expected $files"; exit 1; }
[ "$total" -eq "$rows" ] || { echo "FAIL: $total rows in all, expected $rows"; exit 1; }
echo "check_same_prefix: OK ($n files, $total rows)"
