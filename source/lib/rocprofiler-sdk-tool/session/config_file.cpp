#include "session/config_file.hpp"
#include "files/atomic_file.hpp"
#include "model/results.hpp"

#include <nlohmann/json.hpp>

namespace rocprofiler::tool
{
// --output-config: <prefix>_config.json, the configuration this process profiled with (after
// its placeholders were expanded), so that a run's outputs say how they were made.
void
write_config_file(const config& cfg, uint64_t pid, std::vector<std::string>& errors)
{
    auto range = nlohmann::json::array();
    for(const auto& i : cfg.iteration_range.intervals)
        range.push_back({{"first", i.first},
                         {"last",
                          i.last == parse::iteration_interval::open_end ? nlohmann::json{}
                                                                        : nlohmann::json(i.last)}});
    auto doc = nlohmann::json{
        {"kernel_trace", cfg.kernel_trace},
        {"memory_copy_trace", cfg.memory_copy_trace},
        {"marker_trace", cfg.marker_trace},
        {"cuda_runtime_trace", cfg.cuda_runtime_trace},
        {"cuda_driver_trace", cfg.cuda_driver_trace},
        {"selected_regions", cfg.selected_regions},
        {"agent_index", cfg.agent_index},
        {"counter_collection", cfg.counter_collection},
        {"kernel_replay", cfg.kernel_replay},
        {"stats", cfg.stats},
        {"summary", cfg.summary},
        {"counter_groups", cfg.collected_groups()},
        {"output_path", cfg.output_path},
        {"output_file", output_file(cfg, pid, "")},
        {"csv", cfg.csv},
        {"json", cfg.json},
        {"pftrace", cfg.pftrace},
        {"otf2", cfg.otf2},
        {"kernel_include_regex", cfg.include_regex_text},
        {"kernel_exclude_regex", cfg.exclude_regex_text},
        {"kernel_iteration_range", range},
        {"kernel_dispatch_skip", cfg.dispatch_skip},
        {"kernel_dispatch_count",
         cfg.dispatch_count ? nlohmann::json(*cfg.dispatch_count) : nlohmann::json{}},
        {"kernel_filter_trace", cfg.filter_trace},
        {"demangle_kernels", cfg.demangle_kernels},
        {"truncate_kernels", cfg.truncate_kernels},
        {"pid", pid}};
    (void)write_file_atomically(output_file(cfg, pid, "config.json"),
                                doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
                                    "\n",
                                errors);
}

} // namespace rocprofiler::tool
