#include "json/results_document.hpp"
#include "files/atomic_file.hpp"
#include "files/write_guard.hpp"
#include "model/names.hpp"
#include "model/replay_report.hpp"
#include "json/record_json.hpp"
#include "json/record_spill.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string_view>
#include <utility>

namespace rocprofiler::tool
{
namespace
{
using json = nlohmann::ordered_json;

// One member of an object of the document: a fixed value, the records of a part file (spill set),
// or an object written member by member (members not empty).
struct member
{
    std::string_view    key     = {};
    json                value   = {};
    record_spill*       spill   = nullptr;
    std::vector<member> members = {};
};

// Writes the document to a descriptor in order, buffered. The first write error stops it.
class document_writer
{
public:
    explicit document_writer(int fd)
        : m_fd{fd}
    {
    }

    void text(std::string_view s)
    {
        m_buffer.append(s);
        if(m_buffer.size() >= (size_t{1} << 16U)) flush();
    }

    // @p v as nlohmann's dump with an indent of one writes it at @p depth: its nested lines are
    // indented by depth more (strings hold no raw newline, so every newline is layout). Invalid
    // UTF-8 in a string (a kernel name, an argument) has each bad byte replaced by U+FFFD.
    void value(const json& v, size_t depth)
    {
        for(char c : v.dump(1, ' ', false, json::error_handler_t::replace))
        {
            m_buffer += c;
            if(c == '\n') m_buffer.append(depth, ' ');
        }
        if(m_buffer.size() >= (size_t{1} << 16U)) flush();
    }

    // A spilled array: its records copied from the part file, compact, separated by ",\n".
    void spill(record_spill& part)
    {
        text("[");
        flush();
        if(m_error == 0) m_error = part.copy_to(m_fd);
        text("]");
    }

    void object(const std::vector<member>& members, size_t depth)
    {
        if(members.empty()) return text("{}");
        text("{\n");
        for(size_t i = 0; i < members.size(); ++i)
        {
            const auto& m = members[i];
            m_buffer.append(depth + 1, ' ');
            text(json(std::string{m.key}).dump());
            text(": ");
            if(m.spill != nullptr)
                spill(*m.spill);
            else if(!m.members.empty())
                object(m.members, depth + 1);
            else
                value(m.value, depth + 1);
            text(i + 1 < members.size() ? ",\n" : "\n");
        }
        m_buffer.append(depth, ' ');
        text("}");
    }

    // 0, or the errno of the first write that failed.
    int finish()
    {
        flush();
        return m_error;
    }

private:
    void flush()
    {
        if(m_error == 0 && !m_buffer.empty())
            m_error = write_all(m_fd, m_buffer.data(), m_buffer.size());
        m_buffer.clear();
    }

