#include "untrusted/regex_pattern.hpp"

namespace rocprofiler::untrusted
{
namespace
{
bool
is_digit(char c)
{
    return c >= '0' && c <= '9';
}

// The decimal number of the digit run at @p j (advanced past it), saturated just above @p limit so
// that no run of digits can overflow here.
size_t
read_count(std::string_view pattern, size_t& j, size_t limit)
{
    auto value = size_t{0};
    while(j < pattern.size() && is_digit(pattern[j]))
    {
        if(value <= limit) value = value * 10 + static_cast<size_t>(pattern[j] - '0');
        ++j;
    }
    return value;
}
} // namespace

std::string
std_regex_refusal(std::string_view pattern)
{
    for(size_t i = 0; i < pattern.size(); ++i)
    {
        if(pattern[i] == '\\')
        {
            // "\N": an ECMAScript back-reference takes every digit that follows, and libstdc++
            // reads them into a signed long as it does a repetition count.
            if(i + 1 < pattern.size() && pattern[i + 1] >= '1' && pattern[i + 1] <= '9')
            {
                auto j     = i + 1;
                auto value = read_count(pattern, j, std_regex_max_back_reference);
                if(value > std_regex_max_back_reference)
                    return "the back-reference '\\" +
                           std::string{pattern.substr(i + 1, j - i - 1)} + "' at offset " +
                           std::to_string(i) + " is above " +
                           std::to_string(std_regex_max_back_reference) +
                           ", the most this regular expression engine (std::regex) accepts";
                i = j - 1;
                continue;
            }
            ++i; // any other escaped character is a literal
            continue;
        }
        if(pattern[i] != '{') continue;
        // The numbers of "{N}", "{N,}" and "{N,M}", each compared digit by digit so that no count
        // can overflow here either.
        for(size_t j = i + 1; j < pattern.size() && pattern[j] != '}'; ++j)
        {
            if(!is_digit(pattern[j])) continue;
            auto start = j;
            auto value = read_count(pattern, j, std_regex_max_repetition);
            if(value > std_regex_max_repetition)
                return "the repetition count '" + std::string{pattern.substr(start, j - start)} +
                       "' at offset " + std::to_string(start) + " is above " +
                       std::to_string(std_regex_max_repetition) +
                       ", the most this regular expression engine (std::regex) accepts";
            if(j >= pattern.size() || pattern[j] == '}') break;
        }
    }
    return {};
}
} // namespace rocprofiler::untrusted
