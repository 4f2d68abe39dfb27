#include "tracing/names.hpp"

#include "kernel_replay/kernel_replay.hpp"

#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/marker/api_id.h>

#include <array>
#include <cstddef>

namespace rocprofiler::tracing
{
namespace
{
// ---------------------------------------------------------------------------------------------
// Operations. Each table holds ids 1 .. LAST-1 of one operation enum of fwd.h, in order; names
// are spelled from the enumerators so that they cannot drift apart.
// ---------------------------------------------------------------------------------------------
struct operation_row
{
    int32_t     id;
    const char* name;
};

#define ROCP_OPERATION(ENUM_PREFIX, SUFFIX)                                                        \
    operation_row                                                                                  \
    {                                                                                              \
        ENUM_PREFIX##SUFFIX, #SUFFIX                                                               \
    }

constexpr auto kernel_dispatch_operations = std::array{
    ROCP_OPERATION(ROCPROFILER_KERNEL_DISPATCH_, ENQUEUE),
    ROCP_OPERATION(ROCPROFILER_KERNEL_DISPATCH_, COMPLETE),
};

constexpr auto code_object_operations = std::array{
    ROCP_OPERATION(ROCPROFILER_CODE_OBJECT_, LOAD),
    ROCP_OPERATION(ROCPROFILER_CODE_OBJECT_, DEVICE_KERNEL_SYMBOL_REGISTER),
    ROCP_OPERATION(ROCPROFILER_CODE_OBJECT_, HOST_KERNEL_SYMBOL_REGISTER),
};

constexpr auto memory_copy_operations = std::array{
    ROCP_OPERATION(ROCPROFILER_MEMORY_COPY_, HOST_TO_HOST),
    ROCP_OPERATION(ROCPROFILER_MEMORY_COPY_, HOST_TO_DEVICE),
    ROCP_OPERATION(ROCPROFILER_MEMORY_COPY_, DEVICE_TO_HOST),
    ROCP_OPERATION(ROCPROFILER_MEMORY_COPY_, DEVICE_TO_DEVICE),
};

constexpr auto memory_allocation_operations = std::array{
    ROCP_OPERATION(ROCPROFILER_MEMORY_ALLOCATION_, ALLOCATE),
    ROCP_OPERATION(ROCPROFILER_MEMORY_ALLOCATION_, VMEM_ALLOCATE),
    ROCP_OPERATION(ROCPROFILER_MEMORY_ALLOCATION_, FREE),
    ROCP_OPERATION(ROCPROFILER_MEMORY_ALLOCATION_, VMEM_FREE),
};

// The marker kinds' operations are function indices, from 0 (as in rocprofiler-sdk).
constexpr auto marker_core_operations = std::array{
    ROCP_OPERATION(ROCPROFILER_MARKER_CORE_API_ID_, roctxMarkA),
    ROCP_OPERATION(ROCPROFILER_MARKER_CORE_API_ID_, roctxRangePushA),
    ROCP_OPERATION(ROCPROFILER_MARKER_CORE_API_ID_, roctxRangePop),
    ROCP_OPERATION(ROCPROFILER_MARKER_CORE_API_ID_, roctxRangeStartA),
    ROCP_OPERATION(ROCPROFILER_MARKER_CORE_API_ID_, roctxRangeStop),
    ROCP_OPERATION(ROCPROFILER_MARKER_CORE_API_ID_, roctxGetThreadId),
};

constexpr auto marker_control_operations = std::array{
    ROCP_OPERATION(ROCPROFILER_MARKER_CONTROL_API_ID_, roctxProfilerPause),
    ROCP_OPERATION(ROCPROFILER_MARKER_CONTROL_API_ID_, roctxProfilerResume),
};

constexpr auto marker_name_operations = std::array{
    ROCP_OPERATION(ROCPROFILER_MARKER_NAME_API_ID_, roctxNameOsThread),
    ROCP_OPERATION(ROCPROFILER_MARKER_NAME_API_ID_, roctxNameHsaAgent),
    ROCP_OPERATION(ROCPROFILER_MARKER_NAME_API_ID_, roctxNameHipDevice),
    ROCP_OPERATION(ROCPROFILER_MARKER_NAME_API_ID_, roctxNameHipStream),
};

#undef ROCP_OPERATION

// The CUDA API kinds' operations are CUPTI's callback ids (generated from CUPTI's headers, so
// that a build without CUDA lists them too).
#include "tracing/cuda_api_ids.inc"

// The CUDA API kinds can be configured in every build: the tracing layer (runtime_api/) is
// backend-neutral; only the CUDA backend reports calls to it (a process without CUDA gets none).
constexpr bool cuda_api_supported = true;

template <typename Table>
constexpr bool
covers_ids_in_order(const Table& table, int32_t last, int32_t first = 1)
{
    if(table.size() != static_cast<size_t>(last - first)) return false;
    for(size_t i = 0; i < table.size(); ++i)
    {
        if(table[i].id != static_cast<int32_t>(i) + first) return false;
    }
    return true;
}

static_assert(covers_ids_in_order(kernel_dispatch_operations, ROCPROFILER_KERNEL_DISPATCH_LAST));
static_assert(covers_ids_in_order(code_object_operations, ROCPROFILER_CODE_OBJECT_LAST));
static_assert(covers_ids_in_order(memory_copy_operations, ROCPROFILER_MEMORY_COPY_LAST));
static_assert(covers_ids_in_order(memory_allocation_operations,
                                  ROCPROFILER_MEMORY_ALLOCATION_LAST));
static_assert(covers_ids_in_order(marker_core_operations, ROCPROFILER_MARKER_CORE_API_ID_LAST, 0));
static_assert(covers_ids_in_order(marker_control_operations,
                                  ROCPROFILER_MARKER_CONTROL_API_ID_LAST,
                                  0));
static_assert(covers_ids_in_order(marker_name_operations, ROCPROFILER_MARKER_NAME_API_ID_LAST, 0));
static_assert(covers_ids_in_order(cuda_runtime_operations,
                                  static_cast<int32_t>(cuda_runtime_operations.size()) + 1));
static_assert(covers_ids_in_order(cuda_driver_operations,
                                  static_cast<int32_t>(cuda_driver_operations.size()) + 1));

// Looks up `op` in one of the tables above; nullptr when it is not one of its ids.
template <const auto& Table>
const char*
table_operation_name(int32_t op)
{
    const auto first = Table.front().id;
    if(op < first || static_cast<size_t>(op - first) >= Table.size()) return nullptr;
    return Table[static_cast<size_t>(op - first)].name;
}

// ---------------------------------------------------------------------------------------------
// Kinds. One row per kind from 1 to LAST-1, in enum order.
// ---------------------------------------------------------------------------------------------
struct kind_row
{
    int         kind;
    const char* name;
    // First valid operation id (1, or 0 for the marker kinds) and the LAST value of the kind's
    // operation enum; first == last when the kind has no operations here.
    int32_t operation_first;
    int32_t operation_last;
    // Name of an operation id, nullptr for one that is not valid; nullptr when operation_last is 1.
    const char* (*operation_name)(int32_t op);
    // Whether the kind's runtime exists on this platform.
    bool supported;
};

template <const auto& Table> constexpr int32_t table_first = Table.front().id;
template <const auto& Table>
constexpr int32_t table_last = static_cast<int32_t>(Table.size()) + Table.front().id;

#define ROCP_OPERATIONS_OF(TABLE)                                                                  \
    table_first<TABLE>, table_last<TABLE>, &table_operation_name<TABLE>
#define ROCP_NO_OPERATIONS 1, 1, nullptr
#define ROCP_REPLAY_OPERATIONS 1, ROCPROFILER_KERNEL_REPLAY_LAST, &kernel_replay::name_by_id

#define ROCP_CALLBACK_KIND(SUFFIX, OPERATIONS, SUPPORTED)                                          \
    kind_row                                                                                       \
    {                                                                                              \
        ROCPROFILER_CALLBACK_TRACING_##SUFFIX, #SUFFIX, OPERATIONS, SUPPORTED                      \
    }
#define ROCP_BUFFER_KIND(SUFFIX, OPERATIONS, SUPPORTED)                                            \
    kind_row                                                                                       \
    {                                                                                              \
        ROCPROFILER_BUFFER_TRACING_##SUFFIX, #SUFFIX, OPERATIONS, SUPPORTED                        \
    }

constexpr auto callback_kinds = std::array{
    ROCP_CALLBACK_KIND(HSA_CORE_API, ROCP_NO_OPERATIONS, false),
    ROCP_CALLBACK_KIND(HSA_AMD_EXT_API, ROCP_NO_OPERATIONS, false),
    ROCP_CALLBACK_KIND(HSA_IMAGE_EXT_API, ROCP_NO_OPERATIONS, false),
    ROCP_CALLBACK_KIND(HSA_FINALIZE_EXT_API, ROCP_NO_OPERATIONS, false),
    ROCP_CALLBACK_KIND(HIP_RUNTIME_API, ROCP_NO_OPERATIONS, false),
    ROCP_CALLBACK_KIND(HIP_COMPILER_API, ROCP_NO_OPERATIONS, false),
    ROCP_CALLBACK_KIND(MARKER_CORE_API, ROCP_OPERATIONS_OF(marker_core_operations), true),
    ROCP_CALLBACK_KIND(MARKER_CONTROL_API, ROCP_OPERATIONS_OF(marker_control_operations), true),
    ROCP_CALLBACK_KIND(MARKER_NAME_API, ROCP_OPERATIONS_OF(marker_name_operations), true),
    ROCP_CALLBACK_KIND(CODE_OBJECT, ROCP_OPERATIONS_OF(code_object_operations), true),
    ROCP_CALLBACK_KIND(SCRATCH_MEMORY, ROCP_NO_OPERATIONS, false),
    ROCP_CALLBACK_KIND(KERNEL_DISPATCH, ROCP_OPERATIONS_OF(kernel_dispatch_operations), true),
    ROCP_CALLBACK_KIND(MEMORY_COPY, ROCP_OPERATIONS_OF(memory_copy_operations), false),
    ROCP_CALLBACK_KIND(RCCL_API, ROCP_NO_OPERATIONS, false),
    ROCP_CALLBACK_KIND(OMPT, ROCP_NO_OPERATIONS, false),
    ROCP_CALLBACK_KIND(MEMORY_ALLOCATION, ROCP_OPERATIONS_OF(memory_allocation_operations), false),
    ROCP_CALLBACK_KIND(RUNTIME_INITIALIZATION, ROCP_NO_OPERATIONS, false),
    ROCP_CALLBACK_KIND(ROCDECODE_API, ROCP_NO_OPERATIONS, false),
    ROCP_CALLBACK_KIND(ROCJPEG_API, ROCP_NO_OPERATIONS, false),
    ROCP_CALLBACK_KIND(HIP_STREAM, ROCP_NO_OPERATIONS, false),
    ROCP_CALLBACK_KIND(MARKER_CORE_RANGE_API, ROCP_NO_OPERATIONS, false),
    ROCP_CALLBACK_KIND(KERNEL_REPLAY, ROCP_REPLAY_OPERATIONS, true),
    ROCP_CALLBACK_KIND(
        CUDA_RUNTIME_API, ROCP_OPERATIONS_OF(cuda_runtime_operations), cuda_api_supported),
    ROCP_CALLBACK_KIND(
        CUDA_DRIVER_API, ROCP_OPERATIONS_OF(cuda_driver_operations), cuda_api_supported),
};

constexpr auto buffer_kinds = std::array{
    ROCP_BUFFER_KIND(HSA_CORE_API, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(HSA_AMD_EXT_API, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(HSA_IMAGE_EXT_API, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(HSA_FINALIZE_EXT_API, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(HIP_RUNTIME_API, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(HIP_COMPILER_API, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(MARKER_CORE_API, ROCP_OPERATIONS_OF(marker_core_operations), true),
    ROCP_BUFFER_KIND(MARKER_CONTROL_API, ROCP_OPERATIONS_OF(marker_control_operations), true),
    ROCP_BUFFER_KIND(MARKER_NAME_API, ROCP_OPERATIONS_OF(marker_name_operations), true),
    ROCP_BUFFER_KIND(MEMORY_COPY, ROCP_OPERATIONS_OF(memory_copy_operations), true),
    ROCP_BUFFER_KIND(KERNEL_DISPATCH, ROCP_OPERATIONS_OF(kernel_dispatch_operations), true),
    ROCP_BUFFER_KIND(SCRATCH_MEMORY, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(CORRELATION_ID_RETIREMENT, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(RCCL_API, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(OMPT, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(MEMORY_ALLOCATION, ROCP_OPERATIONS_OF(memory_allocation_operations), false),
    ROCP_BUFFER_KIND(RUNTIME_INITIALIZATION, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(ROCDECODE_API, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(ROCJPEG_API, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(HIP_STREAM, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(HIP_RUNTIME_API_EXT, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(HIP_COMPILER_API_EXT, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(ROCDECODE_API_EXT, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(KFD_EVENT_PAGE_MIGRATE, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(KFD_EVENT_PAGE_FAULT, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(KFD_EVENT_QUEUE, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(KFD_EVENT_UNMAP_FROM_GPU, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(KFD_EVENT_DROPPED_EVENTS, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(KFD_PAGE_MIGRATE, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(KFD_PAGE_FAULT, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(KFD_QUEUE, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(MARKER_CORE_RANGE_API, ROCP_NO_OPERATIONS, false),
    ROCP_BUFFER_KIND(
        CUDA_RUNTIME_API, ROCP_OPERATIONS_OF(cuda_runtime_operations), cuda_api_supported),
    ROCP_BUFFER_KIND(
        CUDA_DRIVER_API, ROCP_OPERATIONS_OF(cuda_driver_operations), cuda_api_supported),
};

#undef ROCP_BUFFER_KIND
#undef ROCP_CALLBACK_KIND
#undef ROCP_REPLAY_OPERATIONS
#undef ROCP_NO_OPERATIONS
#undef ROCP_OPERATIONS_OF

template <typename Table>
constexpr bool
covers_kinds_in_order(const Table& table, int last)
{
    if(table.size() != static_cast<size_t>(last - 1)) return false;
    for(size_t i = 0; i < table.size(); ++i)
    {
        if(table[i].kind != static_cast<int>(i + 1)) return false;
        if(table[i].operation_last < table[i].operation_first) return false;
    }
    return true;
}

static_assert(covers_kinds_in_order(callback_kinds, ROCPROFILER_CALLBACK_TRACING_LAST),
              "callback_kinds needs one row per rocprofiler_callback_tracing_kind_t, in order");
static_assert(covers_kinds_in_order(buffer_kinds, ROCPROFILER_BUFFER_TRACING_LAST),
              "buffer_kinds needs one row per rocprofiler_buffer_tracing_kind_t, in order");

template <typename Table>
const kind_row*
find_kind(const Table& table, int kind)
{
    if(kind < 1 || static_cast<size_t>(kind) > table.size()) return nullptr;
    return &table[static_cast<size_t>(kind - 1)];
}

std::optional<std::string_view>
kind_name(const kind_row* row)
{
    if(!row) return std::nullopt;
    return std::string_view{row->name};
}

std::optional<std::string_view>
operation_name(const kind_row* row, int op)
{
    if(!row || !row->operation_name || op < row->operation_first || op >= row->operation_last)
        return std::nullopt;
    const char* name = row->operation_name(static_cast<int32_t>(op));
    if(!name) return std::nullopt;
    return std::string_view{name};
}

int32_t
operation_count(const kind_row* row)
{
    return row ? row->operation_last : 0;
}

int32_t
operation_first(const kind_row* row)
{
    return row ? row->operation_first : 0;
}
} // namespace

std::optional<std::string_view>
callback_kind_name(int kind)
{
    return kind_name(find_kind(callback_kinds, kind));
}

std::optional<std::string_view>
buffer_kind_name(int kind)
{
    return kind_name(find_kind(buffer_kinds, kind));
}

std::optional<std::string_view>
callback_operation_name(int kind, int op)
{
    return operation_name(find_kind(callback_kinds, kind), op);
}

std::optional<std::string_view>
buffer_operation_name(int kind, int op)
{
    return operation_name(find_kind(buffer_kinds, kind), op);
}

int32_t
callback_operation_count(int kind)
{
    return operation_count(find_kind(callback_kinds, kind));
}

int32_t
buffer_operation_count(int kind)
{
    return operation_count(find_kind(buffer_kinds, kind));
}

int32_t
callback_operation_first(int kind)
{
    return operation_first(find_kind(callback_kinds, kind));
}

int32_t
buffer_operation_first(int kind)
{
    return operation_first(find_kind(buffer_kinds, kind));
}

bool
is_valid_callback_operation(int kind, int op)
{
    return callback_operation_name(kind, op).has_value();
}

bool
is_valid_buffer_operation(int kind, int op)
{
    return buffer_operation_name(kind, op).has_value();
}

bool
callback_kind_supported(int kind)
{
    const auto* row = find_kind(callback_kinds, kind);
    return row && row->supported;
}

bool
buffer_kind_supported(int kind)
{
    const auto* row = find_kind(buffer_kinds, kind);
    return row && row->supported;
}
} // namespace rocprofiler::tracing
