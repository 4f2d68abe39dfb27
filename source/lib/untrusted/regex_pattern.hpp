// Regular expressions that reach std::regex from users and settings. libstdc++'s compiler reads a
// repetition count ("a{N}", "{N,M}") into a signed integer without an overflow check (undefined
// behaviour for a count of 20 digits), reads an ECMAScript back-reference ("\123...") the same
// way, and builds one copy of the repeated element per count (a count of 10^8 takes gigabytes).
// Patterns are checked here before std::regex compiles them.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rocprofiler::untrusted
{
// The largest repetition count accepted in a pattern given to std::regex.
constexpr size_t std_regex_max_repetition = 1000;
// The largest back-reference number accepted ("\1" to "\1000"; no real pattern has more groups).
constexpr size_t std_regex_max_back_reference = 1000;

// Why std::regex must not compile @p pattern ("" when it may): a repetition count above
// std_regex_max_repetition or a back-reference above std_regex_max_back_reference, named with its
// position. An escaped brace ("\{") is a literal.
std::string std_regex_refusal(std::string_view pattern);
} // namespace rocprofiler::untrusted
