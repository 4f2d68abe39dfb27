// The CSV reader of the rocprofv3 output validators: RFC 4180 rows (quoted fields may hold
// commas, doubled quotes and newlines), every line ended by a newline. Also what the validators
// share around it: reading a CSV file or failing, a column by its name, the command line. Each
// validator passes its own fail function, which prints the message with the validator's prefix
// ("validate_pftrace: FAIL: ...") and exits non-zero. And the forms of two kinds of values, as
// AMD's rocprofv3 writes them: agent columns ("Agent 3", agent_labels, agent_number_of) and
// Counter_Value (counter_value_text, counter_value_form_error).
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
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

// Agent columns: kernel_trace.csv's and counter_collection.csv's Agent_Id, memory_copy_trace.csv's
// Source_Agent_Id and Destination_Agent_Id ("host" for host memory),
// counter_collection_missing.csv's Agent_Id. Each names its agent as upstream's -A/--agent-index
// says: "Agent <Logical_Node_Id>" (relative, the default), "Agent <Node_Id>" (absolute), or "GPU
// <n>" / "CPU <n>" (type-relative: n counts the agents of that Agent_Type from 0, in
// Logical_Node_Id order). The numbers are those of agent_info.csv, whose columns stay numbers.

// The number of `text` when it is exactly `prefix` followed by a decimal number (digits only, no
// sign, no leading zero but in "0"); nothing for any other text.
inline std::optional<std::string>
number_after(const std::string& text, const std::string& prefix)
{
    if(text.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
    auto n = text.substr(prefix.size());
    if(n.empty() || n.find_first_not_of("0123456789") != std::string::npos ||
       (n.size() > 1 && n[0] == '0'))
        return std::nullopt;
    return n;
}

// The N of an agent column's "Agent N" (agent_number_of("Agent 3", ...) is "3"), which is how the
// Perfetto trace, results.json and the rocpd database number the agent (their agent ids stay
// numbers); a failure naming `what` and the text for any other form.
inline std::string
agent_number_of(const std::string& text, const std::string& what, fail_function fail)
{
    auto n = number_after(text, "Agent ");
    if(!n) fail_with(fail, what + ": '" + text + "' is not of the form \"Agent <n>\"");
    return *n;
}

// A side of a copy in memory_copy_trace.csv: "host" as it is, else the N of "Agent N"; a failure
// for any other form.
inline std::string
copy_side_number_of(const std::string& text, const std::string& what, fail_function fail)
{
    if(text == "host") return text;
    auto n = number_after(text, "Agent ");
    if(!n) fail_with(fail, what + ": '" + text + "' is neither \"host\" nor \"Agent <n>\"");
    return *n;
}

// The names agent columns give the agents of agent_info.csv (`rows`, its header first, read from
// `path`) under -A `mode` (absolute, relative or type-relative), each with its Agent_Type
// ("GPU", "CPU"). A failure when a mode is unknown, a column is missing or not a number, or two
// agents would have one name.
inline std::map<std::string, std::string>
agent_labels(const csv_rows&    rows,
             const std::string& path,
             const std::string& mode,
             fail_function      fail)
{
    if(mode != "absolute" && mode != "relative" && mode != "type-relative")
        fail_with(fail,
                  "agent index mode '" + mode + "': accepted: absolute, relative, type-relative");
    if(rows.empty()) fail_with(fail, path + " is empty");
    const auto c_node    = column(rows[0], "Node_Id", path, fail),
               c_logical = column(rows[0], "Logical_Node_Id", path, fail),
               c_type    = column(rows[0], "Agent_Type", path, fail);
    auto by_logical      = std::map<unsigned long long, size_t>{}; // Logical_Node_Id -> row
    for(size_t r = 1; r < rows.size(); ++r)
    {
        if(rows[r].size() != rows[0].size())
            fail_with(fail,
                      path + " row " + std::to_string(r) + " has " +
                          std::to_string(rows[r].size()) + " fields, its header " +
                          std::to_string(rows[0].size()));
        for(auto c : {c_node, c_logical})
            if(!number_after(rows[r][c], ""))
                fail_with(fail,
                          path + " row " + std::to_string(r) + ": " + rows[0][c] + " '" +
                              rows[r][c] + "' is not a number");
        if(!by_logical.emplace(std::stoull(rows[r][c_logical]), r).second)
            fail_with(fail, path + ": Logical_Node_Id " + rows[r][c_logical] + " twice");
    }
    auto labels   = std::map<std::string, std::string>{};
    auto per_type = std::map<std::string, size_t>{};
    for(const auto& [logical, r] : by_logical)
    {
        const auto& row   = rows[r];
        const auto& type  = row[c_type];
        auto        label = std::string{};
        if(mode == "relative")
            label = "Agent " + row[c_logical];
        else if(mode == "absolute")
            label = "Agent " + row[c_node];
        else if(type == "GPU" || type == "CPU")
            label = type + " " + std::to_string(per_type[type]++);
        else
            fail_with(fail, path + ": Agent_Type '" + type + "' is neither GPU nor CPU");
        if(!labels.emplace(label, type).second)
            fail_with(fail, path + ": two agents are both '" + label + "' under -A " + mode);
    }
    return labels;
}

// The names of `labels`, for a message: "'Agent 0', 'Agent 1'".
inline std::string
label_list(const std::map<std::string, std::string>& labels)
{
    auto text = std::string{};
    for(const auto& [label, type] : labels)
        text += (text.empty() ? "'" : ", '") + label + "'";
    return text.empty() ? std::string{"none"} : text;
}

// Counter_Value, as upstream writes floating-point values: a value of at least 1 fixed with
// exactly 6 decimals ("64.000000", "16384.000000"); below 1 (0 and negative values included)
// scientific with 8 mantissa decimals ("2.48342814e-02", "0.00000000e+00"). This is the
// validators' own statement of the rule (printf's %.6f and %.8e), not the tool's code.
inline std::string
counter_value_text(double value)
{
    char text[512];
    std::snprintf(text, sizeof(text), value >= 1.0 ? "%.6f" : "%.8e", value);
    return text;
}

// What is wrong with `text` as a Counter_Value, or nothing when it is the form of its value: the
// fixed form of a value >= 1, or the scientific form of a value < 1, each exactly as
// counter_value_text writes its value (no other digit count, no leading zero, no '+' sign, a
// normalized mantissa). "1.00000000e+00" is accepted as the scientific form of a value below 1
// that rounds up to 1 (0.999999999...), the one text of that form whose value is not below 1.
inline std::optional<std::string>
counter_value_form_error(const std::string& text)
{
    static const auto fixed      = std::regex{"-?[0-9]+\\.[0-9]{6}"};
    static const auto scientific = std::regex{"-?[0-9]\\.[0-9]{8}e[-+][0-9]{2,3}"};
    char*             end        = nullptr;
    const auto        value      = std::strtod(text.c_str(), &end);
    if(text.empty() || *end != '\0') return std::string{"not a number"};
    if(std::regex_match(text, fixed))
    {
        if(value < 1.0)
            return std::string{"a value below 1 is written in scientific form with 8 decimals (" +
                               counter_value_text(value) + "), not fixed"};
    }
    else if(std::regex_match(text, scientific))
    {
        if(value >= 1.0 && text != "1.00000000e+00")
            return std::string{"a value of at least 1 is written fixed with 6 decimals (" +
                               counter_value_text(value) + "), not in scientific form"};
        if(value >= 1.0) return std::nullopt;
    }
    else
        return std::string{
            "neither fixed with 6 decimals (a value >= 1) nor scientific with 8 (a value < 1)"};
    if(counter_value_text(value) != text)
        return std::string{"not the form of its value, " + counter_value_text(value)};
    return std::nullopt;
}

// The value of a Counter_Value, or a failure naming `what` and the text when it is not the form
// of its value (counter_value_form_error).
inline double
counter_value_of(const std::string& text, const std::string& what, fail_function fail)
{
    if(auto error = counter_value_form_error(text))
        fail_with(fail, what + ": Counter_Value '" + text + "': " + *error);
    return std::strtod(text.c_str(), nullptr);
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
