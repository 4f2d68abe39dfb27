// The tool's configuration from its environment (config.cpp), kernel names, placeholders, name
// regexes, the kernel filter and the callback guard.
#include "capture/callback_guard.hpp"
#include "capture/kernel_filter.hpp"
#include "config/config.hpp"
#include "config/name_regex.hpp"
#include "config/parse.hpp"
#include "config/placeholders.hpp"
#include "options.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace parse = rocprofiler::tool::parse;

TEST(kernel_names, demangle_and_truncate_as_upstream)
{
    const auto mangled = std::string{"_Z10vector_addIfEvPT_PKS0_i"};
    EXPECT_EQ(parse::format_kernel_name(mangled, true, false),
              "void vector_add<float>(float*, float const*, int)");
    EXPECT_EQ(parse::format_kernel_name(mangled, false, false), mangled);     // -M
    EXPECT_EQ(parse::format_kernel_name(mangled, true, true), "vector_add");  // -T
    EXPECT_EQ(parse::format_kernel_name(mangled, false, true), "vector_add"); // -T with -M
    EXPECT_EQ(parse::format_kernel_name("scale,with_comma", true, true), "scale,with_comma");
    EXPECT_EQ(parse::truncate_name("ns::inner::kern<int, 2>(int*)"), "kern");
    EXPECT_EQ(parse::truncate_name("void kern(float)"), "kern");
    EXPECT_EQ(parse::demangle("not_mangled"), "not_mangled");
}

TEST(placeholders, expanded_with_the_process_values)
{
    namespace ph = rocprofiler::tool::placeholders;
    auto env     = std::map<std::string, std::string>{{"OMPI_COMM_WORLD_RANK", "3"}, {"TAG", "t1"}};
    auto getenv  = [&env](const char* name) -> const char*
    {
        auto it = env.find(name);
        return it != env.end() ? it->second.c_str() : nullptr;
    };
    auto values = ph::process_values(getenv, {"./bin/my_app", "-n", "4"});
    auto why    = std::string{};
    auto pid    = std::to_string(getpid());
    EXPECT_EQ(*ph::expand("out/%pid%_%rank%", values, &why), "out/" + pid + "_3");
    EXPECT_EQ(*ph::expand("%p.%r.%env{TAG}%.$ENV{TAG}", values, &why), pid + ".3.t1.t1");
    EXPECT_EQ(*ph::expand("%env{UNSET_VARIABLE}%x", values, &why), "x");
    // As upstream condenses them: '/' becomes '_', leading '.' and '_' are dropped.
    EXPECT_EQ(*ph::expand("%tag%/%args%/%argv%", values, &why), "my_app/-n_4/bin_my_app_-n_4");
    EXPECT_EQ(*ph::expand("%ppid%", values, &why), std::to_string(getppid()));
    EXPECT_EQ(*ph::expand("100%", values, &why), "100%"); // a '%' that starts nothing stays
    EXPECT_FALSE(ph::expand("%pidd%", values, &why));
    EXPECT_NE(why.find("unknown placeholder '%pidd%'"), std::string::npos) << why;
    // SLURM_PROCID comes first; without any rank variable the rank is 0.
    env["SLURM_PROCID"] = "7";
    EXPECT_EQ(*ph::expand("%rank%", ph::process_values(getenv, {}), &why), "7");
    env.clear();
    EXPECT_EQ(*ph::expand("%rank%", ph::process_values(getenv, {}), &why), "0");
    EXPECT_TRUE(ph::has_placeholder("a/%hostname%"));
    EXPECT_FALSE(ph::has_placeholder("a/b%"));
    EXPECT_EQ(rocprofv3::fixed_directory_part("out/%hostname%/x"), "out");
    EXPECT_EQ(rocprofv3::fixed_directory_part("/abs/dir"), "/abs/dir");
}

