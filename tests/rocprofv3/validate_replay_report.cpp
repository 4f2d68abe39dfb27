// Validates what rocprofv3 wrote about kernel replay outcomes for the host_kernels program.
//
//   validate_replay_report --dir D --prefix P --group "A B"... [--json]
//                          --expect OUTCOME:REASON=COUNT... --missing N
//
// Checks, and exits non-zero with a message on the first violation:
// - <P>_kernel_replay_summary.csv: exact header (Outcome, Reason, Dispatches, Missing_Groups); a
//   REPLAYED row; the rows with dispatches are exactly the --expect ones; Missing_Groups sums to N.
// - <P>_counter_collection_missing.csv: exact header; N rows; each names a group (0-based, in
//   --group order) and that group's counters, and counter_collection.csv has no row of them for
//   that dispatch; its Agent_Id is exactly "Agent <Logical_Node_Id>" of an agent of
//   <P>_agent_info.csv (rocprofv3's default -A relative), and the Agent_Id of that dispatch's rows
//   in counter_collection.csv (which are of that form too) when it has any.
// - Together: every dispatch of either file has each group exactly once, either as rows of
//   counter_collection.csv (all of the group's counters) or as a row of the missing file.
// - with --json, <P>_results.json: kernel_replay_summary has the expected counts; one
//   callback_records.kernel_replay_outcome marker per dispatch, whose outcome and reason are
//   counted as expected, whose missing_groups are the missing file's, and whose passes agree with
//   the outcome (REPLAYED: all groups; DECLINED: one run; ENDED_EARLY: fewer than planned, at
//   failed_pass + 1 for write_outside_snapshot), and whose agent_id is the agent (by its
//   logical_node_id in results.json's agents) the CSV files name for that dispatch; the
//   counter_collection records of a dispatch carry exactly the replay_pass values of the groups it
//   is not missing.
#include "csv_rows.hpp"

#include <nlohmann/json.hpp>

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
    std::fprintf(stderr, "validate_replay_report: FAIL: %s\n", message.c_str());
    std::exit(1);
}

// RFC 4180 rows (quoted fields may hold commas, doubled quotes and blanks).
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

std::string
join(const std::vector<std::string>& names)
{
    auto out = std::string{};
    for(const auto& n : names)
        out += (out.empty() ? "" : " ") + n;
    return out;
}

struct expectations
{
    std::vector<std::vector<std::string>> groups   = {};
    std::map<std::string, uint64_t>       outcomes = {}; // "OUTCOME:REASON" -> dispatches
    uint64_t                              missing  = 0;
};

// Per dispatch: the groups missing (from the missing file) and the groups with counter rows, and
// the Agent_Id the files give it.
struct per_dispatch
{
    std::set<uint64_t> missing   = {};
    std::set<uint64_t> collected = {};
    std::string        agent     = {};
};

void
check_summary_csv(const std::string& base, const expectations& want)
{
    auto rows = read_csv(base + "kernel_replay_summary.csv");
    if(rows.empty() ||
       rows[0] != std::vector<std::string>{"Outcome", "Reason", "Dispatches", "Missing_Groups"})
        fail("kernel_replay_summary.csv: header");
    auto got      = std::map<std::string, uint64_t>{};
    auto missing  = uint64_t{0};
    auto replayed = false;
    for(size_t r = 1; r < rows.size(); ++r)
    {
        if(rows[r].size() != 4) fail("kernel_replay_summary.csv: a row without 4 fields");
        replayed = replayed || rows[r][0] == "REPLAYED";
        if(auto n = number(rows[r][2], "Dispatches"); n > 0) got[rows[r][0] + ":" + rows[r][1]] = n;
        missing += number(rows[r][3], "Missing_Groups");
    }
    if(!replayed) fail("kernel_replay_summary.csv: no REPLAYED row");
    if(got != want.outcomes)
    {
        auto text = std::string{};
        for(const auto& [k, n] : got)
            text += " " + k + "=" + std::to_string(n);
        fail("kernel_replay_summary.csv: outcomes differ; got" + text);
    }
    if(missing != want.missing)
        fail("kernel_replay_summary.csv: Missing_Groups sum to " + std::to_string(missing));
}

