// Validates <P>_results.db (-f rocpd) against the CSV files of the same run: the database is
// opened by SQLite itself (an interrupted batch is rolled back by this open), checked with
// integrity_check, and queried through AMD's view names (the per-table views and kernels,
// memory_copies, regions, counters_collection); its tables carry the run's uuid as suffix.
//   --dir D --prefix P     the outputs
//   --counters             counter_collection.csv exists: every value is in counters_collection,
//                          the CSV's Counter_Value being the form of its value (6 decimals when
//                          >= 1, 8 mantissa decimals below 1) and the text the database's value
//                          has in that form
//   --dispatches N         rocpd_kernel_dispatch has exactly N rows
//   --declined N           rocprofv3_kernel_replay_outcome has N DECLINED rows
//   --copies               memory_copy_trace.csv exists: its rows are exactly the rows of the
//                          memory_copies view (direction, times, bytes, agents, correlation id,
//                          addresses), each with the category MEMORY_COPY; the CSV's agents
//                          "Agent N" are the database's agent N, "host" its host side
// kernel_trace.csv, when there, is checked against the kernels view: each row's dispatch with the
// same kernel, times, queue, thread, sizes and agent (the CSV's "Agent N": the database's agent_id
// N; the CSV files must use that form, the default -A).
//   --markers              marker_api_trace.csv exists: its rows are exactly the rows of the
//                          regions view, as a multiset of (category, name, pid, tid, corr_id,
//                          start, end) = (Domain, Function, Process_Id, Thread_Id,
//                          Correlation_Id, Start_Timestamp, End_Timestamp); rocpd_region (one row
//                          per marker row, its rocpd_event holding the Domain as category_id's
//                          string and the Correlation_Id) and the view have upstream's columns
//                          and as many rows, and every duration is end - start. Without
//                          --markers, rocpd_region and regions have no row (a database without
//                          them has none)
//   --end KIND             rocpd_info_process.extdata names how the run ended (exit, signal,
//                          or none: the process was killed before the tool could say)
#include "csv_rows.hpp"

