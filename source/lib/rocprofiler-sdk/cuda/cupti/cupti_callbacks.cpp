#include "cuda/cupti/cupti_callbacks.hpp"

#include "common/logging.hpp"
#include "common/static_object.hpp"

#include <array>
#include <atomic>
#include <mutex>

namespace rocprofiler::cuda::cupti_callbacks
{
namespace
{
// One handler's callbacks: a flag per callback id of its domain.
struct route_entry
{
    CUpti_CallbackDomain domain = CUPTI_CB_DOMAIN_INVALID;
    std::vector<uint8_t> wanted = {};
    handler              fn     = nullptr;
};

constexpr size_t max_routes = 8;

struct subscription
{
    std::mutex                          mutex      = {};
    bool                                subscribed = false;
    bool                                refused    = false;
    CUpti_SubscriberHandle              subscriber = {};
    std::array<route_entry, max_routes> routes     = {};
    std::atomic<size_t>                 count      = 0; // published routes
};

subscription&
get_subscription()
{
    struct value_tag;
    static auto* value =
        &common::static_object<subscription, common::reset_order::never, value_tag>::
            get(); // CUPTI may call back during exit: never destroyed
    return *value;
}

void CUPTIAPI
dispatch(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data)
{
    auto&      sub   = get_subscription();
    const auto count = sub.count.load(std::memory_order_acquire);
    for(size_t i = 0; i < count; ++i)
    {
        const auto& r = sub.routes[i];
        if(r.domain == domain && cbid < r.wanted.size() && r.wanted[cbid] != 0)
            r.fn(domain, cbid, static_cast<const CUpti_CallbackData*>(data));
    }
}

std::string
text(const cupti_activity_table& table, CUptiResult result)
{
    const char* str = nullptr;
    if(table.cuptiGetResultString != nullptr) table.cuptiGetResultString(result, &str);
    return str != nullptr ? str : "CUptiResult " + std::to_string(static_cast<int>(result));
}
} // namespace

bool
route(const cupti_activity_table&          table,
      CUpti_CallbackDomain                 domain,
      const std::vector<CUpti_CallbackId>& cbids,
      handler                              fn)
{
    auto& sub  = get_subscription();
    auto  lock = std::lock_guard{sub.mutex};
    if(sub.refused) return false;
    if(!sub.subscribed)
    {
        if(auto result = table.cuptiSubscribe(&sub.subscriber, dispatch, nullptr);
           result != CUPTI_SUCCESS)
        {
            sub.refused = true;
            ROCP_LOG(warning) << "cuda: cuptiSubscribe failed: " << text(table, result);
            return false;
        }
        sub.subscribed = true;
    }
    const auto index = sub.count.load(std::memory_order_relaxed);
    if(index == max_routes) return false;
    auto entry   = route_entry{};
    entry.domain = domain;
    entry.fn     = fn;
    for(auto cbid : cbids)
    {
        if(cbid >= entry.wanted.size()) entry.wanted.resize(cbid + 1, 0);
        entry.wanted[cbid] = 1;
    }
    // Published before the ids are enabled, so that no enabled callback finds no route.
    sub.routes[index] = std::move(entry);
    sub.count.store(index + 1, std::memory_order_release);
    auto ok = true;
    for(auto cbid : cbids)
        if(auto result = table.cuptiEnableCallback(1, sub.subscriber, domain, cbid);
           result != CUPTI_SUCCESS)
        {
            ROCP_LOG(warning) << "cuda: cuptiEnableCallback(" << cbid
                              << ") failed: " << text(table, result);
            ok = false;
        }
    return ok;
}
} // namespace rocprofiler::cuda::cupti_callbacks
