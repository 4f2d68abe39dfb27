// --kernel-iteration-range values (parse.hpp), as the CLI and the tool both read them.
#include "config/parse.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace parse = rocprofiler::tool::parse;

TEST(iteration_range, forms)
{
    auto why = std::string{};
    auto r   = parse::parse_iteration_range("[1-3,5]", &why);
    ASSERT_TRUE(r) << why;
    for(uint64_t i : {1, 2, 3, 5})
        EXPECT_TRUE(r->contains(i)) << i;
    for(uint64_t i : {4, 6, 100})
        EXPECT_FALSE(r->contains(i)) << i;
    ASSERT_TRUE(parse::parse_iteration_range("1-3", &why));
    ASSERT_TRUE(parse::parse_iteration_range("7", &why));
    ASSERT_TRUE(parse::parse_iteration_range("[2 4]", &why));
    EXPECT_FALSE(parse::parse_iteration_range("3-1", &why));
    EXPECT_FALSE(parse::parse_iteration_range("0-2", &why));
    EXPECT_FALSE(parse::parse_iteration_range("[1-3", &why));
    EXPECT_FALSE(parse::parse_iteration_range("a", &why));
    EXPECT_FALSE(parse::parse_iteration_range("", &why));
    EXPECT_TRUE(parse::iteration_range{}.contains(12345));
}

// Upstream's documented forms (issue 16): several bracketed ranges, nested brackets, open ranges.
TEST(iteration_range, upstream_forms_and_open_ranges)
{
    auto why      = std::string{};
    auto contains = [&why](const char* text, std::vector<uint64_t> in, std::vector<uint64_t> out)
    {
        auto r = parse::parse_iteration_range(text, &why);
        ASSERT_TRUE(r) << text << ": " << why;
        for(auto i : in)
            EXPECT_TRUE(r->contains(i)) << text << " " << i;
        for(auto i : out)
            EXPECT_FALSE(r->contains(i)) << text << " " << i;
    };
    contains("[1-2],[3-4]", {1, 2, 3, 4}, {5, 6});
    contains("[1, 2, [5-8]]", {1, 2, 5, 8}, {3, 4, 9});
    contains("[5-]", {5, 6, 1000000, UINT64_MAX}, {1, 4});
    contains("2,[7-]", {2, 7, 8}, {1, 3, 6});
    contains("[1-2], [5]", {1, 2, 5}, {3, 4, 6}); // several values, as rocprofv3 joins them
    EXPECT_FALSE(parse::parse_iteration_range("[1-2]]", &why));
    EXPECT_NE(why.find("unbalanced"), std::string::npos) << why;
    EXPECT_FALSE(parse::parse_iteration_range("[]", &why));
    EXPECT_FALSE(parse::parse_iteration_range("-3", &why));
    EXPECT_FALSE(parse::parse_iteration_range("0-", &why));
    EXPECT_FALSE(parse::parse_iteration_range("[2-x]", &why));
}