// What the rocpd writer records of a launch (rank, size, job): only what a launcher set, so that
// `rocpd` can tell a rank-0 process from one started outside a launcher.
TEST(placeholders, launch_values_only_what_a_launcher_set)
{
    namespace ph = rocprofiler::tool::placeholders;
    auto env     = std::map<std::string, std::string>{};
    auto getenv  = [&env](const char* name) -> const char*
    {
        auto it = env.find(name);
        return it != env.end() ? it->second.c_str() : nullptr;
    };
    auto none = ph::launch_values(getenv);
    EXPECT_FALSE(none.rank);
    EXPECT_FALSE(none.size);
    EXPECT_FALSE(none.job);
    env      = {{"PMI_RANK", "2"}, {"PMI_SIZE", "8"}, {"SLURM_JOB_ID", "4711"}};
    auto pmi = ph::launch_values(getenv);
    EXPECT_EQ(pmi.rank.value_or(""), "2");
    EXPECT_EQ(pmi.size.value_or(""), "8");
    EXPECT_EQ(pmi.job.value_or(""), "4711");
    EXPECT_EQ(*ph::expand("%job%", ph::process_values(getenv, {}), nullptr), "4711");
    env["SLURM_PROCID"] = "5";
    env["SLURM_NTASKS"] = "16";
    auto slurm          = ph::launch_values(getenv);
    EXPECT_EQ(slurm.rank.value_or(""), "5");
    EXPECT_EQ(slurm.size.value_or(""), "16");
}

// AMD's other keys: %cwd%, %argN%, %psize%, %launch_date% and %launch_time% (strftime formats
// from ROCPROF_DATE_FORMAT / ROCPROF_TIME_FORMAT, AMD's defaults without them).
TEST(placeholders, amd_keys_cwd_args_siblings_and_launch_time)
{
    namespace ph = rocprofiler::tool::placeholders;
    auto env     = std::map<std::string, std::string>{};
    auto getenv  = [&env](const char* name) -> const char*
    {
        auto it = env.find(name);
        return it != env.end() ? it->second.c_str() : nullptr;
    };
    auto why    = std::string{};
    auto values = ph::process_values(getenv, {"./bin/my_app", "-n", "4"});
    EXPECT_EQ(*ph::expand("%cwd%", values, &why), std::filesystem::current_path().string());
    EXPECT_EQ(*ph::expand("%arg0%.%arg1%.%arg2%.%arg3%.", values, &why), "bin_my_app.-n.4..");
    EXPECT_GE(std::stoi(*ph::expand("%psize%", values, &why)), 1); // this process at least
    // Without formats: %F and %F_%H.%M, e.g. 2026-12-06 and 2026-12-06_04.30.
    const auto date = *ph::expand("%launch_date%", values, &why);
    const auto time = *ph::expand("%launch_time%", values, &why);
    EXPECT_EQ(date.size(), 10u) << date;
    EXPECT_EQ(time.rfind(date + "_", 0), 0u) << time;
    EXPECT_EQ(time.size(), 16u) << time;
    env["ROCPROF_DATE_FORMAT"] = "%Y";
    env["ROCPROF_TIME_FORMAT"] = "t%H";
    values                     = ph::process_values(getenv, {});
    EXPECT_EQ(*ph::expand("%launch_date%", values, &why), date.substr(0, 4));
    EXPECT_EQ(ph::expand("%launch_time%", values, &why)->substr(0, 1), "t");
    EXPECT_EQ(*ph::expand("x%arg0%", values, &why), "x"); // no command line: empty
    EXPECT_FALSE(ph::expand("%argx%", values, &why));
    EXPECT_NE(why.find("%arg0%, %arg1%"), std::string::npos) << why;
    EXPECT_TRUE(ph::has_placeholder("a/%launch_time%"));
    EXPECT_TRUE(ph::has_placeholder("%arg12%"));
}

