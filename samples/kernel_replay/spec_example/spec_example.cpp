// The spec's own example (kernel_replay_callback_api.md, "Configuring the service"), pasted into a
// tool: the configuration snippet runs in initialize, and tool_kernel_replay_callback and
// tool_pass_count_callback are the spec's text character for character (between the VERBATIM
// markers). Around them: the three helpers they call, and a KERNEL_DISPATCH buffer tracing
// context that shows the behaviour the spec promises.
//
//   ROCP_TOOL_LIBRARIES=libspec_example.so host_demo
//
// Environment:
//   SPEC_EXAMPLE_GROUPS  the pass count groups_for_agent returns (default 3; 1 = no replay)
//   SPEC_EXAMPLE_OUTPUT  CSV written at finalize: dispatch_id,kernel_id,pass,start,end, one row
//                        per KERNEL_DISPATCH buffer record (pass -1: no pass was published)
// At finalize it prints to stderr one summary line:
//   spec_example: pass_count_calls=<n> pass_enters=<n> pass_exits=<n> records=<n>
//
// How a buffer record learns its pass: records are delivered later, on another thread, where the
// thread-local pass is gone. But the external correlation id is requested on the submitting
// thread for every submit (every pass), within the pass; the tool stores the published pass in
// it, and the buffer record carries it.
#include <rocprofiler-sdk/rocprofiler.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include <stddef.h> // NULL, as the spec's snippet writes it

namespace
{
// --- the helpers the spec's callbacks call ---------------------------------------------------

// The pass being executed on this thread: set at PASS ENTER, cleared at PASS EXIT.
thread_local int64_t current_pass_on_thread = -1;

std::atomic<uint64_t> pass_count_calls = 0;
std::atomic<uint64_t> pass_enters      = 0;
std::atomic<uint64_t> pass_exits       = 0;

void
publish_current_pass(uint64_t pass)
{
    ++pass_enters;
    current_pass_on_thread = static_cast<int64_t>(pass);
}

void
clear_current_pass()
{
    ++pass_exits;
    current_pass_on_thread = -1;
}

// One pass per "counter group" of the agent; here the count comes from SPEC_EXAMPLE_GROUPS.
uint64_t
groups_for_agent(rocprofiler_agent_id_t agent_id)
{
    ++pass_count_calls;
    if(agent_id.handle == 0) return 1; // no agent: do not replay
    const char* env = std::getenv("SPEC_EXAMPLE_GROUPS");
    if(env == nullptr || *env == '\0') return 3;
    char* end   = nullptr;
    auto  value = std::strtoull(env, &end, 10);
    if(*end != '\0' || value == 0) return 1; // never 0: there is no replay_continue here
    return value;
}

uint64_t tool_pass_count_callback(rocprofiler_kernel_dispatch_info_t dispatch_info,
                                  rocprofiler_user_data_t /* user_data */);

// ===== VERBATIM from kernel_replay_callback_api.md: tool_kernel_replay_callback ===============
void
tool_kernel_replay_callback(rocprofiler_callback_tracing_record_t record,
                            rocprofiler_user_data_t* /* user_data */,
                            void* /* callback_args */)
{
    if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY) return;

    auto* payload = static_cast<rocprofiler_callback_tracing_kernel_replay_data_t*>(record.payload);

