// results.json, written in document order: the fixed parts (metadata, agents, counters, strings,
// code objects, kernel symbols, the replay summary and plan) are serialized from the collected
// data, and each record array is written where it stands, either from the records kept in memory
// or by copying its part file (record_spill) in. The layout is nlohmann's dump with an indent of
// one space; a spilled array holds its records compact, one per line ("[rec,\nrec]").
#pragma once

#include "config/config.hpp"
#include "model/results.hpp"

#include <string>
#include <vector>

namespace rocprofiler::tool
{
class record_spill;
struct replay_report;

// The part files of results.json's record arrays; a null one means the array comes from the
// records in memory (or is empty when its trace is off).
struct results_spills
{
    record_spill* kernel_dispatch       = nullptr;
    record_spill* counter_collection    = nullptr;
    record_spill* memory_copy           = nullptr;
    record_spill* marker_api            = nullptr;
    record_spill* cuda_api              = nullptr;
    record_spill* kernel_replay_outcome = nullptr;
    record_spill* pc_sample_host_trap   = nullptr;
    record_spill* pc_sample_stochastic  = nullptr;
};

// Writes results.json to @p path atomically (write_file_atomically). Returns false when it could
// not, with the error (naming the file and the reason) appended to @p errors.
bool write_results_json(const std::string&        path,
                        const config&             cfg,
                        const results&            data,
                        const replay_report&      report,
                        const results_spills&     spills,
                        std::vector<std::string>& errors);
} // namespace rocprofiler::tool