// A prefix with directories (AMD's -o %hostname%/%pid%): the directories join the output path.
TEST(tool_config, output_file_name_with_directories)
{
    auto env    = std::map<std::string, std::string>{{"ROCPROF_OUTPUT_PATH", "/o"},
                                                     {"ROCPROF_OUTPUT_FILE_NAME", "a/%rank%/run"}};
    auto getenv = [&env](const char* name) -> const char*
    {
        auto it = env.find(name);
        return it != env.end() ? it->second.c_str() : nullptr;
    };
    auto r = rocprofiler::tool::read_config(getenv);
    ASSERT_TRUE(r.errors.empty()) << r.errors.front();
    EXPECT_EQ(r.cfg.output_path, "/o/a/0");
    EXPECT_EQ(r.cfg.output_file_name, "run");
    for(const auto* bad : {"/abs/run", "dir/"})
    {
        env["ROCPROF_OUTPUT_FILE_NAME"] = bad;
        r                               = rocprofiler::tool::read_config(getenv);
        ASSERT_EQ(r.errors.size(), 1u) << bad;
        EXPECT_NE(r.errors[0].find("must be a file name prefix"), std::string::npos) << r.errors[0];
    }
}

// No prefix given: AMD's default %hostname%/%pid%, the host's directory under the output path and
// the process id as the prefix; a prefix that is given is not the default.
TEST(tool_config, default_output_file_name_is_host_and_pid)
{
    auto env    = std::map<std::string, std::string>{{"ROCPROF_OUTPUT_PATH", "/o"}};
    auto getenv = [&env](const char* name) -> const char*
    {
        auto it = env.find(name);
        return it != env.end() ? it->second.c_str() : nullptr;
    };
    char host[256] = {};
    ASSERT_EQ(gethostname(host, sizeof(host) - 1), 0);
    auto r = rocprofiler::tool::read_config(getenv);
    ASSERT_TRUE(r.errors.empty()) << r.errors.front();
    EXPECT_EQ(r.cfg.output_path, std::string{"/o/"} + (host[0] != '\0' ? host : "localhost"));
    EXPECT_EQ(r.cfg.output_file_name, std::to_string(getpid()));
    EXPECT_TRUE(r.cfg.output_file_name_default);
    env["ROCPROF_OUTPUT_FILE_NAME"] = std::to_string(getpid());
    r                               = rocprofiler::tool::read_config(getenv);
    EXPECT_EQ(r.cfg.output_path, "/o");
    EXPECT_FALSE(r.cfg.output_file_name_default);
}

TEST(tool_config, reads_and_validates)
{
    auto env = std::map<std::string, std::string>{{"ROCPROF_KERNEL_TRACE", "1"},
                                                  {"ROCPROF_COUNTER_COLLECTION", "1"},
                                                  {"ROCPROF_KERNEL_REPLAY", "1"},
                                                  {"ROCPROF_COUNTER_GROUPS", "A B;C"},
                                                  {"ROCPROF_OUTPUT_FORMAT", "csv,json"},
                                                  {"ROCPROF_KERNEL_FILTER_RANGE", "[1-2]"}};
    auto get = [&env](const char* name) -> const char*
    {
        auto it = env.find(name);
        return it != env.end() ? it->second.c_str() : nullptr;
    };
    auto r = rocprofiler::tool::read_config(get);
    EXPECT_TRUE(r.errors.empty());
    EXPECT_TRUE(r.cfg.kernel_replay);
    EXPECT_TRUE(r.cfg.json && r.cfg.csv);
    EXPECT_FALSE(r.cfg.pftrace);
    EXPECT_EQ(r.cfg.collected_groups().size(), 2u);

    env["ROCPROF_OUTPUT_FORMAT"] = "pftrace";
    r                            = rocprofiler::tool::read_config(get);
    EXPECT_TRUE(r.errors.empty());
    EXPECT_TRUE(r.cfg.pftrace && !r.cfg.csv && !r.cfg.json);
    env["ROCPROF_OUTPUT_FORMAT"] = "csv,json,pftrace";
    r                            = rocprofiler::tool::read_config(get);
    EXPECT_TRUE(r.cfg.pftrace && r.cfg.csv && r.cfg.json);

    env["ROCPROF_OUTPUT_FORMAT"] = "csv,json,pftrace,rocpd";
    r                            = rocprofiler::tool::read_config(get);
#if defined(ROCPROFILER_TOOL_HAVE_SQLITE3)
    EXPECT_TRUE(r.errors.empty());
    EXPECT_TRUE(r.cfg.pftrace && r.cfg.csv && r.cfg.json && r.cfg.rocpd);
#else
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_NE(r.errors[0].find("rocpd output was not built: SQLite3 missing"), std::string::npos);
#endif

    // otf2: accepted where the OTF2 library was built in, an error naming why elsewhere.
    env["ROCPROF_OUTPUT_FORMAT"] = "csv,OTF2";
    r                            = rocprofiler::tool::read_config(get);
#if defined(ROCPROFILER_TOOL_HAVE_OTF2)
    EXPECT_TRUE(r.errors.empty());
    EXPECT_TRUE(r.cfg.csv && r.cfg.otf2 && !r.cfg.pftrace);
#else
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_NE(r.errors[0].find("otf2: built without OTF2 support"), std::string::npos);
    EXPECT_FALSE(r.cfg.otf2);
#endif

    env["ROCPROF_KERNEL_FILTER_EXCLUDE_REGEX"] = "(";
    env["ROCPROF_OUTPUT_FORMAT"]               = "xml";
    r                                          = rocprofiler::tool::read_config(get);
    EXPECT_EQ(r.errors.size(), 2u);
}

