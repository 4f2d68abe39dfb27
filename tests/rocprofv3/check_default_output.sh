#!/bin/sh
# check_default_output.sh DIR COUNT SUFFIX...
#   The layout of AMD's default prefix, %hostname%/%pid%: DIR holds one entry, the directory named
#   after this host; in it, COUNT processes each wrote <pid>_<SUFFIX> for every SUFFIX given (for
#   example kernel_trace.csv), <pid> being digits, and nothing else ends in one of the SUFFIXes.
set -u
dir=$1
count=$2
shift 2
host=$(uname -n)
[ -d "$dir/$host" ] || { echo "FAIL: no directory '$host' in $dir" >&2; ls -A "$dir" >&2; exit 1; }
others=$(ls -A "$dir" | grep -vxF "$host")
[ -z "$others" ] || { echo "FAIL: $dir holds more than '$host': $others" >&2; exit 1; }
cd "$dir/$host" || exit 1
for suffix in "$@"; do
    n=0
    for f in *_"$suffix"; do
        [ -f "$f" ] || continue
        pid=${f%_"$suffix"}
        case $pid in
        '' | *[!0-9]*) echo "FAIL: '$f' is not <pid>_$suffix" >&2; exit 1 ;;
        esac
        n=$((n + 1))
    done
    [ "$n" -eq "$count" ] ||
        { echo "FAIL: $n files <pid>_$suffix in $dir/$host, expected $count" >&2; ls -A >&2; exit 1; }
done
echo "check_default_output: OK ($count processes in $dir/$host)"
