// Names from the application for the outputs that require UTF-8.
#include "untrusted/utf8.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <random>
#include <string>
#include <vector>

namespace untrusted = rocprofiler::untrusted;

namespace
{
// The string JSON output shows for @p s: nlohmann's dump with error_handler_t::replace, read back.
std::string
as_json_shows_it(const std::string& s)
{
    const auto dumped =
        nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return nlohmann::json::parse(dumped).get<std::string>();
}
} // namespace

TEST(untrusted_utf8, valid_utf8_keeps_valid_text)
{
    const auto valid = std::vector<std::string>{"",
                                                "vector_add",
                                                "caf\xC3\xA9",
                                                "\xE2\x82\xAC",
                                                "\xF0\x9F\x98\x80",
                                                "\xF4\x8F\xBF\xBF",
                                                std::string{"a\0b", 3}};
    for(const auto& s : valid)
    {
        EXPECT_TRUE(untrusted::is_valid_utf8(s)) << s;
        EXPECT_EQ(untrusted::valid_utf8(s), s);
    }
}

TEST(untrusted_utf8, valid_utf8_replaces_each_maximal_ill_formed_part)
{
    const auto r = std::string{"\xEF\xBF\xBD"};
    EXPECT_EQ(untrusted::valid_utf8("bad\xFF\xFE"), "bad" + r + r);
    EXPECT_EQ(untrusted::valid_utf8("\xE2\x82"), r);                     // truncated at the end
    EXPECT_EQ(untrusted::valid_utf8("\xE2\x82x"), r + "x");              // truncated before a byte
    EXPECT_EQ(untrusted::valid_utf8("\xC0\xAF"), r + r);                 // overlong
    EXPECT_EQ(untrusted::valid_utf8("\xED\xA0\x80"), r + r + r);         // a surrogate
    EXPECT_EQ(untrusted::valid_utf8("\xF4\x90\x80\x80"), r + r + r + r); // above U+10FFFF
    EXPECT_EQ(untrusted::valid_utf8("\x80"), r);
    EXPECT_FALSE(untrusted::is_valid_utf8("bad\xFF\xFE"));
}

// The JSON output and the other UTF-8 outputs show a name the same way.
TEST(untrusted_utf8, valid_utf8_matches_the_json_output)
{
    auto engine = std::mt19937{12345};
    auto length = std::uniform_int_distribution<size_t>{0, 12};
    // Bytes around the boundaries of UTF-8's ranges, so that most strings are nearly valid.
    const unsigned char pool[] = {'a',  0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF,
                                  0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE,
                                  0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFE, 0xFF};
    auto                pick   = std::uniform_int_distribution<size_t>{0, sizeof(pool) - 1};
    for(int i = 0; i < 200000; ++i)
    {
        auto s = std::string(length(engine), '\0');
        for(auto& c : s)
            c = static_cast<char>(pool[pick(engine)]);
        ASSERT_EQ(untrusted::valid_utf8(s), as_json_shows_it(s))
            << nlohmann::json(s).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
    }
}