// Each silently ignored value of issue 17 is now an error naming the variable, the value and
// what is accepted.
TEST(tool_config, rejects_values_that_would_silently_do_nothing)
{
    auto env = std::map<std::string, std::string>{};
    auto get = [&env](const char* name) -> const char*
    {
        auto it = env.find(name);
        return it != env.end() ? it->second.c_str() : nullptr;
    };
    auto only_error = [&](const std::map<std::string, std::string>& vars) -> std::string
    {
        env    = vars;
        auto r = rocprofiler::tool::read_config(get);
        EXPECT_EQ(r.errors.size(), 1u);
        return r.errors.empty() ? std::string{} : r.errors.front();
    };
    auto e = only_error({{"ROCPROF_KERNEL_TRACE", "2"}});
    EXPECT_NE(e.find("ROCPROF_KERNEL_TRACE='2'"), std::string::npos) << e;
    EXPECT_NE(e.find("accepted: 1, 0, true, false"), std::string::npos) << e;
    e = only_error({{"ROCPROF_OUTPUT_FORMAT", ""}});
    EXPECT_NE(e.find("ROCPROF_OUTPUT_FORMAT=''"), std::string::npos) << e;
    EXPECT_NE(e.find("accepted: csv, json"), std::string::npos) << e;
    e = only_error({{"ROCPROF_OUTPUT_FORMAT", " , "}});
    EXPECT_NE(e.find("names no format"), std::string::npos) << e;
    e = only_error({{"ROCPROF_COUNTERS", "pmc: A B"}, {"ROCPROF_COUNTER_GROUPS", "A;NOPE"}});
    EXPECT_NE(e.find("group 2 names 'NOPE'"), std::string::npos) << e;
    e = only_error({{"ROCPROF_COUNTER_GROUPS", "A;;B"}});
    EXPECT_NE(e.find("group 2 is empty"), std::string::npos) << e;

    // The accepted spellings, and unset or empty, still work without a message.
    env    = {{"ROCPROF_KERNEL_TRACE", "on"}, {"ROCPROF_STATS", ""}, {"ROCPROF_SUMMARY", "No"}};
    auto r = rocprofiler::tool::read_config(get);
    EXPECT_TRUE(r.errors.empty());
    EXPECT_TRUE(r.cfg.kernel_trace);
    EXPECT_FALSE(r.cfg.stats || r.cfg.summary);
}

