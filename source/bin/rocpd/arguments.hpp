// The command line of `rocpd` and of its stand-alone entry points (rocpd2csv = `rocpd convert`,
// rocpd2summary = `rocpd summary`). Option names follow AMD's rocpd (-i/--input, -o/--output-file,
// -d/--output-path, -f/--format, --query, --summary-by-rank); docs/rocpd.md lists them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rocpd
{
enum class command
{
    summary,
    query,
    merge,
    convert,
    package,
};

enum class format
{
    console,
    csv,
    json,
    markdown, // one <output-file>.md: a pipe table per table, under its title
    html,     // one <output-file>.html: a standalone page, a table per table
};

// summary: which kernel name the kernel rows are grouped by (AMD's --mangled-kernels,
// --truncate-kernels); the kernels view's name otherwise.
enum class kernel_name_form
{
    display,
    mangled,
    truncated,
};

struct arguments
{
    command                  what         = command::summary;
    std::vector<std::string> inputs       = {};
    format                   output       = format::console;
    bool                     format_given = false;
    // convert: the formats asked for ("csv", "otf2"), each once, in the order given.
    std::vector<std::string> convert_formats = {};
    std::string              output_path     = {}; // -d: the folder of the output files
    std::string              output_file     = {}; // -o: their name (merge: the database's path)
    bool                     by_rank         = false;
    // kernel, memory_copy, region; all three when not given.
    std::vector<std::string> domains = {};
    // summary, AMD's forms: --domain-summary (the domain table, always written here),
    // --region-categories (upper case; NONE: no region summary; a view's name, KERNEL(S) or
    // MEMORY_COPY/MEMORY_COPIES, keeps that domain; other names keep the regions of those
    // categories and of categories that start with them and '_'), the kernel name form.
    bool                     domain_summary          = false;
    std::vector<std::string> region_categories       = {};
    bool                     region_categories_given = false;
    kernel_name_form         kernel_names            = kernel_name_form::display;
    std::string              query                   = {};
    // query --per-database: each input separately (rows led by the database), not their union.
    bool per_database = false;
    bool force        = false;
    // package: move the databases into the package folder (-c), or copy them (--copy).
    bool consolidate = false;
    bool copy        = false;
    // convert, summary: --start/--end as given ("" when not given), checked by parse_arguments:
    // nanoseconds (the records' clock) or a percentage of the job's span ("25%").
    std::string window_start = {};
    std::string window_end   = {};
    // --start-marker/--end-marker: a bound at the start of the one marker of that name (AMD's
    // rule); exclusive with --start/--end.
    std::string window_start_marker = {};
    std::string window_end_marker   = {};
    // --inclusive: true keeps the records that overlap the window, false only those inside it.
    bool inclusive       = true;
    int  busy_timeout_ms = 5000;
};

// One bound of --start/--end: @p ns nanoseconds, or @p fraction (0 to 1) of the job's time span.
struct time_bound
{
    bool     percent  = false;
    double   fraction = 0.0;
    uint64_t ns       = 0;
};

// The bound @p text gives ("123456789" or "25%", "12.5%"); throws failure{usage} naming @p option
// and the text for anything else (a negative number, more than 100%, garbage).
time_bound time_bound_of(const std::string& option, const std::string& text);

// What `rocpd [command] --help` prints.
std::string usage(command what, const std::string& program);

// Parses @p args (argv without the program and, for `rocpd`, without the command word). Throws
// failure{usage} with the reason; returns false when --help was printed.
bool parse_arguments(command what, const std::vector<std::string>& args, arguments& out);

// The command named by @p word ("summary", ...); throws failure{usage} for another word.
command command_named(const std::string& word);
} // namespace rocpd
