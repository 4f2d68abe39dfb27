// Validates the files rocprofv3 wrote for the host_kernels program.
//
//   validate_outputs --dir D --prefix P --kernel NAME=COUNT... [--stats] [--json] [--no-csv]
//
// Checks, and exits non-zero with a message on the first violation:
// - <P>_kernel_trace.csv: the header is exactly API.md's columns; one row per dispatch (the sum of
//   the COUNTs), 22 fields each; dispatch ids unique; Start_Timestamp <= End_Timestamp; kernel
//   names are exactly the expected ones with the expected counts (CSV quoting of "a,b" names).
// - <P>_agent_info.csv: exists, has a GPU agent; every Agent_Id of the trace is one of its agents.
// - with --stats, <P>_kernel_stats.csv: exact header; one row per kernel; Calls and
//   TotalDurationNs equal what the trace gives; Percentage sums to 100.
// - with --json, <P>_results.json: valid JSON with the documented keys; one kernel_dispatch record
//   per trace row with the same dispatch ids; kernel_symbols name every kernel.
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace
{
[[noreturn]] void
fail(const std::string& message)
{
    std::fprintf(stderr, "validate_outputs: FAIL: %s\n", message.c_str());
    std::exit(1);
}

// RFC 4180 rows: quoted fields may hold commas and doubled quotes.
std::vector<std::vector<std::string>>
read_csv(const std::string& path)
{
    auto in = std::ifstream{path};
    if(!in) fail("missing file " + path);
    auto text = std::stringstream{};
    text << in.rdbuf();
    auto data  = text.str();
    auto rows  = std::vector<std::vector<std::string>>{};
    auto row   = std::vector<std::string>{};
    auto field = std::string{};
    bool quoted = false, any = false;
    for(size_t i = 0; i < data.size(); ++i)
    {
        char c = data[i];
        if(quoted)
        {
            if(c == '"' && i + 1 < data.size() && data[i + 1] == '"') { field += '"'; ++i; }
            else if(c == '"') quoted = false;
            else field += c;
        }
        else if(c == '"') { quoted = true; any = true; }
        else if(c == ',') { row.push_back(field); field.clear(); any = true; }
        else if(c == '\n')
        {
            row.push_back(field);
            rows.push_back(row);
            row.clear();
            field.clear();
            any = false;
        }
        else { field += c; any = true; }
    }
    if(quoted) fail(path + ": unterminated quoted field");
    if(any) fail(path + ": last line does not end with a newline");
    return rows;
}

uint64_t
number(const std::string& text, const std::string& what)
{
    char* end = nullptr;
    auto value = std::strtoull(text.c_str(), &end, 10);
    if(text.empty() || *end != '\0') fail(what + ": '" + text + "' is not a number");
    return value;
}
}  // namespace

