// Validates <P>_results.db (-f rocpd) against the CSV files of the same run: the database is
// opened by SQLite itself (an interrupted batch is rolled back by this open), checked with
// integrity_check, and queried through upstream's table and view names.
//   --dir D --prefix P     the outputs
//   --counters             counter_collection.csv exists: every value is in counters_collection
//   --dispatches N         rocpd_kernel_dispatch has exactly N rows
//   --declined N           rocprofv3_kernel_replay_outcome has N DECLINED rows
//   --copies               memory_copy_trace.csv exists: its rows are exactly the rows of the
//                          memory_copies view (direction, times, bytes, agents, correlation id,
//                          addresses), each with the category MEMORY_COPY
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

rocprofv3_validate::csv_rows
read_csv(const std::string& path)
{
    const auto data = rocprofv3_validate::read_file(path);
    if(!data) fail("missing file " + path);
    auto rows = rocprofv3_validate::csv_rows{};
    if(auto error = rocprofv3_validate::parse_csv(*data, rows)) fail(path + ": " + *error);
    if(rows.empty()) fail(path + " is empty");
    return rows;
}

size_t
column(const std::vector<std::string>& header, const std::string& name, const std::string& file)
{
    auto it = std::find(header.begin(), header.end(), name);
    if(it == header.end()) fail(file + " has no column " + name);
    return static_cast<size_t>(it - header.begin());
}

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
} // namespace

int
main(int argc, char** argv)
{
    auto dir = std::string{}, prefix = std::string{}, end = std::string{};
    bool counters   = false;
    bool copies     = false;
    long declined   = -1;
    long dispatches = -1;
    for(int i = 1; i < argc; ++i)
    {
        auto arg  = std::string{argv[i]};
        auto next = [&]() -> std::string
        {
            if(i + 1 >= argc) fail(arg + " needs a value");
            return argv[++i];
        };
        if(arg == "--dir")
            dir = next();
        else if(arg == "--prefix")
            prefix = next();
        else if(arg == "--counters")
            counters = true;
        else if(arg == "--copies")
            copies = true;
        else if(arg == "--declined")
            declined = std::stol(next());
        else if(arg == "--dispatches")
            dispatches = std::stol(next());
        else if(arg == "--end")
            end = next();
        else
            fail("unknown argument " + arg);
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
    if(count(db, "rocpd_info_node") != 1) fail("rocpd_info_node does not have one row");
    if(count(db, "rocpd_info_process") != 1) fail("rocpd_info_process does not have one row");
    if(count(db, "rocpd_info_agent WHERE type = 'GPU'") == 0)
        fail("no GPU agent in rocpd_info_agent");

    // Every kernel_trace.csv row is a dispatch with the same kernel, agent and times.
    auto kernel_rows = std::map<std::string, row_t>{};
    for(auto& r : query(db,
                        "SELECT dispatch_id, kernel_name, agent_id, start, \"end\", queue_id, tid, "
                        "grid_size_x, workgroup_size_x FROM kernels"))
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
        auto        rows  = read_csv(trace_path);
        const auto& h     = rows[0];
        auto        id    = column(h, "Dispatch_Id", trace_path);
        auto        name  = column(h, "Kernel_Name", trace_path);
        auto        agent = column(h, "Agent_Id", trace_path);
        auto        start = column(h, "Start_Timestamp", trace_path);
        auto        stop  = column(h, "End_Timestamp", trace_path);
        auto        queue = column(h, "Queue_Id", trace_path);
        auto        tid   = column(h, "Thread_Id", trace_path);
        auto        grid  = column(h, "Grid_Size_X", trace_path);
        auto        wg    = column(h, "Workgroup_Size_X", trace_path);
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
            if(k[2] != r[agent] || k[5] != r[queue] || k[6] != r[tid] || k[7] != r[grid] ||
               k[8] != r[wg])
                fail("dispatch " + r[id] +
                     ": agent/queue/thread/grid/workgroup differ from the CSV");
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
        auto        rows      = read_csv(cc_path);
        const auto& h         = rows[0];
        auto        id        = column(h, "Dispatch_Id", cc_path);
        auto        name      = column(h, "Counter_Name", cc_path);
        auto        value     = column(h, "Counter_Value", cc_path);
        auto        kname     = column(h, "Kernel_Name", cc_path);
        auto        db_values = std::map<std::pair<std::string, std::string>, row_t>{};
        for(auto& r : query(db,
                            "SELECT dispatch_id, counter_name, value, kernel_name FROM "
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
            auto a = std::stod(it->second[2]), b = std::stod(r[value]);
            if(std::fabs(a - b) > 1e-9 * std::max(1.0, std::fabs(b)))
                fail("counter " + r[name] + " of dispatch " + r[id] + ": " + it->second[2] +
                     ", CSV " + r[value]);
            if(it->second[3] != r[kname])
                fail("counter row of dispatch " + r[id] + " names kernel '" + it->second[3] + "'");
        }
    }

    // The copies: the view's rows are memory_copy_trace.csv's, as multisets of their fields.
    auto db_copies = std::multiset<row_t>{};
    for(auto& r : query(db,
                        "SELECT name, start, \"end\", size, COALESCE(src_agent_id, src_device), "
                        "COALESCE(dst_agent_id, dst_device), "
                        "correlation_id, printf('0x%x', src_address), printf('0x%x', "
                        "dst_address), tid, category FROM memory_copies"))
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
        auto        rows    = read_csv(mc_path);
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
            fields.push_back(column(h, name, mc_path));
        auto csv_copies = std::multiset<row_t>{};
        for(size_t i = 1; i < rows.size(); ++i)
        {
            auto r = row_t{};
            for(auto f : fields)
                r.push_back(rows[i][f]);
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
    std::printf("validate_rocpd: ok (%zu dispatches)\n", kernel_rows.size());
    return 0;
}
