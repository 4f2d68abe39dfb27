// Issue 34: values too long for exec are usage errors before the run, naming the option and the
// limit; repeated counters from every input form are collected once; --preload paths that
// LD_PRELOAD would split are refused.
#include "exec_limits.hpp"
#include "options.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace
{
rocprofv3::parse_result
run(std::vector<const char*> args)
{
    args.insert(args.begin(), "rocprofv3");
    return rocprofv3::parse_command_line(static_cast<int>(args.size()), args.data());
}

std::string
write_temp(const std::string& name, const std::string& contents)
{
    auto path = testing::TempDir() + std::to_string(getpid()) + "_" + name;
    std::ofstream{path} << contents;
    return path;
}

std::string
repeated(const std::string& item, size_t times, const std::string& separator)
{
    auto out = std::string{};
    for(size_t i = 0; i < times; ++i)
        out += (i == 0 ? "" : separator) + item;
    return out;
}

const std::vector<std::string> expected_group = {"SQ_WAVES", "GRBM_COUNT"};
} // namespace

TEST(long_values, repeated_counters_are_collected_once_from_the_command_line)
{
    auto r = run({"--pmc", "SQ_WAVES", "GRBM_COUNT,SQ_WAVES", "SQ_WAVES", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    ASSERT_EQ(r.opts->pmc_groups.size(), 1u);
    EXPECT_EQ(r.opts->pmc_groups[0], expected_group);
}

TEST(long_values, repeated_counters_are_collected_once_from_a_text_input)
{
    // 200,000 repeats: 2 MB as given, one counter of each name once collected.
    auto line = "pmc: SQ_WAVES GRBM_COUNT " + repeated("SQ_WAVES GRBM_COUNT", 100000, " ") + "\n";
    auto r    = run({"-i", write_temp("repeats.txt", line).c_str(), "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    ASSERT_EQ(r.opts->pmc_groups.size(), 1u);
    EXPECT_EQ(r.opts->pmc_groups[0], expected_group);
}

TEST(long_values, repeated_counters_are_collected_once_from_json_and_yaml_inputs)
{
    auto json =
        R"({"jobs": [{"pmc": [)" + repeated(R"("SQ_WAVES", "GRBM_COUNT")", 50000, ", ") + R"(]}]})";
    auto r = run({"-i", write_temp("repeats.json", json).c_str(), "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    ASSERT_EQ(r.opts->jobs.size(), 1u);
    ASSERT_EQ(r.opts->jobs[0].pmc_groups.size(), 1u);
    EXPECT_EQ(r.opts->jobs[0].pmc_groups[0], expected_group);

    auto yaml = "jobs:\n  - pmc: [" + repeated("SQ_WAVES, GRBM_COUNT", 50000, ", ") + "]\n";
    r         = run({"-i", write_temp("repeats.yaml", yaml).c_str(), "--", "app"});
    if(!r.opts && r.error.find("without YAML support") != std::string::npos)
        GTEST_SKIP() << "rocprofv3 was built without libyaml";
    ASSERT_TRUE(r.opts) << r.error;
    ASSERT_EQ(r.opts->jobs.size(), 1u);
    ASSERT_EQ(r.opts->jobs[0].pmc_groups.size(), 1u);
    EXPECT_EQ(r.opts->jobs[0].pmc_groups[0], expected_group);
}

TEST(long_values, a_value_over_max_arg_strlen_is_a_usage_error_naming_the_option)
{
    // One string of exec is at most 131072 bytes with its NUL: a regex that fits rocprofv3's own
    // argument can still make the application's "ROCPROF_...=value" too long.
    auto regex = std::string(rocprofv3::max_exec_string_bytes - 10, 'a');
    auto r     = run({"--kernel-trace", "--kernel-include-regex", regex.c_str(), "--", "app"});
    ASSERT_FALSE(r.opts);
    EXPECT_EQ(r.exit_code, rocprofv3::exit_usage);
    EXPECT_NE(r.error.find("--kernel-include-regex: the value is 131062 bytes"), std::string::npos)
        << r.error.substr(0, 400);
    EXPECT_NE(r.error.find("131072 bytes exec takes in one string (MAX_ARG_STRLEN)"),
              std::string::npos)
        << r.error.substr(0, 400);
    EXPECT_NE(r.error.find("the application was not run"), std::string::npos);

    // The same from an input file's job, which names the job.
    auto json = R"({"jobs": [{"kernel_trace": true, "output_file": ")" + std::string(200000, 'o') +
                R"("}]})";
    r = run({"-i", write_temp("long_name.json", json).c_str(), "--", "app"});
    ASSERT_FALSE(r.opts);
    EXPECT_EQ(r.exit_code, rocprofv3::exit_usage);
    EXPECT_NE(r.error.find("-o/--output-file: the value is 200000 bytes"), std::string::npos)
        << r.error.substr(0, 400);
}

TEST(long_values, a_value_just_under_the_limit_is_accepted)
{
    const auto variable = std::string{"ROCPROF_KERNEL_FILTER_INCLUDE_REGEX"};
    auto       regex    = std::string(rocprofv3::max_exec_string_bytes - variable.size() - 2, 'a');
    auto       r = run({"--kernel-trace", "--kernel-include-regex", regex.c_str(), "--", "app"});
    EXPECT_TRUE(r.opts) << r.error.substr(0, 400);
    regex += 'a';
    r = run({"--kernel-trace", "--kernel-include-regex", regex.c_str(), "--", "app"});
    EXPECT_FALSE(r.opts);
}

TEST(long_values, a_total_over_arg_max_names_the_limit_and_the_longest_value)
{
    const char* inherited[] = {"PATH=/usr/bin", "HOME=/root", nullptr};
    auto        added       = std::map<std::string, std::string>{
                     {"ROCPROF_KERNEL_FILTER_EXCLUDE_REGEX", std::string(100000, 'x')},
                     {"ROCPROF_OUTPUT_FILE_NAME", "run"}};
    // Fits a limit of 1 MiB, not one of 64 KiB.
    EXPECT_EQ(rocprofv3::exec_size_error({"app"}, added, inherited, size_t{1} << 20, 16384), "");
    auto why = rocprofv3::exec_size_error({"app"}, added, inherited, size_t{64} << 10, 16384);
    EXPECT_NE(why.find("over the system's 65536 bytes for exec (ARG_MAX)"), std::string::npos)
        << why;
    EXPECT_NE(why.find("comes from --kernel-exclude-regex"), std::string::npos) << why;
    // A variable rocprofv3 sets replaces the inherited one of that name: it is not counted twice.
    const char* same[] = {"ROCPROF_OUTPUT_FILE_NAME=run", nullptr};
    auto        one    = std::map<std::string, std::string>{{"ROCPROF_OUTPUT_FILE_NAME", "run"}};
    auto        size   = 2 * sizeof(char*) + sizeof("app") + sizeof(char*) +
                sizeof("ROCPROF_OUTPUT_FILE_NAME=run") + sizeof(char*);
    EXPECT_EQ(rocprofv3::exec_size_error({"app"}, one, same, size, 0), "");
    EXPECT_NE(rocprofv3::exec_size_error({"app"}, one, same, size - 1, 0), "");
}

TEST(long_values, a_preload_path_that_ld_preload_splits_is_a_usage_error_naming_it)
{
    auto dir = testing::TempDir() + "rocprofv3 preload " + std::to_string(getpid());
    std::filesystem::create_directories(dir);
    auto spaced = dir + "/libx.so";
    std::ofstream{spaced} << "";
    auto colon = testing::TempDir() + "rocprofv3:preload_" + std::to_string(getpid()) + ".so";
    std::ofstream{colon} << "";
    for(const auto& [lib, what] :
        {std::pair{spaced, "holds a space"}, std::pair{colon, "holds a ':'"}})
    {
        auto r = run({"--kernel-trace", "--preload", lib.c_str(), "--", "app"});
        ASSERT_FALSE(r.opts) << lib;
        EXPECT_EQ(r.exit_code, rocprofv3::exit_usage);
        EXPECT_NE(r.error.find("--preload '" + lib + "': the path " + what), std::string::npos)
            << r.error;
        EXPECT_NE(r.error.find("LD_PRELOAD splits its list at spaces and colons"),
                  std::string::npos)
            << r.error;
    }
    std::filesystem::remove_all(dir);
    std::filesystem::remove(colon);
}
