#include "dispatch/dispatch.hpp"

#include "buffer/buffer.hpp"
#include "common/logging.hpp"
#include "common/static_object.hpp"
#include "common/thread.hpp"
#include "context/context.hpp"
#include "kernel_replay/engine.hpp"
#include "registration/registration.hpp"

#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/dispatch_counting_service.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>

namespace rocprofiler::dispatch
{
namespace
{
// The last dispatch id and internal correlation id handed out; a test reset restarts both at 1.
struct id_counters
{
    std::atomic<uint64_t> dispatch    = 0;
    std::atomic<uint64_t> correlation = 0;
};

id_counters&
ids()
{
    return common::static_object<id_counters, common::reset_order::dispatch_ids>::get();
}

thread_local uint64_t this_thread_operation = 0;

// Sets the calling thread's enclosing operation for the duration of a scope.
class operation_scope
{
public:
    explicit operation_scope(uint64_t internal_id)
        : m_previous{this_thread_operation}
    {
        this_thread_operation = internal_id;
    }
    ~operation_scope() { this_thread_operation = m_previous; }

    operation_scope(const operation_scope&)            = delete;
    operation_scope& operator=(const operation_scope&) = delete;

private:
    uint64_t m_previous;
};

const context::callback_kind_config*
callback_config(const context::context& ctx)
{
    if(!ctx.callback_tracer) return nullptr;
    const auto& cfg = ctx.callback_tracer->kinds[ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH];
    return cfg.has_value() ? &*cfg : nullptr;
}

const context::buffer_kind_config*
buffer_config(const context::context& ctx)
{
    if(!ctx.buffered_tracer) return nullptr;
    const auto& cfg = ctx.buffered_tracer->kinds[ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH];
    return cfg.has_value() ? &*cfg : nullptr;
}

rocprofiler_user_data_t
external_id_for(context::context& ctx, const logical_dispatch& dispatch)
{
    if(const auto* svc = ctx.correlation_request.get();
       svc != nullptr && svc->callback != nullptr &&
       (svc->kinds.none() ||
        svc->kinds.test(ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH)))
    {
        auto value = rocprofiler_user_data_t{.value = 0};
        if(svc->callback(dispatch.thread_id,
                         rocprofiler_context_id_t{ctx.id},
                         ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH,
                         ROCPROFILER_KERNEL_DISPATCH_ENQUEUE,
                         dispatch.internal_id,
                         &value,
                         svc->data) == 0)
            return value;
    }
    return ctx.external_ids.top(dispatch.thread_id);
}

} // namespace

namespace
{
// One execution: who takes part, fixed at submit time on the submitting thread.
struct execution
{
    const logical_dispatch*  dispatch     = nullptr;
    std::vector<participant> participants = {};
    std::optional<uint64_t>  counted      = {}; // execution_request::execution of a replayed pass
};

// Asks the context's dispatch counting service which configuration this execution collects.
// Called on the submitting thread.
std::shared_ptr<const counters::config>
choose_counter_config(context::context&                         ctx,
                      const context::dispatch_counting_service& svc,
                      const logical_dispatch&                   dispatch,
                      participant&                              p)
{
    auto data                    = rocprofiler_dispatch_counting_service_data_t{};
    data.size                    = sizeof(data);
    data.correlation_id.internal = dispatch.internal_id;
    data.correlation_id.external = p.external;
    data.dispatch_info           = dispatch.info;
    auto chosen                  = rocprofiler_counter_config_id_t{0};
    svc.dispatch_callback(data, &chosen, &p.counting_user_data, svc.dispatch_data);
    if(chosen.handle == 0) return nullptr;
    auto cfg = counters::get_config(chosen);
    if(!cfg)
    {
        common::log::warn_once("dispatch-counting-unknown-config",
                               "dispatch counting: a tool chose a counter configuration that does "
                               "not exist; the dispatch is not counted");
        return nullptr;
    }
    if(cfg->agent.handle != dispatch.info.agent_id.handle)
    {
        common::log::warn_once("dispatch-counting-agent-mismatch",
                               "dispatch counting: a tool chose a counter configuration of another "
                               "agent than the dispatch's; the dispatch is not counted");
        return nullptr;
    }
    (void)ctx;
    return cfg;
}

std::vector<participant>
select_participants(const logical_dispatch& dispatch)
{
    auto result = std::vector<participant>{};
    context::for_each(
        [&](context::context& ctx)
        {
            if(!context::is_active_for_this_thread(ctx)) return;
            const auto* cb   = callback_config(ctx);
            const auto* buf  = buffer_config(ctx);
            auto        p    = participant{};
            p.ctx            = &ctx;
            p.callback_trace = cb != nullptr && (cb->covers(ROCPROFILER_KERNEL_DISPATCH_ENQUEUE) ||
                                                 cb->covers(ROCPROFILER_KERNEL_DISPATCH_COMPLETE));
            p.buffer_trace   = buf != nullptr && buf->covers(ROCPROFILER_KERNEL_DISPATCH_COMPLETE);
            const auto* counting = ctx.dispatch_counter.get();
            if(!p.callback_trace && !p.buffer_trace && counting == nullptr) return;
            p.external = external_id_for(ctx, dispatch);
            if(counting != nullptr)
                p.counter_config = choose_counter_config(ctx, *counting, dispatch, p);
            if(!p.callback_trace && !p.buffer_trace && !p.counter_config) return;
            result.emplace_back(p);
        });
    return result;
}

// The union of the counters every participant's configuration asks for, or nullptr.
std::shared_ptr<execution_request>
make_execution_request(const std::vector<participant>& participants)
{
    auto request = std::shared_ptr<execution_request>{};
    for(const auto& p : participants)
    {
        if(!p.counter_config) continue;
        if(!request) request = std::make_shared<execution_request>();
        for(const auto* def : p.counter_config->counters)
        {
            auto known = false;
            for(const auto* itr : request->counters)
                known = known || (itr == def);
            if(!known) request->counters.emplace_back(def);
        }
    }
    return request;
}

rocprofiler_dispatch_counting_service_data_t
make_counting_data(const logical_dispatch& dispatch,
                   const participant&      p,
                   const execution_result* result)
{
    auto data                    = rocprofiler_dispatch_counting_service_data_t{};
    data.size                    = sizeof(data);
    data.correlation_id.internal = dispatch.internal_id;
    data.correlation_id.external = p.external;
    data.start_timestamp         = result != nullptr ? result->start_ns : 0;
    data.end_timestamp           = result != nullptr ? result->end_ns : 0;
    data.dispatch_info           = dispatch.info;
    return data;
}

// Delivers one participant's counter values, in callback or buffer form.
void
deliver_counters(const logical_dispatch& dispatch,
                 const participant&      p,
                 const execution_result& result)
{
    const auto* svc = p.ctx->dispatch_counter.get();
    if(!p.counter_config || svc == nullptr) return;
    if(result.counters_deferred) return; // delivered when the backend resolves them
    if(!result.ok)
    {
        ROCP_LOG(warning) << "dispatch counting: dispatch " << dispatch.info.dispatch_id << " ("
                          << dispatch.kernel_name << ") failed: " << result.error
                          << "; no counter values are reported for it";
        return;
    }
    if(!result.counters_error.empty())
    {
        common::log::warn_once(
            "dispatch-counting:" + result.counters_error,
            "dispatch counting: counters not collected: " + result.counters_error +
                "; the kernel ran normally and no counter values are reported "
                "for it (further dispatches with this error are logged at "
                "debug level)");
        return;
    }
    auto records = std::vector<rocprofiler_counter_record_t>{};
    records.reserve(p.counter_config->counters.size());
    for(const auto* def : p.counter_config->counters)
    {
        for(const auto& measured : result.counters)
        {
            if(measured.id.handle != def->id.handle) continue;
            auto record          = rocprofiler_counter_record_t{};
            record.id            = counters::instance_id(def->id);
            record.counter_value = measured.value;
            record.dispatch_id   = dispatch.info.dispatch_id;
            record.user_data     = p.counting_user_data;
            record.agent_id      = dispatch.info.agent_id;
            records.emplace_back(record);
            break;
        }
    }
    auto data = make_counting_data(dispatch, p, &result);
    if(svc->record_callback != nullptr)
    {
        svc->record_callback(
            data, records.data(), records.size(), p.counting_user_data, svc->record_data);
        return;
    }
    auto header            = rocprofiler_dispatch_counting_service_record_t{};
    header.size            = sizeof(header);
    header.num_records     = records.size();
    header.correlation_id  = data.correlation_id;
    header.start_timestamp = data.start_timestamp;
    header.end_timestamp   = data.end_timestamp;
    header.dispatch_info   = data.dispatch_info;
    buffer::emplace(svc->buffer,
                    ROCPROFILER_BUFFER_CATEGORY_COUNTERS,
                    ROCPROFILER_COUNTER_RECORD_PROFILE_COUNTING_DISPATCH_HEADER,
                    header);
    for(const auto& record : records)
        buffer::emplace(svc->buffer,
                        ROCPROFILER_BUFFER_CATEGORY_COUNTERS,
                        ROCPROFILER_COUNTER_RECORD_VALUE,
                        record);
}

rocprofiler_callback_tracing_record_t
make_record(const logical_dispatch&      dispatch,
            const participant&           p,
            int32_t                      operation,
            rocprofiler_callback_phase_t phase,
            void*                        payload)
{
    auto record                    = rocprofiler_callback_tracing_record_t{};
    record.context_id              = rocprofiler_context_id_t{p.ctx->id};
    record.thread_id               = dispatch.thread_id;
    record.correlation_id.internal = dispatch.internal_id;
    record.correlation_id.external = p.external;
    record.correlation_id.ancestor = dispatch.ancestor_id;
    record.kind                    = ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH;
    record.operation               = operation;
    record.phase                   = phase;
    record.payload                 = payload;
    return record;
}

// A participant whose client was finalized (fini_func) after the execution was submitted: a tool
// receives nothing after its finalize, not even completions of work already in flight.
bool
client_gone(const participant& p)
{
    return p.ctx->client != 0 && registration::client_finalized(p.ctx->client);
}

void
fire_enqueue(const logical_dispatch&      dispatch,
             std::vector<participant>&    participants,
             rocprofiler_callback_phase_t phase)
{
    for(auto& p : participants)
    {
        if(!p.callback_trace || client_gone(p)) continue;
        const auto* cb = callback_config(*p.ctx);
        if(!cb->covers(ROCPROFILER_KERNEL_DISPATCH_ENQUEUE)) continue;
        auto payload          = rocprofiler_callback_tracing_kernel_dispatch_data_t{};
        payload.size          = sizeof(payload);
        payload.dispatch_info = dispatch.info;
        cb->callback(make_record(dispatch, p, ROCPROFILER_KERNEL_DISPATCH_ENQUEUE, phase, &payload),
                     &p.callback_data,
                     cb->data);
    }
}

// Delivers the completion of one execution to its participants. Any thread.
void
deliver_completion(const logical_dispatch&   dispatch,
                   std::vector<participant>& participants,
                   const execution_result&   result)
{
    for(auto& p : participants)
    {
        if(client_gone(p)) continue;
        if(p.callback_trace)
        {
            const auto* cb = callback_config(*p.ctx);
            if(cb->covers(ROCPROFILER_KERNEL_DISPATCH_COMPLETE))
            {
                auto payload            = rocprofiler_callback_tracing_kernel_dispatch_data_t{};
                payload.size            = sizeof(payload);
                payload.start_timestamp = result.start_ns;
                payload.end_timestamp   = result.end_ns;
                payload.dispatch_info   = dispatch.info;
                cb->callback(make_record(dispatch,
                                         p,
                                         ROCPROFILER_KERNEL_DISPATCH_COMPLETE,
                                         ROCPROFILER_CALLBACK_PHASE_NONE,
                                         &payload),
                             &p.callback_data,
                             cb->data);
            }
        }
        if(p.buffer_trace)
        {
            const auto* buf                = buffer_config(*p.ctx);
            auto        record             = rocprofiler_buffer_tracing_kernel_dispatch_record_t{};
            record.size                    = sizeof(record);
            record.kind                    = ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH;
            record.operation               = ROCPROFILER_KERNEL_DISPATCH_COMPLETE;
            record.correlation_id.internal = dispatch.internal_id;
            record.correlation_id.external = p.external;
            record.thread_id               = dispatch.thread_id;
            record.start_timestamp         = result.start_ns;
            record.end_timestamp           = result.end_ns;
            record.dispatch_info           = dispatch.info;
            buffer::emplace(buf->buffer,
                            ROCPROFILER_BUFFER_CATEGORY_TRACING,
                            ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH,
                            record);
        }
        deliver_counters(dispatch, p, result);
    }
}

// Delivers the counter records of deferred executions whose values arrived, each with the
// timestamps of its own pass. Values for executions not pending (or delivered twice) are logged
// and dropped.
void
deliver_resolved(const logical_dispatch&               dispatch,
                 replay_counting&                      replay,
                 const std::vector<deferred_counters>& resolved)
{
    auto& pending = replay.pending;
    for(const auto& values : resolved)
    {
        auto itr = std::find_if(pending.begin(),
                                pending.end(),
                                [&values](const auto& entry)
                                { return entry.execution == values.execution; });
        if(itr == pending.end())
        {
            common::log::warn_once("dispatch-counting-unknown-deferred",
                                   "dispatch counting: a backend resolved counter values of an "
                                   "execution that was not deferred; they are dropped");
            continue;
        }
        auto result              = itr->result;
        result.counters_deferred = false;
        result.counters          = values.counters;
        result.counters_error    = values.error;
        for(const auto& p : itr->participants)
            if(!client_gone(p)) deliver_counters(dispatch, p, result);
        pending.erase(itr);
    }
}

// Where the completion of an execution is delivered to the services.
enum class delivery
{
    on_completion_thread, // in the backend's completion, before on_done
    by_caller,            // the caller delivers it (run_execution_sync, on the waiting thread)
};

// Submits one execution: participants, ENQUEUE callbacks, enqueue. on_done runs after the
// completion was delivered to the services (on_completion_thread) or instead of it (by_caller).
std::shared_ptr<execution>
submit_execution(const logical_dispatch&                      dispatch,
                 launch_backend&                              backend,
                 std::function<void(const execution_result&)> on_done,
                 delivery         where  = delivery::on_completion_thread,
                 replay_counting* replay = nullptr)
{
    auto exec          = std::make_shared<execution>();
    exec->dispatch     = &dispatch;
    exec->participants = select_participants(dispatch);

    auto scope = operation_scope{dispatch.internal_id};
    fire_enqueue(dispatch, exec->participants, ROCPROFILER_CALLBACK_PHASE_ENTER);
    // The ENQUEUE EXIT callbacks run after enqueue() returned, so they may race the completion
    // on another thread; each participant's record is independent, so this is safe.
    auto exit_participants = exec->participants;
    auto complete = [exec, where, on_done = std::move(on_done)](const execution_result& result)
    {
        if(where == delivery::on_completion_thread)
        {
            if(result.counters_deferred)
                common::log::warn_once("dispatch-counting-deferred-outside-replay",
                                       "dispatch counting: a backend deferred the counter values "
                                       "of an execution outside kernel replay; they are not "
                                       "reported");
            deliver_completion(*exec->dispatch, exec->participants, result);
        }
        on_done(result);
    };
    if(auto request = make_execution_request(exec->participants))
    {
        if(replay != nullptr)
        {
            request->replayed   = true;
            request->pass       = replay->pass;
            request->pass_count = replay->pass_count;
            request->execution  = replay->next_execution++;
            exec->counted       = request->execution;
        }
        backend.enqueue_counted(std::move(complete), std::move(request));
    }
    else
        backend.enqueue(std::move(complete));
    fire_enqueue(dispatch, exit_participants, ROCPROFILER_CALLBACK_PHASE_EXIT);
    return exec;
}
} // namespace

bool
any_consumer()
{
    if(kernel_replay::is_configured()) return true;
    auto any = false;
    context::for_each(
        [&any](context::context& ctx)
        {
            if(ctx.active.load(std::memory_order_relaxed)) any = true;
        });
    return any;
}

uint64_t
current_ancestor()
{
    return this_thread_operation;
}

uint64_t
dispatch_count()
{
    return ids().dispatch.load();
}

logical_dispatch
make_logical_dispatch(const launch_info& info)
{
    auto result                      = logical_dispatch{};
    result.info.size                 = sizeof(rocprofiler_kernel_dispatch_info_t);
    result.info.agent_id             = info.agent;
    result.info.queue_id             = info.queue;
    result.info.kernel_id            = info.kernel_id;
    result.info.dispatch_id          = ++ids().dispatch;
    result.info.private_segment_size = info.private_segment_size;
    result.info.group_segment_size   = info.group_segment_size;
    result.info.workgroup_size       = info.workgroup_size;
    result.info.grid_size            = info.grid_size;
    result.thread_id                 = common::thread_id();
    result.internal_id               = ++ids().correlation;
    result.ancestor_id               = this_thread_operation;
    result.kernel_name               = info.kernel_name;
    return result;
}

execution_result
run_execution_sync(const logical_dispatch& dispatch,
                   launch_backend&         backend,
                   replay_counting*        replay)
{
    struct waiter
    {
        std::mutex              mutex  = {};
        std::condition_variable cv     = {};
        bool                    done   = false;
        execution_result        result = {};
    };
    auto state = std::make_shared<waiter>();
    auto exec  = submit_execution(
        dispatch,
        backend,
        [state](const execution_result& result)
        {
            auto lock     = std::lock_guard{state->mutex};
            state->result = result;
            state->done   = true;
            state->cv.notify_all();
        },
        delivery::by_caller,
        replay);
    auto result = execution_result{};
    {
        auto lock = std::unique_lock{state->mutex};
        state->cv.wait(lock, [&state] { return state->done; });
        result = state->result;
    }
    // On the waiting (submitting) thread, so that a replay pass's COMPLETE callbacks and buffer
    // records happen on the thread of its PASS callbacks, before PASS EXIT.
    deliver_completion(dispatch, exec->participants, result);
    if(result.counters_deferred)
    {
        if(replay != nullptr && exec->counted)
        {
            auto entry         = replay_counting::pending_execution{};
            entry.execution    = *exec->counted;
            entry.pass         = replay->pass;
            entry.participants = exec->participants;
            entry.result       = result;
            entry.result.resolved.clear(); // delivered below, not kept
            replay->pending.emplace_back(std::move(entry));
        }
        else
            common::log::warn_once("dispatch-counting-deferred-outside-replay",
                                   "dispatch counting: a backend deferred the counter values of "
                                   "an execution outside kernel replay; they are not reported");
    }
    if(replay != nullptr) deliver_resolved(dispatch, *replay, result.resolved);
    return result;
}

void
replay_counting::finish(const logical_dispatch& dispatch, launch_backend& backend)
{
    deliver_resolved(dispatch, *this, backend.finish_counting());
    for(auto& entry : pending)
    {
        auto result              = entry.result;
        result.counters_deferred = false;
        result.counters_error    = "the counter values of pass " + std::to_string(entry.pass) +
                                " never arrived from the backend";
        for(const auto& p : entry.participants)
            if(!client_gone(p)) deliver_counters(dispatch, p, result);
    }
    pending.clear();
}

void
run_execution_async(const logical_dispatch& dispatch, std::shared_ptr<launch_backend> backend)
{
    // The logical dispatch must outlive the completion, which may run after this returns.
    auto  owned = std::make_shared<logical_dispatch>(dispatch);
    auto* raw   = backend.get();
    submit_execution(*owned,
                     *raw,
                     [owned, backend](const execution_result& result)
                     { backend->signal_application(result); });
}

void
intercept(const launch_info& info, std::shared_ptr<launch_backend> backend)
{
    auto dispatch = make_logical_dispatch(info);
    if(kernel_replay::try_replay(dispatch, backend)) return;

    auto guard = kernel_replay::ordinary_dispatch_guard{dispatch.info.agent_id, *backend};
    run_execution_async(dispatch, std::move(backend));
}
} // namespace rocprofiler::dispatch
