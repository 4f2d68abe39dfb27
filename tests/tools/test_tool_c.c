/*
 * test-tool-c: a tool written in C99. It is the compile check of the public headers as C (built
 * with -std=c99 -Wall -Wextra -pedantic -Werror): it includes the umbrella header and then every
 * header on its own, and uses the C-specific spellings (ROCPROFILER_CONTEXT_NONE as a compound
 * literal, the anonymous members of rocprofiler_record_header_t).
 *
 * At run time it configures callback kernel dispatch tracing and buffer kernel dispatch tracing
 * (LOSSLESS, default callback thread) and at finalization writes a line-based text file to the
 * path in the environment variable TEST_TOOL_C_OUTPUT:
 *
 *   tool test-tool-c priority=<p>
 *   counts enqueue_enter=<n> enqueue_exit=<n> complete=<n> buffer=<n> drops=<n> overflow=<n>
 *   cb op=<op> phase=<phase> dispatch_id=<id> thread=<tid> corr=<internal> start=<ns> end=<ns>
 *   buf dispatch_id=<id> kernel_id=<id> queue_id=<id> agent_id=<id> grid=<x>,<y>,<z>
 *       wg=<x>,<y>,<z> private=<bytes> group=<bytes> start=<ns> end=<ns> thread=<tid>
 *       corr=<internal> kind=<kind> op=<op>           (one line)
 *   name kind=KERNEL_DISPATCH enqueue=ENQUEUE complete=COMPLETE
 *   end
 */
#define _POSIX_C_SOURCE 200809L

#include <rocprofiler-sdk/rocprofiler.h>

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/buffer.h>
#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/context.h>
#include <rocprofiler-sdk/counter_config.h>
#include <rocprofiler-sdk/counters.h>
#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/device_counting_service.h>
#include <rocprofiler-sdk/dispatch_counting_service.h>
#include <rocprofiler-sdk/experimental/kernel_replay.h>
#include <rocprofiler-sdk/experimental/spm.h>
#include <rocprofiler-sdk/experimental/thread_trace.h>
#include <rocprofiler-sdk/external_correlation.h>
#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/internal_threading.h>
#include <rocprofiler-sdk/marker.h>
#include <rocprofiler-sdk/marker/api_args.h>
#include <rocprofiler-sdk/marker/api_id.h>
#include <rocprofiler-sdk/pc_sampling.h>
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/version.h>

#include <rocprofiler-sdk-roctx/api_trace.h>
#include <rocprofiler-sdk-roctx/defines.h>
#include <rocprofiler-sdk-roctx/roctx.h>
#include <rocprofiler-sdk-roctx/types.h>
#include <rocprofiler-sdk-roctx/version.h>

#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RECORDS 8192

typedef struct cb_line
{
    int32_t  operation;
    int32_t  phase;
    uint64_t dispatch_id;
    uint64_t thread;
    uint64_t corr;
    uint64_t start;
    uint64_t end;
} cb_line;

static pthread_mutex_t                                     g_mutex = PTHREAD_MUTEX_INITIALIZER;
static cb_line                                             g_cb[MAX_RECORDS];
static size_t                                              g_cb_count;
static rocprofiler_buffer_tracing_kernel_dispatch_record_t g_buf[MAX_RECORDS];
static size_t                                              g_buf_count;
static uint64_t                 g_enqueue_enter, g_enqueue_exit, g_complete, g_drops, g_overflow;
static uint32_t                 g_priority;
static rocprofiler_context_id_t g_context;
static rocprofiler_buffer_id_t  g_buffer;

static void
report(rocprofiler_status_t status, const char* what)
{
    if(status != ROCPROFILER_STATUS_SUCCESS)
        fprintf(stderr, "test-tool-c: %s failed: %s\n", what, rocprofiler_get_status_name(status));
}

