#include "counters/metrics_file.hpp"

#include "common/logging.hpp"

#include "untrusted/input_file.hpp"

#include <nlohmann/json.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <set>
#include <system_error>
#include <unordered_map>
#include <unordered_set>

// Set by counters/CMakeLists.txt from the install layout.
#ifndef ROCPROFILER_METRICS_RELATIVE_PATH
#    define ROCPROFILER_METRICS_RELATIVE_PATH "../share/rocprofiler-sdk/metrics.json"
#endif

namespace rocprofiler::counters::metrics_file
{
namespace
{
namespace fs = std::filesystem;

using json = nlohmann::json;

constexpr int supported_version = 1;

// The optional string member @p key of @p entry into @p out; false (with a message) when present
// but not a string.
bool
optional_string(
    const json& entry, const char* key, std::string& out, const std::string& where, loaded& result)
{
    auto itr = entry.find(key);
    if(itr == entry.end()) return true;
    if(!itr->is_string())
    {
        result.errors.emplace_back(where + ": \"" + key + "\" must be a string; skipped");
        return false;
    }
    out = itr->get<std::string>();
    return true;
}

// One entry of "derived", or nullopt with a message.
std::optional<derived::definition>
read_definition(const json& entry, size_t index, const std::string& path, loaded& result)
{
    auto where = path + ": derived metric #" + std::to_string(index + 1);
    if(!entry.is_object())
    {
        result.errors.emplace_back(where + " is not an object; skipped");
        return std::nullopt;
    }
    auto def   = derived::definition{};
    def.source = path;
    auto name  = entry.find("name");
    if(name == entry.end() || !name->is_string() || name->get<std::string>().empty())
    {
        result.errors.emplace_back(where + " has no \"name\" string; skipped");
        return std::nullopt;
    }
    def.name = name->get<std::string>();
    where    = path + ": derived metric '" + def.name + "'";
    auto ok  = std::all_of(def.name.begin(),
                          def.name.end(),
                          [](char c) {
                              return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' ||
                                     c == '.';
                          }) &&
              std::isdigit(static_cast<unsigned char>(def.name.front())) == 0;
    if(!ok)
    {
        result.errors.emplace_back(where +
                                   ": a name is a letter or '_', then letters, digits, '_' and "
                                   "'.' (as expressions name counters); skipped");
        return std::nullopt;
    }
    auto text = entry.find("expression");
    if(text == entry.end() || !text->is_string())
    {
        result.errors.emplace_back(where + " has no \"expression\" string; skipped");
        return std::nullopt;
    }
    def.text   = text->get<std::string>();
    auto error = derived::expression::parse_error{};
    auto expr  = derived::expression::parse(def.text, &error);
    if(!expr)
    {
        result.errors.emplace_back(where + ": bad expression \"" + def.text + "\" at " +
                                   error.message + "; skipped");
        return std::nullopt;
    }
    def.parsed = std::move(*expr);
    if(!optional_string(entry, "description", def.description, where, result) ||
       !optional_string(entry, "unit", def.unit, where, result))
        return std::nullopt;
    if(auto agents = entry.find("agents"); agents != entry.end())
    {
        auto names = std::vector<std::string>{};
        auto valid = agents->is_array();
        if(valid)
            for(const auto& agent : *agents)
            {
                valid = valid && agent.is_string();
                if(valid) names.emplace_back(agent.get<std::string>());
            }
        if(!valid)
        {
            result.errors.emplace_back(where +
                                       ": \"agents\" must be a list of agent names; skipped");
            return std::nullopt;
        }
        def.agents = std::move(names);
    }
    return def;
}

// The string member @p key of @p entry, non-empty; false with a message otherwise.
bool
required_string(
    const json& entry, const char* key, std::string& out, const std::string& where, loaded& result)
{
    auto itr = entry.find(key);
    if(itr == entry.end() || !itr->is_string() || itr->get<std::string>().empty())
    {
        result.errors.emplace_back(where + ": \"" + key + "\" must be a non-empty string; skipped");
        return false;
    }
    out = itr->get<std::string>();
    return true;
}

// Whether @p entry has only the keys @p allowed; false with a message naming the first other.
bool
only_keys(const json&                        entry,
          std::initializer_list<std::string> allowed,
          const std::string&                 where,
          loaded&                            result)
{
    for(const auto& [key, value] : entry.items())
        if(std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        {
            result.errors.emplace_back(where + ": unknown key \"" + key + "\"; skipped");
            return false;
        }
    return true;
}

// The "agents" of a definition or an absent item: a non-empty list of non-empty strings, none
// named before in the same entry (@p seen).
bool
read_agents(const json&               item,
            std::vector<std::string>& out,
            std::set<std::string>&    seen,
            const std::string&        where,
            loaded&                   result)
{
    auto agents = item.find("agents");
    auto valid  = agents != item.end() && agents->is_array() && !agents->empty();
    if(valid)
        for(const auto& agent : *agents)
        {
            valid = valid && agent.is_string() && !agent.get<std::string>().empty();
            if(valid) out.emplace_back(agent.get<std::string>());
        }
    if(!valid)
    {
        result.errors.emplace_back(where + ": \"agents\" must be a non-empty list of agent "
                                           "names; skipped");
        return false;
    }
    for(const auto& agent : out)
        if(!seen.insert(agent).second)
        {
            result.errors.emplace_back(where + ": agent '" + agent +
                                       "' is named twice (each agent is in one definition or in "
                                       "\"absent\"); skipped");
            return false;
        }
    return true;
}

// One entry of "equivalents": its definitions appended to @p defs, or false with a message.
bool
read_equivalent(const json&                       entry,
                size_t                            index,
                const std::string&                path,
                std::vector<derived::definition>& defs,
                loaded&                           result)
{
    auto where = path + ": AMD counter name #" + std::to_string(index + 1);
    if(!entry.is_object())
    {
        result.errors.emplace_back(where + " is not an object; skipped");
        return false;
    }
    auto name = std::string{};
    if(!required_string(entry, "name", name, where, result)) return false;
    where        = path + ": AMD counter name '" + name + "'";
    auto meaning = std::string{};
    auto kind    = std::string{};
    if(!only_keys(
           entry, {"name", "amd_meaning", "amd_kind", "definitions", "absent"}, where, result) ||
       !required_string(entry, "amd_meaning", meaning, where, result) ||
       !required_string(entry, "amd_kind", kind, where, result))
        return false;
    auto definitions = entry.find("definitions");
    auto absent      = entry.find("absent");
    if(definitions == entry.end() || !definitions->is_array() || absent == entry.end() ||
       !absent->is_array())
    {
        result.errors.emplace_back(where + ": \"definitions\" and \"absent\" must be lists; "
                                           "skipped");
        return false;
    }
    auto seen = std::set<std::string>{};
    auto mine = std::vector<derived::definition>{};
    for(const auto& item : *definitions)
    {
        auto def   = derived::definition{};
        def.name   = name;
        def.source = path;
        auto text  = std::string{};
        auto notes = std::string{};
        if(!item.is_object() ||
           !only_keys(
               item, {"agents", "expression", "unit", "description", "notes"}, where, result))
        {
            if(!item.is_object())
                result.errors.emplace_back(where + ": a definition is not an object; skipped");
            return false;
        }
        auto agents = std::vector<std::string>{};
        if(!read_agents(item, agents, seen, where, result) ||
           !required_string(item, "expression", def.text, where, result) ||
           !required_string(item, "unit", def.unit, where, result) ||
           !required_string(item, "description", text, where, result) ||
           !optional_string(item, "notes", notes, where, result))
            return false;
        auto error = derived::expression::parse_error{};
        auto expr  = derived::expression::parse(def.text, &error);
        if(!expr)
        {
            result.errors.emplace_back(where + ": bad expression \"" + def.text + "\" at " +
                                       error.message + "; skipped");
            return false;
        }
        def.parsed                 = std::move(*expr);
        def.agents                 = std::move(agents);
        def.description            = "equivalent of AMD's " + name + ": " + text;
        def.quiet_when_unavailable = true;
        mine.emplace_back(std::move(def));
    }
    for(const auto& item : *absent)
    {
        auto reason = std::string{};
        auto agents = std::vector<std::string>{};
        if(!item.is_object())
        {
            result.errors.emplace_back(where + ": an \"absent\" item is not an object; skipped");
            return false;
        }
        if(!only_keys(item, {"agents", "reason"}, where, result) ||
           !read_agents(item, agents, seen, where, result) ||
           !required_string(item, "reason", reason, where, result))
            return false;
    }
    for(auto& def : mine)
        defs.emplace_back(std::move(def));
    return true;
}

// Definitions in the order of their first appearance, where a later definition of a name takes
// the earlier one's place: linear in the number of definitions (a map by name), so that files of
// 10^6 metrics load in seconds (docs/PERFORMANCE.md, *Loading metric files*).
class ordered_definitions
{
public:
    // True when @p def replaced a definition of the same name.
    bool add_or_replace(derived::definition def)
    {
        auto [itr, added] = m_index.try_emplace(def.name, m_list.size());
        if(!added)
        {
            m_list[itr->second] = std::move(def);
            return true;
        }
        m_list.emplace_back(std::move(def));
        return false;
    }

    std::vector<derived::definition> take() { return std::move(m_list); }

private:
    std::vector<derived::definition>        m_list  = {};
    std::unordered_map<std::string, size_t> m_index = {};
};
} // namespace

void
read_file(const std::string& path, loaded& out)
{
    auto contents = untrusted::read_bounded(path);
    if(!contents.ok)
    {
        out.errors.emplace_back(contents.error + "; no derived metrics from it");
        return;
    }
    read_text(contents.text, path, out);
}

void
read_text(std::string_view text, const std::string& path, loaded& out)
{
    auto doc = json{};
    try
    {
        doc = json::parse(text);
    }
    catch(const json::exception& e)
    {
        // The parser's message says where ("parse error at line 3, column 7: ...").
        out.errors.emplace_back(path + ": " + e.what() + "; no derived metrics from it");
        return;
    }
    if(!doc.is_object())
    {
        out.errors.emplace_back(path +
                                ": the file is not a JSON object; no derived metrics from it");
        return;
    }
    auto version = doc.find("version");
    if(version == doc.end() || !version->is_number_integer() ||
       version->get<int64_t>() != supported_version)
    {
        out.errors.emplace_back(path + ": \"version\" must be " +
                                std::to_string(supported_version) + "; no derived metrics from it");
        return;
    }
    auto list = doc.find("derived");
    if(list == doc.end()) return; // a file of sets only
    if(!list->is_array())
    {
        out.errors.emplace_back(path + ": \"derived\" must be a list; no derived metrics from it");
        return;
    }
    auto mine = ordered_definitions{};
    for(size_t i = 0; i < list->size(); ++i)
    {
        auto def = read_definition((*list)[i], i, path, out);
        if(!def) continue;
        auto name = def->name;
        if(mine.add_or_replace(std::move(*def)))
            out.errors.emplace_back(path + ": derived metric '" + name +
                                    "' is defined twice; the later definition is used");
    }
    for(auto& def : mine.take())
        out.definitions.emplace_back(std::move(def));
}

void
read_path(const std::string& path, loaded& out)
{
    auto ec = std::error_code{};
    if(!fs::exists(path, ec))
    {
        out.errors.emplace_back(path + " (ROCPROFILER_METRICS_PATH) does not exist; no derived "
                                       "metrics from it");
        return;
    }
    if(!fs::is_directory(path, ec))
    {
        read_file(path, out);
        return;
    }
    auto files = std::vector<std::string>{};
    for(auto itr = fs::directory_iterator{path, ec}; !ec && itr != fs::directory_iterator{};
        itr.increment(ec))
    {
        if(itr->path().extension() != ".json") continue;
        auto kind = untrusted::non_regular_kind(itr->path().string());
        if(kind == "a directory") continue; // a folder named like a file is not one
        // A FIFO or device named *.json is listed so that read_file() reports it instead of
        // blocking the program at its first counter query.
        files.emplace_back(itr->path().string());
    }
    if(ec)
    {
        out.errors.emplace_back(path +
                                " (ROCPROFILER_METRICS_PATH) cannot be listed: " + ec.message());
        return;
    }
    if(files.empty())
    {
        out.errors.emplace_back(path +
                                " (ROCPROFILER_METRICS_PATH) is a directory without *.json files");
        return;
    }
    std::sort(files.begin(), files.end());
    // A later file's definition replaces an earlier one of the same name, as within one file.
    auto merged = ordered_definitions{};
    for(const auto& file : files)
    {
        auto one = loaded{};
        read_file(file, one);
        for(auto& error : one.errors)
            out.errors.emplace_back(std::move(error));
        for(auto& def : one.definitions)
            merged.add_or_replace(std::move(def));
    }
    for(auto& def : merged.take())
        out.definitions.emplace_back(std::move(def));
}

void
read_equivalents_text(std::string_view text, const std::string& path, loaded& out)
{
    const auto none = std::string{"; AMD's counter names are not offered"};
    auto       doc  = json{};
    try
    {
        doc = json::parse(text);
    }
    catch(const json::exception& e)
    {
        out.errors.emplace_back(path + ": " + e.what() + none);
        return;
    }
    if(!doc.is_object())
    {
        out.errors.emplace_back(path + ": the file is not a JSON object" + none);
        return;
    }
    auto version = doc.find("version");
    if(version == doc.end() || !version->is_number_integer() ||
       version->get<int64_t>() != supported_version)
    {
        out.errors.emplace_back(path + ": \"version\" must be " +
                                std::to_string(supported_version) + none);
        return;
    }
    auto list = doc.find("equivalents");
    if(list == doc.end() || !list->is_array())
    {
        out.errors.emplace_back(path + ": \"equivalents\" must be a list" + none);
        return;
    }
    auto names = std::set<std::string>{};
    for(size_t i = 0; i < list->size(); ++i)
    {
        auto mine = std::vector<derived::definition>{};
        if(!read_equivalent((*list)[i], i, path, mine, out)) continue;
        const auto& name = (*list)[i].at("name").get<std::string>();
        if(!names.insert(name).second)
        {
            out.errors.emplace_back(path + ": AMD counter name '" + name +
                                    "' has two entries; the later one is skipped");
            continue;
        }
        for(auto& def : mine)
            out.definitions.emplace_back(std::move(def));
    }
}

void
read_equivalents_file(const std::string& path, loaded& out)
{
    auto contents = untrusted::read_bounded(path);
    if(!contents.ok)
    {
        out.errors.emplace_back(contents.error + "; AMD's counter names are not offered");
        return;
    }
    read_equivalents_text(contents.text, path, out);
}

std::string
equivalents_path_for(const std::string& shipped_metrics_path)
{
    return (fs::path{shipped_metrics_path}.parent_path() / "amd_equivalents.json").string();
}

std::vector<derived::definition>
combine(sources all)
{
    auto merged = merge(std::move(all.shipped), std::move(all.user));
    auto taken  = std::unordered_set<std::string>{};
    for(const auto& def : merged)
        taken.insert(def.name);
    for(auto& def : all.equivalents)
        if(taken.count(def.name) == 0) merged.emplace_back(std::move(def));
    return merged;
}

std::vector<derived::definition>
merge(std::vector<derived::definition> shipped, std::vector<derived::definition> user)
{
    auto all = ordered_definitions{};
    for(auto& def : shipped)
        all.add_or_replace(std::move(def));
    for(auto& def : user)
        all.add_or_replace(std::move(def));
    return all.take();
}

std::string
shipped_path_for(const std::string& object_path)
{
    auto dir        = fs::path{object_path}.parent_path();
    auto candidates = {fs::path{ROCPROFILER_METRICS_RELATIVE_PATH},
                       fs::path{"../share/rocprofiler-sdk/metrics.json"}};
    auto ec         = std::error_code{};
    for(const auto& relative : candidates)
    {
        auto candidate = (dir / relative).lexically_normal();
        if(fs::exists(candidate, ec)) return candidate.string();
    }
    return (dir / ROCPROFILER_METRICS_RELATIVE_PATH).lexically_normal().string();
}

std::string
library_object()
{
    auto info = Dl_info{};
    if(dladdr(reinterpret_cast<const void*>(&library_object), &info) == 0 ||
       info.dli_fname == nullptr)
        return {};
    auto object = std::string{info.dli_fname};
    // An executable's own symbols may come back as its bare name: make it a path.
    auto ec = std::error_code{};
    if(object.find('/') == std::string::npos)
        object = fs::read_symlink("/proc/self/exe", ec).string();
    return fs::weakly_canonical(object, ec).string();
}

std::string
shipped_path()
{
    auto object = library_object();
    return object.empty() ? std::string{} : shipped_path_for(object);
}

bool
is_shared_library(const std::string& object_path)
{
    auto name = fs::path{object_path}.filename().string();
    return name.find(".so") != std::string::npos;
}

sources
load_sources(const std::string& metrics_path)
{
    auto shipped = loaded{};
    auto object  = library_object();
    auto path    = object.empty() ? std::string{} : shipped_path_for(object);
    auto ec      = std::error_code{};
    if(!path.empty() && fs::exists(path, ec))
        read_file(path, shipped);
    else if(is_shared_library(object))
        ROCP_LOG(warning) << "derived metrics: the shipped file " << path
                          << " is missing; only ROCPROFILER_METRICS_PATH's metrics are offered";
    else
        ROCP_LOG(info) << "derived metrics: no shipped file beside " << object
                       << " (a statically linked program); only ROCPROFILER_METRICS_PATH's "
                          "metrics are offered";
    // The table of AMD's names: a problem is a warning (the SDK works without those names).
    auto equivalents = loaded{};
    if(!path.empty())
    {
        auto table = equivalents_path_for(path);
        if(fs::exists(table, ec))
            read_equivalents_file(table, equivalents);
        else if(is_shared_library(object))
            equivalents.errors.emplace_back("the shipped table " + table +
                                            " is missing; AMD's counter names are not offered");
    }
    auto user = loaded{};
    if(!metrics_path.empty()) read_path(metrics_path, user);
    for(const auto& error : shipped.errors)
        ROCP_LOG(error) << "derived metrics: " << error;
    for(const auto& error : equivalents.errors)
        ROCP_LOG(warning) << "AMD counter names: " << error;
    for(const auto& error : user.errors)
        ROCP_LOG(error) << "derived metrics: " << error;
    return sources{std::move(shipped.definitions),
                   std::move(equivalents.definitions),
                   std::move(user.definitions)};
}

std::vector<derived::definition>
load(const std::string& metrics_path)
{
    return combine(load_sources(metrics_path));
}
} // namespace rocprofiler::counters::metrics_file
