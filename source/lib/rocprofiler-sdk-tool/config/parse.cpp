#include "config/parse.hpp"
#include "config/name_regex.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <memory>
#include <sstream>

namespace rocprofiler::tool::parse
{
namespace
{
std::string_view
trim(std::string_view text)
{
    while(!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while(!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

std::optional<uint64_t>
to_number(std::string_view text)
{
    text = trim(text);
    if(text.empty()) return std::nullopt;
    uint64_t value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if(ec != std::errc{} || ptr != text.data() + text.size()) return std::nullopt;
    return value;
}

std::string
lower(std::string_view text)
{
    auto out = std::string{text};
    std::transform(out.begin(),
                   out.end(),
                   out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::vector<std::string>
split_any(std::string_view text, std::string_view separators)
{
    auto out     = std::vector<std::string>{};
    auto current = std::string{};
    for(char c : text)
    {
        if(separators.find(c) != std::string_view::npos)
        {
            if(!current.empty()) out.emplace_back(std::move(current));
            current.clear();
        }
        else
            current.push_back(c);
    }
    if(!current.empty()) out.emplace_back(std::move(current));
    return out;
}
} // namespace

bool
iteration_range::contains(uint64_t iteration) const
{
    if(intervals.empty()) return true;
    return std::any_of(intervals.begin(),
                       intervals.end(),
                       [iteration](const auto& i)
                       { return iteration >= i.first && iteration <= i.last; });
}

std::optional<iteration_range>
parse_iteration_range(std::string_view text, std::string* error)
{
    auto fail = [error](const std::string& why) -> std::optional<iteration_range>
    {
        if(error != nullptr) *error = why;
        return std::nullopt;
    };
    text = trim(text);
    // Brackets only group: "[1-3,5]", "[1-2],[3-4]" (upstream's documented form) and
    // "[1, 2, [5-8]]" name the same kind of set. They must balance, so that a cut-off value
    // ("[1-3") is an error rather than a guess.
    auto depth = 0;
    for(char c : text)
    {
        if(c == '[') ++depth;
        if(c == ']' && --depth < 0) return fail("unbalanced ']' in '" + std::string{text} + "'");
    }
    if(depth != 0) return fail("missing ']' at the end of '" + std::string{text} + "'");

    auto result = iteration_range{};
    for(const auto& item : split_any(text, "[], \t"))
    {
        auto dash     = item.find('-');
        auto interval = iteration_interval{};
        if(dash == std::string::npos)
        {
            auto value = to_number(item);
            if(!value) return fail("'" + item + "' is not an iteration number");
            interval = {*value, *value};
        }
        else
        {
            auto lo = to_number(std::string_view{item}.substr(0, dash));
            // "5-": from iteration 5 on (an open range).
            auto open = dash + 1 == item.size();
            auto hi   = open ? std::optional<uint64_t>{iteration_interval::open_end}
                             : to_number(std::string_view{item}.substr(dash + 1));
            if(!lo || !hi) return fail("'" + item + "' is not a range 'first-last' or 'first-'");
            if(*lo > *hi) return fail("'" + item + "': the first iteration is after the last");
            interval = {*lo, *hi};
        }
        if(interval.first == 0) return fail("'" + item + "': iterations are counted from 1");
        result.intervals.push_back(interval);
    }
    if(result.intervals.empty()) return fail("the iteration range is empty");
    return result;
}

bool
rank_list::contains(uint64_t rank) const
{
    return std::any_of(intervals.begin(),
                       intervals.end(),
                       [rank](const auto& i) { return rank >= i.first && rank <= i.last; });
}

std::optional<rank_list>
parse_rank_list(std::string_view text, std::string* error)
{
    auto fail = [error](std::string message) -> std::optional<rank_list>
    {
        if(error != nullptr) *error = std::move(message);
        return std::nullopt;
    };
    if(trim(text).empty()) return fail("the list names no rank (e.g. 0,2 or 0-1,3)");
    auto out   = rank_list{};
    auto start = size_t{0};
    for(;;)
    {
        auto end   = text.find(',', start);
        auto item  = trim(text.substr(start, end == std::string_view::npos ? end : end - start));
        auto shown = "'" + abbreviate(std::string{item}) + "'";
        if(item.empty()) return fail("an empty item (two commas, or one at either end)");
        auto dash  = item.find('-');
        auto first = to_number(item.substr(0, dash));
        auto last  = dash == std::string_view::npos ? first : to_number(item.substr(dash + 1));
        if(!first || !last)
            return fail("item " + shown +
                        " is neither a rank (a number from 0) nor a range of ranks 'a-b'");
        if(*first > *last)
            return fail("range " + shown + " ends before it starts (write the lower rank first)");
        out.intervals.push_back({*first, *last});
        if(end == std::string_view::npos) break;
        start = end + 1;
    }
    return out;
}

std::optional<uint64_t>
parse_count(std::string_view text)
{
    return to_number(text);
}

std::vector<std::string>
parse_counter_list(std::string_view text)
{
    // The "pmc:" prefix of an input line belongs to the first name only, wherever separators put
    // it (",pmc:A" too): so that a list written back as names (encode_counter_groups) reads the
    // same names again; no trim beyond the separators, for the same reason (found by
    // fuzz_cli_values).
    auto names = split_any(text, ", \t\r\n");
    while(!names.empty() && names.front().size() >= 4 &&
          lower(names.front().substr(0, 4)) == "pmc:")
    {
        names.front().erase(0, 4);
        if(names.front().empty()) names.erase(names.begin());
    }
    return names;
}

std::string
encode_counter_groups(const std::vector<std::vector<std::string>>& groups)
{
    auto out = std::string{};
    for(size_t g = 0; g < groups.size(); ++g)
    {
        if(g > 0) out += ';';
        for(size_t c = 0; c < groups[g].size(); ++c)
        {
            if(c > 0) out += ' ';
            out += groups[g][c];
        }
    }
    return out;
}

std::vector<std::vector<std::string>>
decode_counter_groups(std::string_view text)
{
    auto out = std::vector<std::vector<std::string>>{};
    // "A B;C", or AMD's "pmc: A B\npmc: C" (a line per group).
    for(const auto& group : split_any(text, ";\n"))
    {
        auto names = parse_counter_list(group);
        if(!names.empty()) out.emplace_back(std::move(names));
    }
    return out;
}

std::optional<std::vector<std::vector<std::string>>>
parse_input_text(std::string_view contents, std::string* error)
{
    auto   groups = std::vector<std::vector<std::string>>{};
    auto   stream = std::istringstream{std::string{contents}};
    auto   line   = std::string{};
    size_t number = 0;
    while(std::getline(stream, line))
    {
        ++number;
        auto view = std::string_view{line};
        if(auto hash = view.find('#'); hash != std::string_view::npos) view = view.substr(0, hash);
        view = trim(view);
        if(view.empty()) continue;
        if(view.size() < 4 || lower(view.substr(0, 4)) != "pmc:")
        {
            if(error != nullptr)
                *error = "line " + std::to_string(number) +
                         ": expected 'pmc: <counters...>', got '" + std::string{view} + "'";
            return std::nullopt;
        }
        auto names = parse_counter_list(view);
        if(names.empty())
        {
            if(error != nullptr)
                *error = "line " + std::to_string(number) + ": 'pmc:' lists no counter";
            return std::nullopt;
        }
        groups.emplace_back(std::move(names));
    }
    return groups;
}

bool
validate_regex(const std::string& pattern, std::string* error)
{
    return name_regex::compile(pattern, error).has_value();
}

std::string
abbreviate(const std::string& text)
{
    if(text.size() <= 80) return text;
    return text.substr(0, 60) + "... (" + std::to_string(text.size()) + " characters)";
}

size_t
edit_distance(std::string_view a, std::string_view b)
{
    auto la   = lower(a);
    auto lb   = lower(b);
    auto prev = std::vector<size_t>(lb.size() + 1);
    auto curr = std::vector<size_t>(lb.size() + 1);
    for(size_t j = 0; j <= lb.size(); ++j)
        prev[j] = j;
    for(size_t i = 1; i <= la.size(); ++i)
    {
        curr[0] = i;
        for(size_t j = 1; j <= lb.size(); ++j)
        {
            auto cost = (la[i - 1] == lb[j - 1]) ? 0u : 1u;
            curr[j]   = std::min({prev[j] + 1, curr[j - 1] + 1, prev[j - 1] + cost});
        }
        std::swap(prev, curr);
    }
    return prev[lb.size()];
}

std::vector<std::string>
close_matches(std::string_view name, const std::vector<std::string>& candidates, size_t max_results)
{
    const auto limit  = std::max<size_t>(2, name.size() / 3);
    const auto lname  = lower(name);
    auto       scored = std::vector<std::pair<size_t, std::string>>{};
    for(const auto& candidate : candidates)
    {
        if(candidate == name) continue;
        auto distance  = edit_distance(name, candidate);
        auto lcand     = lower(candidate);
        auto contained = !lname.empty() && (lcand.find(lname) != std::string::npos ||
                                            lname.find(lcand) != std::string::npos);
        // A substring match ranks right after the matches within one edit.
        if(distance <= limit)
            scored.emplace_back(distance, candidate);
        else if(contained)
            scored.emplace_back(limit + 1, candidate);
    }
    std::stable_sort(scored.begin(),
                     scored.end(),
                     [](const auto& l, const auto& r)
                     { return l.first != r.first ? l.first < r.first : l.second < r.second; });
    auto out = std::vector<std::string>{};
    for(auto& [score, candidate] : scored)
    {
        if(out.size() >= max_results) break;
        if(std::find(out.begin(), out.end(), candidate) == out.end()) out.emplace_back(candidate);
    }
    return out;
}

std::string
demangle(const std::string& name)
{
    auto status = 0;
    auto out    = std::unique_ptr<char, decltype(&std::free)>{
           abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), &std::free};
    return status == 0 && out ? std::string{out.get()} : name;
}

std::string
truncate_name(const std::string& demangled)
{
    // The base name: before the argument list, without template arguments, after the return
    // type and the namespaces.
    auto text  = std::string{};
    auto depth = 0;
    for(char c : demangled)
    {
        if(c == '<')
            ++depth;
        else if(c == '>' && depth > 0)
            --depth;
        else if(depth == 0 && c == '(' && !text.empty())
            break;
        else if(depth == 0)
            text.push_back(c);
    }
    if(auto space = text.rfind(' '); space != std::string::npos) text.erase(0, space + 1);
    if(auto scope = text.rfind("::"); scope != std::string::npos) text.erase(0, scope + 2);
    return text.empty() ? demangled : text;
}

std::string
format_kernel_name(const std::string& name, bool demangle_names, bool truncate)
{
    if(!demangle_names && !truncate) return name;
    // Truncation needs the demangled name (as upstream: -T demangles even with -M).
    auto demangled = demangle(name);
    return truncate ? truncate_name(demangled) : demangled;
}

bool
parse_bool(const char* value)
{
    if(value == nullptr) return false;
    auto v = lower(trim(value));
    return v == "1" || v == "true" || v == "yes" || v == "on";
}
} // namespace rocprofiler::tool::parse