#include <cstdint>
#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace
{
[[noreturn]] void
fail(const std::string& message)
{
    std::fprintf(stderr, "validate_rocpd: FAIL: %s\n", message.c_str());
    std::exit(1);
}

using rocprofv3_validate::column;
using rocprofv3_validate::read_csv_or_fail;

using row_t = std::vector<std::string>;

std::vector<row_t>
query(sqlite3* db, const std::string& sql)
{
    sqlite3_stmt* stmt = nullptr;
    if(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
        fail("query '" + sql + "': " + sqlite3_errmsg(db));
    auto rows = std::vector<row_t>{};
    int  rc   = 0;
    while((rc = sqlite3_step(stmt)) == SQLITE_ROW)
    {
        auto row = row_t{};
        for(int i = 0; i < sqlite3_column_count(stmt); ++i)
        {
            const auto* text = sqlite3_column_text(stmt, i);
            row.emplace_back(text != nullptr ? reinterpret_cast<const char*>(text) : "NULL");
        }
        rows.push_back(std::move(row));
    }
    if(rc != SQLITE_DONE) fail("query '" + sql + "': " + sqlite3_errmsg(db));
    sqlite3_finalize(stmt);
    return rows;
}

uint64_t
count(sqlite3* db, const std::string& from)
{
    return std::stoull(query(db, "SELECT COUNT(*) FROM " + from).at(0).at(0));
}

// Whether the database has a table or view of that name.
bool
exists(sqlite3* db, const std::string& name)
{
    return count(db, "sqlite_master WHERE name = '" + name + "'") > 0;
}

// The column names of a table or view, in order.
row_t
columns_of(sqlite3* db, const std::string& name)
{
    auto names = row_t{};
    for(auto& r : query(db, "SELECT name FROM pragma_table_info('" + name + "')"))
        names.push_back(r.at(0));
    return names;
}

std::string
joined(const row_t& fields)
{
    auto text = std::string{};
    for(const auto& f : fields)
        text += (text.empty() ? "" : ", ") + f;
    return text;
}

// A row `a` holds more often than `b` does (nothing when `b` holds every row of `a` as often).
std::optional<row_t>
surplus(const std::multiset<row_t>& a, const std::multiset<row_t>& b)
{
    for(auto it = a.begin(); it != a.end(); it = a.upper_bound(*it))
        if(a.count(*it) > b.count(*it)) return *it;
    return std::nullopt;
}
} // namespace

int
main(int argc, char** argv)
{
    auto dir = std::string{}, prefix = std::string{}, end = std::string{};
    bool counters   = false;
    bool copies     = false;
    bool markers    = false;
    long declined   = -1;
    long dispatches = -1;
    for(auto args = rocprofv3_validate::arguments{argc, argv, fail}; args.next();)
    {
        if(args.is("--dir"))
            dir = args.value();
        else if(args.is("--prefix"))
            prefix = args.value();
        else if(args.is("--counters"))
            counters = true;
        else if(args.is("--copies"))
            copies = true;
        else if(args.is("--markers"))
            markers = true;
        else if(args.is("--declined"))
            declined = std::stol(args.value());
        else if(args.is("--dispatches"))
            dispatches = std::stol(args.value());
        else if(args.is("--end"))
            end = args.value();
        else
            args.unknown();
    }
    const auto base = dir + "/" + prefix + "_";
    const auto path = base + "results.db";
    if(!rocprofv3_validate::read_file(path)) fail("missing file " + path);
    sqlite3* db = nullptr;
    // Read-write: a batch cut by the process's end is rolled back by this open, as by any reader.
    if(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK)
        fail("cannot open " + path + ": " + sqlite3_errmsg(db));
    auto integrity = query(db, "PRAGMA integrity_check");
    if(integrity.size() != 1 || integrity[0][0] != "ok")
        fail(path + " fails integrity_check: " + integrity.at(0).at(0));

    for(const auto* name : {"rocpd_metadata",
                            "rocpd_string",
                            "rocpd_info_node",
                            "rocpd_info_process",
                            "rocpd_info_thread",
                            "rocpd_info_agent",
                            "rocpd_info_queue",
                            "rocpd_info_stream",
                            "rocpd_info_pmc",
                            "rocpd_info_code_object",
                            "rocpd_info_kernel_symbol",
                            "rocpd_track",
                            "rocpd_event",
                            "rocpd_arg",
                            "rocpd_pmc_event",
                            "rocpd_kernel_dispatch",
                            "rocpd_memory_copy",
                            "kernels",
                            "memory_copies",
                            "counters_collection"})
        (void)count(db, name);
    // AMD's layout: the run's uuid in rocpd_metadata is the suffix of every table's name.
    const auto uuid = query(db, "SELECT value FROM rocpd_metadata WHERE tag = 'uuid'");
    if(uuid.size() != 1) fail("rocpd_metadata does not have one uuid");
    for(const auto* name : {"rocpd_metadata", "rocpd_kernel_dispatch", "rocpd_memory_copy"})
        if(count(db,
                 "sqlite_master WHERE type = 'table' AND name = '" + std::string{name} +
                     uuid[0][0] + "'") != 1)
            fail(std::string{"no table "} + name + uuid[0][0]);
    if(count(db, "rocpd_info_node") != 1) fail("rocpd_info_node does not have one row");
    if(count(db, "rocpd_info_process") != 1) fail("rocpd_info_process does not have one row");
    if(count(db, "rocpd_info_agent WHERE type = 'GPU'") == 0)
        fail("no GPU agent in rocpd_info_agent");

    // Every kernel_trace.csv row is a dispatch with the same kernel, agent and times.
    auto kernel_rows = std::map<std::string, row_t>{};
    for(auto& r : query(db,
                        "SELECT k.dispatch_id, k.name, kd.agent_id, k.start, k.\"end\", "
                        "k.queue_id, k.tid, k.grid_x, k.workgroup_x FROM kernels AS k JOIN "
                        "rocpd_kernel_dispatch AS kd ON kd.id = k.id AND kd.guid = k.guid"))
        if(!kernel_rows.emplace(r[0], r).second)
            fail("dispatch " + r[0] + " appears twice in the kernels view");
    if(kernel_rows.size() != count(db, "rocpd_kernel_dispatch"))
        fail("the kernels view and rocpd_kernel_dispatch differ in rows");
    if(dispatches >= 0 && kernel_rows.size() != static_cast<size_t>(dispatches))
        fail(std::to_string(kernel_rows.size()) +
             " dispatches in rocpd_kernel_dispatch, expected " + std::to_string(dispatches));
    const auto trace_path = base + "kernel_trace.csv";
    if(rocprofv3_validate::read_file(trace_path))
    {
        auto        rows  = read_csv_or_fail(trace_path, fail);
        const auto& h     = rows[0];
        auto        id    = column(h, "Dispatch_Id", trace_path, fail);
        auto        name  = column(h, "Kernel_Name", trace_path, fail);
        auto        agent = column(h, "Agent_Id", trace_path, fail);
        auto        start = column(h, "Start_Timestamp", trace_path, fail);
        auto        stop  = column(h, "End_Timestamp", trace_path, fail);
        auto        queue = column(h, "Queue_Id", trace_path, fail);
        auto        tid   = column(h, "Thread_Id", trace_path, fail);
        auto        grid  = column(h, "Grid_Size_X", trace_path, fail);
        auto        wg    = column(h, "Workgroup_Size_X", trace_path, fail);
        auto        seen  = std::map<std::string, size_t>{};
        for(size_t i = 1; i < rows.size(); ++i)
        {
            const auto& r  = rows[i];
            auto        it = kernel_rows.find(r[id]);
            if(it == kernel_rows.end())
                fail("dispatch " + r[id] + " of " + trace_path + " is not in the database");
            const auto& k = it->second;
            if(seen[r[id]]++ > 0) continue; // a replay pass: the row holds the first record
            if(k[1] != r[name])
                fail("dispatch " + r[id] + ": kernel '" + k[1] + "', CSV '" + r[name] + "'");
            const auto agent_number = rocprofv3_validate::agent_number_of(
                r[agent], trace_path + " row " + std::to_string(i) + " Agent_Id", fail);
            if(k[2] != agent_number || k[5] != r[queue] || k[6] != r[tid] || k[7] != r[grid] ||
               k[8] != r[wg])
                fail("dispatch " + r[id] + ": agent/queue/thread/grid/workgroup (" + k[2] + ", " +
                     k[5] + ", " + k[6] + ", " + k[7] + ", " + k[8] + ") differ from the CSV's ('" +
                     r[agent] + "', " + r[queue] + ", " + r[tid] + ", " + r[grid] + ", " + r[wg] +
                     ")");
            if(k[3] != r[start] || k[4] != r[stop])
                fail("dispatch " + r[id] + ": times " + k[3] + ".." + k[4] + ", CSV " + r[start] +
                     ".." + r[stop]);
        }
        // Every further record of a dispatch (a replay pass) is in its extdata, none is lost.
        auto records =
            std::stoull(query(db,
                              "SELECT COUNT(*) + COALESCE(SUM(json_array_length(extdata, "
                              "'$.kernel_trace_records')), 0) FROM rocpd_kernel_dispatch WHERE "
                              "json_extract(extdata, '$.source') = 'kernel_trace'")
                            .at(0)
                            .at(0));
        if(records != rows.size() - 1)
            fail(std::to_string(records) + " kernel trace records in the database, " +
                 std::to_string(rows.size() - 1) + " rows in " + trace_path);
        if(seen.size() != kernel_rows.size())
            fail(std::to_string(kernel_rows.size()) + " dispatches in the database, " +
                 std::to_string(seen.size()) + " in " + trace_path);
    }

    if(counters)
    {
        const auto  cc_path   = base + "counter_collection.csv";
        auto        rows      = read_csv_or_fail(cc_path, fail);
        const auto& h         = rows[0];
        auto        id        = column(h, "Dispatch_Id", cc_path, fail);
        auto        name      = column(h, "Counter_Name", cc_path, fail);
        auto        value     = column(h, "Counter_Value", cc_path, fail);
        auto        kname     = column(h, "Kernel_Name", cc_path, fail);
        auto        db_values = std::map<std::pair<std::string, std::string>, row_t>{};
        // quote(): the value's text reads back as the same double (SQLite's text of a REAL has
        // 15 digits).
        for(auto& r : query(db,
                            "SELECT dispatch_id, counter_name, quote(value), kernel_name FROM "
                            "counters_collection"))
            db_values[{r[0], r[1]}] = r;
        if(db_values.empty()) fail("counters_collection is empty");
        if(db_values.size() != rows.size() - 1)
            fail(std::to_string(db_values.size()) + " rows in counters_collection, " +
                 std::to_string(rows.size() - 1) + " in " + cc_path);
        for(size_t i = 1; i < rows.size(); ++i)
        {
            const auto& r  = rows[i];
            auto        it = db_values.find({r[id], r[name]});
            if(it == db_values.end())
                fail("counter " + r[name] + " of dispatch " + r[id] +
                     " is not in counters_collection");
            (void)rocprofv3_validate::counter_value_of(
                r[value], cc_path + " row " + std::to_string(i), fail);
            const auto db_text = rocprofv3_validate::counter_value_text(std::stod(it->second[2]));
            if(db_text != r[value])
                fail("counter " + r[name] + " of dispatch " + r[id] + ": " + it->second[2] +
                     " in the database (" + db_text + " in the CSV's form), CSV " + r[value]);
            if(it->second[3] != r[kname])
                fail("counter row of dispatch " + r[id] + " names kernel '" + it->second[3] + "'");
        }
    }

    // The copies: the view's rows are memory_copy_trace.csv's, as multisets of their fields.
    auto db_copies = std::multiset<row_t>{};
    for(auto& r : query(db,
                        "SELECT m.name, m.start, m.\"end\", m.size, CASE WHEN "
                        "json_extract(sa.extdata, '$.host_memory') THEN 'host' ELSE "
                        "mc.src_agent_id END, CASE WHEN json_extract(da.extdata, "
                        "'$.host_memory') THEN 'host' ELSE mc.dst_agent_id END, m.corr_id, "
                        "printf('0x%x', m.src_address), printf('0x%x', m.dst_address), m.tid, "
                        "m.category FROM memory_copies AS m JOIN rocpd_memory_copy AS mc ON "
                        "mc.id = m.id AND mc.guid = m.guid JOIN rocpd_info_agent AS sa ON sa.id "
                        "= mc.src_agent_id AND sa.guid = mc.guid JOIN rocpd_info_agent AS da ON "
                        "da.id = mc.dst_agent_id AND da.guid = mc.guid"))
    {
        if(r.back() != "MEMORY_COPY") fail("a memory copy's category is '" + r.back() + "'");
        r.pop_back();
        db_copies.insert(std::move(r));
    }
    if(db_copies.size() != count(db, "rocpd_memory_copy"))
        fail("the memory_copies view and rocpd_memory_copy differ in rows");
    if(copies)
    {
        const auto  mc_path = base + "memory_copy_trace.csv";
        auto        rows    = read_csv_or_fail(mc_path, fail);
        const auto& h       = rows[0];
        auto        fields  = std::vector<size_t>{};
        for(const auto* name : {"Direction",
                                "Start_Timestamp",
                                "End_Timestamp",
                                "Bytes",
                                "Source_Agent_Id",
                                "Destination_Agent_Id",
                                "Correlation_Id",
                                "Source_Address",
                                "Destination_Address",
                                "Thread_Id"})
            fields.push_back(column(h, name, mc_path, fail));
        auto csv_copies = std::multiset<row_t>{};
        for(size_t i = 1; i < rows.size(); ++i)
        {
            auto r = row_t{};
            for(auto f : fields)
                r.push_back(rows[i][f]);
            // The agents, "Agent N" or "host" in the CSV, as the view has them: N or host.
            for(size_t side : {4, 5})
                r[side] = rocprofv3_validate::copy_side_number_of(
                    r[side], mc_path + " row " + std::to_string(i) + " " + h[fields[side]], fail);
            csv_copies.insert(std::move(r));
        }
        if(csv_copies.empty()) fail(mc_path + " has no copy: nothing to compare");
        if(csv_copies != db_copies)
            fail(std::to_string(db_copies.size()) + " rows in memory_copies, " +
                 std::to_string(csv_copies.size()) + " in " + mc_path +
                 ", and they are not the same copies");
    }
    else if(!db_copies.empty())
        fail("the database has memory copies, but --copies was not given");

    // The markers: rocpd_region has one row per marker_api_trace.csv row, and the regions view
    // shows them with their category (the Domain), name (the Function), real pid and tid,
    // correlation id and times, as multisets of their fields.
    auto markers_found = size_t{0};
    if(markers)
    {
        const auto region_columns = row_t{
            "id", "guid", "nid", "pid", "tid", "start", "end", "name_id", "event_id", "extdata"};
        const auto view_columns = row_t{"id",
                                        "guid",
                                        "category",
                                        "name",
                                        "nid",
                                        "pid",
                                        "tid",
                                        "start",
                                        "end",
                                        "duration",
                                        "event_id",
                                        "stack_id",
                                        "parent_stack_id",
                                        "corr_id",
                                        "extdata",
                                        "call_stack",
                                        "line_info"};
        for(const auto& [name, want] :
            {std::pair{"rocpd_region", &region_columns}, std::pair{"regions", &view_columns}})
        {
            if(!exists(db, name)) fail(path + " has no " + name);
            if(auto have = columns_of(db, name); have != *want)
                fail(std::string{name} + " has the columns (" + joined(have) +
                     "), upstream's are (" + joined(*want) + ")");
        }
        const auto regions = count(db, "regions");
        if(regions != count(db, "rocpd_region"))
            fail("the regions view has " + std::to_string(regions) + " rows, rocpd_region " +
                 std::to_string(count(db, "rocpd_region")));
        if(auto n = count(db, "regions WHERE duration IS NOT (\"end\" - start)"); n > 0)
            fail(std::to_string(n) + " rows of the regions view have a duration other than end - "
                                     "start");

        const auto  ma_path = base + "marker_api_trace.csv";
        const auto  rows    = read_csv_or_fail(ma_path, fail);
        const auto& h       = rows[0];
        const auto  domain  = column(h, "Domain", ma_path, fail),
                   function = column(h, "Function", ma_path, fail),
                   pid      = column(h, "Process_Id", ma_path, fail),
                   tid      = column(h, "Thread_Id", ma_path, fail),
                   corr     = column(h, "Correlation_Id", ma_path, fail),
                   start    = column(h, "Start_Timestamp", ma_path, fail),
                   stop     = column(h, "End_Timestamp", ma_path, fail);
        auto csv_view = std::multiset<row_t>{}, csv_table = std::multiset<row_t>{};
        for(size_t i = 1; i < rows.size(); ++i)
        {
            const auto& r = rows[i];
            if(r.size() != h.size())
                fail(ma_path + " row " + std::to_string(i) + " has " + std::to_string(r.size()) +
                     " fields, its header " + std::to_string(h.size()));
            csv_view.insert({r[domain], r[function], r[pid], r[tid], r[corr], r[start], r[stop]});
            csv_table.insert({r[domain], r[function], r[corr], r[start], r[stop]});
        }
        if(csv_view.empty()) fail(ma_path + " has no marker row: nothing to compare");

        auto compare = [&](const std::multiset<row_t>& csv,
                           const std::string&          sql,
                           const std::string&          what,
                           const std::string&          fields)
        {
            auto db_rows = std::multiset<row_t>{};
            for(auto& r : query(db, sql))
                db_rows.insert(std::move(r));
            if(db_rows == csv) return;
            if(auto r = surplus(csv, db_rows))
                fail(ma_path + " row (" + joined(*r) + ") is not in " + what + " (" + fields +
                     ") as often: " + std::to_string(db_rows.size()) + " rows there, " +
                     std::to_string(csv.size()) + " in the CSV");
            fail(what + " has the row (" + joined(*surplus(db_rows, csv)) + ") of (" + fields +
                 ") that " + ma_path +
                 " does not have as often: " + std::to_string(db_rows.size()) + " rows there, " +
                 std::to_string(csv.size()) + " in the CSV");
        };
        compare(csv_view,
                "SELECT category, name, pid, tid, corr_id, start, \"end\" FROM regions",
                "the regions view",
                "category, name, pid, tid, corr_id, start, end");
        // The same through the tables: each region's event has the Domain as its category and the
        // row's correlation id.
        compare(csv_table,
                "SELECT (SELECT string FROM rocpd_string S WHERE S.id = E.category_id), "
                "(SELECT string FROM rocpd_string S WHERE S.id = R.name_id), E.correlation_id, "
                "R.start, R.\"end\" FROM rocpd_region R LEFT JOIN rocpd_event E ON E.id = "
                "R.event_id",
                "rocpd_region",
                "its event's category and correlation_id, name, start, end");
        markers_found = csv_view.size();
    }
    else
    {
        // A database of a writer without regions has none to show.
        for(const auto* name : {"rocpd_region", "regions"})
            if(exists(db, name) && count(db, name) > 0)
                fail("the database has marker regions (" + std::to_string(count(db, name)) +
                     " rows in " + name + "), but --markers was not given");
    }

    if(declined >= 0)
    {
        auto n = count(db, "rocprofv3_kernel_replay_outcome WHERE outcome = 'DECLINED'");
        if(n != static_cast<uint64_t>(declined))
            fail(std::to_string(n) +
                 " DECLINED rows in rocprofv3_kernel_replay_outcome, expected " +
                 std::to_string(declined));
    }

    if(!end.empty())
    {
        auto kind = query(db, "SELECT json_extract(extdata, '$.end.kind') FROM rocpd_info_process")
                        .at(0)
                        .at(0);
        if(end == "none" ? kind != "NULL" : kind != end)
            fail("rocpd_info_process says the run ended by '" + kind + "', expected '" + end + "'");
    }
    sqlite3_close(db);
    std::printf(
        "validate_rocpd: ok (%zu dispatches, %zu regions)\n", kernel_rows.size(), markers_found);
    return 0;
}
