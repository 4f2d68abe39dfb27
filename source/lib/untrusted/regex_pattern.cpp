#include "untrusted/regex_pattern.hpp"

namespace rocprofiler::untrusted
{
std::string
std_regex_refusal(std::string_view pattern)
{
    for(size_t i = 0; i < pattern.size(); ++i)
    {
        if(pattern[i] == '\\')
        {
            ++i; // the escaped character is a literal
            continue;
        }
        if(pattern[i] != '{') continue;
        // The numbers of "{N}", "{N,}" and "{N,M}", each compared digit by digit so that no count
        // can overflow here either.
        for(size_t j = i + 1; j < pattern.size() && pattern[j] != '}'; ++j)
        {
            if(pattern[j] < '0' || pattern[j] > '9') continue;
            auto value = size_t{0};
            auto start = j;
            while(j < pattern.size() && pattern[j] >= '0' && pattern[j] <= '9')
            {
                if(value <= std_regex_max_repetition)
                    value = value * 10 + static_cast<size_t>(pattern[j] - '0');
                ++j;
            }
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
