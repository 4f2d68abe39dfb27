#include "common/environment.hpp"

#include "common/logging.hpp"
#include "untrusted/regex_pattern.hpp"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <regex>
#include <system_error>

namespace rocprofiler::common::env
{
namespace
{
constexpr auto true_names  = std::array<std::string_view, 4>{"1", "true", "yes", "on"};
constexpr auto false_names = std::array<std::string_view, 4>{"0", "false", "no", "off"};

std::string_view
trim(std::string_view text)
{
    auto blank = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
    while(!text.empty() && blank(text.front()))
        text.remove_prefix(1);
    while(!text.empty() && blank(text.back()))
        text.remove_suffix(1);
    return text;
}

bool
equal_ignoring_case(std::string_view a, std::string_view b)
{
    if(a.size() != b.size()) return false;
    for(size_t i = 0; i < a.size(); ++i)
        if(std::tolower(static_cast<unsigned char>(a[i])) !=
           std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

template <size_t N>
bool
is_one_of(std::string_view text, const std::array<std::string_view, N>& candidates)
{
    for(auto candidate : candidates)
        if(equal_ignoring_case(text, candidate)) return true;
    return false;
}

// Decimal digits with an optional leading '+' (strtoull accepted it); no sign, no overflow.
std::optional<uint64_t>
parse_unsigned(std::string_view text)
{
    if(!text.empty() && text.front() == '+') text.remove_prefix(1);
    if(text.empty() || std::isdigit(static_cast<unsigned char>(text.front())) == 0)
        return std::nullopt;
    auto        value = uint64_t{0};
    const auto* end   = text.data() + text.size();
    auto [ptr, ec]    = std::from_chars(text.data(), end, value, 10);
    if(ec != std::errc{} || ptr != end) return std::nullopt;
    return value;
}

std::optional<uint64_t>
parse_choice(const setting& def, std::string_view text)
{
    for(const auto& entry : def.choices)
        if(equal_ignoring_case(text, entry.name)) return static_cast<uint64_t>(entry.value);
    return std::nullopt;
}

// The regular expression's error, or "" when it compiles.
std::string
regex_error(std::string_view text)
{
    if(auto refusal = untrusted::std_regex_refusal(text); !refusal.empty()) return refusal;
    try
    {
        (void)std::regex{std::string{text}, std::regex::ECMAScript};
        return {};
    }
    catch(const std::regex_error& e)
    {
        return e.what();
    }
}

std::string
joined(std::span<const std::string_view> items)
{
    auto out = std::string{};
    for(auto item : items)
    {
        if(!out.empty()) out += ", ";
        out += item;
    }
    return out;
}

std::string
invalid_message(const setting& def, std::string_view variable, const char* value, std::string why)
{
    auto message = std::string{variable} + "='" + value + "' is not valid: expected ";
    message += accepted_values(def);
    if(!why.empty()) message += " (" + why + ")";
    message += "; using the default ";
    message += def.computed_default ? "(" + default_text(def) + ")" : default_text(def);
    return message;
}

std::vector<std::string>
split_paths(std::string_view text)
{
    auto result = std::vector<std::string>{};
    auto start  = size_t{0};
    while(start <= text.size())
    {
        auto end = text.find(':', start);
        if(end == std::string_view::npos) end = text.size();
        if(end > start) result.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    return result;
}
} // namespace

const getenv_function&
process_environment()
{
    static const auto* value = new getenv_function{
        [](const char* name) { return std::getenv(name); }}; // never destroyed: read at exit
    return *value;
}

std::string
accepted_values(const setting& def)
{
    if(def.type == value_type::number)
    {
        auto text = def.maximum == UINT64_MAX
                        ? "an integer of " + std::to_string(def.minimum) + " or more"
                        : "an integer from " + std::to_string(def.minimum) + " to " +
                              std::to_string(def.maximum);
        return def.unit.empty() ? text : text + " (" + std::string{def.unit} + ")";
    }
    auto listed = std::vector<std::string_view>{};
    if(def.type == value_type::flag)
        for(size_t i = 0; i < true_names.size(); ++i)
            listed.insert(listed.end(), {true_names[i], false_names[i]});
    for(const auto& entry : def.choices)
        if(!entry.alias) listed.emplace_back(entry.name);
    if(!listed.empty()) return "one of " + joined(listed);
    if(def.type == value_type::regex) return "an ECMAScript regular expression";
    return def.type == value_type::path_list ? "paths separated by ':'" : "any text";
}

std::string
default_text(const setting& def)
{
    if(def.computed_default || !def.default_text.empty()) return std::string{def.default_text};
    return std::to_string(def.fallback);
}

outcome
check(const setting& def, std::string_view variable, const char* value)
{
    auto result     = outcome{};
    result.number   = def.fallback;
    const auto text = trim(value != nullptr ? std::string_view{value} : std::string_view{});
    if(text.empty()) return result;

    auto parsed = std::optional<uint64_t>{};
    auto why    = std::string{};
    switch(def.type)
    {
    case value_type::flag:
        if(is_one_of(text, true_names))
            parsed = 1;
        else if(is_one_of(text, false_names))
            parsed = 0;
        break;
    case value_type::number:
        parsed = parse_unsigned(text);
        if(parsed && (*parsed < def.minimum || *parsed > def.maximum)) parsed.reset();
        break;
    case value_type::choice:
        parsed = parse_choice(def, text);
        break;
    case value_type::regex:
        why = regex_error(text);
        [[fallthrough]];
    case value_type::text:
    case value_type::path_list:
        if(why.empty())
        {
            result.status = state::valid;
            result.text   = std::string{text};
            return result;
        }
        break;
    }
    if(parsed)
    {
        result.status = state::valid;
        result.number = *parsed;
        return result;
    }
    result.status  = state::invalid;
    result.message = invalid_message(def, variable, value, std::move(why));
    return result;
}

outcome
read(const setting& def, std::string_view variable, const getenv_function& getenv)
{
    // Registry names are string literals, hence NUL-terminated; family members are built.
    auto built  = def.indexed ? std::string{variable} : std::string{};
    auto result = check(def, variable, getenv(def.indexed ? built.c_str() : variable.data()));
    if(result.status == state::invalid)
        log::warn_once("environment:" + std::string{variable}, result.message);
    return result;
}

bool
get(const typed_setting<bool>& s, const getenv_function& getenv)
{
    return read(s.def, s.def.name, getenv).number != 0;
}

std::optional<bool>
get(const typed_setting<std::optional<bool>>& s, const getenv_function& getenv)
{
    auto result = read(s.def, s.def.name, getenv);
    if(result.status != state::valid) return std::nullopt;
    return result.number != 0;
}

uint64_t
get(const typed_setting<uint64_t>& s, const getenv_function& getenv)
{
    return read(s.def, s.def.name, getenv).number;
}

std::optional<uint64_t>
get(const typed_setting<std::optional<uint64_t>>& s, const getenv_function& getenv)
{
    auto result = read(s.def, s.def.name, getenv);
    if(result.status != state::valid) return std::nullopt;
    return result.number;
}

std::string
get(const typed_setting<std::string>& s, const getenv_function& getenv)
{
    return read(s.def, s.def.name, getenv).text;
}

std::vector<std::string>
get(const typed_setting<std::vector<std::string>>& s, const getenv_function& getenv)
{
    return split_paths(read(s.def, s.def.name, getenv).text);
}

std::string
get(const typed_setting<indexed_regex>& s, uint32_t index, const getenv_function& getenv)
{
    auto variable = std::string{s.def.name} + std::to_string(index);
    return read(s.def, variable, getenv).text;
}
} // namespace rocprofiler::common::env
