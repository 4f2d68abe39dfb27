#include "cuda/timing/cupti_activity.hpp"

#include "context/context.hpp"

#include "common/logging.hpp"
#include "common/time.hpp"
#include "cuda/cupti/cupti_call.hpp"
#include "cuda/cupti/cupti_callbacks.hpp"
#include "cuda/cupti/cupti_loader.hpp"
#include "cuda/cupti/settings_cupti.hpp"
#include "cuda/interpose/driver.hpp"
#include "cuda/timing/timing_state.hpp"
#include "cuda/tracing/graph_kernels.hpp"
#include "cuda/tracing/memory_copies.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace rocprofiler::cuda::timing
{
namespace
{
// Correlation ids of the launch the calling thread is making, written by CUPTI's API callbacks,
// which run on the launching thread inside the driver call.
thread_local uint32_t this_thread_driver_id  = 0;
thread_local uint32_t this_thread_runtime_id = 0;

cupti_activity_table* cupti      = nullptr; // set once by register_activity(), never freed
std::atomic<bool>     cupti_on   = false;   // kernel activity runs
std::atomic<bool>     registered = false;   // the buffer callbacks are registered

uint64_t CUPTIAPI
sdk_timestamp()
{
    return common::timestamp_ns();
}

// 4 MiB when buffers fill up; 16 KiB (many kernel records' worth) when each holds a few.
size_t
activity_buffer_bytes()
{
    static const size_t value = buffer_records() == 0 ? (size_t{4} << 20) : (size_t{16} << 10);
    return value;
}

void CUPTIAPI
buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records)
{
    const auto bytes = activity_buffer_bytes();
    *buffer          = static_cast<uint8_t*>(std::aligned_alloc(8, bytes));
    *size            = (*buffer != nullptr) ? bytes : 0;
    *max_records     = buffer_records();
}

void CUPTIAPI
buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid)
{
    auto& st     = get_state();
    auto  copies = std::vector<const CUpti_Activity*>{};
    auto  graphs = std::vector<const CUpti_Activity*>{};
    {
        auto lock = std::lock_guard{st.records_mutex};
        for_each_activity_record(
            *cupti,
            buffer,
            valid,
            [&](const CUpti_Activity* record)
            {
                if(record->kind == CUPTI_ACTIVITY_KIND_MEMCPY ||
                   record->kind == CUPTI_ACTIVITY_KIND_MEMCPY2)
                {
                    copies.push_back(record);
                    return;
                }
                if(record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
                   record->kind != CUPTI_ACTIVITY_KIND_KERNEL)
                    return;
                const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
                // A graph's kernel node belongs to no intercepted launch (graph_kernels.hpp).
                if(kernel->graphId != 0)
                {
                    graphs.push_back(record);
                    return;
                }
                // Kernel replay's own hash and compare kernels (replay_kernels.hpp) run between
                // the passes of a dispatch, inside the application's launch call: their records
                // may carry its runtime correlation id, and must never be taken for a pass's.
                if(kernel->name != nullptr && std::strncmp(kernel->name, "rocp_replay_", 12) == 0)
                    return;
                ++st.stats.records;
                if(timestamp_source() == source::cupti)
                    st.records.add(kernel->correlationId, kernel_times{kernel->start, kernel->end});
                if(kernel->start == 0 || kernel->end <= kernel->start) return;
                match_calibration_record(st,
                                         kernel->correlationId,
                                         static_cast<int64_t>(kernel->start),
                                         static_cast<int64_t>(kernel->end));
            });
    }
    // Outside the records lock: a tool's full buffer may make the report wait.
    for(const auto* copy : copies)
        memory_copies::on_record(copy);
    for(const auto* node : graphs)
        graph_kernels::on_record(*node);
    std::free(buffer);
    {
        auto lock = std::lock_guard{st.records_mutex};
        st.buffers_delivered += 1;
    }
    st.records_cv.notify_all();
}

void
on_api_callback(CUpti_CallbackDomain domain, CUpti_CallbackId, const CUpti_CallbackData* info)
{
    if(domain == CUPTI_CB_DOMAIN_DRIVER_API)
    {
        if(info->callbackSite == CUPTI_API_ENTER) this_thread_driver_id = info->correlationId;
    }
    else if(domain == CUPTI_CB_DOMAIN_RUNTIME_API)
    {
        this_thread_runtime_id = (info->callbackSite == CUPTI_API_ENTER) ? info->correlationId : 0;
    }
}

// True when some context counts dispatches. CUPTI's kernel activity records change what the
// hardware counts (on the H200, 8 more warp instructions per warp of a kernel and a few dozen in
// all, from the timestamps CUPTI adds around the kernel), so counting runs take kernel timestamps
// from CUDA events instead.
bool
counting_configured()
{
    auto any = false;
    context::for_each(
        [&any](context::context& ctx)
        {
            if(ctx.dispatch_counter) any = true;
        });
    return any;
}

