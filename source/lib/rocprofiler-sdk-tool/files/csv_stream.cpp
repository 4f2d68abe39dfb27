#include "files/csv_stream.hpp"
#include "files/atomic_file.hpp"
#include "files/descriptor.hpp"
#include "files/write_guard.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <tuple>

namespace rocprofiler::tool
{

csv_stream::~csv_stream()
{
    if(m_fd >= 0 && descriptor_lost(m_fd, m_dev, m_ino, m_path).empty()) ::close(m_fd);
}

bool
csv_stream::open(const std::string& path, const std::string& header)
{
    m_path = path;
    m_size = 0;
    m_fd   = open_output(path, O_WRONLY | O_CREAT | O_TRUNC, 0644, m_error);
    if(m_fd < 0) return false;
    std::tie(m_dev, m_ino) = identity(m_fd);
    m_buffer               = header;
    flush();
    return m_error.empty();
}

void
csv_stream::append(std::string_view rows)
{
    if(m_fd < 0 || !m_error.empty()) return;
    m_buffer.append(rows);
}

void
csv_stream::flush()
{
    if(m_fd < 0 || !m_error.empty())
    {
        m_buffer.clear();
        return;
    }
    m_error = descriptor_lost(m_fd, m_dev, m_ino, m_path);
    if(m_error.empty())
    {
        if(auto err = write_all(m_fd, m_buffer.data(), m_buffer.size()); err != 0)
        {
            m_error = "could not write '" + m_path + "': " + errno_text(err);
            // The buffer holds whole rows (packets): a write cut short (a full device, the file
            // size limit) is taken back, so that the file ends with the last complete one.
            if(::ftruncate(m_fd, static_cast<off_t>(m_size)) == 0)
                (void)::lseek(m_fd, static_cast<off_t>(m_size), SEEK_SET);
        }
        else
            m_size += m_buffer.size();
    }
    m_buffer.clear();
}

bool
csv_stream::finish(std::string& error)
{
    if(m_fd < 0)
    {
        error = m_error;
        return m_error.empty();
    }
    flush();
    if(m_error.empty())
    {
        // The file the rows went to must still be the one the path names: a directory removed
        // during the run (or the file replaced) would otherwise lose them silently.
        struct stat by_fd = {}, by_path = {};
        if(::fstat(m_fd, &by_fd) != 0)
            m_error = "could not write '" + m_path + "': " + errno_text(errno);
        else if(::stat(m_path.c_str(), &by_path) != 0)
            m_error = "could not write '" + m_path + "': " + errno_text(errno) +
                      " (it was removed during the run)";
        else if(by_fd.st_dev != by_path.st_dev || by_fd.st_ino != by_path.st_ino)
            m_error = "could not write '" + m_path + "': it was replaced during the run";
    }
    // A descriptor the application closed (and perhaps reused) is not ours to close.
    if(descriptor_lost(m_fd, m_dev, m_ino, m_path).empty() && ::close(m_fd) != 0 && m_error.empty())
        m_error = "could not write '" + m_path + "': " + errno_text(errno);
    m_fd  = -1;
    error = m_error;
    return m_error.empty();
}
} // namespace rocprofiler::tool
