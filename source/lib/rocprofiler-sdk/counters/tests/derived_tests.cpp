// The derived-metric language (parse, evaluate, errors with positions), the resolution of
// definitions against an agent's counters (dependencies, cycles, explicit agents), and the reading
// of metric files (the shipped file, ROCPROFILER_METRICS_PATH as a file and as a directory,
// replacement by name, bad files). Pure code: no agent, no device.
#include "counters/derived.hpp"
#include "counters/metrics_file.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace derived      = rocprofiler::counters::derived;
namespace metrics_file = rocprofiler::counters::metrics_file;
namespace fs           = std::filesystem;

namespace
{
derived::expression
parse_ok(const std::string& text)
{
    auto error  = derived::expression::parse_error{};
    auto parsed = derived::expression::parse(text, &error);
    EXPECT_TRUE(parsed.has_value()) << text << ": " << error.message;
    return parsed.value_or(derived::expression{});
}

// The value of @p text with the named values of @p values.
double
eval(const std::string& text, const std::map<std::string, double>& values = {})
{
    auto expr = parse_ok(text);
    auto in   = std::vector<double>{};
    for(const auto& name : expr.names())
    {
        EXPECT_EQ(values.count(name), 1u) << "no value for " << name;
        in.emplace_back(values.count(name) != 0 ? values.at(name) : 0.0);
    }
    return expr.evaluate(in);
}

derived::expression::parse_error
parse_error_of(const std::string& text)
{
    auto error  = derived::expression::parse_error{};
    auto parsed = derived::expression::parse(text, &error);
    EXPECT_FALSE(parsed.has_value()) << text << " parsed";
    return error;
}

derived::definition
def(const std::string&                      name,
    const std::string&                      text,
    std::optional<std::vector<std::string>> agents = std::nullopt)
{
    auto out   = derived::definition{};
    out.name   = name;
    out.text   = text;
    out.parsed = parse_ok(text);
    out.agents = std::move(agents);
    out.source = "test.json";
    return out;
}

// A scratch directory of its own, removed at the end of the test.
struct scratch
{
    scratch()
        : path{fs::temp_directory_path() /
               ("derived-tests-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-" +
                std::to_string(next++))}
    {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~scratch() { fs::remove_all(path); }

    std::string write(const std::string& name, const std::string& text) const
    {
        auto file = (path / name).string();
        auto out  = std::ofstream{file};
        out << text;
        return file;
    }

    static inline int next = 0;
    fs::path          path;
};

std::string
one_metric(const std::string& name, const std::string& expression, const std::string& extra = "")
{
    return R"({"version": 1, "derived": [{"name": ")" + name + R"(", "expression": ")" +
           expression + "\"" + extra + R"(}], "sets": []})";
}

bool
mentions(const std::vector<std::string>& errors, const std::string& a, const std::string& b = "")
{
    for(const auto& e : errors)
        if(e.find(a) != std::string::npos && e.find(b) != std::string::npos) return true;
    return false;
}

std::string
joined(const std::vector<std::string>& errors)
{
    auto out = std::string{};
    for(const auto& e : errors)
        out += e + "\n";
    return out;
}
} // namespace

TEST(derived_expression, precedence_and_associativity)
{
    EXPECT_EQ(eval("1 + 2 * 3"), 7.0);
    EXPECT_EQ(eval("(1 + 2) * 3"), 9.0);
    EXPECT_EQ(eval("8 - 3 - 2"), 3.0); // left to right
    EXPECT_EQ(eval("64 / 4 / 2"), 8.0);
    EXPECT_EQ(eval("2 * 3 + 4 * 5"), 26.0);
    EXPECT_EQ(eval("10 - 4 / 2"), 8.0);
}

TEST(derived_expression, numbers_in_every_accepted_form)
{
    EXPECT_EQ(eval("1e9"), 1e9);
    EXPECT_EQ(eval("2.5E-3"), 2.5e-3);
    EXPECT_EQ(eval("1e+2"), 100.0);
    EXPECT_EQ(eval(".5"), 0.5);
    EXPECT_EQ(eval("3."), 3.0);
    EXPECT_EQ(eval("  42  "), 42.0);
}

TEST(derived_expression, unary_minus)
{
    EXPECT_EQ(eval("-3 + 5"), 2.0);
    EXPECT_EQ(eval("--3"), 3.0);
    EXPECT_EQ(eval("2 * -3"), -6.0);
    EXPECT_EQ(eval("-(2 + 3) * 2"), -10.0);
    EXPECT_EQ(eval("-A", {{"A", 4}}), -4.0);
}

