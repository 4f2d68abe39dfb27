// The CSV reader of the rocprofv3 output validators: RFC 4180 rows (quoted fields may hold
// commas, doubled quotes and newlines), every line ended by a newline.
#pragma once

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
} // namespace rocprofv3_validate
