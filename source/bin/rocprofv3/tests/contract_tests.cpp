// The environment contract between rocprofv3 and its tool library (contract/environment.hpp):
// each message survives encode -> decode unchanged, the tool's configuration reads what the CLI
// meant, and the variables the CLI sets are exactly those the tool reads.
#include "config/config.hpp"
#include "contract/environment.hpp"
#include "options.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace contract = rocprofiler::tool::contract;

namespace
{
// A getenv over @p env that remembers every name asked for.
struct fake_environment
{
    contract::environment env   = {};
    std::set<std::string> asked = {};

    contract::getenv_fn getenv()
    {
        return [this](const char* name) -> const char*
        {
            asked.insert(name);
            auto it = env.find(name);
            return it != env.end() ? it->second.c_str() : nullptr;
        };
    }
};

// Every field away from its default.
contract::tool_request
full_request()
{
    auto r                 = contract::tool_request{};
    r.output_path          = "/out/%hostname%";
    r.output_file_name     = "run_%pid%";
    r.output_formats       = {"csv", "json", "pftrace"};
    r.kernel_trace         = true;
    r.memory_copy_trace    = true;
    r.marker_trace         = true;
    r.cuda_runtime_trace   = true;
    r.cuda_driver_trace    = true;
    r.agent_index          = "type-relative";
    r.selected_regions     = true;
    r.stats                = true;
    r.summary              = true;
    r.summary_per_domain   = true;
    r.summary_groups       = {"KERNEL_DISPATCH|MEMORY_COPY", ".*_API"};
    r.summary_output       = "/out/summary_%pid%.txt";
    r.summary_units        = "msec";
    r.include_regex        = "^gemm";
    r.exclude_regex        = "copy$";
    r.iteration_range      = "[1-2], [5-]";
    r.dispatch_skip        = 0;
    r.dispatch_count       = 7;
    r.filter_trace         = true;
    r.demangle_kernels     = false;
    r.truncate_kernels     = true;
    r.output_config        = true;
    r.progress             = true;
    r.log_level            = "info";
    r.counter_collection   = true;
    r.counter_groups       = {{"A", "B"}, {"C"}};
    r.kernel_replay        = true;
    r.pc_sampling_method   = "host_trap";
    r.pc_sampling_unit     = "time";
    r.pc_sampling_interval = 1000000;
    r.pc_sampling_beta     = true;
    r.target_processes     = "application-only";
    r.nvtx                 = true;
    r.nvtx_include         = {"A/", "regex:x/*/y/"};
    r.nvtx_exclude         = {"B"};
    r.print_summary        = "per-nvtx";
    r.cache_control        = "none";
    return r;
}

std::set<std::string>
contract_names(contract::message part, std::optional<contract::reader> by = std::nullopt)
{
    auto out = std::set<std::string>{};
    for(const auto& v : contract::variables())
        if(v.part == part && (!by || v.read_by == *by)) out.insert(v.name);
    return out;
}

std::set<std::string>
keys(const contract::environment& env)
{
    auto out = std::set<std::string>{};
    for(const auto& [name, value] : env)
        out.insert(name);
    return out;
}

rocprofv3::parse_result
parse(std::vector<const char*> args)
{
    args.insert(args.begin(), "rocprofv3");
    return rocprofv3::parse_command_line(static_cast<int>(args.size()), args.data());
}

// A command line that sets every variable of tool_request.
const std::vector<const char*> every_option = {"--kernel-trace",
                                               "--memory-copy-trace",
                                               "--marker-trace",
                                               "--cuda-runtime-trace",
                                               "--cuda-driver-trace",
                                               "-A",
                                               "absolute",
                                               "--selected-regions",
                                               "--stats",
                                               "-S",
                                               "-D",
                                               "--summary-groups",
                                               "KERNEL_.*",
                                               "--summary-output-file",
                                               "stdout",
                                               "-u",
                                               "usec",
                                               "-d",
                                               "/tmp/x",
                                               "-o",
                                               "p",
                                               "-f",
                                               "csv",
                                               "json",
                                               "--output-config",
                                               "--log-level",
                                               "info",
                                               "--kernel-include-regex",
                                               "a",
                                               "--kernel-exclude-regex",
                                               "b",
                                               "--kernel-iteration-range",
                                               "[1-2]",
                                               "--kernel-dispatch-skip",
                                               "1",
                                               "--kernel-dispatch-count",
                                               "2",
                                               "--kernel-filter-trace",
                                               "-T",
                                               "-M",
                                               "--progress",
                                               "--pmc",
                                               "A",
                                               "B",
                                               "--pmc",
                                               "C",
                                               "--replay-mode",
                                               "kernel",
                                               "--kernel-replay-beta-enabled",
                                               "--pc-sampling-beta-enabled",
                                               "--pc-sampling-method",
                                               "stochastic",
                                               "--pc-sampling-unit",
                                               "cycles",
                                               "--pc-sampling-interval",
                                               "65536",
                                               "--cache-control",
                                               "none",
                                               "--target-processes",
                                               "application-only",
                                               "--nvtx",
                                               "--nvtx-include",
                                               "A/",
                                               "--nvtx-exclude",
                                               "B",
                                               "--print-summary",
                                               "per-nvtx",
                                               "--",
                                               "app"};
} // namespace

