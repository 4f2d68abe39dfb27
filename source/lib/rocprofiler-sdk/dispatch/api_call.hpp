// What the tracing of a call into an API (markers, the CUDA runtime and driver) shares: the
// contexts that take part in one call, found once at its start, and the delivery of its ENTER and
// EXIT callback records to each of them. marker/ and runtime_api/ build their payloads and buffer
// records; this gathers and calls.
#pragma once

#include "context/context.hpp"

#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/fwd.h>

#include <array>
#include <cstddef>
#include <cstdint>

namespace rocprofiler::dispatch::api_call
{
// One context's share of a traced call.
struct participant
{
    context::context*                    ctx      = nullptr;
    const context::callback_kind_config* callback = nullptr;
    const context::buffer_kind_config*   buffer   = nullptr;
    rocprofiler_user_data_t              external = {};
    rocprofiler_user_data_t              user     = {};
};

// Contexts are few (one per tool and service); more than this many tracing one call is not a
// configuration anyone builds, and the extra ones are said once instead of dropped quietly.
constexpr auto max_participants = size_t{16};
using participants              = std::array<participant, max_participants>;

// Fills `out` with the active contexts (for this thread, not stopped by a throwing callback) that
// trace operation `op` in callback kind `cb` or buffer kind `buf`; returns how many. `what` names
// the domain in the warning about contexts beyond max_participants ("marker tracing").
size_t gather(rocprofiler_callback_tracing_kind_t cb,
              rocprofiler_buffer_tracing_kind_t   buf,
              int32_t                             op,
              participants&                       out,
              const char*                         what);

// Asks each participant's context for its external correlation id of the call (request `kind`).
void request_external_ids(participants&                                      parts,
                          size_t                                             count,
                          uint64_t                                           thread_id,
                          rocprofiler_external_correlation_id_request_kind_t kind,
                          int32_t                                            op,
                          uint64_t                                           internal_id);

// Delivers `record` (every field set but context_id and correlation_id.external) to the callback
// of participant `p`, when it has one and its tool has not thrown; `label` names the callback in
// the report of an exception ("MARKER_CORE_API callback").
void fire(participant& p, rocprofiler_callback_tracing_record_t record, const char* label);
} // namespace rocprofiler::dispatch::api_call
