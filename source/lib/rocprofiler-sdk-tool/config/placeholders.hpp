// Placeholders of the output directory and the output file prefix (-d, -o), as upstream rocprofv3
// documents them ("Output prefix keys"): %pid%, %hostname%, %rank%, %env{NAME}%, ... They are
// expanded by the tool library in each profiled process, so that %pid% is that process's id and
// %rank% its MPI rank; rocprofv3 only checks that every placeholder is one it knows.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocprofiler::tool::placeholders
{
// The value of a key ("pid", "hostname", "rank", ...; "env:NAME" for %env{NAME}% and its other
// spellings), or nothing when the key is unknown.
using lookup = std::function<std::optional<std::string>(std::string_view key)>;

// The keys of %key% placeholders, for messages and docs.
const std::vector<std::string_view>& known_keys();

// Replaces every placeholder of @p text: %key% for the known keys and %argN% (N = 0, 1, ...), the
// shorthands %p (pid),
// %h (hostname), %j (job), %r (rank), %s (size), %env{NAME}%, %ENV{NAME}%, $env{NAME},
// $ENV{NAME} and %q{NAME}% (an unset NAME is empty). A '%' that starts no placeholder is kept.
// Returns nothing, with @p error naming it, for an unknown %word% placeholder.
std::optional<std::string> expand(std::string_view text, const lookup& values, std::string* error);

// True when @p text has a placeholder.
bool has_placeholder(std::string_view text);

// Where the process sits in a parallel launch, from the launcher's environment (@p getenv):
// rank: SLURM_PROCID, else OMPI_COMM_WORLD_RANK, MV2_COMM_WORLD_RANK, PMI_RANK, MPI_RANK;
// size: SLURM_NTASKS, else the *_SIZE variables of the same launchers; job: SLURM_JOB_ID.
// Each is empty when no launcher set it.
struct launch
{
    std::optional<std::string> rank = {};
    std::optional<std::string> size = {};
    std::optional<std::string> job  = {};
};
launch launch_values(const std::function<const char*(const char*)>& getenv);

// The values of a process: pid, ppid, pgid, psid, psize (the parent's children), hostname, cwd,
// the MPI rank and size and the SLURM job from @p getenv (rank: SLURM_PROCID, else
// OMPI_COMM_WORLD_RANK, MV2_COMM_WORLD_RANK, PMI_RANK, MPI_RANK, else 0), launch_date and
// launch_time (now, in ROCPROF_DATE_FORMAT / ROCPROF_TIME_FORMAT of @p getenv, strftime; "%F"
// and "%F_%H.%M" by default), and tag/argv/args/argt/argN from @p command (the process's argv;
// argN empty past its end).
lookup process_values(const std::function<const char*(const char*)>& getenv,
                      const std::vector<std::string>&                command);
} // namespace rocprofiler::tool::placeholders
