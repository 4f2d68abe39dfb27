// Validates rocprofv3 --marker-trace outputs of rocprofv3-marker-program against its ground
// truth: marker_api_trace.csv (and with --json results.json's buffer_records.marker_api) holds
// exactly the program's marks, ranges, control and naming calls, each on its thread, with the
// program's pid, ranges enclosing what they enclose, and correlation ids that are distinct.
//
// Usage: validate_markers --dir D --prefix P --truth FILE [--json] [--no-csv]
#include "csv_rows.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace
{
[[noreturn]] void
fail(const std::string& message)
{
    std::fprintf(stderr, "validate_markers: %s\n", message.c_str());
    std::exit(1);
}

struct row
{
    std::string domain, function;
    uint64_t    pid = 0, thread = 0, correlation = 0, start = 0, end = 0;
};

// One expected row: domain, function, which thread ("main" or "worker").
struct expected
{
    const char* domain;
    const char* function;
    const char* thread;
};

const std::vector<expected>&
expected_rows()
{
    static const auto rows = std::vector<expected>{
        {"MARKER_CONTROL_API", "roctxProfilerPause", "main"},
        {"MARKER_CONTROL_API", "roctxProfilerResume", "main"},
        {"MARKER_CORE_API", "program start", "main"},
        {"MARKER_CORE_API", "inside inner", "main"},
        {"MARKER_CORE_API", "inner", "main"},
        {"MARKER_CORE_API", "outer", "main"},
        {"MARKER_CORE_API", "worker", "worker"},
        {"MARKER_CORE_API", "handoff", "main"},
        {"MARKER_NAME_API", "roctxNameOsThread", "main"},
        {"MARKER_CONTROL_API", "roctxProfilerPause", "main"},
    };
    return rows;
}

uint64_t
number(const std::string& text, const std::string& what)
{
    char* end   = nullptr;
    auto  value = std::strtoull(text.c_str(), &end, 10);
    if(text.empty() || *end != '\0') fail(what + " is not a number: '" + text + "'");
    return value;
}

void
check_rows(const std::vector<row>& rows, const nlohmann::json& truth, const std::string& where)
{
    const auto& want = expected_rows();
    if(rows.size() != want.size())
        fail(where + " has " + std::to_string(rows.size()) + " marker rows, the program made " +
             std::to_string(want.size()));
    const auto main_thread   = truth.at("main_thread").get<uint64_t>();
    const auto worker_thread = truth.at("worker_thread").get<uint64_t>();
    auto       by_name       = std::map<std::string, const row*>{};
    auto       ids           = std::set<uint64_t>{};
    for(size_t i = 0; i < rows.size(); ++i)
    {
        const auto& r  = rows[i];
        const auto& w  = want[i];
        const auto  at = where + " row " + std::to_string(i + 1) + " (" + r.function + ")";
        if(r.domain != w.domain) fail(at + ": domain '" + r.domain + "', expected " + w.domain);
        if(r.function != w.function)
            fail(at + ": expected function '" + std::string{w.function} + "'");
        if(r.pid != truth.at("pid").get<uint64_t>()) fail(at + ": not the program's pid");
        const auto thread = std::string{w.thread} == "main" ? main_thread : worker_thread;
        if(r.thread != thread)
            fail(at + ": thread " + std::to_string(r.thread) + ", expected " +
                 std::to_string(thread));
        if(r.start == 0 || r.end < r.start) fail(at + ": bad timestamps");
        if(r.correlation == 0 || !ids.insert(r.correlation).second)
            fail(at + ": correlation id 0 or repeated");
        if(std::string{w.domain} == "MARKER_CORE_API") by_name[r.function] = &r;
    }
    auto inside = [&](const char* in, const char* out)
    {
        const auto* a = by_name.at(in);
        const auto* b = by_name.at(out);
        if(a->start < b->start || a->end > b->end)
            fail(where + ": '" + in + "' is not inside '" + out + "'");
    };
    if(by_name.at("program start")->start != by_name.at("program start")->end)
        fail(where + ": a mark is one instant");
    inside("inside inner", "inner");
    inside("inner", "outer");
    inside("worker", "handoff");
    if(by_name.at("outer")->end > by_name.at("handoff")->start)
        fail(where + ": 'handoff' starts after 'outer' ended");
}
} // namespace

