#!/usr/bin/env bash
# Kernel replay around a faulting kernel, and of module globals (cuda-fault-program), compared with
# a run without the SDK.
# Usage: run_fault_test.sh <name> <fault|globals|stuck> "<passes...>" <program>
#   fault: for each N, the program under the SDK with test-tool-cuda replaying every kernel N
#     times. The application must see the errors a run without the SDK sees (the first error of
#     the faulting launch + synchronize, and of the launch + synchronize after it), the replayable
#     kernel before the fault must run once (pre_value), the SDK must print its diagnostic for the
#     faulting dispatch (reason=pass_failed or restore_failed), no pass may follow the failing one,
#     and nothing may hang (each run is bounded by FAULT_TEST_TIMEOUT_S, default 60).
#   globals: a __device__ counter the host resolved before the launch must be incremented once
#     under replay (as without the SDK); the one the host never touched before the launch is only
#     reported (it is snapshotted only if the runtime resolved it when it loaded the module).
#   stuck: a kernel that waits for a flag set by a kernel on another stream launched after it
#     (issue 17): under replay, with ROCPROFILER_REPLAY_PASS_TIMEOUT_MS=1000, its pass 0 must end
#     the replay (reason pass_drain_stuck, with the SDK's message), no pass may follow it, the
#     launch after it must proceed (the other kernel then runs: drained or declined with
#     agent_drain_stuck), and the application must see flag=1 counter=1 gave_up=0 as without the
#     SDK, each kernel completing once.
# Writes RESULT lines (keys fault_* or globals_*) and FAIL lines into
# ${GPU_TEST_OUTPUT_DIR}/<name>/validate.txt; exits non-zero on failure.
# Environment (set by CTest): SDK_LIBRARY, TEST_TOOL; GPU_TEST_OUTPUT_DIR (optional).
set -u
name="$1" mode="$2" passes_list="$3" program="$4"
out="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/${name}"
rm -rf "${out}" && mkdir -p "${out}"
limit="${FAULT_TEST_TIMEOUT_S:-60}"
v="${out}/validate.txt"
: >"${v}"
fail=0
say() { echo "$*" | tee -a "${v}"; }
failure() {
    say "FAIL: $*"
    fail=1
}
# The value of key in the program's FAULT/GLOBALS/STUCK line of a stdout file.
field() { grep -m1 -E '^(FAULT|GLOBALS|STUCK) ' "$1" | tr ' ' '\n' | grep -m1 -E "^$2=" | sed -E 's/^[^=]*=//'; }
# The first error among two names (the launch's, then the synchronize's).
first_error() {
    if [ "$1" != cudaSuccess ]; then echo "$1"; else echo "$2"; fi
}

timeout "${limit}" "${program}" "${mode}" >"${out}/reference.stdout" 2>"${out}/reference.stderr"
rc=$?
cat "${out}/reference.stdout"
if [ ${rc} -ne 0 ]; then
    tail -5 "${out}/reference.stderr"
    if [ "${mode}" = fault ] && [ ${rc} -eq 3 ]; then
        say "FAIL: the run without the SDK saw no error from the faulting kernel"
    else
        say "FAIL: the run without the SDK exited with ${rc}"
    fi
    exit 1
fi

if [ "${mode}" = stuck ] && [ "$(field "${out}/reference.stdout" gave_up)" != 0 ]; then
    say "FAIL: without the SDK the waiting kernel never saw the flag (the two streams did not run concurrently): the test is meaningless"
    exit 1
fi

