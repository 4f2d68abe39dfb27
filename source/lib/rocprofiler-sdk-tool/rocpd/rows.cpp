#if defined(ROCPROFILER_TOOL_HAVE_SQLITE3)
#    include "files/write_guard.hpp"
#    include "model/graph_node.hpp"
#    include "model/names.hpp"
#    include "model/replay_report.hpp"
#    include "rocpd/rocpd_writer.hpp"
#    include "rocpd/sqlite_bind.hpp"
#    include "untrusted/utf8.hpp"

#    include <nlohmann/json.hpp>

#    include <sqlite3.h>

#    include <algorithm>
#    include <map>
#    include <string_view>
#    include <utility>

namespace rocprofiler::tool
{
using namespace rocpd;

void
rocpd_writer::code_object(const code_object_entry& entry)
{
    if(!usable()) return;
    begin();
    auto* stmt =
        prepare("INSERT OR REPLACE INTO rocpd_info_code_object{{uuid}} (id, guid, nid, pid, "
                "agent_id, uri, load_base, load_size, load_delta, storage_type) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    // The agent's row id (its number), as every other reference to an agent.
    const auto agent = m_agent_numbers.find(entry.agent.handle);
    bind_all(stmt,
             entry.id,
             m_guid,
             node_row,
             process_row,
             agent != m_agent_numbers.end() ? agent->second : entry.agent.handle,
             entry.uri,
             entry.load_base,
             entry.load_size,
             entry.load_delta,
             entry.uri.rfind("file://", 0) == 0 ? "FILE" : "MEMORY");
    step(stmt);
}

void
rocpd_writer::kernel(const kernel_symbol& sym)
{
    if(!usable()) return;
    if(auto it = m_kernels.find(sym.kernel_id); it != m_kernels.end() && it->second) return;
    begin();
    auto* stmt = prepare(
        "INSERT OR REPLACE INTO rocpd_info_kernel_symbol{{uuid}} (id, guid, nid, pid, "
        "code_object_id, "
        "kernel_name, display_name, kernel_object, kernarg_segment_size, "
        "kernarg_segment_alignment, group_segment_size, private_segment_size, sgpr_count, "
        "arch_vgpr_count, accum_vgpr_count, extdata) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
        "?, ?, ?, ?)");
    auto ext = nlohmann::json{{"reported", sym.reported}};
    bind_all(stmt,
             sym.kernel_id,
             m_guid,
             node_row,
             process_row,
             sym.code_object_id,
             sym.name,
             sym.name,
             sym.kernel_object,
             static_cast<uint64_t>(sym.kernarg_segment_size),
             static_cast<uint64_t>(sym.kernarg_segment_alignment),
             static_cast<uint64_t>(sym.group_segment_size),
             static_cast<uint64_t>(sym.private_segment_size),
             static_cast<uint64_t>(sym.sgpr_count),
             static_cast<uint64_t>(sym.arch_vgpr_count),
             static_cast<uint64_t>(sym.accum_vgpr_count),
             ext.dump());
    if(!step(stmt)) return;
    if(!untrusted::is_valid_utf8(sym.name) &&
       !raw_name("rocpd_info_kernel_symbol", static_cast<int64_t>(sym.kernel_id), sym.name))
        return;
    m_kernels[sym.kernel_id] = sym.reported;
}

void
rocpd_writer::ensure_kernel(const results& data, uint64_t kernel_id)
{
    if(m_kernels.count(kernel_id) != 0) return;
    if(const auto* sym = data.find_symbol(kernel_id))
        kernel(*sym);
    else
    {
        auto placeholder      = kernel_symbol{};
        placeholder.kernel_id = kernel_id;
        placeholder.name      = "kernel_" + std::to_string(kernel_id);
        placeholder.reported  = false;
        kernel(placeholder);
    }
}

void
rocpd_writer::ensure_thread(uint64_t tid)
{
    if(!m_threads.insert(tid).second) return;
    auto* stmt =
        prepare("INSERT OR IGNORE INTO rocpd_info_thread{{uuid}} (id, guid, nid, pid, tid) "
                "VALUES (?, ?, ?, ?, ?)");
    bind_all(stmt, tid, m_guid, node_row, process_row, tid);
    step(stmt);
}

int64_t
rocpd_writer::host_agent(const results& data)
{
    if(m_host_agent) return *m_host_agent;
    // Past every agent the SDK reported (their rows' ids are their numbers).
    auto id = int64_t{0};
    for(const auto& a : data.agents)
        id = std::max(id, static_cast<int64_t>(agent_number(data, a.info.id)) + 1);
    auto* stmt = prepare("INSERT INTO rocpd_info_agent{{uuid}} (id, guid, nid, pid, type, "
                         "absolute_index, logical_index, type_index, uuid, name, model_name, "
                         "vendor_name, product_name, user_name, extdata) VALUES (?, ?, ?, ?, "
                         "'CPU', ?, ?, 0, 0, 'host', 'host memory', '', 'host memory', "
                         "'host memory', ?)");
    bind_all(stmt, id, m_guid, node_row, process_row, id, id, "{\"host_memory\":true}");
    if(!step(stmt)) return 0;
    m_host_agent = id;
    return id;
}

void
rocpd_writer::ensure_queue(uint64_t queue)
{
    if(!m_queues.insert(queue).second) return;
    auto* stmt = prepare("INSERT OR IGNORE INTO rocpd_info_queue{{uuid}} (id, guid, nid, pid, "
                         "name) VALUES (?, ?, ?, ?, ?)");
    bind_all(stmt, queue, m_guid, node_row, process_row, "queue " + std::to_string(queue));
    step(stmt);
}

bool
rocpd_writer::insert_dispatch(const results&                            data,
                              const rocprofiler_kernel_dispatch_info_t& info,
                              uint64_t                                  thread_id,
                              uint64_t                                  correlation,
                              uint64_t                                  start,
                              uint64_t                                  end,
                              const std::string&                        extdata,
                              bool                                      from_trace)
{
    begin();
    ensure_kernel(data, info.kernel_id);
    ensure_thread(thread_id);
    ensure_queue(info.queue_id.handle);
    auto category = string_id("KERNEL_DISPATCH");
    // AMD's kernels view keeps only dispatches with a region name (AMD writes the enclosing
    // marker range there when kernels are renamed, else the kernel's name): the kernel's name.
    const auto& kernel_name = data.kernel_name(info.kernel_id);
    auto        region =
        string_id(kernel_name.empty() ? "kernel_" + std::to_string(info.kernel_id) : kernel_name);
    // The event of a dispatch has the dispatch id as its id: kernel trace records and counter
    // records, which arrive in either order, find it without a look-up.
    auto* event =
        prepare("INSERT OR IGNORE INTO rocpd_event{{uuid}} (id, guid, category_id, stack_id, "
                "parent_stack_id, correlation_id) VALUES (?, ?, ?, ?, 0, ?)");
    bind_all(event, info.dispatch_id, m_guid, category, correlation, correlation);
    if(!step(event)) return false;
    // A kernel trace record is the dispatch as kernel_trace.csv shows it (submitting thread,
    // times): it replaces a row made from a counter record that came first, never one made from
    // another kernel trace record (a replay pass: dispatch() keeps its times in extdata). The
    // counter record's thread and times, when they are not the trace record's (its thread is the
    // one that completed the dispatch), move to extdata's counter_records, as counters() keeps
    // them, so that counter_collection.csv can be rebuilt from the database.
    auto* stmt = prepare(
        from_trace
            ? "INSERT INTO rocpd_kernel_dispatch{{uuid}} (id, guid, nid, pid, tid, agent_id, "
              "kernel_id, "
              "dispatch_id, queue_id, stream_id, start, end, private_segment_size, "
              "group_segment_size, workgroup_size_x, workgroup_size_y, workgroup_size_z, "
              "grid_size_x, grid_size_y, grid_size_z, region_name_id, event_id, extdata) VALUES "
              "(?, "
              "?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) "
              "DO UPDATE SET "
              "tid = excluded.tid, start = excluded.start, end = excluded.end, extdata = "
              "CASE WHEN tid = excluded.tid AND start = excluded.start AND \"end\" = "
              "excluded.\"end\" THEN json_set(extdata, '$.source', 'kernel_trace') ELSE "
              "json_insert(json_insert(json_set(extdata, '$.source', 'kernel_trace'), "
              "'$.counter_records', json('[]')), '$.counter_records[#]', "
              "json_patch(json_object('tid', tid, 'start', start, 'end', \"end\"), "
              "json_object('replay_pass', json_extract(extdata, '$.replay_pass')))) END "
              "WHERE json_extract(extdata, '$.source') = 'counter_collection'"
            : "INSERT OR IGNORE INTO rocpd_kernel_dispatch{{uuid}} (id, guid, nid, pid, tid, "
              "agent_id, "
              "kernel_id, dispatch_id, queue_id, stream_id, start, end, private_segment_size, "
              "group_segment_size, workgroup_size_x, workgroup_size_y, workgroup_size_z, "
              "grid_size_x, grid_size_y, grid_size_z, region_name_id, event_id, extdata) VALUES "
              "(?, "
              "?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_all(stmt,
             info.dispatch_id,
             m_guid,
             node_row,
             process_row,
             thread_id,
             agent_number(data, info.agent_id),
             info.kernel_id,
             info.dispatch_id,
             info.queue_id.handle,
             start,
             end,
             static_cast<uint64_t>(info.private_segment_size),
             static_cast<uint64_t>(info.group_segment_size),
             static_cast<uint64_t>(info.workgroup_size.x),
             static_cast<uint64_t>(info.workgroup_size.y),
             static_cast<uint64_t>(info.workgroup_size.z),
             static_cast<uint64_t>(info.grid_size.x),
             static_cast<uint64_t>(info.grid_size.y),
             static_cast<uint64_t>(info.grid_size.z),
             region,
             info.dispatch_id,
             extdata);
    if(!step(stmt)) return false;
    return sqlite3_changes(m_db) > 0;
}

void
rocpd_writer::dispatch(const results&                                             data,
                       const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r)
{
    if(!usable()) return;
    auto ext = nlohmann::json{{"source", "kernel_trace"}};
    // A graph's kernel node (experimental/graph.h): its ids in extdata, which AMD's readers
    // leave alone.
    if(auto node = graph_node_of(r.dispatch_info))
    {
        ext["graph_id"]      = node->graph_id;
        ext["graph_node_id"] = node->node_id;
    }
    if(insert_dispatch(data,
                       r.dispatch_info,
                       r.thread_id,
                       r.correlation_id.internal,
                       r.start_timestamp,
                       r.end_timestamp,
                       ext.dump(),
                       true))
    {
        commit_if_large();
        return;
    }
    if(m_db == nullptr) return;
    // The row already holds a kernel trace record of this dispatch: this one is a further replay
    // pass, whose times are kept in extdata rather than lost.
    auto* stmt = prepare(
        "UPDATE rocpd_kernel_dispatch{{uuid}} SET extdata = json_insert(json_insert(extdata, "
        "'$.kernel_trace_records', json('[]')), '$.kernel_trace_records[#]', "
        "json_object('start', ?, 'end', ?)) WHERE id = ?");
    bind_all(stmt, r.start_timestamp, r.end_timestamp, r.dispatch_info.dispatch_id);
    step(stmt);
    commit_if_large();
}

int64_t
rocpd_writer::pmc_id(const results&         data,
                     rocprofiler_agent_id_t agent,
                     uint64_t               counter_id,
                     const std::string&     fallback_name)
{
    auto key = std::make_pair(agent.handle, counter_id);
    if(auto it = m_pmc.find(key); it != m_pmc.end()) return it->second;
    const counter_entry* found = nullptr;
    for(const auto& c : data.counters)
        if(c.id == counter_id && (c.agent.handle == agent.handle || found == nullptr)) found = &c;
    auto entry = found != nullptr ? *found : counter_entry{};
    if(found == nullptr)
        entry.name =
            !fallback_name.empty() ? fallback_name : "counter_" + std::to_string(counter_id);
    auto* stmt =
        prepare("INSERT INTO rocpd_info_pmc{{uuid}} (guid, nid, pid, agent_id, target_arch, "
                "event_code, name, symbol, description, component, value_type, block, "
                "expression, is_constant, is_derived, extdata) VALUES (?, ?, ?, ?, "
                "'GPU', ?, ?, ?, ?, ?, 'ABS', ?, ?, ?, ?, ?)");
    bind_all(stmt,
             m_guid,
             node_row,
             process_row,
             agent_number(data, agent),
             counter_id,
             entry.name,
             entry.name,
             entry.description,
             entry.block,
             entry.block,
             entry.expression,
             static_cast<int64_t>(entry.is_constant),
             static_cast<int64_t>(entry.is_derived),
             nlohmann::json{{"counter_id", counter_id}}.dump());
    if(!step(stmt)) return 0;
    auto id = sqlite3_last_insert_rowid(m_db);
    m_pmc.emplace(key, id);
    return id;
}

void
rocpd_writer::counters(const results& data, const counter_dispatch& rec)
{
    if(!usable()) return;
    const auto& info = rec.data.dispatch_info;
    auto        ext  = nlohmann::json{{"source", "counter_collection"}};
    if(rec.replay_pass) ext["replay_pass"] = *rec.replay_pass;
    const bool made_row = insert_dispatch(data,
                                          info,
                                          rec.thread_id,
                                          rec.data.correlation_id.internal,
                                          rec.data.start_timestamp,
                                          rec.data.end_timestamp,
                                          ext.dump(),
                                          false);
    if(!made_row && m_db != nullptr)
    {
        // The row holds another record (the kernel trace record, or another pass's counter
        // record): this record's thread and times are kept in extdata's counter_records when
        // they are not the row's (counter_collection.csv shows them).
        auto* keep = prepare(
            "UPDATE rocpd_kernel_dispatch{{uuid}} SET extdata = json_insert(json_insert(extdata, "
            "'$.counter_records', json('[]')), '$.counter_records[#]', json_patch(json_object("
            "'tid', ?1, 'start', ?2, 'end', ?3), json_object('replay_pass', ?4))) WHERE id = ?5 "
            "AND (tid IS NOT ?1 OR start IS NOT ?2 OR \"end\" IS NOT ?3)");
        bind_all(keep,
                 rec.thread_id,
                 rec.data.start_timestamp,
                 rec.data.end_timestamp,
                 rec.replay_pass,
                 info.dispatch_id);
        if(!step(keep)) return;
    }
    auto pmc_ext = rec.replay_pass ? nlohmann::json{{"replay_pass", *rec.replay_pass}}.dump()
                                   : std::string{"{}"};
    for(const auto& v : rec.values)
    {
        auto id = pmc_id(data, info.agent_id, v.counter_id, v.name);
        if(m_db == nullptr) return;
        auto* stmt = prepare("INSERT INTO rocpd_pmc_event{{uuid}} (guid, event_id, pmc_id, value, "
                             "extdata) VALUES (?, ?, ?, ?, ?)");
        bind_all(stmt, m_guid, info.dispatch_id, id, v.value, pmc_ext);
        if(!step(stmt)) return;
    }
    commit_if_large();
}

void
rocpd_writer::memory_copy(const results&                                         data,
                          const rocprofiler_buffer_tracing_memory_copy_record_t& r)
{
    if(!usable()) return;
    begin();
    ensure_thread(r.thread_id);
    auto category = string_id("MEMORY_COPY");
    auto name     = string_id(memory_copy_direction_name(r.operation));
    // Copy events take ids from memory_copy_event_base up, above every dispatch id (a dispatch's
    // event id is its dispatch id), so that the two never meet.
    const auto event_id = memory_copy_event_base + m_copies++;
    auto*      event = prepare("INSERT INTO rocpd_event{{uuid}} (id, guid, category_id, stack_id, "
                               "parent_stack_id, correlation_id) VALUES (?, ?, ?, ?, 0, ?)");
    bind_all(
        event, event_id, m_guid, category, r.correlation_id.internal, r.correlation_id.internal);
    if(!step(event)) return;
    // A side in host memory (agent handle 0) is the host's CPU agent row (AMD's memory_copies
    // view keeps only copies whose both sides are agents).
    auto agent = [this, &data](rocprofiler_agent_id_t id) -> int64_t
    {
        if(id.handle == 0) return host_agent(data);
        return static_cast<int64_t>(agent_number(data, id));
    };
    const auto dst = agent(r.dst_agent_id);
    const auto src = agent(r.src_agent_id);
    if(m_db == nullptr) return;
    auto  ext = nlohmann::json{{"external_correlation_id", r.correlation_id.external.value},
                              {"operation", static_cast<int>(r.operation)}};
    auto* row =
        prepare("INSERT INTO rocpd_memory_copy{{uuid}} (guid, nid, pid, tid, stream_id, start, "
                "end, name_id, dst_agent_id, dst_address, src_agent_id, src_address, "
                "size, event_id, extdata) VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, "
                "?, ?, ?)");
    bind_all(row,
             m_guid,
             node_row,
             process_row,
             r.thread_id,
             r.start_timestamp,
             r.end_timestamp,
             name,
             dst,
             r.dst_address.handle,
             src,
             r.src_address.handle,
             r.bytes,
             event_id,
             ext.dump());
    step(row);
    commit_if_large();
}

void
rocpd_writer::marker(const results&, const marker_event& e)
{
    if(!usable()) return;
    begin();
    ensure_thread(e.thread_id);
    auto category = string_id(e.domain);
    auto name     = string_id(e.function);
    // Marker events take ids from marker_event_base up (above the copies' range).
    const auto event_id = marker_event_base + m_markers++;
    auto*      event = prepare("INSERT INTO rocpd_event{{uuid}} (id, guid, category_id, stack_id, "
                               "parent_stack_id, correlation_id) VALUES (?, ?, ?, ?, 0, ?)");
    bind_all(event, event_id, m_guid, category, e.correlation_id, e.correlation_id);
    if(!step(event)) return;
    auto* row =
        prepare("INSERT INTO rocpd_region{{uuid}} (guid, nid, pid, tid, start, end, name_id, "
                "event_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    bind_all(row, m_guid, node_row, process_row, e.thread_id, e.start, e.end, name, event_id);
    step(row);
    commit_if_large();
}

void
rocpd_writer::replay_outcome(const results&               data,
                             const tool::replay_outcome&  o,
                             const std::vector<uint64_t>& missing)
{
    if(!usable()) return;
    begin();
    auto* stmt = prepare(
        "INSERT INTO rocprofv3_kernel_replay_outcome{{uuid}} (dispatch_id, agent_id, kernel_id, "
        "outcome, "
        "reason, passes_run, passes_planned, snapshot_bytes, written_bytes, verified_bytes, "
        "failed_pass, missing_groups) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_all(stmt,
             o.dispatch_id,
             agent_number(data, o.agent),
             o.kernel_id,
             std::string{outcome_name(o.kind)},
             o.reason,
             o.passes_run,
             o.passes_planned,
             o.snapshot_bytes,
             o.written_bytes,
             o.verified_bytes,
             o.failed_pass,
             nlohmann::json(missing).dump());
    step(stmt);
    commit_if_large();
}
} // namespace rocprofiler::tool
#endif