TEST(derived_expression, min_and_max)
{
    EXPECT_EQ(eval("min(3, 4)"), 3.0);
    EXPECT_EQ(eval("max(3, 4)"), 4.0);
    EXPECT_EQ(eval("max(A, min(B, 10)) * 2", {{"A", 1}, {"B", 7}}), 14.0);
    EXPECT_EQ(eval("max (1 + 1, -5)"), 2.0);
}

TEST(derived_expression, names_use_cupti_characters_and_are_listed_once)
{
    auto expr =
        parse_ok("smsp__inst_executed.sum / sm__cycles_elapsed.sum + smsp__inst_executed.sum");
    EXPECT_EQ(expr.names(),
              (std::vector<std::string>{"smsp__inst_executed.sum", "sm__cycles_elapsed.sum"}));
    EXPECT_EQ(expr.evaluate(std::vector<double>{10.0, 4.0}), 12.5);
    // A counter called like a function is still a counter when no '(' follows.
    EXPECT_EQ(eval("min + 1", {{"min", 2}}), 3.0);
}

TEST(derived_expression, division_by_zero_is_nan_and_nan_propagates)
{
    EXPECT_TRUE(std::isnan(eval("1 / 0")));
    EXPECT_TRUE(std::isnan(eval("0 / 0")));
    EXPECT_TRUE(std::isnan(eval("A / B", {{"A", 5}, {"B", 0}})));
    EXPECT_TRUE(std::isnan(eval("-1 / (2 - 2)")));
    EXPECT_TRUE(std::isnan(eval("min(1 / 0, 3)")));
    EXPECT_TRUE(std::isnan(eval("max(3, 1 / 0)")));
    EXPECT_TRUE(std::isnan(eval("1 / 0 * 0 + 1")));
    EXPECT_EQ(eval("0 / 5"), 0.0);
}

TEST(derived_expression, errors_say_where)
{
    auto e = parse_error_of("A + * B");
    EXPECT_EQ(e.position, 5u);
    EXPECT_NE(e.message.find("column 5"), std::string::npos) << e.message;

    e = parse_error_of("(A + B");
    EXPECT_EQ(e.position, 7u);
    EXPECT_NE(e.message.find("expected ')'"), std::string::npos) << e.message;

    e = parse_error_of("A B");
    EXPECT_EQ(e.position, 3u);

    e = parse_error_of("");
    EXPECT_EQ(e.position, 1u);
    EXPECT_NE(e.message.find("the end"), std::string::npos) << e.message;

    e = parse_error_of("pow(A, 2)");
    EXPECT_EQ(e.position, 1u);
    EXPECT_NE(e.message.find("unknown function 'pow'"), std::string::npos) << e.message;

    e = parse_error_of("min(A)");
    EXPECT_EQ(e.position, 6u);
    EXPECT_NE(e.message.find("expected ','"), std::string::npos) << e.message;

    e = parse_error_of("1e");
    EXPECT_EQ(e.position, 3u);
    EXPECT_NE(e.message.find("exponent"), std::string::npos) << e.message;

    e = parse_error_of("A % 2");
    EXPECT_EQ(e.position, 3u);

    e = parse_error_of("A + $");
    EXPECT_EQ(e.position, 5u);

    e = parse_error_of(std::string(300, '(') + "1" + std::string(300, ')'));
    EXPECT_NE(e.message.find("deeper"), std::string::npos) << e.message;
}

TEST(derived_resolution, a_metric_is_offered_only_with_all_its_counters)
{
    auto defs = std::vector<derived::definition>{def("RATE", "A / B"), def("NEEDS_C", "A + C")};
    auto r    = derived::resolve(defs, "host", {"A", "B"});
    ASSERT_EQ(r.offered.size(), 1u);
    EXPECT_EQ(r.offered[0].definition, 0u);
    ASSERT_EQ(r.offered[0].operands.size(), 2u);
    EXPECT_TRUE(r.offered[0].operands[0].is_base);
    EXPECT_EQ(r.offered[0].operands[0].index, 0u);
    EXPECT_EQ(r.offered[0].operands[1].index, 1u);
    // NEEDS_C names no agent: skipped silently where C is missing.
    EXPECT_TRUE(r.errors.empty()) << joined(r.errors);
}

TEST(derived_resolution, derived_metrics_may_use_derived_metrics_defined_later)
{
    auto defs = std::vector<derived::definition>{def("TOP", "MID * 2"), def("MID", "A + B")};
    auto r    = derived::resolve(defs, "host", {"A", "B"});
    ASSERT_EQ(r.offered.size(), 2u);
    EXPECT_EQ(r.offered[0].definition, 0u); // definition order, not visiting order
    EXPECT_EQ(r.offered[1].definition, 1u);
    ASSERT_EQ(r.offered[0].operands.size(), 1u);
    EXPECT_FALSE(r.offered[0].operands[0].is_base);
    EXPECT_EQ(r.offered[0].operands[0].index, 1u); // MID, at index 1 of offered
    EXPECT_TRUE(r.errors.empty()) << joined(r.errors);
}

