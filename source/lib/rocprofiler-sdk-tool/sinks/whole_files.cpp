#include "sinks/whole_files.hpp"
#include "csv/rows.hpp"
#include "files/atomic_file.hpp"
#include "model/replay_report.hpp"
#include "pftrace/pftrace_builder.hpp"
#include "json/results_document.hpp"

#include <filesystem>
#include <regex>
#include <utility>

namespace rocprofiler::tool
{
std::vector<std::string>
write_outputs(const config&             cfg,
              const results&            data,
              std::vector<std::string>& errors,
              bool                      streamed,
              const replay_report*      replay)
{
    auto written = std::vector<std::string>{};
    auto ec      = std::error_code{};
    std::filesystem::create_directories(cfg.output_path, ec);
    if(ec)
    {
        errors.emplace_back("could not create the output directory '" + cfg.output_path +
                            "': " + ec.message());
        return written;
    }
    auto emit = [&](std::string_view suffix, const std::string& contents)
    {
        auto path = output_file(cfg, data.pid, suffix);
        if(write_file_atomically(path, contents, errors)) written.emplace_back(std::move(path));
    };

    const auto  none   = replay_report{};
    const auto& report = replay != nullptr ? *replay : none;
    if(cfg.csv)
    {
        emit("agent_info.csv", agent_info_csv(data));
        if(cfg.kernel_trace && !streamed) emit("kernel_trace.csv", kernel_trace_csv(data));
        if(cfg.counter_collection && !streamed)
            emit("counter_collection.csv", counter_collection_csv(data));
        if(cfg.memory_copy_trace && !streamed)
            emit("memory_copy_trace.csv", memory_copy_trace_csv(data));
        if(cfg.marker_trace && !streamed)
        {
            auto text = marker_api_trace_csv_header();
            for(const auto& e : data.markers)
                text += marker_api_trace_csv_row(data, e);
            emit("marker_api_trace.csv", text);
        }
        if(cfg.cuda_api_trace() && !streamed)
        {
            auto text = marker_api_trace_csv_header();
            for(const auto& e : data.api_calls)
                text += marker_api_trace_csv_row(data, e);
            emit("cuda_api_trace.csv", text);
        }
        if(cfg.stats)
        {
            // kernel_stats.csv's columns for every domain: per name in each traced domain's
            // file (written, header only, when the domain is traced but saw no record) and one
            // row per domain with records in domain_stats.csv.
            emit("kernel_stats.csv", kernel_stats_csv(compute_kernel_stats(data)));
            const auto domains = compute_domain_totals(data);
            const auto rows_of = [&domains](const char* pattern)
            { return stat_rows(group_totals(domains, std::regex{pattern})); };
            if(cfg.memory_copy_trace)
                emit("memory_copy_stats.csv", kernel_stats_csv(rows_of("MEMORY_COPY")));
            if(cfg.marker_trace)
                emit("marker_api_stats.csv", kernel_stats_csv(rows_of("MARKER_API")));
            // Runtime and driver calls together, as in cuda_api_trace.csv.
            if(cfg.cuda_api_trace())
                emit("cuda_api_stats.csv", kernel_stats_csv(rows_of("CUDA_(RUNTIME|DRIVER)_API")));
            emit("domain_stats.csv", kernel_stats_csv(domain_rows(domains)));
        }
        // Under kernel replay, what replay could not collect is listed next to what it did.
        if(cfg.kernel_replay) emit("kernel_replay_summary.csv", replay_summary_csv(report));
    }
    // Streamed, results.json is the JSON sink's (json_sink::write_whole), its records on disk.
    if(cfg.json && !streamed)
    {
        auto path = output_file(cfg, data.pid, "results.json");
        if(write_results_json(path, cfg, data, report, results_spills{}, errors))
            written.emplace_back(std::move(path));
    }
    if(cfg.pftrace && !streamed) emit("results.pftrace", results_pftrace(data, cfg.kernel_replay));
    return written;
}
} // namespace rocprofiler::tool
