#include "cuda/tracing/nvtx_strings.hpp"

#include <gtest/gtest.h>

#include <string>

namespace nvtx = rocprofiler::cuda::nvtx;

TEST(nvtx_strings, utf16_to_utf8)
{
    EXPECT_EQ(nvtx::utf8_from_utf16(nullptr), "");
    EXPECT_EQ(nvtx::utf8_from_utf16(u""), "");
    EXPECT_EQ(nvtx::utf8_from_utf16(u"range"), "range");
    EXPECT_EQ(nvtx::utf8_from_utf16(u"\u00e9\u20ac"), "\xc3\xa9\xe2\x82\xac"); // é €
    EXPECT_EQ(nvtx::utf8_from_utf16(u"\U0001F600"), "\xf0\x9f\x98\x80");       // a surrogate pair
    const char16_t lone_high[] = {u'a', 0xD83D, u'b', 0};
    EXPECT_EQ(nvtx::utf8_from_utf16(lone_high),
              "a\xef\xbf\xbd"
              "b");
    const char16_t lone_low[] = {0xDE00, 0};
    EXPECT_EQ(nvtx::utf8_from_utf16(lone_low), "\xef\xbf\xbd");
}

TEST(nvtx_strings, utf32_and_wide_to_utf8)
{
    EXPECT_EQ(nvtx::utf8_from_utf32(U"x\u00e9\U0001F600"), "x\xc3\xa9\xf0\x9f\x98\x80");
    const char32_t invalid[] = {0x110000, 0xD800, U'z', 0};
    EXPECT_EQ(nvtx::utf8_from_utf32(invalid), "\xef\xbf\xbd\xef\xbf\xbdz");
    EXPECT_EQ(nvtx::utf8_from_wide(L"wide \u00e9\U0001F600"), "wide \xc3\xa9\xf0\x9f\x98\x80");
    EXPECT_EQ(nvtx::utf8_from_wide(nullptr), "");
}

TEST(nvtx_strings, decode_message_by_type)
{
    auto out = nvtx::decoded_message{};
    nvtx::decode_message(nvtx::message_ascii, "ascii", out);
    EXPECT_STREQ(out.text, "ascii");

    const wchar_t* wide = L"\u00fcnicode";
    nvtx::decode_message(nvtx::message_unicode, wide, out);
    EXPECT_STREQ(out.text, "\xc3\xbcnicode");
    EXPECT_EQ(out.text, out.storage.c_str());

    const auto* handle = nvtx::register_string("registered");
    nvtx::decode_message(nvtx::message_registered, handle, out);
    EXPECT_STREQ(out.text, "registered");
    EXPECT_EQ(out.text, handle->text.c_str());

    nvtx::decode_message(nvtx::message_unknown, "ignored", out);
    EXPECT_STREQ(out.text, "");
    nvtx::decode_message(42, "ignored", out);
    EXPECT_STREQ(out.text, "");
    nvtx::decode_message(nvtx::message_ascii, nullptr, out);
    EXPECT_STREQ(out.text, "");
}

TEST(nvtx_strings, registered_strings_stay_put)
{
    const auto* first = nvtx::register_string("first");
    for(int i = 0; i < 1000; ++i)
        nvtx::register_string(std::to_string(i));
    EXPECT_EQ(first->text, "first");
    EXPECT_NE(nvtx::register_string("first"), first); // each registration is its own handle
}
