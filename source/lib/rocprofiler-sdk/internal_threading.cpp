// C entry points of internal_threading.h.
#include "buffer/buffer.hpp"
#include "buffer/callback_thread.hpp"
#include "common/api_guard.hpp"
#include "common/thread_hooks.hpp"
#include "registration/registration.hpp"

#include <rocprofiler-sdk/internal_threading.h>

extern "C"
{
    rocprofiler_status_t
    rocprofiler_create_callback_thread(rocprofiler_callback_thread_t* cb_thread_id)
    {
        ROCP_API_GUARD_BEGIN
        if(rocprofiler::registration::configuration_locked())
            return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
        if(cb_thread_id == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        return rocprofiler::internal_threading::create_callback_thread(cb_thread_id);
        ROCP_API_GUARD_END("rocprofiler_create_callback_thread")
    }

    rocprofiler_status_t
    rocprofiler_assign_callback_thread(rocprofiler_buffer_id_t       buffer_id,
                                       rocprofiler_callback_thread_t cb_thread_id)
    {
        ROCP_API_GUARD_BEGIN
        if(rocprofiler::registration::configuration_locked())
            return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
        return rocprofiler::buffer::assign_callback_thread(buffer_id, cb_thread_id);
        ROCP_API_GUARD_END("rocprofiler_assign_callback_thread")
    }

    rocprofiler_status_t
    rocprofiler_at_internal_thread_create(rocprofiler_internal_thread_library_cb_t precreate,
                                          rocprofiler_internal_thread_library_cb_t postcreate,
                                          int                                      libs,
                                          void*                                    data)
    {
        ROCP_API_GUARD_BEGIN
        if(rocprofiler::registration::configuration_locked())
            return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
        constexpr int known = (ROCPROFILER_LIBRARY_LAST << 1) - 1;
        if((precreate == nullptr && postcreate == nullptr) || (libs & known) == 0)
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        rocprofiler::common::thread_hooks::add(precreate, postcreate, libs & known, data);
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_at_internal_thread_create")
    }
}
