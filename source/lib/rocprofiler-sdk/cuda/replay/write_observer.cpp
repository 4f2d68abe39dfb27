#include "cuda/replay/write_observer.hpp"

#include "common/logging.hpp"
#include "cuda/cupti/cupti_callbacks.hpp"
#include "cuda/cupti/cupti_loader.hpp"
#include "cuda/cupti/settings_cupti.hpp"
#include "cuda/interpose/driver.hpp"
#include "cuda/replay/allocation_tracker.hpp"

#include <atomic>
#include <mutex>
#include <vector>

namespace rocprofiler::cuda
{
namespace
{
std::atomic<uint64_t> writer_calls = 0;
std::atomic<bool>     observing    = false;

void
on_writer_call(CUpti_CallbackDomain, CUpti_CallbackId, const CUpti_CallbackData*)
{
    // Entry and exit both count: a call that began before a window read the epoch and ends while
    // the window is open must still keep that window's hashes from being used again.
    if(internal_call_scope::active()) return;
    writer_calls.fetch_add(1, std::memory_order_acq_rel);
}

bool
starts_with(std::string_view name, std::string_view prefix)
{
    return name.substr(0, prefix.size()) == prefix;
}
} // namespace

bool
may_write_device_memory(std::string_view name)
{
    if(starts_with(name, "cuMemcpy"))
    {
        // Only host memory is written by these.
        for(auto to_host : {"cuMemcpyDtoH", "cuMemcpyAtoH"})
            if(starts_with(name, to_host)) return false;
        return true;
    }
    if(starts_with(name, "cuLaunchHostFunc")) return false;
    for(auto prefix : {"cuMemset",
                       "cuLaunch",
                       "cuGraphLaunch",
                       "cuStreamWriteValue",
                       "cuStreamBatchMemOp",
                       "cuMemBatchDecompress",
                       "cuMemDiscard"})
        if(starts_with(name, prefix)) return true;
    return false;
}

void
start_write_observer()
{
    static std::once_flag once;
    std::call_once(
        once,
        []
        {
            if(!settings::read_cupti_activity_enabled()) return;
            void* handle = cupti_library();
            if(handle == nullptr) return;
            static auto* table = load_activity_table(handle);
            if(table == nullptr) return;
            auto cbids = std::vector<CUpti_CallbackId>{};
            for(CUpti_CallbackId cbid = 1; cbid < CUPTI_DRIVER_TRACE_CBID_SIZE; ++cbid)
            {
                const char* name = nullptr;
                if(table->cuptiGetCallbackName(CUPTI_CB_DOMAIN_DRIVER_API, cbid, &name) ==
                       CUPTI_SUCCESS &&
                   name != nullptr && may_write_device_memory(name))
                    cbids.push_back(cbid);
            }
            if(cbids.empty()) return;
            if(!cupti_callbacks::route(*table, CUPTI_CB_DOMAIN_DRIVER_API, cbids, on_writer_call))
            {
                ROCP_LOG(info) << "[kernel-replay] the driver's memory writers cannot be observed "
                                  "(no CUPTI callbacks): every replay window hashes its "
                                  "verification set afresh";
                return;
            }
            observing.store(true, std::memory_order_release);
            ROCP_LOG(debug) << "[kernel-replay] observing " << cbids.size()
                            << " driver entry points that may write device memory";
        });
}

std::optional<uint64_t>
write_epoch()
{
    if(!observing.load(std::memory_order_acquire)) return std::nullopt;
    return writer_calls.load(std::memory_order_acquire) + tracked_changes();
}
} // namespace rocprofiler::cuda
