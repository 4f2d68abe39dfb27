// What a CUPTI failure means for the user of the counters: the causes that need action
// (permissions, another profiler, an unknown metric, an unsupported device) named with their fix.
#pragma once

#include <cupti_result.h>

#include <string>
#include <string_view>

namespace rocprofiler::cuda::metrics
{
// A clear, actionable message for a CUPTI failure of `call`: "<call> failed: <CUPTI's text>",
// preceded by the cause and its fix when the result has a known one.
std::string explain(std::string_view call, CUptiResult result);

// True when `result` is CUPTI_SUCCESS; otherwise `error` is set to explain(call, result).
bool succeeded(CUptiResult result, std::string_view call, std::string& error);
} // namespace rocprofiler::cuda::metrics
