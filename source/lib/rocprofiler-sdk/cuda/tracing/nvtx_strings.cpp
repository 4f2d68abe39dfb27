#include "cuda/tracing/nvtx_strings.hpp"

#include "common/static_object.hpp"
#include <deque>
#include <mutex>
#include <utility>

namespace rocprofiler::cuda::nvtx
{
namespace
{
constexpr char32_t replacement = 0xFFFD;

void
append_utf8(std::string& out, char32_t cp)
{
    if((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) cp = replacement;
    if(cp < 0x80)
    {
        out.push_back(static_cast<char>(cp));
    }
    else if(cp < 0x800)
    {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
    else if(cp < 0x10000)
    {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
    else
    {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

bool
high_surrogate(char32_t u)
{
    return u >= 0xD800 && u <= 0xDBFF;
}

bool
low_surrogate(char32_t u)
{
    return u >= 0xDC00 && u <= 0xDFFF;
}

// Process-lifetime storage of registered strings, never destroyed (a late NVTX call from a static
// destructor of the application may still resolve a handle).
struct string_store
{
    std::mutex                    mutex;
    std::deque<registered_string> strings; // push_back keeps references valid
};

string_store&
store()
{
    struct s_tag;
    static auto* s = &common::static_object<string_store, common::reset_order::never, s_tag>::get();
    return *s;
}
} // namespace

std::string
utf8_from_utf16(const char16_t* text)
{
    auto out = std::string{};
    if(text == nullptr) return out;
    for(const char16_t* p = text; *p != 0; ++p)
    {
        const auto u = static_cast<char32_t>(*p);
        if(high_surrogate(u) && low_surrogate(static_cast<char32_t>(p[1])))
        {
            const auto lo = static_cast<char32_t>(p[1]);
            append_utf8(out, 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00));
            ++p;
        }
        else
        {
            append_utf8(out, u); // a lone surrogate becomes U+FFFD there
        }
    }
    return out;
}

std::string
utf8_from_utf32(const char32_t* text)
{
    auto out = std::string{};
    if(text == nullptr) return out;
    for(const char32_t* p = text; *p != 0; ++p)
        append_utf8(out, *p);
    return out;
}

std::string
utf8_from_wide(const wchar_t* text)
{
    static_assert(sizeof(wchar_t) == sizeof(char32_t) || sizeof(wchar_t) == sizeof(char16_t),
                  "wchar_t is UTF-16 or UTF-32");
    auto out = std::string{};
    if(text == nullptr) return out;
    if constexpr(sizeof(wchar_t) == sizeof(char32_t))
    {
        for(const wchar_t* p = text; *p != 0; ++p)
            append_utf8(out, static_cast<char32_t>(static_cast<uint32_t>(*p)));
        return out;
    }
    else
    {
        auto units = std::u16string{};
        for(const wchar_t* p = text; *p != 0; ++p)
            units.push_back(static_cast<char16_t>(*p));
        return utf8_from_utf16(units.c_str());
    }
}

const registered_string*
register_string(std::string text)
{
    auto& s    = store();
    auto  lock = std::lock_guard<std::mutex>{s.mutex};
    s.strings.push_back(registered_string{std::move(text)});
    return &s.strings.back();
}

void
decode_message(int32_t type, const void* value, decoded_message& out)
{
    out.storage.clear();
    out.text = "";
    if(value == nullptr) return;
    switch(type)
    {
    case message_ascii:
        out.text = static_cast<const char*>(value);
        return;
    case message_unicode:
        out.storage = utf8_from_wide(static_cast<const wchar_t*>(value));
        out.text    = out.storage.c_str();
        return;
    case message_registered:
        out.text = static_cast<const registered_string*>(value)->text.c_str();
        return;
    default:
        return;
    }
}
} // namespace rocprofiler::cuda::nvtx
