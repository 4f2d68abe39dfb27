/*
 * external_correlation: a C99 tool in the style of AMD's rocprofiler-sdk samples. It asks for an
 * external correlation id for every kernel dispatch and memory copy (the request service numbers
 * them 1, 2, 3, ... in the order of the requests) and traces both into a buffer; every record must
 * carry an id the request callback handed out, each id once. It also pushes and pops an id on the
 * initializing thread to check the stack's answers. At exit it prints one summary line, ending in
 * PASS or FAIL, to stderr (or to the file AMD_STYLE_OUTPUT names).
 */
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROCPROFILER_CALL(result, msg)                                                              \
    {                                                                                              \
        rocprofiler_status_t CHECKSTATUS = result;                                                 \
        if(CHECKSTATUS != ROCPROFILER_STATUS_SUCCESS)                                              \
        {                                                                                          \
            fprintf(stderr,                                                                        \
                    "[external_correlation] %s failed with error code %d: %s\n",                   \
                    msg,                                                                           \
                    (int)CHECKSTATUS,                                                              \
                    rocprofiler_get_status_string(CHECKSTATUS));                                   \
            abort();                                                                               \
        }                                                                                          \
    }

#define MAX_IDS 65536

static pthread_mutex_t          lock    = PTHREAD_MUTEX_INITIALIZER;
static rocprofiler_context_id_t context = {0};
static rocprofiler_buffer_id_t  buffer  = {0};
static uint64_t                 next_id = 0;
static unsigned char            seen[MAX_IDS];
static uint64_t                 requests    = 0;
static uint64_t                 dispatches  = 0;
static uint64_t                 copies      = 0;
static uint64_t                 bad         = 0;
static int                      push_pop_ok = 0;

static int
request_id(rocprofiler_thread_id_t                            thread_id,
           rocprofiler_context_id_t                           context_id,
           rocprofiler_external_correlation_id_request_kind_t kind,
           rocprofiler_tracing_operation_t                    operation,
           uint64_t                                           internal_corr_id_value,
           rocprofiler_user_data_t*                           external_corr_id_value,
           void*                                              data)
{
    const char* kind_name = NULL;
    (void)thread_id;
    (void)operation;
    (void)data;
    pthread_mutex_lock(&lock);
    if(context_id.handle != context.handle || internal_corr_id_value == 0) ++bad;
    if(rocprofiler_query_external_correlation_id_request_kind_name(kind, &kind_name, NULL) !=
           ROCPROFILER_STATUS_SUCCESS ||
       (strcmp(kind_name, "KERNEL_DISPATCH") != 0 && strcmp(kind_name, "MEMORY_COPY") != 0))
        ++bad;
    ++requests;
    external_corr_id_value->value = ++next_id;
    pthread_mutex_unlock(&lock);
    return 0;
}

static void
check_external(uint64_t value)
{
    if(value == 0 || value > next_id || value >= MAX_IDS || seen[value])
        ++bad;
    else
        seen[value] = 1;
}

static void
on_records(rocprofiler_context_id_t      ctx,
           rocprofiler_buffer_id_t       buffer_id,
           rocprofiler_record_header_t** headers,
           size_t                        num_headers,
           void*                         data,
           uint64_t                      drop_count)
{
    size_t i;
    (void)ctx;
    (void)buffer_id;
    (void)data;
    pthread_mutex_lock(&lock);
    if(drop_count != 0) ++bad;
    for(i = 0; i < num_headers; ++i)
    {
        const rocprofiler_record_header_t* header = headers[i];
        if(header->category != ROCPROFILER_BUFFER_CATEGORY_TRACING) continue;
        if(header->kind == ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH)
        {
            const rocprofiler_buffer_tracing_kernel_dispatch_record_t* record =
                (const rocprofiler_buffer_tracing_kernel_dispatch_record_t*)header->payload;
            ++dispatches;
            check_external(record->correlation_id.external.value);
        }
        else if(header->kind == ROCPROFILER_BUFFER_TRACING_MEMORY_COPY)
        {
            const rocprofiler_buffer_tracing_memory_copy_record_t* record =
                (const rocprofiler_buffer_tracing_memory_copy_record_t*)header->payload;
            ++copies;
            check_external(record->correlation_id.external.value);
        }
    }
    pthread_mutex_unlock(&lock);
}

static int
tool_init(rocprofiler_client_finalize_t fini_func, void* tool_data)
{
    rocprofiler_external_correlation_id_request_kind_t kinds[2] = {
        ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH,
        ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_COPY};
    rocprofiler_thread_id_t tid    = 0;
    rocprofiler_user_data_t pushed = {0};
    rocprofiler_user_data_t popped = {0};
    (void)fini_func;
    (void)tool_data;

    ROCPROFILER_CALL(rocprofiler_create_context(&context), "context creation");
    ROCPROFILER_CALL(
        rocprofiler_create_buffer(
            context, 4096, 2048, ROCPROFILER_BUFFER_POLICY_LOSSLESS, on_records, NULL, &buffer),
        "buffer creation");
    ROCPROFILER_CALL(rocprofiler_configure_buffer_tracing_service(
                         context, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, NULL, 0, buffer),
                     "kernel dispatch tracing");
    ROCPROFILER_CALL(rocprofiler_configure_buffer_tracing_service(
                         context, ROCPROFILER_BUFFER_TRACING_MEMORY_COPY, NULL, 0, buffer),
                     "memory copy tracing");
    ROCPROFILER_CALL(rocprofiler_configure_external_correlation_id_request_service(
                         context, kinds, 2, request_id, NULL),
                     "external correlation id request service");

    /* The push/pop stack of this thread: what is pushed comes back, then the stack is empty. */
    ROCPROFILER_CALL(rocprofiler_get_thread_id(&tid), "thread id");
    pushed.value = 4242;
    ROCPROFILER_CALL(rocprofiler_push_external_correlation_id(context, tid, pushed),
                     "push external correlation id");
    ROCPROFILER_CALL(rocprofiler_pop_external_correlation_id(context, tid, &popped),
                     "pop external correlation id");
    push_pop_ok =
        popped.value == 4242 && rocprofiler_pop_external_correlation_id(context, tid, &popped) ==
                                    ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND;

    ROCPROFILER_CALL(rocprofiler_start_context(context), "start context");
    return 0;
}

static void
tool_fini(void* tool_data)
{
    const char* path = getenv("AMD_STYLE_OUTPUT");
    FILE*       out  = stderr;
    int         ok;
    (void)tool_data;
    rocprofiler_flush_buffer(buffer);
    rocprofiler_stop_context(context);
    pthread_mutex_lock(&lock);
    ok = bad == 0 && push_pop_ok && dispatches > 0 && dispatches + copies == requests;
    if(path != NULL && *path != '\0') out = fopen(path, "w");
    if(out == NULL) out = stderr;
    fprintf(out,
            "external_correlation: %llu requests, %llu dispatches, %llu copies, each with its own "
            "external id: %s\n",
            (unsigned long long)requests,
            (unsigned long long)dispatches,
            (unsigned long long)copies,
            ok ? "PASS" : "FAIL");
    if(out != stderr) fclose(out);
    pthread_mutex_unlock(&lock);
}

rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t                 version,
                      const char*              runtime_version,
                      uint32_t                 priority,
                      rocprofiler_client_id_t* id)
{
    static rocprofiler_tool_configure_result_t cfg = {
        sizeof(rocprofiler_tool_configure_result_t), &tool_init, &tool_fini, NULL};
    (void)version;
    (void)runtime_version;
    (void)priority;
    id->name = "amd-style-external-correlation";
    return &cfg;
}
