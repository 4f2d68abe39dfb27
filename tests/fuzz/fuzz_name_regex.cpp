// Kernel-name filters: any pattern compiles or is refused with a message; a compiled one matches
// any name (the first byte splits the input into pattern and name) without exhausting the stack.
#include "config/name_regex.hpp"
#include "config/parse.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

using rocprofiler::tool::name_regex;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if(size == 0) return 0;
    auto split   = std::min<size_t>(data[0], size - 1);
    auto pattern = std::string{reinterpret_cast<const char*>(data) + 1, split};
    auto name    = std::string{reinterpret_cast<const char*>(data) + 1 + split, size - 1 - split};
    auto error   = std::string{};
    auto regex   = name_regex::compile(pattern, &error);
    if(!regex)
    {
        if(error.empty()) std::abort();
        return 0;
    }
    if(regex->pattern() != pattern) std::abort();
    (void)regex->search(name);
    auto again = std::string{};
    if(!rocprofiler::tool::parse::validate_regex(pattern, &again)) std::abort();
    return 0;
}
