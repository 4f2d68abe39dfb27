/* A host-device program built against the installed SDK: runs one kernel three times. */
#include <rocprofiler-sdk-host/host.h>

#include <stdio.h>

static void
increment(const rocprofiler_host_work_item_t* item, void* args)
{
    int* data = *(int**)args;
    data[item->global_linear_id] += 1;
}

int
main(void)
{
    rocprofiler_host_kernel_t kernel;
    rocprofiler_host_queue_t  queue;
    int*                      data = NULL;
    int                       i;
    if(rocprofiler_host_register_kernel("increment", increment, 0, 0, &kernel) !=
           ROCPROFILER_HOST_STATUS_SUCCESS ||
       rocprofiler_host_create_queue(&queue) != ROCPROFILER_HOST_STATUS_SUCCESS ||
       rocprofiler_host_malloc(64 * sizeof(int), (void**)&data) !=
           ROCPROFILER_HOST_STATUS_SUCCESS ||
       rocprofiler_host_memset(data, 0, 64 * sizeof(int)) != ROCPROFILER_HOST_STATUS_SUCCESS)
        return 2;
    for(i = 0; i < 3; ++i)
    {
        rocprofiler_host_dispatch_params_t params = {0};
        params.size                               = sizeof(params);
        params.kernel                             = kernel;
        params.grid.x = params.grid.y = params.grid.z = 1;
        params.workgroup_size.x                       = 64;
        params.workgroup_size.y = params.workgroup_size.z = 1;
        params.args                                       = &data;
        params.args_size                                  = sizeof(data);
        if(rocprofiler_host_dispatch(queue, &params) != ROCPROFILER_HOST_STATUS_SUCCESS) return 2;
    }
    if(rocprofiler_host_queue_synchronize(queue) != ROCPROFILER_HOST_STATUS_SUCCESS) return 2;
    for(i = 0; i < 64; ++i)
        if(data[i] != 3) return 1;
    printf("consumer-program: ok\n");
    return 0;
}
