#include "job.hpp"
#include "errors.hpp"
#include "inputs.hpp"

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
    // Folders and package indexes stand for the databases they hold or list.
    const auto paths = expand_inputs(args.inputs);
    m_databases.reserve(paths.size());
    for(const auto& path : paths)
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
    if(window->inside_only)
        return " AND " + prefix + "start >= " + std::to_string(window->start) + " AND " + prefix +
               "\"end\" <= " + std::to_string(window->end);
    return " AND " + prefix + "start <= " + std::to_string(window->end) + " AND " + prefix +
           "\"end\" >= " + std::to_string(window->start);
}

uint64_t
job::marker_start(const std::string& option, const std::string& name) const
{
    auto quoted = std::string{"'"};
    for(const char c : name)
        quoted += c == '\'' ? std::string{"''"} : std::string{c};
    quoted += "'";
    auto found = std::vector<std::pair<uint64_t, std::string>>{};
    each_database(
        [&](const input_database& db)
        {
            db.each_row("SELECT start FROM regions WHERE category LIKE 'MARKER%' AND name = " +
                            quoted,
                        [&](sqlite3_stmt* s) {
                            found.emplace_back(static_cast<uint64_t>(sqlite3_column_int64(s, 0)),
                                               db.path());
                        });
        });
    if(found.empty())
        throw failure{exit_code::usage,
                      option + " '" + name + "': no marker of that name in the databases"};
    if(found.size() > 1)
        throw failure{exit_code::usage,
                      option + " '" + name + "': " + std::to_string(found.size()) +
                          " markers of that name (at " + std::to_string(found[0].first) +
                          " ns in " + found[0].second + ", at " + std::to_string(found[1].first) +
                          " ns in " + found[1].second +
                          "); a window needs one: give --start/--end in ns instead"};
    return found.front().first;
}

std::optional<time_window>
job::window(const arguments& args) const
{
    if(args.window_start.empty() && args.window_end.empty() && args.window_start_marker.empty() &&
       args.window_end_marker.empty())
        return std::nullopt;
    // The job's span, needed for a percentage and for a bound not given.
    auto first = std::optional<uint64_t>{};
    auto last  = std::optional<uint64_t>{};
    auto span  = [&]()
    {
        if(first) return;
        each_database(
            [&](const input_database& db)
            {
                db.each_row(
                    "SELECT MIN(start), MAX(\"end\") FROM (SELECT start, \"end\" FROM kernels "
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
            });
    };
    // One bound: the marker's start, the nanoseconds given, or a share of the span.
    auto resolve = [&](const std::string& option,
                       const std::string& text,
                       const std::string& marker_option,
                       const std::string& marker,
                       const char*        fallback) -> std::pair<uint64_t, std::string>
    {
        if(!marker.empty())
            return {marker_start(marker_option, marker), marker_option + " '" + marker + "'"};
        const auto given = text.empty() ? std::string{fallback} : text;
        const auto b     = time_bound_of(option, given);
        if(!b.percent) return {b.ns, option + " '" + given + "'"};
        span();
        if(!first)
            throw failure{exit_code::usage,
                          option + " '" + given +
                              "': the databases hold no record to take a percentage of"};
        return {*first + static_cast<uint64_t>(
                             std::llround(static_cast<double>(*last - *first) * b.fraction)),
                option + " '" + given + "'"};
    };
    const auto [start, from] =
        resolve("--start", args.window_start, "--start-marker", args.window_start_marker, "0%");
    const auto [end, to] =
        resolve("--end", args.window_end, "--end-marker", args.window_end_marker, "100%");
    if(end < start)
        throw failure{exit_code::usage,
                      to + " (" + std::to_string(end) + " ns) is before " + from + " (" +
                          std::to_string(start) + " ns)"};
    auto w = time_window{start, end, !args.inclusive};
    std::cerr << "rocpd: time window " << w.start << " to " << w.end << " ns"
              << (w.inside_only ? " (records wholly inside)" : "") << "\n";
    return w;
}

void
job::each_database(const std::function<void(const input_database&)>& read) const
{
    for(const auto& db : m_databases)
    {
        // Closed also when the read throws (the command ends, but a caller may go on).
        struct closer
        {
            const input_database& db;
            ~closer() { db.close(); }
        } const close_after{db};
        read(db);
    }
}

std::string
job::rank_of(const input_database& db) const
{
    if(db.has_tag("rank")) return db.tag("rank");
    if(db.has_tag("pid")) return "pid " + db.tag("pid");
    return db.path();
}
} // namespace rocpd
