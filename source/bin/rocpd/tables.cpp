#include "tables.hpp"
#include "errors.hpp"

#include "untrusted/printable.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace rocpd
{
namespace
{
// Doubles as the shortest text that reads back to the same value (csv, json); console rounds.
std::string
exact_text(double value)
{
    char buffer[64] = {};
    auto result     = std::to_chars(buffer, buffer + sizeof(buffer), value);
    return std::string{buffer, result.ptr};
}

std::string
console_text(const cell& c)
{
    if(std::holds_alternative<int64_t>(c)) return std::to_string(std::get<int64_t>(c));
    if(std::holds_alternative<double>(c))
    {
        auto out = std::ostringstream{};
        out.setf(std::ios::fixed);
        out.precision(3);
        out << std::get<double>(c);
        return out.str();
    }
    // Names come from the application: control characters and bad bytes escaped, as rocprofv3
    // prints them (a kernel name must not move the cursor or forge a line).
    if(std::holds_alternative<std::string>(c))
        return rocprofiler::untrusted::printable(std::get<std::string>(c));
    return "NULL";
}

std::string
csv_text(const cell& c)
{
    if(std::holds_alternative<int64_t>(c)) return std::to_string(std::get<int64_t>(c));
    if(std::holds_alternative<double>(c)) return exact_text(std::get<double>(c));
    if(std::holds_alternative<std::string>(c))
    {
        auto out = std::string{"\""};
        for(char ch : std::get<std::string>(c))
        {
            if(ch == '"') out += '"';
            out += ch;
        }
        return out + '"';
    }
    return "";
}

nlohmann::json
json_value(const cell& c)
{
    if(std::holds_alternative<int64_t>(c)) return std::get<int64_t>(c);
    if(std::holds_alternative<double>(c)) return std::get<double>(c);
    if(std::holds_alternative<std::string>(c)) return std::get<std::string>(c);
    return nullptr;
}

void
write_console(const std::vector<table>& tables)
{
    for(const auto& t : tables)
    {
        auto width = std::vector<size_t>(t.columns.size());
        for(size_t i = 0; i < t.columns.size(); ++i)
            width[i] = t.columns[i].size();
        for(const auto& row : t.rows)
            for(size_t i = 0; i < row.size() && i < width.size(); ++i)
                width[i] = std::max(width[i], console_text(row[i]).size());
        auto title = t.name;
        std::transform(title.begin(), title.end(), title.begin(), ::toupper);
        std::cout << title << ":\n";
        auto line = [&](const std::vector<std::string>& cells)
        {
            auto out = std::string{};
            for(size_t i = 0; i < cells.size(); ++i)
            {
                auto text = cells[i];
                if(i + 1 < cells.size()) text.resize(std::max(width[i], text.size()), ' ');
                out += (i == 0 ? "" : "  ") + text;
            }
            std::cout << out << '\n';
        };
        line(t.columns);
        for(const auto& row : t.rows)
        {
            auto cells = std::vector<std::string>{};
            for(const auto& c : row)
                cells.emplace_back(console_text(c));
            line(cells);
        }
        std::cout << '\n';
    }
    std::cout.flush();
    if(!std::cout) throw failure{exit_code::output, "rocpd: cannot write to stdout"};
}

std::string
csv_header(const std::vector<std::string>& columns)
{
    auto text = std::string{};
    for(size_t i = 0; i < columns.size(); ++i)
        text += (i == 0 ? "\"" : ",\"") + columns[i] + '"';
    return text + '\n';
}

std::string
csv_line(const std::vector<cell>& row)
{
    auto text = std::string{};
    for(size_t i = 0; i < row.size(); ++i)
        text += (i == 0 ? "" : ",") + csv_text(row[i]);
    return text + '\n';
}

nlohmann::json
json_row(const std::vector<std::string>& columns, const std::vector<cell>& row)
{
    auto object = nlohmann::json::object();
    for(size_t i = 0; i < row.size() && i < columns.size(); ++i)
        object[columns[i]] = json_value(row[i]);
    return object;
}

std::string
json_text(const nlohmann::json& value, int indent)
{
    return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Markdown: a cell as console prints it, with what would end the cell or the row escaped (a
// kernel name may hold '|' or a newline; printable() already escaped control characters).
std::string
markdown_text(const cell& c)
{
    auto out = std::string{};
    for(char ch : console_text(c))
    {
        if(ch == '|' || ch == '\\' || ch == '`' || ch == '*' || ch == '_' || ch == '<') out += '\\';
        out += ch;
    }
    return out;
}

std::string
markdown_title(const std::string& name)
{
    return "## " + name + "\n\n";
}

std::string
markdown_header(const std::vector<std::string>& columns)
{
    auto text = std::string{"|"};
    auto rule = std::string{"|"};
    for(const auto& column : columns)
    {
        text += " " + column + " |";
        rule += "---|";
    }
    return text + "\n" + rule + "\n";
}

std::string
markdown_line(const std::vector<cell>& row)
{
    auto text = std::string{"|"};
    for(const auto& c : row)
        text += " " + markdown_text(c) + " |";
    return text + "\n";
}

// HTML: every cell and name escaped, so that a kernel name is text, never markup.
std::string
html_escaped(const std::string& text)
{
    auto out = std::string{};
    for(char ch : text)
    {
        switch(ch)
        {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += ch;
        }
    }
    return out;
}

std::string
html_begin(const std::string& title)
{
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
           html_escaped(title) +
           "</title>\n<style>\nbody { font-family: sans-serif; }\n"
           "table { border-collapse: collapse; margin-bottom: 2em; }\n"
           "th, td { border: 1px solid #bbb; padding: 2px 8px; }\n"
           "td.number { text-align: right; font-variant-numeric: tabular-nums; }\n"
           "</style>\n</head>\n<body>\n<h1>" +
           html_escaped(title) + "</h1>\n";
}

std::string
html_table_begin(const std::string& name, const std::vector<std::string>& columns)
{
    auto text = "<h2>" + html_escaped(name) + "</h2>\n<table id=\"" + html_escaped(name) +
                "\">\n<thead><tr>";
    for(const auto& column : columns)
        text += "<th>" + html_escaped(column) + "</th>";
    return text + "</tr></thead>\n<tbody>\n";
}

std::string
html_line(const std::vector<cell>& row)
{
    auto text = std::string{"<tr>"};
    for(const auto& c : row)
    {
        const bool number = std::holds_alternative<int64_t>(c) || std::holds_alternative<double>(c);
        text +=
            (number ? "<td class=\"number\">" : "<td>") + html_escaped(console_text(c)) + "</td>";
    }
    return text + "</tr>\n";
}

const std::string html_table_end = "</tbody>\n</table>\n";
const std::string html_end       = "</body>\n</html>\n";

void
write_file(const std::string& path, const std::string& text)
{
    auto out = std::ofstream{path, std::ios::binary | std::ios::trunc};
    out << text;
    out.close();
    if(!out) throw failure{exit_code::output, path + ": cannot write"};
    std::cerr << "rocpd: wrote " << path << '\n';
}
} // namespace

std::string
output_file_path(const arguments& args, const std::string& default_name, const std::string& suffix)
{
    const auto folder = args.output_path.empty() ? std::string{"."} : args.output_path;
    auto       error  = std::error_code{};
    std::filesystem::create_directories(folder, error);
    if(error)
        throw failure{exit_code::output,
                      folder + ": cannot create the folder (" + error.message() + ")"};
    const auto name = args.output_file.empty() ? default_name : args.output_file;
    return (std::filesystem::path{folder} / (name + suffix)).string();
}

void
write_tables(const arguments&          args,
             const std::vector<table>& tables,
             const std::string&        default_name)
{
    switch(args.output)
    {
    case format::console:
        write_console(tables);
        return;
    case format::csv:
        for(const auto& t : tables)
        {
            auto text = csv_header(t.columns);
            for(const auto& row : t.rows)
                text += csv_line(row);
            write_file(output_file_path(args, default_name, "_" + t.name + ".csv"), text);
        }
        return;
    case format::json:
    {
        auto doc = nlohmann::json::object();
        for(const auto& t : tables)
        {
            auto rows = nlohmann::json::array();
            for(const auto& row : t.rows)
                rows.push_back(json_row(t.columns, row));
            doc[t.name] = std::move(rows);
        }
        write_file(output_file_path(args, default_name, ".json"), json_text(doc, 2) + '\n');
        return;
    }
    case format::markdown:
    {
        auto text = std::string{};
        for(const auto& t : tables)
        {
            text += markdown_title(t.name) + markdown_header(t.columns);
            for(const auto& row : t.rows)
                text += markdown_line(row);
            text += '\n';
        }
        write_file(output_file_path(args, default_name, ".md"), text);
        return;
    }
    case format::html:
    {
        const auto name = args.output_file.empty() ? default_name : args.output_file;
        auto       text = html_begin(name);
        for(const auto& t : tables)
        {
            text += html_table_begin(t.name, t.columns);
            for(const auto& row : t.rows)
                text += html_line(row);
            text += html_table_end;
        }
        write_file(output_file_path(args, default_name, ".html"), text + html_end);
        return;
    }
    }
}
table_stream::table_stream(const arguments& args, std::string name, const std::string& default_name)
    : m_args{args}
{
    m_table.name = std::move(name);
    if(args.output == format::csv)
        m_path = output_file_path(args, default_name, "_" + m_table.name + ".csv");
    else if(args.output == format::json)
        m_path = output_file_path(args, default_name, ".json");
    else if(args.output == format::markdown)
        m_path = output_file_path(args, default_name, ".md");
    else if(args.output == format::html)
        m_path = output_file_path(args, default_name, ".html");
    if(m_path.empty()) return;
    m_out = std::make_unique<std::ofstream>(m_path, std::ios::binary | std::ios::trunc);
    if(!*m_out) throw failure{exit_code::output, m_path + ": cannot write"};
    // JSON: the document of write_tables(), {"<name>": [rows]}, one row at a time.
    if(args.output == format::json) *m_out << "{\n  " << json_text(m_table.name, -1) << ": [";
    if(args.output == format::markdown) *m_out << markdown_title(m_table.name);
    if(args.output == format::html)
        *m_out << html_begin(args.output_file.empty() ? default_name : args.output_file);
}

// A stream that did not finish (the query failed) leaves no partial file behind.
table_stream::~table_stream()
{
    if(m_out && m_out->is_open())
    {
        m_out->close();
        std::remove(m_path.c_str());
    }
}

void
table_stream::set_columns(std::vector<std::string> columns)
{
    m_table.columns = std::move(columns);
    if(!m_started)
    {
        if(m_args.output == format::csv) *m_out << csv_header(m_table.columns);
        if(m_args.output == format::markdown) *m_out << markdown_header(m_table.columns);
        if(m_args.output == format::html) *m_out << html_table_begin(m_table.name, m_table.columns);
    }
    m_started = true;
}

void
table_stream::row(const std::vector<cell>& cells)
{
    switch(m_args.output)
    {
    case format::console:
        m_table.rows.push_back(cells);
        return;
    case format::csv:
        *m_out << csv_line(cells);
        break;
    case format::json:
        *m_out << (m_first ? "\n    " : ",\n    ")
               << json_text(json_row(m_table.columns, cells), -1);
        m_first = false;
        break;
    case format::markdown:
        *m_out << markdown_line(cells);
        break;
    case format::html:
        *m_out << html_line(cells);
        break;
    }
    if(!*m_out) throw failure{exit_code::output, m_path + ": cannot write"};
}

void
table_stream::finish()
{
    if(m_args.output == format::console)
    {
        write_tables(m_args, {m_table}, "");
        return;
    }
    if(!m_started) set_columns(m_table.columns);
    if(m_args.output == format::json) *m_out << (m_first ? "]\n}\n" : "\n  ]\n}\n");
    if(m_args.output == format::markdown) *m_out << '\n';
    if(m_args.output == format::html) *m_out << html_table_end << html_end;
    m_out->close();
    if(!*m_out) throw failure{exit_code::output, m_path + ": cannot write"};
    std::cerr << "rocpd: wrote " << m_path << '\n';
}
} // namespace rocpd
