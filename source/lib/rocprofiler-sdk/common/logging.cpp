#include "common/logging.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>

namespace rocprofiler::common::log
{
namespace
{
std::atomic<int>&
level_storage()
{
    static std::atomic<int> value{-1};
    return value;
}

int
parse_level(const char* text)
{
    if(text == nullptr || *text == '\0') return static_cast<int>(level::warning);
    auto value = std::string{text};
    for(auto& c : value)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if(value == "error" || value == "0") return static_cast<int>(level::error);
    if(value == "warning" || value == "warn" || value == "1")
        return static_cast<int>(level::warning);
    if(value == "info" || value == "2") return static_cast<int>(level::info);
    if(value == "debug" || value == "3") return static_cast<int>(level::debug);
    if(value == "trace" || value == "4") return static_cast<int>(level::trace);
    std::fprintf(stderr,
                 "[rocprofiler-sdk][warning] ROCPROFILER_LOG_LEVEL=%s is not one of error, "
                 "warning, info, debug, trace; using warning\n",
                 text);
    return static_cast<int>(level::warning);
}

const char*
level_name(level lvl)
{
    switch(lvl)
    {
    case level::error:
        return "error";
    case level::warning:
        return "warning";
    case level::info:
        return "info";
    case level::debug:
        return "debug";
    case level::trace:
        return "trace";
    }
    return "?";
}
} // namespace

level
current_level()
{
    auto value = level_storage().load(std::memory_order_relaxed);
    if(value < 0)
    {
        value = parse_level(std::getenv("ROCPROFILER_LOG_LEVEL"));
        level_storage().store(value, std::memory_order_relaxed);
    }
    return static_cast<level>(value);
}

void
reset_level_from_environment()
{
    level_storage().store(parse_level(std::getenv("ROCPROFILER_LOG_LEVEL")));
}

void
write(level lvl, std::string_view message)
{
    auto text = std::string{"[rocprofiler-sdk]["};
    text += level_name(lvl);
    text += "] ";
    text += message;
    if(text.empty() || text.back() != '\n') text += '\n';
    std::fwrite(text.data(), 1, text.size(), stderr);
}

void
warn_once(std::string_view key, std::string_view message)
{
    static std::mutex             mutex;
    static std::set<std::string>* seen =
        new std::set<std::string>{}; // never destroyed: used at exit
    bool first = false;
    {
        auto lock = std::lock_guard{mutex};
        first     = seen->emplace(key).second;
    }
    if(first && enabled(level::warning))
        write(level::warning, message);
    else if(!first && enabled(level::debug))
        write(level::debug, message);
}
} // namespace rocprofiler::common::log
