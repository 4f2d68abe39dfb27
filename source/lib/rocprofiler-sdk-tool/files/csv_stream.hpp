#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace rocprofiler::tool
{
// An append-only output file: rows are buffered and written with write(2) by flush(), so what
// was flushed is on disk whatever ends the process later (the last row may be cut by SIGKILL or
// _exit in the middle of a write; rocprofv3 trims it). The first error (with the OS reason) stops
// the stream; finish() also notices a file removed or replaced during the run.
class csv_stream
{
public:
    csv_stream() = default;
    ~csv_stream();
    csv_stream(const csv_stream&)            = delete;
    csv_stream& operator=(const csv_stream&) = delete;

    bool open(const std::string& path, const std::string& header);
    void append(std::string_view rows);
    void flush();
    // Flushes, checks that the path still names this file, closes. Returns false with the error.
    bool finish(std::string& error);

    const std::string& path() const { return m_path; }
    const std::string& error() const { return m_error; }
    size_t             pending() const { return m_buffer.size(); }
    bool               is_open() const { return m_fd >= 0; }

private:
    std::string m_path   = {};
    std::string m_buffer = {};
    std::string m_error  = {};
    int         m_fd     = -1;
    size_t      m_size   = 0; // bytes of whole flushes in the file
    uint64_t    m_dev    = 0; // the file m_fd was opened on: an application that closes
    uint64_t    m_ino    = 0; // descriptors it did not open must not get our rows in its own
};

} // namespace rocprofiler::tool
