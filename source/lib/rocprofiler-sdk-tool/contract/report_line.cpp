#include "contract/report_line.hpp"

namespace rocprofiler::tool::contract
{
namespace
{
void
append_escaped(std::string& out, std::string_view field)
{
    for(char c : field)
    {
        switch(c)
        {
        case '\\':
            out += "\\\\";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            out += c;
        }
    }
}
} // namespace

std::string
encode_report_line(std::string_view kind, long pid, std::initializer_list<std::string_view> fields)
{
    auto line = std::string{};
    append_escaped(line, kind);
    line += '\t';
    line += std::to_string(pid);
    for(auto field : fields)
    {
        line += '\t';
        append_escaped(line, field);
    }
    return line;
}

std::vector<std::string>
decode_report_line(std::string_view line)
{
    auto out = std::vector<std::string>(1);
    for(size_t i = 0; i < line.size(); ++i)
    {
        const char c = line[i];
        if(c == '\t')
        {
            out.emplace_back();
            continue;
        }
        if(c != '\\' || i + 1 == line.size())
        {
            out.back() += c;
            continue;
        }
        switch(line[i + 1])
        {
        case '\\':
            out.back() += '\\';
            break;
        case 't':
            out.back() += '\t';
            break;
        case 'n':
            out.back() += '\n';
            break;
        case 'r':
            out.back() += '\r';
            break;
        default:
            out.back() += c;
            continue; // not an escape: the backslash stands for itself
        }
        ++i;
    }
    return out;
}
} // namespace rocprofiler::tool::contract
