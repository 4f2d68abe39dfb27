// Derived-metric files and the table of AMD's counter names: any bytes as either; every definition
// read resolves against a set of base counters without crashing, and every problem is a message
// that names the file.
#include "counters/derived.hpp"
#include "counters/metrics_file.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace counters = rocprofiler::counters;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    auto text = std::string_view{reinterpret_cast<const char*>(data), size};
    auto out  = counters::metrics_file::loaded{};
    counters::metrics_file::read_text(text, "fuzz.json", out);
    for(const auto& error : out.errors)
        if(error.find("fuzz.json") == std::string::npos) std::abort();
    auto merged = counters::metrics_file::merge(out.definitions, out.definitions);
    if(merged.size() != out.definitions.size()) std::abort(); // same names replace in place
    for(const char* agent : {"host", "sm_90"})
    {
        auto r = counters::derived::resolve(
            out.definitions,
            agent,
            {"WORK_ITEMS", "DISPATCH_NS", "A", "B", "smsp__cycles_elapsed.sum"});
        if(r.offered.size() > out.definitions.size()) std::abort();
        for(const auto& offered : r.offered)
            for(const auto& op : offered.operands)
                if(!op.is_base && op.index >= r.offered.size()) std::abort();
    }
    auto amd = counters::metrics_file::loaded{};
    counters::metrics_file::read_equivalents_text(text, "fuzz.json", amd);
    for(const auto& error : amd.errors)
        if(error.find("fuzz.json") == std::string::npos) std::abort();
    for(const auto& def : amd.definitions)
        if(!def.agents || def.agents->empty() || !def.quiet_when_unavailable) std::abort();
    auto all = counters::metrics_file::combine({out.definitions, amd.definitions, {}});
    for(const char* agent : {"host", "sm_90"})
        if(counters::derived::resolve(all, agent, {"WORK_ITEMS", "A"}).offered.size() > all.size())
            std::abort();
    return 0;
}
