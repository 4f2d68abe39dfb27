#include "cuda/tracing/memory_copies.hpp"

#include "agent/agent.hpp"
#include "common/logging.hpp"
#include "common/static_object.hpp"
#include "common/thread.hpp"
#include "correlation/correlation.hpp"
#include "cuda/backend.hpp"
#include "cuda/cupti/cupti_callbacks.hpp"
#include "cuda/cupti/settings_cupti.hpp"
#include "cuda/interpose/driver.hpp"
#include "cuda/timing/cupti_activity.hpp"
#include "dispatch/dispatch.hpp"
#include "memory_copy/memory_copy.hpp"
#include "registration/shutdown.hpp"

#include <atomic>
#include <mutex>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace rocprofiler::cuda::memory_copies
{
namespace
{
// Copy calls waiting for their activity record. A call that fails makes no record: past this many
// entries they are forgotten (said in the log).
constexpr size_t max_pending = size_t{1} << 16;

// The application's thread and the correlation id reserved when it issued the copy.
struct issued
{
    uint64_t thread_id   = 0;
    uint64_t internal_id = 0;
};

struct bookkeeping
{
    std::mutex                           mutex        = {};
    std::unordered_map<uint32_t, issued> driver       = {}; // by CUPTI's driver correlation id
    std::unordered_map<uint32_t, issued> runtime      = {}; // by CUPTI's runtime correlation id
    uint64_t                             reported     = 0;
    uint64_t                             unattributed = 0; // no copy call of the application
    uint64_t                             incomplete   = 0; // no times (a forced flush)
};

bookkeeping&
books()
{
    struct value_tag;
    static auto* value =
        &common::static_object<bookkeeping, common::reset_order::never, value_tag>::
            get(); // CUPTI may deliver during exit: never destroyed
    return *value;
}

std::atomic<bool> running = false;

void
remember(std::unordered_map<uint32_t, issued>& map, uint32_t id)
{
    if(map.size() >= max_pending)
    {
        common::log::warn_once("cuda-memory-copies-pending",
                               "memory copy tracing: more than 65536 copy calls without an "
                               "activity record; older ones are forgotten (their copies are not "
                               "reported)");
        map.clear();
    }
    map[id] = issued{common::thread_id(), correlation::next_id()};
}

// The application's copy calls, at entry: the SDK's own (inside an internal_call_scope) are never
// remembered, so their records are left out.
void
on_copy_call(CUpti_CallbackDomain domain, CUpti_CallbackId, const CUpti_CallbackData* info)
{
    if(info == nullptr || info->callbackSite != CUPTI_API_ENTER) return;
    if(internal_call_scope::active()) return;
    auto& b    = books();
    auto  lock = std::lock_guard{b.mutex};
    if(domain == CUPTI_CB_DOMAIN_DRIVER_API)
        remember(b.driver, info->correlationId);
    else if(domain == CUPTI_CB_DOMAIN_RUNTIME_API)
        remember(b.runtime, info->correlationId);
}

std::vector<CUpti_CallbackId>
copy_entry_points(const cupti_activity_table& table, CUpti_CallbackDomain domain, uint32_t size)
{
    const auto prefix = domain == CUPTI_CB_DOMAIN_DRIVER_API ? std::string_view{"cuMemcpy"}
                                                             : std::string_view{"cudaMemcpy"};
    auto       out    = std::vector<CUpti_CallbackId>{};
    for(CUpti_CallbackId cbid = 1; cbid < size; ++cbid)
    {
        const char* name = nullptr;
        if(table.cuptiGetCallbackName(domain, cbid, &name) == CUPTI_SUCCESS && name != nullptr &&
           std::string_view{name}.substr(0, prefix.size()) == prefix)
            out.push_back(cbid);
    }
    return out;
}

std::optional<rocprofiler_agent_id_t>
agent_of(uint32_t device)
{
    return agent::id_of(get_device_backend(), device);
}

rocprofiler_memory_copy_operation_t
direction_of(uint8_t kind)
{
    switch(kind)
    {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
        return ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
        return ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
        return ROCPROFILER_MEMORY_COPY_DEVICE_TO_DEVICE;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
        return ROCPROFILER_MEMORY_COPY_HOST_TO_HOST;
    default:
        return ROCPROFILER_MEMORY_COPY_NONE;
    }
}

// The application's call that issued a copy, or nothing when the application made none (the SDK's
// own copies; copies of a CUDA graph, whose launch is no copy call). A runtime call wins: its
// driver call inside came later.
std::optional<issued>
issuer_of(uint32_t driver_id, uint32_t runtime_id)
{
    auto& b    = books();
    auto  lock = std::lock_guard{b.mutex};
    auto  out  = std::optional<issued>{};
    if(auto itr = b.driver.find(driver_id); driver_id != 0 && itr != b.driver.end())
    {
        out = itr->second;
        b.driver.erase(itr);
    }
    if(auto itr = b.runtime.find(runtime_id); runtime_id != 0 && itr != b.runtime.end())
    {
        out = itr->second;
        b.runtime.erase(itr);
    }
    if(out)
        ++b.reported;
    else
        ++b.unattributed;
    return out;
}

void
report(rocprofiler_memory_copy_operation_t direction,
       std::optional<uint32_t>             src_device,
       std::optional<uint32_t>             dst_device,
       uint64_t                            bytes,
       uint64_t                            start,
       uint64_t                            end,
       const issued&                       by)
{
    if(start == 0 || end < start)
    {
        auto& b    = books();
        auto  lock = std::lock_guard{b.mutex};
        ++b.incomplete;
        return;
    }
    auto c      = memory_copy::copy{};
    c.direction = direction;
    if(src_device) c.src_agent = agent_of(*src_device).value_or(rocprofiler_agent_id_t{0});
    if(dst_device) c.dst_agent = agent_of(*dst_device).value_or(rocprofiler_agent_id_t{0});
    c.bytes       = bytes;
    c.start_ns    = start;
    c.end_ns      = end;
    c.thread_id   = by.thread_id;
    c.internal_id = by.internal_id;
    memory_copy::report(c);
}
// At finalization, before the tools' buffers are flushed: the copies CUPTI still holds.
void
flush_at_exit()
{
    timing::flush_records(0);
    timing::flush_records(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    auto& b    = books();
    auto  lock = std::lock_guard{b.mutex};
    ROCP_LOG(debug) << "memory copy tracing: " << b.reported << " CUDA copies reported, "
                    << b.unattributed << " without a copy call of the application left out, "
                    << b.incomplete << " without times";
    if(b.incomplete > 0)
        ROCP_LOG(warning) << "memory copy tracing: " << b.incomplete
                          << " CUDA copies had no times when the process ended (still running, "
                             "or CUPTI never wrote them); they are not in the outputs";
}
} // namespace

const std::vector<CUpti_ActivityKind>&
activity_kinds()
{
    static const auto kinds =
        std::vector<CUpti_ActivityKind>{CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMCPY2};
    return kinds;
}

void
start()
{
    static std::once_flag once;
    std::call_once(
        once,
        []
        {
            if(!memory_copy::configured()) return;
            auto scope = internal_call_scope{};
            if(!settings::read_cupti_activity_enabled())
            {
                ROCP_LOG(warning) << "memory copy tracing: ROCPROFILER_CUDA_CUPTI=0: copies of "
                                     "CUDA devices are not traced";
                return;
            }
            const auto* table = timing::activity_table();
            if(table == nullptr)
            {
                ROCP_LOG(warning) << "memory copy tracing: CUPTI's activity API is not available "
                                     "(set ROCPROFILER_CUPTI_LIBRARY); copies of CUDA devices "
                                     "are not traced";
                return;
            }
            const auto driver =
                copy_entry_points(*table, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE);
            const auto runtime = copy_entry_points(
                *table, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE);
            if(driver.empty() ||
               !cupti_callbacks::route(*table, CUPTI_CB_DOMAIN_DRIVER_API, driver, on_copy_call) ||
               !cupti_callbacks::route(*table, CUPTI_CB_DOMAIN_RUNTIME_API, runtime, on_copy_call))
            {
                ROCP_LOG(warning) << "memory copy tracing: CUPTI's API callbacks for the copy "
                                     "entry points are not available; copies of CUDA devices are "
                                     "not traced (the SDK's own could not be told apart)";
                return;
            }
            if(!timing::enable_activity_kinds(activity_kinds()))
            {
                ROCP_LOG(warning) << "memory copy tracing: CUPTI's memcpy activity could not be "
                                     "enabled; copies of CUDA devices are not traced";
                return;
            }
            registration::add_shutdown_hook(flush_at_exit);
            running.store(true, std::memory_order_release);
            ROCP_LOG(debug) << "memory copy tracing: CUPTI memcpy activity on (" << driver.size()
                            << " driver and " << runtime.size() << " runtime copy entry points)";
        });
}

bool
on()
{
    return running.load(std::memory_order_acquire);
}

void
on_record(const CUpti_Activity* record)
{
    if(record == nullptr) return;
    if(record->kind == CUPTI_ACTIVITY_KIND_MEMCPY)
    {
        const auto* m  = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
        const auto  by = issuer_of(m->correlationId, m->runtimeCorrelationId);
        if(!by) return;
        const auto direction = direction_of(m->copyKind);
        const bool src_dev   = direction == ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST ||
                             direction == ROCPROFILER_MEMORY_COPY_DEVICE_TO_DEVICE;
        const bool dst_dev = direction == ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE ||
                             direction == ROCPROFILER_MEMORY_COPY_DEVICE_TO_DEVICE;
        report(direction,
               src_dev ? std::optional<uint32_t>{m->deviceId} : std::nullopt,
               dst_dev ? std::optional<uint32_t>{m->deviceId} : std::nullopt,
               m->bytes,
               m->start,
               m->end,
               *by);
    }
    else if(record->kind == CUPTI_ACTIVITY_KIND_MEMCPY2)
    {
        const auto* m  = reinterpret_cast<const CUpti_ActivityMemcpyPtoP4*>(record);
        const auto  by = issuer_of(m->correlationId, 0);
        if(!by) return;
        report(ROCPROFILER_MEMORY_COPY_DEVICE_TO_DEVICE,
               m->srcDeviceId,
               m->dstDeviceId,
               m->bytes,
               m->start,
               m->end,
               *by);
    }
}
} // namespace rocprofiler::cuda::memory_copies
