#include "cuda/metrics.hpp"

#include "common/logging.hpp"
#include "cuda/driver.hpp"
#include "cuda/timing.hpp"

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <regex>

namespace rocprofiler::cuda::metrics
{
namespace
{
#define ROCP_PROFILER_FUNCTIONS(X)                                                                 \
    X(cuptiGetResultString)                                                                        \
    X(cuptiProfilerInitialize)                                                                     \
    X(cuptiDeviceGetChipName)                                                                      \
    X(cuptiProfilerGetCounterAvailability)                                                         \
    X(cuptiProfilerHostInitialize)                                                                 \
    X(cuptiProfilerHostDeinitialize)                                                               \
    X(cuptiProfilerHostGetBaseMetrics)                                                             \
    X(cuptiProfilerHostGetMetricProperties)                                                        \
    X(cuptiProfilerHostConfigAddMetrics)                                                           \
    X(cuptiProfilerHostGetConfigImageSize)                                                         \
    X(cuptiProfilerHostGetConfigImage)                                                             \
    X(cuptiProfilerHostGetNumOfPasses)                                                             \
    X(cuptiProfilerHostEvaluateToGpuValues)                                                        \
    X(cuptiRangeProfilerEnable)                                                                    \
    X(cuptiRangeProfilerDisable)                                                                   \
    X(cuptiRangeProfilerGetCounterDataSize)                                                        \
    X(cuptiRangeProfilerCounterDataImageInitialize)                                                \
    X(cuptiRangeProfilerSetConfig)                                                                 \
    X(cuptiRangeProfilerStart)                                                                     \
    X(cuptiRangeProfilerStop)                                                                      \
    X(cuptiRangeProfilerPushRange)                                                                 \
    X(cuptiRangeProfilerPopRange)                                                                  \
    X(cuptiRangeProfilerDecodeData)                                                                \
    X(cuptiRangeProfilerGetCounterDataInfo)

struct profiler_table
{
#define ROCP_PROFILER_DECLARE(NAME) decltype(&::NAME) NAME = nullptr;
    ROCP_PROFILER_FUNCTIONS(ROCP_PROFILER_DECLARE)
#undef ROCP_PROFILER_DECLARE
    std::string error = {}; // why the table is unusable, or empty
};

// CUPTI's profiler host objects are not documented as thread-safe: every host-API call of the SDK
// goes through this lock.
std::mutex&
host_api_mutex()
{
    static auto* value = new std::mutex{};
    return *value;
}

const profiler_table&
table()
{
    static const profiler_table* value = []
    {
        auto* t      = new profiler_table{};
        void* handle = timing::cupti_library();
        if(handle == nullptr)
        {
            t->error = "CUPTI not found (set ROCPROFILER_CUPTI_LIBRARY to libcupti.so)";
            return t;
        }
#define ROCP_PROFILER_LOAD(NAME)                                                                   \
    t->NAME = reinterpret_cast<decltype(t->NAME)>(real_dlsym(handle, #NAME));                      \
    if(t->NAME == nullptr && t->error.empty())                                                     \
        t->error = "this CUPTI has no " #NAME " (the range profiler needs CUDA 12.6 or later)";
        ROCP_PROFILER_FUNCTIONS(ROCP_PROFILER_LOAD)
#undef ROCP_PROFILER_LOAD
        return t;
    }();
    return *value;
}

// The target side of CUPTI's profiler (device queries, the range profiler) needs
// cuptiProfilerInitialize, once; the host API (metric lists, configuration images) does not.
// Returns why it failed, or an empty string.
const std::string&
target_initialized()
{
    static const std::string* value = []
    {
        const auto& t = table();
        if(!t.error.empty()) return new std::string{t.error};
        auto scope = internal_call_scope{};
        auto params =
            CUpti_Profiler_Initialize_Params{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
        auto rc = t.cuptiProfilerInitialize(&params);
        return new std::string{rc == CUPTI_SUCCESS ? std::string{}
                                                   : explain("cuptiProfilerInitialize", rc)};
    }();
    return *value;
}

std::string
result_text(CUptiResult result)
{
    const char* text = nullptr;
    if(const auto& t = table(); t.cuptiGetResultString != nullptr)
        t.cuptiGetResultString(result, &text);
    return text != nullptr ? std::string{text}
                           : "CUptiResult " + std::to_string(static_cast<int>(result));
}

// A host object of the profiler host API for one chip (and, when given, one context's counter
// availability), destroyed with its owner.
class host_object
{
public:
    host_object(std::string_view chip, const std::vector<uint8_t>* availability, std::string& error)
        : m_chip{chip}
    {
        const auto& t      = table();
        auto        params = CUpti_Profiler_Host_Initialize_Params{
            CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
        params.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
        params.pChipName    = m_chip.c_str();
        params.pCounterAvailabilityImage =
            (availability != nullptr && !availability->empty()) ? availability->data() : nullptr;
        if(auto rc = t.cuptiProfilerHostInitialize(&params); rc != CUPTI_SUCCESS)
            error = explain("cuptiProfilerHostInitialize(" + m_chip + ")", rc);
        else
            m_object = params.pHostObject;
    }

    ~host_object()
    {
        if(m_object == nullptr) return;
        auto params = CUpti_Profiler_Host_Deinitialize_Params{
            CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
        params.pHostObject = m_object;
        table().cuptiProfilerHostDeinitialize(&params);
    }

    host_object(const host_object&)            = delete;
    host_object& operator=(const host_object&) = delete;

    CUpti_Profiler_Host_Object* get() const { return m_object; }

    // Adds the metrics and returns the configuration image; empty with `error` set on failure.
    std::vector<uint8_t> config_image(const std::vector<const char*>& names, std::string& error)
    {
        const auto& t   = table();
        auto        add = CUpti_Profiler_Host_ConfigAddMetrics_Params{
            CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
        add.pHostObject   = m_object;
        add.ppMetricNames = const_cast<const char**>(names.data());
        add.numMetrics    = names.size();
        if(auto rc = t.cuptiProfilerHostConfigAddMetrics(&add); rc != CUPTI_SUCCESS)
        {
            error = explain("cuptiProfilerHostConfigAddMetrics", rc);
            return {};
        }
        auto size = CUpti_Profiler_Host_GetConfigImageSize_Params{
            CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
        size.pHostObject = m_object;
        if(auto rc = t.cuptiProfilerHostGetConfigImageSize(&size); rc != CUPTI_SUCCESS)
        {
            error = explain("cuptiProfilerHostGetConfigImageSize", rc);
            return {};
        }
        auto image = std::vector<uint8_t>(size.configImageSize);
        auto get   = CUpti_Profiler_Host_GetConfigImage_Params{
            CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
        get.pHostObject     = m_object;
        get.configImageSize = image.size();
        get.pConfigImage    = image.data();
        if(auto rc = t.cuptiProfilerHostGetConfigImage(&get); rc != CUPTI_SUCCESS)
        {
            error = explain("cuptiProfilerHostGetConfigImage", rc);
            return {};
        }
        return image;
    }

private:
    std::string                 m_chip   = {};
    CUpti_Profiler_Host_Object* m_object = nullptr;
};

uint32_t
passes_of(std::vector<uint8_t>& image, std::string& error)
{
    auto params = CUpti_Profiler_Host_GetNumOfPasses_Params{
        CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    params.configImageSize = image.size();
    params.pConfigImage    = image.data();
    if(auto rc = table().cuptiProfilerHostGetNumOfPasses(&params); rc != CUPTI_SUCCESS)
    {
        error = explain("cuptiProfilerHostGetNumOfPasses", rc);
        return 0;
    }
    return static_cast<uint32_t>(params.numOfPasses);
}

std::vector<const char*>
c_names(const std::vector<std::string>& names)
{
    auto out = std::vector<const char*>{};
    out.reserve(names.size());
    for(const auto& n : names)
        out.emplace_back(n.c_str());
    return out;
}

// The roll-ups listed per metric type (CUPTI knows more sub-metrics; these are the ones whose
// value is a property of the dispatch: totals, averages and extremes over the hardware units,
// ratios, and throughputs as a share of the peak).
const std::vector<std::pair<std::string_view, std::string_view>>&
rollups(CUpti_MetricType type)
{
    static const auto counter = std::vector<std::pair<std::string_view, std::string_view>>{
        {".sum", "sum over all units"},
        {".avg", "average over the units"},
        {".min", "minimum over the units"},
        {".max", "maximum over the units"}};
    static const auto ratio = std::vector<std::pair<std::string_view, std::string_view>>{
        {".ratio", "ratio"}, {".pct", "percent"}, {".max_rate", "maximum rate"}};
    static const auto throughput = std::vector<std::pair<std::string_view, std::string_view>>{
        {".avg.pct_of_peak_sustained_elapsed", "average over the units, % of peak over elapsed"},
        {".max.pct_of_peak_sustained_elapsed", "maximum over the units, % of peak over elapsed"},
        {".avg.pct_of_peak_sustained_active", "average over the units, % of peak while active"},
        {".max.pct_of_peak_sustained_active", "maximum over the units, % of peak while active"}};
    switch(type)
    {
    case CUPTI_METRIC_TYPE_COUNTER:
        return counter;
    case CUPTI_METRIC_TYPE_RATIO:
        return ratio;
    default:
        return throughput;
    }
}

std::string
chip_name(uint32_t ordinal, std::string& error)
{
    if(const auto& why = target_initialized(); !why.empty())
    {
        error = why;
        return {};
    }
    auto params = CUpti_Device_GetChipName_Params{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    params.deviceIndex = ordinal;
    auto scope         = internal_call_scope{};
    if(auto rc = table().cuptiDeviceGetChipName(&params); rc != CUPTI_SUCCESS || !params.pChipName)
    {
        error = explain("cuptiDeviceGetChipName", rc);
        return {};
    }
    return params.pChipName;
}

std::optional<std::regex>
metric_filter(uint32_t ordinal)
{
    const auto  variable = "ROCPROFILER_CUDA_METRIC_FILTER_DEVICE" + std::to_string(ordinal);
    const char* text     = std::getenv(variable.c_str());
    if(text == nullptr || *text == '\0') return std::nullopt;
    try
    {
        return std::regex{text, std::regex::ECMAScript};
    }
    catch(const std::regex_error& e)
    {
        ROCP_LOG(warning) << "cuda: " << variable << "='" << text
                          << "' is not a valid regular expression (" << e.what()
                          << "); every metric of device " << ordinal << " is listed";
        return std::nullopt;
    }
}

// Where a counted execution's time goes, printed at exit with ROCPROFILER_CUDA_TIMING_STATS=1 as
// one "[cuda-metrics]" line (mean microseconds per call of each phase).
struct phase_stat
{
    std::atomic<uint64_t> ns    = 0;
    std::atomic<uint64_t> calls = 0;
};

struct phase_stats
{
    phase_stat enable, reenable, counter_data, set_config, flush, start, launch, stop, wait, decode,
        evaluate, total;
    // The per-dispatch schedule: executions that ran one pass of a CUPTI replay cycle, executions
    // answered from a finished cycle without counting, and finished cycles.
    phase_stat cycle_pass, from_cycle, cycles;

    ~phase_stats()
    {
        const char* env = std::getenv("ROCPROFILER_CUDA_TIMING_STATS");
        if(env == nullptr || std::string_view{env} != "1" || total.calls.load() == 0) return;
        auto mean = [](const phase_stat& p)
        {
            const auto n = p.calls.load();
            return n == 0 ? 0.0 : static_cast<double>(p.ns.load()) / 1e3 / static_cast<double>(n);
        };
        std::fprintf(stderr,
                     "[cuda-metrics] executions=%llu total_us_mean=%.1f enable_us_mean=%.1f "
                     "reenables=%llu reenable_us_mean=%.1f counter_data_us_mean=%.1f "
                     "set_config_us_mean=%.1f flush_us_mean=%.1f start_us_mean=%.1f "
                     "launch_us_mean=%.1f stop_us_mean=%.1f wait_us_mean=%.1f decode_us_mean=%.1f "
                     "evaluate_us_mean=%.1f cycles=%llu cycle_passes=%llu cycle_pass_us_mean=%.1f "
                     "from_cycle=%llu\n",
                     static_cast<unsigned long long>(total.calls.load()),
                     mean(total),
                     mean(enable),
                     static_cast<unsigned long long>(reenable.calls.load()),
                     mean(reenable),
                     mean(counter_data),
                     mean(set_config),
                     mean(flush),
                     mean(start),
                     mean(launch),
                     mean(stop),
                     mean(wait),
                     mean(decode),
                     mean(evaluate),
                     static_cast<unsigned long long>(cycles.calls.load()),
                     static_cast<unsigned long long>(cycle_pass.calls.load()),
                     mean(cycle_pass),
                     static_cast<unsigned long long>(from_cycle.calls.load()));
    }
};

phase_stats&
phases()
{
    static auto value = phase_stats{}; // destroyed at exit, when it prints
    return value;
}

class phase_timer
{
public:
    explicit phase_timer(phase_stat& stat)
        : m_stat{stat}
        , m_start{std::chrono::steady_clock::now()}
    {
    }
    ~phase_timer()
    {
        const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::steady_clock::now() - m_start)
                            .count();
        m_stat.ns += static_cast<uint64_t>(ns);
        m_stat.calls += 1;
    }

    phase_timer(const phase_timer&)            = delete;
    phase_timer& operator=(const phase_timer&) = delete;

private:
    phase_stat&                           m_stat;
    std::chrono::steady_clock::time_point m_start;
};

// --- collection ---------------------------------------------------------------------------------

// One counter configuration as a context collects it.
struct collection_config
{
    std::vector<std::string>     names        = {};
    std::vector<const char*>     name_ptrs    = {};
    std::unique_ptr<host_object> host         = {}; // evaluates the values
    std::vector<uint8_t>         config_image = {};
    std::vector<uint8_t>         counter_data = {};
    uint32_t                     passes       = 0;  // CUPTI passes of the configuration
    std::string                  error        = {}; // why it cannot be collected, or empty
};

// The range profiler of one context.
struct context_profiler
{
    std::mutex                  mutex        = {};
    bool                        tried        = false;
    std::string                 error        = {};
    std::string                 chip         = {};
    CUpti_RangeProfiler_Object* object       = nullptr;
    std::vector<uint8_t>        availability = {};
    CUpti_ProfilerRange         range        = CUPTI_AutoRange;
    CUcontext                   ctx          = nullptr;
    const void*                 last         = nullptr; // the configuration set last
    // The dispatch whose CUPTI replay cycle is in progress on this context, if any; a cycle left
    // unfinished leaves the range profiler mid-cycle, so it is re-enabled before the next use.
    dispatch_counting::state* cycle_owner = nullptr;
    bool                      needs_reset = false;
    bool                      cycles_off  = false; // a cycle could not finish: schedule per pass
    // Cache flush before each counted execution (flush_before_counting()): a kernel that reads a
    // buffer twice the size of the L2 cache.
    bool        flush_tried  = false;
    CUfunction  flush_kernel = nullptr;
    CUdeviceptr flush_buffer = 0;
    size_t      flush_words  = 0; // 16-byte words
    std::map<std::vector<std::string>, std::unique_ptr<collection_config>> configs = {};
};

context_profiler&
profiler_of(CUcontext ctx)
{
    static auto* mutex = new std::mutex{};
    static auto* all   = new std::map<CUcontext, std::unique_ptr<context_profiler>>{};
    auto         lock  = std::lock_guard{*mutex};
    auto&        slot  = (*all)[ctx];
    if(!slot) slot = std::make_unique<context_profiler>();
    return *slot;
}

// Enables the range profiler on the context, once. Called with the profiler's lock held.
void
enable(context_profiler& prof, CUcontext ctx, int device)
{
    if(prof.tried) return;
    prof.tried    = true;
    const auto& t = table();
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
    if(auto rc = t.cuptiProfilerGetCounterAvailability(&avail); rc != CUPTI_SUCCESS)
    {
        prof.error = explain("cuptiProfilerGetCounterAvailability", rc);
        return;
    }
    prof.availability.resize(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = prof.availability.data();
    if(auto rc = t.cuptiProfilerGetCounterAvailability(&avail); rc != CUPTI_SUCCESS)
    {
        prof.error = explain("cuptiProfilerGetCounterAvailability", rc);
        return;
    }
    auto params = CUpti_RangeProfiler_Enable_Params{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    params.ctx  = ctx;
    if(auto rc = t.cuptiRangeProfilerEnable(&params); rc != CUPTI_SUCCESS)
    {
        prof.error = explain("cuptiRangeProfilerEnable", rc);
        return;
    }
    prof.object = params.pRangeProfilerObject;
    prof.ctx    = ctx;
    if(const char* env = std::getenv("ROCPROFILER_CUDA_RANGE_MODE");
       env != nullptr && std::string_view{env} == "user")
        prof.range = CUPTI_UserRange;
}

// The configuration of `names` on the context (cached, failures included: `error` says why).
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

// ROCPROFILER_CUDA_COUNTER_SCHEDULE: "dispatch" (default) measures the passes of a replayed
// dispatch as one CUPTI replay cycle; "pass" measures each pass's configuration by itself.
bool
schedule_per_dispatch()
{
    static const bool value = []
    {
        const char* env = std::getenv("ROCPROFILER_CUDA_COUNTER_SCHEDULE");
        if(env == nullptr || *env == '\0' || std::string_view{env} == "dispatch") return true;
        if(std::string_view{env} != "pass")
            ROCP_LOG(warning) << "cuda: ROCPROFILER_CUDA_COUNTER_SCHEDULE='" << env
                              << "' is neither 'dispatch' nor 'pass'; 'dispatch' is used";
        return std::string_view{env} != "pass";
    }();
    return value;
}

// ROCPROFILER_CUDA_CACHE_CONTROL: "all" (default) flushes the GPU's caches before every counted
// execution, as Nsight Compute does by default, so that every pass of a replayed dispatch starts
// from the same cold cache (the restore copy before a pass would otherwise leave the kernel's data
// in L2); "none" measures the caches as they are.
bool
flush_before_counting()
{
    static const bool value = []
    {
        const char* env = std::getenv("ROCPROFILER_CUDA_CACHE_CONTROL");
        if(env == nullptr || *env == '\0' || std::string_view{env} == "all") return true;
        if(std::string_view{env} != "none")
            ROCP_LOG(warning) << "cuda: ROCPROFILER_CUDA_CACHE_CONTROL='" << env
                              << "' is neither 'all' nor 'none'; caches are flushed";
        return std::string_view{env} != "none";
    }();
    return value;
}

// Reads every 16-byte word of a buffer through L2 (ld.global.cg), which evicts the L2 cache's
// contents without dirtying lines; the store never happens for a zeroed buffer but keeps the loads.
constexpr const char* flush_ptx = R"(
.version 6.0
.target sm_50
.address_size 64
.visible .entry rocp_cache_flush(.param .u64 buf, .param .u64 count, .param .u64 sink)
{
    .reg .pred %p<2>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [buf];
    ld.param.u64 %rd2, [count];
    ld.param.u64 %rd3, [sink];
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mul.wide.u32 %rd4, %r1, %r2;
    cvt.u64.u32 %rd5, %r3;
    add.u64 %rd4, %rd4, %rd5;
    setp.ge.u64 %p1, %rd4, %rd2;
    @%p1 bra DONE;
    shl.b64 %rd6, %rd4, 4;
    add.u64 %rd6, %rd1, %rd6;
    ld.global.cg.v4.u32 {%r4, %r5, %r6, %r7}, [%rd6];
    xor.b32 %r8, %r4, %r5;
    xor.b32 %r9, %r6, %r7;
    xor.b32 %r10, %r8, %r9;
    setp.ne.u32 %p1, %r10, 2134547537;
    @%p1 bra DONE;
    st.global.u32 [%rd3], %r10;
DONE:
    ret;
}
)";

// Flushes the caches of the context's device on `stream` and waits for it. Failures are logged
// once and counting goes on without flushes.
void
flush_caches(context_profiler& prof, int device, CUstream stream)
{
    const auto* drv   = driver();
    auto        scope = internal_call_scope{};
    if(!prof.flush_tried)
    {
        prof.flush_tried = true;
        auto l2          = 0;
        auto module      = CUmodule{};
        auto dev         = CUdevice{};
        auto ok          = drv->cuDeviceGet(&dev, device) == CUDA_SUCCESS &&
                  drv->cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev) ==
                      CUDA_SUCCESS &&
                  drv->cuModuleLoadData(&module, flush_ptx) == CUDA_SUCCESS &&
                  drv->cuModuleGetFunction(&prof.flush_kernel, module, "rocp_cache_flush") ==
                      CUDA_SUCCESS;
        const auto bytes = std::max<size_t>(size_t{2} * static_cast<size_t>(l2), size_t{8} << 20);
        ok = ok && drv->cuMemAlloc_v2(&prof.flush_buffer, bytes + 16) == CUDA_SUCCESS &&
             drv->cuMemsetD8_v2(prof.flush_buffer, 0, bytes + 16) == CUDA_SUCCESS;
        if(!ok)
        {
            common::log::warn_once("cuda-cache-flush",
                                   "cuda: the cache flush kernel could not be set up; counters "
                                   "are measured with the caches as the application left them");
            prof.flush_kernel = nullptr;
            return;
        }
        prof.flush_words = bytes / 16;
    }
    if(prof.flush_kernel == nullptr) return;
    auto        buf    = prof.flush_buffer;
    auto        count  = static_cast<unsigned long long>(prof.flush_words);
    CUdeviceptr sink   = prof.flush_buffer + prof.flush_words * 16;
    void*       args[] = {&buf, &count, &sink};
    const auto  block  = 256u;
    const auto  grid   = static_cast<unsigned>((prof.flush_words + block - 1) / block);
    if(drv->cuLaunchKernel(prof.flush_kernel, grid, 1, 1, block, 1, 1, 0, stream, args, nullptr) !=
           CUDA_SUCCESS ||
       drv->cuStreamSynchronize(stream) != CUDA_SUCCESS)
        common::log::warn_once("cuda-cache-flush-run",
                               "cuda: a cache flush before a counted execution failed");
}

// Sets the configuration and a freshly initialized counter data image for one execution (or one
// CUPTI replay cycle). A range profiler object does not take a second configuration (measured on
// the H200: its values evaluate to NaN), so a change of configuration, or a cycle left unfinished,
// disables and enables the context's range profiler first.
bool
set_config(context_profiler& prof, collection_config& cfg, std::string& error)
{
    const auto& t       = table();
    auto        scope   = internal_call_scope{};
    const bool  changed = prof.last != &cfg || prof.needs_reset;
    if(changed && prof.last != nullptr)
    {
        auto timer = phase_timer{phases().reenable};
        auto off =
            CUpti_RangeProfiler_Disable_Params{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
        off.pRangeProfilerObject = prof.object;
        if(auto rc = t.cuptiRangeProfilerDisable(&off); rc != CUPTI_SUCCESS)
        {
            error = explain("cuptiRangeProfilerDisable", rc);
            return false;
        }
        prof.object = nullptr;
        auto on = CUpti_RangeProfiler_Enable_Params{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
        on.ctx  = prof.ctx;
        if(auto rc = t.cuptiRangeProfilerEnable(&on); rc != CUPTI_SUCCESS)
        {
            prof.error = error = explain("cuptiRangeProfilerEnable", rc);
            return false;
        }
        prof.object = on.pRangeProfilerObject;
    }
    prof.needs_reset = false;
    prof.last        = &cfg;
    // The range profiler object prepares counter data images for the metrics of its last
    // GetCounterDataSize call, so that call is repeated whenever the configuration changed, before
    // its image is initialized (measured on the H200: without it, CounterDataImageInitialize fails
    // with CUPTI_ERROR_UNKNOWN or the values evaluate to NaN once a second configuration exists).
    if(changed)
    {
        auto timer = phase_timer{phases().counter_data};
        auto size  = CUpti_RangeProfiler_GetCounterDataSize_Params{
            CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
        size.pRangeProfilerObject = prof.object;
        size.pMetricNames         = cfg.name_ptrs.data();
        size.numMetrics           = cfg.name_ptrs.size();
        size.maxNumOfRanges       = 1;
        size.maxNumRangeTreeNodes = 1;
        if(auto rc = t.cuptiRangeProfilerGetCounterDataSize(&size); rc != CUPTI_SUCCESS)
        {
            error = explain("cuptiRangeProfilerGetCounterDataSize", rc);
            return false;
        }
        if(size.counterDataSize != cfg.counter_data.size())
            cfg.counter_data = std::vector<uint8_t>(size.counterDataSize);
    }
    auto init = CUpti_RangeProfiler_CounterDataImage_Initialize_Params{
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    init.pRangeProfilerObject = prof.object;
    init.counterDataSize      = cfg.counter_data.size();
    init.pCounterData         = cfg.counter_data.data();
    if(auto rc = t.cuptiRangeProfilerCounterDataImageInitialize(&init); rc != CUPTI_SUCCESS)
    {
        error = explain("cuptiRangeProfilerCounterDataImageInitialize", rc);
        return false;
    }
    auto params =
        CUpti_RangeProfiler_SetConfig_Params{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    params.pRangeProfilerObject = prof.object;
    params.configSize           = cfg.config_image.size();
    params.pConfig              = cfg.config_image.data();
    params.counterDataImageSize = cfg.counter_data.size();
    params.pCounterDataImage    = cfg.counter_data.data();
    params.range                = prof.range;
    params.replayMode           = CUPTI_UserReplay;
    params.maxRangesPerPass     = 1;
    params.numNestingLevels     = 1;
    params.minNestingLevel      = 1;
    params.passIndex            = 0;
    params.targetNestingLevel   = 1;
    if(auto rc = t.cuptiRangeProfilerSetConfig(&params); rc != CUPTI_SUCCESS)
    {
        error = explain("cuptiRangeProfilerSetConfig", rc);
        return false;
    }
    return true;
}

// Decodes the one range of the last execution (or cycle) and evaluates every metric of `cfg`.
bool
decode_and_evaluate(context_profiler&    prof,
                    collection_config&   cfg,
                    std::vector<double>& result,
                    std::string&         error)
{
    auto        timer = phase_timer{phases().evaluate};
    const auto& t     = table();
    auto        decode =
        CUpti_RangeProfiler_DecodeData_Params{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    decode.pRangeProfilerObject = prof.object;
    auto decoded                = CUPTI_SUCCESS;
    {
        auto timer = phase_timer{phases().decode};
        decoded    = t.cuptiRangeProfilerDecodeData(&decode);
    }
    if(auto rc = decoded; rc != CUPTI_SUCCESS)
    {
        error = explain("cuptiRangeProfilerDecodeData", rc);
        return false;
    }
    auto info = CUpti_RangeProfiler_GetCounterDataInfo_Params{
        CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    info.pCounterDataImage    = cfg.counter_data.data();
    info.counterDataImageSize = cfg.counter_data.size();
    if(auto rc = t.cuptiRangeProfilerGetCounterDataInfo(&info); rc != CUPTI_SUCCESS)
    {
        error = explain("cuptiRangeProfilerGetCounterDataInfo", rc);
        return false;
    }
    ROCP_LOG(debug) << "cuda: range profiler: decoded " << info.numTotalRanges << " ranges ("
                    << decode.numOfRangeDropped << " dropped) for " << cfg.names.size()
                    << " metrics, first " << cfg.names.front();
    if(decode.numOfRangeDropped > 0 || info.numTotalRanges != 1)
    {
        error = "the counted execution overlapped other kernels on its context (" +
                std::to_string(info.numTotalRanges) + " ranges, " +
                std::to_string(decode.numOfRangeDropped) +
                " dropped); its values would not be its own";
        return false;
    }
    result.assign(cfg.name_ptrs.size(), 0.0);
    {
        auto lock = std::lock_guard{host_api_mutex()};
        auto eval = CUpti_Profiler_Host_EvaluateToGpuValues_Params{
            CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
        eval.pHostObject          = cfg.host->get();
        eval.pCounterDataImage    = cfg.counter_data.data();
        eval.counterDataImageSize = cfg.counter_data.size();
        eval.rangeIndex           = 0;
        eval.ppMetricNames        = cfg.name_ptrs.data();
        eval.numMetrics           = cfg.name_ptrs.size();
        eval.pMetricValues        = result.data();
        if(auto rc = t.cuptiProfilerHostEvaluateToGpuValues(&eval); rc != CUPTI_SUCCESS)
        {
            error = explain("cuptiProfilerHostEvaluateToGpuValues", rc);
            return false;
        }
    }
    return true;
}
// One counted launch: the cache flush (when on), Start, a user range around the launch in that
// mode, the launch, Stop. When Start fails nothing else happens (the caller launches plainly).
struct counted_launch
{
    CUptiResult started       = CUPTI_SUCCESS;
    CUresult    launched      = CUDA_SUCCESS;
    CUptiResult stopped       = CUPTI_SUCCESS;
    bool        all_submitted = false; // CUPTI's last pass of the configuration
};

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
        flush_caches(prof, device, stream);
    }
    const auto& t     = table();
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
} // namespace

// The counting state of one logical dispatch (dispatch_counting). Used under its context
// profiler's lock.
struct dispatch_counting::state
{
    struct waiting_execution
    {
        uint64_t                                         execution = 0;
        std::vector<const counters::counter_definition*> counters  = {};
    };

    context_profiler*              prof        = nullptr; // the context it counts on
    collection_config*             cycle       = nullptr; // the union of the current cycle
    bool                           open        = false;   // CUPTI passes of the cycle remain
    bool                           complete    = false;   // `values` are the cycle's
    bool                           interrupted = false;   // another execution took the profiler
    bool                           opened      = false;   // a cycle was ever started
    uint32_t                       run         = 0;       // CUPTI passes run in the current cycle
    std::vector<double>            values      = {};
    std::vector<waiting_execution> waiting     = {};
};

dispatch_counting::dispatch_counting() = default; // the state is made by the first measure()

dispatch_counting::~dispatch_counting()
{
    if(!impl || !impl->opened) return; // never owned a cycle: nothing to clear
    auto lock = std::lock_guard{impl->prof->mutex};
    if(impl->prof->cycle_owner != impl.get()) return;
    impl->prof->cycle_owner = nullptr;
    impl->prof->needs_reset = true;
}

bool
covers(const std::vector<std::string>& set, const std::vector<std::string>& names)
{
    return std::all_of(names.begin(),
                       names.end(),
                       [&set](const std::string& name)
                       { return std::binary_search(set.begin(), set.end(), name); });
}

std::vector<std::string>
union_names(const std::vector<std::shared_ptr<const counters::config>>& configs,
            const dispatch::execution_request&                          request)
{
    auto names = names_of(request);
    for(const auto& cfg : configs)
        for(const auto* def : cfg->counters)
            names.emplace_back(def->spec.name);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

namespace
{
using cycle_state = dispatch_counting::state;

// The values of `counters` out of a finished cycle of `cfg` (its names are sorted).
std::vector<dispatch::counter_value>
pick(const collection_config&                                cfg,
     const std::vector<double>&                              values,
     const std::vector<const counters::counter_definition*>& counters)
{
    auto out = std::vector<dispatch::counter_value>{};
    out.reserve(counters.size());
    for(const auto* def : counters)
    {
        auto itr   = std::lower_bound(cfg.names.begin(), cfg.names.end(), def->spec.name);
        auto index = static_cast<size_t>(itr - cfg.names.begin());
        out.push_back(
            dispatch::counter_value{def->id, index < values.size() ? values[index] : 0.0});
    }
    return out;
}

// Ends the dispatch's cycle without values: every waiting execution gets `why`.
void
end_cycle(context_profiler&                         prof,
          cycle_state&                              st,
          const std::string&                        why,
          std::vector<dispatch::deferred_counters>& resolved)
{
    for(auto& w : st.waiting)
        resolved.push_back(dispatch::deferred_counters{w.execution, {}, why});
    st.waiting.clear();
    if(st.open) prof.needs_reset = true; // the range profiler is mid-cycle
    st.open     = false;
    st.complete = false;
    if(prof.cycle_owner == &st) prof.cycle_owner = nullptr;
}

// One counted execution of a replayed dispatch under the per-dispatch schedule. Returns nothing
// when this execution is to measure its own configuration instead (per pass).
std::optional<CUresult>
measure_in_cycle(context_profiler&                  prof,
                 cycle_state&                       st,
                 int                                device,
                 CUstream                           stream,
                 const dispatch::execution_request& request,
                 const std::function<CUresult()>&   launch,
                 measurement&                       out)
{
    auto names = names_of(request);
    if(st.open && st.interrupted)
        end_cycle(prof,
                  st,
                  "another counted execution on the context interrupted the CUPTI replay cycle "
                  "of this dispatch",
                  out.resolved);
    if(st.complete && covers(st.cycle->names, names))
    {
        // Every metric of this pass was measured in the cycle: the kernel runs without counting.
        auto timer = phase_timer{phases().from_cycle};
        out.values = pick(*st.cycle, st.values, request.counters);
        return launch();
    }
    if(st.open && !covers(st.cycle->names, names))
    {
        common::log::warn_once(
            "cuda-cycle-outside",
            "cuda: a pass asked for counters that no counter configuration had when its "
            "dispatch's CUPTI replay cycle began; the earlier passes of that dispatch report no "
            "values, and such passes measure their own configuration");
        end_cycle(prof,
                  st,
                  "pass " + std::to_string(request.pass) +
                      " asked for counters outside the CUPTI replay cycle of this dispatch",
                  out.resolved);
        return std::nullopt;
    }
    if(!st.open)
    {
        const auto remaining =
            request.pass_count > request.pass ? request.pass_count - request.pass : 0;
        if(remaining == 0 || request.counters.empty()) return std::nullopt;
        const auto configs = counters::configs_of(request.counters.front()->agent);
        auto&      cfg     = config_for(prof, union_names(configs, request));
        // CUPTI's passes must fit in the passes left, and in no more passes than there are
        // configurations: a tool that counts each of its configurations at least once per
        // dispatch then always finishes the cycle, whatever it does in its other passes.
        const auto limit = std::min<uint64_t>(remaining, std::max<size_t>(configs.size(), 1));
        if(!cfg.error.empty() || cfg.passes == 0 || cfg.passes > limit)
        {
            const auto why =
                "the union of the agent's counter configurations (" +
                std::to_string(cfg.names.size()) + " metrics) " +
                (cfg.error.empty() ? "needs " + std::to_string(cfg.passes) +
                                         " CUPTI passes, more than " + std::to_string(limit)
                                   : "cannot be collected: " + cfg.error);
            common::log::warn_once("cuda-cycle-unused:" + std::to_string(cfg.passes),
                                   "cuda: counters are measured pass by pass (slower): " + why);
            ROCP_LOG(debug) << "cuda: no CUPTI replay cycle for pass " << request.pass << ": "
                            << why << " (" << remaining << " passes left)";
            return std::nullopt;
        }
        if(prof.cycle_owner != nullptr && prof.cycle_owner != &st)
        {
            // Another dispatch's cycle is in progress here (only possible without isolation).
            prof.cycle_owner->interrupted = true;
            prof.needs_reset              = true;
        }
        auto error = std::string{};
        auto set   = false;
        {
            auto timer = phase_timer{phases().set_config};
            set        = set_config(prof, cfg, error);
        }
        if(!set)
        {
            out.error = error;
            return launch();
        }
        st.cycle         = &cfg;
        st.opened        = true;
        st.open          = true;
        st.complete      = false;
        st.interrupted   = false;
        st.run           = 0;
        prof.cycle_owner = &st;
    }

    // The next CUPTI pass of the cycle.
    auto       timer = phase_timer{phases().cycle_pass};
    const auto run   = run_counted(prof, device, stream, launch);
    if(run.started != CUPTI_SUCCESS)
    {
        out.error = explain("cuptiRangeProfilerStart", run.started);
        end_cycle(prof, st, out.error, out.resolved);
        return launch();
    }
    const auto launched = run.launched;
    auto       scope    = internal_call_scope{}; // the wait and CUPTI's decoding below
    st.waiting.push_back(cycle_state::waiting_execution{request.execution, request.counters});
    st.run += 1;
    out.deferred = true;
    ROCP_LOG(debug) << "cuda: range profiler: dispatch pass " << request.pass << " ran CUPTI pass "
                    << st.run << " of " << st.cycle->passes;
    if(launched != CUDA_SUCCESS)
    {
        end_cycle(
            prof, st, "the counted kernel failed (" + error_name(launched) + ")", out.resolved);
        return launched;
    }
    if(run.stopped != CUPTI_SUCCESS)
    {
        end_cycle(prof, st, explain("cuptiRangeProfilerStop", run.stopped), out.resolved);
        return launched;
    }
    if(!run.all_submitted) return launched;

    auto waited = CUDA_SUCCESS;
    {
        auto phase = phase_timer{phases().wait};
        waited     = driver()->cuStreamSynchronize(stream);
    }
    auto error = std::string{};
    if(waited != CUDA_SUCCESS)
        error = "the counted kernel failed (" + error_name(waited) + ")";
    else
        decode_and_evaluate(prof, *st.cycle, st.values, error);
    if(!error.empty())
    {
        end_cycle(prof, st, error, out.resolved);
        return launched;
    }
    for(auto& w : st.waiting)
        out.resolved.push_back(
            dispatch::deferred_counters{w.execution, pick(*st.cycle, st.values, w.counters), {}});
    st.waiting.clear();
    st.open          = false;
    st.complete      = true;
    prof.cycle_owner = nullptr;
    phases().cycles.calls += 1;
    return launched;
}
} // namespace

std::string
explain(std::string_view call, CUptiResult result)
{
    const auto what = std::string{call} + " failed: " + result_text(result);
    switch(result)
    {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
        return "no permission to read the GPU's performance counters (ERR_NVGPUCTRPERM): run as "
               "root, or load the NVIDIA driver with NVreg_RestrictProfilingToAdminUsers=0 (see "
               "https://developer.nvidia.com/ERR_NVGPUCTRPERM); " +
               what;
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
    case CUPTI_ERROR_HARDWARE_BUSY:
        return "another profiler (Nsight Compute, Nsight Systems, DCGM or another CUPTI client) "
               "holds the GPU's performance counters; run without it to collect counters; " +
               what;
    case CUPTI_ERROR_INVALID_METRIC_NAME:
        return "a metric name is not known to CUPTI on this chip (rocprofv3 -L lists them); " +
               what;
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
        return "this device or configuration does not support CUPTI's range profiler; " + what;
    default:
        return what;
    }
}

std::vector<counters::counter_spec>
chip_metrics(std::string_view chip)
{
    auto out = std::vector<counters::counter_spec>{};
    if(!table().error.empty()) return out;
    auto lock  = std::lock_guard{host_api_mutex()};
    auto error = std::string{};
    auto host  = host_object{chip, nullptr, error};
    if(!error.empty())
    {
        ROCP_LOG(warning) << "cuda: " << error;
        return out;
    }
    const auto& t = table();
    for(auto type :
        {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_RATIO, CUPTI_METRIC_TYPE_THROUGHPUT})
    {
        auto base = CUpti_Profiler_Host_GetBaseMetrics_Params{
            CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE};
        base.pHostObject = host.get();
        base.metricType  = type;
        if(t.cuptiProfilerHostGetBaseMetrics(&base) != CUPTI_SUCCESS) continue;
        for(size_t i = 0; i < base.numMetrics; ++i)
        {
            const auto name = std::string{base.ppMetricNames[i]};
            // Names with a dot are CUPTI's internal triage metrics, not collectable by name.
            if(name.find('.') != std::string::npos) continue;
            auto props = CUpti_Profiler_Host_GetMetricProperties_Params{
                CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
            props.pHostObject = host.get();
            props.pMetricName = name.c_str();
            auto described    = t.cuptiProfilerHostGetMetricProperties(&props) == CUPTI_SUCCESS;
            for(const auto& [suffix, meaning] : rollups(type))
            {
                auto spec = counters::counter_spec{};
                spec.name = name + std::string{suffix};
                spec.description =
                    std::string{described && props.pDescription ? props.pDescription : name} +
                    " (" + std::string{meaning} + ")";
                spec.block      = described && props.pHwUnit ? props.pHwUnit : "";
                spec.is_derived = type != CUPTI_METRIC_TYPE_COUNTER;
                out.emplace_back(std::move(spec));
            }
        }
    }
    return out;
}

uint32_t
pass_count(std::string_view chip, const std::vector<std::string>& names, std::string* error)
{
    auto why = std::string{};
    if(const auto& t = table(); !t.error.empty()) why = t.error;
    auto passes = uint32_t{0};
    if(why.empty())
    {
        auto lock  = std::lock_guard{host_api_mutex()};
        auto host  = host_object{chip, nullptr, why};
        auto image = why.empty() ? host.config_image(c_names(names), why) : std::vector<uint8_t>{};
        if(why.empty()) passes = passes_of(image, why);
    }
    if(error != nullptr) *error = why;
    return why.empty() ? passes : 0;
}

std::vector<counters::counter_spec>
filter_for_device(std::vector<counters::counter_spec> metrics, uint32_t ordinal)
{
    const auto filter = metric_filter(ordinal);
    if(!filter) return metrics;
    auto kept = std::vector<counters::counter_spec>{};
    for(auto& spec : metrics)
        if(std::regex_search(spec.name, *filter)) kept.emplace_back(std::move(spec));
    return kept;
}

std::optional<counters::agent_counters>
agent_counters(uint32_t ordinal)
{
    if(const auto& t = table(); !t.error.empty())
    {
        common::log::warn_once("cuda-metrics-table", "cuda: no hardware counters: " + t.error);
        return std::nullopt;
    }
    auto error = std::string{};
    auto chip  = chip_name(ordinal, error);
    if(chip.empty())
    {
        common::log::warn_once("cuda-metrics-chip", "cuda: no hardware counters: " + error);
        return std::nullopt;
    }
    auto result     = counters::agent_counters{};
    result.counters = filter_for_device(chip_metrics(chip), ordinal);
    if(result.counters.empty())
    {
        ROCP_LOG(warning) << "cuda: device " << ordinal << " (" << chip
                          << ") lists no metrics; it has no counters";
        return std::nullopt;
    }
    auto names = std::make_shared<std::vector<std::string>>();
    for(const auto& spec : result.counters)
        names->emplace_back(spec.name);
    result.fits_in_one_pass = [chip, names](const std::vector<uint32_t>& indices)
    {
        auto selected = std::vector<std::string>{};
        for(auto index : indices)
            selected.emplace_back(names->at(index));
        auto why    = std::string{};
        auto passes = pass_count(chip, selected, &why);
        if(passes == 1) return ROCPROFILER_STATUS_SUCCESS;
        if(passes > 1) return ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT;
        ROCP_LOG(warning) << "cuda: counter configuration rejected: " << why;
        return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    };
    ROCP_LOG(info) << "cuda: device " << ordinal << " (" << chip << "): " << result.counters.size()
                   << " metrics";
    return result;
}

CUresult
measure(CUcontext                          ctx,
        int                                device,
        CUstream                           stream,
        const dispatch::execution_request& request,
        const std::function<CUresult()>&   launch,
        dispatch_counting&                 counting,
        measurement&                       out)
{
    auto& prof = profiler_of(ctx);
    // One counted execution at a time per context: the range profiler has one configuration.
    auto lock  = std::lock_guard{prof.mutex};
    auto total = phase_timer{phases().total};
    {
        auto timer = phase_timer{phases().enable};
        enable(prof, ctx, device);
    }
    if(!prof.error.empty())
    {
        out.error = prof.error;
        return launch();
    }
    if(!counting.impl) counting.impl = std::make_unique<dispatch_counting::state>();
    auto& st = *counting.impl;
    st.prof  = &prof;
    // User ranges (ROCPROFILER_CUDA_RANGE_MODE=user) push a range per counted execution, which
    // only the per-pass path does.
    if(request.replayed && schedule_per_dispatch() && !prof.cycles_off &&
       prof.range != CUPTI_UserRange)
    {
        if(auto launched = measure_in_cycle(prof, st, device, stream, request, launch, out))
            return *launched;
    }
    if(prof.cycle_owner != nullptr)
    {
        // Another dispatch's cycle is in progress here (only possible without isolation): it
        // ends without values when it next runs.
        prof.cycle_owner->interrupted = true;
        prof.cycle_owner              = nullptr;
        prof.needs_reset              = true;
    }

    auto& cfg = config_for(prof, names_of(request));
    if(cfg.error.empty() && cfg.passes != 1)
        out.error = "the configuration needs " + std::to_string(cfg.passes) +
                    " CUPTI passes on this context; one is collected per execution";
    else
        out.error = cfg.error;
    if(!out.error.empty()) return launch();
    auto set = false;
    {
        auto timer = phase_timer{phases().set_config};
        set        = set_config(prof, cfg, out.error);
    }
    if(!set) return launch();
    const auto run = run_counted(prof, device, stream, launch);
    if(run.started != CUPTI_SUCCESS)
    {
        out.error = explain("cuptiRangeProfilerStart", run.started);
        return launch();
    }
    const auto launched = run.launched;
    auto       scope    = internal_call_scope{}; // the wait and CUPTI's decoding below
    if(launched != CUDA_SUCCESS) return launched;
    if(run.stopped != CUPTI_SUCCESS)
    {
        out.error = explain("cuptiRangeProfilerStop", run.stopped);
        return launched;
    }
    // The values exist once the kernel finished; a kernel that faults reports its error through
    // the application's next synchronizing call, as without counters.
    auto waited = CUDA_SUCCESS;
    {
        auto timer = phase_timer{phases().wait};
        waited     = driver()->cuStreamSynchronize(stream);
    }
    if(auto rc = waited; rc != CUDA_SUCCESS)
    {
        out.error = "the counted kernel failed (" + error_name(rc) + ")";
        return launched;
    }
    auto result = std::vector<double>{};
    if(decode_and_evaluate(prof, cfg, result, out.error))
        for(size_t i = 0; i < request.counters.size() && i < result.size(); ++i)
            out.values.push_back(dispatch::counter_value{request.counters[i]->id, result[i]});
    return launched;
}

std::vector<dispatch::deferred_counters>
finish(dispatch_counting& counting)
{
    auto out = std::vector<dispatch::deferred_counters>{};
    if(!counting.impl || counting.impl->prof == nullptr) return out;
    auto& st   = *counting.impl;
    auto  lock = std::lock_guard{st.prof->mutex};
    if(!st.open) return out;
    const auto why = "the dispatch ended after " + std::to_string(st.run) + " of the " +
                     std::to_string(st.cycle->passes) +
                     " CUPTI passes its counters need (later passes did not count, or the replay "
                     "ended early)";
    st.prof->cycles_off = true;
    common::log::warn_once("cuda-cycle-unfinished",
                           "cuda: " + why +
                               "; from now on each pass on this context measures its own "
                               "configuration (ROCPROFILER_CUDA_COUNTER_SCHEDULE=pass does so "
                               "from the start)");
    end_cycle(*st.prof, st, why, out);
    return out;
}
} // namespace rocprofiler::cuda::metrics

namespace rocprofiler::counters
{
std::optional<agent_counters>
cuda_agent_counters(uint32_t device_ordinal)
{
    return cuda::metrics::agent_counters(device_ordinal);
}
} // namespace rocprofiler::counters
