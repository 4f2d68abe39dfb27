// Turns the operation list a tool passes to a configure call into a set, validating each entry.
#pragma once

#include "context/context.hpp"

#include <rocprofiler-sdk/fwd.h>

#include <cstddef>
#include <cstdint>

namespace rocprofiler::tracing
{
// @p operation_first / @p operation_count are the kind's first valid id (1, or 0 for the marker
// kinds) and its LAST value: valid operations are operation_first .. operation_count-1.
// An empty list (NULL, 0) leaves @p out empty, which means "all operations".
inline rocprofiler_status_t
make_operation_set(int32_t                                operation_first,
                   int32_t                                operation_count,
                   const rocprofiler_tracing_operation_t* operations,
                   size_t                                 operations_count,
                   context::operation_set&                out)
{
    if(operations == nullptr && operations_count != 0)
        return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    for(size_t i = 0; i < operations_count; ++i)
    {
        auto op = operations[i];
        if(op < operation_first || op < 0 || op >= operation_count ||
           static_cast<size_t>(op) >= context::max_operations)
            return ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND;
        out.set(static_cast<size_t>(op));
    }
    return ROCPROFILER_STATUS_SUCCESS;
}
} // namespace rocprofiler::tracing
