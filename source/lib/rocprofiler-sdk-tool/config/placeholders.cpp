#include "config/placeholders.hpp"

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <climits>

namespace rocprofiler::tool::placeholders
{
namespace
{
// Shorthands, as upstream: %p = %pid%, %j = %job%, %r = %rank%, %s = %size%; %h = %hostname%
// (upstream's own example, "-d %h.%p", uses it).
std::optional<std::string_view>
shorthand(char c)
{
    switch(c)
    {
    case 'p':
        return "pid";
    case 'h':
        return "hostname";
    case 'j':
        return "job";
    case 'r':
        return "rank";
    case 's':
        return "size";
    default:
        return std::nullopt;
    }
}

bool
is_key_char(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// %argN%: argument N of the command line (%arg0% the program).
bool
is_arg_key(std::string_view key)
{
    return key.size() > 3 && key.substr(0, 3) == "arg" &&
           std::all_of(key.begin() + 3, key.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The local time @p when in @p format (strftime); empty when it does not fit.
std::string
local_time(std::time_t when, const std::string& format)
{
    auto parts = std::tm{};
    if(localtime_r(&when, &parts) == nullptr) return {};
    char text[512] = {};
    if(std::strftime(text, sizeof(text) - 1, format.c_str(), &parts) == 0) return {};
    return text;
}

// How many children the parent process has (this one included), as upstream reads them.
std::string
sibling_count()
{
    const auto parent = std::to_string(getppid());
    auto       file   = std::ifstream{"/proc/" + parent + "/task/" + parent + "/children"};
    auto       count  = size_t{0};
    for(long pid = 0; file >> pid;)
        ++count;
    return std::to_string(count);
}

// "%env{NAME}%" and its spellings at @p pos: the name and the length of the whole placeholder.
std::optional<std::pair<std::string, size_t>>
env_placeholder(std::string_view text, size_t pos)
{
    for(auto [open, close] : {std::pair{"%env{", "}%"},
                              std::pair{"%ENV{", "}%"},
                              std::pair{"%q{", "}%"},
                              std::pair{"$env{", "}"},
                              std::pair{"$ENV{", "}"}})
    {
        auto start = std::string_view{open};
        if(text.substr(pos, start.size()) != start) continue;
        auto end = text.find(close, pos + start.size());
        if(end == std::string_view::npos) return std::nullopt;
        auto name = text.substr(pos + start.size(), end - pos - start.size());
        if(name.empty() || !std::all_of(name.begin(), name.end(), is_key_char)) return std::nullopt;
        return std::pair{std::string{name}, end + std::string_view{close}.size() - pos};
    }
    return std::nullopt;
}
} // namespace

const std::vector<std::string_view>&
known_keys()
{
    static const auto keys = std::vector<std::string_view>{"argv",
                                                           "argt",
                                                           "args",
                                                           "tag",
                                                           "hostname",
                                                           "pid",
                                                           "ppid",
                                                           "pgid",
                                                           "psid",
                                                           "job",
                                                           "rank",
                                                           "size",
                                                           "nid",
                                                           "psize",
                                                           "cwd",
                                                           "launch_date",
                                                           "launch_time"};
    return keys;
}

std::optional<std::string>
expand(std::string_view text, const lookup& values, std::string* error)
{
    auto out = std::string{};
    for(size_t i = 0; i < text.size();)
    {
        const auto c = text[i];
        if(c != '%' && c != '$')
        {
            out.push_back(c);
            ++i;
            continue;
        }
        if(auto env = env_placeholder(text, i))
        {
            out += values("env:" + env->first).value_or("");
            i += env->second;
            continue;
        }
        if(c == '%')
        {
            // %key%
            auto end = i + 1;
            while(end < text.size() && is_key_char(text[end]))
                ++end;
            if(end > i + 1 && end < text.size() && text[end] == '%')
            {
                auto key = text.substr(i + 1, end - i - 1);
                if(std::find(known_keys().begin(), known_keys().end(), key) == known_keys().end() &&
                   !is_arg_key(key))
                {
                    if(error != nullptr)
                    {
                        *error = "unknown placeholder '%" + std::string{key} + "%' (known:";
                        for(auto k : known_keys())
                            *error += " %" + std::string{k} + "%";
                        *error += " %argN% (%arg0%, %arg1%, ...), %env{NAME}%, and %p %h %j %r %s)";
                    }
                    return std::nullopt;
                }
                out += values(key).value_or("");
                i = end + 1;
                continue;
            }
            if(i + 1 < text.size())
                if(auto key = shorthand(text[i + 1]))
                {
                    out += values(*key).value_or("");
                    i += 2;
                    continue;
                }
        }
        out.push_back(c);
        ++i;
    }
    return out;
}

bool
has_placeholder(std::string_view text)
{
    auto probe = expand(
        text, [](std::string_view) { return std::string{"\x01"}; }, nullptr);
    return !probe || probe->find('\x01') != std::string::npos;
}

launch
launch_values(const std::function<const char*(const char*)>& getenv)
{
    auto env = [&getenv](const char* name) -> std::optional<std::string>
    {
        const auto* value = getenv(name);
        if(value == nullptr || *value == '\0') return std::nullopt;
        return std::string{value};
    };
    auto out = launch{};
    out.rank = env("SLURM_PROCID");
    for(const auto* name : {"OMPI_COMM_WORLD_RANK", "MV2_COMM_WORLD_RANK", "PMI_RANK", "MPI_RANK"})
        if(!out.rank) out.rank = env(name);
    out.size = env("SLURM_NTASKS");
    for(const auto* name : {"OMPI_COMM_WORLD_SIZE", "MV2_COMM_WORLD_SIZE", "PMI_SIZE", "MPI_SIZE"})
        if(!out.size) out.size = env(name);
    out.job = env("SLURM_JOB_ID");
    return out;
}

lookup
process_values(const std::function<const char*(const char*)>& getenv,
               const std::vector<std::string>&                command)
{
    auto env = [getenv](const char* name) -> std::optional<std::string>
    {
        const auto* value = getenv(name);
        if(value == nullptr || *value == '\0') return std::nullopt;
        return std::string{value};
    };
    const auto where = launch_values(getenv);
    const auto rank  = where.rank;
    const auto size  = where.size;

    // The command line as upstream condenses it: '/' becomes '_', leading '.' and '_' dropped.
    auto words = std::vector<std::string>{};
    for(auto word : command)
    {
        std::replace(word.begin(), word.end(), '/', '_');
        word.erase(0, word.find_first_not_of("._"));
        words.emplace_back(std::move(word));
    }
    auto tag = std::string{};
    if(!command.empty())
    {
        tag = command.front();
        if(auto slash = tag.rfind('/'); slash != std::string::npos) tag.erase(0, slash + 1);
    }
    auto join = [&words](size_t from)
    {
        auto out = std::string{};
        for(size_t i = from; i < words.size(); ++i)
            out += (out.empty() ? "" : "_") + words[i];
        return out;
    };
    const auto argv = join(0);
    const auto args = join(1);
    const auto argt = args.empty() ? tag : tag + "_" + args;

    // %launch_date% and %launch_time%: when the tool started in this process, in the formats of
    // ROCPROF_DATE_FORMAT and ROCPROF_TIME_FORMAT (strftime; upstream's defaults).
    const auto now         = std::time(nullptr);
    const auto date_format = env("ROCPROF_DATE_FORMAT").value_or("%F");
    const auto time_format = env("ROCPROF_TIME_FORMAT").value_or("%F_%H.%M");
    const auto launch_date = local_time(now, date_format);
    const auto launch_time = local_time(now, time_format);
    auto       cwd         = std::error_code{};
    const auto here        = std::filesystem::current_path(cwd).string();

    char host[HOST_NAME_MAX + 1] = {};
    // A host without a name still gets a directory name (the default prefix is %hostname%/%pid%).
    if(gethostname(host, sizeof(host) - 1) != 0 || host[0] == '\0')
        std::snprintf(host, sizeof(host), "%s", "localhost");
    const auto pid = std::to_string(getpid());

    // Everything by value: the lookup outlives this call.
    return [env,
            rank,
            size,
            job = where.job,
            tag,
            argv,
            args,
            argt,
            words,
            launch_date,
            launch_time,
            here,
            host = std::string{host},
            pid](std::string_view key) -> std::optional<std::string>
    {
        if(is_arg_key(key))
        {
            const auto n = std::string{key.substr(3)};
            return n.size() < 10 && std::stoul(n) < words.size() ? words[std::stoul(n)]
                                                                 : std::string{};
        }
        if(key == "psize") return sibling_count();
        if(key == "cwd") return here;
        if(key == "launch_date") return launch_date;
        if(key == "launch_time") return launch_time;
        if(key.substr(0, 4) == "env:") return env(std::string{key.substr(4)}.c_str()).value_or("");
        if(key == "pid") return pid;
        if(key == "ppid") return std::to_string(getppid());
        if(key == "pgid") return std::to_string(getpgid(0));
        if(key == "psid") return std::to_string(getsid(0));
        if(key == "hostname") return host;
        if(key == "rank") return rank.value_or("0");
        if(key == "size") return size.value_or("1");
        if(key == "nid") return rank.value_or(pid);
        if(key == "job") return job.value_or("0");
        if(key == "tag") return tag;
        if(key == "argv") return argv;
        if(key == "args") return args;
        if(key == "argt") return argt;
        return std::nullopt;
    };
}
} // namespace rocprofiler::tool::placeholders
