#include "arguments.hpp"
#include "errors.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <set>

namespace rocpd
{
namespace
{
const char*
command_word(command what)
{
    switch(what)
    {
    case command::summary:
        return "summary";
    case command::query:
        return "query";
    case command::merge:
        return "merge";
    case command::convert:
        return "convert";
    case command::package:
        return "package";
    }
    return "?";
}

[[noreturn]] void
usage_error(command what, const std::string& message)
{
    throw failure{exit_code::usage,
                  std::string{"rocpd "} + command_word(what) + ": " + message +
                      " (--help lists the options)"};
}

bool
is_option(const std::string& word)
{
    return word.size() > 1 && word[0] == '-';
}

const std::set<std::string> known_domains = {"kernel", "memory_copy", "region"};
} // namespace

time_bound
time_bound_of(const std::string& option, const std::string& text)
{
    auto bad = [&](const char* why) -> time_bound
    {
        throw failure{exit_code::usage,
                      option + " '" + text + "': " + why +
                          " (nanoseconds, as 781470909013049, or a percentage of the job's "
                          "time span, as 25%)"};
    };
    auto bound = time_bound{};
    if(!text.empty() && text.back() == '%')
    {
        const auto number = text.substr(0, text.size() - 1);
        const bool digits =
            !number.empty() && number.find_first_not_of("0123456789.") == std::string::npos &&
            number.front() != '.' && std::count(number.begin(), number.end(), '.') <= 1;
        if(!digits) return bad("not a percentage");
        const auto value = std::strtod(number.c_str(), nullptr);
        if(value > 100.0) return bad("more than 100%");
        bound.percent  = true;
        bound.fraction = value / 100.0;
        return bound;
    }
    if(text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
        return bad("not a timestamp");
    errno          = 0;
    char*      end = nullptr;
    const auto ns  = std::strtoull(text.c_str(), &end, 10);
    if(errno == ERANGE || ns > static_cast<unsigned long long>(INT64_MAX)) return bad("too large");
    bound.ns = ns;
    return bound;
}

command
command_named(const std::string& word)
{
    for(auto what :
        {command::summary, command::query, command::merge, command::convert, command::package})
        if(word == command_word(what)) return what;
    throw failure{exit_code::usage,
                  "rocpd: unknown command '" + word +
                      "' (commands: summary, query, merge, convert, package; rocpd --help)"};
}

std::string
usage(command what, const std::string& program)
{
    const std::string common =
        "  -i, --input DB...          the databases (rocprofv3 -f rocpd), one or many; a\n"
        "                             folder (its *.db, or the package its index.yaml lists)\n"
        "                             or a package's index.yaml\n"
        "  --force                    read databases of different jobs together\n"
        "  --busy-timeout MS          how long to wait for a locked database (default 5000)\n"
        "  -h, --help                 this text\n";
    const std::string window =
        "  --start T, --end T         only the records that overlap the window: T in ns (the\n"
        "                             records' clock) or a percentage of the job's span (25%)\n"
        "  --start-marker NAME, --end-marker NAME  the window from (to) the start of the one\n"
        "                             marker of that name (instead of --start, --end)\n"
        "  --inclusive BOOL           true (default): records that overlap the window; false:\n"
        "                             only records wholly inside it\n";
    const std::string output =
        "  -d, --output-path DIR      the folder of the output files (default: .)\n"
        "  -o, --output-file NAME     the name the output files start with (default: rocpd)\n";
    switch(what)
    {
    case command::summary:
        return "usage: " + program +
               " -i DB... [--summary-by-rank] [--domains kernel memory_copy region]\n"
               "       [--region-categories CAT...] [--mangled-kernels | --truncate-kernels]\n"
               "       [--domain-summary] [--format console|csv|json|md|html] [-d DIR] [-o NAME]\n"
               "Per name and per domain: calls, total, mean, min, max, stddev (ns) and the share\n"
               "of the domain's total, over every database; per rank and the spread across ranks\n"
               "with --summary-by-rank.\n" +
               common +
               "  --summary-by-rank, --by-rank  one summary per rank (the process when no rank\n"
               "                             was recorded) and the spread of the rank totals\n"
               "  --domains D...             kernel, memory_copy, region (default: all)\n"
               "  --region-categories CAT... AMD's: only the regions of these categories (MARKER\n"
               "                             takes MARKER_CORE_API, ...) and the views named\n"
               "                             (KERNEL, MEMORY_COPY); NONE: every view, no region\n"
               "  --mangled-kernels          kernels by their mangled names\n"
               "  --truncate-kernels         kernels by their base names (no template, no\n"
               "                             parameters)\n"
               "  --domain-summary           AMD's switch: the domain table (always written here)\n"
               "  --format F                 console (default), csv (one file per table), json,\n"
               "                             md (Markdown), html (one page)\n" +
               window + output;
    case command::query:
        return "usage: " + program +
               " -i DB... --query SQL [--per-database] [--format console|csv|json|md|html]\n"
               "       [-d DIR] [-o NAME]\n"
               "Runs SQL on the union of the databases (as if merged: aggregates and joins span\n"
               "every process).\n" +
               common + "  --query SQL                one SELECT statement\n" +
               "  --per-database             run SQL on each database separately instead, each\n"
               "                             row led by the database it came from\n" +
               "  --format F                 console (default), csv, json, md, html\n" + output;
    case command::merge:
        return "usage: " + program +
               " -i DB... -o OUT.db\n"
               "Writes one database holding every input's rows, ids renumbered so that they stay\n"
               "distinct; the views work on it.\n" +
               common + "  -o, --output-file OUT.db   the merged database (replaced if present)\n";
    case command::package:
        return "usage: " + program +
               " -i DB... [-d PATH] [-c|--consolidate] [--copy]\n"
               "Writes PATH.rpdb/index.yaml, which lists the databases, so that the folder (or\n"
               "the index) stands for them all as -i of every rocpd command.\n" +
               common +
               "  -d, --output-path PATH     the package folder (.rpdb is added; default: the\n"
               "                             current folder, or rocpd-<date>-<time>.rpdb with -c)\n"
               "  -c, --consolidate          move the databases into the folder\n"
               "  --copy                     with -c: copy them, keeping the originals\n";
    case command::convert:
        return "usage: " + program +
               " -i DB... -f csv|otf2|pftrace... [-d DIR] [-o NAME]\n"
               "csv: kernel_trace.csv, memory_copy_trace.csv and marker_api_trace.csv as\n"
               "rocprofv3 -f csv writes them, one set per database. otf2: one OTF2 archive\n"
               "(NAME_results.otf2, .def and folder) with one process per database. pftrace:\n"
               "one Perfetto trace (NAME_results.pftrace) with one process track per database.\n" +
               common + "  -f, --format F...          csv, otf2, pftrace (one or more)\n" + window +
               output;
    }
    return {};
}

bool
parse_arguments(command what, const std::vector<std::string>& args, arguments& out)
{
    out.what = what;
    // The values of an option that takes one or more (-i a.db b.db ...).
    auto values = [&](size_t& i) -> std::vector<std::string>
    {
        auto list = std::vector<std::string>{};
        while(i + 1 < args.size() && !is_option(args[i + 1]))
            list.emplace_back(args[++i]);
        if(list.empty()) usage_error(what, args[i] + " needs a value");
        return list;
    };
    auto value = [&](size_t& i) -> std::string
    {
        if(i + 1 >= args.size()) usage_error(what, args[i] + " needs a value");
        return args[++i];
    };
    for(size_t i = 0; i < args.size(); ++i)
    {
        const auto& word = args[i];
        if(word == "-h" || word == "--help")
            return false;
        else if(word == "-i" || word == "--input")
            for(auto& v : values(i))
                out.inputs.emplace_back(std::move(v));
        else if(word == "-o" || word == "--output-file")
            out.output_file = value(i);
        else if(word == "-d" || word == "--output-path")
        {
            if(what == command::merge) usage_error(what, "-d is not an option of merge");
            out.output_path = value(i);
        }
        else if(word == "-f" || word == "--format")
        {
            if(what == command::merge) usage_error(what, "merge writes a database; no --format");
            if(what == command::convert)
            {
                // One or more, as AMD's `--output-format csv otf2`.
                for(auto& name : values(i))
                {
                    if(name == "perfetto") name = "pftrace"; // AMD's rocpd takes both words
                    if(name == "json")
                        usage_error(what,
                                    "there is no conversion to json, as in AMD's rocpd convert "
                                    "(formats: csv, otf2, pftrace; `rocpd query --format json` "
                                    "prints any view's rows as JSON)");
                    if(name != "csv" && name != "otf2" && name != "pftrace")
                        usage_error(what,
                                    "unknown format '" + name + "' (formats: csv, otf2, pftrace)");
                    if(std::find(out.convert_formats.begin(), out.convert_formats.end(), name) ==
                       out.convert_formats.end())
                        out.convert_formats.emplace_back(std::move(name));
                }
                out.output       = format::csv;
                out.format_given = true;
                continue;
            }
            const auto name = value(i);
            if(name == "console")
                out.output = format::console;
            else if(name == "csv")
                out.output = format::csv;
            else if(name == "json")
                out.output = format::json;
            else if(name == "md" || name == "markdown")
                out.output = format::markdown;
            else if(name == "html")
                out.output = format::html;
            else if(name == "pdf")
                usage_error(what,
                            "--format pdf is not supported here (AMD's rocpd draws it with "
                            "Python's matplotlib): use --format html and print the page");
            else
                usage_error(
                    what, "unknown format '" + name + "' (formats: console, csv, json, md, html)");
            out.format_given = true;
        }
        else if((word == "--summary-by-rank" || word == "--by-rank") && what == command::summary)
            out.by_rank = true;
        else if(word == "--domain-summary" && what == command::summary)
            out.domain_summary = true; // AMD's switch; the table is always written here
        else if(word == "--mangled-kernels" && what == command::summary)
            out.kernel_names = kernel_name_form::mangled;
        else if(word == "--truncate-kernels" && what == command::summary)
            out.kernel_names = kernel_name_form::truncated;
        else if(word == "--region-categories" && what == command::summary)
        {
            for(const auto& v : values(i))
            {
                auto upper = v;
                std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
                if(upper.empty() ||
                   upper.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
                       std::string::npos)
                    usage_error(what,
                                "--region-categories takes category names (HIP, MARKER, "
                                "CUDA_RUNTIME_API, NONE, ...), not '" +
                                    v + "'");
                out.region_categories.emplace_back(std::move(upper));
            }
            out.region_categories_given = true;
        }
        else if(word == "--domains" && what == command::summary)
        {
            for(auto& v : values(i))
            {
                if(known_domains.count(v) == 0)
                    usage_error(
                        what, "unknown domain '" + v + "' (domains: kernel, memory_copy, region)");
                if(std::find(out.domains.begin(), out.domains.end(), v) == out.domains.end())
                    out.domains.emplace_back(std::move(v));
            }
        }
        else if(word == "--query" && what == command::query)
            out.query = value(i);
        else if(word == "--per-database" && what == command::query)
            out.per_database = true;
        else if((word == "--start" || word == "--end") &&
                (what == command::convert || what == command::summary))
        {
            auto text = value(i);
            try
            {
                time_bound_of(word, text);
            }
            catch(const failure& e)
            {
                usage_error(what, e.what());
            }
            (word == "--start" ? out.window_start : out.window_end) = std::move(text);
        }
        else if((word == "--start-marker" || word == "--end-marker") &&
                (what == command::convert || what == command::summary))
        {
            auto name = value(i);
            if(name.empty()) usage_error(what, word + " needs a marker's name, not ''");
            (word == "--start-marker" ? out.window_start_marker : out.window_end_marker) =
                std::move(name);
        }
        else if(word == "--inclusive" && (what == command::convert || what == command::summary))
        {
            const auto text  = value(i);
            auto       lower = text;
            std::transform(lower.begin(),
                           lower.end(),
                           lower.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            if(lower == "true" || lower == "t" || lower == "yes" || lower == "1")
                out.inclusive = true;
            else if(lower == "false" || lower == "f" || lower == "no" || lower == "0")
                out.inclusive = false;
            else
                usage_error(what, "--inclusive takes true or false, not '" + text + "'");
        }
        else if(word == "--force")
            out.force = true;
        else if((word == "-c" || word == "--consolidate") && what == command::package)
            out.consolidate = true;
        else if(word == "--copy" && what == command::package)
            out.copy = true;
        else if(word == "--busy-timeout")
        {
            const auto text = value(i);
            char*      end  = nullptr;
            const auto ms   = std::strtol(text.c_str(), &end, 10);
            if(text.empty() || *end != '\0' || ms < 0 || ms > 3600000)
                usage_error(what,
                            "--busy-timeout takes milliseconds (0 to 3600000), not '" + text + "'");
            out.busy_timeout_ms = static_cast<int>(ms);
        }
        else if(is_option(word))
            usage_error(what, "unknown option '" + word + "'");
        else
            usage_error(what, "unexpected argument '" + word + "' (inputs follow -i)");
    }
    if(out.inputs.empty()) usage_error(what, "no input database (-i DB...)");
    if(what == command::query && out.query.empty()) usage_error(what, "no query (--query SQL)");
    if(what == command::package && out.copy && !out.consolidate)
        usage_error(what, "--copy copies the databases into the package: it needs -c");
    if(what == command::package && !out.output_file.empty())
        usage_error(what, "-o is not an option of package (-d names the folder)");
    if(what == command::merge && out.output_file.empty())
        usage_error(what, "no output database (-o OUT.db)");
    if(what == command::convert && !out.format_given)
        usage_error(what, "no output format (-f csv, otf2 or pftrace; one or more)");
    if(out.domains.empty()) out.domains = {"kernel", "memory_copy", "region"};
    if(!out.window_start.empty() && !out.window_start_marker.empty())
        usage_error(what, "--start and --start-marker name the same bound: give one");
    if(!out.window_end.empty() && !out.window_end_marker.empty())
        usage_error(what, "--end and --end-marker name the same bound: give one");
    if(!out.window_start.empty() && !out.window_end.empty())
    {
        const auto from = time_bound_of("--start", out.window_start);
        const auto to   = time_bound_of("--end", out.window_end);
        if(from.percent == to.percent &&
           (from.percent ? to.fraction <= from.fraction : to.ns <= from.ns))
            usage_error(what,
                        "--end '" + out.window_end + "' is not after --start '" + out.window_start +
                            "'");
    }
    return true;
}
} // namespace rocpd
