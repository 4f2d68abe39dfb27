// Which driver entry points count towards kernel replay's write epoch
// (cuda/replay/write_observer.hpp): those that may write device memory without a kernel dispatch of
// the SDK's pipeline.
#include "cuda/replay/write_observer.hpp"

#include <gtest/gtest.h>

using rocprofiler::cuda::may_write_device_memory;

TEST(write_observer, copies_into_device_memory_and_memsets_count)
{
    for(auto name : {"cuMemcpy",
                     "cuMemcpyAsync_ptsz",
                     "cuMemcpyHtoD_v2",
                     "cuMemcpyHtoDAsync_v2_ptsz",
                     "cuMemcpyDtoD_v2_ptds",
                     "cuMemcpyPeerAsync",
                     "cuMemcpy3DBatchAsync_v2",
                     "cuMemcpyBatchAsync",
                     "cuMemcpyAtoD_v2",
                     "cuMemsetD8_v2",
                     "cuMemsetD2D32Async_ptsz"})
        EXPECT_TRUE(may_write_device_memory(name)) << name;
}

TEST(write_observer, graph_launches_stream_memory_operations_and_direct_launches_count)
{
    for(auto name : {"cuGraphLaunch",
                     "cuGraphLaunch_ptsz",
                     "cuStreamWriteValue32_v2",
                     "cuStreamWriteValue64_ptsz",
                     "cuStreamBatchMemOp_v2",
                     "cuMemBatchDecompressAsync",
                     "cuMemDiscardBatchAsync",
                     "cuLaunchKernel",
                     "cuLaunchKernelEx_ptsz",
                     "cuLaunchCooperativeKernel"})
        EXPECT_TRUE(may_write_device_memory(name)) << name;
}

TEST(write_observer, copies_to_the_host_host_functions_and_other_calls_do_not_count)
{
    for(auto name : {"cuMemcpyDtoH_v2",
                     "cuMemcpyDtoHAsync_v2_ptsz",
                     "cuMemcpyAtoH_v2",
                     "cuLaunchHostFunc",
                     "cuLaunchHostFunc_ptsz",
                     "cuMemAlloc_v2",
                     "cuMemFree_v2",
                     "cuCtxSynchronize",
                     "cuStreamSynchronize",
                     "cuEventRecord",
                     "cuMemPrefetchAsync",
                     ""})
        EXPECT_FALSE(may_write_device_memory(name)) << name;
}
