// Names from the application made safe for a terminal.
#include "untrusted/printable.hpp"

#include <gtest/gtest.h>

#include <string>

using rocprofiler::untrusted::is_printable;
using rocprofiler::untrusted::printable;

TEST(untrusted_printable, plain_and_utf8_text_is_unchanged)
{
    for(std::string text : {"",
                            "kernel_a",
                            "void k<int>(int*, float)",
                            "k\\x41 (a backslash)",
                            "caf\xc3\xa9 \xe6\xbc\xa2\xe5\xad\x97 \xf0\x9f\x9a\x80",
                            "~!@#$%^&*()"})
    {
        EXPECT_TRUE(is_printable(text)) << text;
        EXPECT_EQ(printable(text), text);
    }
}

TEST(untrusted_printable, a_forged_line_and_terminal_controls_are_escaped)
{
    auto evil = std::string{"evil\nrocprofv3: error: FAKE\x1b]0;title\a\x1b[2J\r\t\x7f"};
    evil += '\0';
    evil += "end";
    EXPECT_FALSE(is_printable(evil));
    EXPECT_EQ(printable(evil),
              "evil\\nrocprofv3: error: FAKE\\e]0;title\\x07\\e[2J\\r\\t\\x7f\\x00end");
}

TEST(untrusted_printable, c1_controls_and_invalid_utf8_are_escaped)
{
    // U+009B (CSI as a C1 control) in UTF-8; a raw 0x9b byte; bytes of no UTF-8 sequence.
    EXPECT_EQ(printable("a\xc2\x9b"
                        "2Jb"),
              "a\\u009b2Jb");
    EXPECT_EQ(printable("bad\xff\xfe"), "bad\\xff\\xfe");
    EXPECT_EQ(printable("x\x9by"), "x\\x9by");
    // Overlong '/' (C0 AF), a surrogate (ED A0 80), past U+10FFFF (F4 90 80 80), cut short (E6 BC).
    EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");
    EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");
    EXPECT_EQ(printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");
    EXPECT_EQ(printable("\xe6\xbc"), "\\xe6\\xbc");
    // U+00A0 (just past the C1 range) is text.
    EXPECT_EQ(printable("\xc2\xa0"), "\xc2\xa0");
}
