#include "dispatch/dispatch.hpp"

#include "common/dcheck.hpp"
#include "common/logging.hpp"
#include "common/static_object.hpp"
#include "common/thread.hpp"
#include "context/context.hpp"
#include "correlation/correlation.hpp"
#include "dispatch/delivery.hpp"
#include "dispatch/device_counting.hpp"
#include "dispatch/interception.hpp"
#include "dispatch/pc_sampling.hpp"
#include "dispatch/spm.hpp"

#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/dispatch_counting_service.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>

namespace rocprofiler::dispatch
{
namespace
{
// The last dispatch id handed out; a test reset restarts it at 1 (correlation ids: correlation/).
struct id_counters
{
    std::atomic<uint64_t> dispatch = 0;
};

id_counters&
ids()
{
    return common::static_object<id_counters, common::reset_order::dispatch_ids>::get();
}

rocprofiler_user_data_t
external_id_for(context::context& ctx, const logical_dispatch& dispatch)
{
    return request_external_id(ctx,
                               dispatch.thread_id,
                               ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH,
                               ROCPROFILER_KERNEL_DISPATCH_ENQUEUE,
                               dispatch.internal_id);
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
    if(!delivery::call_tool(
           ctx,
           "dispatch counting callback",
           [&] { svc.dispatch_callback(data, &chosen, &p.counting_user_data, svc.dispatch_data); }))
        return nullptr;
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
            const auto* cb   = delivery::callback_config(ctx);
            const auto* buf  = delivery::buffer_config(ctx);
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

// The request of an execution that counts nothing outside replay: shared by all of them, so that
// an ordinary traced launch allocates no request.
struct plain_request
{
    std::shared_ptr<const execution_request> value = std::make_shared<const execution_request>();
};

// The request of one execution: the union of the counters every participant's configuration asks
// for, and the pass it is of a replayed dispatch (`pass`, or nullptr).
std::shared_ptr<const execution_request>
make_execution_request(const std::vector<participant>&            participants,
                       const std::vector<device_counting::share>& device,
                       replay_pass*                               pass,
                       std::optional<uint64_t>&                   counted,
                       std::shared_ptr<const pc_sampling_request> sampling,
                       std::shared_ptr<const spm_request>         spm)
{
    auto counts = !device.empty();
    for(const auto& p : participants)
        counts = counts || p.counter_config != nullptr;
    if(!counts && pass == nullptr && !sampling && !spm)
        return common::static_object<plain_request, common::reset_order::never>::get().value;

    // The replay spec keeps dispatch counting and PC sampling off one pass (on AMD GPUs they
    // cannot share one). The host device can run both, so an execution gets both, and the tool is
    // told once that its counter values include the sampler's interrupts.
    if(counts && sampling)
        common::log::warn_once("pc_sampling.with_counters",
                               "PC sampling and dispatch counting run on the same execution: the "
                               "counter values include the cost of taking the samples (PC "
                               "sampling is agent-wide and samples every replay pass; count in a "
                               "run without PC sampling for exact values)");
    auto request         = std::make_shared<execution_request>();
    request->pc_sampling = std::move(sampling);
    request->spm         = std::move(spm);
    for(const auto& p : participants)
    {
        if(!p.counter_config) continue;
        for(const auto* def : p.counter_config->counters)
        {
            auto known = false;
            for(const auto* itr : request->counters)
                known = known || (itr == def);
            if(!known) request->counters.emplace_back(def);
        }
    }
    device_counting::add_counters(device, request->counters);
    if(pass != nullptr)
    {
        request->replayed   = true;
        request->pass       = pass->pass;
        request->pass_count = pass->pass_count;
        if(!request->counters.empty())
        {
            request->execution = pass->next_execution++;
            counted            = request->execution;
        }
    }
    return request;
}

constexpr auto deferred_outside_replay =
    "dispatch counting: a backend deferred the counter values of an execution outside kernel "
    "replay; they are not reported";

// Where the completion of an execution is delivered to the services.
enum class delivery_site
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
                 delivery_site where = delivery_site::on_completion_thread,
                 replay_pass*  pass  = nullptr)
{
    auto exec          = std::make_shared<execution>();
    exec->dispatch     = &dispatch;
    exec->participants = select_participants(dispatch);

    auto scope = correlation::operation_scope{dispatch.internal_id};
    delivery::fire_enqueue(dispatch, exec->participants, ROCPROFILER_CALLBACK_PHASE_ENTER);
    // The ENQUEUE EXIT callbacks run after enqueue() returned, so they may race the completion
    // on another thread; each participant's record is independent, so this is safe.
    auto exit_participants = exec->participants;
    // Agent-wide counting: decided at submit like the participants, whatever the thread's local
    // mask. The values are added before the completion is delivered, so that a tool sampling from
    // its COMPLETE callback sees the dispatch in the sums (docs/api.md, "Device counting").
    auto device = device_counting::shares_of(dispatch);
    auto complete =
        [exec, where, device, on_done = std::move(on_done)](const execution_result& result)
    {
        device_counting::account(device, result);
        if(where == delivery_site::on_completion_thread)
        {
            if(result.counters_deferred)
                common::log::warn_once("dispatch-counting-deferred-outside-replay",
                                       deferred_outside_replay);
            delivery::deliver_completion(*exec->dispatch, exec->participants, result);
        }
        on_done(result);
    };
    // A sampling context that also traces the dispatch already asked for its external id: the
    // samples reuse it rather than asking the tool twice.
    auto external = [&dispatch, &exec](context::context& ctx)
    {
        for(const auto& p : exec->participants)
            if(p.ctx == &ctx) return p.external;
        return external_id_for(ctx, dispatch);
    };
    auto sampling = pc_sampling_request_for(dispatch, external);
    auto spm      = spm_request_for(dispatch, external);
    backend.enqueue(
        std::move(complete),
        make_execution_request(
            exec->participants, device, pass, exec->counted, std::move(sampling), std::move(spm)));
    delivery::fire_enqueue(dispatch, exit_participants, ROCPROFILER_CALLBACK_PHASE_EXIT);
    return exec;
}

// Brackets the submit of an ordinary (not taken) dispatch with the interceptor's begin/end.
class ordinary_scope
{
public:
    ordinary_scope(dispatch_interceptor&   interceptor,
                   const logical_dispatch& dispatch,
                   const launch_backend&   backend)
        : m_interceptor{interceptor}
        , m_hold{interceptor.begin_ordinary(dispatch, backend)}
    {
    }
    ~ordinary_scope() { m_interceptor.end_ordinary(m_hold); }

