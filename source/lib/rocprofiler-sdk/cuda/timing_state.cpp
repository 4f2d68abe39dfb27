#include "cuda/timing_state.hpp"

#include "cuda/driver.hpp"

namespace rocprofiler::cuda::timing
{
completion_state&
get_state()
{
    static auto* value = new completion_state{};
    return *value;
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
