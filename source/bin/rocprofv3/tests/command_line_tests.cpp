// rocprofv3's command line (options.hpp and the option groups behind it): what each option
// gives, the message of each bad command line, input files, the environment of each run, and the
// summary of application replay runs.
#include "command_line.hpp"
#include "config/config.hpp"
#include "mpi_ranks.hpp"
#include "options.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
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
} // namespace

namespace
{
std::string
write_temp(const std::string& name, const std::string& contents)
{
    auto path = testing::TempDir() + name;
    auto out  = std::ofstream{path};
    out << contents;
    return path;
}
} // namespace

TEST(command_line, errors_name_the_problem)
{
    auto expect_error = [](std::vector<const char*> args, const std::string& text)
    {
        auto r = run(args);
        EXPECT_FALSE(r.opts);
        EXPECT_EQ(r.exit_code, rocprofv3::exit_usage);
        EXPECT_NE(r.error.find(text), std::string::npos) << r.error;
    };
    expect_error({"--pmc", "A", "--replay-mode", "kernel", "--", "app"},
                 "--kernel-replay-beta-enabled");
    expect_error(
        {"--replay-mode", "kernel", "--kernel-replay-beta-enabled", "--kernel-trace", "--", "app"},
        "requires --pmc");
    expect_error({"--pmc", "A", "--replay-mode", "bogus", "--", "app"},
                 "'bogus' is not a replay mode (accepted: application, kernel");
    expect_error({"--replay-mode", "application", "--kernel-trace", "--", "app"},
                 "--replay-mode application requires --pmc");
    expect_error(
        {"--pmc", "A", "--replay-mode", "application", "--kernel-replay-beta-enabled", "--", "app"},
        "only meaningful with --replay-mode kernel");
#if !defined(ROCPROFILER_TOOL_HAVE_SQLITE3)
    expect_error({"--kernel-trace", "-f", "rocpd", "--", "app"},
                 "rocpd output was not built: SQLite3 missing");
#endif
    expect_error({"--kernel-trace"}, "no application");
    expect_error({"--kernel-trace", "--kernel-exclude-regex", "[", "--", "app"},
                 "regular expression");
    expect_error({"--kernel-trace", "-o", "/a/b", "--", "app"}, "is an absolute path");
    expect_error({"--", "app"}, "nothing to collect");
    expect_error({"--bogus", "--", "app"}, "bogus");
}

