// Validates the memory copies rocprofv3 --memory-copy-trace wrote for host_kernels --copies,
// against the program's ground truth (host_kernels --truth).
//
//   validate_memory_copies --dir D --prefix P --truth FILE [--json] [--no-csv]
//
// Checks, and exits non-zero with a message on the first violation:
// - <P>_memory_copy_trace.csv (unless --no-csv): the header is exactly upstream's eight columns
//   followed by Bytes, Source_Address, Destination_Address, Thread_Id; one row per copy of the
//   truth, in the order they were made (by Start_Timestamp), each with Kind MEMORY_COPY and the
//   truth's Direction, Bytes, addresses and thread; Stream_Id 0; Start_Timestamp <= End_Timestamp
//   and each copy starts after the previous one ended (they are synchronous, on one thread);
//   Correlation_Id non-zero and unique; Source_Agent_Id and Destination_Agent_Id name the side the
//   direction names, exactly as rocprofv3 writes it (default -A relative): "Agent
//   <Logical_Node_Id>" of a GPU agent of <P>_agent_info.csv for device memory, "host" (or "Agent
//   <Logical_Node_Id>" of a CPU agent there) for host memory.
// - with --json, <P>_results.json: buffer_records.memory_copy holds the same copies (operation,
//   bytes, addresses, thread, times, agents by handle, correlation ids) as the truth, and
//   strings.buffer_records names the MEMORY_COPY kind with its five operations.
#include "csv_rows.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
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
    std::fprintf(stderr, "validate_memory_copies: FAIL: %s\n", message.c_str());
    std::exit(1);
}

using rocprofv3_validate::read_csv_or_fail;

nlohmann::json
read_json(const std::string& path)
{
    const auto data = rocprofv3_validate::read_file(path);
    if(!data) fail("missing file " + path);
    try
    {
        return nlohmann::json::parse(*data);
    }
    catch(const std::exception& e)
    {
        fail(path + " is not valid JSON: " + e.what());
    }
}

uint64_t
number(const std::string& text, const std::string& what, int base = 10)
{
    char* end   = nullptr;
    auto  value = std::strtoull(text.c_str(), &end, base);
    if(text.empty() || *end != '\0') fail(what + ": '" + text + "' is not a number");
    return value;
}

// The agent types of the two sides of a direction, as agent_info.csv's Agent_Type says them.
std::pair<std::string, std::string>
sides(const std::string& direction)
{
    if(direction == "MEMORY_COPY_HOST_TO_DEVICE") return {"CPU", "GPU"};
    if(direction == "MEMORY_COPY_DEVICE_TO_HOST") return {"GPU", "CPU"};
    if(direction == "MEMORY_COPY_DEVICE_TO_DEVICE") return {"GPU", "GPU"};
    if(direction == "MEMORY_COPY_HOST_TO_HOST") return {"CPU", "CPU"};
    fail("unexpected direction '" + direction + "'");
}
} // namespace

