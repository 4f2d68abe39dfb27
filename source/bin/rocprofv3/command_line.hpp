// The parts of parse_command_line (options.cpp), one file per job: the option groups of the
// command line (option_groups.cpp), the checks of their values after parsing (option_checks.cpp),
// the -i input files (job_file.cpp) and upstream's options that this device cannot honour
// (unsupported_options.cpp). Internal to rocprofv3-options.
#pragma once

#include "options.hpp"

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace CLI
{
class App;
}

namespace rocprofv3::cli
{
// What the options of the command line read (rocprofv3's own, before the first "--").
struct parsed_args
{
    options                  opts        = {};
    std::vector<std::string> unsupported = {}; // upstream options given, by their name
    std::vector<std::string> given       = {}; // every option name given ("--kernel-trace")
    std::vector<std::string> ranges      = {}; // --kernel-iteration-range values
    std::string              skip        = {};
    std::string              count       = {};
    bool                     version     = false;
};

// A usage error (exit 1): the message, and where to find the options.
parse_result usage_error(std::string message);

// "--opt=value" and "-o" spellings of an option name given on the command line.
bool was_given(const parsed_args& args, std::initializer_list<const char*> names);

// Set: parsing stops with this result (an error); empty: go on.
using outcome = std::optional<parse_result>;

// option_groups.cpp: every option of the command line, registered on @p app in --help's order,
// each storing into @p args.
void add_options(CLI::App& app, parsed_args& args);

// option_checks.cpp: the values of each group, checked and normalized after parsing. @p job
// prefixes the messages (the job of an input file, or empty).
outcome check_counter_groups(options& opts, const std::string& job);
outcome check_replay(const options& opts, const std::string& job);
outcome check_output_formats(options& opts, const std::string& job);
// Whether this build writes OTF2; -f otf2 in a build without it (@p with_otf2 false) is a
// configuration error (exit 2) saying "built without OTF2 support".
bool    otf2_built();
outcome check_format_built(const std::string& format, bool with_otf2, const std::string& job);
outcome check_filters(parsed_args& args, const std::string& job);
outcome check_logging_and_preload(options& opts, const std::string& job);
outcome check_output_names(const options& opts, const std::string& job);
outcome check_collection(options& opts, const std::string& job);
outcome check_summary(options& opts, const std::string& job);
outcome check_exec_limits(const options& opts, const std::string& job);
outcome check_mpi_ranks(const parsed_args& args, const std::string& job);
outcome check_sdk_versions(const options& opts, const std::string& job);

// pc_sampling_options.cpp: the --pc-sampling-* options and their checks.
void    add_pc_sampling_options(CLI::App& app, parsed_args& args);
outcome check_pc_sampling(options& opts, const std::string& job);

// ncu_options.cpp: Nsight Compute's options (--cache-control, --target-processes, --nvtx,
// --nvtx-include, --nvtx-exclude, --print-summary) and their checks.
void    add_ncu_options(CLI::App& app, parsed_args& args);
outcome check_ncu(options& opts, const std::string& job);

// unsupported_options.cpp: the answer to upstream's options given on the command line (exit 2),
// naming them in the order given; and the sentence it and the job files use.
extern const char* const unsupported_message;
outcome                  check_unsupported(parsed_args& args, const std::string& job);

// job_file.cpp: the -i input file. A text file of "pmc:" lines sets @p opts' groups (each one run,
// in pmc_<N>/); a JSON/YAML job file gives one set of options per job, each parsed by @p parse
// with the job's arguments.
using parse_fn = parse_result (*)(const std::vector<std::string>& own,
                                  const std::vector<std::string>& command,
                                  bool                            has_separator,
                                  const std::string&              job);
outcome read_input_file(options&                        opts,
                        const std::vector<std::string>& own_args,
                        const std::vector<std::string>& after_separator,
                        bool                            has_separator,
                        const std::string&              job,
                        parse_fn                        parse);
} // namespace rocprofv3::cli