TEST(derived_resolution, a_chain_of_metrics_deeper_than_a_stack_is_resolved)
{
    // M0 = A; Mi = M(i+1)... written so that the first definition reaches every other one: the
    // visit goes 300,000 levels deep, far more than a thread's stack holds in frames.
    constexpr size_t n    = 300000;
    auto             defs = std::vector<derived::definition>{};
    defs.reserve(n);
    for(size_t i = 0; i + 1 < n; ++i)
        defs.emplace_back(def("M" + std::to_string(i), "M" + std::to_string(i + 1) + " + 1"));
    defs.emplace_back(def("M" + std::to_string(n - 1), "A"));
    auto r = derived::resolve(defs, "host", {"A"});
    EXPECT_TRUE(r.errors.empty()) << joined(r.errors);
    ASSERT_EQ(r.offered.size(), n);
    for(size_t i = 0; i + 1 < n; ++i)
    {
        ASSERT_EQ(r.offered[i].definition, i);
        ASSERT_EQ(r.offered[i].operands.size(), 1u);
        ASSERT_FALSE(r.offered[i].operands[0].is_base);
        ASSERT_EQ(r.offered[i].operands[0].index, i + 1);
    }
    EXPECT_TRUE(r.offered[n - 1].operands[0].is_base);

    // The same chain closed into a cycle: every definition on it is skipped, one message.
    defs.back() = def("M" + std::to_string(n - 1), "M0");
    r           = derived::resolve(defs, "host", {"A"});
    EXPECT_TRUE(r.offered.empty());
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_NE(r.errors[0].find("is part of a cycle (M0 -> M1 -> "), std::string::npos)
        << r.errors[0];
    // A long cycle is shown by its ends.
    EXPECT_NE(r.errors[0].find("M7 -> ... (299984 more) -> M299992 -> "), std::string::npos)
        << r.errors[0];
    EXPECT_NE(r.errors[0].find("M299999 -> M0); it is not offered"), std::string::npos)
        << r.errors[0];
    EXPECT_LT(r.errors[0].size(), 400u);
}

TEST(derived_resolution, an_unresolvable_operand_deep_in_a_chain_skips_the_chain_above_it)
{
    auto defs = std::vector<derived::definition>{
        def("TOP", "MID + A"), def("MID", "LOW * 2"), def("LOW", "C"), def("OK", "A + B")};
    defs[0].agents = std::vector<std::string>{"host"};
    auto r         = derived::resolve(defs, "host", {"A", "B"});
    ASSERT_EQ(r.offered.size(), 1u);
    EXPECT_EQ(r.offered[0].definition, 3u);
    // Only TOP names the agent: its message is the only one.
    ASSERT_EQ(r.errors.size(), 1u) << joined(r.errors);
    EXPECT_TRUE(mentions(r.errors, "'TOP' uses 'MID'", "does not offer")) << joined(r.errors);
}

TEST(derived_resolution, cycles_are_reported_and_not_offered)
{
    auto defs = std::vector<derived::definition>{def("X", "Y + A"),
                                                 def("Y", "X * 2"),
                                                 def("SELF", "SELF + 1"),
                                                 def("OK", "A"),
                                                 def("USES_X", "X + 1")};
    auto r    = derived::resolve(defs, "host", {"A"});
    ASSERT_EQ(r.offered.size(), 1u);
    EXPECT_EQ(defs[r.offered[0].definition].name, "OK");
    EXPECT_TRUE(mentions(r.errors, "cycle", "X -> Y -> X")) << joined(r.errors);
    EXPECT_TRUE(mentions(r.errors, "'SELF'", "SELF -> SELF")) << joined(r.errors);
    EXPECT_TRUE(mentions(r.errors, "test.json")) << joined(r.errors);
}

TEST(derived_resolution, an_explicit_agent_without_the_counters_is_an_error)
{
    auto defs = std::vector<derived::definition>{def("ON_HOST", "A / MISSING", {{"host"}}),
                                                 def("ELSEWHERE", "A / MISSING", {{"sm_90"}}),
                                                 def("ANYWHERE", "A / MISSING")};
    auto r    = derived::resolve(defs, "host", {"A"});
    EXPECT_TRUE(r.offered.empty());
    ASSERT_EQ(r.errors.size(), 1u) << joined(r.errors);
    EXPECT_TRUE(mentions(r.errors, "'ON_HOST'", "'MISSING'")) << joined(r.errors);
    EXPECT_TRUE(mentions(r.errors, "agent 'host'")) << joined(r.errors);
}

