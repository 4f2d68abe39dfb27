#!/usr/bin/env bash
# Runs tests/cuda/graph_range_probe.cu (CUPTI's range profiler alone, no SDK) and says how the range
# profiler saw graph launches: in auto-range mode one range per kernel node (per_node), one per
# graph launch (per_launch), an error, or something else; and whether a user range around a launch
# holds that launch's warps. The probe must run, its control (auto ranges over plain launches) must
# give one range per kernel, and a user range must hold its graph launch's warps; the auto-range
# findings are reported for docs/cuda.md (on an H100, 2026-12-06: error, Stop fails).
# Usage: run_graph_range_probe.sh <cuda-graph-range-probe>
set -u
probe="$1"
out="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/graph_range_probe"
rm -rf "${out}" && mkdir -p "${out}"
. "$(dirname "$0")/checks.sh"
"${probe}" >"${out}/stdout" 2>"${out}/stderr"
rc=$?
cat "${out}/stdout" "${out}/stderr"
check "[ ${rc} -eq 0 ]" "the probe's set-up failed (exit ${rc})"
finding() { # mode, per-node warps, per-launch warps
    local line warps
    line=$(grep "^PROBE mode=$1 " "${out}/stdout")
    if grep -q ' error=' <<<"${line}"; then echo error; return; fi
    warps=$(sed -n 's/.* warps=\([^ ]*\) .*/\1/p' <<<"${line}")
    case ",${warps}," in
        ",$2," | ",$4,") echo per_node ;;
        ",$3,") echo per_launch ;;
        *) echo "other(${warps:-none})" ;;
    esac
}
control=$(finding auto_plain 2,6 none none)
check "[ '${control}' = per_node ]" "the control (auto ranges over two plain launches) gave ${control}"
chain=$(finding auto_chain 6,10,14 30 none)
fork=$(finding auto_fork 22,26 48 26,22)
user=$(sed -n 's/^PROBE mode=user_chain .*warps=\([^ ]*\) .*/\1/p' "${out}/stdout")
check "[ '${user}' = '30,30' ]" "a user range around a graph launch holds ${user:-nothing}, expected its 30 warps, twice"
[ "${chain}" = per_node ] && echo "NOTE: CUPTI now counts the nodes of a graph launch one range each in auto-range mode: docs/cuda.md's graph counting can change"
echo "RESULT graph_probe_auto_plain=${control} graph_probe_auto_chain=${chain} graph_probe_auto_fork=${fork} graph_probe_user_chain=${user:-error}" | tee -a "${out}/validate.txt"
echo "RESULT failures=${fail}" | tee -a "${out}/validate.txt"
[ "${fail}" -eq 0 ]
