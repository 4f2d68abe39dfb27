// parse_command_line: CLI11 over the option groups (option_groups.cpp), then the checks of each
// group (option_checks.cpp), the input file (job_file.cpp) and upstream's unsupported options
// (unsupported_options.cpp), in the order that decides which message a bad command line gets.
#include "command_line.hpp"

#include "config/parse.hpp"

#include <CLI/CLI.hpp>

#include <string_view>

#ifndef ROCPROFV3_VERSION
#    define ROCPROFV3_VERSION "unknown"
#endif

namespace rocprofv3
{
namespace cli
{
parse_result
usage_error(std::string message)
{
    auto out      = parse_result{};
    out.exit_code = exit_usage;
    out.error =
        "rocprofv3: error: " + std::move(message) + "\nRun 'rocprofv3 --help' for the options.\n";
    return out;
}

bool
was_given(const parsed_args& args, std::initializer_list<const char*> names)
{
    for(const auto* name : names)
        if(std::find(args.given.begin(), args.given.end(), name) != args.given.end()) return true;
    return false;
}
} // namespace cli

namespace
{
using namespace cli;

// Without "--", an option that takes several values (--pmc, -f, --kernel-iteration-range,
// --preload) also takes the application and
// its arguments. Names such a value: one with a '/' (no counter or format has one), or the last
// argument when it is a value of such an option. Nothing when no value looks like that.
std::optional<std::string>
missing_separator(const std::vector<const char*>& own)
{
    auto option = std::string_view{};
    auto taken  = std::optional<std::string>{};
    for(size_t i = 1; i < own.size(); ++i)
    {
        const auto arg = std::string_view{own[i]};
        if(arg.substr(0, 1) == "-")
        {
            option = (arg == "--pmc" || arg == "-f" || arg == "--output-format" ||
                      arg == "--kernel-iteration-range" || arg == "--preload")
                         ? arg
                         : std::string_view{};
            continue;
        }
        if(option.empty()) continue;
        if(arg.find('/') != std::string_view::npos || i + 1 == own.size())
        {
            taken = "no application given: '" + std::string{arg} + "' was taken as a value of " +
                    std::string{option} +
                    "; put '--' before the application: rocprofv3 [options] -- <application> "
                    "[arguments]";
            break;
        }
    }
    return taken;
}

// CLI11 reads a value "[a,b]" of a several-valued option as the list a, b; an iteration range
// "[1-2],[3-4]" must reach us whole. Its values are marked here and unmarked after parsing.
constexpr char range_mark = '\x01';

std::vector<std::string>
mark_ranges(const std::vector<std::string>& own_args)
{
    auto marked = own_args;
    for(size_t i = 1; i < marked.size(); ++i)
    {
        auto& arg = marked[i];
        if(arg.rfind("--kernel-iteration-range=", 0) == 0)
            arg.insert(arg.find('=') + 1, 1, range_mark);
        else if(arg == "--kernel-iteration-range")
            for(size_t j = i + 1; j < marked.size() && marked[j].rfind('-', 0) != 0; ++j)
                marked[j].insert(0, 1, range_mark);
    }
    return marked;
}

// A --pmc value of blanks only would reach CLI11 as a value it cannot convert; say what is wrong
// with it instead.
outcome
check_blank_pmc(const std::vector<const char*>& own, const std::string& job)
{
    for(size_t i = 1; i < own.size(); ++i)
    {
        auto arg   = std::string_view{own[i]};
        auto value = std::optional<std::string_view>{};
        if(arg == "--pmc" && i + 1 < own.size())
            value = own[i + 1];
        else if(arg.substr(0, 6) == "--pmc=")
            value = arg.substr(6);
        if(value && rocprofiler::tool::parse::parse_counter_list(*value).empty())
            return usage_error(job + "--pmc '" + std::string{*value} +
                               "' names no counter: a counter group is one or more counter "
                               "names, e.g. --pmc SQ_WAVES GRBM_COUNT");
    }
    return std::nullopt;
}

// CLI11 over @p own; the application after "--" is @p after_separator.
outcome
run_parser(CLI::App&                       app,
           parsed_args&                    args,
           const std::vector<const char*>& own,
           const std::vector<std::string>& after_separator,
           bool                            has_separator,
           const std::string&              job)
{
    auto& opts = args.opts;
    try
    {
        app.parse(static_cast<int>(own.size()), own.data());
        if(has_separator)
        {
            if(!opts.command.empty())
                return usage_error("unexpected argument '" + opts.command.front() +
                                   "' before '--'");
            opts.command = after_separator;
        }
    }
    catch(const CLI::CallForHelp&)
    {
        auto out      = parse_result{};
        out.exit_code = exit_ok;
        out.output    = app.help();
        return out;
    }
    catch(const CLI::ParseError& e)
    {
        // "--pmc A ./app -n 1": the application's own options are not rocprofv3's.
        if(!has_separator)
            if(auto hint = missing_separator(own)) return usage_error(*hint);
        return usage_error(job + e.what());
    }
    for(auto& range : args.ranges)
        if(!range.empty() && range.front() == range_mark) range.erase(0, 1);
    return std::nullopt;
}

// The checks of each option group, in the order that decides which message comes first.
outcome
check_groups(parsed_args&                    args,
             const std::vector<const char*>& own,
             bool                            has_separator,
             const std::string&              job)
{
    auto& opts = args.opts;
    if(auto stop = check_counter_groups(opts, job)) return stop;
    if(!opts.list_avail && opts.command.empty() && !has_separator)
        if(auto hint = missing_separator(own)) return usage_error(*hint);
    if(auto stop = check_replay(opts, job)) return stop;
    if(auto stop = check_output_formats(opts, job)) return stop;
    if(auto stop = check_filters(args, job)) return stop;
    if(auto stop = check_logging_and_preload(opts, job)) return stop;
    if(auto stop = check_output_names(opts, job)) return stop;
    if(auto stop = check_pc_sampling(opts, job)) return stop;
    if(auto stop = check_ncu(opts, job)) return stop;
    if(auto stop = check_collection(opts, job)) return stop;
    if(auto stop = check_mpi_ranks(args, job)) return stop;
    return check_exec_limits(opts, job);
}

// Parses and validates rocprofv3's own arguments @p own_args (argv[0] first) with the application
// @p after_separator (after "--"). @p job names the job of an input file whose options these are
// (for messages), empty for the command line.
parse_result
parse_arguments(const std::vector<std::string>& own_args,
                const std::vector<std::string>& after_separator,
                bool                            has_separator,
                const std::string&              job)
{
    auto args = parsed_args{};
    auto app  = CLI::App{"rocprofv3: profile kernels of an application through rocprofiler-sdk.\n"
                         "Usage: rocprofv3 [options] -- <application> [arguments]",
                        "rocprofv3"};
    add_options(app, args);
    const auto marked = mark_ranges(own_args);
    auto       own    = std::vector<const char*>{};
    for(const auto& arg : marked)
        own.push_back(arg.c_str());
    for(size_t i = 1; i < own.size(); ++i)
    {
        auto arg = std::string{own[i]};
        if(arg.size() > 1 && arg[0] == '-') args.given.emplace_back(arg.substr(0, arg.find('=')));
    }
    if(auto stop = check_blank_pmc(own, job)) return *stop;
    if(auto stop = run_parser(app, args, own, after_separator, has_separator, job)) return *stop;
    if(args.version)
    {
        auto out      = parse_result{};
        out.exit_code = exit_ok;
        out.output    = std::string{"rocprofv3 "} + ROCPROFV3_VERSION + "\n";
        return out;
    }
    if(auto stop = check_unsupported(args, job)) return *stop;
    if(auto stop = read_input_file(
           args.opts, own_args, after_separator, has_separator, job, parse_arguments))
        return *stop;
    if(auto stop = check_groups(args, own, has_separator, job)) return *stop;

    auto out = parse_result{};
    out.opts = std::move(args.opts);
    return out;
}
} // namespace

parse_result
parse_command_line(int argc, const char* const* argv)
{
    // Everything after the first "--" is the application's command line, verbatim: CLI11 never
    // sees it, so options of rocprofv3 that take several values cannot swallow it.
    auto own             = std::vector<std::string>{};
    auto after_separator = std::vector<std::string>{};
    auto has_separator   = false;
    for(int i = 0; i < argc; ++i)
    {
        if(i > 0 && std::string_view{argv[i]} == "--")
        {
            has_separator = true;
            for(int j = i + 1; j < argc; ++j)
                after_separator.emplace_back(argv[j]);
            break;
        }
        own.emplace_back(argv[i]);
    }
    return parse_arguments(own, after_separator, has_separator, {});
}
} // namespace rocprofv3