TEST(derived_resolution, a_metric_named_like_a_base_counter_is_refused)
{
    auto defs = std::vector<derived::definition>{def("A", "B * 2")};
    auto r    = derived::resolve(defs, "host", {"A", "B"});
    EXPECT_TRUE(r.offered.empty());
    EXPECT_TRUE(mentions(r.errors, "'A'", "base counter")) << joined(r.errors);
}

TEST(metrics_files, the_shipped_file_is_valid_and_defines_the_host_metrics)
{
    auto out = metrics_file::loaded{};
    metrics_file::read_file(ROCPROFILER_SHIPPED_METRICS, out);
    EXPECT_TRUE(out.errors.empty()) << joined(out.errors);
    auto names = std::map<std::string, const derived::definition*>{};
    for(const auto& d : out.definitions)
        names[d.name] = &d;
    ASSERT_EQ(names.count("NS_PER_WORK_ITEM"), 1u);
    EXPECT_EQ(names.at("NS_PER_WORK_ITEM")->text, "DURATION_NS / WORK_ITEMS");
    EXPECT_EQ(names.at("NS_PER_WORK_ITEM")->unit, "ns");
    // Every host metric resolves against the host device's base counters (perf counters present).
    auto host = std::vector<std::string>{"DURATION_NS",
                                         "CPU_TIME_NS",
                                         "WORKERS_ACTIVE",
                                         "WORK_ITEMS",
                                         "WORKGROUPS",
                                         "PERF_CPU_CYCLES",
                                         "PERF_INSTRUCTIONS",
                                         "PERF_CACHE_REFERENCES",
                                         "PERF_CACHE_MISSES",
                                         "PERF_BRANCH_INSTRUCTIONS",
                                         "PERF_BRANCH_MISSES"};
    auto r    = derived::resolve(out.definitions, "host", host);
    EXPECT_TRUE(r.errors.empty()) << joined(r.errors);
    EXPECT_GE(r.offered.size(), 8u);
    // Without perf events the PERF_ metrics disappear without an error (they name no agent).
    host.resize(5);
    r = derived::resolve(out.definitions, "host", host);
    EXPECT_TRUE(r.errors.empty()) << joined(r.errors);
    for(const auto& o : r.offered)
        EXPECT_NE(out.definitions[o.definition].name.rfind("PERF_", 0), 0u);
    // The copy in the build tree is the same file.
    auto again = metrics_file::loaded{};
    metrics_file::read_file(ROCPROFILER_BUILD_METRICS, again);
    EXPECT_TRUE(again.errors.empty()) << joined(again.errors);
    EXPECT_EQ(again.definitions.size(), out.definitions.size());
}