// AMD's variable names and forms: ROCPROF_MARKER_API_TRACE and ROCPROF_STATS_SUMMARY, with the
// earlier names still read (a deprecation note each, the new name winning); ROCPROF_COUNTER_GROUPS
// as "pmc:" lines; AMD's variables for what has no source here are named, not silently ignored.
TEST(tool_config, amds_variable_names_and_forms)
{
    auto env = std::map<std::string, std::string>{};
    auto get = [&env](const char* name) -> const char*
    {
        auto it = env.find(name);
        return it != env.end() ? it->second.c_str() : nullptr;
    };
    env    = {{"ROCPROF_MARKER_API_TRACE", "1"}, {"ROCPROF_STATS_SUMMARY", "1"}};
    auto r = rocprofiler::tool::read_config(get);
    EXPECT_TRUE(r.errors.empty());
    EXPECT_TRUE(r.notes.empty());
    EXPECT_TRUE(r.cfg.marker_trace && r.cfg.summary);

    env = {{"ROCPROF_MARKER_TRACE", "1"}, {"ROCPROF_SUMMARY", "1"}};
    r   = rocprofiler::tool::read_config(get);
    EXPECT_TRUE(r.errors.empty());
    EXPECT_TRUE(r.cfg.marker_trace && r.cfg.summary);
    ASSERT_EQ(r.notes.size(), 2u);
    EXPECT_EQ(r.notes[0],
              "ROCPROF_MARKER_TRACE is deprecated: use ROCPROF_MARKER_API_TRACE (AMD's name)");
    EXPECT_EQ(r.notes[1], "ROCPROF_SUMMARY is deprecated: use ROCPROF_STATS_SUMMARY (AMD's name)");
    env = {{"ROCPROF_MARKER_API_TRACE", "0"}, {"ROCPROF_MARKER_TRACE", "1"}};
    r   = rocprofiler::tool::read_config(get);
    EXPECT_FALSE(r.cfg.marker_trace);
    EXPECT_TRUE(r.notes.empty());

    // AMD's counter groups: one "pmc:" line a group; under kernel replay, a pass each.
    env = {{"ROCPROF_COUNTER_COLLECTION", "1"},
           {"ROCPROF_KERNEL_REPLAY", "1"},
           {"ROCPROF_COUNTER_GROUPS", "pmc: A B\npmc: C\n"}};
    r   = rocprofiler::tool::read_config(get);
    EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors.front());
    EXPECT_EQ(r.cfg.collected_groups(), (std::vector<std::vector<std::string>>{{"A", "B"}, {"C"}}));
    EXPECT_EQ(parse::decode_counter_groups("pmc: A B\npmc: C"),
              parse::decode_counter_groups("A B;C"));
    // One group without ROCPROF_COUNTERS: the counters of every dispatch.
    env = {{"ROCPROF_COUNTER_COLLECTION", "1"}, {"ROCPROF_COUNTER_GROUPS", "pmc: A B"}};
    r   = rocprofiler::tool::read_config(get);
    EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors.front());
    EXPECT_EQ(r.cfg.collected_groups(), (std::vector<std::vector<std::string>>{{"A", "B"}}));
    // Several, without kernel replay: AMD's multiplexing, one group per dispatch, switching every
    // dispatch (AMD's default interval) or every ROCPROF_COUNTER_GROUPS_INTERVAL dispatches.
    env = {{"ROCPROF_COUNTER_COLLECTION", "1"}, {"ROCPROF_COUNTER_GROUPS", "pmc: A\npmc: B"}};
    r   = rocprofiler::tool::read_config(get);
    EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors.front());
    EXPECT_TRUE(r.cfg.multiplexed());
    EXPECT_EQ(r.cfg.counter_groups_interval, 1u);
    EXPECT_EQ(r.cfg.collected_groups(), (std::vector<std::vector<std::string>>{{"A"}, {"B"}}));
    env["ROCPROF_COUNTER_GROUPS_INTERVAL"] = "3";
    r                                      = rocprofiler::tool::read_config(get);
    EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors.front());
    EXPECT_EQ(r.cfg.counter_groups_interval, 3u);
    // rocprofv3's form: every counter in ROCPROF_COUNTERS too, the interval asking for it.
    env["ROCPROF_COUNTERS"] = "pmc: A B";
    r                       = rocprofiler::tool::read_config(get);
    EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors.front());
    EXPECT_EQ(r.cfg.counter_groups_interval, 3u);
    // Without the interval, ROCPROF_COUNTERS is the one group of the run, as before.
    env.erase("ROCPROF_COUNTER_GROUPS_INTERVAL");
    r = rocprofiler::tool::read_config(get);
    EXPECT_FALSE(r.cfg.multiplexed());
    EXPECT_EQ(r.cfg.collected_groups(), (std::vector<std::vector<std::string>>{{"A", "B"}}));
    // Under kernel replay every dispatch gets every group: no multiplexing.
    env = {{"ROCPROF_COUNTER_COLLECTION", "1"},
           {"ROCPROF_KERNEL_REPLAY", "1"},
           {"ROCPROF_COUNTER_GROUPS", "A;B"},
           {"ROCPROF_COUNTER_GROUPS_INTERVAL", "2"}};
    r   = rocprofiler::tool::read_config(get);
    EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors.front());
    EXPECT_FALSE(r.cfg.multiplexed());
    // An interval that is not a positive number is an error, naming the variable and the value.
    for(const char* bad : {"0", "x", "-1", "2.5"})
    {
        env = {{"ROCPROF_COUNTER_COLLECTION", "1"},
               {"ROCPROF_COUNTER_GROUPS", "A;B"},
               {"ROCPROF_COUNTER_GROUPS_INTERVAL", bad}};
        r   = rocprofiler::tool::read_config(get);
        // Then, with no group collected, that counter collection has no counter.
        ASSERT_FALSE(r.errors.empty()) << bad;
        EXPECT_EQ(r.errors[0],
                  std::string{"ROCPROF_COUNTER_GROUPS_INTERVAL='"} + bad +
                      "' is not a positive number of dispatches (1, 2, ...)");
        EXPECT_FALSE(r.cfg.multiplexed());
    }
    env = {{"ROCPROF_COUNTER_GROUPS", "pmc: A\n\npmc:\n"}};
    r   = rocprofiler::tool::read_config(get);
    ASSERT_FALSE(r.errors.empty());
    EXPECT_NE(r.errors[0].find("group 2 is empty"), std::string::npos) << r.errors[0];

    env = {{"ROCPROF_KERNEL_TRACE", "1"},
           {"ROCPROF_HIP_RUNTIME_API_TRACE", "1"},
           {"ROCPROF_SCRATCH_MEMORY_TRACE", "0"}};
    r   = rocprofiler::tool::read_config(get);
    EXPECT_TRUE(r.errors.empty());
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_EQ(r.notes[0],
              "ROCPROF_HIP_RUNTIME_API_TRACE='1': not supported on this device (no source for it "
              "here); ignored");
}

