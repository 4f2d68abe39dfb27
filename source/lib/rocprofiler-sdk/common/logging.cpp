#include "common/logging.hpp"

#include "common/environment.hpp"
#include "common/static_object.hpp"

#include "untrusted/printable.hpp"

#include <atomic>
#include <cstdio>
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

// The registry's level names number the levels as `level` does.
static_assert(env::names::log_level[0].value == static_cast<int>(level::error));
static_assert(env::names::log_level[1].value == static_cast<int>(level::warning));
static_assert(env::names::log_level[2].value == static_cast<int>(level::info));
static_assert(env::names::log_level[3].value == static_cast<int>(level::debug));
static_assert(env::names::log_level[4].value == static_cast<int>(level::trace));

// ROCPROFILER_LOG_LEVEL. Its own bad value cannot be reported through the log: it goes straight to
// stderr, on every read.
int
level_from_environment()
{
    const auto& def    = env::settings::log_level.def;
    auto        result = env::check(def, def.name, env::process_environment()(def.name.data()));
    if(result.status == env::state::invalid)
        std::fprintf(stderr, "[rocprofiler-sdk][warning] %s\n", result.message.c_str());
    return static_cast<int>(result.number);
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
        value = level_from_environment();
        level_storage().store(value, std::memory_order_relaxed);
    }
    return static_cast<level>(value);
}

void
reset_level_from_environment()
{
    level_storage().store(level_from_environment());
}

void
write(level lvl, std::string_view message)
{
    auto text = std::string{"[rocprofiler-sdk]["};
    text += level_name(lvl);
    text += "] ";
    // Messages quote kernel names and other text the application chose: escaped, so that no name
    // forges a line or controls the terminal (untrusted/printable.hpp).
    text += untrusted::printable(message);
    if(text.empty() || text.back() != '\n') text += '\n';
    std::fwrite(text.data(), 1, text.size(), stderr);
}

namespace
{
// The keys warn_once has seen. A test reset forgets them, so that each test of one executable sees
// the first warning of a reason as a fresh process would.
struct warned_keys
{
    std::mutex            mutex = {};
    std::set<std::string> keys  = {};
};
} // namespace

void
warn_once(std::string_view key, std::string_view message)
{
    auto& seen  = common::static_object<warned_keys, common::reset_order::diagnostics>::get();
    bool  first = false;
    {
        auto lock = std::lock_guard{seen.mutex};
        first     = seen.keys.emplace(key).second;
    }
    if(first && enabled(level::warning))
        write(level::warning, message);
    else if(!first && enabled(level::debug))
        write(level::debug, message);
}
} // namespace rocprofiler::common::log
