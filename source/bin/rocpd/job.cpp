#include "job.hpp"
#include "errors.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>

namespace rocpd
{
namespace
{
// What says which job a database belongs to, and how to name it in a message.
std::string
job_key(const input_database& db)
{
    if(db.has_tag("job_id")) return "job id " + db.tag("job_id");
    if(db.has_tag("profiler_run"))
        return "command '" + db.tag("command") + "', rocprofv3 run " + db.tag("profiler_run");
    if(db.has_tag("command")) return "command '" + db.tag("command") + "'";
    return "no recorded job";
}
} // namespace

job::job(const arguments& args)
{
    m_databases.reserve(args.inputs.size());
    for(const auto& path : args.inputs)
        m_databases.emplace_back(path, args.busy_timeout_ms);
    if(args.force) return;

    auto guids = std::map<std::string, std::string>{};
    for(const auto& db : m_databases)
    {
        const auto guid = db.tag("guid");
        if(guid.empty()) continue;
        auto [it, added] = guids.emplace(guid, db.path());
        if(!added)
            throw failure{exit_code::other_job,
                          db.path() + " and " + it->second + " are the same database (guid " +
                              guid + "); --force reads it twice"};
    }
    const auto& first = m_databases.front();
    for(const auto& db : m_databases)
    {
        const bool both_ids = first.has_tag("job_id") && db.has_tag("job_id");
        const bool same_run = first.has_tag("profiler_run") && db.has_tag("profiler_run") &&
                              first.tag("profiler_run") == db.tag("profiler_run");
        const bool same_command = first.has_tag("command") && db.has_tag("command") &&
                                  first.tag("command") == db.tag("command");
        const bool same =
            both_ids ? first.tag("job_id") == db.tag("job_id") : (same_run || same_command);
        if(!same && &db != &first)
            throw failure{exit_code::other_job,
                          "databases of different jobs: " + first.path() + " (" + job_key(first) +
                              ") and " + db.path() + " (" + job_key(db) +
                              "); --force reads them together"};
    }
}

std::string
window_filter(const std::optional<time_window>& window, const std::string& prefix)
{
    if(!window) return {};
    return " AND " + prefix + "start <= " + std::to_string(window->end) + " AND " + prefix +
           "\"end\" >= " + std::to_string(window->start);
}

std::optional<time_window>
job::window(const arguments& args) const
{
    if(args.window_start.empty() && args.window_end.empty()) return std::nullopt;
    auto first = std::optional<uint64_t>{};
    auto last  = std::optional<uint64_t>{};
    for(const auto& db : m_databases)
        db.each_row("SELECT MIN(start), MAX(\"end\") FROM (SELECT start, \"end\" FROM kernels "
                    "UNION ALL SELECT start, \"end\" FROM memory_copies UNION ALL SELECT start, "
                    "\"end\" FROM regions)",
                    [&](sqlite3_stmt* s)
                    {
                        if(sqlite3_column_type(s, 0) == SQLITE_NULL) return;
                        const auto a = static_cast<uint64_t>(sqlite3_column_int64(s, 0));
                        const auto b = static_cast<uint64_t>(sqlite3_column_int64(s, 1));
                        first        = first ? std::min(*first, a) : a;
                        last         = last ? std::max(*last, b) : b;
                    });
    const auto from    = args.window_start.empty() ? time_bound{true, 0.0, 0}
                                                   : time_bound_of("--start", args.window_start);
    const auto to      = args.window_end.empty() ? time_bound{true, 1.0, 0}
                                                 : time_bound_of("--end", args.window_end);
    auto       resolve = [&](const time_bound& b, const std::string& text) -> uint64_t
    {
        if(!b.percent) return b.ns;
        if(!first)
            throw failure{exit_code::usage,
                          "--start/--end '" + text +
                              "': the databases hold no record to take a percentage of"};
        return *first + static_cast<uint64_t>(
                            std::llround(static_cast<double>(*last - *first) * b.fraction));
    };
    auto w  = time_window{};
    w.start = resolve(from, args.window_start.empty() ? "0%" : args.window_start);
    w.end   = resolve(to, args.window_end.empty() ? "100%" : args.window_end);
    if(w.end < w.start)
        throw failure{exit_code::usage,
                      "--end '" +
                          (args.window_end.empty() ? std::string{"100%"} : args.window_end) +
                          "' (" + std::to_string(w.end) + " ns) is before --start '" +
                          (args.window_start.empty() ? std::string{"0%"} : args.window_start) +
                          "' (" + std::to_string(w.start) + " ns)"};
    std::cerr << "rocpd: time window " << w.start << " to " << w.end << " ns\n";
    return w;
}

std::string
job::rank_of(const input_database& db) const
{
    if(db.has_tag("rank")) return db.tag("rank");
    if(db.has_tag("pid")) return "pid " + db.tag("pid");
    return db.path();
}
} // namespace rocpd
