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
};

enum class format
{
    console,
    csv,
    json,
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
    std::vector<std::string> domains         = {};
    std::string              query           = {};
    bool                     force           = false;
    int                      busy_timeout_ms = 5000;
};

// What `rocpd [command] --help` prints.
std::string usage(command what, const std::string& program);

// Parses @p args (argv without the program and, for `rocpd`, without the command word). Throws
// failure{usage} with the reason; returns false when --help was printed.
bool parse_arguments(command what, const std::vector<std::string>& args, arguments& out);

// The command named by @p word ("summary", ...); throws failure{usage} for another word.
command command_named(const std::string& word);
} // namespace rocpd
