#include "config/amd_names.hpp"

#include "untrusted/input_file.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace rocprofiler::tool::amd_names
{
namespace
{
using json = nlohmann::json;

std::string
string_of(const json& item, const char* key)
{
    auto itr = item.find(key);
    return (itr != item.end() && itr->is_string()) ? itr->get<std::string>() : std::string{};
}

std::vector<std::string>
agents_of(const json& item)
{
    auto out    = std::vector<std::string>{};
    auto agents = item.find("agents");
    if(agents == item.end() || !agents->is_array()) return out;
    for(const auto& agent : *agents)
        if(agent.is_string()) out.emplace_back(agent.get<std::string>());
    return out;
}

std::optional<entry>
read_entry(const json& item)
{
    if(!item.is_object()) return std::nullopt;
    auto out = entry{};
    out.name = string_of(item, "name");
    if(out.name.empty()) return std::nullopt;
    for(const char* key : {"definitions", "absent"})
        if(!item.contains(key) || !item.at(key).is_array()) return std::nullopt;
    for(const auto& def : item.at("definitions"))
    {
        if(!def.is_object()) return std::nullopt;
        auto one =
            mapping{string_of(def, "expression"), string_of(def, "unit"), string_of(def, "notes")};
        if(one.expression.empty()) return std::nullopt;
        for(const auto& agent : agents_of(def))
            out.mapped.emplace(agent, one);
    }
    for(const auto& absent : item.at("absent"))
    {
        if(!absent.is_object()) return std::nullopt;
        auto reason = string_of(absent, "reason");
        if(reason.empty()) return std::nullopt;
        for(const auto& agent : agents_of(absent))
            if(out.mapped.count(agent) == 0) out.absent.emplace(agent, reason);
    }
    return out;
}
} // namespace

std::optional<table>
parse(std::string_view text, const std::string& file, std::string& error)
{
    auto doc = json{};
    try
    {
        doc = json::parse(text);
    }
    catch(const json::exception& e)
    {
        error = file + ": " + e.what();
        return std::nullopt;
    }
    if(!doc.is_object() || !doc.contains("version") || doc.at("version") != 1 ||
       !doc.contains("equivalents") || !doc.at("equivalents").is_array())
    {
        error = file + ": not a table of version 1 with an \"equivalents\" list";
        return std::nullopt;
    }
    auto out = table{};
    for(const auto& item : doc.at("equivalents"))
        if(auto one = read_entry(item); one && find(out, one->name) == nullptr)
            out.emplace_back(std::move(*one));
    return out;
}

std::optional<table>
read_file(const std::filesystem::path& file, std::string& error)
{
    auto contents = untrusted::read_bounded(file.string());
    if(!contents.ok)
    {
        error = contents.error;
        return std::nullopt;
    }
    return parse(contents.text, file.string(), error);
}

std::filesystem::path
shipped_file(const std::filesystem::path& module_path)
{
    return module_path.parent_path().parent_path() / "share" / "rocprofiler-sdk" /
           "amd_equivalents.json";
}

const entry*
find(const table& names, std::string_view name)
{
    for(const auto& e : names)
        if(e.name == name) return &e;
    return nullptr;
}

std::vector<std::string>
names_in(std::string_view expression)
{
    auto out  = std::vector<std::string>{};
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
    for(size_t i = 0; i < expression.size();)
    {
        auto c = expression[i];
        if(std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '.')
        {
            // A number, its fraction and exponent: not a name.
            while(i < expression.size() &&
                  (word(expression[i]) || expression[i] == '.' ||
                   ((expression[i] == '+' || expression[i] == '-') && i > 0 &&
                    (expression[i - 1] == 'e' || expression[i - 1] == 'E'))))
                ++i;
            continue;
        }
        if(!word(c))
        {
            ++i;
            continue;
        }
        auto start = i;
        while(i < expression.size() && (word(expression[i]) || expression[i] == '.'))
            ++i;
        auto name = std::string{expression.substr(start, i - start)};
        auto rest = expression.substr(i);
        auto call = rest.find_first_not_of(' ');
        if((name == "min" || name == "max") && call != std::string_view::npos && rest[call] == '(')
            continue;
        if(std::find(out.begin(), out.end(), name) == out.end()) out.emplace_back(std::move(name));
    }
    return out;
}

on_agent
describe(const table& names, const std::string& agent, const std::vector<std::string>& counters)
{
    auto out = on_agent{};
    auto has = [&counters](const std::string& name)
    { return std::find(counters.begin(), counters.end(), name) != counters.end(); };
    for(const auto& e : names)
    {
        if(auto reason = e.absent.find(agent); reason != e.absent.end())
        {
            out.named = true;
            // A counter the agent has under AMD's name (a user's metric) is that counter.
            if(!has(e.name)) out.absent.emplace(e.name, reason->second);
            continue;
        }
        auto def = e.mapped.find(agent);
        if(def == e.mapped.end()) continue;
        out.named = true;
        auto used = names_in(def->second.expression);
        if(has(e.name))
        {
            if(used.size() == 1 && has(used.front())) out.equivalent_of[e.name] = used;
            continue;
        }
        auto lacks = std::string{};
        for(const auto& name : used)
            if(!has(name)) lacks += (lacks.empty() ? "" : ", ") + name;
        // With every counter there, the SDK refused the definition itself (and warned why).
        out.absent.emplace(e.name,
                           lacks.empty() ? "its equivalent " + def->second.expression +
                                               " is not offered by the SDK (its warning says why)"
                                         : "its equivalent " + def->second.expression + " needs " +
                                               lacks + ", which this agent does not offer here");
    }
    return out;
}
} // namespace rocprofiler::tool::amd_names