    ordinary_scope(const ordinary_scope&)            = delete;
    ordinary_scope& operator=(const ordinary_scope&) = delete;

private:
    dispatch_interceptor& m_interceptor;
    ordinary_hold         m_hold;
};
} // namespace

bool
any_consumer()
{
    if(interception_active()) return true;
    auto any = false;
    context::for_each(
        [&any](context::context& ctx)
        {
            if(ctx.active.load(std::memory_order_relaxed)) any = true;
        });
    return any;
}

uint64_t
dispatch_count()
{
    return ids().dispatch.load();
}

rocprofiler_user_data_t
request_external_id(context::context&                                  ctx,
                    uint64_t                                           thread_id,
                    rocprofiler_external_correlation_id_request_kind_t kind,
                    int32_t                                            operation,
                    uint64_t                                           internal_id)
{
    if(const auto* svc = ctx.correlation_request.get();
       svc != nullptr && svc->callback != nullptr && (svc->kinds.none() || svc->kinds.test(kind)))
    {
        auto value = rocprofiler_user_data_t{.value = 0};
        auto rc    = -1;
        delivery::call_tool(ctx,
                            "external correlation id request callback",
                            [&]
                            {
                                rc = svc->callback(thread_id,
                                                   rocprofiler_context_id_t{ctx.id},
                                                   kind,
                                                   operation,
                                                   internal_id,
                                                   &value,
                                                   svc->data);
                            });
        if(rc == 0) return value;
    }
    return ctx.external_ids.top(thread_id);
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
    result.internal_id               = correlation::next_id();
    result.ancestor_id               = correlation::current_ancestor();
    result.kernel_name               = info.kernel_name;
    result.arguments                 = info.arguments;
    return result;
}

late_execution::late_execution(const logical_dispatch&  dispatch,
                               std::vector<participant> participants)
    : m_dispatch{dispatch}
    , m_participants{std::move(participants)}
{
}

void
late_execution::hand_off(std::function<void(const execution_result&)> then)
{
    auto lock = std::unique_lock{m_mutex};
    ROCP_DCHECK(!m_handed_off, "a late execution is handed off once");
    m_then       = std::move(then);
    m_handed_off = true;
    if(m_result) finish(lock);
}

void
late_execution::complete(const execution_result& result)
{
    auto lock = std::unique_lock{m_mutex};
    ROCP_DCHECK(!m_result, "a late execution completes once");
    m_result = result;
    if(m_handed_off) finish(lock);
}

void
late_execution::finish(std::unique_lock<std::mutex>& lock)
{
    auto result = std::move(*m_result);
    auto then   = std::move(m_then);
    lock.unlock();
    delivery::deliver_completion(m_dispatch, m_participants, result);
    if(then) then(result);
}

sync_outcome
run_execution_sync(const logical_dispatch& dispatch, launch_backend& backend, replay_pass* pass)
{
    struct waiter
    {
        std::mutex                      mutex  = {};
        std::condition_variable         cv     = {};
        bool                            done   = false;
        execution_result                result = {};
        std::shared_ptr<late_execution> late   = {}; // set when the caller stopped waiting
    };
    // The bound counts from the submit: a backend whose enqueue waits for the pass itself (CUDA)
    // returns after at most the same bound.
    const auto timeout  = pass != nullptr ? pass->timeout_ns : uint64_t{0};
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds{timeout};
    auto       state    = std::make_shared<waiter>();
    auto       exec     = submit_execution(
        dispatch,
        backend,
        [state](const execution_result& result)
        {
            auto lock = std::unique_lock{state->mutex};
            if(state->late)
            {
                auto late = state->late;
                lock.unlock();
                late->complete(result);
                return;
            }
            state->result = result;
            state->done   = true;
            state->cv.notify_all();
        },
        delivery_site::by_caller,
        pass);
    auto out = sync_outcome{};
    {
        auto       lock = std::unique_lock{state->mutex};
        const auto done = [&state] { return state->done; };
        if(timeout == 0)
            state->cv.wait(lock, done);
        else if(!state->cv.wait_until(lock, deadline, done))
        {
            state->late   = std::make_shared<late_execution>(dispatch, exec->participants);
            out.late      = state->late;
            out.result.ok = false;
            out.result.error =
                "the execution did not finish within " + std::to_string(timeout / 1000000) + " ms";
            out.participants = exec->participants;
            out.counted      = exec->counted;
            return out;
        }
        out.result = state->result;
    }
    // On the waiting (submitting) thread, so that a replay pass's COMPLETE callbacks and buffer
    // records happen on the thread of its PASS callbacks, before PASS EXIT.
    delivery::deliver_completion(dispatch, exec->participants, out.result);
    if(out.result.counters_deferred && !(pass != nullptr && exec->counted))
        common::log::warn_once("dispatch-counting-deferred-outside-replay",
                               deferred_outside_replay);
    out.participants = std::move(exec->participants);
    out.counted      = exec->counted;
    return out;
}

void
deliver_counters(const logical_dispatch&         dispatch,
                 const std::vector<participant>& participants,
                 const execution_result&         result)
{
    for(const auto& p : participants)
        if(!delivery::client_gone(p)) delivery::deliver_participant_counters(dispatch, p, result);
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
                     { backend->signal_once(result); });
}

