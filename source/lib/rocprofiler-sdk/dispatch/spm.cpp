#include "dispatch/spm.hpp"

#include "common/logging.hpp"
#include "context/context.hpp"
#include "dispatch/delivery.hpp"

#include <string>

namespace rocprofiler::dispatch
{
namespace
{
void
report(const spm_sample_batch& batch, uint64_t dispatch_id)
{
    if(!batch.error.empty())
        common::log::warn_once(
            "spm.not_sampled",
            "SPM: dispatch " + std::to_string(dispatch_id) +
                " was not sampled (later ones may not be either): " + batch.error);
    if(batch.dropped != 0)
        ROCP_LOG(warning) << "SPM: " << batch.dropped << " sample(s) of dispatch " << dispatch_id
                          << " were dropped (more than the execution keeps); its records carry "
                             "ROCPROFILER_SPM_RECORD_FLAG_DATA_LOSS";
}

// Asks the context's SPM service which configuration this execution samples; null for none.
std::shared_ptr<const spm::config>
choose_config(context::context&                                       ctx,
              const context::spm_dispatch_service&                    svc,
              const rocprofiler_spm_dispatch_counting_service_data_t& data,
              rocprofiler_user_data_t&                                user_data)
{
    auto chosen = rocprofiler_counter_config_id_t{0};
    if(!delivery::call_tool(
           ctx,
           "SPM dispatch callback",
           [&] { svc.dispatch_callback(&data, &chosen, &user_data, svc.dispatch_data); }))
        return nullptr;
    if(chosen.handle == 0) return nullptr;
    auto cfg = spm::get_config(chosen);
    if(!cfg)
    {
        common::log::warn_once("spm.unknown-config",
                               "SPM: a tool chose a configuration that is not an SPM configuration "
                               "(rocprofiler_spm_create_counter_config); the dispatch is not "
                               "sampled");
        return nullptr;
    }
    if(cfg->agent.handle != data.dispatch_info.agent_id.handle)
    {
        common::log::warn_once("spm.agent-mismatch",
                               "SPM: a tool chose a configuration of another agent than the "
                               "dispatch's; the dispatch is not sampled");
        return nullptr;
    }
    return cfg;
}
} // namespace

std::vector<rocprofiler_spm_counter_record_t>
make_spm_records(const spm::config& cfg, uint64_t dispatch_id, const spm_sample_batch& batch)
{
    auto out = std::vector<rocprofiler_spm_counter_record_t>{};
    out.reserve(batch.samples.size() * cfg.counters.size());
    for(const auto& sample : batch.samples)
        for(size_t i = 0; i < cfg.counters.size() && i < sample.values.size(); ++i)
        {
            auto rec        = rocprofiler_spm_counter_record_t{};
            rec.size        = sizeof(rec);
            rec.dispatch_id = dispatch_id;
            rec.id          = counters::instance_id(cfg.counters[i]->id);
            rec.agent_id    = cfg.agent;
            rec.timestamp   = sample.timestamp_ns;
            rec.value       = sample.values[i];
            out.push_back(rec);
        }
    return out;
}

std::shared_ptr<const spm_request>
spm_request_for(const logical_dispatch&                                          dispatch,
                const std::function<rocprofiler_user_data_t(context::context&)>& external)
{
    auto request = std::shared_ptr<spm_request>{};
    context::for_each(
        [&](context::context& ctx)
        {
            const auto* svc = ctx.spm.get();
            if(svc == nullptr || !context::is_active_for_this_thread(ctx) ||
               ctx.tool_threw.load(std::memory_order_acquire))
                return;
            auto data                    = rocprofiler_spm_dispatch_counting_service_data_t{};
            data.size                    = sizeof(data);
            data.correlation_id.internal = dispatch.internal_id;
            data.correlation_id.external = external(ctx);
            data.dispatch_info           = dispatch.info;
            auto user_data               = rocprofiler_user_data_t{};
            auto cfg                     = choose_config(ctx, *svc, data, user_data);
            if(!cfg) return;
            if(request)
            {
                common::log::warn_once("spm.second-context",
                                       "SPM: two contexts chose a configuration for one "
                                       "execution; it is sampled for the first only (give each "
                                       "its own replay pass)");
                return;
            }
            request           = std::make_shared<spm_request>();
            request->interval = cfg->interval;
            for(const auto* def : cfg->counters)
                request->counters.push_back(def->backend_index);
            request->deliver =
                [ctx = &ctx, svc = *svc, cfg, data, user_data](const spm_sample_batch& batch)
            {
                report(batch, data.dispatch_info.dispatch_id);
                auto records  = make_spm_records(*cfg, data.dispatch_info.dispatch_id, batch);
                auto pointers = std::vector<const rocprofiler_spm_counter_record_t*>{};
                pointers.reserve(records.size());
                for(const auto& r : records)
                    pointers.push_back(&r);
                auto flags = static_cast<int>(ROCPROFILER_SPM_RECORD_FLAG_DATA);
                if(batch.dropped != 0) flags |= ROCPROFILER_SPM_RECORD_FLAG_DATA_LOSS;
                if(ctx->tool_threw.load(std::memory_order_acquire)) return;
                if(!pointers.empty() &&
                   !delivery::call_tool(*ctx,
                                        "SPM record callback",
                                        [&]
                                        {
                                            svc.record_callback(
                                                &data,
                                                pointers.data(),
                                                pointers.size(),
                                                static_cast<rocprofiler_spm_record_flag_t>(flags),
                                                user_data,
                                                svc.record_data);
                                        }))
                    return;
                delivery::call_tool(*ctx,
                                    "SPM record callback",
                                    [&]
                                    {
                                        svc.record_callback(
                                            &data,
                                            nullptr,
                                            0,
                                            ROCPROFILER_SPM_RECORD_FLAG_DISPATCH_END,
                                            user_data,
                                            svc.record_data);
                                    });
            };
        });
    return request;
}
} // namespace rocprofiler::dispatch
