#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace rocprofiler::tool
{
// Records of a whole-file output kept on disk instead of in memory, so that memory does not grow
// with the run: each record is appended as one line of compact JSON to a part file next to the
// output, and the output's writer copies them into its array (results.json). The part file is
// removed when the spill is destroyed or reopened. Used under the tool's lock.
class record_spill
{
public:
    record_spill() = default;
    ~record_spill();
    record_spill(const record_spill&)            = delete;
    record_spill& operator=(const record_spill&) = delete;

    bool open(const std::string& path);
    void append(const nlohmann::ordered_json& record);
    void flush();
    // Writes the records to @p fd, separated by ",\n" (the elements of a JSON array). Returns 0
    // or the errno.
    int  copy_to(int fd);
    void remove();

    uint64_t           size() const { return m_count; }
    bool               is_open() const { return m_fd >= 0; }
    const std::string& error() const { return m_error; }

private:
    std::string m_path   = {};
    std::string m_buffer = {};
    std::string m_error  = {};
    int         m_fd     = -1;
    uint64_t    m_count  = 0;
    uint64_t    m_dev    = 0; // as csv_stream's
    uint64_t    m_ino    = 0;
};

} // namespace rocprofiler::tool
