#include "output.hpp"

#include "perfetto.hpp"
#include "replay_report.hpp"
#include "write_guard.hpp"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <random>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>

namespace rocprofiler::tool
{
namespace
{
// The device and inode of the file @p fd is open on; {0, 0} when it is not open.
std::pair<uint64_t, uint64_t>
identity(int fd)
{
    struct stat info = {};
    if(fd < 0 || ::fstat(fd, &info) != 0) return {0, 0};
    return {static_cast<uint64_t>(info.st_dev), static_cast<uint64_t>(info.st_ino)};
}

// An application may close the descriptors it did not open (closefrom(3)) and open files of its
// own under their numbers: the descriptor must still be on the file it was opened on before
// anything is written to it. The error names the file.
std::string
descriptor_lost(int fd, uint64_t dev, uint64_t ino, const std::string& path)
{
    if(identity(fd) == std::pair{dev, ino}) return {};
    return "could not write '" + path +
           "': its descriptor was closed by the application (or now names another file)";
}

using json = nlohmann::ordered_json;

json
dim3_json(const rocprofiler_dim3_t& d)
{
    return json{{"x", d.x}, {"y", d.y}, {"z", d.z}};
}

json
dispatch_info_json(const rocprofiler_kernel_dispatch_info_t& info)
{
    return json{{"size", info.size},
                {"agent_id", {{"handle", info.agent_id.handle}}},
                {"queue_id", {{"handle", info.queue_id.handle}}},
                {"kernel_id", info.kernel_id},
                {"dispatch_id", info.dispatch_id},
                {"private_segment_size", info.private_segment_size},
                {"group_segment_size", info.group_segment_size},
                {"workgroup_size", dim3_json(info.workgroup_size)},
                {"grid_size", dim3_json(info.grid_size)}};
}

json
agent_json(const agent_entry& a)
{
    const auto& i = a.info;
    auto        j = json{{"size", i.size},
                  {"id", {{"handle", i.id.handle}}},
                  {"type",
                   i.type == ROCPROFILER_AGENT_TYPE_GPU   ? "GPU"
                          : i.type == ROCPROFILER_AGENT_TYPE_CPU ? "CPU"
                                                                 : "NONE"},
                  {"cpu_cores_count", i.cpu_cores_count},
                  {"simd_count", i.simd_count},
                  {"max_waves_per_simd", i.max_waves_per_simd},
                  {"lds_size_in_kb", i.lds_size_in_kb},
                  {"wave_front_size", i.wave_front_size},
                  {"cu_count", i.cu_count},
                  {"simd_per_cu", i.simd_per_cu},
                  {"gfx_target_version", i.gfx_target_version},
                  {"vendor_id", i.vendor_id},
                  {"device_id", i.device_id},
                  {"max_waves_per_cu", i.max_waves_per_cu},
                  {"workgroup_max_size", i.workgroup_max_size},
                  {"grid_max_size", i.grid_max_size},
                  {"local_mem_size", i.local_mem_size},
                  {"workgroup_max_dim", dim3_json(i.workgroup_max_dim)},
                  {"grid_max_dim", dim3_json(i.grid_max_dim)},
                  {"name", a.name},
                  {"vendor_name", a.vendor_name},
                  {"product_name", a.product_name},
                  {"model_name", a.model_name},
                  {"node_id", i.node_id},
                  {"logical_node_id", i.logical_node_id},
                  {"logical_node_type_id", i.logical_node_type_id}};
    if(a.counters_error) j["counters_error"] = *a.counters_error;
    return j;
}

// VGPR_Count, Accum_VGPR_Count, SGPR_Count: from the kernel's symbol, 0 when not reported.
std::string
register_columns(const results& data, uint64_t kernel_id)
{
    const auto* sym = data.find_symbol(kernel_id);
    if(sym == nullptr) return "0,0,0";
    return std::to_string(sym->arch_vgpr_count) + ',' + std::to_string(sym->accum_vgpr_count) +
           ',' + std::to_string(sym->sgpr_count);
}

std::string
kernel_trace_csv(const results& data)
{
    auto out = kernel_trace_csv_header();
    for(const auto& r : data.dispatches)
        out += kernel_trace_csv_row(data, r);
    return out;
}

std::string
counter_collection_csv(const results& data)
{
    auto out = counter_collection_csv_header();
    for(const auto& rec : data.counter_records)
        out += counter_collection_csv_rows(data, rec);
    return out;
}

std::string
memory_copy_trace_csv(const results& data)
{
    auto out = memory_copy_trace_csv_header();
    for(const auto& r : data.memory_copies)
        out += memory_copy_trace_csv_row(data, r);
    return out;
}

std::string
errno_text(int err)
{
    return std::strerror(err);
}

std::string
agent_info_csv(const results& data)
{
    auto out = std::ostringstream{};
    out << "\"Node_Id\",\"Logical_Node_Id\",\"Agent_Type\",\"Cpu_Cores_Count\",\"Simd_Count\","
           "\"Cpu_Core_Id_Base\",\"Simd_Id_Base\",\"Max_Waves_Per_Simd\",\"Lds_Size_In_Kb\","
           "\"Gds_Size_In_Kb\",\"Num_Gws\",\"Wave_Front_Size\",\"Num_Xcc\",\"Cu_Count\","
           "\"Array_Count\",\"Num_Shader_Banks\",\"Simd_Arrays_Per_Engine\","
           "\"Cu_Per_Simd_Array\",\"Simd_Per_Cu\",\"Max_Slots_Scratch_Cu\","
           "\"Gfx_Target_Version\",\"Vendor_Id\",\"Device_Id\",\"Location_Id\",\"Domain\","
           "\"Drm_Render_Minor\",\"Num_Sdma_Engines\",\"Num_Sdma_Xgmi_Engines\","
           "\"Num_Sdma_Queues_Per_Engine\",\"Num_Cp_Queues\",\"Max_Engine_Clk_Ccompute\","
           "\"Max_Engine_Clk_Fcompute\",\"Sdma_Fw_Version\",\"Fw_Version\",\"Capability\","
           "\"Cu_Per_Engine\",\"Max_Waves_Per_Cu\",\"Family_Id\",\"Workgroup_Max_Size\","
           "\"Grid_Max_Size\",\"Local_Mem_Size\",\"Hive_Id\",\"Gpu_Id\","
           "\"Workgroup_Max_Dim_X\",\"Workgroup_Max_Dim_Y\",\"Workgroup_Max_Dim_Z\","
           "\"Grid_Max_Dim_X\",\"Grid_Max_Dim_Y\",\"Grid_Max_Dim_Z\",\"Name\",\"Vendor_Name\","
           "\"Product_Name\",\"Model_Name\"\n";
    for(const auto& a : data.agents)
    {
        const auto& i = a.info;
        out << i.node_id << ',' << i.logical_node_id << ','
            << csv_quote(i.type == ROCPROFILER_AGENT_TYPE_GPU   ? "GPU"
                         : i.type == ROCPROFILER_AGENT_TYPE_CPU ? "CPU"
                                                                : "NONE")
            << ',' << i.cpu_cores_count << ',' << i.simd_count << ',' << i.cpu_core_id_base << ','
            << i.simd_id_base << ',' << i.max_waves_per_simd << ',' << i.lds_size_in_kb << ','
            << i.gds_size_in_kb << ',' << i.num_gws << ',' << i.wave_front_size << ',' << i.num_xcc
            << ',' << i.cu_count << ',' << i.array_count << ',' << i.num_shader_banks << ','
            << i.simd_arrays_per_engine << ',' << i.cu_per_simd_array << ',' << i.simd_per_cu << ','
            << i.max_slots_scratch_cu << ',' << i.gfx_target_version << ',' << i.vendor_id << ','
            << i.device_id << ',' << i.location_id << ',' << i.domain << ',' << i.drm_render_minor
            << ',' << i.num_sdma_engines << ',' << i.num_sdma_xgmi_engines << ','
            << i.num_sdma_queues_per_engine << ',' << i.num_cp_queues << ','
            << i.max_engine_clk_ccompute << ',' << i.max_engine_clk_fcompute << ','
            << i.sdma_fw_version.Value << ',' << i.fw_version.Value << ',' << i.capability.Value
            << ',' << i.cu_per_engine << ',' << i.max_waves_per_cu << ',' << i.family_id << ','
            << i.workgroup_max_size << ',' << i.grid_max_size << ',' << i.local_mem_size << ','
            << i.hive_id << ',' << i.gpu_id << ',' << i.workgroup_max_dim.x << ','
            << i.workgroup_max_dim.y << ',' << i.workgroup_max_dim.z << ',' << i.grid_max_dim.x
            << ',' << i.grid_max_dim.y << ',' << i.grid_max_dim.z << ',' << csv_quote(a.name) << ','
            << csv_quote(a.vendor_name) << ',' << csv_quote(a.product_name) << ','
            << csv_quote(a.model_name) << '\n';
    }
    return out.str();
}

std::string
kernel_stats_csv(const std::vector<kernel_stat>& stats)
{
    auto out = std::ostringstream{};
    out << std::fixed << std::setprecision(2);
    out << "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\",\"MinNs\","
           "\"MaxNs\",\"StdDev\"\n";
    for(const auto& s : stats)
        out << csv_quote(s.name) << ',' << s.calls << ',' << s.total_ns << ',' << s.average_ns
            << ',' << s.percentage << ',' << s.min_ns << ',' << s.max_ns << ',' << s.stddev_ns
            << '\n';
    return out.str();
}

// Where write_results_json copies a spill's records: a string no record can hold.
std::string
spill_placeholder(std::string_view what)
{
    return "\u0001rocprofv3-spill:" + std::string{what} + "\u0001";
}
} // namespace

std::vector<std::pair<const char*, record_spill*>>
spills(const results& data)
{
    auto out = std::vector<std::pair<const char*, record_spill*>>{};
    for(const auto& [what, spill] :
        {std::pair{"kernel_dispatch", data.dispatch_spill.get()},
         std::pair{"counter_collection", data.counter_spill.get()},
         std::pair{"memory_copy", data.memory_copy_spill.get()},
         std::pair{"marker_api", data.marker_spill.get()},
         std::pair{"cuda_api", data.api_spill.get()},
         std::pair{"kernel_replay_outcome", data.replay_outcome_spill.get()}})
        if(spill != nullptr) out.emplace_back(what, spill);
    return out;
}

namespace
{
std::string
results_json(const config& cfg, const results& data, const replay_report& report)
{
    auto agents = json::array();
    for(const auto& a : data.agents)
        agents.push_back(agent_json(a));

    auto counters = json::array();
    for(const auto& c : data.counters)
        counters.push_back(json{{"id", {{"handle", c.id}}},
                                {"agent_id", {{"handle", c.agent.handle}}},
                                {"name", c.name},
                                {"description", c.description},
                                {"block", c.block},
                                {"expression", c.expression},
                                {"is_constant", c.is_constant},
                                {"is_derived", c.is_derived}});

    // Field names as upstream rocprofv3 writes them (the symbol payload's members).
    auto symbols = json::object();
    for(const auto& [id, sym] : data.kernel_symbols)
        symbols[std::to_string(id)] =
            json{{"kernel_id", id},
                 {"code_object_id", sym.code_object_id},
                 {"kernel_name", sym.name},
                 {"kernel_object", sym.kernel_object},
                 {"kernarg_segment_size", sym.kernarg_segment_size},
                 {"kernarg_segment_alignment", sym.kernarg_segment_alignment},
                 {"group_segment_size", sym.group_segment_size},
                 {"private_segment_size", sym.private_segment_size},
                 {"sgpr_count", sym.sgpr_count},
                 {"arch_vgpr_count", sym.arch_vgpr_count},
                 {"accum_vgpr_count", sym.accum_vgpr_count},
                 {"reported", sym.reported}};

    auto code_objects = json::array();
    for(const auto& [id, co] : data.code_objects)
        code_objects.push_back(json{{"code_object_id", id},
                                    {"agent_id", {{"handle", co.agent.handle}}},
                                    {"uri", co.uri},
                                    {"load_base", co.load_base},
                                    {"load_size", co.load_size},
                                    {"load_delta", co.load_delta}});

    // Dispatch records gathered only for --stats / --summary are not part of the trace. Spilled
    // records are copied in by write_results_json (placeholders here).
    auto dispatches = json::array();
    if(data.dispatch_spill)
        dispatches = spill_placeholder("kernel_dispatch");
    else if(cfg.kernel_trace)
        for(const auto& r : data.dispatches)
            dispatches.push_back(dispatch_record_json(r));

    auto counter_records = json::array();
    if(data.counter_spill)
        counter_records = spill_placeholder("counter_collection");
    else
        for(const auto& rec : data.counter_records)
            counter_records.push_back(counter_record_json(rec));

    auto markers = json::array();
    if(data.marker_spill)
        markers = spill_placeholder("marker_api");
    else if(cfg.marker_trace)
        for(const auto& e : data.markers)
            markers.push_back(marker_event_json(e));

    auto api_calls = json::array();
    if(data.api_spill)
        api_calls = spill_placeholder("cuda_api");
    else if(cfg.cuda_api_trace())
        for(const auto& e : data.api_calls)
            api_calls.push_back(marker_event_json(e));

    auto memory_copies = json::array();
    if(data.memory_copy_spill)
        memory_copies = spill_placeholder("memory_copy");
    else if(cfg.memory_copy_trace)
        for(const auto& r : data.memory_copies)
            memory_copies.push_back(memory_copy_record_json(r));

    // How the run ended: "running" in a checkpoint, "exit" when the tool finalized normally,
    // "signal" when its signal handler did (records of dispatches in flight may be missing).
    auto end = json{{"kind",
                     data.end.kind == run_end::running  ? "running"
                     : data.end.kind == run_end::signal ? "signal"
                                                        : "exit"},
                    {"complete", data.end.kind == run_end::exit}};
    if(data.end.kind == run_end::signal)
    {
        end["signal"]      = data.end.number;
        end["signal_name"] = signal_name(data.end.number);
    }
    auto metadata = json{{"pid", data.pid},
                         {"init_time", data.init_time},
                         {"fini_time", data.fini_time},
                         {"command", data.command},
                         {"kernel_replay", cfg.kernel_replay},
                         {"dropped_records", data.dropped_records},
                         {"end", end}};

    auto strings = json{
        {"buffer_records",
         json::array(
             {json{{"kind", "KERNEL_DISPATCH"}, {"operations", {"NONE", "ENQUEUE", "COMPLETE"}}},
              json{{"kind", "MEMORY_COPY"},
                   {"operations",
                    {memory_copy_direction_name(ROCPROFILER_MEMORY_COPY_NONE),
                     memory_copy_direction_name(ROCPROFILER_MEMORY_COPY_HOST_TO_HOST),
                     memory_copy_direction_name(ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE),
                     memory_copy_direction_name(ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST),
                     memory_copy_direction_name(ROCPROFILER_MEMORY_COPY_DEVICE_TO_DEVICE)}}}})},
        {"callback_records",
         json::array({json{{"kind", "KERNEL_REPLAY"}, {"operations", {"NONE", "CONFIG", "PASS"}}},
                      json{{"kind", "CODE_OBJECT"},
                           {"operations",
                            {"NONE",
                             "LOAD",
                             "DEVICE_KERNEL_SYMBOL_REGISTER",
                             "HOST_KERNEL_SYMBOL_REGISTER"}}}})}};

    auto tool = json{{"metadata", metadata},
                     {"agents", agents},
                     {"counters", counters},
                     {"strings", strings},
                     {"code_objects", code_objects},
                     {"kernel_symbols", symbols},
                     {"callback_records", {{"counter_collection", counter_records}}},
                     {"buffer_records",
                      {{"kernel_dispatch", dispatches},
                       {"memory_copy", memory_copies},
                       {"marker_api", markers},
                       {"cuda_api", api_calls}}}};
    if(cfg.kernel_replay)
    {
        tool["callback_records"]["kernel_replay_outcome"] =
            data.replay_outcome_spill ? json(spill_placeholder("kernel_replay_outcome"))
                                      : json::array();
        tool["kernel_replay_summary"] = replay_summary_json(report);
        tool["kernel_replay_plan"]    = replay_plan_json(data);
    }
    auto root = json{{"rocprofiler-sdk-tool", json::array({tool})}};
    // Strings that are not valid UTF-8 (a kernel name, a command-line argument) have each invalid
    // byte replaced by U+FFFD, so that one bad name never makes the whole file invalid.
    return root.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}
} // namespace

json
dispatch_record_json(const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r)
{
    return json{
        {"size", r.size},
        {"kind", "KERNEL_DISPATCH"},
        {"operation", "COMPLETE"},
        {"correlation_id",
         {{"internal", r.correlation_id.internal}, {"external", r.correlation_id.external.value}}},
        {"thread_id", r.thread_id},
        {"start_timestamp", r.start_timestamp},
        {"end_timestamp", r.end_timestamp},
        {"dispatch_info", dispatch_info_json(r.dispatch_info)}};
}

json
marker_event_json(const marker_event& e)
{
    return json{{"kind", e.domain},
                {"function", e.function},
                {"correlation_id", {{"internal", e.correlation_id}}},
                {"thread_id", e.thread_id},
                {"start_timestamp", e.start},
                {"end_timestamp", e.end}};
}

json
memory_copy_record_json(const rocprofiler_buffer_tracing_memory_copy_record_t& r)
{
    return json{
        {"size", r.size},
        {"kind", "MEMORY_COPY"},
        {"operation", memory_copy_direction_name(r.operation)},
        {"correlation_id",
         {{"internal", r.correlation_id.internal}, {"external", r.correlation_id.external.value}}},
        {"thread_id", r.thread_id},
        {"start_timestamp", r.start_timestamp},
        {"end_timestamp", r.end_timestamp},
        {"dst_agent_id", {{"handle", r.dst_agent_id.handle}}},
        {"src_agent_id", {{"handle", r.src_agent_id.handle}}},
        {"bytes", r.bytes},
        {"dst_address", {{"handle", r.dst_address.handle}}},
        {"src_address", {{"handle", r.src_address.handle}}}};
}

json
counter_record_json(const counter_dispatch& rec)
{
    auto values = json::array();
    for(const auto& v : rec.values)
        values.push_back(json{{"counter_id", {{"handle", v.counter_id}}}, {"value", v.value}});
    auto entry = json{{"thread_id", rec.thread_id},
                      {"dispatch_data",
                       {{"size", rec.data.size},
                        {"correlation_id",
                         {{"internal", rec.data.correlation_id.internal},
                          {"external", rec.data.correlation_id.external.value}}},
                        {"start_timestamp", rec.data.start_timestamp},
                        {"end_timestamp", rec.data.end_timestamp},
                        {"dispatch_info", dispatch_info_json(rec.data.dispatch_info)}}},
                      {"records", values}};
    if(rec.replay_pass) entry["replay_pass"] = *rec.replay_pass;
    return entry;
}

uint64_t
agent_number(const results& data, rocprofiler_agent_id_t id)
{
    if(const auto* agent = data.find_agent(id))
        return static_cast<uint64_t>(agent->info.logical_node_id);
    return id.handle;
}

std::string
agent_label(const results& data, rocprofiler_agent_id_t id)
{
    const auto* agent = data.find_agent(id);
    if(agent == nullptr) return "Agent " + std::to_string(id.handle);
    switch(data.agent_index_mode)
    {
    case agent_index::absolute:
        return "Agent " + std::to_string(agent->info.node_id);
    case agent_index::type_relative:
        return std::string{agent->info.type == ROCPROFILER_AGENT_TYPE_CPU ? "CPU " : "GPU "} +
               std::to_string(agent->info.logical_node_type_id);
    case agent_index::relative:
        break;
    }
    return "Agent " + std::to_string(agent->info.logical_node_id);
}

std::string
csv_counter_value(double value)
{
    auto out = std::ostringstream{};
    if(value >= 1.0)
        out << std::fixed << std::setprecision(6) << value;
    else
        out << std::scientific << std::setprecision(8) << value;
    return out.str();
}

const std::string&
results::kernel_name(uint64_t kernel_id) const
{
    static const auto unknown = std::string{};
    const auto*       sym     = find_symbol(kernel_id);
    return sym != nullptr ? sym->name : unknown;
}

const kernel_symbol*
results::find_symbol(uint64_t kernel_id) const
{
    auto it = kernel_symbols.find(kernel_id);
    return it != kernel_symbols.end() ? &it->second : nullptr;
}

const kernel_symbol&
ensure_kernel_symbol(results& data, uint64_t kernel_id, std::string* warning)
{
    if(auto it = data.kernel_symbols.find(kernel_id); it != data.kernel_symbols.end())
        return it->second;
    auto sym      = kernel_symbol{};
    sym.kernel_id = kernel_id;
    sym.name      = "kernel_" + std::to_string(kernel_id);
    sym.reported  = false;
    if(warning != nullptr)
        *warning = "kernel id " + std::to_string(kernel_id) +
                   " was never reported through code object tracing; it is named " + sym.name;
    return data.kernel_symbols.emplace(kernel_id, std::move(sym)).first->second;
}

const agent_entry*
results::find_agent(rocprofiler_agent_id_t id) const
{
    for(const auto& a : agents)
        if(a.info.id.handle == id.handle) return &a;
    return nullptr;
}

std::vector<kernel_stat>
compute_kernel_stats(const results& data)
{
    return merge_kernel_stats(data.kernel_stats,
                              [&data](uint64_t id) -> const std::string&
                              { return data.kernel_name(id); });
}

std::string
csv_quote(std::string_view text)
{
    auto out = std::string{"\""};
    for(char c : text)
    {
        if(c == '"') out += '"';
        out += c;
    }
    out += '"';
    return out;
}

std::string
output_file(const config& cfg, uint64_t pid, std::string_view suffix)
{
    auto prefix = cfg.output_file_name.empty() ? std::to_string(pid) : cfg.output_file_name;
    return (std::filesystem::path{cfg.output_path} / (prefix + "_" + std::string{suffix})).string();
}

namespace
{
// results.json: the document, with each spill's records copied where its placeholder is.
bool
write_results_json(const std::string&        path,
                   const config&             cfg,
                   const results&            data,
                   const replay_report&      report,
                   std::vector<std::string>& errors)
{
    auto text = results_json(cfg, data, report);
    struct part
    {
        std::string   marker;
        record_spill* spill;
    };
    auto parts = std::vector<part>{};
    for(const auto& [what, spill] : spills(data))
        parts.push_back({json(spill_placeholder(what)).dump(), spill});
    if(parts.empty()) return write_file_atomically(path, text, errors);
    return write_file_atomically(
        path,
        [&](int fd)
        {
            auto from = size_t{0};
            while(true)
            {
                // The next placeholder in the text, and the array it stands for.
                auto at   = std::string::npos;
                auto next = static_cast<const part*>(nullptr);
                for(const auto& p : parts)
                {
                    auto pos = text.find(p.marker, from);
                    if(pos != std::string::npos && (at == std::string::npos || pos < at))
                    {
                        at   = pos;
                        next = &p;
                    }
                }
                if(next == nullptr) return write_all(fd, text.data() + from, text.size() - from);
                if(auto err = write_all(fd, text.data() + from, at - from); err != 0) return err;
                if(auto err = write_all(fd, "[", 1); err != 0) return err;
                if(auto err = next->spill->copy_to(fd); err != 0) return err;
                if(auto err = write_all(fd, "]", 1); err != 0) return err;
                from = at + next->marker.size();
            }
        },
        errors);
}
} // namespace

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
        if(cfg.stats) emit("kernel_stats.csv", kernel_stats_csv(compute_kernel_stats(data)));
        // Under kernel replay, what replay could not collect is listed next to what it did.
        if(cfg.kernel_replay) emit("kernel_replay_summary.csv", replay_summary_csv(report));
    }
    if(cfg.json)
    {
        auto path = output_file(cfg, data.pid, "results.json");
        if(write_results_json(path, cfg, data, report, errors))
            written.emplace_back(std::move(path));
    }
    if(cfg.pftrace && !streamed) emit("results.pftrace", results_pftrace(data, cfg.kernel_replay));
    return written;
}
std::string
kernel_trace_csv_header()
{
    return "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Stream_Id\",\"Thread_Id\",\"Dispatch_Id\","
           "\"Kernel_Id\",\"Kernel_Name\",\"Correlation_Id\",\"Start_Timestamp\","
           "\"End_Timestamp\",\"LDS_Block_Size\",\"Scratch_Size\",\"VGPR_Count\","
           "\"Accum_VGPR_Count\",\"SGPR_Count\",\"Workgroup_Size_X\",\"Workgroup_Size_Y\","
           "\"Workgroup_Size_Z\",\"Grid_Size_X\",\"Grid_Size_Y\",\"Grid_Size_Z\"\n";
}

