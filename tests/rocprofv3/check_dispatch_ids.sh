#!/bin/sh
# check_dispatch_ids.sh KERNEL_TRACE_CSV "ID ID ...": the Dispatch_Id column (6th) of the trace
# holds exactly these ids, one row each, in any order (rows follow completion order).
# check_dispatch_ids.sh CSV "ID ID ..." COLUMN: the distinct ids of that column (2 for a counter
# collection, which has a row per counter of a dispatch) are exactly these.
set -eu
if [ $# -ge 3 ]; then
    got=$(awk -F, -v c="$3" 'NR > 1 { print $c }' "$1" | sort -n -u | tr '\n' ' ')
else
    got=$(awk -F, 'NR > 1 { print $6 }' "$1" | sort -n | tr '\n' ' ')
fi
want=$(printf '%s\n' $2 | sort -n | tr '\n' ' ')
echo "dispatch ids: ${got}(expected ${want})"
test "${got}" = "${want}"