TEST(metrics_files, docs_list_every_shipped_metric_with_its_expression)
{
    auto out = metrics_file::loaded{};
    metrics_file::read_file(ROCPROFILER_SHIPPED_METRICS, out);
    ASSERT_FALSE(out.definitions.empty());
    auto in   = std::ifstream{ROCPROFILER_API_DOC};
    auto text = std::string{std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
    ASSERT_FALSE(text.empty()) << ROCPROFILER_API_DOC;
    for(const auto& d : out.definitions)
        EXPECT_NE(text.find("| `" + d.name + "` | `" + d.text + "` |"), std::string::npos)
            << "docs/api.md's table of shipped metrics lacks " << d.name << " = " << d.text;
}

TEST(metrics_files, the_shipped_file_is_found_beside_the_library)
{
    // The build tree's layout: <build>/lib/librocprofiler-sdk.so and <build>/share/...
    auto lib = fs::path{ROCPROFILER_BUILD_METRICS}.parent_path().parent_path().parent_path() /
               "lib" / "librocprofiler-sdk.so";
    EXPECT_EQ(fs::path{metrics_file::shipped_path_for(lib.string())},
              fs::path{ROCPROFILER_BUILD_METRICS}.lexically_normal());
    EXPECT_TRUE(metrics_file::is_shared_library(lib.string()));
    // This test links the SDK statically: the object dladdr names is the test itself.
    EXPECT_EQ(fs::path{metrics_file::library_object()},
              fs::weakly_canonical(fs::read_symlink("/proc/self/exe")));
    EXPECT_FALSE(metrics_file::is_shared_library(metrics_file::library_object()));
    EXPECT_FALSE(metrics_file::is_shared_library("/build/bin/some-test"));
}

TEST(metrics_files, a_file_and_a_directory_of_files_and_replacement_by_name)
{
    auto dir = scratch{};
    auto one = dir.write("one.json", one_metric("MINE", "A * 2", R"(, "unit": "x")"));
    auto out = metrics_file::loaded{};
    metrics_file::read_path(one, out);
    EXPECT_TRUE(out.errors.empty()) << joined(out.errors);
    ASSERT_EQ(out.definitions.size(), 1u);
    EXPECT_EQ(out.definitions[0].name, "MINE");
    EXPECT_EQ(out.definitions[0].source, one);

    // A directory: every *.json in name order; b.json's MINE replaces a.json's; not-json ignored.
    auto sub = scratch{};
    sub.write("b.json", one_metric("MINE", "A * 3"));
    sub.write("a.json", one_metric("MINE", "A * 1"));
    sub.write("c.json", R"({"version": 1, "derived": [{"name": "OTHER", "expression": "B"}]})");
    sub.write("notes.txt", "not a metrics file");
    out = {};
    metrics_file::read_path(sub.path.string(), out);
    EXPECT_TRUE(out.errors.empty()) << joined(out.errors);
    ASSERT_EQ(out.definitions.size(), 2u);
    EXPECT_EQ(out.definitions[0].name, "MINE");
    EXPECT_EQ(out.definitions[0].text, "A * 3");
    EXPECT_EQ(out.definitions[1].name, "OTHER");

    // User definitions replace shipped ones of the same name, in the shipped one's place.
    auto shipped =
        std::vector<derived::definition>{def("FIRST", "A"), def("MINE", "A / 2"), def("LAST", "B")};
    auto merged = metrics_file::merge(shipped, out.definitions);
    ASSERT_EQ(merged.size(), 4u);
    EXPECT_EQ(merged[1].name, "MINE");
    EXPECT_EQ(merged[1].text, "A * 3");
    EXPECT_EQ(merged[3].name, "OTHER");
}

TEST(metrics_files, a_fifo_or_device_is_reported_without_blocking)
{
    // A FIFO named *.json in a metrics directory, and /dev/zero as the path: each an error naming
    // it, returned at once (reading either would block or never end).
    auto dir = scratch{};
    dir.write("a.json", one_metric("MINE", "A * 2"));
    auto fifo = (dir.path / "b.json").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for(const auto& path : {dir.path.string(), fifo, std::string{"/dev/zero"}})
    {
        auto reading = std::async(std::launch::async,
                                  [path]
                                  {
                                      auto out = metrics_file::loaded{};
                                      metrics_file::read_path(path, out);
                                      return out;
                                  });
        ASSERT_EQ(reading.wait_for(std::chrono::seconds{20}), std::future_status::ready) << path;
        auto out     = reading.get();
        auto subject = path == dir.path.string() ? fifo : path;
        EXPECT_TRUE(mentions(out.errors, subject, "not a regular file")) << joined(out.errors);
        EXPECT_TRUE(mentions(out.errors, "no derived metrics from it")) << joined(out.errors);
        // The regular file beside the FIFO still counts.
        EXPECT_EQ(out.definitions.size(), path == dir.path.string() ? 1u : 0u);
    }
}

TEST(metrics_files, many_definitions_and_repeated_names_keep_first_place_and_last_text)
{
    // 20,000 names, each defined twice (the second time with another expression): the list keeps
    // each name once, in the place of its first definition, with its last expression.
    auto text = std::string{R"({"version": 1, "derived": [)"};
    for(int round = 0; round < 2; ++round)
        for(int i = 0; i < 20000; ++i)
            text += std::string{round + i == 0 ? "" : ","} + R"({"name": "M)" + std::to_string(i) +
                    R"(", "expression": "A * )" + std::to_string(round + 1) + "\"}";
    text += "]}";
    auto dir  = scratch{};
    auto path = dir.write("many.json", text);
    auto out  = metrics_file::loaded{};
    metrics_file::read_file(path, out);
    ASSERT_EQ(out.definitions.size(), 20000u);
    EXPECT_EQ(out.definitions[0].name, "M0");
    EXPECT_EQ(out.definitions[19999].name, "M19999");
    EXPECT_EQ(out.definitions[123].text, "A * 2");
    EXPECT_EQ(out.errors.size(), 20000u);
    EXPECT_TRUE(mentions(out.errors, "'M5' is defined twice")) << out.errors.front();
}

TEST(metrics_files, a_file_with_sets_only_or_with_sets_is_accepted)
{
    auto dir = scratch{};
    auto out = metrics_file::loaded{};
    metrics_file::read_file(
        dir.write("sets.json", R"({"version": 1, "sets": [{"name": "s", "counters": ["A"]}]})"),
        out);
    EXPECT_TRUE(out.errors.empty()) << joined(out.errors);
    EXPECT_TRUE(out.definitions.empty());
}

