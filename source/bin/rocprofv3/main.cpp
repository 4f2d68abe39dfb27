// rocprofv3: parses the command line, checks what it can before the application runs (counters
// through the tool library's helper mode), then runs the application with the tool library
// preloaded, once per application-replay pass, and exits with the application's code.
#include "agent_query.hpp"
#include "application_run.hpp"
#include "mpi_ranks.hpp"
#include "options.hpp"
#include "output_directory.hpp"

#include "untrusted/printable.hpp"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace planner = rocprofiler::tool::planner;
using rocprofiler::untrusted::printable;

namespace rocprofv3
{
namespace
{
// --log-level info/trace/config and info/trace/env: what rocprofv3 runs with, on stderr, before
// each run (as upstream).
void
log_configuration(const options& opts, const std::map<std::string, std::string>& env, size_t pass)
{
    const auto& level = opts.log_level;
    const auto  which = pass > 0 ? " (pass " + std::to_string(pass) + ")" : std::string{};
    if(level == "info" || level == "trace" || level == "config")
    {
        auto join = [](const std::vector<std::string>& items)
        {
            auto out = std::string{};
            for(const auto& i : items)
                out += (out.empty() ? "" : " ") + i;
            return out;
        };
        auto groups = std::string{};
        for(const auto& g : opts.pmc_groups)
            groups += "[" + join(g) + "]";
        std::cerr << "\n- rocprofv3 configuration" << which << ":\n"
                  << "    - command          = " << join(opts.command) << "\n"
                  << "    - kernel_trace     = " << opts.kernel_trace << "\n"
                  << "    - memory_copy_trace = " << opts.memory_copy_trace << "\n"
                  << "    - marker_trace     = " << opts.marker_trace << "\n"
                  << "    - cuda_runtime_trace = " << opts.cuda_runtime_trace << "\n"
                  << "    - cuda_driver_trace = " << opts.cuda_driver_trace << "\n"
                  << "    - selected_regions = " << opts.selected_regions << "\n"
                  << "    - stats            = " << opts.stats << "\n"
                  << "    - summary          = " << opts.summary << "\n"
                  << "    - pmc              = " << groups << "\n"
                  << "    - replay_mode      = " << opts.replay_mode << "\n"
                  << "    - output_directory = " << opts.output_directory << "\n"
                  << "    - output_file      = " << opts.output_file << "\n"
                  << "    - output_format    = " << join(opts.output_formats) << "\n";
    }
    if(level == "info" || level == "trace" || level == "env")
    {
        std::cerr << "\n- rocprofv3 environment" << which << ":\n";
        for(const auto& [name, value] : env)
            std::cerr << "    - " << name << "=" << value << "\n";
    }
}

// @p words as Python writes a list of strings (upstream's --echo): ['./app', '-n', '1'], each
// in single quotes, or double quotes when it holds a single quote and no double quote.
std::string
python_list(const std::vector<std::string>& words)
{
    auto out = std::string{"["};
    for(const auto& word : words)
    {
        const auto quote =
            word.find('\'') != std::string::npos && word.find('"') == std::string::npos ? '"'
                                                                                        : '\'';
        out += (out.size() > 1 ? ", " : "") + std::string(1, quote);
        for(const unsigned char c : word)
        {
            if(c == '\\' || c == static_cast<unsigned char>(quote))
                out += std::string{"\\"} + static_cast<char>(c);
            else if(c == '\n')
                out += "\\n";
            else if(c == '\t')
                out += "\\t";
            else if(c == '\r')
                out += "\\r";
            else if(c < 0x20 || c == 0x7f)
            {
                char hex[8] = {};
                std::snprintf(hex, sizeof(hex), "\\x%02x", c);
                out += hex;
            }
            else
                out += static_cast<char>(c);
        }
        out += quote;
    }
    return out + "]";
}

// One set of options (the command line's, or one job of an input file): the counters checked,
// the output directory prepared, and the application run once per application-replay pass. The
// codes and groups of its runs are appended. Returns rocprofv3's own code when nothing could run.
std::optional<int>
run_job(options                                opts,
        const libraries&                       libs,
        std::vector<int>&                      codes,
        std::vector<std::vector<std::string>>& groups)
{
    // --echo: the command line that would run, as upstream prints it (a Python list), and no run.
    if(opts.echo)
    {
        std::cout << "command: " << python_list(opts.command) << std::endl;
        codes.push_back(exit_ok);
        groups.emplace_back();
        return std::nullopt;
    }
    auto error = std::string{};
    if(opts.list_avail || !opts.pmc_groups.empty() || !opts.pc_sampling_method.empty() ||
       opts.cache_control == "all")
    {
        // The shipped sets next to rocprofv3 (<prefix>/share/rocprofiler-sdk/metrics.json) and
        // ROCPROFILER_METRICS_PATH's; the tool library reads the same files next to itself.
        namespace metric_sets = rocprofiler::tool::metric_sets;
        auto sets = metric_sets::load(metric_sets::shipped_file(metric_sets::executable_path()),
                                      std::getenv(metric_sets::path_variable),
                                      error);
        if(!sets)
        {
            std::cerr << "rocprofv3: error: metric sets: " << printable(error)
                      << "; the application was not run\n";
            return exit_configuration;
        }
        auto query = query_agents(libs, opts.pmc_groups, error);
        if(!query)
        {
            std::cerr << "rocprofv3: error: " << printable(error) << "\n";
            return exit_configuration;
        }
        // AMD's counter names: the SDK offers their equivalents as counters; the table says
        // which names have none on an agent and what each equivalent measures.
        const auto amd = amd_names_table();
        if(opts.list_avail) return list_available(*query, *sets, amd);
        const auto agents   = gpu_agents(*query, amd);
        auto       warnings = std::vector<std::string>{};
        auto       errors =
            planner::validate(opts.pmc_groups, agents, &warnings, *sets, opts.kernel_replay());
        if(errors.empty())
            for(auto& w : amd_name_warnings(opts.pmc_groups, *query, amd))
                warnings.emplace_back(std::move(w));
        for(const auto& w : warnings)
            std::cerr << "rocprofv3: warning: " << printable(w) << "\n";
        if(!errors.empty())
        {
            for(const auto& e : errors)
                std::cerr << "rocprofv3: error: " << printable(e) << "\n";
            std::cerr << "rocprofv3: error: the application was not run\n";
            return exit_configuration;
        }
        // --pc-sampling-*: some agent must offer the configuration.
        if(auto pc_errors = pc_sampling_offer_errors(opts, *query); !pc_errors.empty())
        {
            for(const auto& e : pc_errors)
                std::cerr << "rocprofv3: error: " << printable(e) << "\n";
            std::cerr << "rocprofv3: error: the application was not run\n";
            return exit_configuration;
        }
        // --cache-control all: every GPU agent must flush its caches between replay passes.
        if(auto cache_errors = cache_control_errors(opts, *query); !cache_errors.empty())
        {
            for(const auto& e : cache_errors)
                std::cerr << "rocprofv3: error: " << printable(e) << "\n";
            std::cerr << "rocprofv3: error: the application was not run\n";
            return exit_configuration;
        }
        auto notes      = std::vector<std::string>{};
        opts.pmc_groups = planner::expand_groups(opts.pmc_groups, agents, notes, *sets);
        for(const auto& n : notes)
            std::cerr << "rocprofv3: " << printable(n) << "\n";
    }

    // Checked before anything runs, so that no run's outputs are lost at its end. Placeholders
    // (%pid%, ...) are expanded by the tool in each process: the directory up to the first one is
    // what can be checked here.
    const auto fixed            = fixed_directory_part(opts.output_directory);
    auto       output_directory = prepare_output_directory(fixed, error);
    if(!output_directory)
    {
        std::cerr << "rocprofv3: error: " << printable(error) << "; the application was not run\n";
        return exit_output;
    }
    if(fixed == opts.output_directory) opts.output_directory = *output_directory;

    auto runs = run_count(opts);
    // After the counters are expanded, with the real library paths: the parser checked the
    // options' values already, this checks what the run sets, before any run of the job.
    for(size_t run = 1; run <= runs; ++run)
    {
        auto why = application_environment_error(
            opts, libs, tool_environment(opts, pass_of_run(opts, run, runs)));
        if(why.empty()) continue;
        std::cerr << "rocprofv3: error: " << printable(why) << "; the application was not run\n";
        return exit_usage;
    }
    for(size_t run = 1; run <= runs; ++run)
    {
        auto pass = pass_of_run(opts, run, runs);
        if(runs > 1)
            std::cerr << "rocprofv3: application replay pass " << run << " of " << runs << "\n";
        auto env = tool_environment(opts, pass);
        log_configuration(opts, env, pass);
        codes.push_back(run_application(opts, libs, env));
        groups.push_back(runs > 1 ? opts.pmc_groups.at(run - 1) : std::vector<std::string>{});
    }
    return std::nullopt;
}
} // namespace
} // namespace rocprofv3

