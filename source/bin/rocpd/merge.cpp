// rocpd merge: one database holding every input's runs (merged_database.hpp), written to
// <output>.partial-<pid> and renamed into place when complete; the inputs are attached read-only.
// Merging a merged file works the same (its runs are its suffixes).
#include "commands.hpp"
#include "job.hpp"
#include "merged_database.hpp"

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <string>

namespace rocpd
{
int
run_merge(const arguments& args)
{
    const auto the_job = job{args};
    auto       error   = std::error_code{};
    for(const auto& db : the_job.databases())
        if(std::filesystem::equivalent(db.path(), args.output_file, error))
            throw failure{exit_code::usage,
                          "rocpd merge: the output " + args.output_file + " is one of the inputs"};

    const auto partial = args.output_file + ".partial-" + std::to_string(::getpid());
    auto       out     = merged_database{partial};
    out.build_schema(the_job, args.force);
    out.copy_rows(the_job, nullptr);

    std::filesystem::rename(partial, args.output_file, error);
    if(error)
        throw failure{exit_code::output,
                      args.output_file + ": cannot rename the merged database into place (" +
                          error.message() + ")"};
    out.keep();
    std::cerr << "rocpd: merged " << the_job.databases().size() << " databases (" << out.runs()
              << " runs) into " << args.output_file << '\n';
    return 0;
}
} // namespace rocpd
