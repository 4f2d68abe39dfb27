// The CSV reader of the rocprofv3 output validators: RFC 4180 rows (quoted fields may hold
// commas, doubled quotes and newlines), every line ended by a newline. Also what the validators
// share around it: reading a CSV file or failing, a column by its name, the command line. Each
// validator passes its own fail function, which prints the message with the validator's prefix
// ("validate_pftrace: FAIL: ...") and exits non-zero.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace rocprofv3_validate
{
using csv_rows = std::vector<std::vector<std::string>>;

// The rows of `data`, or what is wrong with it.
inline std::optional<std::string>
parse_csv(const std::string& data, csv_rows& rows)
{
    rows.clear();
    auto row    = std::vector<std::string>{};
    auto field  = std::string{};
    bool quoted = false, any = false;
    for(size_t i = 0; i < data.size(); ++i)
    {
        const char c = data[i];
        if(quoted)
        {
            if(c == '"' && i + 1 < data.size() && data[i + 1] == '"')
            {
                field += '"';
                ++i;
            }
            else if(c == '"')
                quoted = false;
            else
                field += c;
        }
        else if(c == '"')
        {
            quoted = true;
            any    = true;
        }
        else if(c == ',')
        {
            row.push_back(field);
            field.clear();
            any = true;
        }
        else if(c == '\n')
        {
            row.push_back(field);
            rows.push_back(row);
            row.clear();
            field.clear();
            any = false;
        }
        else
        {
            field += c;
            any = true;
        }
    }
    if(quoted) return std::string{"unterminated quoted field"};
    if(any) return std::string{"last line does not end with a newline"};
    return std::nullopt;
}

// The whole file at `path`, or nothing when it cannot be opened.
inline std::optional<std::string>
read_file(const std::string& path)
{
    auto in = std::ifstream{path};
    if(!in) return std::nullopt;
    auto text = std::stringstream{};
    text << in.rdbuf();
    return text.str();
}

// A validator's report of a violation: prints the message and exits non-zero, never returns.
using fail_function = void (*)(const std::string& message);

[[noreturn]] inline void
fail_with(fail_function fail, const std::string& message)
{
    fail(message);
    std::abort(); // not reached: a fail function exits
}

// The rows of the CSV file at `path` (its header first), or a failure: the file is missing, is not
// CSV, or is empty.
inline csv_rows
read_csv_or_fail(const std::string& path, fail_function fail)
{
    const auto data = read_file(path);
    if(!data) fail_with(fail, "missing file " + path);
    auto rows = csv_rows{};
    if(auto error = parse_csv(*data, rows)) fail_with(fail, path + ": " + *error);
    if(rows.empty()) fail_with(fail, path + " is empty");
    return rows;
}

// The index of the column `name` in `header` (the first row of `file`), or a failure.
inline size_t
column(const std::vector<std::string>& header,
       const std::string&              name,
       const std::string&              file,
       fail_function                   fail)
{
    auto it = std::find(header.begin(), header.end(), name);
    if(it == header.end()) fail_with(fail, file + " has no column " + name);
    return static_cast<size_t>(it - header.begin());
}

// The command line, one argument at a time:
//   for(auto args = arguments{argc, argv, fail}; args.next();)
//       if(args.is("--dir")) dir = args.value(); else if ... else args.unknown();
class arguments
{
public:
    arguments(int argc, char** argv, fail_function fail)
        : m_argc{argc}
        , m_argv{argv}
        , m_fail{fail}
    {
    }

    // Moves to the next argument; false after the last.
    bool next()
    {
        if(++m_at >= m_argc) return false;
        m_arg = m_argv[m_at];
        return true;
    }
    bool is(const char* name) const { return m_arg == name; }
    // The value of the current option, the argument after it (which is then skipped).
    std::string value()
    {
        if(m_at + 1 >= m_argc) fail_with(m_fail, m_arg + " needs a value");
        return m_argv[++m_at];
    }
    [[noreturn]] void unknown() const { fail_with(m_fail, "unknown argument " + m_arg); }

private:
    int           m_argc = 0;
    char**        m_argv = nullptr;
    fail_function m_fail = nullptr;
    int           m_at   = 0;
    std::string   m_arg  = {};
};
} // namespace rocprofv3_validate
