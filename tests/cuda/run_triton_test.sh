#!/usr/bin/env bash
# A Triton kernel under the SDK with test-tool-cuda replaying every kernel 3 times: the result bytes
# must equal a run without the SDK, and the Triton kernel must be traced 3 times per dispatch,
# inside its PASS. Exits 77 (CTest SKIP) without Triton, PyTorch or CUDA.
set -u
script="$1"
out="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/triton_replay"
rm -rf "${out}" && mkdir -p "${out}"
python="${PYTHON:-python3}"
command -v "${python}" >/dev/null 2>&1 || { echo "SKIP: no ${python}"; exit 77; }
"${python}" -c "import triton" >/dev/null 2>&1 || { echo "SKIP: python3 has no triton" | tee "${out}/reference.stdout"; exit 77; }
export PYTHONUNBUFFERED=1
# The reference run also fills Triton's kernel cache, so the profiled run does not compile.
"${python}" "${script}" "${out}/reference.bin" >"${out}/reference.stdout" 2>"${out}/reference.stderr"
rc=$?
cat "${out}/reference.stdout"
[ ${rc} -eq 77 ] && { cp "${out}/reference.stdout" "${out}/stdout"; exit 77; }
if [ ${rc} -ne 0 ]; then
    tail -20 "${out}/reference.stderr"
    echo "FAIL: the reference run exited with ${rc}" | tee "${out}/validate.txt"
    exit 1
fi
env LD_PRELOAD="${SDK_LIBRARY}" ROCP_TOOL_LIBRARIES="${TEST_TOOL}" TEST_TOOL_OUTPUT="${out}/tool.json" \
    TEST_REPLAY_PASSES=3 TEST_REPLAY_SKIP= "${python}" "${script}" "${out}/profiled.bin" \
    >"${out}/stdout" 2>"${out}/stderr"
rc=$?
cat "${out}/stdout"
grep -v -E '\[debug\]|^\[cuda-timing\]' "${out}/stderr" | head -20
: >"${out}/validate.txt"
fail=0
[ ${rc} -eq 0 ] || { echo "FAIL: the profiled run exited with ${rc}" | tee -a "${out}/validate.txt"; fail=1; }
if cmp -s "${out}/reference.bin" "${out}/profiled.bin"; then
    echo "RESULT bit_identical=yes" | tee -a "${out}/validate.txt"
else
    echo "FAIL: result differs from the run without the profiler (bit_identical=NO)" | tee -a "${out}/validate.txt"
    fail=1
fi
"${python}" - "${out}/tool.json" <<'PY' | tee -a "${out}/validate.txt"
import json, sys
t = json.load(open(sys.argv[1]))
by = {}
for r in t["dispatch"]:
    by.setdefault(r["dispatch_id"], []).append(r)
tri = {i: rs for i, rs in by.items() if rs[0]["kernel"].startswith("triton_add_into")}
ok = len(tri) == 3 and all(len(rs) == 3 and [r["pass"] for r in rs] == [0, 1, 2] for rs in tri.values())
print(f"RESULT dispatches={len(by)} triton_dispatches={len(tri)} replayed_triton={sum(len(rs) == 3 for rs in tri.values())}")
if not ok:
    print("FAIL: the Triton kernel: 3 dispatches, each with 3 records inside PASS 0..2: "
          + str({i: [r['pass'] for r in rs] for i, rs in tri.items()}))
sys.exit(0 if ok and not t["errors"] else 1)
PY
[ "${PIPESTATUS[0]}" -eq 0 ] || fail=1
exit ${fail}