uint64_t
deliver_observed(const observed_dispatch& observed)
{
    // Tracing only: an observed dispatch ran before anyone could count it, so no context's
    // counting callback is asked about it.
    auto participants = std::vector<participant>{};
    context::for_each(
        [&](context::context& ctx)
        {
            if(!context::is_active_for_this_thread(ctx)) return;
            const auto* cb   = delivery::callback_config(ctx);
            const auto* buf  = delivery::buffer_config(ctx);
            auto        p    = participant{};
            p.ctx            = &ctx;
            p.callback_trace = cb != nullptr && cb->covers(ROCPROFILER_KERNEL_DISPATCH_COMPLETE);
            p.buffer_trace   = buf != nullptr && buf->covers(ROCPROFILER_KERNEL_DISPATCH_COMPLETE);
            if(p.callback_trace || p.buffer_trace) participants.emplace_back(p);
        });
    if(participants.empty()) return 0;
    // The launch's correlation id, not one of its own: the graph launch reserved it.
    auto dispatch                      = logical_dispatch{};
    dispatch.info.size                 = sizeof(rocprofiler_kernel_dispatch_info_t);
    dispatch.info.agent_id             = observed.info.agent;
    dispatch.info.queue_id             = observed.info.queue;
    dispatch.info.kernel_id            = observed.info.kernel_id;
    dispatch.info.dispatch_id          = ++ids().dispatch;
    dispatch.info.private_segment_size = observed.info.private_segment_size;
    dispatch.info.group_segment_size   = observed.info.group_segment_size;
    dispatch.info.workgroup_size       = observed.info.workgroup_size;
    dispatch.info.grid_size            = observed.info.grid_size;
    dispatch.kernel_name               = observed.info.kernel_name;
    if(observed.graph) set_graph_node(dispatch.info, *observed.graph);
    dispatch.thread_id   = observed.thread_id;
    dispatch.internal_id = observed.internal_id;
    dispatch.ancestor_id = observed.ancestor_id;
    for(auto& p : participants)
        p.external = external_id_for(*p.ctx, dispatch);
    auto result     = execution_result{};
    result.start_ns = observed.start_ns;
    result.end_ns   = observed.end_ns;
    delivery::deliver_completion(dispatch, participants, result);
    return dispatch.info.dispatch_id;
}

void
intercept(const launch_info& info, std::shared_ptr<launch_backend> backend)
{
    auto  dispatch    = make_logical_dispatch(info);
    auto* interceptor = installed_interceptor();
    if(interceptor == nullptr)
    {
        run_execution_async(dispatch, std::move(backend));
        return;
    }
    if(interceptor->take(dispatch, backend)) return;

    auto scope = ordinary_scope{*interceptor, dispatch, *backend};
    run_execution_async(dispatch, std::move(backend));
}
} // namespace rocprofiler::dispatch
