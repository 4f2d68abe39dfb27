#!/bin/sh
# check_dispatch_ids.sh CSV "ID ID ..." [COLUMN]: the distinct Dispatch_Id values of the CSV (the
# 6th column of a kernel trace, the default; the 2nd of a counter collection) are exactly these
# ids, in any order (rows follow completion order; a counter collection has a row per counter).
set -eu
column=${3:-6}
got=$(awk -F, -v c="${column}" 'NR > 1 { print $c }' "$1" | sort -n -u | tr '\n' ' ')
want=$(printf '%s\n' $2 | sort -n | tr '\n' ' ')
echo "dispatch ids: ${got}(expected ${want})"
test "${got}" = "${want}"
