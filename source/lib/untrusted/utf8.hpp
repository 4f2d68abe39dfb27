// Text from the application (kernel and marker names) for outputs that require UTF-8: JSON,
// rocpd's TEXT columns, Perfetto's protobuf strings. Each shows a name that is not valid UTF-8 the
// same way: U+FFFD in place of each ill-formed part. (The console takes printable() instead.)
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rocprofiler::untrusted
{
// The length (1 to 4) of the well-formed UTF-8 sequence that starts at @p i of @p text, or 0 when
// the sequence there is ill-formed (overlong forms, surrogates and values past U+10FFFF included);
// then, when @p ill_formed is given, it receives the length of the maximal ill-formed subpart there
// (1 to 3 bytes: a lead byte and the continuation bytes that fit it before the text ends or a byte
// that cannot continue it).
size_t utf8_sequence(std::string_view text, size_t i, size_t* ill_formed = nullptr);

// Whether @p text is well-formed UTF-8.
bool is_valid_utf8(std::string_view text);

// @p text with each maximal ill-formed subpart replaced by U+FFFD, as Unicode recommends and as
// nlohmann::json's error_handler_t::replace (the JSON output) writes it.
std::string valid_utf8(std::string_view text);
} // namespace rocprofiler::untrusted
