// One metric counted through CUPTI's range profiler directly, with no SDK in between: for the GPU
// test programs that play another profiler in the process (counter_program.cu, --hold-cupti) or
// probe what CUPTI itself allows (graph_range_probe.cu). Every step names the failing call and
// CUPTI's message in `error`; nothing here exits.
#pragma once

#include <cuda.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cupti_range
{
inline bool
ok(CUptiResult rc, const char* call, std::string& error)
{
    if(rc == CUPTI_SUCCESS) return true;
    const char* text = nullptr;
    cuptiGetResultString(rc, &text);
    error = std::string{call} + ": " + (text != nullptr ? text : "?") + " (" +
            std::to_string(static_cast<int>(rc)) + ")";
    return false;
}

#define CUPTI_RANGE_CALL(CALL)                                                                     \
    if(!::cupti_range::ok((CALL), #CALL, error)) return false

// The profiler initialized for the context's device, a host object and the configuration image
// of one metric.
struct host_config
{
    const char*                 metric = nullptr;
    CUpti_Profiler_Host_Object* host   = nullptr;
    std::vector<uint8_t>        availability;
    std::vector<uint8_t>        config;
};

inline bool
open_host(CUcontext ctx, const char* metric, host_config& h, std::string& error)
{
    h.metric = metric;
    CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CUPTI_RANGE_CALL(cuptiProfilerInitialize(&init));
    CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    chip.deviceIndex = 0;
    CUPTI_RANGE_CALL(cuptiDeviceGetChipName(&chip));
    CUpti_Profiler_GetCounterAvailability_Params avail{
        CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
    avail.ctx = ctx;
    CUPTI_RANGE_CALL(cuptiProfilerGetCounterAvailability(&avail));
    h.availability.resize(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = h.availability.data();
    CUPTI_RANGE_CALL(cuptiProfilerGetCounterAvailability(&avail));

    CUpti_Profiler_Host_Initialize_Params host{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    host.profilerType              = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    host.pChipName                 = chip.pChipName;
    host.pCounterAvailabilityImage = h.availability.data();
    CUPTI_RANGE_CALL(cuptiProfilerHostInitialize(&host));
    h.host = host.pHostObject;

    const char*                                 names[] = {metric};
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject   = h.host;
    add.ppMetricNames = names;
    add.numMetrics    = 1;
    CUPTI_RANGE_CALL(cuptiProfilerHostConfigAddMetrics(&add));
    CUpti_Profiler_Host_GetConfigImageSize_Params size{
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = h.host;
    CUPTI_RANGE_CALL(cuptiProfilerHostGetConfigImageSize(&size));
    h.config.resize(size.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params image{
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    image.pHostObject     = h.host;
    image.configImageSize = h.config.size();
    image.pConfigImage    = h.config.data();
    CUPTI_RANGE_CALL(cuptiProfilerHostGetConfigImage(&image));
    return true;
}

inline bool
close_host(host_config& h, std::string& error)
{
    if(h.host == nullptr) return true;
    CUpti_Profiler_Host_Deinitialize_Params deinit{
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    deinit.pHostObject = h.host;
    h.host             = nullptr;
    CUPTI_RANGE_CALL(cuptiProfilerHostDeinitialize(&deinit));
    return true;
}

// A range profiler enabled on a context and one session started: `mode` ranges, user replay, one
// pass, one nesting level, room for `max_ranges` ranges.
struct session
{
    CUpti_RangeProfiler_Object* object = nullptr;
    std::vector<uint8_t>        counter_data;
    bool                        started = false;
};

inline bool
start(CUcontext           ctx,
      const host_config&  h,
      CUpti_ProfilerRange mode,
      size_t              max_ranges,
      session&            s,
      std::string&        error)
{
    CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    enable.ctx = ctx;
    CUPTI_RANGE_CALL(cuptiRangeProfilerEnable(&enable));
    s.object = enable.pRangeProfilerObject;

    const char*                                   names[] = {h.metric};
    CUpti_RangeProfiler_GetCounterDataSize_Params data_size{
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    data_size.pRangeProfilerObject = s.object;
    data_size.pMetricNames         = names;
    data_size.numMetrics           = 1;
    data_size.maxNumOfRanges       = max_ranges;
    data_size.maxNumRangeTreeNodes = max_ranges;
    CUPTI_RANGE_CALL(cuptiRangeProfilerGetCounterDataSize(&data_size));
    s.counter_data.assign(data_size.counterDataSize, 0);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params data_init{
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    data_init.pRangeProfilerObject = s.object;
    data_init.counterDataSize      = s.counter_data.size();
    data_init.pCounterData         = s.counter_data.data();
    CUPTI_RANGE_CALL(cuptiRangeProfilerCounterDataImageInitialize(&data_init));

    CUpti_RangeProfiler_SetConfig_Params set{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    set.pRangeProfilerObject = s.object;
    set.configSize           = h.config.size();
    set.pConfig              = h.config.data();
    set.counterDataImageSize = s.counter_data.size();
    set.pCounterDataImage    = s.counter_data.data();
    set.range                = mode;
    set.replayMode           = CUPTI_UserReplay;
    set.maxRangesPerPass     = max_ranges;
    set.numNestingLevels     = 1;
    set.minNestingLevel      = 1;
    set.passIndex            = 0;
    set.targetNestingLevel   = 1;
    CUPTI_RANGE_CALL(cuptiRangeProfilerSetConfig(&set));

    CUpti_RangeProfiler_Start_Params begin{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    begin.pRangeProfilerObject = s.object;
    CUPTI_RANGE_CALL(cuptiRangeProfilerStart(&begin));
    s.started = true;
    return true;
}

// What a session measured: one entry per range, in CUPTI's order.
struct range
{
    std::string name;
    double      value = 0;
};

struct measured
{
    std::vector<range> ranges;
    size_t             dropped = 0;
};

// Stops the session, decodes it and evaluates the metric for every range.
inline bool
stop_and_read(const host_config& h, session& s, measured& out, std::string& error)
{
    CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    stop.pRangeProfilerObject = s.object;
    CUPTI_RANGE_CALL(cuptiRangeProfilerStop(&stop));
    s.started = false;
    CUpti_RangeProfiler_DecodeData_Params decode{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    decode.pRangeProfilerObject = s.object;
    CUPTI_RANGE_CALL(cuptiRangeProfilerDecodeData(&decode));
    out.dropped = decode.numOfRangeDropped;
    CUpti_RangeProfiler_GetCounterDataInfo_Params info{
        CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    info.pCounterDataImage    = s.counter_data.data();
    info.counterDataImageSize = s.counter_data.size();
    CUPTI_RANGE_CALL(cuptiRangeProfilerGetCounterDataInfo(&info));
    const char* names[] = {h.metric};
    for(size_t r = 0; r < info.numTotalRanges; ++r)
    {
        CUpti_RangeProfiler_CounterData_GetRangeInfo_Params about{
            CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE};
        about.pCounterDataImage    = s.counter_data.data();
        about.counterDataImageSize = s.counter_data.size();
        about.rangeIndex           = r;
        about.rangeDelimiter       = "/";
        CUPTI_RANGE_CALL(cuptiRangeProfilerCounterDataGetRangeInfo(&about));
        auto                                           entry = range{};
        CUpti_Profiler_Host_EvaluateToGpuValues_Params eval{
            CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
        eval.pHostObject          = h.host;
        eval.pCounterDataImage    = s.counter_data.data();
        eval.counterDataImageSize = s.counter_data.size();
        eval.rangeIndex           = r;
        eval.ppMetricNames        = names;
        eval.numMetrics           = 1;
        eval.pMetricValues        = &entry.value;
        CUPTI_RANGE_CALL(cuptiProfilerHostEvaluateToGpuValues(&eval));
        entry.name = about.rangeName != nullptr ? about.rangeName : "";
        out.ranges.push_back(std::move(entry));
    }
    return true;
}

// Disables the range profiler (also after a failed session, whose error is already reported).
inline bool
disable(session& s, std::string& error)
{
    if(s.object == nullptr) return true;
    CUpti_RangeProfiler_Disable_Params params{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    params.pRangeProfilerObject = s.object;
    s.object                    = nullptr;
    CUPTI_RANGE_CALL(cuptiRangeProfilerDisable(&params));
    return true;
}

inline bool
push_range(const session& s, const char* name, std::string& error)
{
    CUpti_RangeProfiler_PushRange_Params params{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
    params.pRangeProfilerObject = s.object;
    params.pRangeName           = name;
    CUPTI_RANGE_CALL(cuptiRangeProfilerPushRange(&params));
    return true;
}

inline bool
pop_range(const session& s, std::string& error)
{
    CUpti_RangeProfiler_PopRange_Params params{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
    params.pRangeProfilerObject = s.object;
    CUPTI_RANGE_CALL(cuptiRangeProfilerPopRange(&params));
    return true;
}

#undef CUPTI_RANGE_CALL
} // namespace cupti_range
