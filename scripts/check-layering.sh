#!/usr/bin/env bash
# The layering rules of the tree, checked on every test run (scripts/test.sh). Prints each
# violation and exits non-zero when there is one.
#
#  1. The backend-neutral core (everything under source/lib/rocprofiler-sdk/ except the backends
#     cuda/ and host/, and except unit tests, which run on the host device) includes no device
#     header: no CUDA, no CUPTI, no host-device runtime.
#  2. The host device runtime (host/runtime/) knows nothing of the profiler: the adapter attaches
#     through the runtime's own first-use hook (set_first_use_hook). The one header it may include
#     from the SDK is common/environment.hpp, the library's registry machinery, through which it
#     declares and reads its own documented variables (host/runtime/settings.hpp:
#     ROCPROFILER_HOST_WORKERS, ..._SHUTDOWN_TIMEOUT_MS) so that they are read and rejected like
#     every other; it depends on the standard library only.
#  3. CUDA and CUPTI headers appear only in source/lib/rocprofiler-sdk/cuda/ and in tests/cuda/.
#  4. Public headers include only public headers and the C library.
#  5. Tools (the rocprofv3 tool library, the samples, the test tools) use the public API only.
#  6. The folders of the library depend on each other in one direction: no include cycle between
#     folders (a folder's files include another folder's header = an edge), and in particular the
#     dispatch pipeline includes nothing of the replay engine (kernel_replay/ registers on the
#     pipeline's interception point instead).
#  7. The core and the tool name no backend and no vendor: no core file includes a header of a
#     backend folder (cuda/, host/), and neither the core nor the tool library compares a vendor
#     name. Backends register themselves with the core (backend/device_backend.hpp).
#  8. The library reads the environment in one place: common/environment.cpp (the registry of
#     every variable, docs/api.md); no other library file calls getenv.
#  9. An adapter talks to the core through one seam: no file of a backend folder (cuda/, host/)
#     includes anything of kernel_replay/; what a backend needs of replay (allocation tracking,
#     excluded launches, frees that wait for a window) it asks through dispatch/interception.hpp.
# 10. The CUDA backend keeps one folder per concern: every source of cuda/ but the backend itself
#     (backend.hpp, agents.cpp, and its table of environment variables, settings.hpp) lives in a
#     subfolder, and docs/architecture.md ("The CUDA backend,
#     folder by folder") names each subfolder and each file, so that the map stays true.
# 11. Backends register their own settings: the core's environment registry (common/) names no
#     backend (no line of code of common/ says CUDA, CUPTI or the host device's variables), and
#     no core file outside the backends names a backend's variable (ROCPROFILER_CUDA_*,
#     ROCPROFILER_CUPTI_*, ROCPROFILER_HOST_*); each backend's table lives beside its code
#     (cuda/settings.hpp, host/settings.hpp) and reaches the registry through
#     device_backend::settings().
set -uo pipefail
cd "$(dirname "$0")/.."
lib=source/lib/rocprofiler-sdk
failures=0

violation() {
    echo "layering: $1"
    failures=$((failures + 1))
}

includes() {  # <files...>: prints "file:line:#include ..." for each quoted or angled include
    grep -HnE '^[[:space:]]*#[[:space:]]*include' "$@" 2>/dev/null
}

# Unit tests of the core run on the host device, so they may use its public API.
core_files=$(find "${lib}" -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) \
             -not -path "${lib}/cuda/*" -not -path "${lib}/host/*" -not -path '*/tests/*')
while IFS= read -r line; do
    [ -n "${line}" ] && violation "rule 1 (core includes a device header): ${line}"
done < <(includes ${core_files} | grep -E '<(cuda|cupti|nvperf)[^>]*>|host/runtime/|rocprofiler-sdk-host/')

while IFS= read -r line; do
    [ -n "${line}" ] && violation "rule 2 (host runtime includes the SDK): ${line}"
done < <(includes $(find "${lib}/host/runtime" -type f \( -name '*.cpp' -o -name '*.hpp' \) -not -path '*/tests/*') |
         grep '"' | grep -vE '"rocprofiler-sdk/(host/runtime/[a-z_]+\.hpp|common/environment\.hpp)"')

while IFS= read -r line; do
    [ -n "${line}" ] && violation "rule 3 (CUDA header outside cuda/): ${line}"