    int         m_fd     = -1;
    int         m_error  = 0;
    std::string m_buffer = {};
};

json
metadata_json(const config& cfg, const results& data)
{
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
    return json{{"pid", data.pid},
                {"init_time", data.init_time},
                {"fini_time", data.fini_time},
                {"command", data.command},
                {"kernel_replay", cfg.kernel_replay},
                {"dropped_records", data.dropped_records},
                {"pc_samples_dropped", data.pc_samples_dropped},
                {"end", end}};
}

json
counters_json(const results& data)
{
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
    return counters;
}

// Field names as upstream rocprofv3 writes them (the symbol payload's members).
json
kernel_symbols_json(const results& data)
{
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
    return symbols;
}

json
code_objects_json(const results& data)
{
    auto code_objects = json::array();
    for(const auto& [id, co] : data.code_objects)
        code_objects.push_back(json{{"code_object_id", id},
                                    {"agent_id", {{"handle", co.agent.handle}}},
                                    {"uri", co.uri},
                                    {"load_base", co.load_base},
                                    {"load_size", co.load_size},
                                    {"load_delta", co.load_delta}});
    return code_objects;
}

json
strings_json()
{
    auto copy_directions = json::array();
    for(auto op : {ROCPROFILER_MEMORY_COPY_NONE,
                   ROCPROFILER_MEMORY_COPY_HOST_TO_HOST,
                   ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE,
                   ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST,
                   ROCPROFILER_MEMORY_COPY_DEVICE_TO_DEVICE})
        copy_directions.push_back(memory_copy_direction_name(op));
    return json{
        {"buffer_records",
         json::array(
             {json{{"kind", "KERNEL_DISPATCH"}, {"operations", {"NONE", "ENQUEUE", "COMPLETE"}}},
              json{{"kind", "MEMORY_COPY"}, {"operations", copy_directions}}})},
        {"callback_records",
         json::array({json{{"kind", "KERNEL_REPLAY"}, {"operations", {"NONE", "CONFIG", "PASS"}}},
                      json{{"kind", "CODE_OBJECT"},
                           {"operations",
                            {"NONE",
                             "LOAD",
                             "DEVICE_KERNEL_SYMBOL_REGISTER",
                             "HOST_KERNEL_SYMBOL_REGISTER"}}}})}};
}

// A record array: its part file when it has one; else the records kept in memory, converted by
// @p to_json, when @p traced; else empty.
template <typename Records, typename ToJson>
member
records_member(
    std::string_view key, record_spill* spill, bool traced, const Records& records, ToJson to_json)
{
    auto out = member{key, json::array(), spill};
    if(spill == nullptr && traced)
        for(const auto& r : records)
            out.value.push_back(to_json(r));
    return out;
}

// The members of the tool's object, in the document's order. Dispatch records gathered only for
// --stats / --summary are not part of the trace.
std::vector<member>
tool_members(const config&         cfg,
             const results&        data,
             const replay_report&  report,
             const results_spills& spills)
{
    auto agents = json::array();
    for(const auto& a : data.agents)
        agents.push_back(agent_json(a));
    auto callback_records = std::vector<member>{records_member("counter_collection",
                                                               spills.counter_collection,
                                                               true,
                                                               data.counter_records,
                                                               counter_record_json)};
    if(cfg.kernel_replay)
        callback_records.push_back(
            member{"kernel_replay_outcome", json::array(), spills.kernel_replay_outcome});
    auto buffer_records = std::vector<member>{
        records_member("kernel_dispatch",
                       spills.kernel_dispatch,
                       cfg.kernel_trace,
                       data.dispatches,
                       dispatch_record_json),
        records_member("memory_copy",
                       spills.memory_copy,
                       cfg.memory_copy_trace,
                       data.memory_copies,
                       memory_copy_record_json),
        records_member(
            "marker_api", spills.marker_api, cfg.marker_trace, data.markers, marker_event_json),
        records_member(
            "cuda_api", spills.cuda_api, cfg.cuda_api_trace(), data.api_calls, marker_event_json)};
    // PC samples are never kept in memory: without their part file (it could not be opened, which
    // was reported) the arrays are empty.
    if(cfg.pc_sampling())
    {
        buffer_records.push_back(
            member{"pc_sample_host_trap", json::array(), spills.pc_sample_host_trap});
        buffer_records.push_back(
            member{"pc_sample_stochastic", json::array(), spills.pc_sample_stochastic});
    }
    auto out = std::vector<member>{};
    out.push_back(member{"metadata", metadata_json(cfg, data)});
    out.push_back(member{"agents", std::move(agents)});
    out.push_back(member{"counters", counters_json(data)});
    out.push_back(member{"strings", strings_json()});
    out.push_back(member{"code_objects", code_objects_json(data)});
    out.push_back(member{"kernel_symbols", kernel_symbols_json(data)});
    out.push_back(member{"callback_records", {}, nullptr, std::move(callback_records)});
    out.push_back(member{"buffer_records", {}, nullptr, std::move(buffer_records)});
    if(cfg.kernel_replay)
    {
        out.push_back(member{"kernel_replay_summary", replay_summary_json(report)});
        out.push_back(member{"kernel_replay_plan", replay_plan_json(data)});
    }
    return out;
}
} // namespace

bool
write_results_json(const std::string&        path,
                   const config&             cfg,
                   const results&            data,
                   const replay_report&      report,
                   const results_spills&     spills,
                   std::vector<std::string>& errors)
{
    const auto members = tool_members(cfg, data, report, spills);
    return write_file_atomically(
        path,
        [&members](int fd)
        {
            auto out = document_writer{fd};
            out.text("{\n \"rocprofiler-sdk-tool\": [\n  ");
            out.object(members, 2);
            out.text("\n ]\n}\n");
            return out.finish();
        },
        errors);
}
} // namespace rocprofiler::tool
