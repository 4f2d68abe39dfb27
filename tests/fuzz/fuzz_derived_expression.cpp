// Derived-metric expressions: parse anything; whatever parses evaluates to a number or NaN for any
// operand values, and lists each name once.
#include "counters/derived.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string_view>
#include <vector>

namespace derived = rocprofiler::counters::derived;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    auto text  = std::string_view{reinterpret_cast<const char*>(data), size};
    auto error = derived::expression::parse_error{};
    auto expr  = derived::expression::parse(text, &error);
    if(!expr)
    {
        if(error.message.empty()) std::abort(); // a refusal always says why
        return 0;
    }
    const auto& names  = expr->names();
    auto        unique = std::set<std::string>(names.begin(), names.end());
    if(unique.size() != names.size()) std::abort();
    for(double fill : {0.0, 1.0, -3.5, 1e308})
    {
        auto values = std::vector<double>(names.size(), fill);
        (void)expr->evaluate(values);
    }
    // A wrong number of values is NaN, never a read past the span.
    auto short_values = std::vector<double>(names.size() + 1, 2.0);
    if(!std::isnan(expr->evaluate(short_values))) std::abort();
    return 0;
}
