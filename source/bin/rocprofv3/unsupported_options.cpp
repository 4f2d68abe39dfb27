#include "command_line.hpp"

#include "untrusted/printable.hpp"

#include <algorithm>
#include <string>

namespace rocprofv3::cli
{
// Upstream's options this device has no source for.
const char* const unsupported_message =
    "not supported on this device: this rocprofv3 traces kernel dispatches (--kernel-trace, "
    "--stats, -S, -D), memory copies (--memory-copy-trace), markers (--marker-trace, "
    "--selected-regions) and CUDA runtime and driver calls (--runtime-trace, --sys-trace, "
    "--cuda-runtime-trace, --cuda-driver-trace) and collects counters (--pmc); the HIP, HSA, "
    "memory allocation and thread traces of AMD's rocprofv3 have no source here";

outcome
check_unsupported(parsed_args& args, const std::string& job)
{
    if(args.unsupported.empty()) return std::nullopt;
    // Named in the order given, by their long names.
    auto position = [&args](const std::string& names)
    {
        auto first = args.given.size();
        for(size_t i = 0; i < args.given.size(); ++i)
            if(("," + names + ",").find("," + args.given[i] + ",") != std::string::npos)
                first = std::min(first, i);
        return first;
    };
    std::stable_sort(args.unsupported.begin(),
                     args.unsupported.end(),
                     [&](const auto& a, const auto& b) { return position(a) < position(b); });
    auto names = std::string{};
    for(const auto& n : args.unsupported)
        names += (names.empty() ? "" : ", ") + n.substr(n.rfind(',') + 1);
    auto out      = parse_result{};
    out.exit_code = exit_configuration;
    out.error     = "rocprofv3: error: " + rocprofiler::untrusted::printable(job + names) + ": " +
                unsupported_message + "; the application was not run\n";
    return out;
}
} // namespace rocprofv3::cli

namespace rocprofv3
{
const std::vector<unsupported_option>&
unsupported_options()
{
    // Upstream rocprofv3's options (source/bin/rocprofv3.py) that this rocprofv3 does not
    // implement, with their arity there (tests/rocprofv3/inputs/amd_options.txt lists all of
    // upstream's options; the test of that list runs each one).
    static const auto list = std::vector<unsupported_option>{
        {"--hip-trace", 0},

        {"--memory-allocation-trace", 0},
        {"--scratch-memory-trace", 0},
        {"--hsa-trace", 0},
        {"--rccl-trace", 0},
        {"--kokkos-trace", 0},
        {"--rocdecode-trace", 0},
        {"--rocjpeg-trace", 0},
        {"--hip-runtime-trace", 0},
        {"--hip-compiler-trace", 0},
        {"--hsa-core-trace", 0},
        {"--hsa-amd-trace", 0},
        {"--hsa-image-trace", 0},
        {"--hsa-finalizer-trace", 0},
        {"-E,--extra-counters", 1},
        {"--kernel-rename", 0},
        {"-P,--collection-period", -1},
        {"--collection-period-unit", 1},

        {"--perfetto-backend", 1},
        {"--perfetto-buffer-size", 1},
        {"--perfetto-buffer-fill-policy", 1},
        {"--perfetto-shmem-size-hint", 1},
        {"--group-by-queue", 0},
        {"--rocm-root", 1},
        {"--benchmark-mode", 1},
        {"--disable-signal-handlers", 0},
        {"--minimum-output-data", 1},
        {"-p,--pid", -1},
        {"--advanced-thread-trace,--att", 0},
        {"--att-library-path", -1},
        {"--att-target-cu", 1},
        {"--att-simd-select", 1},
        {"--att-buffer-size", 1},
        {"--att-shader-engine-mask", 1},
        {"--att-gpu-index", 1},
        {"--att-perfcounters", 1},
        {"--att-perfcounter-ctrl", 1},
        {"--att-activity", 1},
        {"--att-serialize-all", 0},
    };
    return list;
}

const std::vector<const char*>&
amd_differences()
{
    static const auto list = std::vector<const char*>{"-v",
                                                      "--version",
                                                      "-r",
                                                      "--runtime-trace",
                                                      "-s",
                                                      "--sys-trace",
                                                      "--pmc",
                                                      "-L",
                                                      "--list-avail",
                                                      "--sdk-version",
                                                      "--sdk-soversion",
                                                      "--suppress-marker-preload"};
    return list;
}
} // namespace rocprofv3
