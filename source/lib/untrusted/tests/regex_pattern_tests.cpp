#include "untrusted/regex_pattern.hpp"

#include <gtest/gtest.h>

#include <string>

using rocprofiler::untrusted::std_regex_max_repetition;
using rocprofiler::untrusted::std_regex_refusal;

TEST(std_regex_refusal, counts_up_to_the_limit_pass)
{
    EXPECT_EQ(std_regex_refusal(""), "");
    EXPECT_EQ(std_regex_refusal("^vector_add$"), "");
    EXPECT_EQ(std_regex_refusal("a{3}b{2,}c{0,1000}"), "");
    EXPECT_EQ(std_regex_refusal("a{" + std::to_string(std_regex_max_repetition) + "}"), "");
    EXPECT_EQ(std_regex_refusal("{}"), "");
    EXPECT_EQ(std_regex_refusal("x{"), "");
}

TEST(std_regex_refusal, a_count_above_the_limit_is_named_with_its_offset)
{
    const auto why = std_regex_refusal("a{" + std::to_string(std_regex_max_repetition + 1) + "}");
    EXPECT_NE(why.find("'1001' at offset 2"), std::string::npos) << why;
    EXPECT_NE(std_regex_refusal("a{1,1001}").find("'1001' at offset 4"), std::string::npos);
    EXPECT_NE(std_regex_refusal("a{2000,}"), "");
    // The fuzzer's input: a count of 22 digits (libstdc++ overflows a signed long reading it).
    const auto fuzzed = std_regex_refusal("0050{5555555555555555555500");
    EXPECT_NE(fuzzed.find("'5555555555555555555500' at offset 5"), std::string::npos) << fuzzed;
}

TEST(std_regex_refusal, an_escaped_brace_is_a_literal)
{
    EXPECT_EQ(std_regex_refusal("a\\{99999999}"), "");
    EXPECT_NE(std_regex_refusal("a\\\\{99999999}"), ""); // an escaped backslash, then a count
}

TEST(std_regex_refusal, back_references_up_to_the_limit_pass)
{
    EXPECT_EQ(std_regex_refusal("(a)\\1"), "");
    EXPECT_EQ(std_regex_refusal("(a)\\1000"), "");
    EXPECT_EQ(std_regex_refusal("\\0123456789012345678901234567890"), "");  // "\0" is a literal NUL
    EXPECT_EQ(std_regex_refusal("\\\\123456789012345678901234567890"), ""); // an escaped backslash
}

TEST(std_regex_refusal, a_back_reference_above_the_limit_is_named_with_its_offset)
{
    EXPECT_NE(std_regex_refusal("(a)\\1001").find("'\\1001' at offset 3"), std::string::npos);
    // The fuzzer's input: libstdc++ overflows a signed long reading this back-reference.
    const auto fuzzed = std_regex_refusal("5 00\\1123456789012172839423");
    EXPECT_NE(fuzzed.find("'\\1123456789012172839423' at offset 4"), std::string::npos) << fuzzed;
}