TEST(metrics_files, bad_files_and_bad_definitions_are_reported_and_skipped)
{
    auto dir  = scratch{};
    auto read = [](const std::string& path)
    {
        auto out = metrics_file::loaded{};
        metrics_file::read_path(path, out);
        return out;
    };

    auto missing = read((dir.path / "nope.json").string());
    EXPECT_TRUE(mentions(missing.errors, "nope.json", "does not exist")) << joined(missing.errors);

    auto bad_json = dir.write("bad.json", R"({"version": 1, "derived": [)");
    auto out      = read(bad_json);
    EXPECT_TRUE(out.definitions.empty());
    EXPECT_TRUE(mentions(out.errors, bad_json, "parse error")) << joined(out.errors);

    auto version = dir.write("v2.json", R"({"version": 2, "derived": []})");
    out          = read(version);
    EXPECT_TRUE(mentions(out.errors, version, "\"version\" must be 1")) << joined(out.errors);

    // One bad definition among good ones: the good ones stay.
    auto mixed = dir.write("mixed.json", R"j({"version": 1, "derived": [
        {"name": "GOOD", "expression": "A + 1"},
        {"name": "BROKEN", "expression": "A + * 2"},
        {"name": "NO_EXPR"},
        {"expression": "A"},
        {"name": "BAD_AGENTS", "expression": "A", "agents": "host"},
        {"name": "9LIVES", "expression": "A"},
        {"name": "BAD_UNIT", "expression": "A", "unit": 3},
        {"name": "GOOD2", "expression": "max(A, 2)", "agents": ["host"]}
    ]})j");
    out        = read(mixed);
    ASSERT_EQ(out.definitions.size(), 2u) << joined(out.errors);
    EXPECT_EQ(out.definitions[0].name, "GOOD");
    EXPECT_EQ(out.definitions[1].name, "GOOD2");
    EXPECT_EQ(out.errors.size(), 6u) << joined(out.errors);
    EXPECT_TRUE(mentions(out.errors, "'BROKEN'", "column 5")) << joined(out.errors);
    EXPECT_TRUE(mentions(out.errors, "'NO_EXPR'", "\"expression\"")) << joined(out.errors);
    EXPECT_TRUE(mentions(out.errors, "#4", "\"name\"")) << joined(out.errors);
    EXPECT_TRUE(mentions(out.errors, "'BAD_AGENTS'", "\"agents\"")) << joined(out.errors);
    EXPECT_TRUE(mentions(out.errors, "'9LIVES'")) << joined(out.errors);
    EXPECT_TRUE(mentions(out.errors, "'BAD_UNIT'", "\"unit\"")) << joined(out.errors);
    for(const auto& e : out.errors)
        EXPECT_NE(e.find(mixed), std::string::npos) << "names the file: " << e;

    auto empty_dir = scratch{};
    out            = read(empty_dir.path.string());
    EXPECT_TRUE(mentions(out.errors, "without *.json")) << joined(out.errors);

    auto twice = dir.write("twice.json", R"({"version": 1, "derived": [
        {"name": "T", "expression": "1"}, {"name": "T", "expression": "2"}]})");
    out        = read(twice);
    ASSERT_EQ(out.definitions.size(), 1u);
    EXPECT_EQ(out.definitions[0].text, "2");
    EXPECT_TRUE(mentions(out.errors, "'T'", "defined twice")) << joined(out.errors);
}

namespace
{
// The agents' names in the shipped table's definitions, and the counters their expressions use.
std::map<std::string, std::vector<std::string>>
counters_named_by(const std::vector<derived::definition>& defs)
{
    auto out = std::map<std::string, std::vector<std::string>>{};
    for(const auto& d : defs)
        for(const auto& agent : *d.agents)
            for(const auto& name : d.parsed.names())
                if(std::find(out[agent].begin(), out[agent].end(), name) == out[agent].end())
                    out[agent].emplace_back(name);
    return out;
}

size_t
defined_for(const std::vector<derived::definition>& defs, const std::string& agent)
{
    return static_cast<size_t>(std::count_if(
        defs.begin(),
        defs.end(),
        [&](const auto& d)
        { return std::find(d.agents->begin(), d.agents->end(), agent) != d.agents->end(); }));
}
} // namespace

