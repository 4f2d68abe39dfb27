// rocprofv3's whole command line (parse_command_line): the input split into arguments at NUL bytes
// and newlines, after "rocprofv3". Every command line is either accepted (options, no error), an
// answer on stdout (--help, --version: exit 0) or an error with its message and a non-zero exit
// code; the parser never exits or aborts, and gives the same answer when asked twice.
#include "options.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace
{
// The arguments of the fuzz input: split at '\0' and '\n', at most 64 of them.
std::vector<std::string>
arguments(const uint8_t* data, size_t size)
{
    auto out = std::vector<std::string>{"rocprofv3"};
    auto arg = std::string{};
    for(size_t i = 0; i < size && out.size() < 64; ++i)
    {
        const auto c = static_cast<char>(data[i]);
        if(c == '\0' || c == '\n')
            out.push_back(std::exchange(arg, {}));
        else
            arg.push_back(c);
    }
    if(!arg.empty() && out.size() < 64) out.push_back(std::move(arg));
    return out;
}

void
check(const rocprofv3::parse_result& r)
{
    if(r.opts)
    {
        // Accepted: nothing to print but warnings, and exit code 0.
        if(r.exit_code != 0 || !r.error.empty()) std::abort();
    }
    else if(r.exit_code == 0)
    {
        // --help or --version: the answer on stdout.
        if(r.output.empty() || !r.error.empty()) std::abort();
    }
    else
    {
        // Refused: a message that says why ("rocprofv3: error: ...", one line or more), and one of
        // rocprofv3's own exit codes.
        if(r.error.rfind("rocprofv3: error: ", 0) != 0 || r.error.back() != '\n') std::abort();
        if(r.exit_code != rocprofv3::exit_usage && r.exit_code != rocprofv3::exit_configuration &&
           r.exit_code != rocprofv3::exit_output)
            std::abort();
    }
}
} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const auto args = arguments(data, size);
    auto       argv = std::vector<const char*>{};
    for(const auto& arg : args)
        argv.push_back(arg.c_str());
    const auto first = rocprofv3::parse_command_line(static_cast<int>(argv.size()), argv.data());
    check(first);
    const auto again = rocprofv3::parse_command_line(static_cast<int>(argv.size()), argv.data());
    if(again.exit_code != first.exit_code || again.error != first.error ||
       again.output != first.output || again.opts.has_value() != first.opts.has_value())
        std::abort();
    return 0;
}
