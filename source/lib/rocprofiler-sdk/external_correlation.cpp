// C entry points of external_correlation.h.
#include "common/api_guard.hpp"
#include "context/context.hpp"
#include "registration/registration.hpp"

#include <rocprofiler-sdk/external_correlation.h>

#include <cstring>

namespace
{
// The name of each request kind, by value (index 0 is NONE, which has none).
constexpr const char* request_kind_names[] = {nullptr,
                                              "HSA_CORE_API",
                                              "HSA_AMD_EXT_API",
                                              "HSA_IMAGE_EXT_API",
                                              "HSA_FINALIZE_EXT_API",
                                              "HIP_RUNTIME_API",
                                              "HIP_COMPILER_API",
                                              "MARKER_CORE_API",
                                              "MARKER_CONTROL_API",
                                              "MARKER_NAME_API",
                                              "MEMORY_COPY",
                                              "KERNEL_DISPATCH",
                                              "SCRATCH_MEMORY",
                                              "RCCL_API",
                                              "OMPT",
                                              "MEMORY_ALLOCATION",
                                              "ROCDECODE_API",
                                              "ROCJPEG_API",
                                              "MARKER_CORE_RANGE_API",
                                              "CUDA_RUNTIME_API",
                                              "CUDA_DRIVER_API"};
static_assert(sizeof(request_kind_names) / sizeof(request_kind_names[0]) ==
                  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST,
              "one name per external correlation request kind");
} // namespace

extern "C"
{
    rocprofiler_status_t
    rocprofiler_push_external_correlation_id(rocprofiler_context_id_t context,
                                             rocprofiler_thread_id_t  tid,
                                             rocprofiler_user_data_t  external_correlation_id)
    {
        ROCP_API_GUARD_BEGIN
        auto* ctx = rocprofiler::context::get(context);
        if(ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
        if(tid == 0) return ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND;
        ctx->external_ids.push(tid, external_correlation_id);
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_push_external_correlation_id")
    }

    rocprofiler_status_t
    rocprofiler_pop_external_correlation_id(rocprofiler_context_id_t context,
                                            rocprofiler_thread_id_t  tid,
                                            rocprofiler_user_data_t* external_correlation_id)
    {
        ROCP_API_GUARD_BEGIN
        auto* ctx = rocprofiler::context::get(context);
        if(ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
        if(tid == 0 || !ctx->external_ids.pop(tid, external_correlation_id))
            return ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND;
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_pop_external_correlation_id")
    }

    rocprofiler_status_t rocprofiler_configure_external_correlation_id_request_service(
        rocprofiler_context_id_t                                  context_id,
        const rocprofiler_external_correlation_id_request_kind_t* kinds,
        size_t                                                    kinds_count,
        rocprofiler_external_correlation_id_request_cb_t          callback,
        void*                                                     callback_args)
    {
        ROCP_API_GUARD_BEGIN
        namespace rp = rocprofiler;
        auto* ctx    = static_cast<rp::context::context*>(nullptr);
        ROCP_RETURN_IF_ERROR(rp::registration::configurable_context(context_id, &ctx));
        if(callback == nullptr || (kinds == nullptr && kinds_count != 0))
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        auto set = std::bitset<ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST>{};
        for(size_t i = 0; i < kinds_count; ++i)
        {
            if(kinds[i] <= ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_NONE ||
               kinds[i] >= ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST)
                return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
            set.set(kinds[i]);
        }
        if(ctx->correlation_request) return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
        ctx->correlation_request =
            std::make_unique<rp::context::external_correlation_request_service>(
                rp::context::external_correlation_request_service{set, callback, callback_args});
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_configure_external_correlation_id_request_service")
    }

    rocprofiler_status_t rocprofiler_query_external_correlation_id_request_kind_name(
        rocprofiler_external_correlation_id_request_kind_t kind,
        const char**                                       name,
        uint64_t*                                          name_len)
    {
        ROCP_API_GUARD_BEGIN
        if(name == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        if(kind <= ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_NONE ||
           kind >= ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST)
            return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
        *name = request_kind_names[kind];
        if(name_len != nullptr) *name_len = std::strlen(*name);
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_query_external_correlation_id_request_kind_name")
    }
}