// Routes the launch entry points of the driver and the runtime to on_api_callback, whose callbacks
// give the correlation ids of each launch (the SDK's one subscription: cupti_callbacks.hpp).
bool
subscribe_launch_callbacks()
{
    const auto driver_ok =
        cupti_callbacks::route(*cupti,
                               CUPTI_CB_DOMAIN_DRIVER_API,
                               {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
                                CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
                                CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
                                CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
                                CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
                                CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz},
                               on_api_callback);
    if(!driver_ok) return false;
    cupti_callbacks::route(*cupti,
                           CUPTI_CB_DOMAIN_RUNTIME_API,
                           {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
                            CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
                            CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
                            CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
                            CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
                            CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
                            CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
                            CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000},
                           on_api_callback);
    return true;
}

// Loads the activity table and registers the timestamp and buffer callbacks, once; kernel and
// memcpy activity share them. False (every time) when that failed.
bool
register_activity()
{
    static const bool ok = []
    {
        void* handle = cupti_library();
        if(handle == nullptr) return false;
        auto* table = load_activity_table(handle);
        if(table == nullptr) return false;
        cupti = table;
        // Per-thread activity buffers (CUPTI's default: 1) can be switched off for comparison;
        // the attribute must be set before the buffer callbacks are registered.
        if(auto per_thread = settings::read_per_thread_buffers())
        {
            auto value = *per_thread;
            auto size  = sizeof(value);
            ROCP_CUPTI_CALL(cupti->cuptiActivitySetAttribute(
                CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER, &size, &value));
        }
        // The timestamp callback must be in place before any activity kind is enabled.
        if(!ROCP_CUPTI_CALL(cupti->cuptiActivityRegisterTimestampCallback(sdk_timestamp)))
            return false;
        if(!ROCP_CUPTI_CALL(
               cupti->cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed)))
            return false;
        if(flush_period_ms() > 0)
            ROCP_CUPTI_CALL(cupti->cuptiActivityFlushPeriod(flush_period_ms()));
        registered.store(true, std::memory_order_release);
        return true;
    }();
    return ok;
}

bool
start_cupti()
{
    if(!settings::read_cupti_activity_enabled()) return false;
    if(counting_configured())
    {
        ROCP_LOG(info) << "cuda: dispatch counting is configured: kernel timestamps come from CUDA "
                          "events (CUPTI's kernel records would change the counted values)";
        return false;
    }
    if(!register_activity())
    {
        ROCP_LOG(warning) << "cuda: CUPTI not found or unusable (set ROCPROFILER_CUPTI_LIBRARY); "
                             "kernel timestamps come from CUDA events";
        return false;
    }
    if(!subscribe_launch_callbacks()) return false;
    if(!ROCP_CUPTI_CALL(cupti->cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)))
        return false;
    ROCP_LOG(debug) << "cuda: CUPTI kernel activity enabled, timestamps on CLOCK_MONOTONIC";
    return true;
}
} // namespace

const cupti_activity_table*
activity_table()
{
    auto scope = internal_call_scope{};
    return register_activity() ? cupti : nullptr;
}

bool
enable_activity_kinds(const std::vector<CUpti_ActivityKind>& kinds)
{
    if(activity_table() == nullptr) return false;
    auto ok = true;
    for(auto kind : kinds)
        ok = ROCP_CUPTI_CALL(cupti->cuptiActivityEnable(kind)) && ok;
    return ok;
}

uint32_t
flush_period_ms()
{
    static const auto value = static_cast<uint32_t>(
        settings::read_flush_period_ms(flush_policy() == flush_mode::owner ? 1 : 0));
    return value;
}

size_t
buffer_records()
{
    static const auto value = static_cast<size_t>(
        settings::read_buffer_records(flush_policy() == flush_mode::owner ? 1 : 0));
    return value;
}

void
start_activity()
{
    static std::once_flag once;
    std::call_once(once,
                   []
                   {
                       auto scope = internal_call_scope{};
                       cupti_on.store(start_cupti());
                   });
}

bool
activity_on()
{
    return cupti_on.load();
}

uint32_t
launch_driver_id()
{
    return this_thread_driver_id;
}

uint32_t
launch_runtime_id()
{
    return this_thread_runtime_id;
}

void
reset_launch_driver_id()
{
    this_thread_driver_id = 0;
}

void
flush_records(uint32_t flags)
{
    if(!registered.load(std::memory_order_acquire)) return;
    const auto started = common::timestamp_ns();
    {
        auto scope = internal_call_scope{};
        cupti->cuptiActivityFlushAll(flags);
    }
    const auto took = common::timestamp_ns() - started;
    auto&      st   = get_state();
    auto       lock = std::lock_guard{st.records_mutex};
    st.stats.flushes += 1;
    st.stats.flush_total_ns += took;
    st.stats.flush_max_ns = std::max(st.stats.flush_max_ns, took);
    st.last_flush_ns      = common::timestamp_ns();
}
} // namespace rocprofiler::cuda::timing
