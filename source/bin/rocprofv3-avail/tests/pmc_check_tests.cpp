// pmc-check's decisions on hand-built agents: a fake configure_fn with a fixed number of base
// counters per pass (as the host device has), a counter the agent schedules in several passes
// (as CUDA agents do) and one that cannot be configured at all.
#include "exit_codes.hpp"
#include "pmc_check.hpp"
#include "printing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <list>
#include <set>
#include <sstream>

namespace
{
using namespace rocprofv3_avail;

counter
base(uint64_t id, const std::string& name)
{
    auto c        = counter{};
    c.id          = id;
    c.name        = name;
    c.description = name + " events";
    c.block       = "fake";
    c.dimensions  = {{"DIMENSION_INSTANCE", 1}};
    return c;
}

counter
derived(uint64_t id, const std::string& name, const std::string& expression, std::string text)
{
    auto c        = base(id, name);
    c.is_derived  = true;
    c.expression  = expression;
    c.description = std::move(text);
    c.block       = "derived";
    return c;
}

// Agent 0 "fake": A..E base; SUM = A + B; SQ_WAVES = AMD's name, measured as A; MULTI takes 3
// passes by itself; BROKEN cannot be configured. Agent 1 "other": A and F.
inventory
machine()
{
    auto inv      = inventory{};
    auto zero     = agent{};
    zero.handle   = 100;
    zero.index    = 0;
    zero.name     = "fake";
    zero.product  = "Fake GPU";
    zero.counters = {base(1, "A"),
                     base(2, "B"),
                     base(3, "C"),
                     base(4, "D"),
                     base(5, "E"),
                     derived(6, "SUM", "A + B", "A plus B"),
                     derived(7, "SQ_WAVES", "A", "equivalent of AMD's SQ_WAVES: waves (waves)"),
                     base(8, "MULTI"),
                     base(9, "BROKEN")};
    auto one      = agent{};
    one.handle    = 200;
    one.index     = 1;
    one.name      = "other";
    one.counters  = {base(21, "A"), base(22, "F")};
    inv.gpus      = {zero, one};
    return inv;
}

// Three base counters per pass on agent 0 (derived ones use their base counters), no limit on
// agent 1; MULTI alone is a configuration of 3 passes, and with others the agent schedules
// 3 passes too; BROKEN is refused.
configuration
fake_configure(const agent& a, const std::vector<uint64_t>& ids)
{
    auto out   = configuration{};
    auto slots = std::set<uint64_t>{};
    for(auto id : ids)
    {
        if(id == 9)
        {
            out.status = "ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE";
            return out;
        }
        if(id == 6)
            slots.insert({1, 2});
        else if(id == 7)
            slots.insert(1);
        else
            slots.insert(id);
    }
    if(slots.count(8) != 0)
    {
        out.created = true;
        out.passes  = 3;
        return out;
    }
    if(a.index == 0 && slots.size() > 3)
    {
        out.exceeds = true;
        out.status  = "ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT";
        return out;
    }
    out.created = true;
    out.passes  = 1;
    return out;
}

request
check_of(std::vector<counter_request> names, std::optional<int> device = {})
{
    auto r   = request{};
    r.what   = command::pmc_check;
    r.pmc    = std::move(names);
    r.device = device;
    return r;
}

metric_sets::catalog
sets()
{
    auto fits       = metric_sets::definition{};
    fits.name       = "small";
    fits.agents     = std::vector<std::string>{"fake"};
    fits.metrics    = {"A", "B"};
    auto lacking    = metric_sets::definition{};
    lacking.name    = "needs_z";
    lacking.agents  = std::vector<std::string>{"fake"};
    lacking.metrics = {"A", "Z"};
    return {fits, lacking};
}

amd_names::table
names()
{
    auto e           = amd_names::entry{};
    e.name           = "SQ_INSTS_SMEM";
    e.absent["fake"] = "the fake device has no scalar memory";
    return {e};
}

check_result
check(const request& r)
{
    const auto inv = machine();
    // The checks point into the inventory: keep it alive with the result.
    static auto kept = std::list<inventory>{};
    kept.push_back(inv);
    return check_counters(r, kept.back(), sets(), names(), fake_configure);
}

std::string
printed(const check_result& result, std::string* errors = nullptr)
{
    auto out = std::ostringstream{};
    auto err = std::ostringstream{};
    print_pmc_check(result, out, err);
    if(errors != nullptr) *errors = err.str();
    return out.str();
}
} // namespace

