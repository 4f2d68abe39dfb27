#include "json/record_spill.hpp"
#include "files/atomic_file.hpp"
#include "files/descriptor.hpp"
#include "files/write_guard.hpp"

#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <tuple>

namespace rocprofiler::tool
{

record_spill::~record_spill()
{
    remove();
}

bool
record_spill::open(const std::string& path)
{
    remove();
    m_path                 = path;
    m_fd                   = open_output(path, O_RDWR | O_CREAT | O_TRUNC, 0600, m_error);
    std::tie(m_dev, m_ino) = identity(m_fd);
    return m_fd >= 0;
}

void
record_spill::append(const nlohmann::ordered_json& record)
{
    if(m_fd < 0 || !m_error.empty()) return;
    // One record per line: compact JSON escapes every newline inside strings.
    m_buffer += record.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    m_buffer += '\n';
    ++m_count;
    if(m_buffer.size() >= (size_t{1} << 16U)) flush();
}

void
record_spill::flush()
{
    if(m_fd >= 0 && m_error.empty() && !m_buffer.empty())
    {
        m_error = descriptor_lost(m_fd, m_dev, m_ino, m_path);
        if(m_error.empty())
            if(auto err = write_all(m_fd, m_buffer.data(), m_buffer.size()); err != 0)
                m_error = "could not write '" + m_path + "': " + errno_text(err);
    }
    m_buffer.clear();
    m_buffer.shrink_to_fit();
}

int
record_spill::copy_to(int fd)
{
    flush();
    if(m_fd < 0) return 0; // nothing was spilled
    if(m_error.empty()) m_error = descriptor_lost(m_fd, m_dev, m_ino, m_path);
    if(!m_error.empty()) return EIO;
    auto       chunk      = std::string(size_t{1} << 16U, '\0');
    auto       out        = std::string{};
    auto       offset     = off_t{0};
    auto       line_start = true;
    auto       separate   = false;
    const auto end        = ::lseek(m_fd, 0, SEEK_END);
    while(offset < end)
    {
        auto n = ::pread(m_fd, chunk.data(), chunk.size(), offset);
        if(n < 0 && errno == EINTR) continue;
        if(n <= 0) return n < 0 ? errno : EIO;
        offset += n;
        out.clear();
        // The part file ends each record with a newline; the array separates them with ",\n".
        for(ssize_t i = 0; i < n; ++i)
        {
            if(chunk[static_cast<size_t>(i)] == '\n')
            {
                line_start = true;
                continue;
            }
            if(line_start)
            {
                if(separate) out += ",\n";
                separate   = true;
                line_start = false;
            }
            out += chunk[static_cast<size_t>(i)];
        }
        if(auto err = write_all(fd, out.data(), out.size()); err != 0) return err;
    }
    return 0;
}

void
record_spill::remove()
{
    if(m_fd >= 0)
    {
        if(descriptor_lost(m_fd, m_dev, m_ino, m_path).empty()) ::close(m_fd);
        ::unlink(m_path.c_str());
    }
    m_fd = -1;
    m_buffer.clear();
    m_count = 0;
}
} // namespace rocprofiler::tool
