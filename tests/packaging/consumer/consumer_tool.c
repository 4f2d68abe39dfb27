/* A minimal tool built against the installed headers and library. */
#include <rocprofiler-sdk/rocprofiler.h>

#include <stdio.h>

static rocprofiler_context_id_t context;
static int                      completions = 0;

static void
on_dispatch(rocprofiler_callback_tracing_record_t record,
            rocprofiler_user_data_t*              user_data,
            void*                                 data)
{
    (void)user_data;
    (void)data;
    if(record.operation == ROCPROFILER_KERNEL_DISPATCH_COMPLETE) ++completions;
}

static int
tool_init(rocprofiler_client_finalize_t fini, void* data)
{
    (void)fini;
    (void)data;
    if(rocprofiler_create_context(&context) != ROCPROFILER_STATUS_SUCCESS) return 1;
    if(rocprofiler_configure_callback_tracing_service(
           context, ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH, NULL, 0, on_dispatch, NULL) !=
       ROCPROFILER_STATUS_SUCCESS)
        return 1;
    return rocprofiler_start_context(context) == ROCPROFILER_STATUS_SUCCESS ? 0 : 1;
}

static void
tool_fini(void* data)
{
    (void)data;
    printf("consumer-tool: %d completions\n", completions);
}

rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t                 version,
                      const char*              runtime_version,
                      uint32_t                 priority,
                      rocprofiler_client_id_t* id)
{
    static rocprofiler_tool_configure_result_t result = {
        sizeof(result), tool_init, tool_fini, NULL};
    (void)version;
    (void)runtime_version;
    if(priority > 0) return NULL;
    id->name = "consumer-tool";
    return &result;
}