std::map<uint64_t, per_dispatch>
check_csv_files(const std::string& base, const expectations& want)
{
    auto dispatches = std::map<uint64_t, per_dispatch>{};
    auto group_of   = std::map<std::string, uint64_t>{};
    // The names of the agents: "Agent <Logical_Node_Id>".
    const auto ai_path = base + "agent_info.csv";
    const auto labels  = rocprofv3_validate::agent_labels(
        rocprofv3_validate::read_csv_or_fail(ai_path, fail), ai_path, "relative", fail);
    // A row's Agent_Id: one of those names, the same for every row of the dispatch.
    auto agent_of = [&](uint64_t id, const std::string& text, const std::string& what)
    {
        if(labels.count(text) == 0)
            fail(what + ": Agent_Id '" + text +
                 "' is not \"Agent <Logical_Node_Id>\" of an agent of " + ai_path + " (" +
                 rocprofv3_validate::label_list(labels) + ")");
        auto& d = dispatches[id];
        if(d.agent.empty()) d.agent = text;
        if(d.agent != text)
            fail(what + ": Agent_Id '" + text + "', another row of dispatch " + std::to_string(id) +
                 " names '" + d.agent + "'");
    };
    for(size_t g = 0; g < want.groups.size(); ++g)
        for(const auto& name : want.groups[g])
            group_of[name] = g;

    // Counter rows: per dispatch and group, the counters seen.
    auto counters = std::map<uint64_t, std::map<uint64_t, std::multiset<std::string>>>{};
    auto rows     = read_csv(base + "counter_collection.csv");
    for(size_t r = 1; r < rows.size(); ++r)
    {
        if(rows[r].size() != 19) fail("counter_collection.csv: a row without 19 fields");
        auto id = number(rows[r][1], "Dispatch_Id");
        agent_of(id, rows[r][2], "counter_collection.csv row " + std::to_string(r));
        auto it = group_of.find(rows[r][15]);
        if(it == group_of.end()) fail("counter_collection.csv: counter " + rows[r][15]);
        counters[id][it->second].insert(rows[r][15]);
    }
    for(const auto& [id, groups] : counters)
        for(const auto& [g, names] : groups)
        {
            if(names != std::multiset<std::string>{want.groups[g].begin(), want.groups[g].end()})
                fail("counter_collection.csv: dispatch " + std::to_string(id) + " has group " +
                     std::to_string(g) + " incompletely or twice");
            dispatches[id].collected.insert(g);
        }

    const auto header  = std::vector<std::string>{"Dispatch_Id",
                                                  "Agent_Id",
                                                  "Kernel_Id",
                                                  "Kernel_Name",
                                                  "Counter_Group",
                                                  "Counter_Names",
                                                  "Outcome",
                                                  "Reason",
                                                  "Passes_Run",
                                                  "Passes_Planned"};
    auto       missing = read_csv(base + "counter_collection_missing.csv");
    if(missing.empty() || missing[0] != header) fail("counter_collection_missing.csv: header");
    if(missing.size() - 1 != want.missing)
        fail("counter_collection_missing.csv: " + std::to_string(missing.size() - 1) +
             " rows, expected " + std::to_string(want.missing));
    for(size_t r = 1; r < missing.size(); ++r)
    {
        const auto& row = missing[r];
        if(row.size() != header.size()) fail("counter_collection_missing.csv: field count");
        auto id = number(row[0], "Dispatch_Id");
        agent_of(id, row[1], "counter_collection_missing.csv row " + std::to_string(r));
        auto g = number(row[4], "Counter_Group");
        if(g >= want.groups.size()) fail("counter_collection_missing.csv: group " + row[4]);
        if(row[5] != join(want.groups[g]))
            fail("counter_collection_missing.csv: group " + row[4] + " names '" + row[5] + "'");
        if(want.outcomes.count(row[6] + ":" + row[7]) == 0)
            fail("counter_collection_missing.csv: unexpected outcome " + row[6] + ":" + row[7]);
        if(number(row[8], "Passes_Run") > number(row[9], "Passes_Planned"))
            fail("counter_collection_missing.csv: more passes run than planned");
        if(dispatches[id].collected.count(g) != 0)
            fail("dispatch " + row[0] + ": group " + row[4] + " is both collected and missing");
        if(!dispatches[id].missing.insert(g).second)
            fail("counter_collection_missing.csv: dispatch " + row[0] + " group " + row[4] +
                 " twice");
    }
    for(const auto& [id, d] : dispatches)
        if(d.missing.size() + d.collected.size() != want.groups.size())
            fail("dispatch " + std::to_string(id) + ": " + std::to_string(d.collected.size()) +
                 " groups collected and " + std::to_string(d.missing.size()) + " missing, of " +
                 std::to_string(want.groups.size()));
    return dispatches;
}