std::string
kernel_trace_csv_row(const results&                                             data,
                     const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r)
{
    auto        out = std::ostringstream{};
    const auto& d   = r.dispatch_info;
    // Stream_Id: 0, as rocprofv3 writes when no HIP stream is known.
    out << csv_quote("KERNEL_DISPATCH") << ',' << csv_quote(agent_label(data, d.agent_id)) << ','
        << d.queue_id.handle << ',' << 0 << ',' << r.thread_id << ',' << d.dispatch_id << ','
        << d.kernel_id << ',' << csv_quote(data.kernel_name(d.kernel_id)) << ','
        << r.correlation_id.internal << ',' << r.start_timestamp << ',' << r.end_timestamp << ','
        << d.group_segment_size << ',' << d.private_segment_size << ','
        << register_columns(data, d.kernel_id) << ',' << d.workgroup_size.x << ','
        << d.workgroup_size.y << ',' << d.workgroup_size.z << ',' << d.grid_size.x << ','
        << d.grid_size.y << ',' << d.grid_size.z << '\n';
    return out.str();
}

std::string
memory_copy_direction_name(rocprofiler_memory_copy_operation_t operation)
{
    switch(operation)
    {
    case ROCPROFILER_MEMORY_COPY_NONE:
        return "MEMORY_COPY_NONE";
    case ROCPROFILER_MEMORY_COPY_HOST_TO_HOST:
        return "MEMORY_COPY_HOST_TO_HOST";
    case ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE:
        return "MEMORY_COPY_HOST_TO_DEVICE";
    case ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST:
        return "MEMORY_COPY_DEVICE_TO_HOST";
    case ROCPROFILER_MEMORY_COPY_DEVICE_TO_DEVICE:
        return "MEMORY_COPY_DEVICE_TO_DEVICE";
    case ROCPROFILER_MEMORY_COPY_LAST:
        break;
    }
    return "MEMORY_COPY_" + std::to_string(static_cast<int>(operation));
}

