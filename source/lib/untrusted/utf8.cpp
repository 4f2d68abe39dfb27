#include "untrusted/utf8.hpp"

#include <cstdint>

namespace rocprofiler::untrusted
{
size_t
utf8_sequence(std::string_view text, size_t i, size_t* ill_formed)
{
    auto bad = size_t{1};
    auto at  = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
    auto c   = at(i);
    if(c < 0x80) return 1;
    // The continuation bytes a lead byte takes and the range of the first one (Unicode, table 3-7).
    auto    need = size_t{0};
    uint8_t lo   = 0x80;
    uint8_t hi   = 0xbf;
    if(c >= 0xc2 && c <= 0xdf)
        need = 1;
    else if(c == 0xe0)
        need = 2, lo = 0xa0;
    else if(c == 0xed)
        need = 2, hi = 0x9f;
    else if(c >= 0xe1 && c <= 0xef)
        need = 2;
    else if(c == 0xf0)
        need = 3, lo = 0x90;
    else if(c == 0xf4)
        need = 3, hi = 0x8f;
    else if(c >= 0xf1 && c <= 0xf3)
        need = 3;
    for(size_t k = 1; need != 0 && k <= need; ++k)
    {
        if(i + k >= text.size() || at(i + k) < lo || at(i + k) > hi)
        {
            bad  = k;
            need = 0;
            break;
        }
        lo = 0x80;
        hi = 0xbf;
    }
    if(need == 0 && ill_formed != nullptr) *ill_formed = bad;
    return need == 0 ? 0 : need + 1;
}

bool
is_valid_utf8(std::string_view text)
{
    for(size_t i = 0; i < text.size();)
    {
        auto length = utf8_sequence(text, i);
        if(length == 0) return false;
        i += length;
    }
    return true;
}

std::string
valid_utf8(std::string_view text)
{
    if(is_valid_utf8(text)) return std::string{text};
    auto out = std::string{};
    out.reserve(text.size() + 8);
    for(size_t i = 0; i < text.size();)
    {
        auto bad    = size_t{1};
        auto length = utf8_sequence(text, i, &bad);
        if(length == 0)
        {
            out += "\xef\xbf\xbd"; // U+FFFD
            i += bad;
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