// --kernel-filter-trace's variable.
TEST(tool_config, kernel_filter_trace)
{
    auto env = std::map<std::string, std::string>{{"ROCPROF_KERNEL_TRACE", "1"}};
    auto get = [&env](const char* name) -> const char*
    {
        auto it = env.find(name);
        return it != env.end() ? it->second.c_str() : nullptr;
    };
    EXPECT_FALSE(rocprofiler::tool::read_config(get).cfg.filter_trace);
    env["ROCPROF_KERNEL_FILTER_TRACE"] = "1";
    EXPECT_TRUE(rocprofiler::tool::read_config(get).cfg.filter_trace);
    env["ROCPROF_KERNEL_FILTER_TRACE"] = "maybe";
    EXPECT_EQ(rocprofiler::tool::read_config(get).errors.size(), 1u);
}

// The name filters survive what overflowed std::regex's recursion: a 90,000-character pattern and
// a 30,000-character name (with RE2), or refuse/bound them (std::regex fallback).
TEST(name_regex, long_patterns_and_names_do_not_exhaust_the_stack)
{
    using rocprofiler::tool::name_regex;
    auto why          = std::string{};
    auto long_pattern = name_regex::compile(std::string(90000, 'A'), &why);
    if(std::string{name_regex::engine()} == "RE2")
    {
        ASSERT_TRUE(long_pattern) << why;
        EXPECT_FALSE(long_pattern->search("vector_add"));
    }
    else
    {
        EXPECT_FALSE(long_pattern);
        EXPECT_NE(why.find("90000 characters"), std::string::npos) << why;
    }
    auto re = name_regex::compile("vector_add.*x$", &why);
    ASSERT_TRUE(re) << why;
    EXPECT_TRUE(re->search("vector_add" + std::string(30000, 'x')));
    auto alt = name_regex::compile("(x|y)+z", &why);
    ASSERT_TRUE(alt) << why;
    EXPECT_FALSE(alt->search(std::string(30000, 'x')));
    // Search anywhere in the name, as documented.
    EXPECT_TRUE(name_regex::compile("add", nullptr)->search("vector_add_kernel"));
    EXPECT_FALSE(name_regex::compile("^add", nullptr)->search("vector_add_kernel"));
}