std::string
memory_copy_agent(const results& data, rocprofiler_agent_id_t id)
{
    return id.handle == 0 ? std::string{"host"} : std::to_string(agent_number(data, id));
}

namespace
{
// A side of a copy in memory_copy_trace.csv: "host", or the agent as agent_label names it.
std::string
csv_memory_copy_agent(const results& data, rocprofiler_agent_id_t id)
{
    return csv_quote(id.handle == 0 ? std::string{"host"} : agent_label(data, id));
}
} // namespace

std::string
marker_api_trace_csv_header()
{
    return "\"Domain\",\"Function\",\"Process_Id\",\"Thread_Id\",\"Correlation_Id\","
           "\"Start_Timestamp\",\"End_Timestamp\"\n";
}

std::string
marker_api_trace_csv_row(const results& data, const marker_event& e)
{
    auto out = std::ostringstream{};
    out << csv_quote(e.domain) << ',' << csv_quote(e.function) << ',' << data.pid << ','
        << e.thread_id << ',' << e.correlation_id << ',' << e.start << ',' << e.end << '\n';
    return out.str();
}

std::string
memory_copy_trace_csv_header()
{
    return "\"Kind\",\"Direction\",\"Stream_Id\",\"Source_Agent_Id\",\"Destination_Agent_Id\","
           "\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\",\"Bytes\","
           "\"Source_Address\",\"Destination_Address\",\"Thread_Id\"\n";
}

