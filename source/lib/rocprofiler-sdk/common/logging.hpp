// One logging facility for the whole library. The level comes from ROCPROFILER_LOG_LEVEL
// (error, warning, info, debug, trace; default warning). Lines go to stderr, whole, so that lines
// from concurrent threads never interleave.
#pragma once

#include <sstream>
#include <string>
#include <string_view>

namespace rocprofiler::common::log
{
enum class level : int
{
    error   = 0,
    warning = 1,
    info    = 2,
    debug   = 3,
    trace   = 4,
};

// Thread-safe; reads the environment once.
level current_level();

inline bool
enabled(level lvl)
{
    return static_cast<int>(lvl) <= static_cast<int>(current_level());
}

// Writes one complete line to stderr with a "[rocprofiler-sdk][<level>]" prefix.
void write(level lvl, std::string_view message);

// Writes @p message at warning level the first time @p key is seen in this process, and at debug
// level afterwards. For diagnostics that would otherwise repeat on every dispatch.
void warn_once(std::string_view key, std::string_view message);

// Re-reads ROCPROFILER_LOG_LEVEL (tests change it).
void reset_level_from_environment();

// Collects one line and writes it when destroyed.
class line
{
public:
    explicit line(level lvl)
        : m_level{lvl}
    {
    }
    ~line() { write(m_level, m_stream.str()); }

    line(const line&)            = delete;
    line& operator=(const line&) = delete;

    std::ostream& stream() { return m_stream; }

private:
    level              m_level;
    std::ostringstream m_stream;
};
} // namespace rocprofiler::common::log

// ROCP_LOG(warning) << "text " << value;  The operands are not evaluated when the level is off.
// A single statement (a for loop that runs at most once), so it is safe after an unbraced if.
#define ROCP_LOG(LEVEL)                                                                            \
    for(bool rocp_log_once_ =                                                                      \
            ::rocprofiler::common::log::enabled(::rocprofiler::common::log::level::LEVEL);         \
        rocp_log_once_;                                                                            \
        rocp_log_once_ = false)                                                                    \
    ::rocprofiler::common::log::line{::rocprofiler::common::log::level::LEVEL}.stream()
