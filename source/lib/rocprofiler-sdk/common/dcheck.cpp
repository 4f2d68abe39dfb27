#include "common/dcheck.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace rocprofiler::common::dcheck
{
void
fail(std::string_view condition, std::string_view what, std::string_view file, int line) noexcept
{
    // One write, no allocation that may throw: the process is about to abort.
    char       text[1024];
    const auto size =
        std::snprintf(text,
                      sizeof(text),
                      "[rocprofiler-sdk][error] internal check failed: %.*s (%.*s) at "
                      "%.*s:%d\n",
                      static_cast<int>(condition.size()),
                      condition.data(),
                      static_cast<int>(what.size()),
                      what.data(),
                      static_cast<int>(file.size()),
                      file.data(),
                      line);
    if(size > 0) std::fwrite(text, 1, std::min<size_t>(size, sizeof(text) - 1), stderr);
    std::fflush(stderr);
    std::abort();
}
} // namespace rocprofiler::common::dcheck
