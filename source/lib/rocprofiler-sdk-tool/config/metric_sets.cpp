#include "config/metric_sets.hpp"
#include "untrusted/input_file.hpp"

#include <nlohmann/json.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>

namespace rocprofiler::tool::metric_sets
{
namespace
{
using json = nlohmann::json;

const char*
type_name(const json& value)
{
    return value.type_name();
}

// A set entry's fields: every one checked for its type, unknown ones rejected (a misspelt
// "metric" would otherwise give a set without metrics).
bool
parse_set(
    const json& entry, size_t index, const std::string& file, definition& out, std::string& error)
{
    const auto where = file + ": sets[" + std::to_string(index) + "]";
    if(!entry.is_object())
    {
        error = where + " is a " + type_name(entry) + ", not an object";
        return false;
    }
    for(const auto& [key, value] : entry.items())
        if(key != "name" && key != "description" && key != "agents" && key != "metrics")
        {
            error = where + " has an unknown field '" + key +
                    "' (known: name, description, agents, metrics)";
            return false;
        }
    auto strings = [&](const char* key, std::vector<std::string>& into) -> bool
    {
        const auto& value = entry.at(key);
        if(!value.is_array())
        {
            error = where + "." + key + " is a " + type_name(value) + ", not an array of strings";
            return false;
        }
        for(size_t i = 0; i < value.size(); ++i)
        {
            if(!value[i].is_string() || value[i].get<std::string>().empty())
            {
                error = where + "." + key + "[" + std::to_string(i) + "] is " +
                        (value[i].is_string() ? "an empty string"
                                              : std::string{"a "} + type_name(value[i])) +
                        ", not a name";
                return false;
            }
            auto name = value[i].get<std::string>();
            if(std::find(into.begin(), into.end(), name) == into.end())
                into.emplace_back(std::move(name));
        }
        return true;
    };

    if(!entry.contains("name") || !entry.at("name").is_string() ||
       entry.at("name").get<std::string>().empty())
    {
        error = where + " has no name (a non-empty string)";
        return false;
    }
    out.name         = entry.at("name").get<std::string>();
    const auto named = file + ": set '" + out.name + "'";
    if(entry.contains("description"))
    {
        if(!entry.at("description").is_string())
        {
            error = named + ": description is a " + type_name(entry.at("description")) +
                    ", not a string";
            return false;
        }
        out.description = entry.at("description").get<std::string>();
    }
    if(entry.contains("agents"))
    {
        out.agents.emplace();
        if(!strings("agents", *out.agents)) return false;
        if(out.agents->empty())
        {
            error = named + ": agents is empty (leave it out for every agent)";
            return false;
        }
    }
    if(!entry.contains("metrics"))
    {
        error = named + " has no metrics";
        return false;
    }
    if(!strings("metrics", out.metrics)) return false;
    if(out.metrics.empty())
    {
        error = named + " has no metrics";
        return false;
    }
    out.file = file;
    return true;
}
} // namespace

bool
parse(std::string_view text, const std::string& file, catalog& out, std::string& error)
{
    auto doc = json{};
    try
    {
        doc = json::parse(text.begin(), text.end());
    }
    catch(const json::exception& e) // parse_error, and out_of_range for a number too large
    {
        error = file + ": not valid JSON (" + e.what() + ")";
        return false;
    }
    if(!doc.is_object())
    {
        error = file + ": the document is a " + std::string{type_name(doc)} + ", not an object";
        return false;
    }
    if(doc.contains("version") &&
       (!doc.at("version").is_number_integer() || doc.at("version").get<int64_t>() != 1))
    {
        error = file + ": version " + doc.at("version").dump() + " is not supported (1 is)";
        return false;
    }
    auto read = catalog{};
    if(doc.contains("sets"))
    {
        const auto& sets = doc.at("sets");
        if(!sets.is_array())
        {
            error = file + ": sets is a " + std::string{type_name(sets)} + ", not an array";
            return false;
        }
        for(size_t i = 0; i < sets.size(); ++i)
        {
            auto entry = definition{};
            if(!parse_set(sets[i], i, file, entry, error)) return false;
            read.emplace_back(std::move(entry));
        }
    }
    out.insert(out.end(), read.begin(), read.end());
    return true;
}

bool
read_file(const std::filesystem::path& file, catalog& out, std::string& error)
{
    // The bounded reader the SDK reads the same files with: a regular file of at most 256 MiB,
    // never a read that blocks (a FIFO) or never ends (/dev/zero).
    auto contents = untrusted::read_bounded(file.string());
    if(!contents.ok)
    {
        error = contents.error;
        return false;
    }
    return parse(contents.text, file.string(), out, error);
}

std::filesystem::path
shipped_file(const std::filesystem::path& module_path)
{
    return module_path.parent_path().parent_path() / "share" / "rocprofiler-sdk" / "metrics.json";
}

namespace
{
// An object of whichever module links this file in, for dladdr.
const char module_anchor = 0;
} // namespace

std::filesystem::path
library_path()
{
    auto info = Dl_info{};
    if(dladdr(&module_anchor, &info) == 0 || info.dli_fname == nullptr) return {};
    auto ec   = std::error_code{};
    auto path = std::filesystem::canonical(info.dli_fname, ec);
    return ec ? std::filesystem::path{} : path;
}

std::filesystem::path
executable_path()
{
    auto ec   = std::error_code{};
    auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path{} : path;
}

std::optional<catalog>
load(const std::filesystem::path& shipped, const char* metrics_path, std::string& error)
{
    namespace fs = std::filesystem;
    auto out     = catalog{};
    auto ec      = std::error_code{};
    if(!shipped.empty() && fs::exists(shipped, ec) && !read_file(shipped, out, error))
        return std::nullopt;
    if(metrics_path == nullptr || *metrics_path == '\0') return out;

    const auto path  = fs::path{metrics_path};
    auto       files = std::vector<fs::path>{};
    if(fs::is_directory(path, ec))
    {
        for(auto it = fs::directory_iterator{path, ec}; !ec && it != fs::directory_iterator{};
            it.increment(ec))
            if(it->path().extension() == ".json") files.push_back(it->path());
        if(ec)
        {
            error =
                path.string() + " (" + path_variable + "): cannot be listed (" + ec.message() + ")";
            return std::nullopt;
        }
        std::sort(files.begin(), files.end());
    }
    else if(fs::exists(path, ec))
        files.push_back(path);
    else
    {
        error = path.string() + " (" + path_variable + "): no such file or directory";
        return std::nullopt;
    }
    for(const auto& file : files)
        if(!read_file(file, out, error)) return std::nullopt;
    return out;
}

const definition*
find(const catalog& sets, std::string_view name, std::string_view agent)
{
    for(auto it = sets.rbegin(); it != sets.rend(); ++it)
    {
        if(it->name != name) continue;
        if(!it->agents ||
           std::find(it->agents->begin(), it->agents->end(), agent) != it->agents->end())
            return &*it;
    }
    return nullptr;
}

std::vector<std::string>
names(const catalog& sets)
{
    auto out = std::set<std::string>{};
    for(const auto& s : sets)
        out.insert(s.name);
    return {out.begin(), out.end()};
}

std::vector<std::string>
missing(const definition& set, const std::function<bool(const std::string&)>& has_counter)
{
    auto out = std::vector<std::string>{};
    for(const auto& m : set.metrics)
        if(!has_counter(m)) out.push_back(m);
    return out;
}

std::vector<std::string>
expand(const std::vector<std::string>&                group,
       const catalog&                                 sets,
       std::string_view                               agent,
       const std::function<bool(const std::string&)>& has_counter)
{
    auto out = std::vector<std::string>{};
    auto add = [&out](const std::string& name)
    {
        if(std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    };
    for(const auto& name : group)
    {
        const auto* set = has_counter(name) ? nullptr : find(sets, name, agent);
        if(set == nullptr || !missing(*set, has_counter).empty())
        {
            add(name);
            continue;
        }
        for(const auto& m : set->metrics)
            add(m);
    }
    return out;
}
} // namespace rocprofiler::tool::metric_sets
