#!/usr/bin/env bash
# Runs tests/cuda/graph_range_probe.cu (CUPTI's range profiler alone, no SDK) and says how the range
# profiler saw the graph launches: in auto-range mode one range per kernel node (per_node), one
# per graph launch (per_launch) or something else; a user range around each launch of the
# three-kernel graph gives that launch's warps (30 and 30) or not. The run must succeed and a user
# range must hold its launch's warps (the batched path relies on it); the auto-range finding is
# reported for docs/cuda.md.
# Usage: run_graph_range_probe.sh <cuda-graph-range-probe>
set -u
probe="$1"
out="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/graph_range_probe"
rm -rf "${out}" && mkdir -p "${out}"
. "$(dirname "$0")/checks.sh"
"${probe}" >"${out}/stdout" 2>"${out}/stderr"
rc=$?
cat "${out}/stdout" "${out}/stderr"
check "[ ${rc} -eq 0 ]" "the probe exited with ${rc}"
auto=$(sed -n 's/^PROBE mode=auto .*warps=\([^ ]*\) .*/\1/p' "${out}/stdout")
user=$(sed -n 's/^PROBE mode=user .*warps=\([^ ]*\) .*/\1/p' "${out}/stdout")
case "${auto}" in
    2,6,10,14,6,10,14,22,26 | 2,6,10,14,6,10,14,26,22) auto_kind=per_node ;;
    2,30,30,48) auto_kind=per_launch ;;
    *) auto_kind="other(${auto:-none})" ;;
esac
check "[ '${user}' = '30,30' ]" "a user range around a graph launch holds ${user:-nothing}, expected 30,30"
echo "RESULT graph_probe_auto=${auto_kind} graph_probe_user=${user:-none}" | tee -a "${out}/validate.txt"
echo "RESULT failures=${fail}" | tee -a "${out}/validate.txt"
[ "${fail}" -eq 0 ]
