// AMD's rocprofv3 command lines: its boolean forms, the options it has that were missing, -o with
// sub-directories, and the two tables that must agree with the parser: the list of AMD's options
// (tests/rocprofv3/inputs/amd_options.txt) and docs/rocprofv3.md's table of the AMD options that
// differ here.
#include "options.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
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

std::map<std::string, std::string>
environment(std::vector<const char*> args)
{
    auto r = run(std::move(args));
    EXPECT_TRUE(r.opts) << r.error;
    return r.opts ? rocprofv3::tool_environment(*r.opts, 0) : std::map<std::string, std::string>{};
}

std::vector<std::string>
split(const std::string& text, char by)
{
    auto out  = std::vector<std::string>{};
    auto in   = std::istringstream{text};
    auto item = std::string{};
    while(std::getline(in, item, by))
        out.push_back(item);
    return out;
}
} // namespace

// AMD's strtobool: y/yes/t/true/on/1 and n/no/f/false/off/0, any case; nothing else.
TEST(amd_options, boolean_words)
{
    for(const auto* yes : {"1", "y", "Yes", "t", "TRUE", "on"})
        EXPECT_EQ(rocprofv3::parse_boolean(yes), true) << yes;
    for(const auto* no : {"0", "N", "no", "f", "False", "OFF"})
        EXPECT_EQ(rocprofv3::parse_boolean(no), false) << no;
    for(const auto* neither : {"", "2", "maybe", "yes!", "enable"})
        EXPECT_FALSE(rocprofv3::parse_boolean(neither)) << neither;
}