static void
dispatch_callback(rocprofiler_callback_tracing_record_t record,
                  rocprofiler_user_data_t*              user_data,
                  void*                                 callback_data)
{
    const rocprofiler_callback_tracing_kernel_dispatch_data_t* payload =
        (const rocprofiler_callback_tracing_kernel_dispatch_data_t*)record.payload;
    (void)user_data;
    (void)callback_data;
    pthread_mutex_lock(&g_mutex);
    if(record.operation == ROCPROFILER_KERNEL_DISPATCH_ENQUEUE)
    {
        if(record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) ++g_enqueue_enter;
        if(record.phase == ROCPROFILER_CALLBACK_PHASE_EXIT) ++g_enqueue_exit;
    }
    else if(record.operation == ROCPROFILER_KERNEL_DISPATCH_COMPLETE)
    {
        ++g_complete;
    }
    if(g_cb_count < MAX_RECORDS)
    {
        cb_line* line     = &g_cb[g_cb_count++];
        line->operation   = record.operation;
        line->phase       = (int32_t)record.phase;
        line->dispatch_id = payload != NULL ? payload->dispatch_info.dispatch_id : 0;
        line->thread      = record.thread_id;
        line->corr        = record.correlation_id.internal;
        line->start       = payload != NULL ? payload->start_timestamp : 0;
        line->end         = payload != NULL ? payload->end_timestamp : 0;
    }
    else
    {
        ++g_overflow;
    }
    pthread_mutex_unlock(&g_mutex);
}

static void
buffer_callback(rocprofiler_context_id_t      context,
                rocprofiler_buffer_id_t       buffer_id,
                rocprofiler_record_header_t** headers,
                size_t                        num_headers,
                void*                         data,
                uint64_t                      drop_count)
{
    size_t i;
    (void)context;
    (void)buffer_id;
    (void)data;
    pthread_mutex_lock(&g_mutex);
    g_drops += drop_count;
    for(i = 0; i < num_headers; ++i)
    {
        const rocprofiler_record_header_t* header = headers[i];
        if(header->category != ROCPROFILER_BUFFER_CATEGORY_TRACING ||
           header->kind != ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH)
            continue;
        if(g_buf_count < MAX_RECORDS)
            g_buf[g_buf_count++] =
                *(const rocprofiler_buffer_tracing_kernel_dispatch_record_t*)header->payload;
        else
            ++g_overflow;
    }
    pthread_mutex_unlock(&g_mutex);
}

static int
tool_initialize(rocprofiler_client_finalize_t fini_func, void* tool_data)
{
    rocprofiler_context_id_t none = ROCPROFILER_CONTEXT_NONE;
    (void)fini_func;
    (void)tool_data;
    g_context = none;
    report(rocprofiler_create_context(&g_context), "rocprofiler_create_context");
    report(
        rocprofiler_configure_callback_tracing_service(g_context,
                                                       ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                                                       NULL,
                                                       0,
                                                       dispatch_callback,
                                                       NULL),
        "rocprofiler_configure_callback_tracing_service");
    report(rocprofiler_create_buffer(g_context,
                                     4096,
                                     2048,
                                     ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                     buffer_callback,
                                     NULL,
                                     &g_buffer),
           "rocprofiler_create_buffer");
    report(rocprofiler_configure_buffer_tracing_service(
               g_context, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, NULL, 0, g_buffer),
           "rocprofiler_configure_buffer_tracing_service");
    report(rocprofiler_start_context(g_context), "rocprofiler_start_context");
    return 0;
}

static const char*
callback_name(int kind, int op)
{
    const char* name = NULL;
    uint64_t    len  = 0;
    if(op == 0)
    {
        if(rocprofiler_query_callback_tracing_kind_name((rocprofiler_callback_tracing_kind_t)kind,
                                                        &name,
                                                        &len) != ROCPROFILER_STATUS_SUCCESS)
            return "?";
    }
    else if(rocprofiler_query_callback_tracing_kind_operation_name(
                (rocprofiler_callback_tracing_kind_t)kind, op, &name, &len) !=
            ROCPROFILER_STATUS_SUCCESS)
    {
        return "?";
    }
    return (name != NULL && strlen(name) == len) ? name : "?";
}

