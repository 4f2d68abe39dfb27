#include "inputs.hpp"
#include "errors.hpp"

#include "untrusted/input_file.hpp"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

namespace rocpd
{
namespace fs = std::filesystem;

namespace
{
// An index is small: one line per database.
constexpr size_t max_index_bytes = size_t{16} << 20U;

bool
has_wildcard(const std::string& path)
{
    return path.find_first_of("*?[") != std::string::npos;
}

std::vector<std::string>
matches(const std::string& pattern)
{
    auto out   = std::vector<std::string>{};
    auto found = glob_t{};
    if(::glob(pattern.c_str(), 0, nullptr, &found) == 0)
        for(size_t i = 0; i < found.gl_pathc; ++i)
            out.emplace_back(found.gl_pathv[i]);
    ::globfree(&found);
    return out; // glob sorts them
}

std::string
trimmed(std::string text)
{
    const auto first = text.find_first_not_of(" \t\r");
    if(first == std::string::npos) return {};
    text = text.substr(first, text.find_last_not_of(" \t\r") + 1 - first);
    // A quoted scalar, as YAML writers quote '1.0' or a name with ': '.
    if(text.size() >= 2 && (text.front() == '\'' || text.front() == '"') &&
       text.back() == text.front())
    {
        const auto quote = text.front();
        auto       out   = std::string{};
        for(size_t i = 1; i + 1 < text.size(); ++i)
        {
            out += text[i];
            if(quote == '\'' && text[i] == '\'' && text[i + 1] == '\'') ++i;
        }
        return out;
    }
    return text;
}

size_t
indent_of(const std::string& line)
{
    return line.find_first_not_of(' ');
}

} // namespace

std::vector<std::string>
read_package_index(const std::string& index)
{
    const auto contents = rocprofiler::untrusted::read_bounded(index, max_index_bytes);
    if(!contents.ok)
        throw failure{exit_code::bad_input, "cannot read the package index: " + contents.error};
    auto lines = std::vector<std::string>{};
    {
        auto in   = std::istringstream{contents.text};
        auto line = std::string{};
        while(std::getline(in, line))
            if(line.find_first_not_of(" \t\r") != std::string::npos &&
               trimmed(line).rfind('#', 0) != 0)
                lines.push_back(line);
    }
    auto names  = std::vector<std::string>{};
    bool in_sdk = false, in_rocpd = false, listed = false;
    for(size_t i = 0; i < lines.size(); ++i)
    {
        const auto& line = lines[i];
        const auto  text = trimmed(line);
        if(indent_of(line) == 0) in_sdk = text == "rocprofiler-sdk:";
        if(!in_sdk) continue;
        if(text == "rocpd:") in_rocpd = true;
        if(!in_rocpd || text.rfind("files:", 0) != 0) continue;
        listed     = true;
        auto value = trimmed(text.substr(6));
        if(!value.empty() && value != "[]")
        {
            names.push_back(value);
            continue;
        }
        // A block list: "- name" lines, at the key's indentation or deeper.
        const auto key_indent = indent_of(line);
        for(size_t j = i + 1; j < lines.size() && indent_of(lines[j]) >= key_indent; ++j)
        {
            const auto item = trimmed(lines[j]);
            if(item.rfind("- ", 0) != 0 && item != "-") break;
            names.push_back(trimmed(item.substr(1)));
            i = j;
        }
    }
    if(!listed || names.empty())
        throw failure{exit_code::bad_input,
                      index + ": not a rocpd package index (no 'files' under rocprofiler-sdk: "
                              "rocpd:, or an empty list)"};
    const auto folder = fs::path{index}.parent_path();
    auto       out    = std::vector<std::string>{};
    for(const auto& name : names)
    {
        if(name.empty()) throw failure{exit_code::bad_input, index + ": an empty file name"};
        const auto path = fs::path{name}.is_absolute() ? fs::path{name} : folder / name;
        if(has_wildcard(name))
        {
            // The folder's own characters are no pattern (a package under run[1]/).
            auto pattern = std::string{};
            if(!fs::path{name}.is_absolute() && !folder.empty())
            {
                for(char c : folder.string())
                {
                    if(c == '*' || c == '?' || c == '[' || c == '\\') pattern += '\\';
                    pattern += c;
                }
                pattern += '/';
            }
            auto found = matches(pattern + name);
            if(found.empty())
                throw failure{exit_code::bad_input, index + ": '" + name + "' matches no database"};
            out.insert(out.end(), found.begin(), found.end());
        }
        else
            out.push_back(path.lexically_normal().string());
    }
    return out;
}

namespace
{
bool
is_index_name(const std::string& path)
{
    const auto ext = fs::path{path}.extension().string();
    return ext == ".yaml" || ext == ".yml";
}
} // namespace

std::vector<std::string>
expand_inputs(const std::vector<std::string>& items)
{
    auto out = std::vector<std::string>{};
    for(const auto& item : items)
    {
        auto ec = std::error_code{};
        if(fs::is_directory(item, ec))
        {
            const auto index = fs::path{item} / "index.yaml";
            if(fs::exists(index, ec))
            {
                auto listed = read_package_index(index.string());
                out.insert(out.end(), listed.begin(), listed.end());
                continue;
            }
            auto found = std::vector<std::string>{};
            for(const auto& entry : fs::directory_iterator{item, ec})
                if(entry.path().extension() == ".db") found.push_back(entry.path().string());
            std::sort(found.begin(), found.end());
            if(found.empty())
                throw failure{exit_code::bad_input,
                              item + ": a folder without databases (*.db) or index.yaml"};
            out.insert(out.end(), found.begin(), found.end());
        }
        else if(is_index_name(item) && fs::exists(item, ec))
        {
            auto listed = read_package_index(item);
            out.insert(out.end(), listed.begin(), listed.end());
        }
        else
            out.push_back(item); // a database; opening it says what is wrong with it
    }
    return out;
}

std::string
package_index(const std::vector<std::string>& databases)
{
    auto quoted = [](const std::string& text)
    {
        auto out = std::string{"'"};
        for(char c : text)
            out += c == '\'' ? std::string{"''"} : std::string{c};
        return out + "'";
    };
    auto out = std::string{"rocprofiler-sdk:\n  rocpd:\n    rocpd_package_version: "} +
               quoted(package_version) + "\n    path: .\n    files:\n";
    for(const auto& db : databases)
        out += "    - " + quoted(db) + "\n";
    return out;
}
} // namespace rocpd