for n in ${passes_list}; do
    d="${out}/n${n}"
    mkdir -p "${d}"
    extra=()
    [ "${mode}" = stuck ] && extra=(ROCPROFILER_REPLAY_PASS_TIMEOUT_MS=1000 ROCPROFILER_REPLAY_DRAIN_TIMEOUT_MS=2000)
    start=$(date +%s%N)
    env "${extra[@]}" LD_PRELOAD="${SDK_LIBRARY}" ROCP_TOOL_LIBRARIES="${TEST_TOOL}" TEST_TOOL_OUTPUT="${d}/tool.json" \
        TEST_REPLAY_PASSES="${n}" TEST_REPLAY_SKIP= ROCPROFILER_LOG_LEVEL=warning \
        timeout "${limit}" "${program}" "${mode}" >"${d}/stdout" 2>"${d}/stderr"
    rc=$?
    end=$(date +%s%N)
    cat "${d}/stdout"
    grep -v -E '^\[cuda-timing\]|^\[cuda-replay-memory\]' "${d}/stderr" | head -10
    say "RESULT ${mode}_n${n}_wall_ms=$(((end - start) / 1000000))"
    if [ ${rc} -eq 124 ] || [ ${rc} -eq 137 ]; then
        failure "N=${n}: the profiled run did not finish within ${limit} s (hang)"
        continue
    fi
    if [ ${rc} -ne 0 ]; then
        failure "N=${n}: the profiled run exited with ${rc}"
        continue
    fi

    if [ "${mode}" = globals ]; then
        ref_resolved=$(field "${out}/reference.stdout" resolved)
        ref_lazy=$(field "${out}/reference.stdout" lazy)
        got_resolved=$(field "${d}/stdout" resolved)
        got_lazy=$(field "${d}/stdout" lazy)
        say "RESULT globals_n${n}_resolved=${got_resolved:-none} reference=${ref_resolved:-none}"
        say "RESULT globals_n${n}_lazy=${got_lazy:-none} reference=${ref_lazy:-none} (informational)"
        [ "${got_resolved}" = "${ref_resolved}" ] ||
            failure "N=${n}: a __device__ counter resolved before the launch reads ${got_resolved:-nothing}, ${ref_resolved} without the SDK (module globals not restored between passes)"
        continue
    fi

    if [ "${mode}" = stuck ]; then
        for key in flag counter gave_up; do
            ref=$(field "${out}/reference.stdout" "${key}")
            got=$(field "${d}/stdout" "${key}")
            say "RESULT stuck_n${n}_${key}=${got:-none} reference=${ref:-none}"
            [ -n "${got}" ] && [ "${got}" = "${ref}" ] ||
                failure "N=${n}: ${key}=${got:-nothing}, ${ref} without the SDK"
        done
        diag=$(grep -m1 -E '\[kernel-replay\] dispatch_id=[0-9]+ kernel=wait_for_flag.* reason=pass_drain_stuck' "${d}/stderr")
        if [ -n "${diag}" ]; then
            say "RESULT stuck_n${n}_diagnostic=pass_drain_stuck"
        else
            failure "N=${n}: no '[kernel-replay] ... kernel=wait_for_flag ... reason=pass_drain_stuck' line in the SDK's log"
            grep -E '\[kernel-replay\]' "${d}/stderr" | head -5 | sed -E 's/^/  log: /' | tee -a "${v}"
        fi
        grep -q 'did not finish within 1000 ms (ROCPROFILER_REPLAY_PASS_TIMEOUT_MS)' "${d}/stderr" ||
            failure "N=${n}: the SDK did not say which pass did not finish, and the bound"
        setter=$(grep -m1 -E '\[kernel-replay\] dispatch_id=[0-9]+ kernel=set_flag.* reason=[a-z_]+' "${d}/stderr" | grep -o -E 'reason=[a-z_]+' | head -1)
        say "RESULT stuck_n${n}_set_flag=${setter:-replayed_without_message} (informational)"
        python3 - "${d}/tool.json" "${n}" >"${d}/tool_check.txt" 2>&1 <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
PASS, ENTER = 2, 1
fails = []
passes = sorted(r["current_pass"] for r in doc["replay"]
                if r["kernel"].startswith("wait_for_flag") and r["operation"] == PASS and r["phase"] == ENTER)
print(f"RESULT stuck_n{n}_waiter_passes={passes}")
if passes != [0]: fails.append(f"wait_for_flag passes {passes}: expected exactly pass 0 (the pass that did not finish ends the replay)")
for kernel in ("wait_for_flag", "set_flag"):
    done = [r for r in doc["dispatch"] if r["kernel"].startswith(kernel)]
    print(f"RESULT stuck_n{n}_{kernel}_completions={len(done)}")
    if len(done) != 1: fails.append(f"{kernel} completed {len(done)} times, expected once")