std::string
memory_copy_trace_csv_row(const results&                                         data,
                          const rocprofiler_buffer_tracing_memory_copy_record_t& r)
{
    auto out = std::ostringstream{};
    // Stream_Id: 0, as for kernel dispatches (no stream is known). Addresses in hexadecimal.
    out << csv_quote("MEMORY_COPY") << ',' << csv_quote(memory_copy_direction_name(r.operation))
        << ',' << 0 << ',' << csv_memory_copy_agent(data, r.src_agent_id) << ','
        << csv_memory_copy_agent(data, r.dst_agent_id) << ',' << r.correlation_id.internal << ','
        << r.start_timestamp << ',' << r.end_timestamp << ',' << r.bytes << ",0x" << std::hex
        << r.src_address.handle << ",0x" << r.dst_address.handle << std::dec << ',' << r.thread_id
        << '\n';
    return out.str();
}

std::string
counter_collection_csv_header()
{
    // No Replay_Pass column (spec): the JSON output carries replay_pass.
    return "\"Correlation_Id\",\"Dispatch_Id\",\"Agent_Id\",\"Queue_Id\",\"Process_Id\","
           "\"Thread_Id\",\"Grid_Size\",\"Kernel_Id\",\"Kernel_Name\",\"Workgroup_Size\","
           "\"LDS_Block_Size\",\"Scratch_Size\",\"VGPR_Count\",\"Accum_VGPR_Count\","
           "\"SGPR_Count\",\"Counter_Name\",\"Counter_Value\",\"Start_Timestamp\","
           "\"End_Timestamp\"\n";
}

