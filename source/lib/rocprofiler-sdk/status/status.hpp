// Name and one-line message of every rocprofiler_status_t code, from one table (status.cpp).
#pragma once

#include <rocprofiler-sdk/fwd.h>

namespace rocprofiler::status
{
// Returned by name() and message() for a value that is not a status code.
inline constexpr const char* unknown_name    = "ROCPROFILER_STATUS_UNKNOWN";
inline constexpr const char* unknown_message = "unknown status code";

// True for SUCCESS .. the last code before ROCPROFILER_STATUS_LAST.
bool is_valid(int code);

// "ROCPROFILER_STATUS_<ENUMERATOR>"; a static string, never nullptr (unknown_name when
// !is_valid(code)).
const char* name(int code);

// One-line message; a static string, never nullptr (unknown_message when !is_valid(code)).
const char* message(int code);
} // namespace rocprofiler::status
