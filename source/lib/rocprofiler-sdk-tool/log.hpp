// The tool's messages on stderr, each one line written by one call (lines of several threads do
// not interleave): "[rocprofv3] error: ...", "[rocprofv3] warning: ...", "[rocprofv3] ...".
// A message may carry names the application chose (a kernel, a marker): control characters and
// bytes that are not UTF-8 in it are escaped (untrusted::printable), so that no name ends the line,
// forges another message or sends a terminal escape sequence.
// rocprofv3's tests match some of these texts: change them only with the tests.
#pragma once

#include "untrusted/printable.hpp"

#include <cstdio>
#include <string>

namespace rocprofiler::tool::log
{
inline void
error(const std::string& text)
{
    std::fprintf(stderr, "[rocprofv3] error: %s\n", untrusted::printable(text).c_str());
}

inline void
warning(const std::string& text)
{
    std::fprintf(stderr, "[rocprofv3] warning: %s\n", untrusted::printable(text).c_str());
}

// Progress and reports: "[rocprofv3] <text>".
inline void
info(const std::string& text)
{
    std::fprintf(stderr, "[rocprofv3] %s\n", untrusted::printable(text).c_str());
}

// A table of several lines, as it is: its producer escapes the names in it (format_summary).
inline void
text(const std::string& text)
{
    std::fputs(text.c_str(), stderr);
}
} // namespace rocprofiler::tool::log