int
main(int argc, char** argv)
{
    using namespace rocprofv3;
    ignore_sigxfsz();
    auto parsed = parse_command_line(argc, argv);
    for(const auto& w : parsed.warnings)
        std::cerr << "rocprofv3: warning: " << printable(w) << "\n";
    if(!parsed.opts)
    {
        std::cout << parsed.output;
        std::cerr << parsed.error;
        return parsed.exit_code;
    }
    const auto& opts = *parsed.opts;

    // --mpi-ranks: an unlisted rank becomes the application itself, before anything of the
    // profiler is looked for or created (no output directory, no tool library).
    if(!opts.mpi_ranks.empty() && !opts.list_avail)
    {
        auto choice = choose_for_rank(opts.mpi_ranks, [](const char* n) { return std::getenv(n); });
        if(!choice.error.empty())
        {
            std::cerr << "rocprofv3: error: " << printable(choice.error)
                      << "; the application was not run\n";
            return exit_configuration;
        }
        if(!choice.profile)
        {
            if(opts.log_level == "info" || opts.log_level == "trace")
                std::cerr << "rocprofv3: rank " << choice.rank << " is not in --mpi-ranks "
                          << opts.mpi_ranks << ": running the application unprofiled\n";
            return exec_unprofiled(opts);
        }
    }

    auto error = std::string{};
    auto libs =
        find_libraries(error, {opts.sdk_version, opts.sdk_soversion, opts.readlink, opts.realpath});
    if(!libs)
    {
        std::cerr << "rocprofv3: error: " << printable(error) << "\n";
        return exit_configuration;
    }

    // The jobs of an input file run one after the other, like application replay passes.
    auto jobs   = opts.jobs.empty() ? std::vector<options>{opts} : opts.jobs;
    auto codes  = std::vector<int>{};
    auto groups = std::vector<std::vector<std::string>>{};
    for(size_t j = 0; j < jobs.size(); ++j)
    {
        if(jobs.size() > 1)
            std::cerr << "rocprofv3: input file job " << j + 1 << " of " << jobs.size() << "\n";
        if(auto stop = run_job(jobs[j], *libs, codes, groups)) return *stop;
    }
    auto failures = std::vector<std::string>{};
    auto result   = summarize_runs(codes, groups, failures);
    for(const auto& line : failures)
        std::cerr << "rocprofv3: error: " << line << "\n";
    return result;
}