// "--flag BOOL" (space), "--flag=BOOL", "-x=BOOL", for our flags and AMD's alike.
TEST(amd_options, boolean_forms)
{
    auto env = environment({"--kernel-trace", "true", "--stats=1", "-T", "yes", "--", "app"});
    EXPECT_EQ(env["ROCPROF_KERNEL_TRACE"], "1");
    EXPECT_EQ(env["ROCPROF_STATS"], "1");
    EXPECT_EQ(env["ROCPROF_TRUNCATE_KERNELS"], "1");
    env = environment({"--kernel-trace=False", "--stats", "0", "--memory-copy-trace", "--", "app"});
    EXPECT_EQ(env.count("ROCPROF_KERNEL_TRACE"), 0u);
    EXPECT_EQ(env.count("ROCPROF_STATS"), 0u);
    EXPECT_EQ(env["ROCPROF_MEMORY_COPY_TRACE"], "1");
    // The last one counts, as upstream's parser keeps the last value.
    env = environment({"--kernel-trace=no", "--kernel-trace", "--", "app"});
    EXPECT_EQ(env["ROCPROF_KERNEL_TRACE"], "1");
    // A word that is not a boolean after a space is not the flag's: here the application.
    auto r = run({"--kernel-trace", "./app", "yes"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_EQ(r.opts->command, (std::vector<std::string>{"./app", "yes"}));
}

// AMD's way to leave one trace of -r/-s off; and turning off what this device has not is no
// error (it asks for nothing).
TEST(amd_options, traces_of_r_and_s_turned_off)
{
    auto env = environment({"-s", "--memory-copy-trace=False", "--", "app"});
    EXPECT_EQ(env["ROCPROF_KERNEL_TRACE"], "1");
    EXPECT_EQ(env["ROCPROF_CUDA_DRIVER_TRACE"], "1");
    EXPECT_EQ(env.count("ROCPROF_MEMORY_COPY_TRACE"), 0u);
    env = environment({"-r", "--marker-trace", "0", "--kernel-trace=off", "--", "app"});
    EXPECT_EQ(env["ROCPROF_MEMORY_COPY_TRACE"], "1");
    EXPECT_EQ(env.count("ROCPROF_MARKER_TRACE"), 0u);
    EXPECT_EQ(env.count("ROCPROF_KERNEL_TRACE"), 0u);
    env = environment({"-s=1",
                       "--scratch-memory-trace=False",
                       "--hip-trace",
                       "no",
                       "--att=0",
                       "--memory-allocation-trace=n",
                       "--",
                       "app"});
    EXPECT_EQ(env["ROCPROF_KERNEL_TRACE"], "1");
    // -s given as false gives nothing: nothing to collect.
    auto r = run({"-s=false", "--", "app"});
    EXPECT_FALSE(r.opts);
    EXPECT_NE(r.error.find("nothing to collect"), std::string::npos) << r.error;
    // Given true, the unsupported trace is answered as before.
    r = run({"-s", "--scratch-memory-trace=yes", "--", "app"});
    EXPECT_EQ(r.exit_code, rocprofv3::exit_configuration);
    EXPECT_NE(r.error.find("--scratch-memory-trace: not supported on this device"),
              std::string::npos)
        << r.error;
}

TEST(amd_options, bad_booleans_are_named)
{
    for(auto [arg, text] : {std::pair{"--kernel-trace=maybe", "--kernel-trace 'maybe'"},
                            std::pair{"-s=2", "-s '2'"},
                            std::pair{"--hip-trace=", "--hip-trace ''"}})
    {
        auto r = run({arg, "--", "app"});
        EXPECT_FALSE(r.opts) << arg;
        EXPECT_EQ(r.exit_code, rocprofv3::exit_usage) << arg;
        EXPECT_NE(r.error.find(std::string{text} + " is not a boolean (true: 1, yes"),
                  std::string::npos)
            << r.error;
    }
}

// The options AMD's parser has that this one lacked.
TEST(amd_options, advanced_options_of_amd)
{
    auto r = run({"--kernel-trace",
                  "--sdk-version",
                  "1.0.0",
                  "--sdk-soversion=1",
                  "--readlink",
                  "--realpath=true",
                  "--suppress-marker-preload",
                  "--",
                  "app"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_EQ(r.opts->sdk_version, "1.0.0");
    EXPECT_EQ(r.opts->sdk_soversion, "1");
    EXPECT_TRUE(r.opts->readlink);
    EXPECT_TRUE(r.opts->realpath);
    EXPECT_TRUE(r.opts->suppress_marker_preload);
    // --echo needs no application, as upstream.
    r = run({"--kernel-trace", "--echo"});
    ASSERT_TRUE(r.opts) << r.error;
    EXPECT_TRUE(r.opts->echo);
    for(auto [args, text] :
        {std::pair{std::vector<const char*>{"--sdk-soversion", "x", "--kernel-trace", "--", "a"},
                   "--sdk-soversion 'x' is not a number"},
         std::pair{std::vector<const char*>{"--sdk-version", "1..0", "--kernel-trace", "--", "a"},
                   "--sdk-version '1..0' is not a version X.Y.Z"}})
    {
        r = run(args);
        EXPECT_EQ(r.exit_code, rocprofv3::exit_usage);
        EXPECT_NE(r.error.find(text), std::string::npos) << r.error;
    }
    r = run({"--kernel-trace", "--att-gpu-index", "0", "--", "app"});
    EXPECT_EQ(r.exit_code, rocprofv3::exit_configuration);
    EXPECT_NE(r.error.find("--att-gpu-index: not supported on this device"), std::string::npos)
        << r.error;
}

// -o may hold sub-directories of -d (upstream's default is one: %hostname%/%pid%), not leave it.
TEST(amd_options, output_file_with_directories)
{
    auto env = environment({"--kernel-trace", "-o", "%hostname%/runs/%pid%", "--", "app"});
    EXPECT_EQ(env["ROCPROF_OUTPUT_FILE_NAME"], "%hostname%/runs/%pid%");
    for(auto [prefix, text] : {std::pair{"/tmp/x", "is an absolute path"},
                               std::pair{"runs/", "ends with '/'"},
                               std::pair{"%cwd%/x", "expands to '//x', which is an absolute path"}})
    {
        auto r = run({"--kernel-trace", "-o", prefix, "--", "app"});
        EXPECT_EQ(r.exit_code, rocprofv3::exit_usage) << prefix;
        EXPECT_NE(r.error.find(text), std::string::npos) << r.error;
    }
    // %cwd% in -d: rocprofv3's directory, which the application starts in, made absolute once.
    env = environment({"--kernel-trace", "-d", "%cwd%/out", "--", "app"});
    EXPECT_EQ(env["ROCPROF_OUTPUT_PATH"], rocprofv3::expand_cwd("%cwd%/out"));
    EXPECT_EQ(env["ROCPROF_OUTPUT_PATH"].find("%cwd%"), std::string::npos);
}

namespace
{
struct amd_option
{
    std::vector<std::string> names   = {};
    std::string              kind    = {};
    std::string              outcome = {};
};

std::vector<amd_option>
amd_options_file()
{
    auto out  = std::vector<amd_option>{};
    auto in   = std::ifstream{ROCPROFV3_AMD_OPTIONS};
    auto line = std::string{};
    while(std::getline(in, line))
    {
        if(line.empty() || line[0] == '#') continue;
        auto fields = split(line, '\t');
        if(fields.size() < 3) continue;
        out.push_back({split(fields[0], ','), fields[1], fields[2]});
    }
    return out;
}

std::set<std::string>
unsupported_names()
{
    auto out = std::set<std::string>{};
    for(const auto& u : rocprofv3::unsupported_options())
        for(auto& name : split(u.names, ','))
            out.insert(name);
    return out;
}
} // namespace

// Every option of AMD's rocprofv3 is an option of this one, a boolean where AMD's is, and
// "unsupported" in the list exactly where the parser answers so.
TEST(amd_options, every_amd_option_is_an_option_here)
{
    const auto amd = amd_options_file();
    ASSERT_EQ(amd.size(), 77u) << ROCPROFV3_AMD_OPTIONS;
    auto ours = std::map<std::string, bool>{};
    for(const auto& [name, boolean] : rocprofv3::option_names())
        ours[name] = boolean;
    const auto unsupported = unsupported_names();
    auto       listed      = std::set<std::string>{};
    for(const auto& option : amd)
        for(const auto& name : option.names)
        {
            listed.insert(name);
            ASSERT_EQ(ours.count(name), 1u) << name << " is not an option of this rocprofv3";
            EXPECT_EQ(ours[name], option.kind == "bool") << name;
            EXPECT_EQ(unsupported.count(name) == 1, option.outcome == "unsupported") << name;
        }
    // And the parser's table of unsupported options names only AMD's options.
    for(const auto& name : unsupported)
        EXPECT_EQ(listed.count(name), 1u) << name << " is not an option of AMD's rocprofv3";
}

// docs/rocprofv3.md's table of AMD's options that differ here: its "not supported" rows are the
// parser's unsupported options, its other rows the options the parser lists as differing
// (rocprofv3::amd_differences()), each an option of AMD's and of this rocprofv3.
TEST(amd_options, docs_table_matches_the_parser)
{
    auto in      = std::ifstream{ROCPROFV3_DOCS};
    auto line    = std::string{};
    auto inside  = false;
    auto docs_un = std::set<std::string>{};
    auto docs_di = std::set<std::string>{};
    auto rows    = 0;
    while(std::getline(in, line))
    {
        if(line.rfind("### ", 0) == 0)
        {
            inside = line == "### Options of AMD's rocprofv3 that differ here";
            continue;
        }
        if(!inside || line.rfind("| `-", 0) != 0) continue;
        ++rows;
        auto cells = split(line, '|'); // "", option, here, why
        ASSERT_GE(cells.size(), 4u) << line;
        auto names = std::set<std::string>{};
        auto re    = std::regex{"`(-[-a-zA-Z]+)`"};
        for(auto it = std::sregex_iterator(cells[1].begin(), cells[1].end(), re);
            it != std::sregex_iterator();
            ++it)
            names.insert((*it)[1]);
        EXPECT_FALSE(names.empty()) << line;
        const auto not_supported = cells[2].find("not supported") != std::string::npos;
        for(const auto& n : names)
            (not_supported ? docs_un : docs_di).insert(n);
    }
    ASSERT_GT(rows, 0) << "no table under '### Options of AMD's rocprofv3 that differ here'";
    EXPECT_EQ(docs_un, unsupported_names());
    auto differing = std::set<std::string>{};
    for(const auto* name : rocprofv3::amd_differences())
        differing.insert(name);
    EXPECT_EQ(docs_di, differing);
    auto amd = std::set<std::string>{};
    for(const auto& option : amd_options_file())
        amd.insert(option.names.begin(), option.names.end());
    for(const auto& name : differing)
        EXPECT_EQ(amd.count(name), 1u) << name << " is not an option of AMD's rocprofv3";
}