std::string
counter_collection_csv_rows(const results& data, const counter_dispatch& rec)
{
    auto        out  = std::ostringstream{};
    const auto& d    = rec.data.dispatch_info;
    auto        grid = static_cast<uint64_t>(d.grid_size.x) * d.grid_size.y * d.grid_size.z;
    auto wg = static_cast<uint64_t>(d.workgroup_size.x) * d.workgroup_size.y * d.workgroup_size.z;
    for(const auto& v : rec.values)
    {
        out << rec.data.correlation_id.internal << ',' << d.dispatch_id << ','
            << csv_quote(agent_label(data, d.agent_id)) << ',' << d.queue_id.handle << ','
            << data.pid << ',' << rec.thread_id << ',' << grid << ',' << d.kernel_id << ','
            << csv_quote(data.kernel_name(d.kernel_id)) << ',' << wg << ',' << d.group_segment_size
            << ',' << d.private_segment_size << ',' << register_columns(data, d.kernel_id) << ','
            << csv_quote(v.name) << ',' << csv_counter_value(v.value) << ','
            << rec.data.start_timestamp << ',' << rec.data.end_timestamp << '\n';
    }
    return out.str();
}

std::string
signal_name(int number)
{
    switch(number)
    {
    case SIGHUP:
        return "SIGHUP";
    case SIGINT:
        return "SIGINT";
    case SIGQUIT:
        return "SIGQUIT";
    case SIGILL:
        return "SIGILL";
    case SIGTRAP:
        return "SIGTRAP";
    case SIGABRT:
        return "SIGABRT";
    case SIGBUS:
        return "SIGBUS";
    case SIGFPE:
        return "SIGFPE";
    case SIGKILL:
        return "SIGKILL";
    case SIGSEGV:
        return "SIGSEGV";
    case SIGPIPE:
        return "SIGPIPE";
    case SIGALRM:
        return "SIGALRM";
    case SIGTERM:
        return "SIGTERM";
    case SIGXCPU:
        return "SIGXCPU";
    case SIGXFSZ:
        return "SIGXFSZ";
    case SIGSYS:
        return "SIGSYS";
    default:
        return "signal " + std::to_string(number);
    }
}

