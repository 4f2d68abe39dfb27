// How `rocpd` ends: one exit code per kind of failure (docs/rocpd.md, "Exit codes"), carried by
// one exception type from wherever the failure is found to main(), which prints its message.
#pragma once

#include <stdexcept>
#include <string>

namespace rocpd
{
enum class exit_code : int
{
    ok           = 0,
    usage        = 1, // a bad command line: unknown option, format, domain; a missing value
    bad_input    = 2, // missing, not SQLite, not rocpd, unread schema version, truncated, damaged
    other_job    = 3, // databases of different jobs (or the same database twice) without --force
    locked       = 4, // a database stayed locked for the whole busy timeout
    query_failed = 5, // SQLite rejected the query of `rocpd query`
    output       = 6, // an output file could not be written
    internal     = 7, // anything else (a bug: please report it with the command line)
};

class failure : public std::runtime_error
{
public:
    failure(exit_code code, const std::string& message)
        : std::runtime_error{message}
        , m_code{code}
    {
    }
    exit_code code() const { return m_code; }

private:
    exit_code m_code;
};
} // namespace rocpd
