// C entry points of counters.h, counter_config.h, experimental/counter_passes.h,
// dispatch_counting_service.h and device_counting_service.h. Agents without counter support answer
// NOT_IMPLEMENTED, never a made-up value.
#include "counters/counters.hpp"
#include "agent/agent.hpp"
#include "buffer/buffer.hpp"
#include "common/api_guard.hpp"
#include "common/logging.hpp"
#include "common/static_object.hpp"
#include "context/context.hpp"
#include "dispatch/device_counting.hpp"
#include "registration/registration.hpp"

#include <rocprofiler-sdk/counter_config.h>
#include <rocprofiler-sdk/counters.h>
#include <rocprofiler-sdk/device_counting_service.h>
#include <rocprofiler-sdk/dispatch_counting_service.h>
#include <rocprofiler-sdk/experimental/counter_passes.h>
#include <rocprofiler-sdk/experimental/counters.h>
#include <rocprofiler-sdk/experimental/device_counting.h>

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace rp = rocprofiler;

namespace
{
// Every counter here has one dimension of one instance (its value per dispatch or per sample),
// as AMD's single-instance counters do: tools read `*info.dimensions` and walk the instances.
constexpr rocprofiler_counter_dimension_id_t instance_dimension_id   = 0;
constexpr const char*                        instance_dimension_name = "DIMENSION_INSTANCE";

struct counter_dimensions
{
    rocprofiler_counter_record_dimension_info_t                 dimension      = {};
    const rocprofiler_counter_record_dimension_info_t*          dimension_list = nullptr;
    rocprofiler_counter_dimension_info_t                        position       = {};
    const rocprofiler_counter_dimension_info_t*                 position_list  = nullptr;
    rocprofiler_counter_record_dimension_instance_info_t        instance       = {};
    const rocprofiler_counter_record_dimension_instance_info_t* instance_list  = nullptr;
};

// The tables of a counter, made on first query; the pointers handed out stay valid for the
// life of the process (counter info strings are static too). Any thread.
counter_dimensions&
dimensions_of(rocprofiler_counter_id_t counter)
{
    // Facts of the process (the pointers handed out stay valid): kept by a test reset.
    struct dimension_tables
    {
        std::mutex                                                        mutex  = {};
        std::unordered_map<uint64_t, std::unique_ptr<counter_dimensions>> tables = {};
    };
    auto& state =
        rocprofiler::common::static_object<dimension_tables,
                                           rocprofiler::common::reset_order::never>::get();
    auto  lock = std::lock_guard{state.mutex};
    auto& slot = state.tables[counter.handle];
    if(!slot)
    {
        slot                          = std::make_unique<counter_dimensions>();
        slot->dimension.name          = instance_dimension_name;
        slot->dimension.instance_size = 1;
        slot->dimension.id            = instance_dimension_id;
        slot->dimension_list          = &slot->dimension;
        slot->position.size           = sizeof(rocprofiler_counter_dimension_info_t);
        slot->position.dimension_name = instance_dimension_name;
        slot->position.index          = 0;
        slot->position_list           = &slot->position;
        slot->instance.size        = sizeof(rocprofiler_counter_record_dimension_instance_info_t);
        slot->instance.instance_id = rp::counters::instance_id(counter);
        slot->instance.counter_id  = counter.handle;
        slot->instance.dimensions_count = 1;
        slot->instance.dimensions       = &slot->position_list;
        slot->instance_list             = &slot->instance;
    }
    return *slot;
}
} // namespace

