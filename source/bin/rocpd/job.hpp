// The job view: the input databases of one job, opened and checked together. A job is one
// launch of one program: databases belong to the same job when their launchers' job ids
// (rocpd_metadata job_id, from SLURM_JOB_ID) are equal, or, where none was recorded, when they
// profiled the same command line (rocpd_metadata command) or were profiled by the same rocprofv3
// command (rocpd_metadata profiler_run: a program and the worker processes it started). Databases
// of different jobs, and a database given twice (same guid), are refused unless --force.
#pragma once

#include "arguments.hpp"
#include "input_database.hpp"

#include <string>
#include <vector>

namespace rocpd
{
class job
{
public:
    // Opens every input of @p args in order; throws the first failure.
    explicit job(const arguments& args);

    const std::vector<input_database>& databases() const { return m_databases; }
    // What --summary-by-rank calls the part of the job a database holds: its MPI rank
    // ("0", "1", ...) when the writer recorded one, else "pid <pid>" of its process.
    std::string rank_of(const input_database& db) const;

private:
    std::vector<input_database> m_databases = {};
};
} // namespace rocpd
