#include "untrusted/printable.hpp"
#include "untrusted/utf8.hpp"

#include <cstdint>

namespace rocprofiler::untrusted
{
namespace
{
bool
is_c0(uint8_t c)
{
    return c < 0x20 || c == 0x7f;
}

// A two-byte sequence C2 80..C2 9F is a C1 control (U+0080..U+009F).
bool
is_c1(std::string_view text, size_t i, size_t length)
{
    return length == 2 && static_cast<uint8_t>(text[i]) == 0xc2 &&
           static_cast<uint8_t>(text[i + 1]) <= 0x9f;
}

const char hex[] = "0123456789abcdef";
} // namespace

bool
is_printable(std::string_view text)
{
    for(size_t i = 0; i < text.size();)
    {
        auto length = utf8_sequence(text, i);
        if(length == 0 || (length == 1 && is_c0(static_cast<uint8_t>(text[i]))) ||
           is_c1(text, i, length))
            return false;
        i += length;
    }
    return true;
}

std::string
printable(std::string_view text)
{
    if(is_printable(text)) return std::string{text};
    auto out = std::string{};
    out.reserve(text.size() + 16);
    for(size_t i = 0; i < text.size();)
    {
        auto length = utf8_sequence(text, i);
        auto c      = static_cast<uint8_t>(text[i]);
        if(length == 1 && is_c0(c))
        {
            switch(c)
            {
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            case 0x1b:
                out += "\\e";
                break;
            default:
                out += "\\x";
                out += hex[c >> 4];
                out += hex[c & 0xf];
            }
            i += 1;
        }
        else if(is_c1(text, i, length))
        {
            auto value = static_cast<uint8_t>(text[i + 1]);
            out += "\\u00";
            out += hex[value >> 4];
            out += hex[value & 0xf];
            i += 2;
        }
        else if(length == 0)
        {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 0xf];
            i += 1;
        }
        else
        {
            out.append(text.substr(i, length));
            i += length;
        }
    }
    return out;
}
} // namespace rocprofiler::untrusted
