// The lines of the tool's report to rocprofv3 (session/run_report.hpp says what each means):
// tab-separated fields, one line per event. A field may hold any byte (an output directory with a
// tab or a newline, an error message of several lines): a backslash, tab, newline or carriage
// return in it is written as \\, \t, \n or \r, so that the line splits back into the same fields.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace rocprofiler::tool::contract
{
// "<kind>\t<pid>\t<field>\t<field>...", each field escaped, without the final newline.
std::string
encode_report_line(std::string_view kind, long pid, std::initializer_list<std::string_view> fields);

// The fields of one line (kind and pid included), unescaped. A backslash before any other
// character, or at the end of a line cut short, stands for itself.
std::vector<std::string> decode_report_line(std::string_view line);
} // namespace rocprofiler::tool::contract
