// The rows of the CSV files, as upstream rocprofv3 writes them (API.md, "rocprofv3 (the CLI)
// facts"; docs/rocprofv3.md): one function per file's header and row, and the files written whole.
#pragma once

#include "model/kernel_stats.hpp"
#include "model/results.hpp"

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/pc_sampling.h>

#include <string>
#include <string_view>
#include <vector>

namespace rocprofiler::tool
{
// The CSV files' name of an agent, as upstream writes it: "Agent 1" (data.agent_index_mode);
// "Agent <handle>" for an agent the list does not know.
std::string agent_label(const results& data, rocprofiler_agent_id_t id);
// A counter value as upstream's CSV files write floating-point values: at least 1, fixed with 6
// decimals ("16384.000000"); below 1 (0 and negative values included), scientific with 8
// ("2.48342814e-02").
std::string csv_counter_value(double value);

// A CSV field: quoted, with embedded quotes doubled (RFC 4180).
std::string csv_quote(std::string_view text);

// The rows of the streamed files: header, then one call per record.
std::string kernel_trace_csv_header();
std::string kernel_trace_csv_row(const results&                                             data,
                                 const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r);
std::string counter_collection_csv_header();
std::string counter_collection_csv_rows(const results& data, const counter_dispatch& rec);

// memory_copy_trace.csv: upstream's columns (Kind, Direction, Stream_Id, Source_Agent_Id,
// Destination_Agent_Id, Correlation_Id, Start_Timestamp, End_Timestamp), then ours (Bytes,
// Source_Address, Destination_Address, Thread_Id).
// marker_api_trace.csv: upstream's columns Domain, Function, Process_Id, Thread_Id,
// Correlation_Id, Start_Timestamp, End_Timestamp.
std::string marker_api_trace_csv_header();
std::string marker_api_trace_csv_row(const results& data, const marker_event& e);

// pc_sampling_host_trap.csv and pc_sampling_stochastic.csv: upstream's columns (Sample_Timestamp,
// Exec_Mask, Dispatch_Id, Instruction, Instruction_Comment, Correlation_Id; the stochastic file
// then Wave_Issued_Instruction, Instruction_Type, Stall_Reason, Wave_Count), then ours
// (Code_Object_Id, Code_Object_Offset: the sampled PC). Instruction and Instruction_Comment are
// empty: this tool has no disassembler or line table. Stall_Reason is written only for a wave that
// issued no instruction, as upstream.
std::string pc_sampling_host_trap_csv_header();
std::string pc_sampling_host_trap_csv_row(const rocprofiler_pc_sampling_record_host_trap_v0_t& r);
std::string pc_sampling_stochastic_csv_header();
std::string pc_sampling_stochastic_csv_row(const results& data,
                                           const rocprofiler_pc_sampling_record_stochastic_v0_t& r);

std::string memory_copy_trace_csv_header();
std::string memory_copy_trace_csv_row(const results&                                         data,
                                      const rocprofiler_buffer_tracing_memory_copy_record_t& r);

// The files written whole from the records kept in memory (a run no format streams), and the
// ones always written whole: agent_info.csv, kernel_stats.csv.
std::string kernel_trace_csv(const results& data);
std::string counter_collection_csv(const results& data);
std::string memory_copy_trace_csv(const results& data);
std::string agent_info_csv(const results& data);
std::string kernel_stats_csv(const std::vector<kernel_stat>& stats);
} // namespace rocprofiler::tool
