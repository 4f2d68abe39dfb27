#include "session/prefix_claim.hpp"
#include "session/prefix_lock.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <functional>
#include <string>

namespace rocprofiler::tool
{
// Two processes of one rocprofv3 run with the same explicit prefix (-o NAME and a script that
// starts several profiled processes, at once or one after the other) would overwrite each other's
// files. rocprofv3 passes a directory private to the run (ROCPROFV3_RUN_DIR); the first process to
// claim the (directory, prefix) there keeps the prefix, any later one writes <prefix>.<pid>_* and
// says so. Across runs (two rocprofv3 at once, or the tool alone), the process that writes a
// prefix holds its lock file (prefix_lock.hpp): a process that finds it held writes
// <prefix>.<pid>_* too. Without rocprofv3 and with no other process at the prefix, the prefix is
// used as given.
std::string
claim_prefix(config& cfg, uint64_t pid)
{
    // The default prefix is the pid under the host's directory: no other live process has it.
    if(cfg.output_file_name.empty() || cfg.output_file_name_default) return {};
    auto        taken_by = std::string{};
    const auto& run_dir  = cfg.run_dir;
    if(!run_dir.empty())
    {
        auto key   = std::string{cfg.output_path} + '\0' + cfg.output_file_name;
        auto claim = std::filesystem::path{run_dir} /
                     ("prefix-" + std::to_string(std::hash<std::string>{}(key)));
        const auto fd =
            ::open(claim.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if(fd >= 0)
            ::close(fd);
        else if(errno == EEXIST)
            taken_by = "another process of this run";
        // Otherwise the run directory is gone: nothing to compare with.
    }
    if(taken_by.empty())
    {
        auto ec = std::error_code{};
        std::filesystem::create_directories(cfg.output_path, ec); // errors: start_outputs
        if(prefix_lock::lock(cfg.output_path, cfg.output_file_name) == prefix_lock::outcome::taken)
            taken_by = "another process that is still writing them (another run with the same "
                       "output directory and prefix)";
    }
    if(taken_by.empty()) return {};
    const auto taken = cfg.output_file_name;
    cfg.output_file_name += "." + std::to_string(pid);
    // The pid is this process's own while it lives; the lock keeps a later run off it.
    (void)prefix_lock::lock(cfg.output_path, cfg.output_file_name);
    return "the files '" + taken + "_*' in '" + cfg.output_path + "' belong to " + taken_by +
           "; this process (" + std::to_string(pid) + ") writes '" + cfg.output_file_name +
           "_*' instead";
}

} // namespace rocprofiler::tool