TEST(avail_pmc_check, fits_in_one_pass)
{
    auto result = check(check_of({{"A", {}}, {"B", {}}}, 0));
    ASSERT_TRUE(result.errors.empty());
    EXPECT_EQ(result.exit_code, exit_ok);
    ASSERT_EQ(result.checks.size(), 1u);
    EXPECT_EQ(result.checks[0].answer, verdict::one_pass);
    EXPECT_EQ(result.checks[0].passes, 1u);
    EXPECT_EQ(printed(result),
              "Following input counters can be collected together on GPU:0\tA\tB\n");
}

TEST(avail_pmc_check, exceeding_the_slots_splits_into_one_pass_groups)
{
    // A B C D E: five base counters, three per pass -> A B C | D E.
    auto result = check(check_of({{"A", {}}, {"B", {}}, {"C", {}}, {"D", {}}, {"E", {}}}, 0));
    EXPECT_EQ(result.exit_code, exit_needs_passes);
    ASSERT_EQ(result.checks.size(), 1u);
    const auto& c = result.checks[0];
    EXPECT_EQ(c.answer, verdict::several_passes);
    EXPECT_FALSE(c.scheduled_by_sdk);
    EXPECT_EQ(c.passes, 2u);
    EXPECT_EQ(c.split, (std::vector<std::vector<std::string>>{{"A", "B", "C"}, {"D", "E"}}));
    auto text = printed(result);
    EXPECT_NE(text.find("cannot be collected together in one pass on GPU:0\tA\tB\tC\tD\tE"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("they take 2 passes (ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("    --pmc A B C\n    --pmc D E\n"), std::string::npos) << text;
}

TEST(avail_pmc_check, derived_counters_use_their_base_counters)
{
    // SUM uses A and B: SUM C fits (3 slots), SUM C D does not.
    EXPECT_EQ(check(check_of({{"SUM", {}}, {"C", {}}}, 0)).exit_code, exit_ok);
    EXPECT_EQ(check(check_of({{"SUM", {}}, {"C", {}}, {"D", {}}}, 0)).exit_code, exit_needs_passes);
}

TEST(avail_pmc_check, agent_scheduled_passes)
{
    auto result = check(check_of({{"MULTI", {}}, {"A", {}}}, 0));
    EXPECT_EQ(result.exit_code, exit_needs_passes);
    ASSERT_EQ(result.checks.size(), 1u);
    EXPECT_TRUE(result.checks[0].scheduled_by_sdk);
    EXPECT_EQ(result.checks[0].passes, 3u);
    EXPECT_NE(printed(result).find("they take 3 passes (one configuration of them"),
              std::string::npos);
}

TEST(avail_pmc_check, a_counter_that_cannot_be_configured)
{
    auto result = check(check_of({{"A", {}}, {"BROKEN", {}}}, 0));
    EXPECT_EQ(result.exit_code, exit_needs_passes);
    ASSERT_EQ(result.checks.size(), 1u);
    EXPECT_EQ(result.checks[0].answer, verdict::cannot_collect);
    EXPECT_EQ(result.checks[0].impossible, (std::vector<std::string>{"BROKEN"}));
    EXPECT_NE(printed(result).find("no configuration of BROKEN by itself can be created "
                                   "(ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE)"),
              std::string::npos);
}

TEST(avail_pmc_check, amd_names_check_like_native_ones)
{
    auto result = check(check_of({{"SQ_WAVES", {}}, {"B", {}}}, 0));
    EXPECT_EQ(result.exit_code, exit_ok);
    auto text = printed(result);
    EXPECT_NE(text.find("GPU:0\tSQ_WAVES\tB\n"), std::string::npos) << text;
    EXPECT_NE(text.find("note: SQ_WAVES is AMD's counter name: measured on GPU 0 (fake, Fake "
                        "GPU) as A, an equivalent"),
              std::string::npos)
        << text;

    auto absent = check(check_of({{"SQ_INSTS_SMEM", {}}}, 0));
    EXPECT_EQ(absent.exit_code, exit_unknown_counter);
    ASSERT_EQ(absent.errors.size(), 1u);
    EXPECT_EQ(absent.errors[0],
              "counter 'SQ_INSTS_SMEM' is AMD's counter name with no equivalent on GPU 0 (fake, "
              "Fake GPU): the fake device has no scalar memory");
}

TEST(avail_pmc_check, metric_sets_expand_per_agent)
{
    auto result = check(check_of({{"small", {}}, {"C", {}}}, 0));
    EXPECT_EQ(result.exit_code, exit_ok);
    ASSERT_EQ(result.checks.size(), 1u);
    EXPECT_EQ(result.checks[0].counters, (std::vector<std::string>{"A", "B", "C"}));
    EXPECT_NE(printed(result).find("note: metric set small is A B on GPU 0"), std::string::npos);

    auto lacking = check(check_of({{"needs_z", {}}}, 0));
    EXPECT_EQ(lacking.exit_code, exit_unknown_counter);
    EXPECT_EQ(lacking.errors.at(0),
              "metric set 'needs_z' is not available on GPU 0 (fake, Fake GPU): it lacks Z");
    auto elsewhere = check(check_of({{"small", {}}}, 1));
    EXPECT_EQ(elsewhere.errors.at(0), "metric set 'small' has no definition for GPU 1 (other)");
}

TEST(avail_pmc_check, unknown_names_and_agents)
{
    auto typo = check(check_of({{"SUN", {}}}, 0));
    EXPECT_EQ(typo.exit_code, exit_unknown_counter);
    EXPECT_EQ(typo.errors.at(0),
              "unknown counter 'SUN' on GPU 0 (fake, Fake GPU); did you mean SUM?");
    EXPECT_TRUE(typo.checks.empty());

    auto agent = check(check_of({{"A", {}}}, 7));
    EXPECT_EQ(agent.exit_code, exit_unknown_agent);
    EXPECT_EQ(agent.errors.at(0),
              "no GPU agent 7 (GPU agents: GPU 0 (fake, Fake GPU), GPU 1 (other))");
    EXPECT_EQ(check(check_of({{"A", {3}}})).exit_code, exit_unknown_agent);
}

TEST(avail_pmc_check, without_a_device_every_agent_that_has_the_counters)
{
    // A exists on both agents: checked on both.
    auto both = check(check_of({{"A", {}}}));
    EXPECT_EQ(both.exit_code, exit_ok);
    EXPECT_EQ(both.checks.size(), 2u);
    // B exists on agent 0 only: agent 1 is skipped, with the reason.
    auto one = check(check_of({{"A", {}}, {"B", {}}}));
    EXPECT_EQ(one.exit_code, exit_ok);
    ASSERT_EQ(one.checks.size(), 1u);
    EXPECT_EQ(one.checks[0].target->index, 0);
    ASSERT_EQ(one.skipped.size(), 1u);
    EXPECT_NE(one.skipped[0].find("GPU 1 (other) not checked: unknown counter 'B' on GPU 1"),
              std::string::npos)
        << one.skipped[0];
    // B and F together exist on no agent: an error naming what each lacks.
    auto none = check(check_of({{"B", {}}, {"F", {}}}));
    EXPECT_EQ(none.exit_code, exit_unknown_counter);
    EXPECT_EQ(none.errors.size(), 2u);
}

TEST(avail_pmc_check, device_qualifiers_make_one_set_per_agent)
{
    // AMD's example: A and B on -d's agent, F on agent 1.
    auto result = check(check_of({{"A", {}}, {"B", {}}, {"F", {1}}}, 0));
    EXPECT_EQ(result.exit_code, exit_ok);
    ASSERT_EQ(result.checks.size(), 2u);
    EXPECT_EQ(result.checks[0].requested, (std::vector<std::string>{"A", "B"}));
    EXPECT_EQ(result.checks[1].requested, (std::vector<std::string>{"F"}));
    // A named for agent 0 and F for every agent that has it: A alone on agent 0, F on agent 1.
    auto mixed = check(check_of({{"A", {0}}, {"F", {}}}));
    EXPECT_EQ(mixed.exit_code, exit_ok);
    ASSERT_EQ(mixed.checks.size(), 2u);
    EXPECT_EQ(mixed.checks[0].requested, (std::vector<std::string>{"A"}));
    EXPECT_EQ(mixed.checks[1].requested, (std::vector<std::string>{"F"}));
    ASSERT_EQ(mixed.skipped.size(), 1u);
    EXPECT_EQ(mixed.skipped[0].rfind("F not checked on GPU 0 (fake, Fake GPU): unknown counter", 0),
              0u)
        << mixed.skipped[0];
    // F named for agent 0, which lacks it: an error, not a skip.
    EXPECT_EQ(check(check_of({{"F", {0}}})).exit_code, exit_unknown_counter);
}

TEST(avail_pmc_check, errors_are_printed_on_stderr_only)
{
    auto errors = std::string{};
    auto text   = printed(check(check_of({{"SUN", {}}}, 0)), &errors);
    EXPECT_TRUE(text.empty());
    EXPECT_EQ(errors,
              "rocprofv3-avail: error: unknown counter 'SUN' on GPU 0 (fake, Fake GPU); did you "
              "mean SUM?\n");
}
