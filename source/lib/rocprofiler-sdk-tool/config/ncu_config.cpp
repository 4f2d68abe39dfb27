// The tool's side of Nsight Compute's options: --target-processes, --nvtx and its filters,
// --print-summary (contract/ncu_environment.cpp decodes the variables).
#include "config/config.hpp"
#include "contract/environment.hpp"

namespace rocprofiler::tool
{
void
read_ncu(const std::function<const char*(const char*)>& getenv,
         config&                                        cfg,
         std::vector<std::string>&                      errors)
{
    auto request = contract::tool_request{};
    contract::decode_ncu(getenv, request, errors);
    cfg.application_only = request.target_processes == "application-only";
    cfg.nvtx             = request.nvtx;
    cfg.print_summary    = request.print_summary;
    if(!request.nvtx_include.empty() || !request.nvtx_exclude.empty())
    {
        if(!cfg.nvtx)
            errors.emplace_back(std::string{contract::nvtx_include} + " / " +
                                contract::nvtx_exclude + " are set without " +
                                contract::nvtx_ranges + "=1");
        auto why = std::string{};
        if(auto filter =
               nvtx::range_filter::compile(request.nvtx_include, request.nvtx_exclude, why))
            cfg.nvtx_filter = std::move(*filter);
        else
            errors.emplace_back("marker range filter " + why);
    }
}
} // namespace rocprofiler::tool
