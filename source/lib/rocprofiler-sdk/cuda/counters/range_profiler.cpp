#include "cuda/counters/range_profiler.hpp"

#include "common/logging.hpp"
#include "common/static_object.hpp"
#include "cuda/counters/counting_stats.hpp"
#include "cuda/cupti/cupti_errors.hpp"
#include "cuda/cupti/settings_cupti.hpp"
#include "cuda/interpose/driver.hpp"

namespace rocprofiler::cuda::metrics
{
namespace
{
struct profiler_registry
{
    std::mutex                                             mutex = {};
    std::map<CUcontext, std::unique_ptr<context_profiler>> all   = {};
};

profiler_registry&
registry()
{
    struct value_tag;
    static auto* value = &common::static_object<profiler_registry,
                                                common::reset_order::never,
                                                value_tag>::get(); // never destroyed: used at exit
    return *value;
}
} // namespace

context_profiler&
profiler_of(CUcontext ctx)
{
    auto& reg  = registry();
    auto  lock = std::lock_guard{reg.mutex};
    auto& slot = reg.all[ctx];
    if(!slot) slot = std::make_unique<context_profiler>();
    return *slot;
}

void
for_each_profiler(const std::function<void(context_profiler&)>& fn)
{
    auto profs = std::vector<context_profiler*>{};
    {
        auto& reg  = registry();
        auto  lock = std::lock_guard{reg.mutex};
        for(auto& [ctx, prof] : reg.all)
            profs.push_back(prof.get());
    }
    for(auto* prof : profs)
        fn(*prof);
}

namespace
{
// The context's range profiler off (`prof.object` cleared) or on again; `error` says why not.
bool
disable_profiler(context_profiler& prof, std::string& error)
{
    auto off = CUpti_RangeProfiler_Disable_Params{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    off.pRangeProfilerObject = prof.object;
    if(!succeeded(
           profiler_table().cuptiRangeProfilerDisable(&off), "cuptiRangeProfilerDisable", error))
        return false;
    prof.object = nullptr;
    return true;
}

bool
enable_profiler(context_profiler& prof, std::string& error)
{
    auto on = CUpti_RangeProfiler_Enable_Params{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    on.ctx  = prof.ctx;
    if(auto rc = profiler_table().cuptiRangeProfilerEnable(&on); rc != CUPTI_SUCCESS)
    {
        prof.error = error = explain("cuptiRangeProfilerEnable", rc);
        return false;
    }
    prof.object = on.pRangeProfilerObject;
    return true;
}

// Enables the range profiler again after suspend().
void
resume(context_profiler& prof)
{
    auto scope = internal_call_scope{};
    auto error = std::string{};
    if(enable_profiler(prof, error)) prof.suspended = false;
}
} // namespace

bool
suspend(context_profiler& prof)
{
    if(prof.object == nullptr || prof.batch.running || prof.cycle_owner != nullptr) return false;
    auto scope = internal_call_scope{};
    auto error = std::string{};
    if(!disable_profiler(prof, error))
    {
        ROCP_LOG(warning) << "cuda: " << error;
        return false;
    }
    prof.last      = nullptr; // the next configuration is sized and set anew
    prof.suspended = true;
    return true;
}

void
enable(context_profiler& prof, CUcontext ctx, int device)
{
    if(prof.tried)
    {
        if(prof.suspended) resume(prof);
        return;
    }
    prof.tried    = true;
    const auto& t = profiler_table();
    if(const auto& why = target_initialized(); !why.empty())
    {
        prof.error = why;
        return;
    }
    prof.chip = chip_name(static_cast<uint32_t>(device), prof.error);
    if(prof.chip.empty()) return;

    auto scope = internal_call_scope{};
    auto avail = CUpti_Profiler_GetCounterAvailability_Params{
        CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
    avail.ctx = ctx;
    if(!succeeded(t.cuptiProfilerGetCounterAvailability(&avail),
                  "cuptiProfilerGetCounterAvailability",
                  prof.error))
        return;
    prof.availability.resize(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = prof.availability.data();
    if(!succeeded(t.cuptiProfilerGetCounterAvailability(&avail),
                  "cuptiProfilerGetCounterAvailability",
                  prof.error))
        return;
    auto params = CUpti_RangeProfiler_Enable_Params{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    params.ctx  = ctx;
    if(!succeeded(t.cuptiRangeProfilerEnable(&params), "cuptiRangeProfilerEnable", prof.error))
        return;
    prof.object = params.pRangeProfilerObject;
    prof.ctx    = ctx;
    if(settings::read_range_mode_user()) prof.range = CUPTI_UserRange;
}

collection_config&
config_for(context_profiler& prof, const std::vector<std::string>& names)
{
    if(auto itr = prof.configs.find(names); itr != prof.configs.end()) return *itr->second;

    auto cfg       = std::make_unique<collection_config>();
    cfg->names     = names;
    cfg->name_ptrs = c_names(cfg->names);
    {
        auto lock = std::lock_guard{host_api_mutex()};
        cfg->host = std::make_unique<host_object>(prof.chip, &prof.availability, cfg->error);
        if(cfg->error.empty())
            cfg->config_image = cfg->host->config_image(cfg->name_ptrs, cfg->error);
        if(cfg->error.empty()) cfg->passes = passes_of(cfg->config_image, cfg->error);
    }
    // Its counter data image is sized by set_config().
    auto& out = *cfg;
    prof.configs.emplace(names, std::move(cfg));
    return out;
}

std::vector<std::string>
names_of(const dispatch::execution_request& request)
{
    auto names = std::vector<std::string>{};
    names.reserve(request.counters.size());
    for(const auto* def : request.counters)
        names.emplace_back(def->spec.name);
    return names;
}

namespace
{
// A range profiler object does not take a second configuration (measured on the H200: its values
// evaluate to NaN), so a change of configuration, or a cycle left unfinished, disables and enables
// the context's range profiler first.
bool
reenable(context_profiler& prof, std::string& error)
{
    auto timer = phase_timer{phases().reenable};
    return disable_profiler(prof, error) && enable_profiler(prof, error);
}

// The range profiler object prepares counter data images for the metrics of its last
// GetCounterDataSize call, so that call is repeated whenever the configuration changed, before
// its image is initialized (measured on the H200: without it, CounterDataImageInitialize fails
// with CUPTI_ERROR_UNKNOWN or the values evaluate to NaN once a second configuration exists).
bool
size_counter_data(context_profiler&  prof,
                  collection_config& cfg,
                  const range_shape& shape,
                  std::string&       error)
{
    auto timer = phase_timer{phases().counter_data};
    auto size  = CUpti_RangeProfiler_GetCounterDataSize_Params{
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    size.pRangeProfilerObject = prof.object;
    size.pMetricNames         = cfg.name_ptrs.data();
    size.numMetrics           = cfg.name_ptrs.size();
    size.maxNumOfRanges       = shape.ranges;
    size.maxNumRangeTreeNodes = static_cast<uint32_t>(shape.ranges);
    if(!succeeded(profiler_table().cuptiRangeProfilerGetCounterDataSize(&size),
                  "cuptiRangeProfilerGetCounterDataSize",
                  error))
        return false;
    if(size.counterDataSize != cfg.counter_data.size())
        cfg.counter_data = std::vector<uint8_t>(size.counterDataSize);
    return true;
}

// Every execution (or cycle) starts from a freshly initialized counter data image.
bool
initialize_counter_data(context_profiler& prof, collection_config& cfg, std::string& error)
{
    auto init = CUpti_RangeProfiler_CounterDataImage_Initialize_Params{
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    init.pRangeProfilerObject = prof.object;
    init.counterDataSize      = cfg.counter_data.size();
    init.pCounterData         = cfg.counter_data.data();
    return succeeded(profiler_table().cuptiRangeProfilerCounterDataImageInitialize(&init),
                     "cuptiRangeProfilerCounterDataImageInitialize",
                     error);
}
} // namespace

bool
set_config(context_profiler&                 prof,
           collection_config&                cfg,
           std::string&                      error,
           const std::optional<range_shape>& shape)
{
    const auto& t       = profiler_table();
    auto        scope   = internal_call_scope{};
    const auto  want    = shape.value_or(range_shape{prof.range, 1});
    const bool  changed = prof.last != &cfg || prof.last_shape != want || prof.needs_reset;
    if(changed && prof.last != nullptr && !reenable(prof, error)) return false;
    prof.needs_reset = false;
    prof.last        = &cfg;
    prof.last_shape  = want;
    if(changed && !size_counter_data(prof, cfg, want, error)) return false;
    if(!initialize_counter_data(prof, cfg, error)) return false;
    auto params =
        CUpti_RangeProfiler_SetConfig_Params{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    params.pRangeProfilerObject = prof.object;
    params.configSize           = cfg.config_image.size();
    params.pConfig              = cfg.config_image.data();
    params.counterDataImageSize = cfg.counter_data.size();
    params.pCounterDataImage    = cfg.counter_data.data();
    params.range                = want.mode;
    params.replayMode           = CUPTI_UserReplay;
    params.maxRangesPerPass     = want.ranges;
    params.numNestingLevels     = 1;
    params.minNestingLevel      = 1;
    params.passIndex            = 0;
    params.targetNestingLevel   = 1;
    return succeeded(t.cuptiRangeProfilerSetConfig(&params), "cuptiRangeProfilerSetConfig", error);
}

std::optional<decoded_image>
decode_image(context_profiler& prof, collection_config& cfg, std::string& error)
{
    const auto& t = profiler_table();
    auto        decode =
        CUpti_RangeProfiler_DecodeData_Params{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    decode.pRangeProfilerObject = prof.object;
    auto decoded                = CUPTI_SUCCESS;
    {
        auto timer = phase_timer{phases().decode};
        decoded    = t.cuptiRangeProfilerDecodeData(&decode);
    }
    if(!succeeded(decoded, "cuptiRangeProfilerDecodeData", error)) return std::nullopt;
    auto info = CUpti_RangeProfiler_GetCounterDataInfo_Params{
        CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    info.pCounterDataImage    = cfg.counter_data.data();
    info.counterDataImageSize = cfg.counter_data.size();
    if(!succeeded(t.cuptiRangeProfilerGetCounterDataInfo(&info),
                  "cuptiRangeProfilerGetCounterDataInfo",
                  error))
        return std::nullopt;
    return decoded_image{info.numTotalRanges, decode.numOfRangeDropped};
}

bool
evaluate_range(collection_config&   cfg,
               size_t               index,
               std::vector<double>& values,
               std::string&         error)
{
    values.assign(cfg.name_ptrs.size(), 0.0);
    auto lock = std::lock_guard{host_api_mutex()};
    auto eval = CUpti_Profiler_Host_EvaluateToGpuValues_Params{
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
    eval.pHostObject          = cfg.host->get();
    eval.pCounterDataImage    = cfg.counter_data.data();
    eval.counterDataImageSize = cfg.counter_data.size();
    eval.rangeIndex           = index;
    eval.ppMetricNames        = cfg.name_ptrs.data();
    eval.numMetrics           = cfg.name_ptrs.size();
    eval.pMetricValues        = values.data();
    return succeeded(profiler_table().cuptiProfilerHostEvaluateToGpuValues(&eval),
                     "cuptiProfilerHostEvaluateToGpuValues",
                     error);
}

bool
decode_and_evaluate(context_profiler&    prof,
                    collection_config&   cfg,
                    std::vector<double>& result,
                    std::string&         error)
{
    auto       timer = phase_timer{phases().evaluate};
    const auto image = decode_image(prof, cfg, error);
    if(!image) return false;
    ROCP_LOG(debug) << "cuda: range profiler: decoded " << image->ranges << " ranges ("
                    << image->dropped << " dropped) for " << cfg.names.size() << " metrics, first "
                    << cfg.names.front();
    if(image->dropped > 0 || image->ranges != 1)
    {
        error = "the counted execution overlapped other kernels on its context (" +
                std::to_string(image->ranges) + " ranges, " + std::to_string(image->dropped) +
                " dropped); its values would not be its own";
        return false;
    }
    return evaluate_range(cfg, 0, result, error);
}

counted_launch
run_counted(context_profiler&                prof,
            int                              device,
            CUstream                         stream,
            const std::function<CUresult()>& launch)
{
    auto out = counted_launch{};
    if(flush_before_counting())
    {
        auto timer = phase_timer{phases().flush};
        prof.flusher.flush(device, stream);
    }
    const auto& t     = profiler_table();
    auto        scope = internal_call_scope{};
    auto start = CUpti_RangeProfiler_Start_Params{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    start.pRangeProfilerObject = prof.object;
    {
        auto timer  = phase_timer{phases().start};
        out.started = t.cuptiRangeProfilerStart(&start);
    }
    if(out.started != CUPTI_SUCCESS) return out;
    if(prof.range == CUPTI_UserRange)
    {
        auto push =
            CUpti_RangeProfiler_PushRange_Params{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
        push.pRangeProfilerObject = prof.object;
        push.pRangeName           = "dispatch";
        t.cuptiRangeProfilerPushRange(&push);
    }
    {
        auto timer   = phase_timer{phases().launch};
        out.launched = launch();
    }
    if(prof.range == CUPTI_UserRange)
    {
        auto pop =
            CUpti_RangeProfiler_PopRange_Params{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
        pop.pRangeProfilerObject = prof.object;
        t.cuptiRangeProfilerPopRange(&pop);
    }
    auto stop = CUpti_RangeProfiler_Stop_Params{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    stop.pRangeProfilerObject = prof.object;
    {
        auto timer  = phase_timer{phases().stop};
        out.stopped = t.cuptiRangeProfilerStop(&stop);
    }
    out.all_submitted = stop.isAllPassSubmitted != 0;
    ROCP_LOG(debug) << "cuda: range profiler: stopped pass " << stop.passIndex
                    << " all_submitted=" << static_cast<int>(out.all_submitted);
    return out;
}
} // namespace rocprofiler::cuda::metrics