void
check_marker(const nlohmann::json&                  m,
             const per_dispatch&                    d,
             uint64_t                               groups,
             const std::map<uint64_t, std::string>& agent_names)
{
    const auto id      = std::to_string(m.at("dispatch_id").get<uint64_t>());
    const auto outcome = m.at("outcome").get<std::string>();
    const auto run     = m.at("passes_run").get<uint64_t>();
    const auto planned = m.at("passes_planned").get<uint64_t>();
    for(const char* key : {"snapshot_bytes", "written_bytes", "verified_bytes", "agent_id"})
        if(!m.contains(key)) fail("marker of dispatch " + id + " lacks " + key);
    if(m.at("missing_groups").get<std::set<uint64_t>>() != d.missing)
        fail("marker of dispatch " + id + ": missing_groups differ from the CSV");
    const auto handle = m.at("agent_id").at("handle").get<uint64_t>();
    const auto agent  = agent_names.find(handle);
    if(agent == agent_names.end())
        fail("marker of dispatch " + id + ": agent_id " + std::to_string(handle) +
             " is not in results.json's agents");
    if(agent->second != d.agent)
        fail("marker of dispatch " + id + ": agent_id " + std::to_string(handle) + " is '" +
             agent->second + "', the CSV files name '" + d.agent + "'");
    if(planned != groups) fail("marker of dispatch " + id + ": passes_planned");
    if(outcome == "REPLAYED" && (run != planned || m.at("reason") != "none"))
        fail("marker of dispatch " + id + ": a replay that did not run every pass");
    if(outcome == "DECLINED" && run != 1) fail("marker of dispatch " + id + ": declined, run != 1");
    if(outcome == "ENDED_EARLY" && run >= planned)
        fail("marker of dispatch " + id + ": ended early after every pass");
    if(m.at("reason") == "write_outside_snapshot" &&
       (!m.contains("failed_pass") || m.at("failed_pass").get<uint64_t>() + 1 != run))
        fail("marker of dispatch " + id + ": failed_pass is not the last pass run");
}

