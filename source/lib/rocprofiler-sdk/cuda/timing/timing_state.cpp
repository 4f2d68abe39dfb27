#include "cuda/timing/timing_state.hpp"
#include "common/static_object.hpp"

#include "cuda/interpose/driver.hpp"

namespace rocprofiler::cuda::timing
{
completion_state&
get_state()
{
    return common::static_object<completion_state, common::reset_order::never>::get();
}

CUevent
take_event(CUcontext ctx)
{
    auto& st = get_state();
    {
        auto  lock        = std::lock_guard{st.pool_mutex};
        auto& free_events = st.pool[ctx];
        if(!free_events.empty())
        {
            auto* event = free_events.back();
            free_events.pop_back();
            return event;
        }
    }
    auto event = CUevent{};
    if(driver()->cuEventCreate(&event, CU_EVENT_DEFAULT) != CUDA_SUCCESS) return nullptr;
    return event;
}

void
give_event(CUcontext ctx, CUevent event)
{
    if(event == nullptr) return;
    auto& st   = get_state();
    auto  lock = std::lock_guard{st.pool_mutex};
    st.pool[ctx].push_back(event);
}
} // namespace rocprofiler::cuda::timing
