/* A C99 program using the host reference device: vector add, checked, with every call's status. */

#include <rocprofiler-sdk-host/host.h>

#include <stdio.h>
#include <string.h>

#define CHECK(call)                                                                                \
    do                                                                                             \
    {                                                                                              \
        rocprofiler_host_status_t check_status_ = (call);                                          \
        if(check_status_ != ROCPROFILER_HOST_STATUS_SUCCESS)                                       \
        {                                                                                          \
            fprintf(stderr,                                                                        \
                    "%s:%d: %s -> %s\n",                                                           \
                    __FILE__,                                                                      \
                    __LINE__,                                                                      \
                    #call,                                                                         \
                    rocprofiler_host_status_string(check_status_));                                \
            return 1;                                                                              \
        }                                                                                          \
    } while(0)

typedef struct vadd_args
{
    const int* a;
    const int* b;
    int*       c;
} vadd_args;

static void
vadd(const rocprofiler_host_work_item_t* item, void* args)
{
    vadd_args* va = (vadd_args*)args;
    uint64_t   i  = item->global_linear_id;
    va->c[i]      = va->a[i] + va->b[i];
}

int
main(void)
{
    enum
    {
        n = 1024
    };
    rocprofiler_host_queue_t           queue;
    rocprofiler_host_signal_t          done;
    rocprofiler_host_kernel_t          kernel;
    rocprofiler_host_dispatch_params_t params;
    vadd_args                          args;
    int *                              a = NULL, *b = NULL, *c = NULL;
    const char*                        name  = NULL;
    int64_t                            value = -1;
    int                                i;

    CHECK(rocprofiler_host_create_queue(&queue));
    CHECK(rocprofiler_host_create_signal(1, &done));
    CHECK(rocprofiler_host_register_kernel("c_vadd", vadd, 0, 0, &kernel));
    CHECK(rocprofiler_host_kernel_name(kernel, &name));
    if(strcmp(name, "c_vadd") != 0) return 1;
    CHECK(rocprofiler_host_malloc(n * sizeof(int), (void**)&a));
    CHECK(rocprofiler_host_malloc(n * sizeof(int), (void**)&b));
    CHECK(rocprofiler_host_malloc(n * sizeof(int), (void**)&c));
    for(i = 0; i < n; ++i)
    {
        a[i] = i;
        b[i] = 10 * i;
    }
    CHECK(rocprofiler_host_memset(c, 0, n * sizeof(int)));

    memset(&params, 0, sizeof(params));
    params.size              = sizeof(params);
    params.kernel            = kernel;
    params.grid.x            = n / 64;
    params.grid.y            = 1;
    params.grid.z            = 1;
    params.workgroup_size.x  = 64;
    params.workgroup_size.y  = 1;
    params.workgroup_size.z  = 1;
    args.a                   = a;
    args.b                   = b;
    args.c                   = c;
    params.args              = &args;
    params.args_size         = sizeof(args);
    params.completion_signal = done;
    CHECK(rocprofiler_host_dispatch(queue, &params));
    CHECK(rocprofiler_host_signal_wait(
        done, ROCPROFILER_HOST_SIGNAL_CONDITION_LT, 1, ROCPROFILER_HOST_TIMEOUT_INFINITE, &value));
    if(value != 0) return 1;
    for(i = 0; i < n; ++i)
    {
        if(c[i] != 11 * i)
        {
            fprintf(stderr, "c[%d] = %d, expected %d\n", i, c[i], 11 * i);
            return 1;
        }
    }
    CHECK(rocprofiler_host_free(a));
    CHECK(rocprofiler_host_free(b));
    CHECK(rocprofiler_host_free(c));
    if(rocprofiler_host_free(c) != ROCPROFILER_HOST_STATUS_NOT_FOUND) return 1;
    CHECK(rocprofiler_host_destroy_signal(done));
    CHECK(rocprofiler_host_destroy_queue(queue));
    printf("c-api-ok\n");
    return 0;
}
