// The environment registry: every setting accepts its good values, rejects bad ones with one
// message (the variable, what it accepts, the default used) and treats empty as unset; the typed
// accessors read through an injected getenv; each backend registers its table; docs/api.md's table
// lists exactly the registry (the core's table, then every backend's, built or not).

#include "backend/device_backend.hpp"
#include "common/environment.hpp"
#include "common/logging.hpp"
#include "cuda/settings.hpp"
#include "host/settings.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace env    = rocprofiler::common::env;
namespace cuda_s = rocprofiler::cuda::settings;
namespace host_s = rocprofiler::host::settings;

namespace
{
// Every table of the library, in docs/api.md's order: the core's, then each backend's in
// registration order (CUDA devices first), whether or not this build has the backend.
std::vector<const env::setting*>
every_table()
{
    auto out =
        std::vector<const env::setting*>{env::settings::all.begin(), env::settings::all.end()};
    out.insert(out.end(), cuda_s::table::all.begin(), cuda_s::table::all.end());
    out.insert(out.end(), host_s::all.begin(), host_s::all.end());
    return out;
}

// A fake environment: a name -> value table.
struct fake_environment
{
    std::map<std::string, std::string> values = {};

    env::getenv_function getenv() const
    {
        return [this](const char* name) -> const char*
        {
            auto itr = values.find(name);
            return itr == values.end() ? nullptr : itr->second.c_str();
        };
    }
};

std::string
variable_of(const env::setting& def)
{
    return def.indexed ? std::string{def.name} + "3" : std::string{def.name};
}

// Values each setting must accept, with what check() makes of them.
std::vector<std::pair<std::string, uint64_t>>
good_numbers(const env::setting& def)
{
    switch(def.type)
    {
    case env::value_type::flag:
        return {{"1", 1},
                {"0", 0},
                {"true", 1},
                {"FALSE", 0},
                {"Yes", 1},
                {"no", 0},
                {"on", 1},
                {"OFF", 0},
                {" 1 ", 1}};
    case env::value_type::number:
    {
        auto out = std::vector<std::pair<std::string, uint64_t>>{
            {std::to_string(def.minimum), def.minimum},
            {std::to_string(def.maximum), def.maximum},
            {"+" + std::to_string(def.minimum), def.minimum},
            {" " + std::to_string(def.maximum) + "\t", def.maximum}};
        if(!def.computed_default) out.emplace_back(std::to_string(def.fallback), def.fallback);
        return out;
    }
    case env::value_type::choice:
    {
        auto out = std::vector<std::pair<std::string, uint64_t>>{};
        for(const auto& entry : def.choices)
        {
            out.emplace_back(std::string{entry.name}, entry.value);
            auto upper = std::string{entry.name};
            for(auto& c : upper)
                c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            out.emplace_back(upper, entry.value);
        }
        return out;
    }
    default:
        return {};
    }
}

// Values each setting must reject.
std::vector<std::string>
bad_values(const env::setting& def)
{
    switch(def.type)
    {
    case env::value_type::flag:
        return {"2", "maybe", "1x", "-1"};
    case env::value_type::number:
    {
        auto out = std::vector<std::string>{
            "abc", "-1", "-0", "12x", "1 2", "0x10", "1e3", "99999999999999999999", "+", "+-1"};
        if(def.minimum > 0) out.emplace_back(std::to_string(def.minimum - 1));
        if(def.maximum < UINT64_MAX) out.emplace_back(std::to_string(def.maximum + 1));
        // Milliseconds that wrap to a small number of nanoseconds when multiplied unchecked.
        if(def.unit == "ms" && def.maximum < 18446744073710ULL) out.emplace_back("18446744073710");
        // Mebibytes that wrap to 0 bytes (2^44 MiB = 2^64 B).
        if(def.unit == "MiB" && def.maximum < 17592186044416ULL) out.emplace_back("17592186044416");
        return out;
    }
    case env::value_type::choice:
        return {"bogus", "1 2"};
    case env::value_type::regex:
        // The last: a repetition count libstdc++ overflows (the environment fuzzer's finding).
        return {"(", "[a-", "a{5555555555555555555500}"};
    default:
        return {};
    }
}
} // namespace

