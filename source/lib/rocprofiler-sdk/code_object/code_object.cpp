#include "code_object/code_object.hpp"

#include "common/static_object.hpp"
#include "common/thread.hpp"

#include <rocprofiler-sdk/callback_tracing.h>

#include <deque>
#include <map>
#include <mutex>

namespace rocprofiler::code_object
{
namespace
{
struct entry
{
    kernel_symbol symbol = {};
    uint64_t      id     = 0; // code object id
};

struct registry
{
    // Deliveries are serialized with registrations, so a starting context sees every symbol
    // exactly once: either in its start-up replay or as a new registration.
    std::recursive_mutex                                  mutex     = {};
    std::deque<entry>                                     entries   = {}; // stable addresses
    std::map<std::pair<uint64_t, uint64_t>, const entry*> by_kernel = {};
    uint64_t                                              next_id   = 1;
};

// Kernel symbols are facts of the process (the runtime registered those kernels): names are read
// at exit, and a test reset keeps them.
registry&
get_registry()
{
    return common::static_object<registry, common::reset_order::never>::get();
}

void
deliver(context::context& ctx, const entry& e)
{
    if(!ctx.callback_tracer) return;
    const auto& cfg = ctx.callback_tracer->kinds[ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT];
    if(!cfg.has_value()) return;

    auto record                    = rocprofiler_callback_tracing_record_t{};
    record.context_id              = rocprofiler_context_id_t{ctx.id};
    record.thread_id               = common::thread_id();
    record.correlation_id.internal = 0;
    record.kind                    = ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT;
    record.phase                   = ROCPROFILER_CALLBACK_PHASE_LOAD;

    if(cfg->covers(ROCPROFILER_CODE_OBJECT_LOAD))
    {
        auto payload           = rocprofiler_callback_tracing_code_object_load_data_t{};
        payload.size           = sizeof(payload);
        payload.code_object_id = e.id;
        payload.rocp_agent     = e.symbol.agent;
        payload.hsa_agent      = hsa_agent_t{0}; // no agent of this SDK is an HSA agent
        payload.uri            = e.symbol.uri.c_str();
        payload.storage_type   = e.symbol.storage_type;
        if(e.symbol.storage_type == ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_MEMORY)
        {
            payload.memory_base = e.symbol.memory_base;
            payload.memory_size = e.symbol.memory_size;
        }
        record.operation = ROCPROFILER_CODE_OBJECT_LOAD;
        record.payload   = &payload;
        auto user_data   = rocprofiler_user_data_t{.value = 0};
        cfg->callback(record, &user_data, cfg->data);
    }
    if(cfg->covers(ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER))
    {
        auto payload = rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t{};
        payload.size = sizeof(payload);
        payload.kernel_id                     = e.symbol.kernel_id;
        payload.code_object_id                = e.id;
        payload.kernel_name                   = e.symbol.name.c_str();
        payload.kernel_object                 = e.symbol.kernel_object;
        payload.kernarg_segment_size          = e.symbol.kernarg_size;
        payload.kernarg_segment_alignment     = e.symbol.kernarg_alignment;
        payload.group_segment_size            = e.symbol.group_segment_size;
        payload.private_segment_size          = e.symbol.private_segment_size;
        payload.arch_vgpr_count               = e.symbol.registers;
        payload.kernel_code_entry_byte_offset = 0; // no AMD kernel descriptor here
        payload.kernel_address.handle         = e.symbol.kernel_address;
        record.operation = ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER;
        record.payload   = &payload;
        auto user_data   = rocprofiler_user_data_t{.value = 0};
        cfg->callback(record, &user_data, cfg->data);
    }
}
} // namespace

void
register_kernel(kernel_symbol symbol)
{
    auto& reg  = get_registry();
    auto  lock = std::lock_guard{reg.mutex};
    auto  key  = std::make_pair(symbol.agent.handle, symbol.kernel_id);
    if(reg.by_kernel.count(key) != 0) return;
    auto& e  = reg.entries.emplace_back();
    e.id     = symbol.code_object_id != 0 ? symbol.code_object_id : reg.next_id++;
    e.symbol = std::move(symbol);
    reg.by_kernel.emplace(key, &e);
    context::for_each(
        [&e](context::context& ctx)
        {
            if(ctx.active.load(std::memory_order_acquire)) deliver(ctx, e);
        });
}

const char*
kernel_name(rocprofiler_agent_id_t agent, rocprofiler_kernel_id_t kernel_id)
{
    auto& reg  = get_registry();
    auto  lock = std::lock_guard{reg.mutex};
    auto  itr  = reg.by_kernel.find(std::make_pair(agent.handle, kernel_id));
    return itr != reg.by_kernel.end() ? itr->second->symbol.name.c_str() : nullptr;
}

uint64_t
code_object_of(rocprofiler_agent_id_t agent, rocprofiler_kernel_id_t kernel_id)
{
    auto& reg  = get_registry();
    auto  lock = std::lock_guard{reg.mutex};
    auto  itr  = reg.by_kernel.find(std::make_pair(agent.handle, kernel_id));
    return itr != reg.by_kernel.end() ? itr->second->id : 0;
}

void
on_context_start(context::context& ctx)
{
    auto& reg  = get_registry();
    auto  lock = std::lock_guard{reg.mutex};
    for(const auto& e : reg.entries)
        deliver(ctx, e);
}
} // namespace rocprofiler::code_object