TEST(amd_equivalents, the_shipped_table_loads_without_messages)
{
    auto out = metrics_file::loaded{};
    metrics_file::read_equivalents_file(ROCPROFILER_SHIPPED_EQUIVALENTS, out);
    EXPECT_TRUE(out.errors.empty()) << joined(out.errors);
    ASSERT_FALSE(out.definitions.empty());
    for(const auto& d : out.definitions)
    {
        ASSERT_TRUE(d.agents.has_value()) << d.name;
        EXPECT_TRUE(d.quiet_when_unavailable) << d.name;
        EXPECT_EQ(d.description.rfind("equivalent of AMD's " + d.name + ": ", 0), 0u)
            << d.description;
        EXPECT_FALSE(d.unit.empty()) << d.name;
    }
    // The host agent: SQ_WAVES and its two sums are its work-items, SQ_BUSY_CU_CYCLES needs perf.
    auto host = std::vector<std::string>{
        "DURATION_NS", "CPU_TIME_NS", "WORKERS_ACTIVE", "WORK_ITEMS", "WORKGROUPS"};
    auto offered_names = [&](const std::vector<std::string>& bases, const std::string& agent)
    {
        auto r     = derived::resolve(out.definitions, agent, bases);
        auto names = std::vector<std::string>{};
        for(const auto& o : r.offered)
            names.emplace_back(out.definitions[o.definition].name);
        EXPECT_TRUE(r.errors.empty()) << joined(r.errors);
        return names;
    };
    EXPECT_EQ(offered_names(host, "host"),
              (std::vector<std::string>{"SQ_WAVES", "SQ_WAVES_sum", "Wavefronts"}));
    host.emplace_back("PERF_CPU_CYCLES");
    EXPECT_EQ(
        offered_names(host, "host"),
        (std::vector<std::string>{"SQ_WAVES", "SQ_WAVES_sum", "Wavefronts", "SQ_BUSY_CU_CYCLES"}));
    // sm_90: with every CUPTI name the table uses, every sm_90 definition is offered.
    auto used = counters_named_by(out.definitions);
    ASSERT_EQ(used.count("sm_90"), 1u);
    EXPECT_EQ(offered_names(used.at("sm_90"), "sm_90").size(),
              defined_for(out.definitions, "sm_90"));
    // An agent the table does not name gets nothing.
    EXPECT_TRUE(offered_names(used.at("sm_90"), "sm_80").empty());

    // The copy in the build tree, found beside the build tree's metrics file, is the same table.
    auto again = metrics_file::loaded{};
    metrics_file::read_equivalents_file(
        metrics_file::equivalents_path_for(ROCPROFILER_BUILD_METRICS), again);
    EXPECT_TRUE(again.errors.empty()) << joined(again.errors);
    EXPECT_EQ(again.definitions.size(), out.definitions.size());
}

TEST(amd_equivalents, each_bad_entry_is_one_message_and_only_it_is_skipped)
{
    auto read = [](const std::string& text)
    {
        auto out = metrics_file::loaded{};
        metrics_file::read_equivalents_text(text, "table.json", out);
        return out;
    };
    auto entry = [](const std::string& name, const std::string& body)
    {
        return R"({"name": ")" + name + R"(", "amd_meaning": "m", "amd_kind": "hardware", )" +
               body + "}";
    };
    const auto good_def =
        std::string{R"("definitions": [{"agents": ["host"], "expression": "A", "unit": "u", )"
                    R"("description": "d", "notes": "n"}], "absent": [{"agents": ["sm_90"], )"
                    R"("reason": "r"}])"};
    auto text =
        R"({"version": 1, "equivalents": [)" + entry("GOOD", good_def) + ", " +
        entry("TWICE",
              R"("definitions": [{"agents": ["host"], "expression": "A", "unit": "u", )"
              R"("description": "d"}], "absent": [{"agents": ["host"], "reason": "r"}])") +
        ", " +
        entry("UNKNOWN_AGENT_KEY",
              R"("definitions": [{"agents": ["host"], "expression": "A", "unit": "u", )"
              R"("description": "d", "agent": "x"}], "absent": [])") +
        ", " +
        entry("NO_REASON", R"("definitions": [], "absent": [{"agents": ["host"], "reason": ""}])") +
        ", " +
        entry("BAD_EXPR",
              R"("definitions": [{"agents": ["host"], "expression": "A +", "unit": "u", )"
              R"("description": "d"}], "absent": [])") +
        ", " + entry("NO_LISTS", R"("definitions": {})") + ", " + entry("GOOD", good_def) + ", " +
        entry("GOOD2",
              R"("definitions": [{"agents": ["host", "sm_90"], "expression": "A * 2", )"
              R"("unit": "u", "description": "d"}], "absent": [])") +
        "]}";
    auto out = read(text);
    ASSERT_EQ(out.definitions.size(), 2u) << joined(out.errors);
    EXPECT_EQ(out.definitions[0].name, "GOOD");
    EXPECT_EQ(out.definitions[0].description, "equivalent of AMD's GOOD: d");
    EXPECT_EQ(out.definitions[1].name, "GOOD2");
    EXPECT_EQ(*out.definitions[1].agents, (std::vector<std::string>{"host", "sm_90"}));
    EXPECT_EQ(out.errors.size(), 6u) << joined(out.errors);
    EXPECT_TRUE(mentions(out.errors, "'TWICE'", "named twice")) << joined(out.errors);
    EXPECT_TRUE(mentions(out.errors, "'UNKNOWN_AGENT_KEY'", "unknown key \"agent\""))
        << joined(out.errors);
    EXPECT_TRUE(mentions(out.errors, "'NO_REASON'", "\"reason\"")) << joined(out.errors);
    EXPECT_TRUE(mentions(out.errors, "'BAD_EXPR'", "bad expression")) << joined(out.errors);
    EXPECT_TRUE(mentions(out.errors, "'NO_LISTS'", "must be lists")) << joined(out.errors);
    EXPECT_TRUE(mentions(out.errors, "'GOOD'", "two entries")) << joined(out.errors);
    for(const auto& e : out.errors)
        EXPECT_NE(e.find("table.json"), std::string::npos) << "names the file: " << e;

    // A file that is not such a table: one message, nothing offered.
    for(const auto* bad : {"{",
                           "[]",
                           R"({"version": 2, "equivalents": []})",
                           R"({"version": 1, "equivalents": {}})",
                           R"({"version": 1})"})
    {
        out = read(bad);
        EXPECT_TRUE(out.definitions.empty()) << bad;
        ASSERT_EQ(out.errors.size(), 1u) << bad << ": " << joined(out.errors);
        EXPECT_TRUE(mentions(out.errors, "AMD's counter names are not offered")) << bad;
    }
    // A file that cannot be read.
    out = {};
    metrics_file::read_equivalents_file("/nonexistent-dir/amd_equivalents.json", out);
    ASSERT_EQ(out.errors.size(), 1u);
    EXPECT_TRUE(mentions(out.errors, "/nonexistent-dir/amd_equivalents.json", "not offered"));
}

