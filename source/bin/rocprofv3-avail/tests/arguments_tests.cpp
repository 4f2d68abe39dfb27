// The command line as AMD's rocprofv3-avail takes it, and the errors of everything else.
#include "arguments.hpp"

#include <gtest/gtest.h>

namespace
{
using namespace rocprofv3_avail;

request
parsed(const std::vector<std::string>& args)
{
    auto out = parse_arguments(args);
    if(const auto* bad = std::get_if<usage_error>(&out))
        ADD_FAILURE() << "unexpected usage error: " << bad->message;
    return std::get_if<request>(&out) != nullptr ? std::get<request>(out) : request{};
}

std::string
refused(const std::vector<std::string>& args)
{
    auto out = parse_arguments(args);
    if(const auto* bad = std::get_if<usage_error>(&out)) return bad->message;
    ADD_FAILURE() << "accepted, expected a usage error";
    return {};
}
} // namespace

TEST(avail_arguments, empty_command_line_asks_for_help)
{
    EXPECT_EQ(parsed({}).what, command::help);
    EXPECT_EQ(parsed({"list", "--help"}).what, command::help);
    EXPECT_EQ(parsed({"-h"}).what, command::help);
}

TEST(avail_arguments, list_flags_take_amd_truth_values)
{
    auto r = parsed({"list"});
    EXPECT_EQ(r.what, command::list);
    EXPECT_FALSE(r.list_pmc || r.list_agent || r.list_pc_sampling || r.list_sets);

    r = parsed({"list", "--pmc", "--agent", "yes", "--pc-sampling=False", "--sets", "ON"});
    EXPECT_TRUE(r.list_pmc);
    EXPECT_TRUE(r.list_agent);
    EXPECT_FALSE(r.list_pc_sampling);
    EXPECT_TRUE(r.list_sets);

    EXPECT_NE(refused({"list", "--pmc", "maybe"}).find("takes true or false"), std::string::npos);
    EXPECT_NE(refused({"list", "--counters"}).find("unknown option '--counters' for list"),
              std::string::npos);
    EXPECT_NE(refused({"list", "extra"}).find("unexpected argument 'extra'"), std::string::npos);
}

TEST(avail_arguments, truth_values)
{
    for(const auto* yes : {"y", "YES", "t", "True", "on", "1"})
        EXPECT_EQ(truth_value(yes), true) << yes;
    for(const auto* no : {"n", "No", "f", "FALSE", "off", "0"})
        EXPECT_EQ(truth_value(no), false) << no;
    EXPECT_FALSE(truth_value("2").has_value());
    EXPECT_FALSE(truth_value("").has_value());
}

TEST(avail_arguments, device_before_or_after_the_command)
{
    EXPECT_EQ(parsed({"-d", "1", "list"}).device, 1);
    EXPECT_EQ(parsed({"--device=2", "info"}).device, 2);
    EXPECT_EQ(parsed({"-d3", "info"}).device, 3);
    EXPECT_EQ(parsed({"pmc-check", "-d", "0", "A"}).device, 0);
    EXPECT_EQ(parsed({"list", "--device", "4"}).device, 4);
    EXPECT_EQ(parsed({"-d", "1", "list", "-d", "1"}).device, 1);

    EXPECT_NE(refused({"-d", "x", "list"}).find("takes a GPU index"), std::string::npos);
    EXPECT_NE(refused({"-d", "-1", "list"}).find("takes a GPU index"), std::string::npos);
    EXPECT_NE(refused({"list", "-d"}).find("needs a GPU index"), std::string::npos);
    EXPECT_NE(refused({"-d", "0", "list", "-d", "1"}).find("given twice"), std::string::npos);
}

TEST(avail_arguments, commands)
{
    EXPECT_NE(refused({"lst"}).find("unknown command 'lst' (choose from list, info, pmc-check)"),
              std::string::npos);
    EXPECT_NE(refused({"-d", "0"}).find("no command given"), std::string::npos);
    EXPECT_NE(refused({"--verbose", "list"}).find("unknown option '--verbose'"), std::string::npos);
}

TEST(avail_arguments, info_names_follow_pmc)
{
    auto r = parsed({"info"});
    EXPECT_EQ(r.what, command::info);
    EXPECT_FALSE(r.info_pmc.has_value());
    EXPECT_FALSE(r.info_pc_sampling);

    r = parsed({"info", "--pmc"});
    ASSERT_TRUE(r.info_pmc.has_value());
    EXPECT_TRUE(r.info_pmc->empty());

    r = parsed({"info", "--pmc", "A", "B,C", "--pc-sampling"});
    EXPECT_EQ(*r.info_pmc, (std::vector<std::string>{"A", "B", "C"}));
    EXPECT_TRUE(r.info_pc_sampling);

    EXPECT_EQ(*parsed({"info", "--pmc=A,B"}).info_pmc, (std::vector<std::string>{"A", "B"}));
    EXPECT_NE(refused({"info", "--pmc", "A,,B"}).find("empty counter name"), std::string::npos);
    EXPECT_NE(refused({"info", "--pc-sampling", "x"}).find("takes no value"), std::string::npos);
    EXPECT_NE(refused({"info", "A"}).find("counter names follow --pmc"), std::string::npos);
}

TEST(avail_arguments, pmc_check_names_and_device_qualifiers)
{
    auto r = parsed({"pmc-check", "A", "B:device=1", "C:device=0,device=2,device=0"});
    EXPECT_EQ(r.what, command::pmc_check);
    ASSERT_EQ(r.pmc.size(), 3u);
    EXPECT_EQ(r.pmc[0].name, "A");
    EXPECT_TRUE(r.pmc[0].devices.empty());
    EXPECT_EQ(r.pmc[1].devices, (std::vector<int>{1}));
    EXPECT_EQ(r.pmc[2].devices, (std::vector<int>{0, 2}));

    // After "--" every word is a name.
    EXPECT_EQ(parsed({"pmc-check", "--", "-d"}).pmc.at(0).name, "-d");

    EXPECT_NE(refused({"pmc-check"}).find("at least one counter"), std::string::npos);
    EXPECT_NE(refused({"pmc-check", "A:dev=1"}).find("expected NAME:device=N"), std::string::npos);
    EXPECT_NE(refused({"pmc-check", "A:device=x"}).find("expected NAME:device=N"),
              std::string::npos);
    EXPECT_NE(refused({"pmc-check", ":device=1"}).find("names no counter"), std::string::npos);
    EXPECT_NE(refused({"pmc-check", "--pmc", "A"}).find("unknown option '--pmc' for pmc-check"),
              std::string::npos);
}
