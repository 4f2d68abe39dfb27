#!/bin/sh
# check_dispatch_ids.sh KERNEL_TRACE_CSV "ID ID ...": the Dispatch_Id column (6th) of the trace
# holds exactly these ids, one row each, in any order (rows follow completion order).
set -eu
got=$(awk -F, 'NR > 1 { print $6 }' "$1" | sort -n | tr '\n' ' ')
want=$(printf '%s\n' $2 | sort -n | tr '\n' ' ')
echo "dispatch ids: ${got}(expected ${want})"
test "${got}" = "${want}"
