// Helpers of the files the tool keeps open for the whole run (csv_stream, record_spill).
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

namespace rocprofiler::tool
{
// The device and inode of the file @p fd is open on; {0, 0} when it is not open.
inline std::pair<uint64_t, uint64_t>
identity(int fd)
{
    struct stat info = {};
    if(fd < 0 || ::fstat(fd, &info) != 0) return {0, 0};
    return {static_cast<uint64_t>(info.st_dev), static_cast<uint64_t>(info.st_ino)};
}

// An application may close the descriptors it did not open (closefrom(3)) and open files of its
// own under their numbers: the descriptor must still be on the file it was opened on before
// anything is written to it. The error names the file.
inline std::string
descriptor_lost(int fd, uint64_t dev, uint64_t ino, const std::string& path)
{
    if(identity(fd) == std::pair{dev, ino}) return {};
    return "could not write '" + path +
           "': its descriptor was closed by the application (or now names another file)";
}

inline std::string
errno_text(int err)
{
    return std::strerror(err);
}
} // namespace rocprofiler::tool