TEST(environment, registry_entries_are_complete_and_unique)
{
    auto names = std::set<std::string_view>{};
    for(const auto* def : every_table())
    {
        SCOPED_TRACE(std::string{def->name});
        EXPECT_TRUE(def->name.starts_with("ROCP_") || def->name.starts_with("ROCPROFILER_"));
        EXPECT_TRUE(names.insert(def->name).second) << "listed twice";
        EXPECT_FALSE(def->doc.empty());
        EXPECT_FALSE(env::default_text(*def).empty());
        EXPECT_FALSE(env::accepted_values(*def).empty());
        if(def->type == env::value_type::number)
        {
            EXPECT_LE(def->minimum, def->maximum);
            if(!def->computed_default)
            {
                EXPECT_GE(def->fallback, def->minimum);
                EXPECT_LE(def->fallback, def->maximum);
            }
        }
        if(def->type == env::value_type::choice)
        {
            auto found = false;
            for(const auto& entry : def->choices)
                found = found || (!entry.alias && entry.name == def->default_text &&
                                  static_cast<uint64_t>(entry.value) == def->fallback);
            EXPECT_TRUE(found) << "the default is not one of the choices";
        }
    }
}

TEST(environment, unset_empty_and_blank_values_give_the_default)
{
    for(const auto* def : every_table())
    {
        const auto variable = variable_of(*def);
        SCOPED_TRACE(variable);
        for(const char* value : {static_cast<const char*>(nullptr), "", "  ", "\t"})
        {
            auto result = env::check(*def, variable, value);
            EXPECT_EQ(result.status, env::state::unset);
            EXPECT_EQ(result.number, def->fallback);
            EXPECT_TRUE(result.text.empty());
            EXPECT_TRUE(result.message.empty());
        }
    }
}

TEST(environment, every_setting_accepts_its_good_values)
{
    for(const auto* def : every_table())
    {
        const auto variable = variable_of(*def);
        for(const auto& [value, expected] : good_numbers(*def))
        {
            SCOPED_TRACE(variable + "='" + value + "'");
            auto result = env::check(*def, variable, value.c_str());
            EXPECT_EQ(result.status, env::state::valid) << result.message;
            EXPECT_EQ(result.number, expected);
        }
        if(def->type == env::value_type::text || def->type == env::value_type::regex ||
           def->type == env::value_type::path_list)
        {
            auto result = env::check(*def, variable, " lib.*so:b ");
            EXPECT_EQ(result.status, env::state::valid) << variable;
            EXPECT_EQ(result.text, "lib.*so:b") << variable;
        }
    }
}

TEST(environment, every_setting_rejects_bad_values_with_one_message)
{
    auto rejected = 0;
    for(const auto* def : every_table())
    {
        const auto variable = variable_of(*def);
        for(const auto& value : bad_values(*def))
        {
            SCOPED_TRACE(variable + "='" + value + "'");
            auto result = env::check(*def, variable, value.c_str());
            EXPECT_EQ(result.status, env::state::invalid);
            EXPECT_EQ(result.number, def->fallback) << "the default is used";
            EXPECT_TRUE(result.text.empty());
            const auto& msg = result.message;
            EXPECT_EQ(msg.find(variable + "='" + value + "' is not valid: expected "), 0U) << msg;
            EXPECT_NE(msg.find(env::accepted_values(*def)), std::string::npos) << msg;
            EXPECT_NE(msg.find("; using the default "), std::string::npos) << msg;
            EXPECT_NE(msg.find(env::default_text(*def)), std::string::npos) << msg;
            ++rejected;
        }
    }
    EXPECT_GT(rejected, 100);
}

