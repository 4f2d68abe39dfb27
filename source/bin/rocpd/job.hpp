// The job view: the input databases of one job, opened and checked together. A job is one
// launch of one program: databases belong to the same job when their launchers' job ids
// (rocpd_metadata job_id, from SLURM_JOB_ID) are equal, or, where none was recorded, when they
// profiled the same command line (rocpd_metadata command) or were profiled by the same rocprofv3
// command (rocpd_metadata profiler_run: a program and the worker processes it started). Databases
// of different jobs, and a database given twice (same guid), are refused unless --force.
#pragma once

#include "arguments.hpp"
#include "input_database.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rocpd
{
// A time window [start, end] in the records' nanoseconds.
struct time_window
{
    uint64_t start = 0;
    uint64_t end   = 0;
    // --inclusive false: only the records wholly inside; else those that overlap it.
    bool inside_only = false;
};

// " AND <prefix>start <= end AND <prefix>"end" >= start": the records that overlap @p window
// (a record on a bound is in), or with inside_only " AND <prefix>start >= start AND
// <prefix>"end" <= end"; "" without a window.
std::string window_filter(const std::optional<time_window>& window, const std::string& prefix);

class job
{
public:
    // Opens every input of @p args in order; throws the first failure.
    explicit job(const arguments& args);

    const std::vector<input_database>& databases() const { return m_databases; }
    // Calls @p read for each database in order and closes its connection after, also when @p read
    // throws: one input is open at a time, so that memory and file descriptors do not grow with
    // the number of inputs.
    void each_database(const std::function<void(const input_database&)>& read) const;
    // What --summary-by-rank calls the part of the job a database holds: its MPI rank
    // ("0", "1", ...) when the writer recorded one, else "pid <pid>" of its process.
    std::string rank_of(const input_database& db) const;
    // The window of --start/--end, percentages taken of the job's span (the first start to the
    // last end of every kernel, memory copy and region of every database; a missing bound is the
    // span's end), or of --start-marker/--end-marker (the start of the one marker of that name in
    // the databases); nullopt when no bound is given. Throws failure{usage} naming the values
    // when the window is empty (its end before its start), the job has no record to take a
    // percentage of, or a marker is missing or has several of its name.
    std::optional<time_window> window(const arguments& args) const;

private:
    // The start of the one marker named @p name (regions of a MARKER category) in the databases;
    // throws failure{usage} naming @p option when there is none or more than one.
    uint64_t marker_start(const std::string& option, const std::string& name) const;

    std::vector<input_database> m_databases = {};
};
} // namespace rocpd
