// The tables `rocpd summary` and `rocpd query` print, and their forms: console (aligned
// columns under the table's title, on stdout), csv (one <output-file>_<table>.csv per table in
// the output path), json (one <output-file>.json: an object of tables, each an array of rows),
// md (one <output-file>.md: a Markdown pipe table per table under its title) and html (one
// <output-file>.html: a standalone page with a table per table). Names from the application are
// escaped in every form (control characters; '|' in Markdown; markup in HTML).
#pragma once

#include "arguments.hpp"

#include <cstdint>
#include <fstream>
#include <memory>
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

// One table written as its rows arrive: csv and json go to their file row by row (memory does not
// grow with the rows); console needs every row for its column widths and prints at finish().
// The same files and text as write_tables() for one table.
class table_stream
{
public:
    table_stream(const arguments& args, std::string name, const std::string& default_name);
    ~table_stream();
    table_stream(const table_stream&)            = delete;
    table_stream& operator=(const table_stream&) = delete;

    void set_columns(std::vector<std::string> columns);
    void row(const std::vector<cell>& cells);
    // Completes the output; throws failure{output} when it cannot be written. A stream destroyed
    // before finish() removes its file.
    void finish();

private:
    const arguments&               m_args;
    table                          m_table   = {};
    std::string                    m_path    = {};
    std::unique_ptr<std::ofstream> m_out     = {};
    bool                           m_started = false;
    bool                           m_first   = true;
};

// The output path of a file: <-d or .>/<-o or default_name><suffix>; creates the folder.
std::string
output_file_path(const arguments& args, const std::string& default_name, const std::string& suffix);
} // namespace rocpd