done < <(includes $(find source samples tests benchmark -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.c' \) \
                    -not -path "${lib}/cuda/*" -not -path 'tests/cuda/*') |
         grep -E '<(cuda|cupti|nvperf)[a-z_0-9]*\.h>')

while IFS= read -r line; do
    [ -n "${line}" ] && violation "rule 4 (public header includes a non-public header): ${line}"
done < <(includes $(find source/include -type f -name '*.h') |
grep -vE '<rocprofiler-sdk(-host|-roctx)?/[a-z_/-]+\.h>|<(stddef|stdint|stdbool|stdlib|string)\.h>')

tool_files=$(find source/lib/rocprofiler-sdk-tool samples tests/tools -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.c' -o -name '*.h' \))
while IFS= read -r line; do
    [ -n "${line}" ] && violation "rule 5 (a tool includes SDK internals): ${line}"
done < <(includes ${tool_files} |
         grep -E '"(common|context|correlation|dispatch|kernel_replay|registration|buffer|counters|code_object|tracing|status|agent|host|cuda)/|lib/rocprofiler-sdk/' |
         grep -v '"common/sample_common.hpp"')  # the samples' own shared header

# Folder dependency edges of the library (tests excluded: they may use anything they test). The C
# entry points at the library's top level (<header>.cpp) are the API layer and may include any
# folder; they are not a folder.
edges=$(includes $(find "${lib}" -mindepth 2 -type f \( -name '*.cpp' -o -name '*.hpp' \) -not -path '*/tests/*') |
        sed -nE "s|^${lib}/([a-z_]+)/[^:]*:[0-9]+:[[:space:]]*#[[:space:]]*include[[:space:]]+\"([a-z_]+)/.*|\1 \2|p" |
        awk '$1 != $2' | sort -u)
while IFS= read -r line; do
    [ -n "${line}" ] && violation "rule 6 (the dispatch pipeline includes the replay engine): ${line}"
done < <(grep -E '^dispatch kernel_replay$' <<<"${edges}")
if ! cycle=$(tsort <<<"${edges}" 2>&1 >/dev/null) || [ -n "${cycle}" ]; then
    violation "rule 6 (an include cycle between folders): $(tr '\n' ' ' <<<"${cycle}")"
fi

while IFS= read -r line; do
    [ -n "${line}" ] && violation "rule 7 (core includes a backend's header): ${line}"
done < <(includes ${core_files} | grep -E '"(cuda|host)/')
while IFS= read -r line; do
    [ -n "${line}" ] && violation "rule 7 (a vendor name in the core or the tool): ${line}"
done < <(grep -HnE '"(NVIDIA|AMD|nvidia|amd)"' ${core_files} \
              $(find source/lib/rocprofiler-sdk-tool -type f \( -name '*.cpp' -o -name '*.hpp' \) -not -path '*/tests/*'))

while IFS= read -r line; do
    [ -n "${line}" ] && violation "rule 8 (getenv outside the environment registry): ${line}"
done < <(grep -HnE '(std::|::|[^_a-z])getenv[[:space:]]*\(' $(find "${lib}" -type f \( -name '*.cpp' -o -name '*.hpp' \) \
              -not -path '*/tests/*' -not -path '*/tests_*/*' -not -path "${lib}/common/environment.cpp") |
         grep -vE '^[^:]+:[0-9]+:[[:space:]]*//')

while IFS= read -r line; do
    [ -n "${line}" ] && violation "rule 9 (a backend adapter includes the replay engine): ${line}"
done < <(includes $(find "${lib}/cuda" "${lib}/host" -type f \( -name '*.cpp' -o -name '*.hpp' \) -not -path '*/tests/*') |
         grep -E '"(rocprofiler-sdk/)?kernel_replay/')

arch=docs/architecture.md
while IFS= read -r file; do
    rel=${file#"${lib}/cuda/"}
    case "${rel}" in
        backend.hpp | agents.cpp | settings.hpp | CMakeLists.txt) continue ;;
        tests/* | tests_*/*) continue ;;
        */*) ;;
        *) violation "rule 10 (a CUDA backend source outside a concern's folder): ${file}"; continue ;;
    esac
    grep -qF "| \`${rel%%/*}/\` |" "${arch}" ||
        violation "rule 10 (folder not named in ${arch}): ${file}"
    name=${rel##*/}
    grep -qE "\`(${name%.*}\.(cpp|hpp|cu|cpp/hpp|inc|sh)|${name})\`" "${arch}" ||
        violation "rule 10 (file not named in ${arch}): ${file}"
done < <(find "${lib}/cuda" -type f | sort)

while IFS= read -r line; do
    [ -n "${line}" ] && violation "rule 11 (the core's registry names a backend): ${line}"
done < <(grep -HniE 'cuda|cupti|ROCPROFILER_HOST_' $(find "${lib}/common" -type f \( -name '*.cpp' -o -name '*.hpp' \) -not -path '*/tests/*') |
         grep -vE '^[^:]+:[0-9]+:[[:space:]]*//')
while IFS= read -r line; do
    [ -n "${line}" ] && violation "rule 11 (a core file names a backend's variable): ${line}"
done < <(grep -HnE '"ROCPROFILER_(CUDA|CUPTI|HOST)_' ${core_files} | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//')

if [ "${failures}" -ne 0 ]; then
    echo "layering: ${failures} violation(s)"
    exit 1
fi
echo "layering: all rules hold"