int
main(int argc, char** argv)
{
    auto dir = std::string{}, prefix = std::string{}, truth_path = std::string{};
    bool json = false, csv = true;
    for(auto args = rocprofv3_validate::arguments{argc, argv, fail}; args.next();)
    {
        if(args.is("--dir"))
            dir = args.value();
        else if(args.is("--prefix"))
            prefix = args.value();
        else if(args.is("--truth"))
            truth_path = args.value();
        else if(args.is("--json"))
            json = true;
        else if(args.is("--no-csv"))
            csv = false;
        else
            args.unknown();
    }
    if(truth_path.empty()) fail("--truth is required");
    const auto base   = dir + "/" + prefix + "_";
    const auto truth  = read_json(truth_path);
    const auto copies = truth.value("copies", nlohmann::json::array());
    if(copies.empty()) fail(truth_path + " has no copy: run host_kernels with --copies");

    if(csv)
    {
        // Agents by their name in the agent columns ("Agent <Logical_Node_Id>"), with their type.
        const auto ai_path    = base + "agent_info.csv";
        const auto agent_type = rocprofv3_validate::agent_labels(
            read_csv_or_fail(ai_path, fail), ai_path, "relative", fail);

        const auto path            = base + "memory_copy_trace.csv";
        auto       rows            = read_csv_or_fail(path, fail);
        const auto expected_header = std::vector<std::string>{"Kind",
                                                              "Direction",
                                                              "Stream_Id",
                                                              "Source_Agent_Id",
                                                              "Destination_Agent_Id",
                                                              "Correlation_Id",
                                                              "Start_Timestamp",
                                                              "End_Timestamp",
                                                              "Bytes",
                                                              "Source_Address",
                                                              "Destination_Address",
                                                              "Thread_Id"};
        if(rows[0] != expected_header) fail(path + ": the header is not the documented columns");
        if(rows.size() - 1 != copies.size())
            fail(path + " has " + std::to_string(rows.size() - 1) + " rows, the program made " +
                 std::to_string(copies.size()) + " copies");
        std::stable_sort(rows.begin() + 1,
                         rows.end(),
                         [](const auto& a, const auto& b)
                         { return std::stoull(a[6]) < std::stoull(b[6]); });
        auto ids      = std::set<uint64_t>{};
        auto last_end = uint64_t{0};
        for(size_t i = 0; i < copies.size(); ++i)
        {
            const auto& r    = rows[i + 1];
            const auto& t    = copies[i];
            const auto  what = path + " row of copy " + std::to_string(i);
            if(r.size() != expected_header.size()) fail(what + " does not have 12 fields");
            if(r[0] != "MEMORY_COPY") fail(what + ": Kind '" + r[0] + "'");
            if(r[1] != t.at("direction").get<std::string>())
                fail(what + ": Direction '" + r[1] + "', the program made a " +
                     t.at("direction").get<std::string>());
            if(r[2] != "0") fail(what + ": Stream_Id '" + r[2] + "'");
            const auto [src_type, dst_type] = sides(r[1]);
            auto names_side                 = [&](const std::string& value, const std::string& type)
            {
                if(type == "CPU" && value == "host") return true;
                auto it = agent_type.find(value);
                return it != agent_type.end() && it->second == type;
            };
            if(!names_side(r[3], src_type))
                fail(what + ": Source_Agent_Id '" + r[3] + "' is not the " + src_type +
                     " side (\"Agent <Logical_Node_Id>\" of an agent of " + ai_path +
                     ", or \"host\"; its agents: " + rocprofv3_validate::label_list(agent_type) +
                     ")");
            if(!names_side(r[4], dst_type))
                fail(what + ": Destination_Agent_Id '" + r[4] + "' is not the " + dst_type +
                     " side (\"Agent <Logical_Node_Id>\" of an agent of " + ai_path +
                     ", or \"host\"; its agents: " + rocprofv3_validate::label_list(agent_type) +
                     ")");
            const auto id = number(r[5], what + " Correlation_Id");
            if(id == 0 || !ids.insert(id).second)
                fail(what + ": Correlation_Id " + r[5] + " is 0 or not unique");
            const auto start = number(r[6], what + " Start_Timestamp");
            const auto end   = number(r[7], what + " End_Timestamp");
            if(start > end) fail(what + ": starts after it ends");
            if(start < last_end) fail(what + ": starts before the previous copy ended");
            last_end = end;
            if(number(r[8], what + " Bytes") != t.at("bytes").get<uint64_t>())
                fail(what + ": Bytes " + r[8] + ", the program copied " +
                     std::to_string(t.at("bytes").get<uint64_t>()));
            if(r[9].rfind("0x", 0) != 0 || r[10].rfind("0x", 0) != 0)
                fail(what + ": addresses are not hexadecimal");
            if(number(r[9].substr(2), what + " Source_Address", 16) !=
                   t.at("src").get<uint64_t>() ||
               number(r[10].substr(2), what + " Destination_Address", 16) !=
                   t.at("dst").get<uint64_t>())
                fail(what + ": addresses " + r[9] + " -> " + r[10] +
                     " are not those the program copied");
            if(number(r[11], what + " Thread_Id") != t.at("thread").get<uint64_t>())
                fail(what + ": Thread_Id " + r[11] + ", the program copied on thread " +
                     std::to_string(t.at("thread").get<uint64_t>()));
        }
    }

    if(json)
    {
        const auto path = base + "results.json";
        const auto doc  = read_json(path);
        const auto tool = doc.at("rocprofiler-sdk-tool").at(0);
        auto       kind = nlohmann::json{};
        for(const auto& k : tool.at("strings").at("buffer_records"))
            if(k.at("kind") == "MEMORY_COPY") kind = k;
        if(kind.is_null() || kind.at("operations").size() != 5)
            fail(path + ": strings.buffer_records does not name MEMORY_COPY's five operations");
        auto records = tool.at("buffer_records").at("memory_copy");
        if(records.size() != copies.size())
            fail(path + " has " + std::to_string(records.size()) +
                 " memory_copy records, the program made " + std::to_string(copies.size()));
        auto agents = std::map<uint64_t, std::string>{}; // handle -> "CPU" / "GPU"
        for(const auto& a : tool.at("agents"))
            agents[a.at("id").at("handle").get<uint64_t>()] = a.at("type").get<std::string>();
        std::stable_sort(records.begin(),
                         records.end(),
                         [](const auto& a, const auto& b)
                         { return a.at("start_timestamp") < b.at("start_timestamp"); });
        for(size_t i = 0; i < copies.size(); ++i)
        {
            const auto& r    = records[i];
            const auto& t    = copies[i];
            const auto  what = path + " memory_copy record " + std::to_string(i);
            if(r.at("kind") != "MEMORY_COPY" || r.at("operation") != t.at("direction"))
                fail(what + " is a " + r.at("operation").dump() + ", the program made a " +
                     t.at("direction").dump());
            if(r.at("bytes") != t.at("bytes") || r.at("src_address").at("handle") != t.at("src") ||
               r.at("dst_address").at("handle") != t.at("dst") ||
               r.at("thread_id") != t.at("thread"))
                fail(what + " differs from the copy the program made: " + r.dump());
            if(r.at("start_timestamp") > r.at("end_timestamp") ||
               r.at("correlation_id").at("internal") == 0)
                fail(what + ": bad times or correlation id: " + r.dump());
            const auto [src_type, dst_type] = sides(t.at("direction").get<std::string>());
            // Handle 0: host memory (no CPU agent is listed).
            auto type_of = [&](const char* key)
            {
                const auto handle = r.at(key).at("handle").get<uint64_t>();
                if(handle == 0) return std::string{"CPU"};
                auto it = agents.find(handle);
                return it == agents.end() ? std::string{"unknown"} : it->second;
            };
            if(type_of("src_agent_id") != src_type || type_of("dst_agent_id") != dst_type)
                fail(what + ": its agents are " + type_of("src_agent_id") + " -> " +
                     type_of("dst_agent_id") + ", expected " + src_type + " -> " + dst_type);
        }
    }
    std::printf("validate_memory_copies: ok: %zu copies\n", copies.size());
    return 0;
}
