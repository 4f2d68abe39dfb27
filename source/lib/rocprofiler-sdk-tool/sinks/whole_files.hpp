// The files written whole, at each checkpoint and at the end: agent_info.csv, kernel_stats.csv,
// the replay summary; and, for a run whose records were kept in memory (no format streams them),
// every file of the configured formats.
#pragma once

#include "config/config.hpp"
#include "model/results.hpp"

#include <string>
#include <vector>

namespace rocprofiler::tool
{
struct replay_report;

// Writes every file the configuration asks for, each atomically. With @p streamed, the files the
// sinks write (kernel_trace.csv, memory_copy_trace.csv, counter_collection.csv, results.pftrace,
// results.json) are left to them; counter_collection_missing.csv is always a stream
// (replay_ledger). Under kernel replay, @p replay holds what the outcomes add up to (none: nothing
// arrived). Returns the paths written; errors (a directory that cannot be created, a file that
// cannot be written) name the file and the OS reason and are appended to @p errors.
std::vector<std::string> write_outputs(const config&             cfg,
                                       const results&            data,
                                       std::vector<std::string>& errors,
                                       bool                      streamed = false,
                                       const replay_report*      replay   = nullptr);
} // namespace rocprofiler::tool
