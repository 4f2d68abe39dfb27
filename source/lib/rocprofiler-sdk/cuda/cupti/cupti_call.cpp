#include "cuda/cupti/cupti_call.hpp"

#include "common/logging.hpp"

namespace rocprofiler::cuda
{
std::string
cupti_failure(std::string_view                  call,
              CUptiResult                       result,
              decltype(&::cuptiGetResultString) get_result_string)
{
    auto text = std::string{};
    if(get_result_string != nullptr)
    {
        const char* str = nullptr;
        if(get_result_string(result, &str) == CUPTI_SUCCESS && str != nullptr) text = str;
    }
    if(text.empty()) text = result_text(result);
    return std::string{call} + " failed: " + text;
}

bool
cupti_ok(CUptiResult result, std::string_view call, decltype(&::cuptiGetResultString) get)
{
    if(result == CUPTI_SUCCESS) return true;
    ROCP_LOG(warning) << "cuda: " << cupti_failure(call, result, get);
    return false;
}

size_t
for_each_activity_record(const cupti_activity_table&                       table,
                         uint8_t*                                          buffer,
                         size_t                                            valid,
                         const std::function<void(const CUpti_Activity*)>& fn)
{
    auto  count  = size_t{0};
    auto* record = static_cast<CUpti_Activity*>(nullptr);
    while(valid > 0 && table.cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS)
    {
        fn(record);
        ++count;
    }
    return count;
}
} // namespace rocprofiler::cuda