// Every setting in a unit that callers convert (ms and us to ns, MiB to bytes) stops where the
// conversion still fits in 64 bits, so no accepted value can wrap.
TEST(environment, scaled_settings_cannot_overflow_their_conversion)
{
    auto scaled = 0;
    for(const auto* def : every_table())
    {
        if(def->type != env::value_type::number) continue;
        auto factor = uint64_t{0};
        if(def->unit == "ms") factor = 1000 * 1000;
        if(def->unit == "us") factor = 1000;
        if(def->unit == "MiB") factor = uint64_t{1} << 20;
        if(factor == 0) continue;
        ++scaled;
        EXPECT_LE(def->maximum, UINT64_MAX / factor) << def->name;
        EXPECT_LE(def->fallback, def->maximum) << def->name;
    }
    EXPECT_GE(scaled, 8);
}

TEST(environment, accepted_values_name_the_range_and_the_choices)
{
    EXPECT_EQ(env::accepted_values(host_s::counter_slots.def), "an integer from 1 to 64 (slots)");
    EXPECT_EQ(env::accepted_values(env::settings::replay_snapshot.def), "one of predicted, all");
    EXPECT_EQ(env::accepted_values(env::settings::replay_verify.def), "one of all, reachable, off");
    EXPECT_EQ(env::accepted_values(env::settings::log_level.def),
              "one of error, warning, info, debug, trace");
    EXPECT_EQ(env::accepted_values(cuda_s::table::cuda_timing_stats.def),
              "one of 1, 0, true, false, yes, no, on, off");
    auto result = env::check(env::settings::replay_drain_timeout_ms.def,
                             "ROCPROFILER_REPLAY_DRAIN_TIMEOUT_MS",
                             "18446744073710");
    EXPECT_EQ(result.message,
              "ROCPROFILER_REPLAY_DRAIN_TIMEOUT_MS='18446744073710' is not valid: expected an "
              "integer from 0 to 1099511627776 (ms); using the default 30000");
}

TEST(environment, typed_accessors_read_through_the_injected_getenv)
{
    namespace s = env::settings;
    auto fake   = fake_environment{};
    auto getenv = fake.getenv();

    EXPECT_EQ(env::get(s::replay_drain_timeout_ms, getenv), 30000U);
    EXPECT_FALSE(env::get(host_s::workers, getenv).has_value());
    EXPECT_FALSE(env::get(cuda_s::table::cuda_agents, getenv).has_value());
    EXPECT_FALSE(env::get(cuda_s::table::cuda_timing_stats, getenv));
    EXPECT_TRUE(env::get(cuda_s::table::cuda_cupti, getenv));
    EXPECT_EQ(env::get(s::log_level, getenv), rocprofiler::common::log::level::warning);
    EXPECT_EQ(env::get(cuda_s::table::replay_shadow, getenv), cuda_s::shadow_placement::automatic);
    EXPECT_TRUE(env::get(s::tool_libraries, getenv).empty());
    EXPECT_EQ(env::get(cuda_s::table::cupti_library, getenv), "");

    fake.values = {{"ROCPROFILER_REPLAY_DRAIN_TIMEOUT_MS", "250"},
                   {"ROCPROFILER_HOST_WORKERS", "8"},
                   {"ROCPROFILER_CUDA_AGENTS", "0"},
                   {"ROCPROFILER_CUDA_TIMING_STATS", "1"},
                   {"ROCPROFILER_CUDA_CUPTI", "0"},
                   {"ROCPROFILER_LOG_LEVEL", "DEBUG"},
                   {"ROCPROFILER_REPLAY_SHADOW", "host"},
                   {"ROCP_TOOL_LIBRARIES", ":a.so::b.so:"},
                   {"ROCPROFILER_CUPTI_LIBRARY", "/opt/libcupti.so"},
                   {"ROCPROFILER_CUDA_METRIC_FILTER_DEVICE1", "^sm__"},
                   {"ROCPROFILER_CUDA_METRIC_FILTER_DEVICE2", "("}};
    EXPECT_EQ(env::get(s::replay_drain_timeout_ms, getenv), 250U);
    EXPECT_EQ(env::get(host_s::workers, getenv), 8U);
    EXPECT_EQ(env::get(cuda_s::table::cuda_agents, getenv), false);
    EXPECT_TRUE(env::get(cuda_s::table::cuda_timing_stats, getenv));
    EXPECT_FALSE(env::get(cuda_s::table::cuda_cupti, getenv));
    EXPECT_EQ(env::get(s::log_level, getenv), rocprofiler::common::log::level::debug);
    EXPECT_EQ(env::get(cuda_s::table::replay_shadow, getenv), cuda_s::shadow_placement::host);
    EXPECT_EQ(env::get(s::tool_libraries, getenv), (std::vector<std::string>{"a.so", "b.so"}));
    EXPECT_EQ(env::get(cuda_s::table::cupti_library, getenv), "/opt/libcupti.so");
    EXPECT_EQ(env::get(cuda_s::table::cuda_metric_filter_device, 0, getenv), "");
    EXPECT_EQ(env::get(cuda_s::table::cuda_metric_filter_device, 1, getenv), "^sm__");
    EXPECT_EQ(env::get(cuda_s::table::cuda_metric_filter_device, 2, getenv), "")
        << "invalid: no filter";
}