TEST(contract, tool_request_round_trip)
{
    for(const auto& request : {contract::tool_request{}, full_request()})
    {
        auto fake    = fake_environment{contract::encode(request)};
        auto decoded = contract::decode_tool_request(fake.getenv());
        EXPECT_TRUE(decoded.errors.empty()) << decoded.errors.front();
        EXPECT_TRUE(decoded.value == request);
    }
    // Switches decode in every accepted spelling; ROCPROF_COUNTERS alone is one group.
    auto fake    = fake_environment{{{contract::kernel_trace, "On"},
                                     {contract::demangle_kernels, "no"},
                                     {contract::counters, "pmc: A B"}}};
    auto decoded = contract::decode_tool_request(fake.getenv());
    EXPECT_TRUE(decoded.errors.empty());
    EXPECT_TRUE(decoded.value.kernel_trace);
    EXPECT_FALSE(decoded.value.demangle_kernels);
    EXPECT_EQ(decoded.value.counter_groups, (std::vector<std::vector<std::string>>{{"A", "B"}}));
}

TEST(contract, values_that_do_not_decode_name_their_variable)
{
    auto fake    = fake_environment{{{contract::stats, "2"}, {contract::dispatch_count, "-1"}}};
    auto decoded = contract::decode_tool_request(fake.getenv());
    ASSERT_EQ(decoded.errors.size(), 2u);
    EXPECT_EQ(decoded.errors[0],
              "ROCPROF_STATS='2' is not a switch value (accepted: 1, 0, true, false, yes, no, on, "
              "off)");
    EXPECT_EQ(decoded.errors[1],
              "ROCPROF_KERNEL_FILTER_DISPATCH_COUNT='-1' is not a number of dispatches (0, 1, 2, "
              "...)");
}

// The tool's configuration, read from what the CLI encoded, holds what the CLI asked for.
TEST(contract, the_tool_configuration_reads_the_request)
{
    auto request             = full_request();
    request.output_path      = "/out/run"; // no placeholder: compared as it is
    request.output_file_name = "prefix";
    auto fake                = fake_environment{contract::encode(request)};
    auto read                = rocprofiler::tool::read_config(fake.getenv());
    ASSERT_TRUE(read.errors.empty()) << read.errors.front();
    const auto& cfg = read.cfg;
    EXPECT_EQ(cfg.output_path, request.output_path);
    EXPECT_EQ(cfg.output_file_name, request.output_file_name);
    EXPECT_TRUE(cfg.csv && cfg.json && cfg.pftrace && !cfg.rocpd);
    EXPECT_TRUE(cfg.kernel_trace && cfg.memory_copy_trace && cfg.marker_trace);
    EXPECT_TRUE(cfg.cuda_runtime_trace && cfg.cuda_driver_trace && cfg.selected_regions);
    EXPECT_TRUE(cfg.stats && cfg.summary && cfg.truncate_kernels && cfg.output_config);
    EXPECT_TRUE(cfg.progress && cfg.counter_collection && cfg.kernel_replay);
    EXPECT_FALSE(cfg.demangle_kernels);
    EXPECT_EQ(cfg.agent_index, request.agent_index);
    EXPECT_EQ(cfg.include_regex_text, request.include_regex);
    EXPECT_EQ(cfg.exclude_regex_text, request.exclude_regex);
    EXPECT_TRUE(cfg.iteration_range.contains(2) && !cfg.iteration_range.contains(3));
    EXPECT_TRUE(cfg.iteration_range.contains(1000));
    EXPECT_EQ(cfg.dispatch_skip, 0u);
    EXPECT_EQ(cfg.dispatch_count, request.dispatch_count);
    EXPECT_TRUE(cfg.filter_trace);
    EXPECT_EQ(cfg.collected_groups(), request.counter_groups);
    EXPECT_EQ(cfg.counters, (std::vector<std::string>{"A", "B", "C"}));
    EXPECT_EQ(cfg.pc_sampling_method, request.pc_sampling_method);
    EXPECT_EQ(cfg.pc_sampling_unit, request.pc_sampling_unit);
    EXPECT_EQ(cfg.pc_sampling_interval, request.pc_sampling_interval);
    EXPECT_TRUE(cfg.application_only && cfg.nvtx && !cfg.nvtx_filter.empty());
    EXPECT_EQ(cfg.print_summary, request.print_summary);
}