TEST(kernel_filter, regex_and_iterations_are_decided_once_per_dispatch)
{
    auto cfg            = rocprofiler::tool::config{};
    cfg.include_regex   = rocprofiler::tool::name_regex::compile("^k", nullptr);
    cfg.exclude_regex   = rocprofiler::tool::name_regex::compile("skip", nullptr);
    cfg.iteration_range = *parse::parse_iteration_range("[2-3]", nullptr);
    auto filter         = rocprofiler::tool::kernel_filter{cfg};
    EXPECT_FALSE(filter.accept(1, "k_a")); // iteration 1 of k_a
    EXPECT_FALSE(filter.accept(2, "other"));
    EXPECT_FALSE(filter.accept(3, "k_skip"));
    EXPECT_TRUE(filter.accept(4, "k_a"));  // iteration 2
    EXPECT_TRUE(filter.accept(4, "k_a"));  // same dispatch (another pass / service): same answer
    EXPECT_TRUE(filter.accept(5, "k_a"));  // iteration 3
    EXPECT_FALSE(filter.accept(6, "k_a")); // iteration 4
    EXPECT_FALSE(filter.accept(1, "k_a"));
}

// ncu's --launch-skip / --launch-count: across all kernels, counting only what the other filters
// selected, decided once per dispatch.
TEST(kernel_filter, dispatch_skip_and_count_follow_the_other_filters)
{
    auto cfg           = rocprofiler::tool::config{};
    cfg.include_regex  = rocprofiler::tool::name_regex::compile("^k", nullptr);
    cfg.dispatch_skip  = 1;
    cfg.dispatch_count = 2;
    auto filter        = rocprofiler::tool::kernel_filter{cfg};
    EXPECT_FALSE(filter.accept(1, "other")); // not selected: not counted
    EXPECT_FALSE(filter.accept(2, "k_a"));   // selected #1: skipped
    EXPECT_FALSE(filter.accept(3, "other"));
    EXPECT_TRUE(filter.accept(4, "k_b"));  // selected #2
    EXPECT_TRUE(filter.accept(4, "k_b"));  // the same dispatch again (a replay pass)
    EXPECT_TRUE(filter.accept(5, "k_a"));  // selected #3
    EXPECT_FALSE(filter.accept(6, "k_a")); // past the count
    EXPECT_FALSE(filter.accept(2, "k_a"));

    auto only_skip          = rocprofiler::tool::config{};
    only_skip.dispatch_skip = 2;
    auto skip               = rocprofiler::tool::kernel_filter{only_skip};
    EXPECT_FALSE(skip.accepts_all());
    EXPECT_FALSE(skip.accept(10, "a"));
    EXPECT_FALSE(skip.accept(11, "b"));
    EXPECT_TRUE(skip.accept(12, "a"));
    EXPECT_TRUE(skip.accept(13, "c"));
}

