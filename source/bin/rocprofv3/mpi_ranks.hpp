// --mpi-ranks: whether this rocprofv3, started by an MPI launcher once per rank, profiles its
// rank. The rank is the launcher's (config/placeholders.hpp: SLURM_PROCID, OMPI_COMM_WORLD_RANK,
// MV2_COMM_WORLD_RANK, PMI_RANK, MPI_RANK), the same one %rank% expands to.
#pragma once

#include <functional>
#include <string>

namespace rocprofv3
{
struct rank_choice
{
    bool        profile = true; // false: run the application unprofiled
    std::string rank    = {};   // the rank found (for messages)
    std::string error   = {};   // set: no usable rank in the environment; nothing may run
};

// The choice for the rank in @p getenv's environment under the list @p ranks (a valid
// --mpi-ranks value; empty: every rank is profiled, whatever the environment).
rank_choice choose_for_rank(const std::string&                             ranks,
                            const std::function<const char*(const char*)>& getenv);
} // namespace rocprofv3