// Every variable the CLI sets is one of the contract's, and a command line using every option sets
// each of them; the tool's configuration reads exactly the contract's tool_config variables.
TEST(contract, the_cli_sets_what_the_tool_reads)
{
    auto parsed = parse(every_option);
    ASSERT_TRUE(parsed.opts) << parsed.error;
    // An input file's pmc_group_interval has no command-line option: as read_job_file sets it.
    parsed.opts->pmc_group_interval = 2;
    const auto set_by_cli           = keys(rocprofv3::tool_environment(*parsed.opts, 0));
    EXPECT_EQ(set_by_cli, contract_names(contract::message::tool_request));

    auto fake = fake_environment{rocprofv3::tool_environment(*parsed.opts, 0)};
    (void)rocprofiler::tool::read_config(fake.getenv());
    auto read_by_tool = std::set<std::string>{};
    for(const auto& name : fake.asked)
        // Not the placeholders' reads: the launcher's variables and the user's formats of
        // %launch_date% and %launch_time%.
        if(name.rfind("ROCPROF_", 0) == 0 && name != "ROCPROF_DATE_FORMAT" &&
           name != "ROCPROF_TIME_FORMAT")
            read_by_tool.insert(name);
    // And, of the compatibility names, those it asks for: AMD's variables for what has no
    // source here always, the earlier names only when AMD's name is unset (not here).
    auto expected = contract_names(contract::message::tool_request, contract::reader::tool_config);
    for(const auto& name : contract_names(contract::message::compatibility))
        if(read_by_tool.count(name) != 0) expected.insert(name);
    EXPECT_EQ(read_by_tool, expected);
    EXPECT_EQ(read_by_tool.count(contract::marker_trace_old), 0u);
    EXPECT_EQ(read_by_tool.count(contract::amd_unsupported_switches[0]), 1u);
    // What the tool does not read is read by the SDK and ROCTx (the log levels).
    const auto sdk_names = contract_names(contract::message::tool_request, contract::reader::sdk);
    for(const auto& name : set_by_cli)
    {
        if(read_by_tool.count(name) != 0) continue;
        EXPECT_EQ(sdk_names.count(name), 1u) << name;
    }
}

TEST(contract, every_variable_is_named_once)
{
    auto names = std::set<std::string>{};
    for(const auto& v : contract::variables())
    {
        EXPECT_TRUE(names.insert(v.name).second) << v.name;
        EXPECT_NE(v.encoding, nullptr) << v.name;
    }
}

TEST(contract, report_channel_round_trip)
{
    for(const auto& channel : {contract::report_channel{},
                               contract::report_channel{"/tmp/rocprofv3-run-x", 5},
                               contract::report_channel{"", 0}})
    {
        auto fake = fake_environment{contract::encode(channel)};
        EXPECT_TRUE(contract::decode_report_channel(fake.getenv()) == channel);
        for(const auto& name : keys(fake.env))
            EXPECT_EQ(contract_names(contract::message::report_channel).count(name), 1u) << name;
    }
    // A descriptor that is not a number is no channel.
    for(const auto* bad : {"x", "3x", "-1", "99999999999", ""})
    {
        auto fake = fake_environment{{{contract::report_fd, bad}}};
        EXPECT_FALSE(contract::decode_report_channel(fake.getenv()).report_fd) << bad;
    }
}

TEST(contract, helper_request_round_trip)
{
    for(const auto& request :
        {contract::helper_request{true, {}}, contract::helper_request{true, {{"A", "B"}, {"C"}}}})
    {
        auto fake = fake_environment{contract::encode(request)};
        EXPECT_TRUE(contract::decode_helper_request(fake.getenv()) == request);
        for(const auto& name : keys(fake.env))
            EXPECT_EQ(contract_names(contract::message::helper_request).count(name), 1u) << name;
    }
    EXPECT_FALSE(contract::decode_helper_request(fake_environment{}.getenv()).helper_mode);
}

// docs/rocprofv3.md lists every variable of tool_request and of report_channel.
TEST(contract, the_documentation_lists_every_variable)
{
    auto in = std::ifstream{ROCPROFV3_DOCS};
    ASSERT_TRUE(in) << ROCPROFV3_DOCS;
    auto text = std::stringstream{};
    text << in.rdbuf();
    for(const auto& v : contract::variables())
    {
        if(v.part == contract::message::helper_request) continue; // internal to the agent query
        EXPECT_NE(text.str().find(std::string{"`"} + v.name), std::string::npos) << v.name;
    }
}
