// C entry points of internal_threading.h.
#include "buffer/buffer.hpp"
#include "buffer/callback_thread.hpp"
#include "common/api_guard.hpp"
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
}
