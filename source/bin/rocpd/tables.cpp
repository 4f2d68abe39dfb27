#include "tables.hpp"
#include "errors.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
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
    if(std::holds_alternative<std::string>(c)) return std::get<std::string>(c);
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
            auto text = std::string{};
            for(size_t i = 0; i < t.columns.size(); ++i)
                text += (i == 0 ? "\"" : ",\"") + t.columns[i] + '"';
            text += '\n';
            for(const auto& row : t.rows)
            {
                for(size_t i = 0; i < row.size(); ++i)
                    text += (i == 0 ? "" : ",") + csv_text(row[i]);
                text += '\n';
            }
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
            {
                auto object = nlohmann::json::object();
                for(size_t i = 0; i < row.size() && i < t.columns.size(); ++i)
                    object[t.columns[i]] = json_value(row[i]);
                rows.push_back(std::move(object));
            }
            doc[t.name] = std::move(rows);
        }
        write_file(output_file_path(args, default_name, ".json"),
                   doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + '\n');
        return;
    }
    }
}
} // namespace rocpd