extern "C"
{
    rocprofiler_status_t rocprofiler_iterate_agent_supported_counters(
        rocprofiler_agent_id_t agent_id, rocprofiler_available_counters_cb_t cb, void* user_data)
    {
        ROCP_API_GUARD_BEGIN
        if(cb == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        if(rp::agent::find(agent_id) == nullptr) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
        const auto* defs = rp::counters::counters_of(agent_id);
        if(defs == nullptr) return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
        auto ids = std::vector<rocprofiler_counter_id_t>{};
        ids.reserve(defs->size());
        for(const auto* def : *defs)
            ids.emplace_back(def->id);
        return cb(agent_id, ids.data(), ids.size(), user_data);
        ROCP_API_GUARD_END("rocprofiler_iterate_agent_supported_counters")
    }

    rocprofiler_status_t
    rocprofiler_query_counter_info(rocprofiler_counter_id_t              counter_id,
                                   rocprofiler_counter_info_version_id_t version,
                                   void*                                 info)
    {
        ROCP_API_GUARD_BEGIN
        if(info == nullptr || version <= ROCPROFILER_COUNTER_INFO_VERSION_NONE ||
           version >= ROCPROFILER_COUNTER_INFO_VERSION_LAST)
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        const auto* def = rp::counters::find(counter_id);
        if(def == nullptr) return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
        if(version == ROCPROFILER_COUNTER_INFO_VERSION_0)
        {
            auto* out        = static_cast<rocprofiler_counter_info_v0_t*>(info);
            *out             = rocprofiler_counter_info_v0_t{};
            out->id          = def->id;
            out->name        = def->spec.name.c_str();
            out->description = def->spec.description.c_str();
            out->block       = def->spec.block.c_str();
            out->expression  = def->spec.expression.c_str();
            out->is_constant = def->spec.is_constant ? 1 : 0;
            out->is_derived  = def->spec.is_derived ? 1 : 0;
            return ROCPROFILER_STATUS_SUCCESS;
        }
        auto* out                       = static_cast<rocprofiler_counter_info_v1_t*>(info);
        *out                            = rocprofiler_counter_info_v1_t{};
        out->size                       = sizeof(rocprofiler_counter_info_v1_t);
        out->id                         = def->id;
        out->name                       = def->spec.name.c_str();
        out->description                = def->spec.description.c_str();
        out->block                      = def->spec.block.c_str();
        out->expression                 = def->spec.expression.c_str();
        out->is_constant                = def->spec.is_constant ? 1 : 0;
        out->is_derived                 = def->spec.is_derived ? 1 : 0;
        auto& dims                      = dimensions_of(def->id);
        out->dimensions_count           = 1;
        out->dimensions                 = &dims.dimension_list;
        out->dimensions_instances_count = 1;
        out->dimensions_instances       = &dims.instance_list;
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_query_counter_info")
    }

    rocprofiler_status_t rocprofiler_query_record_counter_id(rocprofiler_counter_instance_id_t id,
                                                             rocprofiler_counter_id_t* counter_id)
    {
        if(counter_id == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        auto candidate = rocprofiler_counter_id_t{id};
        if(rp::counters::find(candidate) == nullptr)
            return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
        *counter_id = candidate;
        return ROCPROFILER_STATUS_SUCCESS;
    }

    rocprofiler_status_t rocprofiler_query_record_dimension_position(
        rocprofiler_counter_instance_id_t id, rocprofiler_counter_dimension_id_t dim, size_t* pos)
    {
        if(pos == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        if(rp::counters::find(rocprofiler_counter_id_t{id}) == nullptr)
            return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
        if(dim != instance_dimension_id) return ROCPROFILER_STATUS_ERROR_DIM_NOT_FOUND;
        *pos = 0; // one instance: position 0 along the one dimension
        return ROCPROFILER_STATUS_SUCCESS;
    }

    rocprofiler_status_t
    rocprofiler_create_counter_config(rocprofiler_agent_id_t           agent_id,
                                      rocprofiler_counter_id_t*        counters_list,
                                      size_t                           counters_count,
                                      rocprofiler_counter_config_id_t* config_id)
    {
        ROCP_API_GUARD_BEGIN
        if(counters_list == nullptr || counters_count == 0 || config_id == nullptr)
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        return rp::counters::create_config(agent_id, counters_list, counters_count, config_id);
        ROCP_API_GUARD_END("rocprofiler_create_counter_config")
    }

    rocprofiler_status_t
    rocprofiler_query_counter_config_pass_count(rocprofiler_counter_config_id_t config_id,
                                                uint64_t*                       pass_count)
    {
        ROCP_API_GUARD_BEGIN
        if(pass_count == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        auto cfg = rp::counters::get_config(config_id);
        if(!cfg) return ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND;
        *pass_count = cfg->passes;
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_query_counter_config_pass_count")
    }

    rocprofiler_status_t
    rocprofiler_destroy_counter_config(rocprofiler_counter_config_id_t config_id)
    {
        ROCP_API_GUARD_BEGIN
        return rp::counters::destroy_config(config_id);
        ROCP_API_GUARD_END("rocprofiler_destroy_counter_config")
    }

    rocprofiler_status_t rocprofiler_configure_buffer_dispatch_counting_service(
        rocprofiler_context_id_t                   context_id,
        rocprofiler_buffer_id_t                    buffer_id,
        rocprofiler_dispatch_counting_service_cb_t callback,
        void*                                      callback_args)
    {
        ROCP_API_GUARD_BEGIN
        auto* ctx = static_cast<rp::context::context*>(nullptr);
        ROCP_RETURN_IF_ERROR(rp::registration::configurable_context(context_id, &ctx));
        if(callback == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        if(!rp::buffer::exists(buffer_id)) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
        if(ctx->dispatch_counter) return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
        // Dispatch and device counting do not share a context (as in rocprofiler-sdk).
        if(ctx->device_counter) return ROCPROFILER_STATUS_ERROR_AGENT_DISPATCH_CONFLICT;
        // PC sampling and dispatch counting do not share a context (pc_sampling.h).
        if(!ctx->pc_sampling.empty()) return ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT;
        auto svc               = std::make_unique<rp::context::dispatch_counting_service>();
        svc->dispatch_callback = callback;
        svc->dispatch_data     = callback_args;
        svc->buffer            = buffer_id;
        ctx->dispatch_counter  = std::move(svc);
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_configure_buffer_dispatch_counting_service")
    }

    rocprofiler_status_t rocprofiler_configure_callback_dispatch_counting_service(
        rocprofiler_context_id_t                   context_id,
        rocprofiler_dispatch_counting_service_cb_t dispatch_callback,
        void*                                      dispatch_callback_args,
        rocprofiler_dispatch_counting_record_cb_t  record_callback,
        void*                                      record_callback_args)
    {
        ROCP_API_GUARD_BEGIN
        auto* ctx = static_cast<rp::context::context*>(nullptr);
        ROCP_RETURN_IF_ERROR(rp::registration::configurable_context(context_id, &ctx));
        if(dispatch_callback == nullptr || record_callback == nullptr)
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        if(ctx->dispatch_counter) return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
        // Dispatch and device counting do not share a context (as in rocprofiler-sdk).
        if(ctx->device_counter) return ROCPROFILER_STATUS_ERROR_AGENT_DISPATCH_CONFLICT;
        // PC sampling and dispatch counting do not share a context (pc_sampling.h).
        if(!ctx->pc_sampling.empty()) return ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT;
        auto svc               = std::make_unique<rp::context::dispatch_counting_service>();
        svc->dispatch_callback = dispatch_callback;
        svc->dispatch_data     = dispatch_callback_args;
        svc->record_callback   = record_callback;
        svc->record_data       = record_callback_args;
        ctx->dispatch_counter  = std::move(svc);
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_configure_callback_dispatch_counting_service")
    }

    rocprofiler_status_t
    rocprofiler_configure_device_counting_service(rocprofiler_context_id_t context_id,
                                                  rocprofiler_buffer_id_t  buffer_id,
                                                  rocprofiler_agent_id_t   agent_id,
                                                  rocprofiler_device_counting_service_cb_t cb,
                                                  void* user_data)
    {
        ROCP_API_GUARD_BEGIN
        auto* ctx = static_cast<rp::context::context*>(nullptr);
        ROCP_RETURN_IF_ERROR(rp::registration::configurable_context(context_id, &ctx));
        if(cb == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        // No buffer (handle 0): the records go only to the caller of the sample function.
        if(buffer_id.handle != 0 && !rp::buffer::exists(buffer_id))
            return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
        const auto* agent = rp::agent::find(agent_id);
        if(agent == nullptr) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
        // As in rocprofiler-sdk: device and dispatch counting do not share a context, nor do
        // device counting and PC sampling.
        if(ctx->dispatch_counter) return ROCPROFILER_STATUS_ERROR_AGENT_DISPATCH_CONFLICT;
        if(!ctx->pc_sampling.empty()) return ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT;
        if(ctx->device_counter)
            for(const auto& configured : ctx->device_counter->agents)
                if(configured.agent.handle == agent_id.handle)
                    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT; // rocprofiler-sdk's status
        // The sums are the backend's per-execution measurements: an agent whose backend does not
        // report every execution's values with its completion cannot be counted agent-wide.
        if(!rp::counters::counts_every_execution(agent_id))
        {
            rp::common::log::warn_once(
                "device-counting-not-implemented:" + std::to_string(agent_id.handle),
                std::string{"device counting is not implemented for agent "} + agent->name +
                    " (its backend does not measure every execution's counters)");
            return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
        }
        if(!ctx->device_counter)
            ctx->device_counter = std::make_unique<rp::context::device_counting_service>();
        ctx->device_counter->agents.emplace_back(
            rp::context::device_counting_agent{agent_id, buffer_id, cb, user_data});
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_configure_device_counting_service")
    }

    rocprofiler_status_t
    rocprofiler_sample_device_counting_service(rocprofiler_context_id_t      context_id,
                                               rocprofiler_user_data_t       user_data,
                                               rocprofiler_counter_flag_t    flags,
                                               rocprofiler_counter_record_t* output_records,
                                               size_t*                       rec_count)
    {
        ROCP_API_GUARD_BEGIN
        const auto* ctx = rp::context::get(context_id);
        if(ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
        // ASYNC is the only flag of a sample (APPEND_DEFINITION is for counter definitions).
        if((static_cast<uint32_t>(flags) & ~uint32_t{ROCPROFILER_COUNTER_FLAG_ASYNC}) != 0)
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        const bool async = (flags & ROCPROFILER_COUNTER_FLAG_ASYNC) != 0;
        // As in rocprofiler-sdk: an output array needs its capacity, and is for synchronous
        // samples only.
        if(output_records != nullptr && (rec_count == nullptr || async))
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        if(rp::registration::finalized_status() != 0) return ROCPROFILER_STATUS_ERROR_FINALIZED;
        if(!ctx->device_counter) return ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID;
        // Without an output array the records can only go to the buffers: a sample with nowhere
        // to put them is refused rather than read and dropped.
        if(output_records == nullptr)
        {
            auto any_buffer = false;
            for(const auto& configured : ctx->device_counter->agents)
                any_buffer = any_buffer || configured.buffer.handle != 0;
            if(!any_buffer) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        }
        if(!ctx->active.load(std::memory_order_acquire))
            return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_STARTED;
        // The sums are in memory: a synchronous sample returns them now, and an asynchronous one
        // writes the same records to the buffers before it returns (the tool sees them when the
        // buffer is delivered).
        return rp::dispatch::device_counting::sample(*ctx, user_data, output_records, rec_count);
        ROCP_API_GUARD_END("rocprofiler_sample_device_counting_service")
    }

    rocprofiler_status_t
    rocprofiler_query_device_counting_coverage(rocprofiler_context_id_t                context_id,
                                               rocprofiler_agent_id_t                  agent_id,
                                               rocprofiler_device_counting_coverage_t* coverage)
    {
        ROCP_API_GUARD_BEGIN
        if(coverage == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        const auto* ctx = rp::context::get(context_id);
        if(ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
        if(!ctx->device_counter) return ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID;
        auto counted    = uint64_t{0};
        auto unmeasured = uint64_t{0};
        ROCP_RETURN_IF_ERROR(
            rp::dispatch::device_counting::coverage(*ctx, agent_id, counted, unmeasured));
        *coverage            = rocprofiler_device_counting_coverage_t{};
        coverage->size       = sizeof(*coverage);
        coverage->counted    = counted;
        coverage->unmeasured = unmeasured;
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_query_device_counting_coverage")
    }

    rocprofiler_status_t rocprofiler_create_counter(const char* name,
                                                    size_t      name_len,
                                                    const char* expr,
                                                    size_t      expr_len,
                                                    const char* description,
                                                    size_t      description_len,
                                                    rocprofiler_agent_id_t,
                                                    rocprofiler_counter_id_t* counter_id)
    {
        ROCP_API_GUARD_BEGIN
        if(name == nullptr || name_len == 0 || expr == nullptr || expr_len == 0 ||
           (description == nullptr && description_len != 0) || counter_id == nullptr)
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
        ROCP_API_GUARD_END("rocprofiler_create_counter")
    }

    rocprofiler_status_t
    rocprofiler_load_counter_definition(const char* yaml, size_t size, rocprofiler_counter_flag_t)
    {
        ROCP_API_GUARD_BEGIN
        if(yaml == nullptr || size == 0) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
        ROCP_API_GUARD_END("rocprofiler_load_counter_definition")
    }
    // deprecated/counters.h and deprecated/profile_config.h: the former names.
    rocprofiler_status_t
    rocprofiler_query_counter_instance_count(rocprofiler_agent_id_t   agent_id,
                                             rocprofiler_counter_id_t counter_id,
                                             size_t*                  instance_count)
    {
        ROCP_API_GUARD_BEGIN
        if(instance_count == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        if(rp::agent::find(agent_id) == nullptr) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
        if(rp::counters::find(counter_id) == nullptr)
            return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
        // The product of the dimensions' sizes: one dimension of one instance (see
        // rocprofiler_query_counter_info).
        const auto& dims = dimensions_of(counter_id);
        *instance_count  = dims.dimension_list->instance_size;
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_query_counter_instance_count")
    }

    rocprofiler_status_t rocprofiler_iterate_counter_dimensions(
        rocprofiler_counter_id_t id, rocprofiler_available_dimensions_cb_t info_cb, void* user_data)
    {
        ROCP_API_GUARD_BEGIN
        if(info_cb == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        if(rp::counters::find(id) == nullptr) return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
        const auto& dims = dimensions_of(id);
        info_cb(id, dims.dimension_list, 1, user_data);
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_iterate_counter_dimensions")
    }

    rocprofiler_status_t
    rocprofiler_create_profile_config(rocprofiler_agent_id_t           agent_id,
                                      rocprofiler_counter_id_t*        counters_list,
                                      size_t                           counters_count,
                                      rocprofiler_profile_config_id_t* config_id)
    {
        return rocprofiler_create_counter_config(
            agent_id, counters_list, counters_count, config_id);
    }

    rocprofiler_status_t
    rocprofiler_destroy_profile_config(rocprofiler_profile_config_id_t config_id)
    {
        return rocprofiler_destroy_counter_config(config_id);
    }
}
