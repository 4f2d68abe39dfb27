#include "mpi_ranks.hpp"

#include "config/parse.hpp"
#include "config/placeholders.hpp"

namespace rocprofv3
{
rank_choice
choose_for_rank(const std::string& ranks, const std::function<const char*(const char*)>& getenv)
{
    namespace parse = rocprofiler::tool::parse;
    auto out        = rank_choice{};
    if(ranks.empty()) return out;
    auto list = parse::parse_rank_list(ranks, nullptr);
    if(!list)
    {
        out.error = "--mpi-ranks '" + parse::abbreviate(ranks) + "' is not a list of ranks";
        return out;
    }
    const auto where = rocprofiler::tool::placeholders::launch_values(getenv);
    if(!where.rank)
    {
        // Outside a launcher there is no rank to choose by; profiling every process of a job
        // started below rocprofv3 would ignore the list without a word.
        out.error = "--mpi-ranks " + ranks +
                    ": rocprofv3 found no MPI rank in its environment (none of SLURM_PROCID, "
                    "OMPI_COMM_WORLD_RANK, MV2_COMM_WORLD_RANK, PMI_RANK, MPI_RANK is set); start "
                    "rocprofv3 under the launcher, once per rank: mpirun -np <N> rocprofv3 "
                    "--mpi-ranks " +
                    ranks + " ... -- <application>";
        return out;
    }
    out.rank    = *where.rank;
    auto number = parse::parse_count(*where.rank);
    if(!number)
    {
        out.error = "--mpi-ranks: the launcher's rank '" + parse::abbreviate(*where.rank) +
                    "' is not a number";
        return out;
    }
    out.profile = list->contains(*number);
    return out;
}
} // namespace rocprofv3
