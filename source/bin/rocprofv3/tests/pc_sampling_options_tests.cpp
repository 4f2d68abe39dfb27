// --pc-sampling-*: AMD's forms and rules, what reaches the tool library, and the check of the
// agents' offers (the helper's JSON) that decides exit 2 before the application runs.
#include "options.hpp"

#include "config/config.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace
{
rocprofv3::parse_result
run(std::vector<const char*> args)
{
    args.insert(args.begin(), "rocprofv3");
    return rocprofv3::parse_command_line(static_cast<int>(args.size()), args.data());
}

std::vector<const char*>
sampling(const char* method, const char* unit, const char* interval)
{
    return {"--pc-sampling-beta-enabled",
            "--pc-sampling-method",
            method,
            "--pc-sampling-unit",
            unit,
            "--pc-sampling-interval",
            interval,
            "--",
            "app"};
}

// The helper's answer for the host device: one offer.
nlohmann::json
host_agents()
{
    return nlohmann::json::parse(R"({"agents": [
        {"type": "GPU", "name": "host", "logical_node_id": 1, "counters": [],
         "pc_sampling": [{"method": "host_trap", "unit": "time", "min_interval": 1000000,
                          "max_interval": 1000000000, "powers_of_two": false}]},
        {"type": "GPU", "name": "sm_90", "logical_node_id": 2, "counters": [],
         "pc_sampling": [{"method": "stochastic", "unit": "cycles", "min_interval": 32,
                          "max_interval": 2147483648, "powers_of_two": true}]},
        {"type": "GPU", "name": "other", "logical_node_id": 3, "counters": [],
         "pc_sampling": []}]})");
}
} // namespace

TEST(pc_sampling_options, reach_the_tool_with_amds_variables)
{
    auto r = run(sampling("HOST_TRAP", "Time", "1000000"));
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_EQ(r.opts->pc_sampling_method, "host_trap"); // lower-cased, as upstream
    EXPECT_EQ(r.opts->pc_sampling_unit, "time");
    auto env = rocprofv3::tool_environment(*r.opts, 0);
    EXPECT_EQ(env["ROCPROF_PC_SAMPLING_METHOD"], "host_trap");
    EXPECT_EQ(env["ROCPROF_PC_SAMPLING_UNIT"], "time");
    EXPECT_EQ(env["ROCPROF_PC_SAMPLING_INTERVAL"], "1000000");
    EXPECT_EQ(env["ROCPROFILER_PC_SAMPLING_BETA_ENABLED"], "1");
    // Nothing asked: nothing set.
    auto plain = run({"--kernel-trace", "--", "app"});
    ASSERT_TRUE(plain.opts);
    EXPECT_EQ(rocprofv3::tool_environment(*plain.opts, 0).count("ROCPROF_PC_SAMPLING_METHOD"), 0u);
}

TEST(pc_sampling_options, bad_values_are_usage_errors)
{
    auto expect_error = [](std::vector<const char*> args, const std::string& text)
    {
        auto r = run(args);
        EXPECT_FALSE(r.opts);
        EXPECT_EQ(r.exit_code, rocprofv3::exit_usage) << r.error;
        EXPECT_NE(r.error.find(text), std::string::npos) << r.error;
    };
    expect_error(sampling("host_trap", "time", "0"),
                 "--pc-sampling-interval '0' is not a positive number");
    expect_error(sampling("host_trap", "time", "-5"), "is not a positive number");
    expect_error(sampling("host_trap", "time", "1e6"), "is not a positive number");
    expect_error(sampling("host_trap", "seconds", "1000000"),
                 "--pc-sampling-unit 'seconds' is not a PC sampling unit (accepted: "
                 "instructions, cycles, time)");
    expect_error(sampling("random", "time", "1000000"),
                 "--pc-sampling-method 'random' is not a PC sampling method (accepted: "
                 "host_trap, stochastic)");
    expect_error({"--pc-sampling-beta-enabled", "--pc-sampling-method", "host_trap", "--", "app"},
                 "needs all three of --pc-sampling-method, --pc-sampling-unit and "
                 "--pc-sampling-interval");
    if(std::getenv("ROCPROFILER_PC_SAMPLING_BETA_ENABLED") == nullptr)
        expect_error({"--pc-sampling-method",
                      "host_trap",
                      "--pc-sampling-unit",
                      "time",
                      "--pc-sampling-interval",
                      "1000000",
                      "--",
                      "app"},
                     "PC sampling is a beta feature");
}