int
main(int argc, char** argv)
{
    auto dir = std::string{}, prefix = std::string{};
    auto expected = std::map<std::string, uint64_t>{};
    bool stats = false, json = false;
    for(int i = 1; i < argc; ++i)
    {
        auto arg = std::string{argv[i]};
        if(arg == "--dir" && i + 1 < argc) dir = argv[++i];
        else if(arg == "--prefix" && i + 1 < argc) prefix = argv[++i];
        else if(arg == "--kernel" && i + 1 < argc)
        {
            auto spec = std::string{argv[++i]};
            auto eq   = spec.rfind('=');
            if(eq == std::string::npos) fail("--kernel wants NAME=COUNT");
            expected[spec.substr(0, eq)] = number(spec.substr(eq + 1), "--kernel count");
        }
        else if(arg == "--stats") stats = true;
        else if(arg == "--json") json = true;
        else fail("unknown argument " + arg);
    }
    auto base = dir + "/" + prefix + "_";

    const auto trace_header = std::vector<std::string>{
        "Kind", "Agent_Id", "Queue_Id", "Stream_Id", "Thread_Id", "Dispatch_Id", "Kernel_Id",
        "Kernel_Name", "Correlation_Id", "Start_Timestamp", "End_Timestamp", "LDS_Block_Size",
        "Scratch_Size", "VGPR_Count", "Accum_VGPR_Count", "SGPR_Count", "Workgroup_Size_X",
        "Workgroup_Size_Y", "Workgroup_Size_Z", "Grid_Size_X", "Grid_Size_Y", "Grid_Size_Z"};
    auto trace = read_csv(base + "kernel_trace.csv");
    if(trace.empty() || trace[0] != trace_header) fail("kernel_trace.csv: header differs from API.md");

    auto agents = read_csv(base + "agent_info.csv");
    if(agents.size() < 2 || agents[0].size() < 3 || agents[0][0] != "Node_Id" ||
       agents[0][1] != "Logical_Node_Id" || agents[0][2] != "Agent_Type")
        fail("agent_info.csv: bad header or no agent");
    auto agent_ids = std::set<std::string>{};
    auto any_gpu   = false;
    for(size_t r = 1; r < agents.size(); ++r)
    {
        if(agents[r].size() != agents[0].size()) fail("agent_info.csv: row with a wrong field count");
        agent_ids.insert(agents[r][1]);
        any_gpu = any_gpu || agents[r][2] == "GPU";
    }
    if(!any_gpu) fail("agent_info.csv: no GPU agent");

    auto total_expected = uint64_t{0};
    for(auto& [name, count] : expected)
        total_expected += count;
    if(trace.size() - 1 != total_expected)
        fail("kernel_trace.csv: " + std::to_string(trace.size() - 1) + " rows, expected " +
             std::to_string(total_expected));

    auto ids       = std::set<uint64_t>{};
    auto per_name  = std::map<std::string, uint64_t>{};
    auto durations = std::map<std::string, uint64_t>{};
    auto queues    = std::set<std::string>{};
    for(size_t r = 1; r < trace.size(); ++r)
    {
        const auto& row = trace[r];
        if(row.size() != trace_header.size())
            fail("kernel_trace.csv row " + std::to_string(r) + ": " + std::to_string(row.size()) + " fields");
        if(row[0] != "KERNEL_DISPATCH") fail("kernel_trace.csv: Kind '" + row[0] + "'");
        if(agent_ids.count(row[1]) == 0) fail("kernel_trace.csv: Agent_Id " + row[1] + " not in agent_info.csv");
        auto id = number(row[5], "Dispatch_Id");
        if(!ids.insert(id).second) fail("kernel_trace.csv: duplicate Dispatch_Id " + row[5]);
        auto start = number(row[9], "Start_Timestamp");
        auto end   = number(row[10], "End_Timestamp");
        if(start == 0 || start > end) fail("kernel_trace.csv: bad timestamps in row " + std::to_string(r));
        per_name[row[7]] += 1;
        durations[row[7]] += end - start;
        queues.insert(row[2]);
        for(size_t c = 16; c < 22; ++c)
            if(number(row[c], trace_header[c]) == 0) fail("kernel_trace.csv: zero " + trace_header[c]);
    }
    if(per_name != expected)
    {
        auto got = std::string{};
        for(auto& [name, count] : per_name)
            got += " '" + name + "'=" + std::to_string(count);
        fail("kernel_trace.csv: kernel names/counts differ; got" + got);
    }

    if(stats)
    {
        const auto header = std::vector<std::string>{"Name", "Calls", "TotalDurationNs", "AverageNs",
                                                     "Percentage", "MinNs", "MaxNs", "StdDev"};
        auto rows = read_csv(base + "kernel_stats.csv");
        if(rows.empty() || rows[0] != header) fail("kernel_stats.csv: header differs from API.md");
        if(rows.size() - 1 != expected.size()) fail("kernel_stats.csv: one row per kernel expected");
        auto percent = 0.0;
        for(size_t r = 1; r < rows.size(); ++r)
        {
            const auto& row = rows[r];
            if(row.size() != header.size()) fail("kernel_stats.csv: wrong field count");
            if(expected.count(row[0]) == 0) fail("kernel_stats.csv: unexpected kernel '" + row[0] + "'");
            if(number(row[1], "Calls") != per_name[row[0]]) fail("kernel_stats.csv: Calls of " + row[0]);
            if(number(row[2], "TotalDurationNs") != durations[row[0]])
                fail("kernel_stats.csv: TotalDurationNs of " + row[0] + " is not the trace's sum");
            auto avg = std::stod(row[3]);
            if(std::fabs(avg - static_cast<double>(durations[row[0]]) / per_name[row[0]]) > 0.01)
                fail("kernel_stats.csv: AverageNs of " + row[0]);
            if(number(row[5], "MinNs") > number(row[6], "MaxNs")) fail("kernel_stats.csv: MinNs > MaxNs");
            percent += std::stod(row[4]);
        }
        if(std::fabs(percent - 100.0) > 0.1) fail("kernel_stats.csv: percentages sum to " + std::to_string(percent));
    }

    if(json)
    {
        auto in = std::ifstream{base + "results.json"};
        if(!in) fail("missing results.json");
        auto doc = nlohmann::json{};
        try { doc = nlohmann::json::parse(in); }
        catch(const std::exception& e) { fail(std::string{"results.json is not valid JSON: "} + e.what()); }
        if(!doc.contains("rocprofiler-sdk-tool") || !doc["rocprofiler-sdk-tool"].is_array() ||
           doc["rocprofiler-sdk-tool"].size() != 1)
            fail("results.json: no rocprofiler-sdk-tool array of one element");
        const auto& tool = doc["rocprofiler-sdk-tool"][0];
        for(const char* key : {"metadata", "agents", "counters", "strings", "kernel_symbols",
                               "callback_records", "buffer_records"})
            if(!tool.contains(key)) fail(std::string{"results.json: missing key "} + key);
        if(!tool["callback_records"].contains("counter_collection"))
            fail("results.json: missing callback_records.counter_collection");
        const auto& records = tool["buffer_records"]["kernel_dispatch"];
        if(records.size() != total_expected) fail("results.json: kernel_dispatch record count");
        auto json_ids = std::set<uint64_t>{};
        for(const auto& r : records)
        {
            json_ids.insert(r.at("dispatch_info").at("dispatch_id").get<uint64_t>());
            if(r.at("start_timestamp").get<uint64_t>() > r.at("end_timestamp").get<uint64_t>())
                fail("results.json: start after end");
            auto kid = std::to_string(r.at("dispatch_info").at("kernel_id").get<uint64_t>());
            if(!tool["kernel_symbols"].contains(kid)) fail("results.json: kernel_symbols lacks " + kid);
            if(expected.count(tool["kernel_symbols"][kid].at("kernel_name").get<std::string>()) == 0)
                fail("results.json: unexpected kernel name for " + kid);
        }
        if(json_ids != ids) fail("results.json: dispatch ids differ from kernel_trace.csv");
        if(tool["agents"].empty()) fail("results.json: no agents");
    }
    std::printf("validate_outputs: OK (%zu dispatches, %zu kernels, %zu queues)\n", ids.size(),
                per_name.size(), queues.size());
    return 0;
}
