// Contexts and the services each one owns.
//
// Contexts are created and configured only while the SDK is configuring (before the lock), so the
// registry is append-only and a context never moves or dies before process exit: the dispatch
// path reads it without locks. Whether a context is active is an atomic flag; kernel replay can
// mask it per thread for the length of one replay loop (see kernel_replay/local_context.hpp).
#pragma once

#include <rocprofiler-sdk/buffer.h>
#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/device_counting_service.h>
#include <rocprofiler-sdk/dispatch_counting_service.h>
#include <rocprofiler-sdk/experimental/spm.h>
#include <rocprofiler-sdk/external_correlation.h>
#include <rocprofiler-sdk/fwd.h>

#include <array>
#include <atomic>
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

namespace rocprofiler::context
{
// Widest operation id of any kind we trace, plus one. Operation sets are bitsets of this width.
inline constexpr size_t max_operations = 64;
using operation_set                    = std::bitset<max_operations>;

struct callback_kind_config
{
    operation_set                     operations = {}; // empty: all operations
    rocprofiler_callback_tracing_cb_t callback   = nullptr;
    void*                             data       = nullptr;

    bool covers(int32_t op) const
    {
        return operations.none() ||
               (op >= 0 && static_cast<size_t>(op) < max_operations && operations.test(op));
    }
};

struct callback_tracing_service
{
    std::array<std::optional<callback_kind_config>, ROCPROFILER_CALLBACK_TRACING_LAST> kinds = {};
};

struct buffer_kind_config
{
    operation_set           operations = {}; // empty: all operations
    rocprofiler_buffer_id_t buffer     = {};

    bool covers(int32_t op) const
    {
        return operations.none() ||
               (op >= 0 && static_cast<size_t>(op) < max_operations && operations.test(op));
    }
};

struct buffer_tracing_service
{
    std::array<std::optional<buffer_kind_config>, ROCPROFILER_BUFFER_TRACING_LAST> kinds = {};
};

struct external_correlation_request_service
{
    std::bitset<ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST> kinds    = {};
    rocprofiler_external_correlation_id_request_cb_t           callback = nullptr;
    void*                                                      data     = nullptr;
};

// Per-thread stacks of pushed external correlation ids of one context.
class external_correlation_stacks
{
public:
    void push(uint64_t tid, rocprofiler_user_data_t value);
    // False when the thread has nothing pushed.
    bool pop(uint64_t tid, rocprofiler_user_data_t* value);
    // The top of the thread's stack, or a zero value.
    rocprofiler_user_data_t top(uint64_t tid) const;

private:
    mutable std::mutex                                                 m_mutex  = {};
    std::unordered_map<uint64_t, std::vector<rocprofiler_user_data_t>> m_stacks = {};
};

struct dispatch_counting_service
{
    rocprofiler_dispatch_counting_service_cb_t dispatch_callback = nullptr;
    void*                                      dispatch_data     = nullptr;
    rocprofiler_dispatch_counting_record_cb_t  record_callback   = nullptr; // callback form
    void*                                      record_data       = nullptr;
    rocprofiler_buffer_id_t                    buffer            = {}; // buffer form
};

// Device (agent-wide) counting of one agent (rocprofiler_configure_device_counting_service): what
// the tool configured. When the context starts, `callback` chooses the counter configuration; the
// sums themselves live in dispatch/device_counting.hpp. Agent-wide: every execution on the agent
// counts while the context is globally active, the kernel replay engine's local mask aside.
struct device_counting_agent
{
    rocprofiler_agent_id_t                   agent    = {};
    rocprofiler_buffer_id_t                  buffer   = {}; // handle 0: records only to the caller
    rocprofiler_device_counting_service_cb_t callback = nullptr;
    void*                                    data     = nullptr;
};

struct device_counting_service
{
    std::vector<device_counting_agent> agents = {}; // one per agent, in configuration order
};

// SPM of the dispatches the context takes part in
// (rocprofiler_spm_configure_callback_dispatch_service). Per dispatch, like dispatch counting: it
// follows the kernel replay engine's local mask.
struct spm_dispatch_service
{
    rocprofiler_spm_dispatch_counting_service_cb_t dispatch_callback = nullptr;
    void*                                          dispatch_data     = nullptr;
    rocprofiler_spm_dispatch_counting_record_cb_t  record_callback   = nullptr;
    void*                                          record_data       = nullptr;
};

// PC sampling of one agent (rocprofiler_configure_pc_sampling_service). Agent-wide: it samples
// every execution on the agent while the context is globally active, and ignores the kernel
// replay engine's per-thread mask (docs/kernel_replay.md).
struct pc_sampling_service
{
    rocprofiler_agent_id_t           agent    = {};
    rocprofiler_pc_sampling_method_t method   = ROCPROFILER_PC_SAMPLING_METHOD_NONE;
    rocprofiler_pc_sampling_unit_t   unit     = ROCPROFILER_PC_SAMPLING_UNIT_NONE;
    uint64_t                         interval = 0;
    rocprofiler_buffer_id_t          buffer   = {};
};

struct context
{
    uint64_t id     = 0; // the handle; index in the registry plus one
    uint32_t client = 0; // client that created it

    std::unique_ptr<callback_tracing_service>             callback_tracer     = {};
    std::unique_ptr<buffer_tracing_service>               buffered_tracer     = {};
    std::unique_ptr<external_correlation_request_service> correlation_request = {};
    std::unique_ptr<dispatch_counting_service>            dispatch_counter    = {};
    std::unique_ptr<device_counting_service>              device_counter      = {};
    external_correlation_stacks                           external_ids        = {};
    std::vector<pc_sampling_service>                      pc_sampling         = {}; // per agent
    std::unique_ptr<spm_dispatch_service>                 spm                 = {};

    std::atomic<bool> active   = false;
    bool              disabled = false; // its client failed to initialize: it never starts
    // A tool callback of the context threw (dispatch/delivery.hpp): it was stopped, and work
    // already in flight delivers nothing further to it either.
    std::atomic<bool> tool_threw = false;

    // A context with no service configured cannot be started (ERROR_CONTEXT_INVALID).
    bool has_any_service() const;
};

// Creates a context of a client (registration::current_client(); 0 for none). Only while
// configuring; the caller checks the lock.
context* create(uint32_t client);

// The context with this handle, or nullptr.
context* get(rocprofiler_context_id_t id);

// Every registered context, in creation order. Safe to call concurrently with create().
template <typename FuncT> void for_each(FuncT&& func);

size_t count();

context* at(size_t index);

// Activates a context that has a service and was not disabled (else ERROR_CONTEXT_INVALID);
// *newly_started says whether it was inactive before. The C entry point checks the lifecycle
// (finalization, the client's fini_func) before.
rocprofiler_status_t start(context& ctx, bool* newly_started);

rocprofiler_status_t stop(rocprofiler_context_id_t id);

// Stops every context (finalization).
void stop_all();

// Whether the context participates in work submitted by the calling thread now: its global
// active flag, unless a kernel replay loop on this thread has overridden it.
bool is_active_for_this_thread(const context& ctx);

// The per-thread override installed by the replay engine for the length of one loop. nullptr when
// no loop runs on this thread. Maps a context index to its local participation.
struct local_override
{
    // index -> participates; only entries the tool toggled are present.
    std::vector<std::optional<bool>> state = {};
};

const local_override*& thread_local_override();

template <typename FuncT>
void
for_each(FuncT&& func)
{
    auto n = count();
    for(size_t i = 0; i < n; ++i)
    {
        if(auto* ctx = at(i); ctx != nullptr) func(*ctx);
    }
}
} // namespace rocprofiler::context