TEST(pc_sampling_options, the_beta_variable_stands_for_the_flag)
{
    ::setenv("ROCPROFILER_PC_SAMPLING_BETA_ENABLED", "ON", 1);
    auto r = run({"--pc-sampling-method",
                  "host_trap",
                  "--pc-sampling-unit",
                  "time",
                  "--pc-sampling-interval",
                  "1000000",
                  "--",
                  "app"});
    ::unsetenv("ROCPROFILER_PC_SAMPLING_BETA_ENABLED");
    ASSERT_TRUE(r.opts) << r.error;
    // The user's variable reaches the application as it is; rocprofv3 sets none.
    EXPECT_EQ(rocprofv3::tool_environment(*r.opts, 0).count("ROCPROFILER_PC_SAMPLING_BETA_ENABLED"),
              0u);
}

TEST(pc_sampling_options, an_offer_of_some_agent_is_enough)
{
    for(auto args : {sampling("host_trap", "time", "1000000"),
                     sampling("host_trap", "time", "1000000000"),
                     sampling("stochastic", "cycles", "65536")})
    {
        auto r = run(args);
        ASSERT_TRUE(r.opts) << r.error;
        EXPECT_TRUE(rocprofv3::pc_sampling_offer_errors(*r.opts, host_agents()).empty())
            << args[2] << " " << args[6];
    }
}

TEST(pc_sampling_options, no_offer_names_what_each_agent_offers)
{
    auto r = run(sampling("stochastic", "cycles", "65535")); // not a power of 2
    ASSERT_TRUE(r.opts) << r.error;
    auto errors = rocprofv3::pc_sampling_offer_errors(*r.opts, host_agents());
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0],
              "PC sampling stochastic in cycles with interval 65535 is not supported on any "
              "agent; agent 1 (host) offers host_trap in time from 1000000 to 1000000000; agent "
              "2 (sm_90) offers stochastic in cycles from 32 to 2147483648 (powers of 2); agent 3 "
              "(other) offers no PC sampling");
    for(auto args : {sampling("host_trap", "time", "999999"),
                     sampling("host_trap", "time", "1000000001"),
                     sampling("host_trap", "cycles", "1000000")})
    {
        auto bad = run(args);
        ASSERT_TRUE(bad.opts) << bad.error;
        EXPECT_EQ(rocprofv3::pc_sampling_offer_errors(*bad.opts, host_agents()).size(), 1u)
            << args[4] << " " << args[6];
    }
}

TEST(pc_sampling_options, json_input_files_take_amds_keys)
{
    auto path = testing::TempDir() + "pcs_jobs.json";
    {
        auto* f = std::fopen(path.c_str(), "w");
        ASSERT_NE(f, nullptr);
        std::fputs(R"({"jobs": [{"pc_sampling_beta_enabled": true, "pc_sampling_method": )"
                   R"("host_trap", "pc_sampling_unit": "time", "pc_sampling_interval": 2000000}]})",
                   f);
        std::fclose(f);
    }
    auto r = run({"-i", path.c_str(), "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    const auto& job = r.opts->jobs.empty() ? *r.opts : r.opts->jobs.front();
    EXPECT_EQ(job.pc_sampling_method, "host_trap");
    EXPECT_EQ(job.pc_sampling_interval, "2000000");
}

// The tool library, used without rocprofv3, checks the variables itself: a bad value disables it
// with a message naming the variable.
TEST(pc_sampling_options, the_tool_rejects_bad_variables)
{
    auto env  = std::map<std::string, std::string>{{"ROCPROF_PC_SAMPLING_METHOD", "host_trap"},
                                                   {"ROCPROF_PC_SAMPLING_UNIT", "time"},
                                                   {"ROCPROF_PC_SAMPLING_INTERVAL", "1000000"},
                                                   {"ROCPROF_OUTPUT_PATH", "/tmp"}};
    auto read = [&env]
    {
        return rocprofiler::tool::read_config(
            [&env](const char* name) -> const char*
            {
                auto it = env.find(name);
                return it != env.end() ? it->second.c_str() : nullptr;
            });
    };
    auto good = read();
    EXPECT_TRUE(good.errors.empty()) << good.errors.front();
    EXPECT_TRUE(good.cfg.pc_sampling());
    EXPECT_EQ(good.cfg.pc_sampling_interval, 1000000u);
    for(const auto& [name, value, message] :
        {std::tuple{"ROCPROF_PC_SAMPLING_INTERVAL", "0", "'0' is not a positive number"},
         std::tuple{"ROCPROF_PC_SAMPLING_UNIT", "ns", "'ns' is not instructions, cycles or time"},
         std::tuple{"ROCPROF_PC_SAMPLING_METHOD", "trap", "'trap' is not host_trap or stochastic"}})
    {
        auto saved = env[name];
        env[name]  = value;
        auto bad   = read();
        ASSERT_EQ(bad.errors.size(), 1u) << name;
        EXPECT_NE(bad.errors[0].find(std::string{name} + "=" + message), std::string::npos)
            << bad.errors[0];
        env[name] = saved;
    }
}