TEST(environment, a_bad_value_is_warned_once_and_the_default_is_used)
{
    auto fake   = fake_environment{};
    auto getenv = fake.getenv();
    fake.values = {{"ROCPROFILER_HOST_COUNTER_SLOTS", "65"}, {"ROCPROFILER_HOST_WORKERS", "lots"}};

    testing::internal::CaptureStderr();
    EXPECT_EQ(env::get(host_s::counter_slots, getenv), 4U);
    EXPECT_EQ(env::get(host_s::counter_slots, getenv), 4U);
    EXPECT_FALSE(env::get(host_s::workers, getenv).has_value());
    const auto err = testing::internal::GetCapturedStderr();

    const auto slots = std::string{"[rocprofiler-sdk][warning] ROCPROFILER_HOST_COUNTER_SLOTS='65' "
                                   "is not valid: expected an integer from 1 to 64 (slots); using "
                                   "the default 4\n"};
    EXPECT_NE(err.find(slots), std::string::npos) << err;
    EXPECT_EQ(err.find(slots), err.rfind(slots)) << "warned once:\n" << err;
    EXPECT_NE(err.find("ROCPROFILER_HOST_WORKERS='lots' is not valid: expected an integer from 1 "
                       "to 4096 (threads); using the default (hardware threads, at least 2)"),
              std::string::npos)
        << err;
}

// The log level is read by the log itself: its bad value goes straight to stderr (no recursion).
TEST(environment, a_bad_log_level_is_reported_without_the_log)
{
    namespace log = rocprofiler::common::log;
    ::setenv("ROCPROFILER_LOG_LEVEL", "Loud", 1);
    testing::internal::CaptureStderr();
    log::reset_level_from_environment();
    const auto level = log::current_level();
    const auto err   = testing::internal::GetCapturedStderr();
    ::setenv("ROCPROFILER_LOG_LEVEL", "TRACE", 1);
    log::reset_level_from_environment();
    EXPECT_EQ(log::current_level(), log::level::trace);
    ::unsetenv("ROCPROFILER_LOG_LEVEL");
    log::reset_level_from_environment();

    EXPECT_EQ(level, log::level::warning);
    EXPECT_EQ(err,
              "[rocprofiler-sdk][warning] ROCPROFILER_LOG_LEVEL='Loud' is not valid: expected one "
              "of error, warning, info, debug, trace; using the default warning\n");
}