static void
tool_finalize(void* tool_data)
{
    const char* path = getenv("TEST_TOOL_C_OUTPUT");
    FILE*       out;
    size_t      i;
    (void)tool_data;
    if(path == NULL || *path == '\0')
    {
        fprintf(stderr, "test-tool-c: TEST_TOOL_C_OUTPUT is not set; nothing written\n");
        return;
    }
    out = fopen(path, "w");
    if(out == NULL)
    {
        fprintf(stderr, "test-tool-c: cannot write %s\n", path);
        return;
    }
    pthread_mutex_lock(&g_mutex);
    fprintf(out, "tool test-tool-c priority=%" PRIu32 "\n", g_priority);
    fprintf(out,
            "counts enqueue_enter=%" PRIu64 " enqueue_exit=%" PRIu64 " complete=%" PRIu64
            " buffer=%lu drops=%" PRIu64 " overflow=%" PRIu64 "\n",
            g_enqueue_enter,
            g_enqueue_exit,
            g_complete,
            (unsigned long)g_buf_count,
            g_drops,
            g_overflow);
    for(i = 0; i < g_cb_count; ++i)
    {
        const cb_line* l = &g_cb[i];
        fprintf(out,
                "cb op=%" PRId32 " phase=%" PRId32 " dispatch_id=%" PRIu64 " thread=%" PRIu64
                " corr=%" PRIu64 " start=%" PRIu64 " end=%" PRIu64 "\n",
                l->operation,
                l->phase,
                l->dispatch_id,
                l->thread,
                l->corr,
                l->start,
                l->end);
    }
    for(i = 0; i < g_buf_count; ++i)
    {
        const rocprofiler_buffer_tracing_kernel_dispatch_record_t* r    = &g_buf[i];
        const rocprofiler_kernel_dispatch_info_t*                  info = &r->dispatch_info;
        fprintf(out,
                "buf dispatch_id=%" PRIu64 " kernel_id=%" PRIu64 " queue_id=%" PRIu64
                " agent_id=%" PRIu64 " grid=%" PRIu32 ",%" PRIu32 ",%" PRIu32 " wg=%" PRIu32
                ",%" PRIu32 ",%" PRIu32 " private=%" PRIu32 " group=%" PRIu32 " start=%" PRIu64
                " end=%" PRIu64 " thread=%" PRIu64 " corr=%" PRIu64 " kind=%d op=%d\n",
                info->dispatch_id,
                info->kernel_id,
                info->queue_id.handle,
                info->agent_id.handle,
                info->grid_size.x,
                info->grid_size.y,
                info->grid_size.z,
                info->workgroup_size.x,
                info->workgroup_size.y,
                info->workgroup_size.z,
                info->private_segment_size,
                info->group_segment_size,
                r->start_timestamp,
                r->end_timestamp,
                r->thread_id,
                r->correlation_id.internal,
                (int)r->kind,
                (int)r->operation);
    }
    fprintf(out,
            "name kind=%s enqueue=%s complete=%s\n",
            callback_name(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH, 0),
            callback_name(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                          ROCPROFILER_KERNEL_DISPATCH_ENQUEUE),
            callback_name(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                          ROCPROFILER_KERNEL_DISPATCH_COMPLETE));
    fprintf(out, "end\n");
    pthread_mutex_unlock(&g_mutex);
    fclose(out);
}

rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t                 version,
                      const char*              runtime_version,
                      uint32_t                 priority,
                      rocprofiler_client_id_t* client_id)
{
    static rocprofiler_tool_configure_result_t result = {
        sizeof(rocprofiler_tool_configure_result_t), tool_initialize, tool_finalize, NULL};
    (void)version;
    (void)runtime_version;
    g_priority      = priority;
    client_id->name = "test-tool-c";
    return &result;
}
