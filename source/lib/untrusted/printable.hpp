// Text from the application (kernel and marker names, messages that quote them) made safe for a
// terminal or a log: a name such as "k\nrocprofv3: error: FAKE\e]0;title\a" must not forge a line,
// move the cursor or retitle the terminal.
#pragma once

#include <string>
#include <string_view>

namespace rocprofiler::untrusted
{
// @p text with every byte that a terminal could act on written as an escape: C0 controls and DEL
// as \n, \r, \t, \e or \xNN; C1 controls (U+0080..U+009F) as \u0080..\u009f; bytes that are not
// valid UTF-8 as \xNN. Valid UTF-8 text otherwise stays as it is (names in any script print as
// they are). Backslashes are kept, so the result is for reading, not for parsing back.
std::string printable(std::string_view text);

// True when printable(@p text) would equal @p text (the common case, checked without copying).
bool is_printable(std::string_view text);
} // namespace rocprofiler::untrusted