// Each backend registers its own table (device_backend::settings()); the library's registry is the
// core's table and theirs, and the core's names no backend.
TEST(environment, each_backend_registers_its_own_table)
{
    namespace backend = rocprofiler::backend;
    auto expected =
        std::vector<const env::setting*>{env::settings::all.begin(), env::settings::all.end()};
    auto host_found = false;
    for(const auto* b : backend::registered())
    {
        const auto table = b->settings();
        ASSERT_FALSE(table.empty()) << b->name() << " registers no table";
        if(std::string_view{b->name()} == "cuda")
        {
            EXPECT_TRUE(std::equal(
                table.begin(), table.end(), cuda_s::table::all.begin(), cuda_s::table::all.end()));
        }
        if(std::string_view{b->name()} == "host")
        {
            host_found = true;
            EXPECT_TRUE(
                std::equal(table.begin(), table.end(), host_s::all.begin(), host_s::all.end()));
        }
        expected.insert(expected.end(), table.begin(), table.end());
    }
    EXPECT_TRUE(host_found);
    EXPECT_EQ(backend::every_setting(), expected);
    for(const auto* def : env::settings::all)
    {
        EXPECT_FALSE(def->name.starts_with("ROCPROFILER_CUDA_")) << def->name;
        EXPECT_FALSE(def->name.starts_with("ROCPROFILER_HOST_")) << def->name;
    }
}

// --- docs/api.md ---------------------------------------------------------------------------------

namespace
{
std::string
documented_type(const env::setting& def)
{
    switch(def.type)
    {
    case env::value_type::flag:
        return "flag";
    case env::value_type::number:
        return std::to_string(def.minimum) +
               (def.maximum == UINT64_MAX ? " or more "
                                          : " to " + std::to_string(def.maximum) + " ") +
               std::string{def.unit};
    case env::value_type::choice:
    {
        auto out = std::string{};
        for(const auto& entry : def.choices)
        {
            if(entry.alias) continue;
            if(!out.empty()) out += ", ";
            out += "`" + std::string{entry.name} + "`";
        }
        return out;
    }
    case env::value_type::text:
        return "text";
    case env::value_type::regex:
        return "regular expression";
    case env::value_type::path_list:
        return "paths, `:`-separated";
    }
    return {};
}

// The row docs/api.md must have for @p def.
std::string
documented_row(const env::setting& def)
{
    const auto literal  = !def.computed_default && (def.type == env::value_type::flag ||
                                                   def.type == env::value_type::number ||
                                                   def.type == env::value_type::choice);
    auto       name     = std::string{def.name} + (def.indexed ? "<N>" : "");
    auto       fallback = literal ? "`" + env::default_text(def) + "`" : env::default_text(def);
    return "| `" + name + "` | " + documented_type(def) + " | " + fallback + " | " +
           std::string{def.doc} + " |";
}

// The rows of the table under "## Environment" (header and separator excluded).
std::vector<std::string>
environment_table(const std::string& path)
{
    auto file     = std::ifstream{path};
    auto rows     = std::vector<std::string>{};
    auto line     = std::string{};
    auto in_scope = false;
    while(std::getline(file, line))
    {
        if(line.starts_with("## ")) in_scope = (line == "## Environment");
        if(in_scope && line.starts_with("| `")) rows.emplace_back(line);
    }
    return rows;
}
} // namespace

TEST(environment, docs_api_md_lists_exactly_the_registry)
{
    const auto path = std::string{ROCPROFILER_SOURCE_DIR} + "/docs/api.md";
    const auto rows = environment_table(path);
    ASSERT_FALSE(rows.empty()) << "no environment table in " << path;

    auto expected = std::vector<std::string>{};
    for(const auto* def : every_table())
        expected.emplace_back(documented_row(*def));

    auto table = std::ostringstream{};
    table << "| variable | accepted | default | meaning |\n|---|---|---|---|\n";
    for(const auto& row : expected)
        table << row << "\n";
    EXPECT_EQ(rows, expected) << "docs/api.md's environment table must read:\n" << table.str();
}
