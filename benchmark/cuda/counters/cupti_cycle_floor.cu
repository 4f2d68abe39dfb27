// The floor of counters under kernel replay on NVIDIA GPUs: what CUPTI's range profiler itself
// costs for one user-replay cycle per dispatch, with no SDK, no snapshot and no restore. One
// configuration holds every metric given; each "dispatch" runs CUPTI's passes (Start, the kernel,
// Stop) until CUPTI reports all of them submitted, then decodes and evaluates. The SDK's dispatch
// schedule (docs/cuda.md) does the same per replayed dispatch, so its per-dispatch cost minus this
// floor is the SDK's own share.
//
// Usage: cuda-cupti-cycle-floor [--dispatches N] <metric>...
// Prints one line: BENCH counters_cupti_floor metrics=M cupti_passes=P dispatches=N
//   per_dispatch_ms=<median> first_dispatch_ms=... first_start_ms=<median> start_ms=<median of the
//   other passes> stop_ms=... launch_ms=... decode_eval_ms=... inst_executed=<first metric's value>
// Exits 77 when there is no device or CUPTI refuses (no permission, another profiler).
#include <cuda.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace
{
__global__ void
fma_stream(float* a, const float* b, size_t n, int iters)
{
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if(i >= n) return;
    float x = a[i];
    for(int k = 0; k < iters; ++k)
        x = fmaf(x, 1.0001f, b[i]);
    a[i] = x;
}

double
now_ms()
{
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

double
median(std::vector<double> v)
{
    if(v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

[[noreturn]] void
give_up(const char* what, int code, int exit_code)
{
    const char* text = nullptr;
    cuptiGetResultString(static_cast<CUptiResult>(code), &text);
    std::fprintf(
        stderr, "cuda-cupti-cycle-floor: %s failed: %d %s\n", what, code, text ? text : "");
    std::exit(exit_code);
}

#define CUPTI_OR_EXIT(call, exit_code)                                                             \
    do                                                                                             \
    {                                                                                              \
        if(auto rc_ = (call); rc_ != CUPTI_SUCCESS) give_up(#call, rc_, exit_code);                \
    } while(0)
#define CU_OR_EXIT(call)                                                                           \
    do                                                                                             \
    {                                                                                              \
        if(auto rc_ = (call); rc_ != CUDA_SUCCESS) give_up(#call, rc_, 1);                         \
    } while(0)
} // namespace

int
main(int argc, char** argv)
{
    auto dispatches = 20;
    auto names      = std::vector<const char*>{};
    for(int i = 1; i < argc; ++i)
    {
        if(std::strcmp(argv[i], "--dispatches") == 0 && i + 1 < argc)
            dispatches = std::max(2, std::atoi(argv[++i]));
        else
            names.push_back(argv[i]);
    }
    if(names.empty())
    {
        std::fprintf(stderr, "usage: cuda-cupti-cycle-floor [--dispatches N] <metric>...\n");
        return 2;
    }
    if(cuInit(0) != CUDA_SUCCESS)
    {
        std::printf("SKIP: no CUDA device\n");
        return 77;
    }
    auto dev = CUdevice{};
    auto ctx = CUcontext{};
    CU_OR_EXIT(cuDeviceGet(&dev, 0));
    CU_OR_EXIT(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU_OR_EXIT(cuCtxSetCurrent(ctx));
    const size_t n = size_t{16} << 20; // 64 MiB per buffer
    auto         a = CUdeviceptr{}, b = CUdeviceptr{};
    CU_OR_EXIT(cuMemAlloc(&a, n * sizeof(float)));
    CU_OR_EXIT(cuMemAlloc(&b, n * sizeof(float)));
    CU_OR_EXIT(cuMemsetD32(a, 0, n));
    CU_OR_EXIT(cuMemsetD32(b, 0x3f800000u, n));
    auto stream = CUstream{};
    CU_OR_EXIT(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));

    auto init = CUpti_Profiler_Initialize_Params{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CUPTI_OR_EXIT(cuptiProfilerInitialize(&init), 77);
    auto chip        = CUpti_Device_GetChipName_Params{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    chip.deviceIndex = 0;
    CUPTI_OR_EXIT(cuptiDeviceGetChipName(&chip), 77);
    auto avail = CUpti_Profiler_GetCounterAvailability_Params{
        CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
    avail.ctx = ctx;
    CUPTI_OR_EXIT(cuptiProfilerGetCounterAvailability(&avail), 77);
    auto availability               = std::vector<uint8_t>(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = availability.data();
    CUPTI_OR_EXIT(cuptiProfilerGetCounterAvailability(&avail), 77);

    auto host =
        CUpti_Profiler_Host_Initialize_Params{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    host.profilerType              = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    host.pChipName                 = chip.pChipName;
    host.pCounterAvailabilityImage = availability.data();
    CUPTI_OR_EXIT(cuptiProfilerHostInitialize(&host), 1);
    auto add = CUpti_Profiler_Host_ConfigAddMetrics_Params{
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject   = host.pHostObject;
    add.ppMetricNames = names.data();
    add.numMetrics    = names.size();
    CUPTI_OR_EXIT(cuptiProfilerHostConfigAddMetrics(&add), 1);
    auto size = CUpti_Profiler_Host_GetConfigImageSize_Params{
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = host.pHostObject;
    CUPTI_OR_EXIT(cuptiProfilerHostGetConfigImageSize(&size), 1);
    auto config = std::vector<uint8_t>(size.configImageSize);
    auto image  = CUpti_Profiler_Host_GetConfigImage_Params{
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    image.pHostObject     = host.pHostObject;
    image.configImageSize = config.size();
    image.pConfigImage    = config.data();
    CUPTI_OR_EXIT(cuptiProfilerHostGetConfigImage(&image), 1);
    auto passes = CUpti_Profiler_Host_GetNumOfPasses_Params{
        CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    passes.configImageSize = config.size();
    passes.pConfigImage    = config.data();
    CUPTI_OR_EXIT(cuptiProfilerHostGetNumOfPasses(&passes), 1);

    auto enable = CUpti_RangeProfiler_Enable_Params{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    enable.ctx  = ctx;
    CUPTI_OR_EXIT(cuptiRangeProfilerEnable(&enable), 77);
    auto* object    = enable.pRangeProfilerObject;
    auto  data_size = CUpti_RangeProfiler_GetCounterDataSize_Params{
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    data_size.pRangeProfilerObject = object;
    data_size.pMetricNames         = names.data();
    data_size.numMetrics           = names.size();
    data_size.maxNumOfRanges       = 1;
    data_size.maxNumRangeTreeNodes = 1;
    CUPTI_OR_EXIT(cuptiRangeProfilerGetCounterDataSize(&data_size), 1);
    auto data = std::vector<uint8_t>(data_size.counterDataSize);

    auto           iters = 64;
    auto           count = n;
    auto           pa    = reinterpret_cast<float*>(a);
    auto           pb    = reinterpret_cast<const float*>(b);
    const unsigned grid  = static_cast<unsigned>((n + 255) / 256);

    auto per_dispatch = std::vector<double>{}, first_start = std::vector<double>{},
         start = std::vector<double>{}, stop = std::vector<double>{},
         launch = std::vector<double>{}, decode = std::vector<double>{};
    auto first_value = 0.0;
    for(int d = 0; d < dispatches; ++d)
    {
        const auto t0   = now_ms();
        auto       init = CUpti_RangeProfiler_CounterDataImage_Initialize_Params{
            CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
        init.pRangeProfilerObject = object;
        init.counterDataSize      = data.size();
        init.pCounterData         = data.data();
        CUPTI_OR_EXIT(cuptiRangeProfilerCounterDataImageInitialize(&init), 1);
        auto set =
            CUpti_RangeProfiler_SetConfig_Params{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
        set.pRangeProfilerObject = object;
        set.configSize           = config.size();
        set.pConfig              = config.data();
        set.counterDataImageSize = data.size();
        set.pCounterDataImage    = data.data();
        set.range                = CUPTI_AutoRange;
        set.replayMode           = CUPTI_UserReplay;
        set.maxRangesPerPass     = 1;
        set.numNestingLevels     = 1;
        set.minNestingLevel      = 1;
        set.passIndex            = 0;
        set.targetNestingLevel   = 1;
        CUPTI_OR_EXIT(cuptiRangeProfilerSetConfig(&set), 1);
        auto done = false;
        for(int pass = 0; !done && pass < 64; ++pass)
        {
            const auto p0 = now_ms();
            auto       st =
                CUpti_RangeProfiler_Start_Params{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
            st.pRangeProfilerObject = object;
            CUPTI_OR_EXIT(cuptiRangeProfilerStart(&st), 1);
            const auto p1 = now_ms();
            fma_stream<<<grid, 256, 0, reinterpret_cast<cudaStream_t>(stream)>>>(
                pa, pb, count, iters);
            const auto p2 = now_ms();
            auto sp = CUpti_RangeProfiler_Stop_Params{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
            sp.pRangeProfilerObject = object;
            CUPTI_OR_EXIT(cuptiRangeProfilerStop(&sp), 1);
            const auto p3 = now_ms();
            CU_OR_EXIT(cuStreamSynchronize(stream)); // as each replay pass waits for its kernel
            done = sp.isAllPassSubmitted != 0;
            if(d > 0) // the first dispatch also pays one-time setup
            {
                (pass == 0 ? first_start : start).push_back(p1 - p0);
                launch.push_back(p2 - p1);
                stop.push_back(p3 - p2);
            }
        }
        const auto e0  = now_ms();
        auto       dec = CUpti_RangeProfiler_DecodeData_Params{
            CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
        dec.pRangeProfilerObject = object;
        CUPTI_OR_EXIT(cuptiRangeProfilerDecodeData(&dec), 1);
        auto values = std::vector<double>(names.size(), 0.0);
        auto eval   = CUpti_Profiler_Host_EvaluateToGpuValues_Params{
            CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
        eval.pHostObject          = host.pHostObject;
        eval.pCounterDataImage    = data.data();
        eval.counterDataImageSize = data.size();
        eval.rangeIndex           = 0;
        eval.ppMetricNames        = names.data();
        eval.numMetrics           = names.size();
        eval.pMetricValues        = values.data();
        CUPTI_OR_EXIT(cuptiProfilerHostEvaluateToGpuValues(&eval), 1);
        const auto e1 = now_ms();
        if(d == 0) first_value = values[0];
        if(d > 0) decode.push_back(e1 - e0);
        per_dispatch.push_back(e1 - t0);
    }
    auto off = CUpti_RangeProfiler_Disable_Params{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    off.pRangeProfilerObject = object;
    cuptiRangeProfilerDisable(&off);

    const auto first = per_dispatch.front();
    per_dispatch.erase(per_dispatch.begin());
    std::printf("BENCH counters_cupti_floor metrics=%zu cupti_passes=%zu dispatches=%d "
                "per_dispatch_ms=%.2f first_dispatch_ms=%.2f first_start_ms=%.2f start_ms=%.2f "
                "stop_ms=%.2f launch_ms=%.2f decode_eval_ms=%.2f first_metric=%s value=%.0f\n",
                names.size(),
                passes.numOfPasses,
                dispatches,
                median(per_dispatch),
                first,
                median(first_start),
                median(start),
                median(stop),
                median(launch),
                median(decode),
                names[0],
                first_value);
    return 0;
}
