// How CUPTI's range profiler sees a CUDA graph launch: the fact that decides whether the kernel
// nodes of a graph can be counted one by one (docs/cuda.md, "CUDA graph kernels"). No SDK in the
// process: CUPTI's range profiler directly, on the primary context, counting
// smsp__warps_launched.sum (warps launched, known from each grid), user replay, one session each:
//   auto_plain  auto ranges (CUPTI's range per kernel) over two plain launches: the control
//   auto_chain  auto ranges over one launch of a graph of three kernels captured from a stream
//   auto_fork   auto ranges over one launch of a graph of two independent kernels
//   user_chain  one user range around each of two launches of the three-kernel graph
// Each session runs on a freshly enabled range profiler and prints every range (index, name,
// warps) and one PROBE line, `PROBE mode=<m> ranges=<n> dropped=<d> warps=<w0,...> names=<...>`,
// or `PROBE mode=<m> error=<the failing call and CUPTI's message>`, then what one range per kernel
// node or per launch would give (EXPECT). Exits 0 when the set-up ran (what each session found is
// reported, not judged: run_graph_range_probe.sh reads it), 1 when the set-up failed.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace
{
__global__ void
probe_kernel(int* sink)
{
    if(threadIdx.x == 0 && sink != nullptr) atomicAdd(sink, 1);
}

std::string last_error; // the failure that ended the current session

bool
cuda_ok(cudaError_t rc, const char* call)
{
    if(rc == cudaSuccess) return true;
    std::fprintf(stderr, "graph_range_probe: %s: %s\n", call, cudaGetErrorString(rc));
    last_error = std::string{call} + ": " + cudaGetErrorString(rc);
    return false;
}

bool
cupti_ok(CUptiResult rc, const char* call)
{
    if(rc == CUPTI_SUCCESS) return true;
    const char* text = nullptr;
    cuptiGetResultString(rc, &text);
    std::fprintf(stderr, "graph_range_probe: %s: %s (%d)\n", call, text ? text : "?", int(rc));
    last_error = std::string{call} + ": " + (text ? text : "?");
    return false;
}
#define CUDA_OK(CALL)                                                                              \
    if(!cuda_ok((CALL), #CALL)) return false
#define CUPTI_OK(CALL)                                                                             \
    if(!cupti_ok((CALL), #CALL)) return false

const char* const metric          = "smsp__warps_launched.sum";
constexpr int     warps_per_block = 2; // 64 threads

struct profiler
{
    CUpti_RangeProfiler_Object* object = nullptr;
    CUpti_Profiler_Host_Object* host   = nullptr;
    std::vector<uint8_t>        availability, config, counter_data;
};

bool
open_profiler(CUcontext ctx, profiler& p)
{
    CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CUPTI_OK(cuptiProfilerInitialize(&init));
    CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    chip.deviceIndex = 0;
    CUPTI_OK(cuptiDeviceGetChipName(&chip));
    CUpti_Profiler_GetCounterAvailability_Params avail{
        CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
    avail.ctx = ctx;
    CUPTI_OK(cuptiProfilerGetCounterAvailability(&avail));
    p.availability.resize(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = p.availability.data();
    CUPTI_OK(cuptiProfilerGetCounterAvailability(&avail));
    CUpti_Profiler_Host_Initialize_Params host{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    host.profilerType              = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    host.pChipName                 = chip.pChipName;
    host.pCounterAvailabilityImage = p.availability.data();
    CUPTI_OK(cuptiProfilerHostInitialize(&host));
    p.host                                              = host.pHostObject;
    const char*                                 names[] = {metric};
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject   = p.host;
    add.ppMetricNames = names;
    add.numMetrics    = 1;
    CUPTI_OK(cuptiProfilerHostConfigAddMetrics(&add));
    CUpti_Profiler_Host_GetConfigImageSize_Params size{
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = p.host;
    CUPTI_OK(cuptiProfilerHostGetConfigImageSize(&size));
    p.config.resize(size.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params image{
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    image.pHostObject     = p.host;
    image.configImageSize = p.config.size();
    image.pConfigImage    = p.config.data();
    CUPTI_OK(cuptiProfilerHostGetConfigImage(&image));
    return true;
}

// One session in `mode` on a freshly enabled range profiler: `work` runs between Start and Stop
// (it pushes and pops user ranges itself in user mode); then every range is printed.
template <typename Work>
bool
session(CUcontext           ctx,
        profiler&           p,
        CUpti_ProfilerRange mode,
        const char*         label,
        Work&&              work,
        const char*         expect)
{
    CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    enable.ctx = ctx;
    CUPTI_OK(cuptiRangeProfilerEnable(&enable));
    p.object                                                 = enable.pRangeProfilerObject;
    constexpr size_t                              max_ranges = 64;
    const char*                                   names[]    = {metric};
    CUpti_RangeProfiler_GetCounterDataSize_Params data_size{
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    data_size.pRangeProfilerObject = p.object;
    data_size.pMetricNames         = names;
    data_size.numMetrics           = 1;
    data_size.maxNumOfRanges       = max_ranges;
    data_size.maxNumRangeTreeNodes = max_ranges;
    CUPTI_OK(cuptiRangeProfilerGetCounterDataSize(&data_size));
    p.counter_data.assign(data_size.counterDataSize, 0);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params data_init{
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    data_init.pRangeProfilerObject = p.object;
    data_init.counterDataSize      = p.counter_data.size();
    data_init.pCounterData         = p.counter_data.data();
    CUPTI_OK(cuptiRangeProfilerCounterDataImageInitialize(&data_init));
    CUpti_RangeProfiler_SetConfig_Params set{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    set.pRangeProfilerObject = p.object;
    set.configSize           = p.config.size();
    set.pConfig              = p.config.data();
    set.counterDataImageSize = p.counter_data.size();
    set.pCounterDataImage    = p.counter_data.data();
    set.range                = mode;
    set.replayMode           = CUPTI_UserReplay;
    set.maxRangesPerPass     = max_ranges;
    set.numNestingLevels     = 1;
    set.minNestingLevel      = 1;
    set.passIndex            = 0;
    set.targetNestingLevel   = 1;
    CUPTI_OK(cuptiRangeProfilerSetConfig(&set));
    CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    start.pRangeProfilerObject = p.object;
    CUPTI_OK(cuptiRangeProfilerStart(&start));
    if(!work()) return false;
    CUDA_OK(cudaDeviceSynchronize());
    CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    stop.pRangeProfilerObject = p.object;
    CUPTI_OK(cuptiRangeProfilerStop(&stop));
    CUpti_RangeProfiler_DecodeData_Params decode{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    decode.pRangeProfilerObject = p.object;
    CUPTI_OK(cuptiRangeProfilerDecodeData(&decode));
    CUpti_RangeProfiler_GetCounterDataInfo_Params info{
        CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    info.pCounterDataImage    = p.counter_data.data();
    info.counterDataImageSize = p.counter_data.size();
    CUPTI_OK(cuptiRangeProfilerGetCounterDataInfo(&info));
    auto warps_list = std::string{}, name_list = std::string{};
    for(size_t r = 0; r < info.numTotalRanges; ++r)
    {
        CUpti_RangeProfiler_CounterData_GetRangeInfo_Params range{
            CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE};
        range.pCounterDataImage    = p.counter_data.data();
        range.counterDataImageSize = p.counter_data.size();
        range.rangeIndex           = r;
        range.rangeDelimiter       = "/";
        CUPTI_OK(cuptiRangeProfilerCounterDataGetRangeInfo(&range));
        double                                         value = 0;
        CUpti_Profiler_Host_EvaluateToGpuValues_Params eval{
            CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
        eval.pHostObject          = p.host;
        eval.pCounterDataImage    = p.counter_data.data();
        eval.counterDataImageSize = p.counter_data.size();
        eval.rangeIndex           = r;
        eval.ppMetricNames        = names;
        eval.numMetrics           = 1;
        eval.pMetricValues        = &value;
        CUPTI_OK(cuptiProfilerHostEvaluateToGpuValues(&eval));
        const char* name = range.rangeName != nullptr ? range.rangeName : "";
        std::printf("range mode=%s index=%zu name=%s warps=%.0f\n", label, r, name, value);
        warps_list += (r ? "," : "") + std::to_string(static_cast<long long>(value));
        name_list += (r ? "|" : "") + std::string{name};
    }
    std::printf("PROBE mode=%s ranges=%zu dropped=%zu warps=%s names=%s\n",
                label,
                info.numTotalRanges,
                decode.numOfRangeDropped,
                warps_list.c_str(),
                name_list.c_str());
    std::printf("EXPECT mode=%s %s\n", label, expect);
    CUpti_RangeProfiler_Disable_Params disable{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    disable.pRangeProfilerObject = p.object;
    CUPTI_OK(cuptiRangeProfilerDisable(&disable));
    p.object = nullptr;
    return true;
}

bool
launch(cudaStream_t stream, int blocks, int* sink)
{
    probe_kernel<<<blocks, warps_per_block * 32, 0, stream>>>(sink);
    return cuda_ok(cudaGetLastError(), "probe_kernel<<<>>>");
}

bool
run()
{
    CUDA_OK(cudaSetDevice(0));
    CUDA_OK(cudaFree(nullptr)); // the primary context
    auto ctx = CUcontext{};
    if(cuCtxGetCurrent(&ctx) != CUDA_SUCCESS || ctx == nullptr) return false;
    int* sink = nullptr;
    CUDA_OK(cudaMalloc(&sink, sizeof(int)));
    auto stream = cudaStream_t{};
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

    // A chain of three kernels of 3, 5 and 7 blocks (6, 10 and 14 warps).
    auto chain = cudaGraph_t{};
    CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    for(int blocks : {3, 5, 7})
        if(!launch(stream, blocks, sink)) return false;
    CUDA_OK(cudaStreamEndCapture(stream, &chain));
    auto chain_exec = cudaGraphExec_t{};
    CUDA_OK(cudaGraphInstantiate(&chain_exec, chain, 0));

    // Two independent kernels of 11 and 13 blocks (22 and 26 warps): no order between them.
    auto fork = cudaGraph_t{};
    CUDA_OK(cudaGraphCreate(&fork, 0));
    for(int blocks : {11, 13})
    {
        void* args[]        = {&sink};
        auto  params        = cudaKernelNodeParams{};
        params.func         = reinterpret_cast<void*>(probe_kernel);
        params.gridDim      = dim3(blocks);
        params.blockDim     = dim3(warps_per_block * 32);
        params.kernelParams = args;
        auto node           = cudaGraphNode_t{};
        CUDA_OK(cudaGraphAddKernelNode(&node, fork, nullptr, 0, &params));
    }
    auto fork_exec = cudaGraphExec_t{};
    CUDA_OK(cudaGraphInstantiate(&fork_exec, fork, 0));
    CUDA_OK(cudaDeviceSynchronize());

    auto p = profiler{};
    if(!open_profiler(ctx, p)) return false;
    auto push = [&p](const char* name)
    {
        CUpti_RangeProfiler_PushRange_Params params{
            CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
        params.pRangeProfilerObject = p.object;
        params.pRangeName           = name;
        return cupti_ok(cuptiRangeProfilerPushRange(&params), "cuptiRangeProfilerPushRange");
    };
    auto pop = [&p]
    {
        CUpti_RangeProfiler_PopRange_Params params{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
        params.pRangeProfilerObject = p.object;
        return cupti_ok(cuptiRangeProfilerPopRange(&params), "cuptiRangeProfilerPopRange");
    };
    // Each session on its own: one that fails is reported (PROBE ... error=) and the next runs on
    // a freshly enabled profiler.
    auto run_session =
        [&](CUpti_ProfilerRange mode, const char* label, auto&& work, const char* expect)
    {
        last_error.clear();
        if(session(ctx, p, mode, label, work, expect)) return;
        std::printf("PROBE mode=%s error=%s\n", label, last_error.c_str());
        if(p.object != nullptr)
        {
            CUpti_RangeProfiler_Disable_Params disable{
                CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
            disable.pRangeProfilerObject = p.object;
            cuptiRangeProfilerDisable(&disable);
            p.object = nullptr;
        }
        cudaDeviceSynchronize();
    };
    // Control: auto ranges over two plain launches of 1 and 3 blocks.
    run_session(
        CUPTI_AutoRange,
        "auto_plain",
        [&] { return launch(stream, 1, sink) && launch(stream, 3, sink); },
        "ranges=2 warps=2,6");
    // The three-kernel chain, launched once.
    run_session(
        CUPTI_AutoRange,
        "auto_chain",
        [&] { return cuda_ok(cudaGraphLaunch(chain_exec, stream), "cudaGraphLaunch"); },
        "per_node=6,10,14 per_launch=30");
    // The two independent kernels, launched once.
    run_session(
        CUPTI_AutoRange,
        "auto_fork",
        [&] { return cuda_ok(cudaGraphLaunch(fork_exec, stream), "cudaGraphLaunch"); },
        "per_node=22,26 (either order) per_launch=48");
    // A user range around each of two launches of the chain.
    run_session(
        CUPTI_UserRange,
        "user_chain",
        [&]
        {
            for(const char* name : {"first", "second"})
            {
                if(!push(name)) return false;
                if(!cuda_ok(cudaGraphLaunch(chain_exec, stream), "cudaGraphLaunch")) return false;
                if(!pop()) return false;
            }
            return true;
        },
        "ranges=2 warps=30,30");
    return true;
}
} // namespace

int
main()
{
    const bool ok = run();
    std::printf("RESULT graph_range_probe_ran=%d\n", ok ? 1 : 0);
    return ok ? 0 : 1;
}
