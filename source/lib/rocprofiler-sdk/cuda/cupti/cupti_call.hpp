// CUPTI calls whose failure is reported with the call's text and CUPTI's message, and the walk
// over an activity buffer, both through the table the caller holds (cupti_loader.hpp), so that a
// test's table of hand-written functions stands in for libcupti.
//
// Only files of the CUDA backend (cuda/) include this header (it includes CUPTI's headers).
#pragma once

#include "cuda/cupti/cupti_loader.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace rocprofiler::cuda
{
// "<call> failed: <CUPTI's text>", the text through `get_result_string` when given (a table's
// cuptiGetResultString), else through result_text().
std::string cupti_failure(std::string_view                  call,
                          CUptiResult                       result,
                          decltype(&::cuptiGetResultString) get_result_string = nullptr);

// True when `result` is CUPTI_SUCCESS; otherwise logs "cuda: <call> failed: <text>" as a warning.
bool cupti_ok(CUptiResult                       result,
              std::string_view                  call,
              decltype(&::cuptiGetResultString) get_result_string = nullptr);

// Calls each record of an activity buffer (`valid` bytes) in order, through the table's
// cuptiActivityGetNextRecord, until it reports the end (CUPTI_ERROR_MAX_LIMIT_REACHED) or an
// error. Returns the number of records walked.
size_t for_each_activity_record(const cupti_activity_table&                       table,
                                uint8_t*                                          buffer,
                                size_t                                            valid,
                                const std::function<void(const CUpti_Activity*)>& fn);
} // namespace rocprofiler::cuda

// CUPTI_CALL: evaluates CALL (a CUPTI call) and returns whether it succeeded; a failure is logged
// with the call as written and CUPTI's message.
#define ROCP_CUPTI_CALL(CALL) ::rocprofiler::cuda::cupti_ok((CALL), #CALL)