// No -f: rocpd, as AMD's rocprofv3 (csv in a build without SQLite3); -f csv still csv alone.
TEST(command_line, rocpd_is_the_default_format)
{
    auto r = run({"--kernel-trace", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
#if defined(ROCPROFILER_TOOL_HAVE_SQLITE3)
    const auto want = std::string{"rocpd"};
#else
    const auto want = std::string{"csv"};
#endif
    EXPECT_EQ(r.opts->output_formats, (std::vector<std::string>{want}));
    EXPECT_EQ(rocprofv3::tool_environment(*r.opts, 0)["ROCPROF_OUTPUT_FORMAT"], want);
    auto csv = run({"--kernel-trace", "-f", "csv", "--", "app"});
    ASSERT_TRUE(csv.opts) << csv.error;
    EXPECT_EQ(rocprofv3::tool_environment(*csv.opts, 0)["ROCPROF_OUTPUT_FORMAT"], "csv");
}

// -f otf2: accepted and passed on in a build with the OTF2 library; in one without, a
// configuration error (exit 2) before anything runs. The check itself is tested both ways here,
// whichever way this build was configured.
TEST(command_line, otf2_format_needs_the_library)
{
    auto r = run({"--kernel-trace", "-f", "csv", "OTF2", "--", "app"});
    if(rocprofv3::cli::otf2_built())
    {
        ASSERT_TRUE(r.opts) << r.error;
        EXPECT_EQ(r.opts->output_formats, (std::vector<std::string>{"csv", "otf2"}));
        EXPECT_EQ(rocprofv3::tool_environment(*r.opts, 0)["ROCPROF_OUTPUT_FORMAT"], "csv,otf2");
    }
    else
    {
        EXPECT_FALSE(r.opts);
        EXPECT_EQ(r.exit_code, rocprofv3::exit_configuration);
        EXPECT_NE(r.error.find("built without OTF2 support"), std::string::npos) << r.error;
    }

    const auto without = rocprofv3::cli::check_format_built("otf2", false, "job 2: ");
    ASSERT_TRUE(without);
    EXPECT_FALSE(without->opts);
    EXPECT_EQ(without->exit_code, rocprofv3::exit_configuration);
    EXPECT_NE(without->error.find("job 2: --output-format otf2: this rocprofv3 was built without "
                                  "OTF2 support"),
              std::string::npos)
        << without->error;
    EXPECT_NE(without->error.find("the application was not run"), std::string::npos);
    EXPECT_FALSE(rocprofv3::cli::check_format_built("otf2", true, ""));
    EXPECT_FALSE(rocprofv3::cli::check_format_built("csv", false, ""));
}

// Issue 17: each of these answered with a message about something else ("Could not convert",
// "give ... or --pmc", "no application given").
TEST(command_line, messages_name_what_is_wrong_with_the_input)
{
    auto expect_error = [](std::vector<const char*> args, const std::string& text)
    {
        auto r = run(args);
        EXPECT_FALSE(r.opts);
        EXPECT_EQ(r.exit_code, rocprofv3::exit_usage);
        EXPECT_NE(r.error.find(text), std::string::npos) << r.error;
        EXPECT_EQ(r.error.find("Could not convert"), std::string::npos) << r.error;
        EXPECT_EQ(r.error.find("nothing to collect"), std::string::npos) << r.error;
    };
    expect_error({"--pmc", "", "--", "app"}, "--pmc '' names no counter");
    expect_error({"--pmc", " , ", "--", "app"}, "--pmc ' , ' names no counter");
    expect_error({"--pmc=", "--", "app"}, "--pmc '' names no counter");
    expect_error({"--kernel-trace", "--pmc", "", "--", "app"}, "names no counter");

    auto path = testing::TempDir() + "rocprofv3_empty_input.txt";
    for(const auto* contents : {"", "# only a comment\n\n   \n"})
    {
        {
            auto out = std::ofstream{path};
            out << contents;
        }
        expect_error({"-i", path.c_str(), "--", "app"}, "has no 'pmc:' lines");
        expect_error({"--kernel-trace", "-i", path.c_str(), "--", "app"}, "has no 'pmc:' lines");
    }
    std::remove(path.c_str());

    expect_error({"--pmc", "A", "./app"},
                 "'./app' was taken as a value of --pmc; put '--' before the application");
    expect_error({"--pmc", "A", "B", "./app", "-n", "1"}, "put '--' before the application");
    expect_error({"--kernel-trace", "-f", "csv", "./app"},
                 "'./app' was taken as a value of -f; put '--' before the application");
    // Without a multi-value option before it, the application needs no "--".
    auto r = run({"--kernel-trace", "./app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_EQ(r.opts->command, (std::vector<std::string>{"./app"}));
    r = run({"--pmc", "A", "--kernel-trace", "./app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_EQ(r.opts->command, (std::vector<std::string>{"./app"}));
    EXPECT_EQ(r.opts->pmc_groups, (std::vector<std::vector<std::string>>{{"A"}}));
}

// Issue 17: application replay reported only the first failing run.
TEST(command_line, application_replay_reports_every_failing_pass)
{
    const auto groups = std::vector<std::vector<std::string>>{{"A", "B"}, {"C"}, {"D"}, {"E"}};
    auto       lines  = std::vector<std::string>{};
    EXPECT_EQ(rocprofv3::summarize_runs({0, 3, 0, 137}, groups, lines), 3);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0], "application replay pass 2 of 4 (--pmc C) failed with code 3");
    EXPECT_EQ(lines[1],
              "application replay pass 4 of 4 (--pmc E) failed with code 137 (killed by signal 9)");
    EXPECT_EQ(lines[2],
              "2 of 4 application replay passes failed; rocprofv3 exits with pass 2's "
              "code 3");

    lines.clear();
    EXPECT_EQ(rocprofv3::summarize_runs({5, 6, 7, 8}, groups, lines), 5);
    EXPECT_EQ(lines.size(), 5u);
    EXPECT_NE(lines[0].find("pass 1 of 4 (--pmc A B) failed with code 5"), std::string::npos);
    EXPECT_NE(lines[3].find("pass 4 of 4 (--pmc E) failed with code 8"), std::string::npos);

    lines.clear();
    EXPECT_EQ(rocprofv3::summarize_runs({0, 0, 0, 0}, groups, lines), 0);
    EXPECT_TRUE(lines.empty());
    // One run: its code is the application's, and it needs no summary.
    EXPECT_EQ(rocprofv3::summarize_runs({4}, {{"A"}}, lines), 4);
    EXPECT_TRUE(lines.empty());
}

TEST(command_line, groups_and_environment)
{
    auto r =
        run({"--pmc", "A", "B", "--pmc", "C", "--kernel-trace", "-d", "/tmp/x", "--", "app", "-v"});
    ASSERT_TRUE(r.opts) << r.error;
    const auto& o = *r.opts;
    EXPECT_EQ(o.pmc_groups, (std::vector<std::vector<std::string>>{{"A", "B"}, {"C"}}));
    EXPECT_EQ(o.command, (std::vector<std::string>{"app", "-v"}));
    EXPECT_EQ(rocprofv3::run_count(o), 2u); // application replay
    auto env2 = rocprofv3::tool_environment(o, 2);
    EXPECT_EQ(env2["ROCPROF_COUNTERS"], "pmc: C");
    EXPECT_EQ(env2["ROCPROF_OUTPUT_PATH"], "/tmp/x/pass_2");
    EXPECT_EQ(env2["ROCPROF_KERNEL_TRACE"], "1");
    EXPECT_EQ(env2.count("ROCPROF_KERNEL_REPLAY"), 0u);
    EXPECT_EQ(env2.count("ROCPROF_OUTPUT_FILE_NAME"), 0u); // default prefix: the app's pid

    auto k = run({"--pmc",
                  "A",
                  "B",
                  "--pmc",
                  "C",
                  "--replay-mode",
                  "kernel",
                  "--kernel-replay-beta-enabled",
                  "-o",
                  "p",
                  "-f",
                  "csv",
                  "json",
                  "--",
                  "app"});
    ASSERT_TRUE(k.opts) << k.error;
    EXPECT_EQ(rocprofv3::run_count(*k.opts), 1u);
    auto env = rocprofv3::tool_environment(*k.opts, 0);
    EXPECT_EQ(env["ROCPROF_KERNEL_REPLAY"], "1");
    EXPECT_EQ(env["ROCPROF_COUNTER_GROUPS"], "A B;C");
    EXPECT_EQ(env["ROCPROF_COUNTERS"], "pmc: A B C");
    EXPECT_EQ(env["ROCPROF_OUTPUT_FORMAT"], "csv,json");
    EXPECT_EQ(env["ROCPROF_OUTPUT_FILE_NAME"], "p");

    // pftrace combines with the others, in any spelling case; the list reaches the tool sorted.
    auto p = run({"--kernel-trace", "-f", "PFTRACE", "csv", "json", "--", "app"});
    ASSERT_TRUE(p.opts) << p.error;
    EXPECT_EQ(rocprofv3::tool_environment(*p.opts, 0)["ROCPROF_OUTPUT_FORMAT"], "csv,json,pftrace");
}

// The CUDA API traces: each flag alone is something to collect; -r is upstream's runtime trace
// (kernels, copies, markers and the runtime API), -s adds the driver API.
TEST(command_line, runtime_and_sys_trace)
{
    auto rt = run({"--cuda-runtime-trace", "--", "app"});
    ASSERT_TRUE(rt.opts) << rt.error;
    auto env = rocprofv3::tool_environment(*rt.opts, 0);
    EXPECT_EQ(env["ROCPROF_CUDA_RUNTIME_TRACE"], "1");
    EXPECT_EQ(env.count("ROCPROF_CUDA_DRIVER_TRACE"), 0u);
    EXPECT_EQ(env.count("ROCPROF_KERNEL_TRACE"), 0u);
    auto drv = run({"--cuda-driver-trace", "--", "app"});
    ASSERT_TRUE(drv.opts) << drv.error;
    EXPECT_EQ(rocprofv3::tool_environment(*drv.opts, 0)["ROCPROF_CUDA_DRIVER_TRACE"], "1");

    auto r = run({"-r", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    env = rocprofv3::tool_environment(*r.opts, 0);
    for(const auto* name : {"ROCPROF_KERNEL_TRACE",
                            "ROCPROF_MEMORY_COPY_TRACE",
                            "ROCPROF_MARKER_API_TRACE",
                            "ROCPROF_CUDA_RUNTIME_TRACE"})
        EXPECT_EQ(env[name], "1") << name;
    EXPECT_EQ(env.count("ROCPROF_CUDA_DRIVER_TRACE"), 0u);

    auto sys = run({"--sys-trace", "--", "app"});
    ASSERT_TRUE(sys.opts) << sys.error;
    env = rocprofv3::tool_environment(*sys.opts, 0);
    EXPECT_EQ(env["ROCPROF_CUDA_RUNTIME_TRACE"], "1");
    EXPECT_EQ(env["ROCPROF_CUDA_DRIVER_TRACE"], "1");
    EXPECT_EQ(env["ROCPROF_KERNEL_TRACE"], "1");

    auto none = run({"--", "app"});
    EXPECT_FALSE(none.opts);
    EXPECT_NE(none.error.find("--runtime-trace"), std::string::npos) << none.error;
}

// -A/--agent-index reaches the tool as ROCPROF_AGENT_INDEX; only upstream's three values are taken,
// by the command line and by the tool.
TEST(command_line, agent_index_reaches_the_tool)
{
    for(const char* mode : {"absolute", "relative", "type-relative"})
    {
        for(const char* flag : {"-A", "--agent-index"})
        {
            auto r = run({"--kernel-trace", flag, mode, "--", "app"});
            ASSERT_TRUE(r.opts) << r.error;
            EXPECT_EQ(rocprofv3::tool_environment(*r.opts, 0)["ROCPROF_AGENT_INDEX"], mode);
        }
        auto cfg = rocprofiler::tool::read_config(
            [mode](const char* name) -> const char*
            { return std::string{name} == "ROCPROF_AGENT_INDEX" ? mode : nullptr; });
        EXPECT_TRUE(cfg.errors.empty()) << cfg.errors.front();
        EXPECT_EQ(cfg.cfg.agent_index, mode);
    }
    // Without it no variable: the tool's default is relative.
    auto d = run({"--kernel-trace", "--", "app"});
    ASSERT_TRUE(d.opts) << d.error;
    EXPECT_EQ(rocprofv3::tool_environment(*d.opts, 0).count("ROCPROF_AGENT_INDEX"), 0u);
    EXPECT_EQ(rocprofiler::tool::read_config([](const char*) -> const char* { return nullptr; })
                  .cfg.agent_index,
              "relative");

    auto bad = run({"--kernel-trace", "-A", "bogus", "--", "app"});
    EXPECT_FALSE(bad.opts);
    EXPECT_EQ(bad.exit_code, rocprofv3::exit_usage);
    EXPECT_NE(bad.error.find("--agent-index: bogus not in {absolute,relative,type-relative}"),
              std::string::npos)
        << bad.error;
    auto cfg = rocprofiler::tool::read_config(
        [](const char* name) -> const char*
        { return std::string{name} == "ROCPROF_AGENT_INDEX" ? "Absolute" : nullptr; });
    ASSERT_EQ(cfg.errors.size(), 1u);
    EXPECT_EQ(cfg.errors[0],
              "ROCPROF_AGENT_INDEX='Absolute': accepted: absolute, relative, "
              "type-relative");
}

TEST(command_line, memory_copy_trace)
{
    // Alone it is something to collect; the tool learns it from its variable.
    auto r = run({"--memory-copy-trace", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_TRUE(r.opts->memory_copy_trace);
    auto env = rocprofv3::tool_environment(*r.opts, 0);
    EXPECT_EQ(env["ROCPROF_MEMORY_COPY_TRACE"], "1");
    EXPECT_EQ(env.count("ROCPROF_KERNEL_TRACE"), 0u);
    // Without it, no variable; with nothing at all, the error names it among the choices.
    auto k = run({"--kernel-trace", "--", "app"});
    ASSERT_TRUE(k.opts) << k.error;
    EXPECT_EQ(rocprofv3::tool_environment(*k.opts, 0).count("ROCPROF_MEMORY_COPY_TRACE"), 0u);
    auto none = run({"--", "app"});
    EXPECT_FALSE(none.opts);
    EXPECT_NE(none.error.find("--memory-copy-trace"), std::string::npos) << none.error;

    auto cfg = rocprofiler::tool::read_config(
        [](const char* name) -> const char*
        { return std::string{name} == "ROCPROF_MEMORY_COPY_TRACE" ? "1" : nullptr; });
    ASSERT_TRUE(cfg.errors.empty()) << cfg.errors.front();
    EXPECT_TRUE(cfg.cfg.memory_copy_trace);
    EXPECT_TRUE(cfg.cfg.uses_buffer());
    EXPECT_FALSE(cfg.cfg.records_dispatches());
}

// Issue 16: AMD's documented forms are accepted, each as upstream documents it.
TEST(command_line, upstream_forms)
{
    auto r = run({"-v"});
    EXPECT_FALSE(r.opts);
    EXPECT_EQ(r.exit_code, rocprofv3::exit_ok);
    EXPECT_NE(r.output.find("rocprofv3 "), std::string::npos);

    r = run({"--kernel-trace", "--kernel-iteration-range", "[1-2],[3-4]", "[7-]", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_EQ(r.opts->iteration_range, "[1-2],[3-4], [7-]");
    auto env = rocprofv3::tool_environment(*r.opts, 0);
    EXPECT_EQ(env["ROCPROF_KERNEL_FILTER_RANGE"], "[1-2],[3-4], [7-]");

    r = run({"--kernel-trace",
             "--kernel-dispatch-skip",
             "3",
             "--kernel-dispatch-count=2",
             "-T",
             "-M",
             "--output-config",
             "--progress",
             "--log-level",
             "TRACE",
             "--preload",
             "libx.so",
             "--",
             "app"});
    ASSERT_TRUE(r.opts) << r.error;
    env = rocprofv3::tool_environment(*r.opts, 0);
    EXPECT_EQ(env["ROCPROF_KERNEL_FILTER_DISPATCH_SKIP"], "3");
    EXPECT_EQ(env["ROCPROF_KERNEL_FILTER_DISPATCH_COUNT"], "2");
    EXPECT_EQ(env["ROCPROF_TRUNCATE_KERNELS"], "1");
    EXPECT_EQ(env["ROCPROF_DEMANGLE_KERNELS"], "0");
    EXPECT_EQ(env["ROCPROF_OUTPUT_CONFIG_FILE"], "1");
    EXPECT_EQ(env["ROCPROF_PROGRESS"], "1");
    EXPECT_EQ(env["ROCPROFILER_LOG_LEVEL"], "trace");
    EXPECT_EQ(env["ROCPROF_LOG_LEVEL"], "trace");
    EXPECT_EQ(r.opts->preload, (std::vector<std::string>{"libx.so"}));
    // fatal is the SDK's error level; env/config only print rocprofv3's own.
    r = run({"--kernel-trace", "--log-level", "fatal", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_EQ(rocprofv3::tool_environment(*r.opts, 0)["ROCPROFILER_LOG_LEVEL"], "error");
    r = run({"--kernel-trace", "--log-level", "env", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_EQ(rocprofv3::tool_environment(*r.opts, 0).count("ROCPROFILER_LOG_LEVEL"), 0u);

    // Placeholders travel to the tool unexpanded; the directory checked first is the fixed part.
    r = run({"--kernel-trace", "-d", "out/%hostname%/%pid%", "-o", "r_%rank%", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    env = rocprofv3::tool_environment(*r.opts, 0);
    EXPECT_NE(env["ROCPROF_OUTPUT_PATH"].find("/out/%hostname%/%pid%"), std::string::npos);
    EXPECT_EQ(env["ROCPROF_OUTPUT_FILE_NAME"], "r_%rank%");
}

TEST(command_line, bad_values_name_the_flag_and_the_value)
{
    auto expect_error = [](std::vector<const char*> args, const std::string& text)
    {
        auto r = run(args);
        EXPECT_FALSE(r.opts);
        EXPECT_EQ(r.exit_code, rocprofv3::exit_usage);
        EXPECT_NE(r.error.find(text), std::string::npos) << r.error;
    };
    expect_error({"--kernel-trace", "--kernel-iteration-range", "[1-2", "--", "app"},
                 "--kernel-iteration-range '[1-2': missing ']'");
    expect_error({"--kernel-trace", "--kernel-iteration-range", "[1-2]", "[x]", "--", "app"},
                 "--kernel-iteration-range '[x]'");
    expect_error({"--kernel-trace", "--kernel-dispatch-skip", "x", "--", "app"},
                 "--kernel-dispatch-skip 'x' is not a number of dispatches");
    expect_error({"--kernel-trace", "--kernel-dispatch-count", "-2", "--", "app"},
                 "--kernel-dispatch-count");
    expect_error({"--kernel-trace", "--log-level", "loud", "--", "app"},
                 "--log-level 'loud' is not a log level");
    expect_error({"--kernel-trace", "--preload", "/no/such/lib.so", "--", "app"},
                 "--preload '/no/such/lib.so': no such file");
    expect_error({"--kernel-trace", "-d", "out/%pidx%", "--", "app"},
                 "--output-directory 'out/%pidx%': unknown placeholder '%pidx%'");
    // The extension is checked before anything is read; a missing file is named.
    expect_error({"--kernel-trace", "-i", "jobs.xml", "--", "app"},
                 "'jobs.xml' does not have a recognized extension");
    expect_error({"--kernel-trace", "-i", "/nonexistent/jobs.json", "--", "app"},
                 "cannot read the input file: /nonexistent/jobs.json cannot be read: No such file");
}

// Every other option of AMD's rocprofv3 is accepted, with its values, and answered with one
// message naming the options given (exit 2, nothing run), never a parser error.
TEST(command_line, other_upstream_options_are_not_supported_on_this_device)
{
    for(const auto& u : rocprofv3::unsupported_options())
    {
        auto names = std::string{u.names};
        auto name  = names.substr(names.rfind(',') + 1);
        auto args  = std::vector<const char*>{"--kernel-trace", name.c_str()};
        if(u.values != 0) args.push_back("1");
        if(u.values < 0) args.push_back("2");
        args.push_back("--");
        args.push_back("app");
        auto r = run(args);
        EXPECT_FALSE(r.opts) << name;
        EXPECT_EQ(r.exit_code, rocprofv3::exit_configuration) << name;
        EXPECT_NE(r.error.find(name + ": not supported on this device"), std::string::npos)
            << r.error;
    }
    // A BOOL value as upstream allows it, and several at once: one message naming each.
    auto r = run({"--hip-trace", "true", "--hsa-trace", "--rccl-trace", "--", "app"});
    EXPECT_EQ(r.exit_code, rocprofv3::exit_configuration);
    EXPECT_NE(r.error.find("--hip-trace, --hsa-trace, --rccl-trace: not supported"),
              std::string::npos)
        << r.error;
    EXPECT_EQ(std::count(r.error.begin(), r.error.end(), '\n'), 1) << r.error;
}

TEST(command_line, input_files_as_upstream)
{
    // Text: one run per 'pmc:' line, in pmc_<N>/ (even a single line), never mixed with --pmc.
    auto txt = write_temp("rocprofv3_input.txt", "pmc: A B\npmc: C\n");
    auto r   = run({"-i", txt.c_str(), "-d", "/out", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_EQ(r.opts->pmc_groups, (std::vector<std::vector<std::string>>{{"A", "B"}, {"C"}}));
    EXPECT_EQ(rocprofv3::run_count(*r.opts), 2u);
    EXPECT_EQ(rocprofv3::tool_environment(*r.opts, 2)["ROCPROF_OUTPUT_PATH"], "/out/pmc_2");
    auto one = write_temp("rocprofv3_input_one.txt", "pmc: A\n");
    r        = run({"-i", one.c_str(), "-d", "/out", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_EQ(rocprofv3::pass_of_run(*r.opts, 1, rocprofv3::run_count(*r.opts)), 1u);
    EXPECT_EQ(rocprofv3::run_directory(*r.opts, 1), "/out/pmc_1");
    r = run({"--pmc", "X", "-i", txt.c_str(), "--", "app"});
    EXPECT_NE(r.error.find("both name counters"), std::string::npos) << r.error;
    // --pmc groups keep pass_<N>/ (API.md).
    r = run({"--pmc", "A", "--pmc", "B", "-d", "/out", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_EQ(rocprofv3::run_directory(*r.opts, 2), "/out/pass_2");

    // JSON: one run per job; the command line's options apply to every job.
    auto json = write_temp("rocprofv3_jobs.json",
                           R"({"jobs": [{"pmc": ["A", "B"], "kernel_iteration_range": "[1-2],[3-4]",
                                         "output_format": ["csv", "json"], "truncate_kernels": true},
                                        {"kernel_trace": true, "kernel_include_regex": "^v",
                                         "hip_trace": false}]})");
    r         = run({"-i", json.c_str(), "-d", "/out", "-o", "run", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    ASSERT_EQ(r.opts->jobs.size(), 2u);
    const auto& j1 = r.opts->jobs[0];
    EXPECT_EQ(j1.pmc_groups, (std::vector<std::vector<std::string>>{{"A", "B"}}));
    EXPECT_EQ(j1.iteration_range, "[1-2],[3-4]");
    EXPECT_EQ(j1.output_formats, (std::vector<std::string>{"csv", "json"}));
    EXPECT_TRUE(j1.truncate_kernels);
    EXPECT_EQ(j1.output_file, "run");
    EXPECT_EQ(rocprofv3::run_directory(j1, 0), "/out/pass_1");
    EXPECT_TRUE(r.opts->jobs[1].kernel_trace);
    EXPECT_EQ(rocprofv3::run_directory(r.opts->jobs[1], 0), "/out/pass_2");

    auto expect_error = [](const std::string& contents, const std::string& text)
    {
        auto path = write_temp("rocprofv3_bad_jobs.json", contents);
        auto r    = run({"-i", path.c_str(), "-o", "run", "--", "app"});
        EXPECT_FALSE(r.opts) << contents;
        EXPECT_NE(r.error.find(text), std::string::npos) << r.error;
    };
    expect_error(R"({"jobs": [{"kernel_trace": true, "output_file": "x"}]})",
                 "job 1: 'output_file' is x here and run on the command line (--output-file)");
    expect_error(R"({"jobs": [{"kernel_trace": "yes"}]})", "expected true or false");
    expect_error(R"({"jobs": []})", "expected a 'jobs' list");
    expect_error(R"({"jobs": [{"kernel_trace": true}, {"hsa_trace": true}]})",
                 "job 2: hsa_trace: not supported on this device");
    expect_error(R"({"jobs": [{"kernel_trace": true, "kernel_filter_trace": "on"}]})",
                 "'kernel_filter_trace' is \"on\", expected true or false");
    expect_error(R"({"jobs": [{"kernel_trace": true, "kernel_iteration_range": "[0]"}]})",
                 "job 1: --kernel-iteration-range '[0]'");
    expect_error("{\"jobs\": [", "input file");
}

// AMD's input schema: keys that are no option are ignored with one warning each (naming the key,
// once however many jobs give it); its other spellings are read; what this device cannot do is a
// configuration error (exit 2) saying why.
TEST(command_line, input_files_take_amds_schema)
{
    auto json = write_temp("rocprofv3_schema_jobs.json",
                           R"({"jobs": [{"kernel_trace": true, "bogus": 1, "sub_directory": "x"},
                                        {"kernel_trace": true, "bogus": 2, "other": false}]})");
    auto r    = run({"-i", json.c_str(), "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    ASSERT_EQ(r.warnings.size(), 2u);
    EXPECT_NE(r.warnings[0].find("job 1: unknown key 'bogus' ignored"), std::string::npos)
        << r.warnings[0];
    EXPECT_NE(r.warnings[1].find("job 2: unknown key 'other' ignored"), std::string::npos)
        << r.warnings[1];
    EXPECT_TRUE(r.opts->jobs[1].kernel_trace);

    // list_metrics: upstream's earlier name of --list-avail.
    auto list = write_temp("rocprofv3_list_metrics.json", R"({"jobs": [{"list_metrics": true}]})");
    r         = run({"-i", list.c_str()});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_TRUE(r.opts->list_avail);
    EXPECT_TRUE(r.warnings.empty());

    auto expect_exit = [](const std::string& contents, int code, const std::string& text)
    {
        auto path = write_temp("rocprofv3_schema_bad.json", contents);
        auto r    = run({"-i", path.c_str(), "--", "app"});
        EXPECT_FALSE(r.opts) << contents;
        EXPECT_EQ(r.exit_code, code) << contents;
        EXPECT_NE(r.error.find(text), std::string::npos) << r.error;
    };
    // The schema's spelling of --hsa-finalizer-trace; its dashed keys.
    expect_exit(R"({"jobs": [{"kernel_trace": true, "hsa_finalize_trace": true}]})",
                rocprofv3::exit_configuration,
                "job 1: hsa_finalizer_trace: not supported on this device");
    expect_exit(R"({"jobs": [{"kernel_trace": true, "minimum-output-data": 4}]})",
                rocprofv3::exit_configuration,
                "job 1: minimum_output_data: not supported on this device");
    auto off = write_temp("rocprofv3_schema_off.json",
                          R"({"jobs": [{"kernel_trace": true, "hsa_finalize_trace": false}]})");
    r        = run({"-i", off.c_str(), "--", "app"});
    EXPECT_TRUE(r.opts) << r.error;
    // AMD's multiplexing: pmc_groups become the job's groups, counted in turns in one run.
    auto mux =
        write_temp("rocprofv3_schema_mux.json",
                   R"({"jobs": [{"pmc_groups": [["A", "B"], ["C"]], "pmc_group_interval": 4}]})");
    r = run({"-i", mux.c_str(), "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    ASSERT_EQ(r.opts->jobs.size(), 1u);
    EXPECT_EQ(r.opts->jobs[0].pmc_groups,
              (std::vector<std::vector<std::string>>{{"A", "B"}, {"C"}}));
    EXPECT_EQ(r.opts->jobs[0].pmc_group_interval, std::optional<uint64_t>{4});
    EXPECT_TRUE(r.opts->jobs[0].multiplexed());
    EXPECT_EQ(rocprofv3::run_count(r.opts->jobs[0]), 1u);
    auto env = rocprofv3::tool_environment(r.opts->jobs[0], 0);
    EXPECT_EQ(env["ROCPROF_COUNTER_GROUPS_INTERVAL"], "4");
    EXPECT_EQ(env["ROCPROF_COUNTER_GROUPS"], "A B;C");
    // The default interval is AMD's, 1; a YAML number or its text is read alike.
    auto yaml = write_temp("rocprofv3_schema_mux.yaml",
                           "jobs:\n  - pmc_groups: [[A], [B]]\n  - pmc_groups: [[A], [B]]\n"
                           "    pmc_group_interval: '7'\n");
    r         = run({"-i", yaml.c_str(), "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    ASSERT_EQ(r.opts->jobs.size(), 2u);
    EXPECT_EQ(r.opts->jobs[0].pmc_group_interval, std::optional<uint64_t>{1});
    EXPECT_EQ(r.opts->jobs[1].pmc_group_interval, std::optional<uint64_t>{7});
    // A replay mode collects every group for every dispatch: no multiplexing, the interval
    // ignored with a warning.
    r = run({"--replay-mode",
             "kernel",
             "--kernel-replay-beta-enabled",
             "-i",
             mux.c_str(),
             "--",
             "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_FALSE(r.opts->jobs[0].multiplexed());
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_NE(r.warnings[0].find("pmc_group_interval is ignored: under --replay-mode kernel"),
              std::string::npos)
        << r.warnings[0];
    // The counters in one place only, as upstream.
    expect_exit(R"({"jobs": [{"pmc_groups": [["A"], ["B"]], "pmc": ["C"]}]})",
                rocprofv3::exit_configuration,
                "job 1: pmc_groups and the job's pmc both name counters");
    r = run({"--pmc", "C", "-i", mux.c_str(), "--", "app"});
    EXPECT_FALSE(r.opts);
    EXPECT_EQ(r.exit_code, rocprofv3::exit_configuration);
    EXPECT_NE(r.error.find("pmc_groups and --pmc both name counters"), std::string::npos)
        << r.error;
    for(const auto* bad : {R"(0)", R"(-2)", R"("x")", R"(1.5)", R"([3])"})
        expect_exit(
            std::string{R"({"jobs": [{"pmc_groups": [["A"], ["B"]], "pmc_group_interval": )"} +
                bad + "}]}",
            rocprofv3::exit_usage,
            "expected a positive number of dispatches");
    expect_exit(R"({"jobs": [{"pmc_groups": {"A": 1}}]})",
                rocprofv3::exit_usage,
                "pmc_groups is {\"A\":1}, expected a list of counter groups");
    expect_exit(R"({"jobs": [{"pmc_groups": [["A", 3]]}]})",
                rocprofv3::exit_usage,
                "pmc_groups has 3, expected counter names");
    // The interval without groups asks for nothing: a warning.
    auto lone = write_temp("rocprofv3_schema_lone.json",
                           R"({"jobs": [{"pmc": ["A"], "pmc_group_interval": 4}]})");
    r         = run({"-i", lone.c_str(), "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_FALSE(r.opts->jobs[0].multiplexed());
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_NE(r.warnings[0].find("pmc_group_interval without pmc_groups is ignored"),
              std::string::npos)
        << r.warnings[0];
}

// As upstream: a key given both on the command line and in a job is accepted when both give the
// same value, in any of the command line's spellings; different values are an error naming both.
TEST(command_line, input_file_keys_equal_to_the_command_line)
{
    auto json =
        write_temp("rocprofv3_same_jobs.json",
                   R"({"jobs": [{"pmc": ["A", "B"], "output_file": "run", "kernel_trace": true,
                                         "output_format": ["csv", "json"], "truncate_kernels": true,
                                         "kernel_dispatch_count": 3}]})");
    for(auto args : std::vector<std::vector<const char*>>{
            {"--pmc", "A", "B", "-o", "run", "--kernel-trace", "-f", "csv", "json", "-T"},
            {"--pmc",
             "A",
             "B",
             "--output-file=run",
             "--output-format",
             "csv",
             "json",
             "--truncate-kernels",
             "--kernel-dispatch-count=3"}})
    {
        args.insert(args.end(), {"-i", json.c_str(), "--", "app"});
        auto r = run(args);
        ASSERT_TRUE(r.opts) << r.error;
        ASSERT_EQ(r.opts->jobs.size(), 1u);
        const auto& j = r.opts->jobs[0];
        EXPECT_EQ(j.pmc_groups, (std::vector<std::vector<std::string>>{{"A", "B"}}));
        EXPECT_EQ(j.output_file, "run");
        EXPECT_EQ(j.output_formats, (std::vector<std::string>{"csv", "json"}));
        EXPECT_TRUE(j.truncate_kernels);
        EXPECT_TRUE(j.kernel_trace);
        EXPECT_EQ(j.dispatch_count, 3u);
    }
    auto expect_error = [&](std::vector<const char*> args, const std::string& text)
    {
        args.insert(args.end(), {"-i", json.c_str(), "--", "app"});
        auto r = run(args);
        EXPECT_FALSE(r.opts);
        EXPECT_EQ(r.exit_code, rocprofv3::exit_usage);
        EXPECT_NE(r.error.find(text), std::string::npos) << r.error;
    };
    expect_error({"--pmc", "A", "C"},
                 "job 1: 'pmc' is A B here and A C on the command line (--pmc)");
    expect_error({"-f", "csv"}, "'output_format' is csv json here and csv on the command line");
    expect_error({"--kernel-dispatch-count", "4"}, "'kernel_dispatch_count' is 3 here and 4");
}

// --kernel-filter-trace (and the job key): the filters also drop dispatches from the trace.
// Without it the tool library is told nothing, and keeps every dispatch in the trace.
TEST(command_line, kernel_filter_trace)
{
    auto r = run({"--kernel-trace", "--kernel-include-regex", "^v", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_FALSE(r.opts->filter_trace);
    EXPECT_EQ(rocprofv3::tool_environment(*r.opts, 0).count("ROCPROF_KERNEL_FILTER_TRACE"), 0u);
    r = run(
        {"--kernel-trace", "--kernel-include-regex", "^v", "--kernel-filter-trace", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_EQ(rocprofv3::tool_environment(*r.opts, 0)["ROCPROF_KERNEL_FILTER_TRACE"], "1");
    auto json = write_temp("rocprofv3_filter_trace.json",
                           R"({"jobs": [{"kernel_trace": true, "kernel_filter_trace": true}]})");
    r         = run({"-i", json.c_str(), "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_TRUE(r.opts->jobs.at(0).filter_trace);
}

// --replay-mode application: what several --pmc groups get without it, also for one group.
TEST(command_line, replay_mode_application)
{
    auto r = run({"--pmc",
                  "A",
                  "B",
                  "--pmc",
                  "C",
                  "--replay-mode",
                  "application",
                  "-d",
                  "/out",
                  "--",
                  "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_FALSE(r.opts->kernel_replay());
    EXPECT_EQ(rocprofv3::run_count(*r.opts), 2u);
    auto env = rocprofv3::tool_environment(*r.opts, 2);
    EXPECT_EQ(env["ROCPROF_COUNTERS"], "pmc: C");
    EXPECT_EQ(env["ROCPROF_OUTPUT_PATH"], "/out/pass_2");
    EXPECT_EQ(env.count("ROCPROF_KERNEL_REPLAY"), 0u);
    r = run({"--pmc", "A", "--replay-mode=application", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_EQ(rocprofv3::run_count(*r.opts), 1u);
    EXPECT_EQ(rocprofv3::tool_environment(*r.opts, 0)["ROCPROF_COUNTERS"], "pmc: A");
}

// As AMD's rocprofv3: ROCPROF_OUTPUT_PATH, ROCPROF_OUTPUT_FILE_NAME and ROCPROF_PRELOAD are the
// defaults of -d, -o and --preload; the options win over them. -S and --marker-trace reach the
// tool library under AMD's names.
TEST(command_line, environment_defaults_and_amds_names)
{
    setenv("ROCPROF_OUTPUT_PATH", "/from_env", 1);
    setenv("ROCPROF_OUTPUT_FILE_NAME", "env_prefix", 1);
    auto r = run({"--kernel-trace", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_EQ(r.opts->output_directory, "/from_env");
    EXPECT_EQ(r.opts->output_file, "env_prefix");
    EXPECT_EQ(rocprofv3::tool_environment(*r.opts, 0)["ROCPROF_OUTPUT_PATH"], "/from_env");
    r = run({"--kernel-trace", "-d", "/given", "--output-file=given", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_EQ(r.opts->output_directory, "/given");
    EXPECT_EQ(r.opts->output_file, "given");
    // A job's key wins over the variable too.
    auto json = write_temp("rocprofv3_env_jobs.json",
                           R"({"jobs": [{"kernel_trace": true, "output_file": "job"}]})");
    r         = run({"-i", json.c_str(), "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_EQ(r.opts->jobs.at(0).output_file, "job");
    EXPECT_EQ(r.opts->jobs.at(0).output_directory, "/from_env");
    unsetenv("ROCPROF_OUTPUT_PATH");
    unsetenv("ROCPROF_OUTPUT_FILE_NAME");
    r = run({"--kernel-trace", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_EQ(r.opts->output_directory, ".");
    EXPECT_EQ(r.opts->output_file, "");

    // ROCPROF_PRELOAD: ':'-separated, checked like --preload (a missing library is named); a bare
    // name is left to the dynamic loader.
    setenv("ROCPROF_PRELOAD", "/nonexistent/libone.so:", 1);
    r = run({"--kernel-trace", "--", "app"});
    EXPECT_FALSE(r.opts);
    EXPECT_NE(r.error.find("/nonexistent/libone.so"), std::string::npos) << r.error;
    setenv("ROCPROF_PRELOAD", "libone.so::libtwo.so", 1);
    r = run({"--kernel-trace", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_EQ(r.opts->preload, (std::vector<std::string>{"libone.so", "libtwo.so"}));
    r = run({"--kernel-trace", "--preload", "libthree.so", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_EQ(r.opts->preload, (std::vector<std::string>{"libthree.so"}));
    unsetenv("ROCPROF_PRELOAD");

    r = run({"--kernel-trace", "-S", "--marker-trace", "--", "app"});
    ASSERT_TRUE(r.opts) << r.error;
    auto env = rocprofv3::tool_environment(*r.opts, 0);
    EXPECT_EQ(env["ROCPROF_STATS_SUMMARY"], "1");
    EXPECT_EQ(env["ROCPROF_MARKER_API_TRACE"], "1");
    EXPECT_EQ(env.count("ROCPROF_SUMMARY") + env.count("ROCPROF_MARKER_TRACE"), 0u);
}

TEST(command_line, mpi_ranks_lists)
{
    auto ok = run({"--kernel-trace", "--mpi-ranks", "0-1, 3", "--", "app"});
    ASSERT_TRUE(ok.opts) << ok.error;
    EXPECT_EQ(ok.opts->mpi_ranks, "0-1, 3");
    EXPECT_TRUE(run({"--kernel-trace", "--mpi-ranks=2", "--", "app"}).opts);

    auto expect_error = [](std::vector<const char*> args, const std::string& text)
    {
        auto r = run(args);
        EXPECT_FALSE(r.opts) << args[2];
        EXPECT_EQ(r.exit_code, rocprofv3::exit_usage);
        EXPECT_NE(r.error.find(text), std::string::npos) << r.error;
    };
    expect_error({"--kernel-trace", "--mpi-ranks", "", "--", "app"}, "names no rank");
    expect_error({"--kernel-trace", "--mpi-ranks", "a", "--", "app"}, "item 'a' is neither a rank");
    expect_error({"--kernel-trace", "--mpi-ranks", "1-", "--", "app"}, "item '1-'");
    expect_error({"--kernel-trace", "--mpi-ranks=-1", "--", "app"}, "item '-1'");
    expect_error({"--kernel-trace", "--mpi-ranks", "1 2", "--", "app"}, "item '1 2'");
    expect_error({"--kernel-trace", "--mpi-ranks", "99999999999999999999999", "--", "app"},
                 "neither a rank");
    expect_error({"--kernel-trace", "--mpi-ranks", "3-1", "--", "app"},
                 "range '3-1' ends before it starts");
    expect_error({"--kernel-trace", "--mpi-ranks", "0,,2", "--", "app"}, "an empty item");
    expect_error({"--kernel-trace", "--mpi-ranks", "0,", "--", "app"}, "an empty item");
    expect_error({"--pmc", "A", "--pmc", "B", "--mpi-ranks", "0", "--", "app"},
                 "would run the listed ranks once per group");
    auto input = write_temp("mpi_ranks_input.txt", "pmc: A\n");
    expect_error({"--mpi-ranks", "0", "-i", input.c_str(), "--", "app"},
                 "cannot be combined with -i");
}

TEST(command_line, mpi_ranks_choose_by_the_launchers_rank)
{
    auto env_of = [](std::map<std::string, std::string> vars)
    {
        return [vars](const char* name) -> const char*
        {
            auto it = vars.find(name);
            return it == vars.end() ? nullptr : it->second.c_str();
        };
    };
    auto ompi = [&](const char* rank) { return env_of({{"OMPI_COMM_WORLD_RANK", rank}}); };
    EXPECT_TRUE(rocprofv3::choose_for_rank("0,2", ompi("0")).profile);
    EXPECT_FALSE(rocprofv3::choose_for_rank("0,2", ompi("1")).profile);
    EXPECT_TRUE(rocprofv3::choose_for_rank("0,2", ompi("2")).profile);
    EXPECT_FALSE(rocprofv3::choose_for_rank("0,2", ompi("3")).profile);
    EXPECT_TRUE(rocprofv3::choose_for_rank("0-1,3", ompi("1")).profile);
    EXPECT_FALSE(rocprofv3::choose_for_rank("0-1,3", ompi("2")).profile);
    EXPECT_EQ(rocprofv3::choose_for_rank("0-1,3", ompi("3")).rank, "3");
    // SLURM's rank first, as %rank%.
    auto slurm = env_of({{"SLURM_PROCID", "5"}, {"OMPI_COMM_WORLD_RANK", "0"}});
    EXPECT_FALSE(rocprofv3::choose_for_rank("0", slurm).profile);
    EXPECT_TRUE(rocprofv3::choose_for_rank("4-6", slurm).profile);
    // No list: every process, launcher or not.
    EXPECT_TRUE(rocprofv3::choose_for_rank("", env_of({})).profile);
    EXPECT_TRUE(rocprofv3::choose_for_rank("", env_of({})).error.empty());

    auto none = rocprofv3::choose_for_rank("0", env_of({}));
    EXPECT_NE(none.error.find("found no MPI rank"), std::string::npos) << none.error;
    auto odd = rocprofv3::choose_for_rank("0", ompi("x1"));
    EXPECT_NE(odd.error.find("rank 'x1' is not a number"), std::string::npos) << odd.error;
}