std::string
symbolic_link_refusal(const std::string& path)
{
    struct stat st = {};
    if(::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode))
        return "refusing to write '" + path + "': it is a symbolic link";
    return {};
}

int
open_output(const std::string& path, int flags, mode_t mode, std::string& error)
{
    const auto fd = ::open(path.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, mode);
    if(fd >= 0) return fd;
    const auto err = errno;
    // O_NOFOLLOW answers ELOOP for a link at the last component.
    error = err == ELOOP ? symbolic_link_refusal(path) : std::string{};
    if(error.empty()) error = "could not write '" + path + "': " + errno_text(err);
    errno = err;
    return -1;
}

int
create_temporary(const std::string& path, mode_t mode, std::string& temporary)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    auto              random     = std::random_device{};
    for(int attempt = 0; attempt < 100; ++attempt)
    {
        temporary = path + ".tmp-";
        for(int i = 0; i < 12; ++i)
            temporary += alphabet[random() % (sizeof(alphabet) - 1)];
        const auto fd =
            ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if(fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

bool
write_file_atomically(const std::string&             path,
                      const std::function<int(int)>& write_contents,
                      std::vector<std::string>&      errors)
{
    // rename() would replace a link at the name, not follow it; it is refused all the same, as a
    // link at a streamed output's name is.
    if(auto refusal = symbolic_link_refusal(path); !refusal.empty())
    {
        errors.emplace_back(std::move(refusal));
        return false;
    }
    auto temporary = std::string{};
    auto fail      = [&](int err)
    {
        errors.emplace_back("could not write '" + path + "': " + errno_text(err));
        if(!temporary.empty()) unlink(temporary.c_str());
        return false;
    };
    const auto fd = create_temporary(path, 0644, temporary);
    if(fd < 0)
    {
        const auto err = errno;
        temporary.clear(); // not ours
        return fail(err);
    }
    if(auto err = write_contents(fd); err != 0)
    {
        ::close(fd);
        return fail(err);
    }
    if(::close(fd) != 0) return fail(errno);
    if(::rename(temporary.c_str(), path.c_str()) != 0) return fail(errno);
    return true;
}

bool
write_file_atomically(const std::string&        path,
                      const std::string&        contents,
                      std::vector<std::string>& errors)
{
    return write_file_atomically(
        path,
        [&contents](int fd) { return write_all(fd, contents.data(), contents.size()); },
        errors);
}

record_spill::~record_spill()
{
    remove();
}

bool
record_spill::open(const std::string& path)
{
    remove();
    m_path                 = path;
    m_fd                   = open_output(path, O_RDWR | O_CREAT | O_TRUNC, 0600, m_error);
    std::tie(m_dev, m_ino) = identity(m_fd);
    return m_fd >= 0;
}

void
record_spill::append(const nlohmann::ordered_json& record)
{
    if(m_fd < 0 || !m_error.empty()) return;
    // One record per line: compact JSON escapes every newline inside strings.
    m_buffer += record.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    m_buffer += '\n';
    ++m_count;
    if(m_buffer.size() >= (size_t{1} << 16U)) flush();
}

void
record_spill::flush()
{
    if(m_fd >= 0 && m_error.empty() && !m_buffer.empty())
    {
        m_error = descriptor_lost(m_fd, m_dev, m_ino, m_path);
        if(m_error.empty())
            if(auto err = write_all(m_fd, m_buffer.data(), m_buffer.size()); err != 0)
                m_error = "could not write '" + m_path + "': " + errno_text(err);
    }
    m_buffer.clear();
    m_buffer.shrink_to_fit();
}

int
record_spill::copy_to(int fd)
{
    flush();
    if(m_fd < 0) return 0; // nothing was spilled
    if(m_error.empty()) m_error = descriptor_lost(m_fd, m_dev, m_ino, m_path);
    if(!m_error.empty()) return EIO;
    auto       chunk      = std::string(size_t{1} << 16U, '\0');
    auto       out        = std::string{};
    auto       offset     = off_t{0};
    auto       line_start = true;
    auto       separate   = false;
    const auto end        = ::lseek(m_fd, 0, SEEK_END);
    while(offset < end)
    {
        auto n = ::pread(m_fd, chunk.data(), chunk.size(), offset);
        if(n < 0 && errno == EINTR) continue;
        if(n <= 0) return n < 0 ? errno : EIO;
        offset += n;
        out.clear();
        // The part file ends each record with a newline; the array separates them with ",\n".
        for(ssize_t i = 0; i < n; ++i)
        {
            if(chunk[static_cast<size_t>(i)] == '\n')
            {
                line_start = true;
                continue;
            }
            if(line_start)
            {
                if(separate) out += ",\n";
                separate   = true;
                line_start = false;
            }
            out += chunk[static_cast<size_t>(i)];
        }
        if(auto err = write_all(fd, out.data(), out.size()); err != 0) return err;
    }
    return 0;
}

void
record_spill::remove()
{
    if(m_fd >= 0)
    {
        if(descriptor_lost(m_fd, m_dev, m_ino, m_path).empty()) ::close(m_fd);
        ::unlink(m_path.c_str());
    }
    m_fd = -1;
    m_buffer.clear();
    m_count = 0;
}

csv_stream::~csv_stream()
{
    if(m_fd >= 0 && descriptor_lost(m_fd, m_dev, m_ino, m_path).empty()) ::close(m_fd);
}

bool
csv_stream::open(const std::string& path, const std::string& header)
{
    m_path = path;
    m_size = 0;
    m_fd   = open_output(path, O_WRONLY | O_CREAT | O_TRUNC, 0644, m_error);
    if(m_fd < 0) return false;
    std::tie(m_dev, m_ino) = identity(m_fd);
    m_buffer               = header;
    flush();
    return m_error.empty();
}

void
csv_stream::append(std::string_view rows)
{
    if(m_fd < 0 || !m_error.empty()) return;
    m_buffer.append(rows);
}

void
csv_stream::flush()
{
    if(m_fd < 0 || !m_error.empty())
    {
        m_buffer.clear();
        return;
    }
    m_error = descriptor_lost(m_fd, m_dev, m_ino, m_path);
    if(m_error.empty())
    {
        if(auto err = write_all(m_fd, m_buffer.data(), m_buffer.size()); err != 0)
        {
            m_error = "could not write '" + m_path + "': " + errno_text(err);
            // The buffer holds whole rows (packets): a write cut short (a full device, the file
            // size limit) is taken back, so that the file ends with the last complete one.
            if(::ftruncate(m_fd, static_cast<off_t>(m_size)) == 0)
                (void)::lseek(m_fd, static_cast<off_t>(m_size), SEEK_SET);
        }
        else
            m_size += m_buffer.size();
    }
    m_buffer.clear();
}

bool
csv_stream::finish(std::string& error)
{
    if(m_fd < 0)
    {
        error = m_error;
        return m_error.empty();
    }
    flush();
    if(m_error.empty())
    {
        // The file the rows went to must still be the one the path names: a directory removed
        // during the run (or the file replaced) would otherwise lose them silently.
        struct stat by_fd = {}, by_path = {};
        if(::fstat(m_fd, &by_fd) != 0)
            m_error = "could not write '" + m_path + "': " + errno_text(errno);
        else if(::stat(m_path.c_str(), &by_path) != 0)
            m_error = "could not write '" + m_path + "': " + errno_text(errno) +
                      " (it was removed during the run)";
        else if(by_fd.st_dev != by_path.st_dev || by_fd.st_ino != by_path.st_ino)
            m_error = "could not write '" + m_path + "': it was replaced during the run";
    }
    // A descriptor the application closed (and perhaps reused) is not ours to close.
    if(descriptor_lost(m_fd, m_dev, m_ino, m_path).empty() && ::close(m_fd) != 0 && m_error.empty())
        m_error = "could not write '" + m_path + "': " + errno_text(errno);
    m_fd  = -1;
    error = m_error;
    return m_error.empty();
}
} // namespace rocprofiler::tool
