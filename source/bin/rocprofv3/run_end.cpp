#include "run_end.hpp"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
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
std::vector<std::string>
split_tabs(const std::string& line)
{
    auto out   = std::vector<std::string>{};
    auto start = size_t{0};
    while(true)
    {
        auto tab = line.find('\t', start);
        out.emplace_back(line.substr(start, tab == std::string::npos ? tab : tab - start));
        if(tab == std::string::npos) break;
        start = tab + 1;
    }
    return out;
}

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

// Cuts a CSV file after its last complete row.
void
trim_partial_row(const fs::path& path, std::vector<std::string>& errors)
{
    auto in = std::ifstream{path, std::ios::binary};
    if(!in) return;
    auto text = std::string{std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
    if(text.empty() || text.back() == '\n') return;
    auto keep = text.rfind('\n');
    keep      = keep == std::string::npos ? 0 : keep + 1;
    if(truncate(path.c_str(), static_cast<off_t>(keep)) != 0)
        errors.emplace_back("could not trim the last, incomplete row of '" + path.string() +
                            "': " + std::strerror(errno));
}

// Cuts a Perfetto trace after its last complete packet: the file is a sequence of
// `Trace.packet` fields (tag 0x0A, a varint length, the packet), appended as records arrive, so a
// process killed in the middle of a write leaves a packet cut short.
void
trim_partial_packet(const fs::path& path, std::vector<std::string>& errors)
{
    auto in = std::ifstream{path, std::ios::binary};
    if(!in) return;
    auto text = std::string{std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
    auto pos  = size_t{0};
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
    if(truncate(path.c_str(), static_cast<off_t>(pos)) != 0)
        errors.emplace_back("could not trim the last, incomplete packet of '" + path.string() +
                            "': " + std::strerror(errno));
}

bool
write_atomically(const fs::path&           path,
                 const std::string&        contents,
                 std::vector<std::string>& errors)
{
    auto temporary = path.string() + ".tmp-rocprofv3";
    {
        auto out = std::ofstream{temporary, std::ios::binary | std::ios::trunc};
        out << contents;
        out.close();
        if(!out)
        {
            errors.emplace_back("could not write '" + path.string() + "': " + std::strerror(errno));
            unlink(temporary.c_str());
            return false;
        }
    }
    if(rename(temporary.c_str(), path.c_str()) != 0)
    {
        errors.emplace_back("could not write '" + path.string() + "': " + std::strerror(errno));
        unlink(temporary.c_str());
        return false;
    }
    return true;
}

// metadata.end of a checkpoint ("running") becomes what rocprofv3 knows of the end.
void
mark_json(const fs::path& path, const std::string& how, std::vector<std::string>& errors)
{
    auto in = std::ifstream{path, std::ios::binary};
    if(!in) return;
    auto doc = nlohmann::ordered_json{};
    try
    {
        doc = nlohmann::ordered_json::parse(in);
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
        auto fields = split_tabs(line);
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
            m_errors.emplace_back(line.substr(line.find('\t', 6) + 1));
        else if(fields[0] == "disabled")
            m_disabled.emplace_back("process " + fields[1] + ": " +
                                    line.substr(line.find('\t', 9) + 1));
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
