// Reading a file named by a user or by a setting, bounded: only a regular file is read (a
// directory, FIFO, socket or device is refused without opening it for a read that could block or
// never end), at most a given number of bytes, and every refusal is one message that names the
// file and the reason. Nothing throws.
#pragma once

#include <cstddef>
#include <string>

namespace rocprofiler::untrusted
{
// The default cap of read_bounded(): 256 MiB, far above any real metric or input file (a metric
// file of 10^6 derived metrics is about 100 MB) and far below what would exhaust memory.
inline constexpr size_t default_max_bytes = size_t{256} << 20;

struct read_result
{
    bool        ok    = false;
    std::string text  = {}; // the whole file when ok
    std::string error = {}; // when !ok: "<path> is a FIFO, not a regular file", ...
};

// The contents of @p path when it is a regular file of at most @p max_bytes bytes (symbolic links
// are followed: a link to a regular file is read). The file is opened non-blocking, so that a FIFO
// that appears between the check and the open never blocks the caller, and checked again after
// opening.
read_result read_bounded(const std::string& path, size_t max_bytes = default_max_bytes);

// What @p path is when it is not a regular file ("a directory", "a FIFO", "a socket", "a character
// device", "a block device"), "" when it is one or does not exist; stat() follows links.
std::string non_regular_kind(const std::string& path);
} // namespace rocprofiler::untrusted