// Decisions are remembered for the last decision_window dispatch ids, in memory that does not grow
// past it: within the window a dispatch keeps its first answer; a dispatch seen again after a later
// one took its slot is decided again (and counted), never answered with the later one's decision.
TEST(kernel_filter, decisions_are_kept_for_a_window_of_dispatch_ids)
{
    using rocprofiler::tool::kernel_filter;
    auto cfg           = rocprofiler::tool::config{};
    cfg.dispatch_count = 1;
    auto       filter  = kernel_filter{cfg};
    const auto window  = kernel_filter::decision_window;
    EXPECT_TRUE(filter.accept(1, "k"));  // selected #1
    EXPECT_FALSE(filter.accept(2, "k")); // past the count
    EXPECT_TRUE(filter.accept(1, "k"));  // remembered
    // Dispatch 1 + window takes dispatch 1's slot.
    EXPECT_FALSE(filter.accept(1 + window, "k"));
    EXPECT_FALSE(filter.accept(1 + window, "k"));
    EXPECT_EQ(filter.decided_again(), 0u);
    ::testing::internal::CaptureStderr();
    EXPECT_FALSE(filter.accept(1, "k")) << "decided again: the count is spent";
    const auto err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(filter.decided_again(), 1u);
    EXPECT_NE(err.find("dispatch 1 was seen again more than 1048576 dispatches after"),
              std::string::npos)
        << err;
    // The later dispatch keeps its slot and its answer.
    EXPECT_FALSE(filter.accept(1 + window, "k"));
    EXPECT_EQ(filter.decided_again(), 1u);
    // Dispatch 2's slot is still its own.
    EXPECT_FALSE(filter.accept(2, "k"));
    EXPECT_EQ(filter.decided_again(), 1u);
}

TEST(config, skip_count_names_and_placeholders_from_the_environment)
{
    auto env    = std::map<std::string, std::string>{{"ROCPROF_KERNEL_FILTER_DISPATCH_SKIP", "4"},
                                                     {"ROCPROF_KERNEL_FILTER_DISPATCH_COUNT", "2"},
                                                     {"ROCPROF_DEMANGLE_KERNELS", "0"},
                                                     {"ROCPROF_TRUNCATE_KERNELS", "1"},
                                                     {"ROCPROF_OUTPUT_PATH", "/o/%pid%"},
                                                     {"ROCPROF_OUTPUT_FILE_NAME", "r%rank%"}};
    auto getenv = [&env](const char* name) -> const char*
    {
        auto it = env.find(name);
        return it != env.end() ? it->second.c_str() : nullptr;
    };
    auto r = rocprofiler::tool::read_config(getenv);
    ASSERT_TRUE(r.errors.empty()) << r.errors.front();
    EXPECT_EQ(r.cfg.dispatch_skip, 4u);
    EXPECT_EQ(r.cfg.dispatch_count, std::optional<uint64_t>{2});
    EXPECT_FALSE(r.cfg.demangle_kernels);
    EXPECT_TRUE(r.cfg.truncate_kernels);
    EXPECT_EQ(r.cfg.output_path, "/o/" + std::to_string(getpid()));
    EXPECT_EQ(r.cfg.output_file_name, "r0");
    EXPECT_TRUE(
        rocprofiler::tool::read_config([](const char*) { return nullptr; }).cfg.demangle_kernels);

    env["ROCPROF_KERNEL_FILTER_DISPATCH_COUNT"] = "-1";
    env["ROCPROF_OUTPUT_PATH"]                  = "/o/%nope%";
    r                                           = rocprofiler::tool::read_config(getenv);
    ASSERT_EQ(r.errors.size(), 2u);
    auto all = r.errors[0] + "\n" + r.errors[1];
    EXPECT_NE(all.find("ROCPROF_KERNEL_FILTER_DISPATCH_COUNT='-1'"), std::string::npos) << all;
    EXPECT_NE(all.find("ROCPROF_OUTPUT_PATH='/o/%nope%': unknown placeholder '%nope%'"),
              std::string::npos)
        << all;
}

TEST(callback_guard, exceptions_never_leave_a_guarded_callback)
{
    using rocprofiler::tool::guarded;
    EXPECT_EQ(guarded("test", 5, [] { return 7; }), 7);
    EXPECT_EQ(guarded("test", 5, []() -> int { throw std::runtime_error{"boom"}; }), 5);
    EXPECT_EQ(guarded("test", 5, []() -> int { throw 3; }), 5); // not a std::exception
    auto ran = false;
    EXPECT_NO_THROW(guarded("test",
                            [&]
                            {
                                ran = true;
                                throw std::logic_error{"void callback"};
                            }));
    EXPECT_TRUE(ran);
    static_assert(noexcept(guarded("test", [] {})));
}
