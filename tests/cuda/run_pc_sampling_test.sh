#!/usr/bin/env bash
# PC sampling on a CUDA agent (docs/pc_sampling.md): the hot-loop program under the SDK with
# pc-sampling-tool-cuda. Passes when the agent was sampled, every launch has samples, and the 8
# most sampled PCs (the loop's few instructions) hold at least 80% of them.
# Usage: run_pc_sampling_test.sh <sdk library> <tool> <program>
set -u
sdk="$1" tool="$2" program="$3"
dir="${GPU_TEST_OUTPUT_DIR:-${PWD}/gpu-test-output}/pc_sampling"
mkdir -p "${dir}"
out="$(env LD_PRELOAD="${sdk}" ROCP_TOOL_LIBRARIES="${tool}" ROCPROFILER_LOG_LEVEL=info "${program}" 2>&1)"
rc=$?
echo "${out}" | grep -vE '^\[rocprofiler-sdk\]\[(debug|info)\]' | tail -20 | tee "${dir}/validate.txt"
[ ${rc} -eq 0 ] || { echo "FAIL: program exited with ${rc}"; exit 1; }
line="$(echo "${out}" | grep '^RESULT pc_sampling ')"
[ -n "${line}" ] || { echo "FAIL: no RESULT line from the tool"; exit 1; }
value() { echo "${line}" | sed -E "s/.* $1=([0-9.]+).*/\1/"; }
agents=$(value agents) samples=$(value samples) dispatches=$(value dispatches) top=$(value top8_fraction)
[ "${agents}" -ge 1 ] || { echo "FAIL: no agent offered stochastic PC sampling"; exit 1; }
[ "${samples}" -gt 0 ] || { echo "FAIL: no samples"; exit 1; }
[ "${dispatches}" -ge 3 ] || { echo "FAIL: samples of ${dispatches} dispatch(es), expected 3"; exit 1; }
awk -v t="${top}" 'BEGIN { exit !(t >= 0.8) }' || { echo "FAIL: top8_fraction=${top} < 0.8"; exit 1; }
# Stochastic records with the warp's state: every record of the stochastic kind, a not-issued
# sample always with a reason, and (a loop of dependent FMAs) both issued and stalled samples.
other=$(value other_record_kinds) issued=$(value issued) not_issued=$(value not_issued)
unnamed=$(value not_issued_without_reason)
[ "${other}" -eq 0 ] || { echo "FAIL: ${other} record(s) not of the stochastic kind"; exit 1; }
[ "${unnamed}" -eq 0 ] || { echo "FAIL: ${unnamed} not-issued sample(s) without a reason"; exit 1; }
[ "${issued}" -gt 0 ] && [ "${not_issued}" -gt 0 ] ||
    { echo "FAIL: issued=${issued} not_issued=${not_issued}: expected both"; exit 1; }
# CUPTI's own count of each range's samples against the samples delivered (the "_not_issued"
# reasons are subsets, not samples of their own): CUPTI's totalSamples includes dropped samples
# and those of non-user kernels, so delivered + dropped + non-user must equal it in every range,
# taken either as the sum over the range's reads or as its largest read (CUPTI does not document
# which; the line printed says which matched).
echo "${out}" | grep 'PC sampling range: CUPTI counted' | sed 's/^.*PC sampling range: /range: /'
ranges="$(echo "${out}" | grep -c 'PC sampling range: CUPTI counted')"
matches="$(echo "${out}" | sed -nE 's/.*CUPTI counted ([0-9]+) sample\(s\), ([0-9]+) delivered, ([0-9]+) dropped, ([0-9]+) non-user, ([0-9]+) read\(s\), largest read ([0-9]+).*/\1 \2 \3 \4 \6/p' |
    awk '{ seen = $2 + $3 + $4; print (seen == $1 ? "sum" : (seen == $5 ? "largest" : "none")) }')"
unequal="$(grep -c none <<<"${matches}")"
echo "RESULT pc_sampling_ranges ranges=${ranges} cupti_total_unequal=${unequal} matched=$(echo ${matches} | tr ' ' ',')"
[ "${ranges}" -ge 3 ] || { echo "FAIL: ${ranges} range line(s), expected 3 (ROCPROFILER_LOG_LEVEL=info)"; exit 1; }
[ "${unequal}" -eq 0 ] || { echo "FAIL: ${unequal} range(s) where CUPTI's total differs from the samples delivered"; exit 1; }
echo "PASS"
