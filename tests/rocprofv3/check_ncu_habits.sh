#!/bin/sh
# check_ncu_habits.sh counters DIR PREFIX TRACED COUNTED
#   <PREFIX>_kernel_trace.csv names exactly the kernels of TRACED (comma-separated), and
#   <PREFIX>_counter_collection.csv exactly those of COUNTED ("-": none, and no such rows).
set -u
mode=$1
dir=$2
cd "$dir" || { echo "FAIL: no directory $dir" >&2; exit 1; }
case $mode in
counters)
    prefix=$3
    # The kernel names of a CSV file: the column named Kernel_Name.
    names() {
        [ -f "$1" ] || return 0
        awk -F, 'NR == 1 { for(i = 1; i <= NF; ++i) if($i ~ /Kernel_Name/) c = i; next }
                 { gsub(/"/, "", $c); print $c }' "$1" | sort -u | paste -sd, -
    }
    traced=$(names "${prefix}_kernel_trace.csv")
    counted=$(names "${prefix}_counter_collection.csv")
    expected_traced=$(echo "$4" | tr , '\n' | sort -u | paste -sd, -)
    expected_counted=$(echo "$5" | tr , '\n' | sort -u | paste -sd, -)
    [ "$5" = "-" ] && expected_counted=""
    [ "$traced" = "$expected_traced" ] ||
        { echo "FAIL: kernel trace has '$traced', expected '$expected_traced'" >&2; exit 1; }
    [ "$counted" = "$expected_counted" ] ||
        { echo "FAIL: counters for '$counted', expected '$expected_counted'" >&2; exit 1; }
    echo "check_ncu_habits: OK (traced $traced; counted ${counted:-none})"
    ;;
*)
    echo "usage: check_ncu_habits.sh counters ..."
    exit 2
    ;;
esac
