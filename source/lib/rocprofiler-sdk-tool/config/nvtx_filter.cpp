#include "config/nvtx_filter.hpp"

#include <cstddef>

namespace rocprofiler::tool::nvtx
{
namespace
{
constexpr auto regex_prefix = std::string_view{"regex:"};

std::vector<std::string>
split(const std::string& text, char separator)
{
    auto out   = std::vector<std::string>{};
    auto start = size_t{0};
    while(true)
    {
        auto end = text.find(separator, start);
        out.push_back(
            text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if(end == std::string::npos) return out;
        start = end + 1;
    }
}

// Does the push/pop @p path (from element @p p on) match @p stack from element @p s on, as a
// contiguous run of ranges ("*" any number of them)?
bool
path_matches_at(const std::vector<std::string>&               path,
                const std::vector<std::optional<name_regex>>& regexes,
                size_t                                        p,
                const std::vector<std::string>&               stack,
                size_t                                        s)
{
    if(p == path.size()) return true;
    if(path[p] == "*")
    {
        for(auto next = s; next <= stack.size(); ++next)
            if(path_matches_at(path, regexes, p + 1, stack, next)) return true;
        return false;
    }
    if(s == stack.size()) return false;
    const auto same = regexes[p] ? regexes[p]->search(stack[s]) : path[p] == stack[s];
    return same && path_matches_at(path, regexes, p + 1, stack, s + 1);
}
} // namespace

std::string
parse(const std::string& text, filter_spec& out, bool* unsupported)
{
    if(unsupported != nullptr) *unsupported = false;
    out       = filter_spec{};
    out.text  = text;
    auto body = text;
    if(body.compare(0, regex_prefix.size(), regex_prefix) == 0)
    {
        out.regex = true;
        body      = body.substr(regex_prefix.size());
    }
    if(auto at = body.find('@'); at != std::string::npos)
    {
        out.domain = body.substr(0, at);
        body       = body.substr(at + 1);
    }
    if(body.empty()) return "'" + text + "' names no range";
    out.push_pop = body.back() == '/';
    if(out.push_pop)
    {
        body.pop_back();
        out.path = split(body, '/');
        for(const auto& name : out.path)
            if(name.empty())
                return "'" + text + "' has an empty range name between '/' (a push/pop path is " +
                       "A/B/, or A/*/B/ with any ranges between)";
        if(out.path.front() == "*" && out.path.size() == 1)
            return "'" + text +
                   "' names no range ('*/' alone matches every push/pop range: leave "
                   "the filter out instead)";
    }
    else
    {
        // A start/end range is not nested: its whole name, '/' included, is the range.
        out.path = {body};
    }
    if(!out.domain.empty())
    {
        if(unsupported != nullptr) *unsupported = true;
        return "'" + text + "' names the domain '" + out.domain +
               "': marker ranges here have no domain (ROCTx has none, and NVTX ranges are "
               "recorded without theirs), so only the default domain ('A/', '@A/', 'A') matches";
    }
    return {};
}

std::optional<range_filter>
range_filter::compile(const std::vector<std::string>& includes,
                      const std::vector<std::string>& excludes,
                      std::string&                    error)
{
    auto out = range_filter{};
    for(auto [list, into] :
        {std::pair{&includes, &out.m_includes}, std::pair{&excludes, &out.m_excludes}})
    {
        for(const auto& text : *list)
        {
            auto c = compiled{};
            if(error = parse(text, c.spec); !error.empty()) return std::nullopt;
            if(c.spec.regex)
                for(const auto& name : c.spec.path)
                {
                    if(name == "*") continue;
                    auto why = std::string{};
                    auto re  = name_regex::compile(name, &why);
                    if(!re)
                    {
                        error =
                            "'" + text + "': '" + name + "' is not a regular expression: " + why;
                        return std::nullopt;
                    }
                    c.regexes.push_back(std::move(*re));
                }
            into->push_back(std::move(c));
        }
    }
    return out;
}

bool
range_filter::matches(const compiled& c, const open_ranges& ranges)
{
    // One optional regex per path element, aligned with the path ("*" has none).
    auto regexes = std::vector<std::optional<name_regex>>{};
    auto next    = size_t{0};
    for(const auto& name : c.spec.path)
        regexes.push_back(c.spec.regex && name != "*" ? std::optional{c.regexes.at(next++)}
                                                      : std::nullopt);
    if(!c.spec.push_pop)
    {
        for(const auto& name : ranges.started)
            if(regexes[0] ? regexes[0]->search(name) : name == c.spec.path[0]) return true;
        return false;
    }
    for(size_t s = 0; s < ranges.pushed.size(); ++s)
        if(path_matches_at(c.spec.path, regexes, 0, ranges.pushed, s)) return true;
    return false;
}

bool
range_filter::accept(const open_ranges& ranges) const
{
    for(const auto& c : m_excludes)
        if(matches(c, ranges)) return false;
    if(m_includes.empty()) return true;
    for(const auto& c : m_includes)
        if(matches(c, ranges)) return true;
    return false;
}

std::string
describe(const open_ranges& ranges)
{
    auto out = std::string{};
    for(const auto& name : ranges.pushed)
        out += name + "/";
    for(const auto& name : ranges.started)
        out += (out.empty() ? "" : " + ") + name;
    return out.empty() ? std::string{"(no range)"} : out;
}
} // namespace rocprofiler::tool::nvtx