TEST(amd_equivalents, an_unavailable_equivalent_is_quiet_and_a_user_metric_replaces_one)
{
    // An equivalent whose counter the agent lacks is not offered and says nothing (rocprofv3 says
    // why); an ordinary definition naming the agent still reports it.
    auto amd                   = def("AMD_NAME", "MISSING", std::vector<std::string>{"host"});
    amd.quiet_when_unavailable = true;
    auto r                     = derived::resolve(
        {amd, def("MINE", "MISSING", std::vector<std::string>{"host"})}, "host", {"A"});
    EXPECT_TRUE(r.offered.empty());
    ASSERT_EQ(r.errors.size(), 1u) << joined(r.errors);
    EXPECT_TRUE(mentions(r.errors, "'MINE'"));

    // Equivalents of one name for two agents both stay; each agent resolves its own.
    auto sources = metrics_file::sources{};
    sources.shipped.emplace_back(def("SHIPPED", "A"));
    sources.equivalents.emplace_back(def("SQ_WAVES", "A", std::vector<std::string>{"host"}));
    sources.equivalents.emplace_back(def("SQ_WAVES", "B * 2", std::vector<std::string>{"sm_90"}));
    sources.equivalents.emplace_back(def("TCC_HIT", "B", std::vector<std::string>{"sm_90"}));
    auto all = metrics_file::combine(sources);
    ASSERT_EQ(all.size(), 4u);
    auto host = derived::resolve(all, "host", {"A"});
    auto gpu  = derived::resolve(all, "sm_90", {"A", "B"});
    ASSERT_EQ(host.offered.size(), 2u);
    EXPECT_EQ(all[host.offered[1].definition].text, "A");
    ASSERT_EQ(gpu.offered.size(), 3u);
    EXPECT_EQ(all[gpu.offered[1].definition].text, "B * 2");

    // A user definition of AMD's name replaces the equivalent on every agent.
    sources.user.emplace_back(def("SQ_WAVES", "A * 3"));
    all = metrics_file::combine(sources);
    ASSERT_EQ(all.size(), 3u);
    for(const auto* agent : {"host", "sm_90"})
    {
        auto mine = derived::resolve(all, agent, {"A", "B"});
        auto found =
            std::find_if(mine.offered.begin(),
                         mine.offered.end(),
                         [&](const auto& o) { return all[o.definition].name == "SQ_WAVES"; });
        ASSERT_NE(found, mine.offered.end()) << agent;
        EXPECT_EQ(all[found->definition].text, "A * 3") << agent;
    }
}
