// C entry points of buffer.h: argument and lifecycle checks, then rocprofiler::buffer.
#include "buffer/buffer.hpp"

#include "common/api_guard.hpp"
#include "registration/registration.hpp"

#include <rocprofiler-sdk/buffer.h>

extern "C"
{
    rocprofiler_status_t rocprofiler_create_buffer(rocprofiler_context_id_t        context,
                                                   size_t                          size,
                                                   size_t                          watermark,
                                                   rocprofiler_buffer_policy_t     policy,
                                                   rocprofiler_buffer_tracing_cb_t callback,
                                                   void*                           callback_data,
                                                   rocprofiler_buffer_id_t*        buffer_id)
    {
        ROCP_API_GUARD_BEGIN
        if(rocprofiler::registration::configuration_locked())
            return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
        return rocprofiler::buffer::create(
            context, size, watermark, policy, callback, callback_data, buffer_id);
        ROCP_API_GUARD_END("rocprofiler_create_buffer")
    }

    rocprofiler_status_t rocprofiler_flush_buffer(rocprofiler_buffer_id_t buffer_id)
    {
        ROCP_API_GUARD_BEGIN
        return rocprofiler::buffer::flush(buffer_id, true);
        ROCP_API_GUARD_END("rocprofiler_flush_buffer")
    }

    rocprofiler_status_t rocprofiler_destroy_buffer(rocprofiler_buffer_id_t buffer_id)
    {
        ROCP_API_GUARD_BEGIN
        return rocprofiler::buffer::destroy(buffer_id);
        ROCP_API_GUARD_END("rocprofiler_destroy_buffer")
    }
}
