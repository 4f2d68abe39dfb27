// "pmc:" counter lists, the counter-group encoding and text input files (parse.hpp).
#include "config/parse.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace parse = rocprofiler::tool::parse;

TEST(counter_lists, pmc_lines_and_groups)
{
    EXPECT_EQ(parse::parse_counter_list("pmc: A B,C"), (std::vector<std::string>{"A", "B", "C"}));
    auto groups = std::vector<std::vector<std::string>>{{"A", "B"}, {"C"}};
    EXPECT_EQ(parse::encode_counter_groups(groups), "A B;C");
    EXPECT_EQ(parse::decode_counter_groups("A B;C"), groups);
    auto why  = std::string{};
    auto file = parse::parse_input_text("# comment\npmc: A B\n\npmc: C # trailing\n", &why);
    ASSERT_TRUE(file) << why;
    EXPECT_EQ(*file, groups);
    EXPECT_FALSE(parse::parse_input_text("counters: A\n", &why));
    EXPECT_FALSE(parse::parse_input_text("pmc:\n", &why));
}
