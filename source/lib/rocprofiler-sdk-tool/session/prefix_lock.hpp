// One run owns its outputs: a process that writes <prefix>_* in a directory holds an exclusive
// flock on <directory>/<prefix>.lock for as long as it lives, so that a second run started with
// the same -d and -o while the first still runs finds the prefix taken and writes under another
// one (session/prefix_claim.cpp). The lock goes with the process (also when it is killed); the file
// is removed at the end of finalization. A process forked without exec does not keep the lock:
// its copy of the descriptor is closed in the child (the parent's lock stays), and exec closes it
// (O_CLOEXEC).
#pragma once

#include <string>

namespace rocprofiler::tool::prefix_lock
{
enum class outcome
{
    locked,     // this process holds the lock now
    taken,      // another process holds it
    unavailable // the lock file cannot be created (the directory's error is reported elsewhere)
};

// Locks <directory>/<prefix>.lock. One lock per process: a later call that locks releases the
// earlier one.
outcome lock(const std::string& directory, const std::string& prefix);

// Removes the lock file and releases the lock (end of finalization). Safe when none is held.
void release();
} // namespace rocprofiler::tool::prefix_lock
