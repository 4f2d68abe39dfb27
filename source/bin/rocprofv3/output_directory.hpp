// The output directory, checked before the application runs: resolved to an absolute path
// (without the current directory when it is absolute already), created when missing, and proven
// writable by creating and removing a file in it. Never throws.
#pragma once

#include <optional>
#include <string>

namespace rocprofv3
{
// The absolute, normalized directory; or nothing, with @p error naming the directory, the step
// that failed and the OS reason.
std::optional<std::string> prepare_output_directory(const std::string& directory,
                                                    std::string&       error);
} // namespace rocprofv3
