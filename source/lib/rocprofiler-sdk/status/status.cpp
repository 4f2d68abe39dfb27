#include "status/status.hpp"

#include <array>
#include <cstddef>

namespace rocprofiler::status
{
namespace
{
struct status_row
{
    rocprofiler_status_t code;
    const char*          name;
    const char*          message;
};

// The name is spelled from the enumerator itself so that the two cannot drift apart.
#define ROCP_STATUS_ROW(SUFFIX, MESSAGE)                                                           \
    status_row                                                                                     \
    {                                                                                              \
        ROCPROFILER_STATUS_##SUFFIX, "ROCPROFILER_STATUS_" #SUFFIX, MESSAGE                        \
    }

// One row per code, in enum order. The static_assert below fails to compile when a code is added
// to fwd.h without a row here, or when a row is out of order.
constexpr auto status_table = std::array{
    ROCP_STATUS_ROW(SUCCESS, "success"),
    ROCP_STATUS_ROW(ERROR, "generic error"),
    ROCP_STATUS_ROW(ERROR_CONTEXT_NOT_FOUND, "no context exists for the given id"),
    ROCP_STATUS_ROW(ERROR_BUFFER_NOT_FOUND, "no buffer exists for the given id"),
    ROCP_STATUS_ROW(ERROR_KIND_NOT_FOUND, "the tracing kind is not valid"),
    ROCP_STATUS_ROW(ERROR_OPERATION_NOT_FOUND, "the operation is not valid for the tracing kind"),
    ROCP_STATUS_ROW(ERROR_THREAD_NOT_FOUND, "no thread exists for the given id"),
    ROCP_STATUS_ROW(ERROR_AGENT_NOT_FOUND, "no agent exists for the given id"),
    ROCP_STATUS_ROW(ERROR_COUNTER_NOT_FOUND, "no counter exists for the given id"),
    ROCP_STATUS_ROW(ERROR_CONTEXT_ERROR, "generic context error"),
    ROCP_STATUS_ROW(ERROR_CONTEXT_INVALID, "the context configuration is not valid"),
    ROCP_STATUS_ROW(ERROR_CONTEXT_NOT_STARTED, "the context is not active"),
    ROCP_STATUS_ROW(ERROR_CONTEXT_CONFLICT, "the context conflicts with another active context"),
    ROCP_STATUS_ROW(ERROR_CONTEXT_ID_NOT_ZERO, "the context id was not zero on entry"),
    ROCP_STATUS_ROW(ERROR_BUFFER_BUSY, "the buffer is busy (for example, being flushed)"),
    ROCP_STATUS_ROW(ERROR_SERVICE_ALREADY_CONFIGURED, "the service is already configured"),
    ROCP_STATUS_ROW(ERROR_CONFIGURATION_LOCKED,
                    "configuration is locked once tool initialization has finished"),
    ROCP_STATUS_ROW(ERROR_NOT_IMPLEMENTED, "the function or service is not implemented"),
    ROCP_STATUS_ROW(ERROR_INCOMPATIBLE_ABI, "a struct passed by the caller is too small"),
    ROCP_STATUS_ROW(ERROR_INVALID_ARGUMENT, "one or more arguments are not valid"),
    ROCP_STATUS_ROW(ERROR_METRIC_NOT_VALID_FOR_AGENT, "the metric is not valid for the agent"),
    ROCP_STATUS_ROW(ERROR_FINALIZED, "the library has been finalized"),
    ROCP_STATUS_ROW(ERROR_HSA_NOT_LOADED, "the device runtime is not loaded"),
    ROCP_STATUS_ROW(ERROR_DIM_NOT_FOUND, "the counter dimension does not exist"),
    ROCP_STATUS_ROW(ERROR_PROFILE_COUNTER_NOT_FOUND, "the profile does not contain the counter"),
    ROCP_STATUS_ROW(ERROR_AST_GENERATION_FAILED,
                    "the expression of a derived counter could not be parsed"),
    ROCP_STATUS_ROW(ERROR_AST_NOT_FOUND, "no expression exists for the counter"),
    ROCP_STATUS_ROW(ERROR_AQL_NO_EVENT_COORD, "no hardware event exists for the counter"),
    ROCP_STATUS_ROW(ERROR_INCOMPATIBLE_KERNEL, "the operating-system kernel or driver is too old"),
    ROCP_STATUS_ROW(ERROR_OUT_OF_RESOURCES, "resources (such as memory) are insufficient"),
    ROCP_STATUS_ROW(ERROR_PROFILE_NOT_FOUND, "no counter configuration exists for the given id"),
    ROCP_STATUS_ROW(ERROR_AGENT_DISPATCH_CONFLICT,
                    "device counting and dispatch counting conflict on the agent"),
    ROCP_STATUS_ROW(INTERNAL_NO_AGENT_CONTEXT, "no agent context exists (may not be an error)"),
    ROCP_STATUS_ROW(ERROR_SAMPLE_RATE_EXCEEDED, "the requested sample rate is too high"),
    ROCP_STATUS_ROW(ERROR_NO_PROFILE_QUEUE, "a profiling queue could not be created"),
    ROCP_STATUS_ROW(ERROR_NO_HARDWARE_COUNTERS, "no hardware counters were given"),
    ROCP_STATUS_ROW(ERROR_AGENT_MISMATCH, "the agent does not match the counter configuration"),
    ROCP_STATUS_ROW(ERROR_NOT_AVAILABLE, "the service is not available on this platform"),
    ROCP_STATUS_ROW(ERROR_EXCEEDS_HW_LIMIT,
                    "the request does not fit the hardware in a single pass"),
    ROCP_STATUS_ROW(ERROR_AGENT_ARCH_NOT_SUPPORTED,
                    "the architecture of the agent is not supported"),
    ROCP_STATUS_ROW(ERROR_PERMISSION_DENIED, "permission denied"),
};

#undef ROCP_STATUS_ROW

constexpr bool
table_is_complete_and_ordered()
{
    if(status_table.size() != static_cast<size_t>(ROCPROFILER_STATUS_LAST)) return false;
    for(size_t i = 0; i < status_table.size(); ++i)
    {
        if(static_cast<size_t>(status_table[i].code) != i) return false;
    }
    return true;
}

static_assert(table_is_complete_and_ordered(),
              "status_table needs exactly one row per rocprofiler_status_t code, in enum order");
} // namespace

bool
is_valid(int code)
{
    return code >= 0 && code < static_cast<int>(ROCPROFILER_STATUS_LAST);
}

const char*
name(int code)
{
    return is_valid(code) ? status_table[static_cast<size_t>(code)].name : unknown_name;
}

const char*
message(int code)
{
    return is_valid(code) ? status_table[static_cast<size_t>(code)].message : unknown_message;
}
} // namespace rocprofiler::status
