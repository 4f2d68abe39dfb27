// Names and operations of every callback and buffer tracing kind, and which kinds have a runtime
// on this platform. The public name and iteration queries (tracing_queries.cpp) and the
// configure functions validate kinds and operations through these functions only.
//
// Every function is pure (constant tables), thread-safe and never throws. `kind` and `op` are
// plain ints because tools are C code and may pass any value.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace rocprofiler::tracing
{
// The enumerator without its ROCPROFILER_CALLBACK_TRACING_ / ROCPROFILER_BUFFER_TRACING_ prefix
// ("KERNEL_DISPATCH"), or nullopt for NONE, LAST and any non-kind. The view refers to a static
// NUL-terminated string, so data() may be handed out as a C string.
std::optional<std::string_view> callback_kind_name(int kind);
std::optional<std::string_view> buffer_kind_name(int kind);

// Name of operation `op` of `kind` (the operation enumerator without its enum's prefix, e.g.
// "ENQUEUE", "CONFIG"), or nullopt when `kind` is not a kind or `op` is not one of its operations.
// Same lifetime and NUL-termination guarantee as the kind names.
std::optional<std::string_view> callback_operation_name(int kind, int op);
std::optional<std::string_view> buffer_operation_name(int kind, int op);

// The LAST value of the kind's operation enum: valid operation ids are [first, count), where
// first is 1, or 0 for the marker kinds (their ids are function indices, as in rocprofiler-sdk);
// the CUDA API kinds' ids are CUPTI's callback ids.
// A kind without an operation enum on this platform gives first == count == 1 (no valid id); a
// non-kind gives 0 for both.
int32_t callback_operation_count(int kind);
int32_t buffer_operation_count(int kind);
int32_t callback_operation_first(int kind);
int32_t buffer_operation_first(int kind);

// True when `op` is one of the operations of `kind` (so false for every op of a non-kind).
bool is_valid_callback_operation(int kind, int op);
bool is_valid_buffer_operation(int kind, int op);

// True only for the kinds whose runtime exists here: callback KERNEL_DISPATCH, KERNEL_REPLAY,
// CODE_OBJECT and the marker kinds, buffer KERNEL_DISPATCH, MEMORY_COPY and the marker kinds, and
// CUDA_RUNTIME_API and CUDA_DRIVER_API in both forms (reported by the CUDA backend only). Every
// other kind has a name (tools compile and can list it) but cannot be configured: the configure
// functions return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED.
bool callback_kind_supported(int kind);
bool buffer_kind_supported(int kind);
} // namespace rocprofiler::tracing
