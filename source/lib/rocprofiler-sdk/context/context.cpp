#include "context/context.hpp"

#include "common/static_object.hpp"

#include <array>
#include <atomic>
#include <mutex>

namespace rocprofiler::context
{
namespace
{
// Append-only: a slot, once written, never changes. Readers need no lock.
constexpr size_t max_contexts = 256;

// Used at exit, so never destroyed then (common/static_object.hpp); a test reset destroys it with
// its contexts.
struct registry
{
    registry() = default;
    ~registry()
    {
        for(auto& slot : slots)
            delete slot.load();
    }
    registry(const registry&)            = delete;
    registry& operator=(const registry&) = delete;

    std::mutex                                      create_mutex = {};
    std::atomic<size_t>                             size         = 0;
    std::array<std::atomic<context*>, max_contexts> slots        = {};
};

registry&
get_registry()
{
    return common::static_object<registry, common::reset_order::contexts>::get();
}
} // namespace

void
external_correlation_stacks::push(uint64_t tid, rocprofiler_user_data_t value)
{
    auto lock = std::lock_guard{m_mutex};
    m_stacks[tid].emplace_back(value);
}

bool
external_correlation_stacks::pop(uint64_t tid, rocprofiler_user_data_t* value)
{
    auto lock = std::lock_guard{m_mutex};
    auto itr  = m_stacks.find(tid);
    if(itr == m_stacks.end() || itr->second.empty()) return false;
    if(value != nullptr) *value = itr->second.back();
    itr->second.pop_back();
    return true;
}

rocprofiler_user_data_t
external_correlation_stacks::top(uint64_t tid) const
{
    auto lock = std::lock_guard{m_mutex};
    auto itr  = m_stacks.find(tid);
    if(itr == m_stacks.end() || itr->second.empty()) return rocprofiler_user_data_t{.value = 0};
    return itr->second.back();
}

bool
context::has_any_service() const
{
    return callback_tracer != nullptr || buffered_tracer != nullptr ||
           correlation_request != nullptr || dispatch_counter != nullptr ||
           device_counter != nullptr || !pc_sampling.empty() || spm != nullptr;
}

context*
create(uint32_t client)
{
    auto& reg  = get_registry();
    auto  lock = std::lock_guard{reg.create_mutex};
    auto  n    = reg.size.load();
    if(n >= max_contexts) return nullptr;
    auto* ctx   = new context{};
    ctx->id     = n + 1;
    ctx->client = client;
    reg.slots[n].store(ctx, std::memory_order_release);
    reg.size.store(n + 1, std::memory_order_release);
    return ctx;
}

context*
get(rocprofiler_context_id_t id)
{
    auto& reg = get_registry();
    if(id.handle == 0 || id.handle > reg.size.load(std::memory_order_acquire)) return nullptr;
    return reg.slots[id.handle - 1].load(std::memory_order_acquire);
}

size_t
count()
{
    return get_registry().size.load(std::memory_order_acquire);
}

context*
at(size_t index)
{
    auto& reg = get_registry();
    if(index >= reg.size.load(std::memory_order_acquire)) return nullptr;
    return reg.slots[index].load(std::memory_order_acquire);
}

rocprofiler_status_t
start(context& ctx, bool* newly_started)
{
    if(ctx.disabled || !ctx.has_any_service()) return ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID;
    // A tool that restarts a context its throwing callback had stopped gets its records again.
    ctx.tool_threw.store(false, std::memory_order_release);
    const auto was_active = ctx.active.exchange(true, std::memory_order_acq_rel);
    if(newly_started != nullptr) *newly_started = !was_active;
    return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t
stop(rocprofiler_context_id_t id)
{
    auto* ctx = get(id);
    if(ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    ctx->active.store(false, std::memory_order_release);
    return ROCPROFILER_STATUS_SUCCESS;
}

void
stop_all()
{
    for_each([](context& ctx) { ctx.active.store(false, std::memory_order_release); });
}

const local_override*&
thread_local_override()
{
    static thread_local const local_override* value = nullptr;
    return value;
}

bool
is_active_for_this_thread(const context& ctx)
{
    if(const auto* local = thread_local_override(); local != nullptr)
    {
        auto index = ctx.id - 1;
        if(index < local->state.size() && local->state[index].has_value())
            return *local->state[index];
    }
    return ctx.active.load(std::memory_order_acquire);
}
} // namespace rocprofiler::context
