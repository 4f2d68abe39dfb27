#include "job.hpp"

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
job::rank_of(const input_database& db) const
{
    if(db.has_tag("rank")) return db.tag("rank");
    if(db.has_tag("pid")) return "pid " + db.tag("pid");
    return db.path();
}
} // namespace rocpd
