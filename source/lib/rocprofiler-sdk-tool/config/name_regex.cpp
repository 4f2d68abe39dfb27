#include "config/name_regex.hpp"

#if defined(ROCPROFILER_TOOL_HAVE_RE2) && !defined(ROCPROFILER_TOOL_FORCE_STD_REGEX)
#    define ROCPROFILER_TOOL_USE_RE2 1
#    include <re2/re2.h>
#else
#    include "untrusted/regex_pattern.hpp"

#    include <regex>
#endif

namespace rocprofiler::tool
{
#if defined(ROCPROFILER_TOOL_USE_RE2)
struct name_regex::impl
{
    static RE2::Options options()
    {
        auto opts = RE2::Options{};
        opts.set_log_errors(false); // errors go to the caller, not to RE2's log on stderr
        return opts;
    }

    explicit impl(const std::string& text)
        : pattern{text}
        , re{text, options()}
    {
    }

    std::string pattern;
    RE2         re;
};

std::optional<name_regex>
name_regex::compile(const std::string& pattern, std::string* error)
{
    auto compiled = std::make_shared<const impl>(pattern);
    if(!compiled->re.ok())
    {
        if(error != nullptr) *error = compiled->re.error() + " (RE2 syntax)";
        return std::nullopt;
    }
    return name_regex{std::move(compiled)};
}

const char*
name_regex::engine()
{
    return "RE2";
}

bool
name_regex::search(std::string_view name) const
{
    return RE2::PartialMatch(re2::StringPiece{name.data(), name.size()}, m_impl->re);
}
#else
struct name_regex::impl
{
    explicit impl(const std::string& text)
        : pattern{text}
        , re{text, std::regex::ECMAScript | std::regex::optimize}
    {
    }

    std::string pattern;
    std::regex  re;
};

std::optional<name_regex>
name_regex::compile(const std::string& pattern, std::string* error)
{
    // std::regex's compiler recurses once per element of the pattern.
    if(pattern.size() > fallback_max_pattern_length)
    {
        if(error != nullptr)
            *error = "the pattern has " + std::to_string(pattern.size()) +
                     " characters; this build (std::regex, without RE2) accepts at most " +
                     std::to_string(fallback_max_pattern_length);
        return std::nullopt;
    }
    if(auto refusal = untrusted::std_regex_refusal(pattern); !refusal.empty())
    {
        if(error != nullptr) *error = refusal;
        return std::nullopt;
    }
    try
    {
        return name_regex{std::make_shared<const impl>(pattern)};
    }
    catch(const std::regex_error& e)
    {
        if(error != nullptr) *error = e.what();
        return std::nullopt;
    }
}

const char*
name_regex::engine()
{
    return "std::regex (ECMAScript)";
}

bool
name_regex::search(std::string_view name) const
{
    // std::regex's matcher recurses once per character (or more): bound the input.
    name = name.substr(0, fallback_max_name_length);
    return std::regex_search(name.begin(), name.end(), m_impl->re);
}
#endif

name_regex::name_regex(std::shared_ptr<const impl> compiled)
    : m_impl{std::move(compiled)}
{
}

const std::string&
name_regex::pattern() const
{
    return m_impl->pattern;
}
} // namespace rocprofiler::tool
