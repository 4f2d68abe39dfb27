#!/bin/sh
# check_whole_rows.sh FILE
# FILE, a streamed CSV file whose writes failed (a full device, the file size limit), still holds
# its header and whole rows only: it is not empty and ends with a newline.
set -u
f=$1
[ -s "$f" ] || { echo "FAIL: $f is missing or empty"; exit 1; }
head -n 1 "$f" | grep -q '^"Kind","Agent_Id"' || { echo "FAIL: $f has no header"; exit 1; }
[ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ] || { echo "FAIL: $f ends inside a row"; exit 1; }
echo "check_whole_rows: OK ($(wc -l <"$f") lines, $(wc -c <"$f") bytes)"
