#include "counters/metrics_file.hpp"

#include "common/logging.hpp"

#include "untrusted/input_file.hpp"

#include <nlohmann/json.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <system_error>
#include <unordered_map>

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

std::vector<derived::definition>
load(const std::string& metrics_path)
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
    auto user = loaded{};
    if(!metrics_path.empty()) read_path(metrics_path, user);
    for(const auto& error : shipped.errors)
        ROCP_LOG(error) << "derived metrics: " << error;
    for(const auto& error : user.errors)
        ROCP_LOG(error) << "derived metrics: " << error;
    return merge(std::move(shipped.definitions), std::move(user.definitions));
}
} // namespace rocprofiler::counters::metrics_file
