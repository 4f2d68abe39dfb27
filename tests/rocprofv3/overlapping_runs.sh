#!/bin/sh
# overlapping_runs.sh ROCPROFV3 PROGRAM
# Two rocprofv3 runs at once with the same output directory and prefix (out/, same), the second
# started half a second after the first, while the first is still profiling (it lingers 1.5 s after
# its work). Prints both exit codes, "rc=<first>,<second>"; exits 0 when both ran.
set -u
cli=$1 prog=$2
"$cli" --kernel-trace -f csv json -d out -o same -- "$prog" --iterations 400 --linger 1500 &
first=$!
sleep 0.5
"$cli" --kernel-trace -f csv json -d out -o same -- "$prog" --iterations 400 --linger 1500
second=$?
wait "$first"
echo "rc=$?,$second"
