// The runs of the application: how many, where each writes, and rocprofv3's code after them.
#include "options.hpp"

#include "config/placeholders.hpp"

#include <filesystem>
#include <string>
#include <system_error>

namespace rocprofv3
{
int
summarize_runs(const std::vector<int>&                      codes,
               const std::vector<std::vector<std::string>>& groups,
               std::vector<std::string>&                    lines)
{
    auto result = int{exit_ok};
    auto failed = std::vector<size_t>{};
    for(size_t i = 0; i < codes.size(); ++i)
    {
        if(codes[i] == exit_ok) continue;
        if(result == exit_ok) result = codes[i];
        failed.push_back(i);
    }
    if(codes.size() < 2 || failed.empty()) return result;

    const auto runs = std::to_string(codes.size());
    for(auto i : failed)
    {
        auto line = "application replay pass " + std::to_string(i + 1) + " of " + runs;
        if(i < groups.size() && !groups[i].empty())
        {
            line += " (--pmc";
            for(const auto& name : groups[i])
                line += " " + name;
            line += ")";
        }
        const auto code = codes[i];
        line += " failed with code " + std::to_string(code);
        if(code > 128 && code < 128 + 65)
            line += " (killed by signal " + std::to_string(code - 128) + ")";
        else if(code == exit_not_found)
            line += " (the application was not found)";
        else if(code == exit_not_executable)
            line += " (the application could not be executed)";
        lines.emplace_back(std::move(line));
    }
    auto last = std::to_string(failed.size()) + " of " + runs + " application replay passes " +
                "failed; rocprofv3 exits with pass " + std::to_string(failed.front() + 1) +
                "'s code " + std::to_string(result);
    lines.emplace_back(std::move(last));
    return result;
}

size_t
run_count(const options& opts)
{
    if(!opts.kernel_replay() && !opts.multiplexed() && opts.pmc_groups.size() > 1)
        return opts.pmc_groups.size();
    return 1;
}

size_t
pass_of_run(const options& opts, size_t run, size_t runs)
{
    if(runs > 1 || (opts.pass_directory_always && !opts.kernel_replay())) return run;
    return 0;
}

std::string
run_directory(const options& opts, size_t pass)
{
    namespace fs = std::filesystem;
    // Never throws: an empty directory or a deleted working directory leaves the path as given
    // (the run reports the directory's error itself, before anything is written).
    auto ec = std::error_code{};
    // %cwd% is the application's working directory, which is rocprofv3's when it starts: an
    // absolute path, so that "-d %cwd%/out" must not be made absolute a second time.
    auto given = fs::path{expand_cwd(opts.output_directory)};
    auto dir   = fs::absolute(given, ec);
    if(ec) dir = given;
    dir = dir.lexically_normal();
    if(!opts.job_directory.empty()) dir /= opts.job_directory;
    if(pass > 0) dir /= opts.pass_prefix + std::to_string(pass);
    return dir.string();
}

std::string
expand_cwd(const std::string& directory)
{
    auto ec   = std::error_code{};
    auto here = std::filesystem::current_path(ec).string();
    if(ec) return directory;
    auto out = directory;
    for(auto at = out.find("%cwd%"); at != std::string::npos; at = out.find("%cwd%", at))
    {
        out.replace(at, 5, here);
        at += here.size();
    }
    return out;
}

std::string
fixed_directory_part(const std::string& given)
{
    namespace fs = std::filesystem;
    if(given.empty()) return given; // an error that prepare_output_directory names
    const auto directory = expand_cwd(given);
    auto       out       = fs::path{};
    for(const auto& part : fs::path{directory})
    {
        if(rocprofiler::tool::placeholders::has_placeholder(part.string())) break;
        out /= part;
    }
    return out.empty() ? std::string{"."} : out.string();
}
} // namespace rocprofv3
