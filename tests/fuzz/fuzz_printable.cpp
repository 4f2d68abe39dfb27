// Names made printable: any bytes give text that is_printable() accepts, unchanged when it already
// was, and never shorter than the input.
#include "untrusted/printable.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace untrusted = rocprofiler::untrusted;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    auto text = std::string_view{reinterpret_cast<const char*>(data), size};
    auto out  = untrusted::printable(text);
    if(!untrusted::is_printable(out)) std::abort();
    if(untrusted::is_printable(text) != (out == text)) std::abort();
    if(out.size() < text.size()) std::abort();
    return 0;
}
