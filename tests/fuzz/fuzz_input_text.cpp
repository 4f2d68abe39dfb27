// rocprofv3 -i <file>.txt: the "pmc:" lines. Refused with a message, or groups of non-empty names.
#include "config/parse.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace parse = rocprofiler::tool::parse;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    auto text   = std::string_view{reinterpret_cast<const char*>(data), size};
    auto error  = std::string{};
    auto groups = parse::parse_input_text(text, &error);
    if(!groups && error.empty()) std::abort();
    if(groups)
        for(const auto& group : *groups)
            for(const auto& name : group)
                if(name.empty()) std::abort();
    return 0;
}
