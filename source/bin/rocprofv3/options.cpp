// parse_command_line: CLI11 over the option groups (option_groups.cpp), then the checks of each
// group (option_checks.cpp), the input file (job_file.cpp) and upstream's unsupported options
// (unsupported_options.cpp), in the order that decides which message a bad command line gets.
#include "command_line.hpp"

#include "config/parse.hpp"
#include "untrusted/printable.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string_view>
#include <utility>

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
    // The message may quote what was typed (an option, a counter, a path): control characters in
    // it are written escaped, so that a value cannot forge a line or drive the terminal.
    out.error = "rocprofv3: error: " + rocprofiler::untrusted::printable(message) +
                "\nRun 'rocprofv3 --help' for the options.\n";
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

// The boolean options of @p app by every spelling ("-s", "--sys-trace"), each with its long name:
// CLI11's flags and upstream's flags that this device does not support ("[BOOL]").
std::map<std::string, std::string>
boolean_options(const CLI::App& app)
{
    auto out = std::map<std::string, std::string>{};
    auto add = [&out](const CLI::Option* opt)
    {
        if(opt->get_expected_max() != 0 && opt->get_type_name() != "[BOOL]") return;
        // --help and --version are actions, as upstream's: no value.
        if(opt->check_lname("help") || opt->check_lname("version")) return;
        for(const auto& name : opt->get_lnames())
            out["--" + name] = "--" + opt->get_lnames().front();
        for(const auto& name : opt->get_snames())
            out["-" + name] =
                opt->get_lnames().empty() ? "-" + name : "--" + opt->get_lnames().front();
    };
    for(const auto* opt : app.get_options())
        add(opt);
    for(const auto* group : app.get_subcommands([](const CLI::App*) { return true; }))
        for(const auto* opt : group->get_options())
            add(opt);
    return out;
}

// AMD's boolean forms, for CLI11: "--kernel-trace true" (a value after a space, when it is one of
// AMD's boolean words) and "--stats=1", "-s=no" become "--kernel-trace=true", "--stats=true",
// "-s=false". A value after '=' that is not a boolean is an error naming the option. The options
// given as false are recorded in @p args (by their long names), last one winning.
outcome
normalize_booleans(const CLI::App&           app,
                   std::vector<std::string>& own,
                   parsed_args&              args,
                   const std::string&        job)
{
    const auto booleans = boolean_options(app);
    auto       value_of = std::map<std::string, bool>{};
    auto       out      = std::vector<std::string>{};
    for(size_t i = 0; i < own.size(); ++i)
    {
        auto arg = own[i];
        if(i == 0 || arg.size() < 2 || arg[0] != '-')
        {
            out.push_back(std::move(arg));
            continue;
        }
        const auto eq        = arg.find('=');
        const auto name      = arg.substr(0, eq);
        auto       long_name = booleans.find(name);
        if(long_name == booleans.end())
        {
            out.push_back(std::move(arg));
            continue;
        }
        auto value = std::optional<bool>{true};
        if(eq != std::string::npos)
        {
            value = parse_boolean(std::string_view{arg}.substr(eq + 1));
            if(!value)
                return usage_error(job + name + " '" + arg.substr(eq + 1) +
                                   "' is not a boolean (true: 1, yes, y, true, t, on; false: 0, "
                                   "no, n, false, f, off; any case)");
        }
        else if(i + 1 < own.size())
            if(auto next = parse_boolean(own[i + 1]))
            {
                value = next;
                ++i;
            }
        value_of[long_name->second] = *value;
        out.push_back(long_name->second + (*value ? "=true" : "=false"));
    }
    own = std::move(out);
    for(const auto& [name, value] : value_of)
        if(!value) args.opts.turned_off.push_back(name);
    return std::nullopt;
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

// As AMD's rocprofv3: ROCPROF_OUTPUT_PATH, ROCPROF_OUTPUT_FILE_NAME and ROCPROF_PRELOAD (':'
// separated) are the defaults of -d, -o and --preload when those are not given.
void
environment_defaults(parsed_args& args)
{
    auto& opts  = args.opts;
    auto  value = [](const char* name)
    {
        const auto* text = std::getenv(name);
        return text != nullptr ? std::string{text} : std::string{};
    };
    if(auto path = value("ROCPROF_OUTPUT_PATH");
       !path.empty() && !was_given(args, {"-d", "--output-directory"}))
        opts.output_directory = path;
    if(auto name = value("ROCPROF_OUTPUT_FILE_NAME");
       !name.empty() && !was_given(args, {"-o", "--output-file"}))
        opts.output_file = name;
    if(auto preload = value("ROCPROF_PRELOAD");
       !preload.empty() && !was_given(args, {"--preload"}) && opts.preload.empty())
    {
        auto item = std::string{};
        for(char c : preload + ":")
        {
            if(c != ':')
                item.push_back(c);
            else if(!item.empty())
                opts.preload.push_back(std::exchange(item, {}));
        }
    }
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
    if(auto stop = check_summary(opts, job)) return stop;
    if(auto stop = check_collection(opts, job)) return stop;
    if(auto stop = check_mpi_ranks(args, job)) return stop;
    if(auto stop = check_sdk_versions(opts, job)) return stop;
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
    auto marked = mark_ranges(own_args);
    if(auto stop = normalize_booleans(app, marked, args, job)) return *stop;
    auto own = std::vector<const char*>{};
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
    environment_defaults(args);
    if(auto stop = read_input_file(
           args.opts, own_args, after_separator, has_separator, job, parse_arguments))
        return *stop;
    if(auto stop = check_groups(args, own, has_separator, job)) return *stop;

    auto out = parse_result{};
    out.opts = std::move(args.opts);
    return out;
}
} // namespace

std::optional<bool>
parse_boolean(std::string_view text)
{
    auto word = std::string{text};
    std::transform(word.begin(), word.end(), word.begin(), ::tolower);
    for(const auto* yes : {"y", "yes", "t", "true", "on", "1"})
        if(word == yes) return true;
    for(const auto* no : {"n", "no", "f", "false", "off", "0"})
        if(word == no) return false;
    return std::nullopt;
}

std::vector<std::pair<std::string, bool>>
option_names()
{
    auto args = parsed_args{};
    auto app  = CLI::App{};
    add_options(app, args);
    const auto booleans = boolean_options(app);
    auto       out      = std::vector<std::pair<std::string, bool>>{};
    auto       add      = [&](const CLI::Option* opt)
    {
        for(const auto& name : opt->get_snames())
            out.emplace_back("-" + name, booleans.count("-" + name) > 0);
        for(const auto& name : opt->get_lnames())
            out.emplace_back("--" + name, booleans.count("--" + name) > 0);
    };
    for(const auto* opt : app.get_options())
        add(opt);
    for(const auto* group : app.get_subcommands([](const CLI::App*) { return true; }))
        for(const auto* opt : group->get_options())
            add(opt);
    return out;
}

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
