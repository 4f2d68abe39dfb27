// The pure part of the NVTX injection (nvtx_injection.cpp): the strings NVTX hands over, as the
// UTF-8 text a marker record carries. No CUDA or NVTX header, so the CPU unit tests use it.
#pragma once

#include <cstdint>
#include <string>

namespace rocprofiler::cuda::nvtx
{
// UTF-16 (surrogate pairs) or UTF-32 code units, NUL-terminated, to UTF-8. A unit that is no
// scalar value (a lone surrogate, a value past U+10FFFF) becomes U+FFFD. nullptr gives "".
std::string utf8_from_utf16(const char16_t* text);
std::string utf8_from_utf32(const char32_t* text);
// wchar_t as the platform has it (32 bits on Linux, 16 on Windows).
std::string utf8_from_wide(const wchar_t* text);

// What a handle of nvtxDomainRegisterStringA/W or nvtxDomainCreateA/W points to: the text in
// UTF-8. Entries live for the process (NVTX never frees a registered string, and a domain's
// handle may be used after nvtxDomainDestroy by a racing thread).
struct registered_string
{
    std::string text;
};

// Keeps `text` for the process; the returned pointer is the handle. Any thread.
const registered_string* register_string(std::string text);

// The message types of nvtxEventAttributes_t (NVTX_MESSAGE_TYPE_*).
enum message_type : int32_t
{
    message_unknown    = 0,
    message_ascii      = 1,
    message_unicode    = 2, // wchar_t
    message_registered = 3, // a registered_string handle
};

// An event's message as UTF-8: `text` points either to the caller's ASCII string, to a
// registered string, or to `storage` (a converted wide string). Never null ("" when the type is
// unknown or the value null). Not movable/copyable without re-pointing, hence decode() fills one.
struct decoded_message
{
    std::string storage = {};
    const char* text    = "";
};

// Decodes message `value` (the union member for `type`, as a pointer) into `out`.
void decode_message(int32_t type, const void* value, decoded_message& out);
} // namespace rocprofiler::cuda::nvtx
