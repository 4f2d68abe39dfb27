#!/bin/sh
# A signal sent to rocprofv3 reaches the application, rocprofv3 waits for it, and the outputs are
# valid with their note.
#
#   signal_forwarding.sh CLI PROG VALIDATE WORK MODE SIGNAL EXPECT_RC END NOTE
#
# MODE forward: SIGNAL is sent to rocprofv3 once the application has done its work (it then
#               waits for a signal);
#      twice:   the application ignores SIGINT; the first SIGINT to rocprofv3 must not end it, the
#               second ends it (SIGKILL);
#      timeout: rocprofv3 runs under `timeout -s SIGNAL 6` (the work takes well under that).
# Checks: the exit code, that the application's process is gone, the validator (END: the kind of
# metadata.end, NOTE: text <prefix>_incomplete.txt contains) and the note on stderr.
set -u
cli=$1 prog=$2 validate=$3 work=$4 mode=$5 sig=$6 expect=$7 end=$8 note=$9
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() {
    echo "FAIL: $*"
    echo "--- stderr:"
    cat stderr.txt
    exit 1
}
extra=""
[ "$mode" = twice ] && extra="--ignore-sigint"
if [ "$mode" = timeout ]; then
    timeout -s "$sig" 6 "$cli" --kernel-trace -f csv json -d out -o run -- "$prog" \
        --iterations 400 --pid-file app.pid --end wait 2>stderr.txt >/dev/null &
else
    "$cli" --kernel-trace -f csv json -d out -o run -- "$prog" --iterations 400 \
        --pid-file app.pid $extra --end wait 2>stderr.txt >/dev/null &
fi
pid=$!
i=0
while [ ! -s app.pid ]; do
    sleep 0.1
    i=$((i + 1))
    if [ $i -gt 300 ]; then
        kill -KILL $pid
        fail "the application never wrote app.pid"
    fi
done
app=$(cat app.pid)
case $mode in
    forward) kill -s "$sig" $pid ;;
    twice)
        kill -s INT $pid
        sleep 2.5
        kill -0 "$app" 2>/dev/null || fail "the first SIGINT ended an application that ignores it"
        kill -s INT $pid
        ;;
esac
wait $pid
rc=$?
echo "exit code $rc"
cat stderr.txt
if kill -0 "$app" 2>/dev/null; then
    kill -KILL "$app"
    fail "the application (pid $app) still runs after rocprofv3 ended"
fi
[ "$rc" -eq "$expect" ] || fail "exit code $rc, expected $expect"
"$validate" --dir out --prefix run --json --kernel vector_add=400 --kernel scale,with_comma=400 \
    --kernel reduce_sum=400 --end "$end" --note "$note" || fail "the outputs are not valid"
grep -q -F "$note" stderr.txt || fail "stderr does not say '$note'"
echo "signal_forwarding: OK"
