#include "run_end.hpp"

#include "contract/report_line.hpp"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace fs = std::filesystem;

namespace rocprofv3
{
namespace
{
bool
starts_with(const std::string& text, const std::string& prefix)
{
    return text.compare(0, prefix.size(), prefix) == 0;
}

bool
ends_with(const std::string& text, const std::string& suffix)
{
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "refusing to write '<path>': it is a symbolic link" when @p path is one, else empty: rocprofv3
// never writes an output through a link (the tool library refuses them the same way).
std::string
symbolic_link_refusal(const fs::path& path)
{
    struct stat st = {};
    if(lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode))
        return "refusing to write '" + path.string() + "': it is a symbolic link";
    return {};
}

// The process's umask, read without changing it (umask(2) can only set it).
mode_t
current_umask()
{
    auto status = std::ifstream{"/proc/self/status"};
    for(auto line = std::string{}; std::getline(status, line);)
        if(line.compare(0, 6, "Umask:") == 0)
            return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
    const auto mask = umask(0);
    umask(mask);
    return mask;
}

// truncate(2) without following a link at @p path; 0 or the errno.
int
truncate_nofollow(const fs::path& path, off_t size)
{
    const auto fd = open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if(fd < 0) return errno;
    const auto err = ftruncate(fd, size) == 0 ? 0 : errno;
    close(fd);
    return err;
}

// Opens the contents of an output for reading, never through a link.
std::string
read_output(const fs::path& path, bool& ok)
{
    ok            = false;
    const auto fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if(fd < 0) return {};
    auto text  = std::string{};
    auto chunk = std::string(size_t{1} << 16U, '\0');
    for(;;)
    {
        const auto n = read(fd, chunk.data(), chunk.size());
        if(n < 0 && errno == EINTR) continue;
        if(n < 0)
        {
            close(fd);
            return {};
        }
        if(n == 0) break;
        text.append(chunk.data(), static_cast<size_t>(n));
    }
    close(fd);
    ok = true;
    return text;
}

// Cuts a CSV file after its last complete row.
void
trim_partial_row(const fs::path& path, std::vector<std::string>& errors)
{
    auto ok   = false;
    auto text = read_output(path, ok);
    if(!ok) return;
    if(text.empty() || text.back() == '\n') return;
    auto keep = text.rfind('\n');
    keep      = keep == std::string::npos ? 0 : keep + 1;
    if(auto err = truncate_nofollow(path, static_cast<off_t>(keep)); err != 0)
        errors.emplace_back("could not trim the last, incomplete row of '" + path.string() +
                            "': " + std::strerror(err));
}

// Cuts a Perfetto trace after its last complete packet: the file is a sequence of
// `Trace.packet` fields (tag 0x0A, a varint length, the packet), appended as records arrive, so a
// process killed in the middle of a write leaves a packet cut short.
void
trim_partial_packet(const fs::path& path, std::vector<std::string>& errors)
{
    auto ok   = false;
    auto text = read_output(path, ok);
    if(!ok) return;
    auto pos = size_t{0};
    while(pos < text.size())
    {
        if(static_cast<unsigned char>(text[pos]) != 0x0A) break;
        auto length = uint64_t{0};
        auto at     = pos + 1;
        auto shift  = 0U;
        auto done   = false;
        while(at < text.size() && shift < 64)
        {
            const auto byte = static_cast<unsigned char>(text[at++]);
            length |= static_cast<uint64_t>(byte & 0x7FU) << shift;
            shift += 7;
            if((byte & 0x80U) == 0)
            {
                done = true;
                break;
            }
        }
        if(!done || length > text.size() - at) break;
        pos = at + length;
    }
    if(pos == text.size()) return;
    if(auto err = truncate_nofollow(path, static_cast<off_t>(pos)); err != 0)
        errors.emplace_back("could not trim the last, incomplete packet of '" + path.string() +
                            "': " + std::strerror(err));
}

bool
write_atomically(const fs::path&           path,
                 const std::string&        contents,
                 std::vector<std::string>& errors)
{
    if(auto refusal = symbolic_link_refusal(path); !refusal.empty())
    {
        errors.emplace_back(std::move(refusal));
        return false;
    }
    // The temporary is created exclusively under an unpredictable name: a file or link planted at
    // a guessed name is never opened (mkostemp: O_CREAT | O_EXCL, mode 0600, then the mode every
    // output has, 0644 less the umask).
    auto       temporary = path.string() + ".tmp-XXXXXX";
    const auto fd        = mkostemp(temporary.data(), O_CLOEXEC);
    auto       fail      = [&](int err, bool created)
    {
        errors.emplace_back("could not write '" + path.string() + "': " + std::strerror(err));
        if(created) unlink(temporary.c_str());
        return false;
    };
    if(fd < 0) return fail(errno, false);
    auto err = fchmod(fd, 0644 & ~current_umask()) == 0 ? 0 : errno;
    for(size_t done = 0; err == 0 && done < contents.size();)
    {
        const auto n = write(fd, contents.data() + done, contents.size() - done);
        if(n < 0 && errno == EINTR) continue;
        if(n < 0)
            err = errno;
        else
            done += static_cast<size_t>(n);
    }
    if(close(fd) != 0 && err == 0) err = errno;
    if(err == 0 && rename(temporary.c_str(), path.c_str()) != 0) err = errno;
    if(err != 0) return fail(err, true);
    return true;
}

// metadata.end of a checkpoint ("running") becomes what rocprofv3 knows of the end.
void
mark_json(const fs::path& path, const std::string& how, std::vector<std::string>& errors)
{
    auto ok   = false;
    auto text = read_output(path, ok);
    if(!ok) return;
    auto doc = nlohmann::ordered_json{};
    try
    {
        doc = nlohmann::ordered_json::parse(text);
        for(auto& tool : doc.at("rocprofiler-sdk-tool"))
            tool["metadata"]["end"] = {{"kind", "ended_without_finalization"},
                                       {"complete", false},
                                       {"how", how.empty() ? "unknown" : how}};
    }
    catch(const std::exception& e)
    {
        errors.emplace_back("'" + path.string() + "' is not valid JSON (" + e.what() + ")");
        return;
    }
    write_atomically(
        path, doc.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", errors);
}
} // namespace

void
run_reports::add(const char* data, size_t size)
{
    m_partial.append(data, size);
    for(auto newline = m_partial.find('\n'); newline != std::string::npos;
        newline      = m_partial.find('\n'))
    {
        auto line = m_partial.substr(0, newline);
        m_partial.erase(0, newline + 1);
        auto fields = rocprofiler::tool::contract::decode_report_line(line);
        if(fields.size() < 3) continue;
        auto pid = int64_t{0};
        try
        {
            pid = std::stoll(fields[1]);
        }
        catch(const std::exception&)
        {
            continue;
        }
        if(fields[0] == "init" && fields.size() >= 4)
            m_processes[pid] = profiled_process{fields[2], fields[3], false};
        else if(fields[0] == "end")
            m_processes[pid].ended = true;
        else if(fields[0] == "error")
            m_errors.emplace_back(fields[2]);
        else if(fields[0] == "disabled")
            m_disabled.emplace_back("process " + fields[1] + ": " + fields[2]);
    }
}

std::string
complete_outputs(int64_t                   pid,
                 const profiled_process&   process,
                 const std::string&        how,
                 std::vector<std::string>& errors)
{
    const auto dir  = fs::path{process.directory};
    const auto base = process.prefix + "_";
    auto       ec   = std::error_code{};
    for(const auto& entry : fs::directory_iterator{dir, ec})
    {
        const auto name = entry.path().filename().string();
        if(!starts_with(name, base)) continue;
        if(name.find(".tmp-") != std::string::npos)
            fs::remove(entry.path(), ec);
        else if(ends_with(name, ".csv"))
            trim_partial_row(entry.path(), errors);
        else if(ends_with(name, ".pftrace"))
            trim_partial_packet(entry.path(), errors);
    }
    if(ec)
        errors.emplace_back("could not read the output directory '" + dir.string() +
                            "': " + ec.message());
    mark_json(dir / (base + "results.json"), how, errors);
    // The process's prefix lock (the tool's prefix_lock.hpp), which it removes when it finalizes:
    // removed here unless a process holds it (locking it first, as the tool does, keeps a new
    // owner's file).
    const auto lock = dir / (process.prefix + ".lock");
    if(const auto fd = open(lock.c_str(), O_RDWR | O_CLOEXEC); fd >= 0)
    {
        if(flock(fd, LOCK_EX | LOCK_NB) == 0) unlink(lock.c_str());
        close(fd);
    }

    auto note = std::ostringstream{};
    note << "rocprofv3: process " << pid << " ended"
         << (how.empty()                        ? std::string{}
             : how.compare(0, 6, "signal") == 0 ? " by " + how
                                                : " with " + how)
         << " without finalizing the profiler (for example through _exit or SIGKILL): its "
            "outputs hold what was written up to the last flush (every 200 ms) or checkpoint "
            "(about every second); records of the dispatches after it are missing, and "
            "kernel_stats.csv and results.json are as of the last checkpoint; "
            "results.db holds the batches committed up to the last flush, without the replay "
            "outcome table (written at the end).\n";
    write_atomically(dir / (base + "incomplete.txt"), note.str(), errors);
    return note.str();
}
} // namespace rocprofv3
