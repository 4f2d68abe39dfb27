// Turns the operation list a tool passes to a configure call into a set, validating each entry.
#pragma once

#include "context/context.hpp"

#include <rocprofiler-sdk/fwd.h>

#include <cstddef>
#include <cstdint>

namespace rocprofiler::tracing
{
// @p operation_count is the kind's LAST value: valid operations are 1 .. operation_count-1.
// An empty list (NULL, 0) leaves @p out empty, which means "all operations".
inline rocprofiler_status_t
make_operation_set(int32_t                                operation_count,
                   const rocprofiler_tracing_operation_t* operations,
                   size_t                                 operations_count,
                   context::operation_set&                out)
{
    if(operations == nullptr && operations_count != 0)
        return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    for(size_t i = 0; i < operations_count; ++i)
    {
        auto op = operations[i];
        if(op <= 0 || op >= operation_count || static_cast<size_t>(op) >= context::max_operations)
            return ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND;
        out.set(static_cast<size_t>(op));
    }
    return ROCPROFILER_STATUS_SUCCESS;
}
} // namespace rocprofiler::tracing