int
main(int argc, char** argv)
{
    auto dir = std::string{}, prefix = std::string{}, truth_path = std::string{};
    bool json_too = false, csv = true;
    for(auto args = rocprofv3_validate::arguments{argc, argv, fail}; args.next();)
    {
        if(args.is("--dir"))
            dir = args.value();
        else if(args.is("--prefix"))
            prefix = args.value();
        else if(args.is("--truth"))
            truth_path = args.value();
        else if(args.is("--json"))
            json_too = true;
        else if(args.is("--no-csv"))
            csv = false;
        else
            args.unknown();
    }
    if(dir.empty() || prefix.empty() || truth_path.empty())
        fail("need --dir, --prefix and --truth");
    const auto truth_text = rocprofv3_validate::read_file(truth_path);
    if(!truth_text) fail("missing ground truth " + truth_path);
    const auto truth = nlohmann::json::parse(*truth_text);
    if(truth.at("push_depths") != nlohmann::json::array({0, 1}) ||
       truth.at("pop_depths") != nlohmann::json::array({1, 0}))
        fail("the program saw push/pop depths " + truth.at("push_depths").dump() + " / " +
             truth.at("pop_depths").dump() + ", ROCTx documents [0,1] / [1,0]");

    const auto base = dir + "/" + prefix + "_";
    if(csv)
    {
        const auto path   = base + "marker_api_trace.csv";
        const auto rows   = rocprofv3_validate::read_csv_or_fail(path, fail);
        const auto header = std::vector<std::string>{"Domain",
                                                     "Function",
                                                     "Process_Id",
                                                     "Thread_Id",
                                                     "Correlation_Id",
                                                     "Start_Timestamp",
                                                     "End_Timestamp"};
        if(rows.front() != header) fail(path + ": not upstream's header");
        auto parsed = std::vector<row>{};
        for(size_t i = 1; i < rows.size(); ++i)
        {
            const auto& f = rows[i];
            if(f.size() != header.size())
                fail(path + ": row " + std::to_string(i) + " has " + std::to_string(f.size()) +
                     " fields");
            parsed.push_back(row{f[0],
                                 f[1],
                                 number(f[2], "Process_Id"),
                                 number(f[3], "Thread_Id"),
                                 number(f[4], "Correlation_Id"),
                                 number(f[5], "Start_Timestamp"),
                                 number(f[6], "End_Timestamp")});
        }
        check_rows(parsed, truth, path);
    }
    if(json_too)
    {
        const auto path = base + "results.json";
        const auto text = rocprofv3_validate::read_file(path);
        if(!text) fail("missing file " + path);
        const auto  doc    = nlohmann::json::parse(*text);
        const auto& tool   = doc.at("rocprofiler-sdk-tool").at(0);
        const auto& events = tool.at("buffer_records").at("marker_api");
        auto        parsed = std::vector<row>{};
        for(const auto& e : events)
            parsed.push_back(row{e.at("kind").get<std::string>(),
                                 e.at("function").get<std::string>(),
                                 truth.at("pid").get<uint64_t>(),
                                 e.at("thread_id").get<uint64_t>(),
                                 e.at("correlation_id").at("internal").get<uint64_t>(),
                                 e.at("start_timestamp").get<uint64_t>(),
                                 e.at("end_timestamp").get<uint64_t>()});
        check_rows(parsed, truth, path + " buffer_records.marker_api");
    }
    std::printf("validate_markers: ok\n");
    return 0;
}