void
check_json(const std::string&                      base,
           const expectations&                     want,
           const std::map<uint64_t, per_dispatch>& dispatches)
{
    auto in = std::ifstream{base + "results.json"};
    if(!in) fail("missing results.json");
    const auto  doc  = nlohmann::json::parse(in);
    const auto& tool = doc.at("rocprofiler-sdk-tool").at(0);
    const auto& sum  = tool.at("kernel_replay_summary");
    auto        got  = std::map<std::string, uint64_t>{};
    for(const auto& [kind, reasons] : sum.at("reasons").items())
        for(const auto& [reason, n] : reasons.items())
            got[kind + ":" + reason] = n.get<uint64_t>();
    auto per_kind = std::map<std::string, uint64_t>{};
    for(const auto& [key, n] : want.outcomes)
        per_kind[key.substr(0, key.find(':'))] += n;
    if(got != want.outcomes || sum.at("missing_groups") != want.missing ||
       sum.at("replayed") != per_kind["REPLAYED"] || sum.at("declined") != per_kind["DECLINED"] ||
       sum.at("ended_early") != per_kind["ENDED_EARLY"])
        fail("results.json: kernel_replay_summary differs: " + sum.dump());

    // Agent handle -> "Agent <logical_node_id>", the name the CSV files give it.
    auto agent_names = std::map<uint64_t, std::string>{};
    for(const auto& a : tool.at("agents"))
        agent_names[a.at("id").at("handle").get<uint64_t>()] =
            "Agent " + std::to_string(a.at("logical_node_id").get<uint64_t>());
    auto counted = std::map<std::string, uint64_t>{};
    auto seen    = std::set<uint64_t>{};
    for(const auto& m : tool.at("callback_records").at("kernel_replay_outcome"))
    {
        auto id = m.at("dispatch_id").get<uint64_t>();
        if(!seen.insert(id).second) fail("results.json: two markers for one dispatch");
        auto it = dispatches.find(id);
        if(it == dispatches.end()) fail("results.json: a marker for an unknown dispatch");
        check_marker(m, it->second, want.groups.size(), agent_names);
        ++counted[m.at("outcome").get<std::string>() + ":" + m.at("reason").get<std::string>()];
    }
    if(counted != want.outcomes) fail("results.json: markers are not counted as expected");
    if(seen.size() != dispatches.size()) fail("results.json: a dispatch without a marker");

    auto passes = std::map<uint64_t, std::set<uint64_t>>{};
    for(const auto& rec : tool.at("callback_records").at("counter_collection"))
        passes[rec.at("dispatch_data").at("dispatch_info").at("dispatch_id").get<uint64_t>()]
            .insert(rec.at("replay_pass").get<uint64_t>());
    for(const auto& [id, d] : dispatches)
        if(passes[id] != d.collected)
            fail("results.json: replay_pass values of dispatch " + std::to_string(id) +
                 " are not its collected groups");
}
} // namespace

int
main(int argc, char** argv)
{
    auto dir = std::string{}, prefix = std::string{};
    auto want = expectations{};
    auto json = false;
    for(int i = 1; i < argc; ++i)
    {
        auto arg = std::string{argv[i]};
        if(arg == "--dir" && i + 1 < argc)
            dir = argv[++i];
        else if(arg == "--prefix" && i + 1 < argc)
            prefix = argv[++i];
        else if(arg == "--group" && i + 1 < argc)
        {
            auto in    = std::istringstream{argv[++i]};
            auto group = std::vector<std::string>{};
            for(auto name = std::string{}; in >> name;)
                group.push_back(name);
            want.groups.push_back(group);
        }
        else if(arg == "--expect" && i + 1 < argc)
        {
            auto spec = std::string{argv[++i]};
            auto eq   = spec.rfind('=');
            if(eq == std::string::npos) fail("--expect wants OUTCOME:REASON=COUNT");
            want.outcomes[spec.substr(0, eq)] = number(spec.substr(eq + 1), "--expect count");
        }
        else if(arg == "--missing" && i + 1 < argc)
            want.missing = number(argv[++i], "--missing");
        else if(arg == "--json")
            json = true;
        else
            fail("unknown argument " + arg);
    }
    if(want.groups.size() < 2) fail("kernel replay needs at least two --group");
    const auto base = dir + "/" + prefix + "_";
    check_summary_csv(base, want);
    const auto dispatches = check_csv_files(base, want);
    if(json) check_json(base, want, dispatches);
    std::printf("validate_replay_report: OK (%zu dispatches, %llu missing groups)\n",
                dispatches.size(),
                static_cast<unsigned long long>(want.missing));
    return 0;
}
