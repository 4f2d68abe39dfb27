// The metric sets of a metrics file, as rocprofv3 reads them: refused with a message naming the
// file (and nothing added), or sets that find() and expand() handle.
#include "config/metric_sets.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace metric_sets = rocprofiler::tool::metric_sets;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    auto text  = std::string_view{reinterpret_cast<const char*>(data), size};
    auto sets  = metric_sets::catalog{};
    auto error = std::string{};
    if(!metric_sets::parse(text, "fuzz.json", sets, error))
    {
        if(error.find("fuzz.json") == std::string::npos || !sets.empty()) std::abort();
        return 0;
    }
    for(const auto& name : metric_sets::names(sets))
        (void)metric_sets::find(sets, name, "host");
    return 0;
}