    if(record.operation == ROCPROFILER_KERNEL_REPLAY_CONFIG &&
       record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
    {
        // How many passes for this dispatch? Return 1 to skip replay.
        payload->replay_pass_count = tool_pass_count_callback;
    }
    else if(record.operation == ROCPROFILER_KERNEL_REPLAY_PASS)
    {
        if(record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
            publish_current_pass(payload->current_pass);
        else
            clear_current_pass();
    }
}
// ===== end VERBATIM ===========================================================================

// ===== VERBATIM from kernel_replay_callback_api.md: tool_pass_count_callback ==================
uint64_t
tool_pass_count_callback(rocprofiler_kernel_dispatch_info_t dispatch_info,
                         rocprofiler_user_data_t /* user_data */)
{
    // e.g. one pass per counter group collectable on THIS dispatch's agent
    return groups_for_agent(dispatch_info.agent_id);
}
// ===== end VERBATIM ===========================================================================

// --- the observing context: KERNEL_DISPATCH buffer tracing -----------------------------------

struct row
{
    uint64_t dispatch_id = 0;
    uint64_t kernel_id   = 0;
    int64_t  pass        = -1;
    uint64_t start       = 0;
    uint64_t end         = 0;
};

struct tool_state
{
    std::mutex              mutex  = {};
    std::vector<row>        rows   = {};
    rocprofiler_buffer_id_t buffer = {};
    bool                    ok     = false;
};

tool_state* state = nullptr; // leaked on purpose: buffer callbacks and finalize run at exit

bool
check(rocprofiler_status_t status, const char* what)
{
    if(status == ROCPROFILER_STATUS_SUCCESS) return true;
    std::fprintf(
        stderr, "spec_example: %s failed: %s\n", what, rocprofiler_get_status_string(status));
    return false;
}

// Runs on the submitting thread for every submit (every pass): the external id carries the pass
// published at that moment, plus one (0 = none).
int
external_request(rocprofiler_thread_id_t,
                 rocprofiler_context_id_t,
                 rocprofiler_external_correlation_id_request_kind_t,
                 rocprofiler_tracing_operation_t,
                 uint64_t,
                 rocprofiler_user_data_t* value,
                 void*)
{
    value->value = static_cast<uint64_t>(current_pass_on_thread + 1);
    return 0;
}

void
buffer_callback(rocprofiler_context_id_t,
                rocprofiler_buffer_id_t,
                rocprofiler_record_header_t** headers,
                size_t                        count,
                void*,
                uint64_t)
{
    auto lock = std::lock_guard{state->mutex};
    for(size_t i = 0; i < count; ++i)
    {
        if(headers[i]->category != ROCPROFILER_BUFFER_CATEGORY_TRACING ||
           headers[i]->kind != ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH)
            continue;
        const auto* rec = static_cast<const rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(
            headers[i]->payload);
        auto r        = row{};
        r.dispatch_id = rec->dispatch_info.dispatch_id;
        r.kernel_id   = rec->dispatch_info.kernel_id;
        r.pass        = static_cast<int64_t>(rec->correlation_id.external.value) - 1;
        r.start       = rec->start_timestamp;
        r.end         = rec->end_timestamp;
        state->rows.push_back(r);
    }
}

int
tool_initialize(rocprofiler_client_finalize_t, void*)
{
    // ===== VERBATIM from kernel_replay_callback_api.md: the configuration snippet =============
    // (kept at column 0, as printed, so that it is the spec's text byte for byte)
    rocprofiler_context_id_t ctx = {0};
    rocprofiler_create_context(&ctx);

    rocprofiler_configure_callback_tracing_service(ctx,
                                                   ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY,
                                                   NULL, // all operations
                                                   0,
                                                   tool_kernel_replay_callback,
                                                   NULL); // callback_args

    rocprofiler_start_context(ctx);
    // ===== end VERBATIM =======================================================================

    // The snippet ignores the statuses; this tool checks that its context is the active one.
    auto active = 0;
    if(!check(rocprofiler_context_is_active(ctx, &active), "rocprofiler_context_is_active") ||
       active == 0)
    {
        std::fprintf(stderr, "spec_example: the spec's replay context is not active\n");
        return 1;
    }

    auto traced = rocprofiler_context_id_t{};
    auto kind   = ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH;
    state->ok =
        check(rocprofiler_create_context(&traced), "rocprofiler_create_context") &&
        check(rocprofiler_create_buffer(traced,
                                        64 * 1024,
                                        48 * 1024,
                                        ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                        buffer_callback,
                                        nullptr,
                                        &state->buffer),
              "rocprofiler_create_buffer") &&
        check(rocprofiler_configure_buffer_tracing_service(
                  traced, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0, state->buffer),
              "rocprofiler_configure_buffer_tracing_service") &&
        check(rocprofiler_configure_external_correlation_id_request_service(
                  traced, &kind, 1, external_request, nullptr),
              "rocprofiler_configure_external_correlation_id_request_service") &&
        check(rocprofiler_start_context(traced), "rocprofiler_start_context");
    return state->ok ? 0 : 1;
}

void
tool_finalize(void*)
{
    if(state == nullptr || !state->ok) return;
    check(rocprofiler_flush_buffer(state->buffer), "rocprofiler_flush_buffer");
    auto lock = std::lock_guard{state->mutex};
    if(const char* path = std::getenv("SPEC_EXAMPLE_OUTPUT"); path != nullptr && *path != '\0')
    {
        if(FILE* out = std::fopen(path, "w"))
        {
            std::fprintf(out, "dispatch_id,kernel_id,pass,start,end\n");
            for(const auto& r : state->rows)
                std::fprintf(out,
                             "%llu,%llu,%lld,%llu,%llu\n",
                             static_cast<unsigned long long>(r.dispatch_id),
                             static_cast<unsigned long long>(r.kernel_id),
                             static_cast<long long>(r.pass),
                             static_cast<unsigned long long>(r.start),
                             static_cast<unsigned long long>(r.end));
            std::fclose(out);
        }
        else
            std::fprintf(stderr, "spec_example: cannot write %s\n", path);
    }
    std::fprintf(
        stderr,
        "spec_example: pass_count_calls=%llu pass_enters=%llu pass_exits=%llu records=%zu\n",
        static_cast<unsigned long long>(pass_count_calls.load()),
        static_cast<unsigned long long>(pass_enters.load()),
        static_cast<unsigned long long>(pass_exits.load()),
        state->rows.size());
}
} // namespace

extern "C" __attribute__((visibility("default"))) rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* client_id)
{
    client_id->name    = "spec_example";
    state              = new tool_state{};
    static auto result = rocprofiler_tool_configure_result_t{
        sizeof(rocprofiler_tool_configure_result_t), tool_initialize, tool_finalize, nullptr};
    return &result;
}
