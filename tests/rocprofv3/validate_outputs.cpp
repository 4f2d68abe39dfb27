// Validates the files rocprofv3 wrote for the host_kernels program.
//
//   validate_outputs --dir D --prefix P --kernel NAME=COUNT... [--stats] [--json]
//                    [--group "A B"]... [--kernel-replay] [--truth FILE] [--end KIND]
//                    [--note TEXT] [--agent-index absolute|relative|type-relative]
//
// Checks, and exits non-zero with a message on the first violation:
// - <P>_kernel_trace.csv: the header is exactly API.md's columns; one row per dispatch (the sum of
//   the COUNTs), 22 fields each; dispatch ids unique; Start_Timestamp <= End_Timestamp; kernel
//   names are exactly the expected ones with the expected counts (CSV quoting of "a,b" names);
//   NAME=COUNT+ means at least COUNT (a kernel launched while the process ends: the dispatches
//   before the end are recorded, the last ones may not be).
// - <P>_agent_info.csv: exists, has a GPU agent. Every Agent_Id of the trace (and of
//   counter_collection.csv) is exactly the name of one of its agents, as rocprofv3 -A MODE writes
//   it (--agent-index MODE, default relative): "Agent <Logical_Node_Id>" (relative), "Agent
//   <Node_Id>" (absolute), "GPU <n>" / "CPU <n>" (type-relative, n counting the agents of that
//   Agent_Type from 0 in Logical_Node_Id order); the rows of one Dispatch_Id name one agent.
// - with --stats, <P>_kernel_stats.csv: exact header; one row per kernel; Calls and
//   TotalDurationNs equal what the trace gives; Percentage sums to 100.
// - with --json, <P>_results.json: valid JSON with the documented keys; one kernel_dispatch record
//   per trace row with the same dispatch ids; kernel_symbols name every kernel, as reported by code
//   object tracing, and the register columns of the CSV files are the symbols' counts.
// - with --group (one per --pmc group, in order), <P>_counter_collection.csv: the header is exactly
//   API.md's columns (no Replay_Pass); every dispatch has one row per counter of every group
//   (all groups are collected under --kernel-replay, else the one group given); the rows of one
//   group share their timestamps; each row's Agent_Id is that of its dispatch in kernel_trace.csv;
//   every Counter_Value is the form of its value (fixed with 6 decimals when >= 1, "64.000000";
//   scientific with 8 below 1, "5.00000000e-01", "0.00000000e+00"); dispatches, kernels, Grid_Size
//   and Workgroup_Size are exactly those of the program's ground truth (--truth, written by
//   host_kernels --truth); WORK_ITEMS = Grid_Size, WORKGROUPS = Grid_Size / Workgroup_Size,
//   DURATION_NS > 0 and = End_Timestamp - Start_Timestamp of its row, CPU_TIME_NS > 0 (each rule
//   compares the text with the form of the value it expects: "4096.000000"). Under --kernel-replay
//   with G groups, kernel_trace.csv has G rows per Dispatch_Id (one per pass). With --json, the
//   counter_collection records of a dispatch carry replay_pass exactly 0..G-1 (none without
//   --kernel-replay), and pass i holds exactly group i's counters.
// - with --end KIND: results.json's metadata.end.kind is KIND (with --json); <P>_incomplete.txt
//   is absent for "exit" and present otherwise; with --note, it contains TEXT.
#include "csv_rows.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
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
    const auto data = rocprofv3_validate::read_file(path);
    if(!data) fail("missing file " + path);
    auto rows = rocprofv3_validate::csv_rows{};
    if(auto error = rocprofv3_validate::parse_csv(*data, rows)) fail(path + ": " + *error);
    return rows;
}

uint64_t
number(const std::string& text, const std::string& what)
{
    char* end   = nullptr;
    auto  value = std::strtoull(text.c_str(), &end, 10);
    if(text.empty() || *end != '\0') fail(what + ": '" + text + "' is not a number");
    return value;
}
} // namespace

