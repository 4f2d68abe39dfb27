// The variables of Nsight Compute's options (rocprofv3's ncu_options.cpp): encoded and decoded
// apart from the others so that the option table of each stays short.
#include "contract/environment.hpp"

namespace rocprofiler::tool::contract
{
namespace
{
std::string
lines(const std::vector<std::string>& items)
{
    auto out = std::string{};
    for(const auto& item : items)
        out += (out.empty() ? "" : "\n") + item;
    return out;
}

std::vector<std::string>
split_lines(const char* text)
{
    auto out = std::vector<std::string>{};
    if(text == nullptr || *text == '\0') return out;
    auto all   = std::string{text};
    auto start = size_t{0};
    while(true)
    {
        auto end = all.find('\n', start);
        out.push_back(
            all.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if(end == std::string::npos) return out;
        start = end + 1;
    }
}

std::string
text(const getenv_fn& getenv, const char* name)
{
    const auto* value = getenv(name);
    return value != nullptr ? std::string{value} : std::string{};
}
} // namespace

void
encode_ncu(const tool_request& request, environment& env)
{
    if(!request.target_processes.empty()) env[target_processes] = request.target_processes;
    // Built rather than assigned from a literal: GCC 12 warns falsely (-Wrestrict) on the latter.
    if(request.nvtx) env[nvtx_ranges] = std::string(1, '1');
    if(!request.nvtx_include.empty()) env[nvtx_include] = lines(request.nvtx_include);
    if(!request.nvtx_exclude.empty()) env[nvtx_exclude] = lines(request.nvtx_exclude);
    if(!request.print_summary.empty()) env[print_summary] = request.print_summary;
    if(!request.cache_control.empty()) env[cache_control] = request.cache_control;
}

void
decode_ncu(const getenv_fn& getenv, tool_request& r, std::vector<std::string>& errors)
{
    r.target_processes = text(getenv, target_processes);
    if(!r.target_processes.empty() && r.target_processes != "application-only" &&
       r.target_processes != "all")
        errors.emplace_back(std::string{target_processes} + "='" + r.target_processes +
                            "' is not application-only or all");
    r.nvtx          = decode_switch(nvtx_ranges, getenv(nvtx_ranges), errors);
    r.nvtx_include  = split_lines(getenv(nvtx_include));
    r.nvtx_exclude  = split_lines(getenv(nvtx_exclude));
    r.print_summary = text(getenv, print_summary);
    if(!r.print_summary.empty() && r.print_summary != "per-kernel" &&
       r.print_summary != "per-gpu" && r.print_summary != "per-nvtx")
        errors.emplace_back(std::string{print_summary} + "='" + r.print_summary +
                            "' is not per-kernel, per-gpu or per-nvtx");
    r.cache_control = text(getenv, cache_control);
}
} // namespace rocprofiler::tool::contract
