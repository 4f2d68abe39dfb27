#include "dispatch/device_counting.hpp"

#include "buffer/buffer.hpp"
#include "common/dcheck.hpp"
#include "common/guard.hpp"
#include "common/logging.hpp"
#include "common/static_object.hpp"
#include "dispatch/delivery.hpp"

#include <rocprofiler-sdk/buffer.h>
#include <rocprofiler-sdk/device_counting_service.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace rocprofiler::dispatch::device_counting
{
// What one agent of a window counts, and its sums so far. `config` and `agent`, `buffer` are fixed
// before the window is published; the rest is guarded by the window's mutex.
struct agent_window
{
    rocprofiler_agent_id_t                  agent      = {};
    rocprofiler_buffer_id_t                 buffer     = {};
    std::shared_ptr<const counters::config> config     = {}; // null: the tool chose none
    std::vector<double>                     sums       = {}; // one per config->counters
    uint64_t                                counted    = 0;  // executions whose values were added
    uint64_t                                unmeasured = 0;  // executions that could not be
    uint64_t                                reported   = 0;  // unmeasured ones already warned of
    std::string                             last_error = {};
};

struct window
{
    context::context*         ctx    = nullptr;
    std::mutex                mutex  = {};
    std::vector<agent_window> agents = {};
};

rocprofiler_status_t
check_countable(const counters::config& cfg)
{
    if(const auto* bad = counters::first_non_additive(cfg); bad != nullptr)
    {
        ROCP_LOG(warning) << "device counting: counter " << bad->spec.name
                          << " describes one execution and does not add up over the agent's "
                             "executions; a configuration that measures it cannot be counted "
                             "agent-wide (use dispatch counting for it)";
        return ROCPROFILER_STATUS_ERROR_METRIC_NOT_VALID_FOR_AGENT;
    }
    // Each execution is measured once, as it runs: a configuration the hardware collects only
    // over several passes of one dispatch (NVIDIA GPUs: throughputs, hit rates) would leave every
    // execution unmeasured.
    if(cfg.passes > 1)
    {
        ROCP_LOG(warning) << "device counting: the configuration needs " << cfg.passes
                          << " passes of each execution; agent-wide counting measures an "
                             "execution once (choose counters of one pass)";
        return ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT;
    }
    return ROCPROFILER_STATUS_SUCCESS;
}

namespace
{
// The current window of each context that has started with device counting. A test reset clears
// it with the contexts.
struct registry
{
    std::mutex                                            mutex   = {};
    std::unordered_map<uint64_t, std::shared_ptr<window>> windows = {}; // by context handle
    std::atomic<size_t>                                   size    = 0;  // windows.size()
};

registry&
get_registry()
{
    return common::static_object<registry, common::reset_order::contexts>::get();
}

// The window begin() is building on this thread: set_config may be called only while it runs.
thread_local window* building = nullptr;

rocprofiler_status_t
set_config(rocprofiler_context_id_t context_id, rocprofiler_counter_config_id_t config_id)
{
    try
    {
        auto* ctx = context::get(context_id);
        if(ctx == nullptr || !ctx->device_counter) return ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID;
        auto* target = building;
        if(target == nullptr || target->ctx != ctx)
            return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
        auto cfg = counters::get_config(config_id);
        if(!cfg) return ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND;
        auto itr = std::find_if(target->agents.begin(),
                                target->agents.end(),
                                [&cfg](const agent_window& a)
                                { return a.agent.handle == cfg->agent.handle; });
        if(itr == target->agents.end()) return ROCPROFILER_STATUS_ERROR_AGENT_MISMATCH;
        if(auto status = check_countable(*cfg); status != ROCPROFILER_STATUS_SUCCESS) return status;
        itr->config = std::move(cfg);
        itr->sums.assign(itr->config->counters.size(), 0.0);
        return ROCPROFILER_STATUS_SUCCESS;
    }
    catch(...)
    {
        return common::report_current_exception("device counting set_config") ==
                       common::caught::out_of_memory
                   ? ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES
                   : ROCPROFILER_STATUS_ERROR;
    }
}

// Restores the thread's building window when begin() leaves, however it leaves (a tool may start
// another context from inside its callback).
class building_scope
{
public:
    explicit building_scope(window* value)
        : m_previous{building}
    {
        building = value;
    }
    ~building_scope() { building = m_previous; }

    building_scope(const building_scope&)            = delete;
    building_scope& operator=(const building_scope&) = delete;

private:
    window* m_previous;
};

std::shared_ptr<window>
window_of(const context::context& ctx)
{
    auto& reg  = get_registry();
    auto  lock = std::lock_guard{reg.mutex};
    auto  itr  = reg.windows.find(ctx.id);
    return itr != reg.windows.end() ? itr->second : nullptr;
}

// Says once per new batch that some executions are missing from the sums.
void
report_unmeasured(const context::context& ctx, agent_window& a)
{
    if(a.unmeasured == a.reported) return;
    ROCP_LOG(warning) << "device counting: context " << ctx.id << ", agent " << a.agent.handle
                      << ": " << a.unmeasured
                      << " execution(s) since the context started could not be measured ("
                      << a.last_error << "); the sampled values leave them out";
    a.reported = a.unmeasured;
}
} // namespace

rocprofiler_status_t
begin(context::context& ctx)
{
    auto fresh = std::make_shared<window>();
    fresh->ctx = &ctx;
    for(const auto& a : ctx.device_counter->agents)
    {
        auto entry   = agent_window{};
        entry.agent  = a.agent;
        entry.buffer = a.buffer;
        fresh->agents.emplace_back(std::move(entry));
    }
    {
        auto scope = building_scope{fresh.get()};
        for(const auto& a : ctx.device_counter->agents)
            if(!delivery::call_tool(
                   ctx,
                   "device counting callback",
                   [&]
                   { a.callback(rocprofiler_context_id_t{ctx.id}, a.agent, set_config, a.data); }))
                return ROCPROFILER_STATUS_ERROR_CONTEXT_ERROR;
    }
    auto& reg           = get_registry();
    auto  lock          = std::lock_guard{reg.mutex};
    reg.windows[ctx.id] = std::move(fresh);
    reg.size.store(reg.windows.size(), std::memory_order_release);
    return ROCPROFILER_STATUS_SUCCESS;
}

std::vector<share>
shares_of(const logical_dispatch& dispatch)
{
    auto  out = std::vector<share>{};
    auto& reg = get_registry();
    if(reg.size.load(std::memory_order_acquire) == 0) return out;
    auto lock = std::lock_guard{reg.mutex};
    for(const auto& [id, counting] : reg.windows)
    {
        // Global state only: agent-wide services ignore the replay engine's local mask.
        const auto* ctx = counting->ctx;
        if(!ctx->active.load(std::memory_order_acquire) ||
           ctx->tool_threw.load(std::memory_order_acquire))
            continue;
        for(size_t i = 0; i < counting->agents.size(); ++i)
            if(counting->agents[i].agent.handle == dispatch.info.agent_id.handle &&
               counting->agents[i].config)
                out.emplace_back(share{counting, i});
    }
    return out;
}

void
add_counters(const std::vector<share>&                         shares,
             std::vector<const counters::counter_definition*>& out)
{
    for(const auto& s : shares)
        for(const auto* def : s.counting->agents[s.agent_index].config->counters)
            if(std::find(out.begin(), out.end(), def) == out.end()) out.emplace_back(def);
}

void
account(const std::vector<share>& shares, const execution_result& result)
{
    for(const auto& s : shares)
    {
        auto  lock = std::lock_guard{s.counting->mutex};
        auto& a    = s.counting->agents[s.agent_index];
        auto  why  = std::string{};
        if(!result.ok)
            why = "the execution failed: " + result.error;
        else if(!result.counters_error.empty())
            why = result.counters_error;
        else if(result.counters_deferred)
            why = "the backend deferred the values";
        auto values = std::vector<double>{};
        if(why.empty())
        {
            values.reserve(a.config->counters.size());
            for(const auto* def : a.config->counters)
            {
                auto itr = std::find_if(result.counters.begin(),
                                        result.counters.end(),
                                        [def](const counter_value& v)
                                        { return v.id.handle == def->id.handle; });
                if(itr == result.counters.end())
                {
                    why = "the backend did not measure " + def->spec.name;
                    break;
                }
                values.emplace_back(itr->value);
            }
        }
        if(!why.empty())
        {
            ++a.unmeasured;
            a.last_error = std::move(why);
            continue;
        }
        for(size_t i = 0; i < values.size(); ++i)
            a.sums[i] += values[i];
        ++a.counted;
    }
}

rocprofiler_status_t
sample(const context::context&       ctx,
       rocprofiler_user_data_t       user_data,
       rocprofiler_counter_record_t* output,
       size_t*                       count)
{
    // Per agent: its buffer and its records, in configuration order.
    auto groups = std::vector<
        std::pair<rocprofiler_buffer_id_t, std::vector<rocprofiler_counter_record_t>>>{};
    if(auto counting = window_of(ctx))
    {
        auto lock = std::lock_guard{counting->mutex};
        for(auto& a : counting->agents)
        {
            if(!a.config) continue; // the tool chose nothing for this agent
            report_unmeasured(ctx, a);
            auto measured = [&a](const counters::counter_definition& def) -> std::optional<double>
            {
                const auto& bases = a.config->counters;
                auto        itr   = std::find(bases.begin(), bases.end(), &def);
                if(itr == bases.end()) return std::nullopt;
                return a.sums[static_cast<size_t>(itr - bases.begin())];
            };
            auto records = std::vector<rocprofiler_counter_record_t>{};
            for(const auto* def : a.config->reported)
            {
                // A configuration measures every base counter its reported ones reach
                // (counters::create_config), and each has a sum: value_of cannot miss one.
                auto value = counters::value_of(*def, measured);
                ROCP_DCHECK(value.has_value(), "every base counter of a configuration has a sum");
                if(!value) continue;
                auto record          = rocprofiler_counter_record_t{};
                record.id            = counters::instance_id(def->id);
                record.counter_value = *value;
                record.dispatch_id   = 0; // agent-wide: no dispatch
                record.user_data     = user_data;
                record.agent_id      = a.agent;
                records.emplace_back(record);
            }
            groups.emplace_back(a.buffer, std::move(records));
        }
    }
    auto total = size_t{0};
    for(const auto& [buffer, records] : groups)
        total += records.size();

    // Every check before the first record is written anywhere: a refused call has no effect.
    if(output != nullptr && (*count == 0 || total > *count))
    {
        *count = total;
        return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    for(const auto& [buffer, records] : groups)
        if(buffer.handle != 0 && !buffer::exists(buffer))
            return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;

    if(output != nullptr)
    {
        auto* next = output;
        for(const auto& [buffer, records] : groups)
            next = std::copy(records.begin(), records.end(), next);
        *count = total;
    }
    for(const auto& [buffer, records] : groups)
    {
        if(buffer.handle == 0) continue;
        for(const auto& record : records)
            buffer::emplace(buffer,
                            ROCPROFILER_BUFFER_CATEGORY_COUNTERS,
                            ROCPROFILER_COUNTER_RECORD_VALUE,
                            record);
    }
    return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t
coverage(const context::context& ctx,
         rocprofiler_agent_id_t  agent,
         uint64_t&               counted,
         uint64_t&               unmeasured)
{
    const auto& configured = ctx.device_counter->agents;
    if(std::none_of(configured.begin(),
                    configured.end(),
                    [agent](const auto& c) { return c.agent.handle == agent.handle; }))
        return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
    auto counting = window_of(ctx);
    if(!counting) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_STARTED;
    auto lock  = std::lock_guard{counting->mutex};
    counted    = 0;
    unmeasured = 0;
    for(const auto& a : counting->agents)
    {
        if(a.agent.handle != agent.handle) continue;
        counted    = a.counted;
        unmeasured = a.unmeasured;
    }
    return ROCPROFILER_STATUS_SUCCESS;
}
} // namespace rocprofiler::dispatch::device_counting
