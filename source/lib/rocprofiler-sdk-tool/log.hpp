// The tool's messages on stderr, each one line written by one call (lines of several threads do
// not interleave): "[rocprofv3] error: ...", "[rocprofv3] warning: ...", "[rocprofv3] ...".
// rocprofv3's tests match some of these texts: change them only with the tests.
#pragma once

#include <cstdio>
#include <string>

namespace rocprofiler::tool::log
{
inline void
error(const std::string& text)
{
    std::fprintf(stderr, "[rocprofv3] error: %s\n", text.c_str());
}

inline void
warning(const std::string& text)
{
    std::fprintf(stderr, "[rocprofv3] warning: %s\n", text.c_str());
}

// Progress and reports: "[rocprofv3] <text>".
inline void
info(const std::string& text)
{
    std::fprintf(stderr, "[rocprofv3] %s\n", text.c_str());
}

// Text as it is (a table of several lines).
inline void
text(const std::string& text)
{
    std::fputs(text.c_str(), stderr);
}
} // namespace rocprofiler::tool::log
