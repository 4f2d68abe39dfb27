#include "untrusted/printable.hpp"

#include <cstdint>

namespace rocprofiler::untrusted
{
namespace
{
// The length of the valid UTF-8 sequence at @p i (1 to 4), or 0 when the byte there does not
// start one (overlong forms, surrogates and values past U+10FFFF are invalid).
size_t
utf8_length(std::string_view text, size_t i)
{
    auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
    auto c    = byte(i);
    if(c < 0x80) return 1;
    auto need = size_t{0};
    auto min  = uint32_t{0};
    auto cp   = uint32_t{0};
    if((c & 0xe0) == 0xc0)
    {
        need = 1;
        min  = 0x80;
        cp   = c & 0x1f;
    }
    else if((c & 0xf0) == 0xe0)
    {
        need = 2;
        min  = 0x800;
        cp   = c & 0x0f;
    }
    else if((c & 0xf8) == 0xf0)
    {
        need = 3;
        min  = 0x10000;
        cp   = c & 0x07;
    }
    else
        return 0;
    if(i + need >= text.size()) return 0; // cut short by the end of the text
    for(size_t k = 1; k <= need; ++k)
    {
        if((byte(i + k) & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (byte(i + k) & 0x3f);
    }
    if(cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return need + 1;
}

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
        auto length = utf8_length(text, i);
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
        auto length = utf8_length(text, i);
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
