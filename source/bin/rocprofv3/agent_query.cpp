#include "agent_query.hpp"

#include "contract/environment.hpp"
#include "untrusted/printable.hpp"

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

namespace fs       = std::filesystem;
namespace contract = rocprofiler::tool::contract;
namespace planner  = rocprofiler::tool::planner;

namespace rocprofv3
{
namespace
{
// Names and descriptions come from the SDK and from metrics files: shown with control characters
// escaped, one line each.
std::string
shown(const std::string& s)
{
    return rocprofiler::untrusted::printable(s);
}

// After an agent's counters: the metric sets defined for it, each with its description and
// metrics, or what the agent lacks for it.
void
list_sets(const nlohmann::json& agent, const rocprofiler::tool::metric_sets::catalog& sets)
{
    namespace metric_sets = rocprofiler::tool::metric_sets;
    auto counters         = std::set<std::string>{};
    for(const auto& c : agent.at("counters"))
        counters.insert(c.value("name", ""));
    auto has  = [&counters](const std::string& name) { return counters.count(name) != 0; };
    auto join = [](const std::vector<std::string>& items, const char* separator)
    {
        auto out = std::string{};
        for(const auto& item : items)
            out += (out.empty() ? "" : separator) + item;
        return out;
    };
    auto any = false;
    for(const auto& name : metric_sets::names(sets))
    {
        const auto* set = metric_sets::find(sets, name, agent.value("name", ""));
        if(set == nullptr) continue;
        if(!any) std::cout << "  metric sets (--pmc <set>):\n";
        any = true;
        if(has(name))
        {
            std::cout << "  " << shown(name)
                      << "\tnot used on this agent: a counter has its name\n";
            continue;
        }
        if(auto lacks = metric_sets::missing(*set, has); !lacks.empty())
        {
            std::cout << "  " << shown(name) << "\tnot available on this agent: it lacks "
                      << shown(join(lacks, ", ")) << "\n";
            continue;
        }
        std::cout << "  " << shown(name) << "\t" << shown(set->description) << "\n"
                  << "    " << shown(join(set->metrics, " ")) << "\n";
    }
}
} // namespace

std::optional<libraries>
find_libraries(std::string& error, const library_resolution& how)
{
    auto exe     = std::error_code{};
    auto self    = fs::read_symlink("/proc/self/exe", exe);
    auto lib_dir = exe ? fs::path{} : self.parent_path().parent_path() / "lib";
    auto pick    = [&](const char* variable, const char* file) -> std::string
    {
        if(const auto* value = std::getenv(variable); value != nullptr && *value != '\0')
            return value;
        return (lib_dir / file).string();
    };
    auto libs = libraries{pick("ROCPROF_TOOL_LIBRARY", "librocprofiler-sdk-tool.so"),
                          pick("ROCPROF_SDK_LIBRARY", "librocprofiler-sdk.so")};
    for(auto [path, variable] : {std::pair{&libs.tool, "ROCPROF_TOOL_LIBRARY"},
                                 std::pair{&libs.sdk, "ROCPROF_SDK_LIBRARY"}})
    {
        auto tried = "'" + *path + "'";
        for(const auto* suffix : {&how.soversion, &how.version})
        {
            if(fs::exists(*path) || suffix->empty()) continue;
            auto versioned = *path + "." + *suffix;
            tried += ", '" + versioned + "'";
            if(fs::exists(versioned)) *path = versioned;
        }
        if(!fs::exists(*path))
        {
            error = "library " + tried + " not found (set " + variable + " to override)";
            return std::nullopt;
        }
        auto ec = std::error_code{};
        if(how.readlink && fs::is_symlink(*path, ec))
        {
            auto target = fs::read_symlink(*path, ec);
            if(!ec)
                *path = (target.is_absolute() ? target : fs::path{*path}.parent_path() / target)
                            .string();
        }
        if(how.realpath)
            if(auto real = fs::canonical(*path, ec); !ec) *path = real.string();
        *path = fs::absolute(*path).string();
    }
    return libs;
}

std::optional<nlohmann::json>
query_agents(const libraries&                             libs,
             const std::vector<std::vector<std::string>>& groups,
             std::string&                                 error)
{
    int fds[2];
    if(pipe(fds) != 0)
    {
        error = std::string{"pipe: "} + std::strerror(errno);
        return std::nullopt;
    }
    auto pid = fork();
    if(pid < 0)
    {
        error = std::string{"fork: "} + std::strerror(errno);
        return std::nullopt;
    }
    if(pid == 0)
    {
        close(fds[0]);
        // The SDK may initialize itself while enumerating agents: in helper mode the tool declines.
        // The helper checks that each group fits in one pass of each agent.
        for(const auto& [name, value] : contract::encode(contract::helper_request{true, groups}))
            setenv(name.c_str(), value.c_str(), 1);
        // CUDA devices are listed even though rocprofv3 itself never loaded the driver.
        setenv(contract::cuda_agents, "1", 0);
        auto* handle = dlopen(libs.tool.c_str(), RTLD_NOW | RTLD_LOCAL);
        if(handle == nullptr)
        {
            std::fprintf(
                stderr, "rocprofv3: error: cannot load '%s': %s\n", libs.tool.c_str(), dlerror());
            _exit(3);
        }
        using query_fn = int (*)(int);
        auto fn        = reinterpret_cast<query_fn>(dlsym(handle, "rocprofv3_tool_query_agents"));
        if(fn == nullptr)
        {
            std::fprintf(stderr,
                         "rocprofv3: error: '%s' has no rocprofv3_tool_query_agents\n",
                         libs.tool.c_str());
            _exit(3);
        }
        auto rc = fn(fds[1]);
        close(fds[1]);
        _exit(rc == 0 ? 0 : 4);
    }
    close(fds[1]);
    auto text = std::string{};
    char buf[4096];
    for(;;)
    {
        auto n = read(fds[0], buf, sizeof(buf));
        if(n < 0 && errno == EINTR) continue;
        if(n <= 0) break;
        text.append(buf, static_cast<size_t>(n));
    }
    close(fds[0]);
    int status = 0;
    while(waitpid(pid, &status, 0) < 0 && errno == EINTR)
    {
    }
    if(text.empty())
    {
        error = "the agent query of the tool library failed";
        return std::nullopt;
    }
    try
    {
        return nlohmann::json::parse(text);
    }
    catch(const std::exception& e)
    {
        error = std::string{"the agent query returned invalid JSON: "} + e.what();
        return std::nullopt;
    }
}

namespace amd_names = rocprofiler::tool::amd_names;

namespace
{
// The AMD names among @p agent's counters (the helper's JSON) that are the SDK's equivalents, as
// their description says: a user's metric of the same name replaces the equivalent, and is
// neither annotated nor warned about.
std::set<std::string>
offered_equivalents(const nlohmann::json& agent)
{
    auto out = std::set<std::string>{};
    for(const auto& c : agent.at("counters"))
    {
        auto name = c.value("name", "");
        if(c.value("description", "").rfind("equivalent of AMD's " + name + ": ", 0) == 0)
            out.insert(name);
    }
    return out;
}
} // namespace

amd_names::table
amd_names_table()
{
    namespace metric_sets = rocprofiler::tool::metric_sets;
    auto error            = std::string{};
    auto file             = amd_names::shipped_file(metric_sets::executable_path());
    return amd_names::read_file(file, error).value_or(amd_names::table{});
}

std::vector<std::string>
amd_name_warnings(const std::vector<std::vector<std::string>>& groups,
                  const nlohmann::json&                        query,
                  const amd_names::table&                      names)
{
    auto out  = std::vector<std::string>{};
    auto seen = std::set<std::string>{};
    for(const auto& group : groups)
        for(const auto& name : group)
        {
            const auto* e = amd_names::find(names, name);
            if(e == nullptr || !seen.insert(name).second) continue;
            for(const auto& a : query.at("agents"))
            {
                auto agent_name = a.value("name", "");
                auto def        = e->mapped.find(agent_name);
                if(a.value("type", "") != "GPU" || a.contains("counters_error") ||
                   def == e->mapped.end() || offered_equivalents(a).count(name) == 0)
                    continue;
                auto line = "counter '" + name + "' is AMD's counter name: on agent " +
                            std::to_string(a.value("logical_node_id", 0)) + " (" +
                            a.value("product_name", "") + ", " + agent_name +
                            ") it is measured as " + def->second.expression + " (" +
                            def->second.unit + "), an equivalent, not AMD's counter itself";
                if(!def->second.notes.empty()) line += "; " + def->second.notes;
                out.emplace_back(shown(line));
            }
        }
    return out;
}

std::vector<planner::agent_description>
gpu_agents(const nlohmann::json& query, const amd_names::table& names)
{
    auto out = std::vector<planner::agent_description>{};
    for(const auto& a : query.at("agents"))
    {
        if(a.value("type", "") != "GPU") continue;
        auto entry         = planner::agent_description{};
        entry.name         = a.value("name", "");
        entry.logical_id   = std::to_string(a.value("logical_node_id", 0));
        entry.product_name = a.value("product_name", "");
        if(a.contains("counters_error")) entry.error = a.at("counters_error").get<std::string>();
        for(const auto& c : a.at("counters"))
            entry.counters.emplace_back(c.value("name", ""));
        if(a.contains("counters_per_pass"))
            entry.counters_per_pass = a.at("counters_per_pass").get<size_t>();
        if(a.contains("groups_exceeding"))
            for(const auto& g : a.at("groups_exceeding"))
                entry.groups_exceeding.push_back(g.get<size_t>());
        if(a.contains("group_splits"))
            for(const auto& split : a.at("group_splits"))
                entry.group_splits[split.at("group").get<size_t>()] =
                    split.at("passes").get<std::vector<std::vector<std::string>>>();
        if(a.contains("counters_exceeding_alone"))
            entry.exceeding_alone =
                a.at("counters_exceeding_alone").get<std::vector<std::string>>();
        if(a.contains("counters_multi_pass"))
            for(const auto& c : a.at("counters_multi_pass"))
                entry.multi_pass.emplace_back(c.at("name").get<std::string>(),
                                              c.at("passes").get<uint64_t>());
        if(!entry.error)
            entry.amd_absent = amd_names::describe(names, entry.name, entry.counters).absent;
        out.emplace_back(std::move(entry));
    }
    return out;
}

int
list_available(const nlohmann::json&                          query,
               const rocprofiler::tool::metric_sets::catalog& sets,
               const amd_names::table&                        names)
{
    for(const auto& a : query.at("agents"))
    {
        std::cout << "Agent " << a.value("logical_node_id", 0) << ": " << a.value("type", "") << " "
                  << shown(a.value("name", "")) << " (" << shown(a.value("product_name", ""))
                  << ")\n";
        if(a.value("type", "") != "GPU") continue;
        if(a.contains("pc_sampling_error"))
            std::cout << "  PC sampling: cannot be asked ("
                      << a.at("pc_sampling_error").get<std::string>() << ")\n";
        for(const auto& c : a.value("pc_sampling", nlohmann::json::array()))
            std::cout << "  PC sampling: " << describe_pc_sampling_offer(c) << "\n";
        if(a.contains("counters_error"))
        {
            std::cout << "  no counters available on this agent ("
                      << shown(a.at("counters_error").get<std::string>()) << ")\n";
            continue;
        }
        if(a.at("counters").empty())
        {
            std::cout << "  no counters available on this agent\n";
            continue;
        }
        if(a.contains("counters_per_pass"))
            std::cout << "  at most " << a.at("counters_per_pass").get<size_t>()
                      << " counters per pass (per --pmc group)\n";
        auto counters = std::vector<std::string>{};
        for(const auto& c : a.at("counters"))
            counters.emplace_back(c.value("name", ""));
        const auto agent_name = a.value("name", "");
        const auto amd        = amd_names::describe(names, agent_name, counters);
        // Native counter -> the AMD names it is the equivalent of.
        const auto offered       = offered_equivalents(a);
        auto       equivalent_of = std::map<std::string, std::vector<std::string>>{};
        for(const auto& [amd_name, natives] : amd.equivalent_of)
            if(offered.count(amd_name) != 0)
                for(const auto& native : natives)
                    equivalent_of[native].emplace_back(amd_name);
        for(const auto& c : a.at("counters"))
        {
            auto name = c.value("name", "");
            auto line = c.value("description", "");
            if(auto itr = equivalent_of.find(name); itr != equivalent_of.end())
            {
                line += "; equivalent of AMD's ";
                for(size_t i = 0; i < itr->second.size(); ++i)
                    line += (i == 0 ? "" : ", ") + itr->second[i];
            }
            std::cout << "  " << shown(name) << "\t" << shown(line) << "\n";
            // AMD's name offered here: what it is measured as, and what differs.
            const auto* e = amd_names::find(names, name);
            if(e == nullptr || offered.count(name) == 0) continue;
            if(auto def = e->mapped.find(agent_name); def != e->mapped.end())
                std::cout << "    measured as " << shown(def->second.expression)
                          << ", an equivalent, not AMD's counter itself"
                          << (def->second.notes.empty() ? "" : ": ") << shown(def->second.notes)
                          << "\n";
        }
        list_sets(a, sets);
        if(names.empty()) continue;
        if(!amd.named)
        {
            std::cout << "  AMD counter names: none on this agent (the table of equivalents has "
                         "no entry for agent '"
                      << shown(agent_name) << "')\n";
            continue;
        }
        if(amd.absent.empty()) continue;
        std::cout << "  AMD counter names without an equivalent on this agent:\n";
        for(const auto& [amd_name, reason] : amd.absent)
            std::cout << "  " << shown(amd_name) << "\tno equivalent: " << shown(reason) << "\n";
    }
    return exit_ok;
}
} // namespace rocprofv3