int
main(int argc, char** argv)
{
    auto dir = std::string{}, prefix = std::string{};
    auto expected = std::map<std::string, uint64_t>{};
    auto at_least = std::set<std::string>{}; // NAME=COUNT+
    bool stats = false, json = false, kernel_replay = false;
    auto groups     = std::vector<std::vector<std::string>>{};
    auto truth_file = std::string{};
    auto end_kind = std::string{}, note = std::string{};
    auto agent_index = std::string{"relative"};
    for(int i = 1; i < argc; ++i)
    {
        auto arg = std::string{argv[i]};
        if(arg == "--dir" && i + 1 < argc)
            dir = argv[++i];
        else if(arg == "--prefix" && i + 1 < argc)
            prefix = argv[++i];
        else if(arg == "--kernel" && i + 1 < argc)
        {
            auto spec = std::string{argv[++i]};
            auto eq   = spec.rfind('=');
            if(eq == std::string::npos) fail("--kernel wants NAME=COUNT");
            auto count = spec.substr(eq + 1);
            if(!count.empty() && count.back() == '+')
            {
                at_least.insert(spec.substr(0, eq));
                count.pop_back();
            }
            expected[spec.substr(0, eq)] = number(count, "--kernel count");
        }
        else if(arg == "--group" && i + 1 < argc)
        {
            auto in    = std::istringstream{argv[++i]};
            auto group = std::vector<std::string>{};
            for(auto name = std::string{}; in >> name;)
                group.push_back(name);
            if(group.empty()) fail("--group wants counter names");
            groups.push_back(group);
        }
        else if(arg == "--kernel-replay")
            kernel_replay = true;
        else if(arg == "--truth" && i + 1 < argc)
            truth_file = argv[++i];
        else if(arg == "--stats")
            stats = true;
        else if(arg == "--json")
            json = true;
        else if(arg == "--end" && i + 1 < argc)
            end_kind = argv[++i];
        else if(arg == "--note" && i + 1 < argc)
            note = argv[++i];
        else if(arg == "--agent-index" && i + 1 < argc)
            agent_index = argv[++i];
        else
            fail("unknown argument " + arg);
    }
    auto base = dir + "/" + prefix + "_";
    // Passes per dispatch: one per group under kernel replay.
    const uint64_t passes = kernel_replay ? std::max<size_t>(groups.size(), 1) : 1;

    const auto trace_header = std::vector<std::string>{"Kind",
                                                       "Agent_Id",
                                                       "Queue_Id",
                                                       "Stream_Id",
                                                       "Thread_Id",
                                                       "Dispatch_Id",
                                                       "Kernel_Id",
                                                       "Kernel_Name",
                                                       "Correlation_Id",
                                                       "Start_Timestamp",
                                                       "End_Timestamp",
                                                       "LDS_Block_Size",
                                                       "Scratch_Size",
                                                       "VGPR_Count",
                                                       "Accum_VGPR_Count",
                                                       "SGPR_Count",
                                                       "Workgroup_Size_X",
                                                       "Workgroup_Size_Y",
                                                       "Workgroup_Size_Z",
                                                       "Grid_Size_X",
                                                       "Grid_Size_Y",
                                                       "Grid_Size_Z"};
    auto       trace        = read_csv(base + "kernel_trace.csv");
    if(trace.empty() || trace[0] != trace_header)
        fail("kernel_trace.csv: header differs from API.md");

    auto agents = read_csv(base + "agent_info.csv");
    if(agents.size() < 2 || agents[0].size() < 3 || agents[0][0] != "Node_Id" ||
       agents[0][1] != "Logical_Node_Id" || agents[0][2] != "Agent_Type")
        fail("agent_info.csv: bad header or no agent");
    auto any_gpu = false;
    for(size_t r = 1; r < agents.size(); ++r)
    {
        if(agents[r].size() != agents[0].size())
            fail("agent_info.csv: row with a wrong field count");
        any_gpu = any_gpu || agents[r][2] == "GPU";
    }
    if(!any_gpu) fail("agent_info.csv: no GPU agent");
    // The names the agent columns may hold: one per agent, in the form -A agent_index gives.
    const auto agent_labels =
        rocprofv3_validate::agent_labels(agents, base + "agent_info.csv", agent_index, fail);
    auto check_agent = [&](const std::string& text, const std::string& what)
    {
        if(agent_labels.count(text) == 0)
            fail(what + ": Agent_Id '" + text +
                 "' does not name an agent of agent_info.csv as -A " + agent_index + " does (" +
                 rocprofv3_validate::label_list(agent_labels) + ")");
    };

    auto total_expected = uint64_t{0};
    for(auto& [name, count] : expected)
        total_expected += count;
    if(at_least.empty() ? trace.size() - 1 != total_expected * passes
                        : trace.size() - 1 < total_expected * passes)
        fail("kernel_trace.csv: " + std::to_string(trace.size() - 1) + " rows, expected " +
             (at_least.empty() ? "" : "at least ") + std::to_string(total_expected * passes));

    auto ids     = std::set<uint64_t>{};
    auto id_rows = std::map<uint64_t, uint64_t>{};
    // VGPR_Count, Accum_VGPR_Count, SGPR_Count of each Kernel_Id, from both CSV files.
    auto registers =
        std::map<std::string, std::set<std::tuple<std::string, std::string, std::string>>>{};
    auto per_name  = std::map<std::string, uint64_t>{};
    auto durations = std::map<std::string, uint64_t>{};
    auto queues    = std::set<std::string>{};
    auto agent_of  = std::map<uint64_t, std::string>{}; // Dispatch_Id -> Agent_Id
    for(size_t r = 1; r < trace.size(); ++r)
    {
        const auto& row = trace[r];
        if(row.size() != trace_header.size())
            fail("kernel_trace.csv row " + std::to_string(r) + ": " + std::to_string(row.size()) +
                 " fields");
        if(row[0] != "KERNEL_DISPATCH") fail("kernel_trace.csv: Kind '" + row[0] + "'");
        check_agent(row[1], "kernel_trace.csv row " + std::to_string(r));
        auto id = number(row[5], "Dispatch_Id");
        if(!agent_of.emplace(id, row[1]).second && agent_of[id] != row[1])
            fail("kernel_trace.csv row " + std::to_string(r) + ": Dispatch_Id " + row[5] +
                 " on Agent_Id '" + row[1] + "', its other rows on '" + agent_of[id] + "'");
        if(++id_rows[id] > passes)
            fail("kernel_trace.csv: Dispatch_Id " + row[5] + " in more than " +
                 std::to_string(passes) + " rows");
        registers[row[6]].emplace(row[13], row[14], row[15]);
        auto start = number(row[9], "Start_Timestamp");
        auto end   = number(row[10], "End_Timestamp");
        if(start == 0 || start > end)
            fail("kernel_trace.csv: bad timestamps in row " + std::to_string(r));
        // A call is a logical dispatch; under kernel replay its first row (pass 0) stands for it.
        if(ids.insert(id).second)
        {
            per_name[row[7]] += 1;
            durations[row[7]] += end - start;
        }
        queues.insert(row[2]);
        for(size_t c = 16; c < 22; ++c)
            if(number(row[c], trace_header[c]) == 0)
                fail("kernel_trace.csv: zero " + trace_header[c]);
    }
    for(auto& [id, rows] : id_rows)
        if(rows != passes)
            fail("kernel_trace.csv: Dispatch_Id " + std::to_string(id) + " in " +
                 std::to_string(rows) + " rows, expected " + std::to_string(passes) +
                 " (one per pass)");
    auto names_match = per_name.size() <= expected.size();
    for(const auto& [name, count] : expected)
    {
        const auto got = per_name.count(name) != 0 ? per_name.at(name) : uint64_t{0};
        names_match    = names_match && (at_least.count(name) != 0 ? got >= count : got == count);
    }
    for(const auto& [name, count] : per_name)
        names_match = names_match && expected.count(name) != 0;
    if(!names_match)
    {
        auto got = std::string{};
        for(auto& [name, count] : per_name)
            got += " '" + name + "'=" + std::to_string(count);
        fail("kernel_trace.csv: kernel names/counts differ; got" + got);
    }

    if(stats)
    {
        const auto header = std::vector<std::string>{"Name",
                                                     "Calls",
                                                     "TotalDurationNs",
                                                     "AverageNs",
                                                     "Percentage",
                                                     "MinNs",
                                                     "MaxNs",
                                                     "StdDev"};
        auto       rows   = read_csv(base + "kernel_stats.csv");
        if(rows.empty() || rows[0] != header) fail("kernel_stats.csv: header differs from API.md");
        if(rows.size() - 1 != expected.size())
            fail("kernel_stats.csv: one row per kernel expected");
        auto percent = 0.0;
        for(size_t r = 1; r < rows.size(); ++r)
        {
            const auto& row = rows[r];
            if(row.size() != header.size()) fail("kernel_stats.csv: wrong field count");
            if(expected.count(row[0]) == 0)
                fail("kernel_stats.csv: unexpected kernel '" + row[0] + "'");
            if(number(row[1], "Calls") != per_name[row[0]])
                fail("kernel_stats.csv: Calls of " + row[0]);
            if(number(row[2], "TotalDurationNs") != durations[row[0]])
                fail("kernel_stats.csv: TotalDurationNs of " + row[0] + " is not the trace's sum");
            auto avg = std::stod(row[3]);
            if(std::fabs(avg - static_cast<double>(durations[row[0]]) / per_name[row[0]]) > 0.01)
                fail("kernel_stats.csv: AverageNs of " + row[0]);
            if(number(row[5], "MinNs") > number(row[6], "MaxNs"))
                fail("kernel_stats.csv: MinNs > MaxNs");
            percent += std::stod(row[4]);
        }
        if(std::fabs(percent - 100.0) > 0.1)
            fail("kernel_stats.csv: percentages sum to " + std::to_string(percent));
    }

    auto counter_ids = std::set<uint64_t>{};
    if(!groups.empty())
    {
        const auto header = std::vector<std::string>{"Correlation_Id",
                                                     "Dispatch_Id",
                                                     "Agent_Id",
                                                     "Queue_Id",
                                                     "Process_Id",
                                                     "Thread_Id",
                                                     "Grid_Size",
                                                     "Kernel_Id",
                                                     "Kernel_Name",
                                                     "Workgroup_Size",
                                                     "LDS_Block_Size",
                                                     "Scratch_Size",
                                                     "VGPR_Count",
                                                     "Accum_VGPR_Count",
                                                     "SGPR_Count",
                                                     "Counter_Name",
                                                     "Counter_Value",
                                                     "Start_Timestamp",
                                                     "End_Timestamp"};
        auto       rows   = read_csv(base + "counter_collection.csv");
        if(rows.empty() || rows[0] != header)
            fail("counter_collection.csv: header differs from API.md (no Replay_Pass column)");

        // The counters every dispatch must show, and the group of each.
        auto group_of = std::map<std::string, size_t>{};
        for(size_t g = 0; g < (kernel_replay ? groups.size() : 1); ++g)
            for(const auto& name : groups[g])
                if(!group_of.emplace(name, g).second) fail("counter " + name + " in two groups");

        struct dispatch_rows
        {
            std::string                     kernel = {}, grid = {}, workgroup = {};
            std::map<std::string, uint64_t> names = {};
            // Per group: the (start, end) of its rows; one pair expected.
            std::map<size_t, std::set<std::pair<uint64_t, uint64_t>>> times = {};
        };
        auto per_dispatch = std::map<uint64_t, dispatch_rows>{};
        for(size_t r = 1; r < rows.size(); ++r)
        {
            const auto& row  = rows[r];
            auto        what = "counter_collection.csv row " + std::to_string(r);
            if(row.size() != header.size())
                fail(what + ": " + std::to_string(row.size()) + " fields");
            auto id    = number(row[1], "Dispatch_Id");
            auto grid  = number(row[6], "Grid_Size");
            auto wg    = number(row[9], "Workgroup_Size");
            auto start = number(row[17], "Start_Timestamp");
            auto end   = number(row[18], "End_Timestamp");
            if(start == 0 || start > end) fail(what + ": bad timestamps");
            check_agent(row[2], what);
            if(agent_of.count(id) != 0 && agent_of[id] != row[2])
                fail(what + ": Agent_Id '" + row[2] + "', kernel_trace.csv's dispatch " + row[1] +
                     " is on '" + agent_of[id] + "'");
            registers[row[7]].emplace(row[12], row[13], row[14]);
            auto& d = per_dispatch[id];
            if(d.kernel.empty())
            {
                d.kernel    = row[8];
                d.grid      = row[6];
                d.workgroup = row[9];
            }
            else if(d.kernel != row[8] || d.grid != row[6] || d.workgroup != row[9])
                fail(what +
                     ": kernel, Grid_Size or Workgroup_Size differ between rows of dispatch " +
                     row[1]);
            const auto& name = row[15];
            auto        it   = group_of.find(name);
            if(it == group_of.end())
                fail(what + ": counter " + name + " was not requested (in this run)");
            d.names[name] += 1;
            d.times[it->second].emplace(start, end);

            const auto value = rocprofv3_validate::counter_value_of(row[16], what, fail);
            // The text must be exactly the form of the expected value (so "6.271484" for
            // 6.271484375: the file holds 6 decimals).
            auto is = [&](double expected_value, const char* rule)
            {
                const auto want = rocprofv3_validate::counter_value_text(expected_value);
                if(row[16] != want)
                    fail(what + ": " + name + " = " + row[16] + ", expected " + want + " (" + rule +
                         ")");
            };
            if(name == "WORK_ITEMS") is(static_cast<double>(grid), "Grid_Size");
            if(name == "WORKGROUPS")
            {
                if(wg == 0 || grid % wg != 0)
                    fail(what + ": Grid_Size not a multiple of Workgroup_Size");
                is(static_cast<double>(grid / wg), "Grid_Size / Workgroup_Size");
            }
            if(name == "DURATION_NS")
            {
                if(value <= 0) fail(what + ": DURATION_NS is not positive");
                is(static_cast<double>(end - start), "End_Timestamp - Start_Timestamp");
            }
            if(name == "CPU_TIME_NS" && value <= 0) fail(what + ": CPU_TIME_NS is not positive");
            // Derived metrics of the shipped metrics file, over the base values of the same row.
            if(name == "NS_PER_WORK_ITEM")
                is(static_cast<double>(end - start) / static_cast<double>(grid),
                   "DURATION_NS / WORK_ITEMS, from the row's timestamps");
            if(name == "WORK_ITEMS_PER_WORKGROUP")
                is(static_cast<double>(wg), "WORK_ITEMS / WORKGROUPS = Workgroup_Size");
        }
        for(const auto& [id, d] : per_dispatch)
        {
            counter_ids.insert(id);
            for(const auto& [name, g] : group_of)
            {
                auto it = d.names.find(name);
                if(it == d.names.end() || it->second != 1)
                    fail("counter_collection.csv: dispatch " + std::to_string(id) + " has " +
                         std::to_string(it == d.names.end() ? 0 : it->second) + " rows of " + name +
                         ", expected 1");
            }
            for(const auto& [g, times] : d.times)
                if(times.size() != 1)
                    fail("counter_collection.csv: the rows of group " + std::to_string(g + 1) +
                         " of dispatch " + std::to_string(id) + " have different timestamps");
        }
        if(counter_ids != ids)
            fail("counter_collection.csv: dispatch ids differ from kernel_trace.csv");

        if(!truth_file.empty())
        {
            auto in = std::ifstream{truth_file};
            if(!in) fail("missing ground truth " + truth_file);
            auto truth   = nlohmann::json::parse(in);
            auto product = [](const nlohmann::json& v)
            {
                return std::to_string(v.at(0).get<uint64_t>() * v.at(1).get<uint64_t>() *
                                      v.at(2).get<uint64_t>());
            };
            auto want = std::multiset<std::tuple<std::string, std::string, std::string>>{};
            for(const auto& t : truth.at("dispatches"))
            {
                // The workgroup count the program used must be what Grid_Size/Workgroup_Size gives.
                if(std::stoull(product(t.at("grid"))) !=
                   std::stoull(product(t.at("workgroup"))) *
                       std::stoull(product(t.at("workgroups"))))
                    fail("ground truth: grid is not workgroups x workgroup size");
                want.emplace(t.at("kernel").get<std::string>(),
                             product(t.at("grid")),
                             product(t.at("workgroup")));
            }
            auto got = std::multiset<std::tuple<std::string, std::string, std::string>>{};
            for(const auto& [id, d] : per_dispatch)
                got.emplace(d.kernel, d.grid, d.workgroup);
            if(got != want)
                fail(
                    "counter_collection.csv: dispatches (kernel, Grid_Size, Workgroup_Size) differ "
                    "from the program's ground truth: " +
                    std::to_string(got.size()) + " vs " + std::to_string(want.size()) +
                    " dispatches");
        }
    }

    if(json)
    {
        auto in = std::ifstream{base + "results.json"};
        if(!in) fail("missing results.json");
        auto doc = nlohmann::json{};
        try
        {
            doc = nlohmann::json::parse(in);
        }
        catch(const std::exception& e)
        {
            fail(std::string{"results.json is not valid JSON: "} + e.what());
        }
        if(!doc.contains("rocprofiler-sdk-tool") || !doc["rocprofiler-sdk-tool"].is_array() ||
           doc["rocprofiler-sdk-tool"].size() != 1)
            fail("results.json: no rocprofiler-sdk-tool array of one element");
        const auto& tool = doc["rocprofiler-sdk-tool"][0];
        for(const char* key : {"metadata",
                               "agents",
                               "counters",
                               "strings",
                               "kernel_symbols",
                               "callback_records",
                               "buffer_records"})
            if(!tool.contains(key)) fail(std::string{"results.json: missing key "} + key);
        if(!tool["callback_records"].contains("counter_collection"))
            fail("results.json: missing callback_records.counter_collection");
        const auto& records = tool["buffer_records"]["kernel_dispatch"];
        if(records.size() != trace.size() - 1) fail("results.json: kernel_dispatch record count");
        for(const auto& [kid, sym] : tool["kernel_symbols"].items())
        {
            for(const char* key : {"kernel_id",
                                   "code_object_id",
                                   "kernel_name",
                                   "sgpr_count",
                                   "arch_vgpr_count",
                                   "accum_vgpr_count",
                                   "group_segment_size",
                                   "private_segment_size"})
                if(!sym.contains(key))
                    fail("results.json: kernel_symbols[" + kid + "] lacks " + key);
            if(!sym.value("reported", false))
                fail("results.json: kernel " + kid + " was not reported by code object tracing");
            auto regs = std::make_tuple(std::to_string(sym.at("arch_vgpr_count").get<uint64_t>()),
                                        std::to_string(sym.at("accum_vgpr_count").get<uint64_t>()),
                                        std::to_string(sym.at("sgpr_count").get<uint64_t>()));
            if(registers.count(kid) != 0 &&
               registers[kid] != std::set<std::tuple<std::string, std::string, std::string>>{regs})
                fail("CSV register columns of kernel " + kid + " differ from its symbol");
        }
        if(!groups.empty())
        {
            auto names = std::map<uint64_t, std::string>{};
            for(const auto& c : tool["counters"])
                names[c.at("id").at("handle").get<uint64_t>()] = c.at("name").get<std::string>();
            auto by_dispatch = std::map<uint64_t, std::map<uint64_t, std::set<std::string>>>{};
            for(const auto& rec : tool["callback_records"]["counter_collection"])
            {
                auto id =
                    rec.at("dispatch_data").at("dispatch_info").at("dispatch_id").get<uint64_t>();
                auto pass = uint64_t{0};
                if(kernel_replay)
                {
                    if(!rec.contains("replay_pass"))
                        fail("results.json: a record without replay_pass");
                    pass = rec.at("replay_pass").get<uint64_t>();
                }
                else if(rec.contains("replay_pass"))
                    fail("results.json: replay_pass without kernel replay");
                if(by_dispatch[id].count(pass) != 0)
                    fail("results.json: dispatch " + std::to_string(id) + " has pass " +
                         std::to_string(pass) + " twice");
                auto& got = by_dispatch[id][pass];
                for(const auto& v : rec.at("records"))
                    got.insert(names[v.at("counter_id").at("handle").get<uint64_t>()]);
            }
            for(const auto& [id, per_pass] : by_dispatch)
            {
                if(per_pass.size() != passes || per_pass.rbegin()->first != passes - 1)
                    fail("results.json: dispatch " + std::to_string(id) +
                         " does not have replay_pass exactly 0.." + std::to_string(passes - 1));
                for(const auto& [pass, got] : per_pass)
                    if(got != std::set<std::string>{groups[pass].begin(), groups[pass].end()})
                        fail("results.json: pass " + std::to_string(pass) + " of dispatch " +
                             std::to_string(id) + " does not hold exactly group " +
                             std::to_string(pass + 1) + "'s counters");
            }
            auto json_counter_ids = std::set<uint64_t>{};
            for(const auto& [id, p] : by_dispatch)
                json_counter_ids.insert(id);
            if(json_counter_ids != counter_ids)
                fail("results.json: counter_collection dispatch ids differ from the CSV's");
        }
        auto json_ids = std::set<uint64_t>{};
        for(const auto& r : records)
        {
            json_ids.insert(r.at("dispatch_info").at("dispatch_id").get<uint64_t>());
            if(r.at("start_timestamp").get<uint64_t>() > r.at("end_timestamp").get<uint64_t>())
                fail("results.json: start after end");
            auto kid = std::to_string(r.at("dispatch_info").at("kernel_id").get<uint64_t>());
            if(!tool["kernel_symbols"].contains(kid))
                fail("results.json: kernel_symbols lacks " + kid);
            if(expected.count(tool["kernel_symbols"][kid].at("kernel_name").get<std::string>()) ==
               0)
                fail("results.json: unexpected kernel name for " + kid);
        }
        if(json_ids != ids) fail("results.json: dispatch ids differ from kernel_trace.csv");
        if(tool["agents"].empty()) fail("results.json: no agents");
        if(!end_kind.empty())
        {
            const auto& end = tool["metadata"].value("end", nlohmann::json::object());
            if(end.value("kind", "") != end_kind)
                fail("results.json: metadata.end is " + end.dump() + ", expected kind " + end_kind);
            if(end.value("complete", true) != (end_kind == "exit"))
                fail("results.json: metadata.end.complete is wrong: " + end.dump());
        }
    }
    if(!end_kind.empty())
    {
        auto in = std::ifstream{base + "incomplete.txt"};
        if(end_kind == "exit" && in) fail(base + "incomplete.txt exists after a complete run");
        if(end_kind != "exit")
        {
            if(!in) fail("missing " + base + "incomplete.txt");
            auto text = std::string{std::istreambuf_iterator<char>{in}, {}};
            if(text.find(note) == std::string::npos)
                fail(base + "incomplete.txt does not say '" + note + "': " + text);
        }
    }
    std::printf("validate_outputs: OK (%zu dispatches, %zu kernels, %zu queues, %llu passes, "
                "%zu counter groups)\n",
                ids.size(),
                per_name.size(),
                queues.size(),
                static_cast<unsigned long long>(passes),
                groups.size());
    return 0;
}