if doc["errors"]: fails.append(f"tool errors: {doc['errors']}")
for f in fails: print("FAIL: " + f)
sys.exit(1 if fails else 0)
EOF
        trc=$?
        grep -E '^(RESULT|FAIL)' "${d}/tool_check.txt" | sed -E "s/^FAIL: /FAIL: N=${n}: /" | tee -a "${v}"
        if [ ${trc} -ne 0 ]; then
            grep -q '^FAIL' "${d}/tool_check.txt" || { say "FAIL: N=${n}: tool.json unreadable"; tail -3 "${d}/tool_check.txt"; }
            fail=1
        fi
        continue
    fi

    # fault
    same=yes
    for key in pre_value launch sync post_launch post_sync; do
        ref=$(field "${out}/reference.stdout" "${key}")
        got=$(field "${d}/stdout" "${key}")
        say "RESULT fault_n${n}_${key}=${got:-none} reference=${ref:-none}"
        [ "${got}" = "${ref}" ] || same=no
    done
    say "RESULT fault_n${n}_same_errors_everywhere=${same}"
    ref_first=$(first_error "$(field "${out}/reference.stdout" launch)" "$(field "${out}/reference.stdout" sync)")
    got_first=$(first_error "$(field "${d}/stdout" launch)" "$(field "${d}/stdout" sync)")
    say "RESULT fault_n${n}_error=${got_first:-none} reference=${ref_first:-none}"
    [ -n "${got_first}" ] && [ "${got_first}" = "${ref_first}" ] ||
        failure "N=${n}: the faulting launch + synchronize gave ${got_first:-nothing}, ${ref_first} without the SDK"
    ref_post=$(first_error "$(field "${out}/reference.stdout" post_launch)" "$(field "${out}/reference.stdout" post_sync)")
    got_post=$(first_error "$(field "${d}/stdout" post_launch)" "$(field "${d}/stdout" post_sync)")
    [ "${got_post}" = "${ref_post}" ] ||
        failure "N=${n}: the launch after the fault gave ${got_post:-nothing}, ${ref_post} without the SDK"
    [ "$(field "${d}/stdout" pre_value)" = "$(field "${out}/reference.stdout" pre_value)" ] ||
        failure "N=${n}: the replayed kernel before the fault left buf[0]=$(field "${d}/stdout" pre_value), not $(field "${out}/reference.stdout" pre_value)"

    diag=$(grep -m1 -E '\[kernel-replay\] dispatch_id=[0-9]+ kernel=fault_write.* reason=(pass_failed|restore_failed)' "${d}/stderr")
    if [ -n "${diag}" ]; then
        say "RESULT fault_n${n}_diagnostic=$(grep -o -E 'reason=[a-z_]+' <<<"${diag}" | head -1)"
    else
        failure "N=${n}: no '[kernel-replay] ... kernel=fault_write ... reason=pass_failed|restore_failed' line in the SDK's log"
        grep -E '\[kernel-replay\]' "${d}/stderr" | head -5 | sed -E 's/^/  log: /' | tee -a "${v}"
    fi

    # The tool's view: the faulting dispatch had CONFIG and PASS 0, and no pass after it; the
    # kernel before it was replayed N times.
    python3 - "${d}/tool.json" "${n}" >"${d}/tool_check.txt" 2>&1 <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
CONFIG, PASS, ENTER = 1, 2, 1
def entries(kernel, op):
    return [r for r in doc["replay"] if r["kernel"].startswith(kernel) and r["operation"] == op and r["phase"] == ENTER]
fails = []
cfg = entries("fault_write", CONFIG)
passes = sorted(r["current_pass"] for r in entries("fault_write", PASS))
print(f"RESULT fault_n{n}_fault_configs={len(cfg)} fault_passes={passes}")
if len(cfg) != 1: fails.append(f"{len(cfg)} CONFIG callbacks for fault_write, expected 1")
if passes != [0]: fails.append(f"fault_write passes {passes}: expected exactly pass 0 (no pass after the failing one)")
bump = sorted(r["current_pass"] for r in entries("bump", PASS))
print(f"RESULT fault_n{n}_bump_passes={len(bump)}")
if bump[:n] != list(range(n)): fails.append(f"bump (before the fault) was not replayed {n} times: passes {bump}")
if doc["errors"]: fails.append(f"tool errors: {doc['errors']}")
for f in fails: print("FAIL: " + f)
sys.exit(1 if fails else 0)
EOF
    trc=$?
    grep -E '^(RESULT|FAIL)' "${d}/tool_check.txt" | sed -E "s/^FAIL: /FAIL: N=${n}: /" | tee -a "${v}"
    if [ ${trc} -ne 0 ]; then
        grep -q '^FAIL' "${d}/tool_check.txt" || { say "FAIL: N=${n}: tool.json unreadable"; tail -3 "${d}/tool_check.txt"; }
        fail=1
    fi
done
exit ${fail}
