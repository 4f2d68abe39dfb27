// The tables `rocpd summary` and `rocpd query` print, and their three forms: console (aligned
// columns under the table's title, on stdout), csv (one <output-file>_<table>.csv per table in
// the output path) and json (one <output-file>.json: an object of tables, each an array of rows).
#pragma once

#include "arguments.hpp"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace rocpd
{
using cell = std::variant<std::monostate, int64_t, double, std::string>;

struct table
{
    std::string                    name    = {}; // kernel_summary, ...: file names and JSON keys
    std::vector<std::string>       columns = {};
    std::vector<std::vector<cell>> rows    = {};
};

// Writes @p tables in the form args.output asks; throws failure{output} when a file cannot be
// written. @p default_name is the output file name when -o is not given.
void write_tables(const arguments&          args,
                  const std::vector<table>& tables,
                  const std::string&        default_name);

// The output path of a file: <-d or .>/<-o or default_name><suffix>; creates the folder.
std::string
output_file_path(const arguments& args, const std::string& default_name, const std::string& suffix);
} // namespace rocpd
