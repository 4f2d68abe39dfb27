#include "cuda/counters/cache_control.hpp"

#include "common/logging.hpp"
#include "cuda/cupti/settings_cupti.hpp"
#include "cuda/interpose/driver.hpp"

#include <algorithm>

namespace rocprofiler::cuda::metrics
{
namespace
{
// Reads every 16-byte word of a buffer through L2 (ld.global.cg), which evicts the L2 cache's
// contents without dirtying lines; the store never happens for a zeroed buffer but keeps the loads.
constexpr const char* flush_ptx = R"(
.version 6.0
.target sm_50
.address_size 64
.visible .entry rocp_cache_flush(.param .u64 buf, .param .u64 count, .param .u64 sink)
{
    .reg .pred %p<2>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [buf];
    ld.param.u64 %rd2, [count];
    ld.param.u64 %rd3, [sink];
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mul.wide.u32 %rd4, %r1, %r2;
    cvt.u64.u32 %rd5, %r3;
    add.u64 %rd4, %rd4, %rd5;
    setp.ge.u64 %p1, %rd4, %rd2;
    @%p1 bra DONE;
    shl.b64 %rd6, %rd4, 4;
    add.u64 %rd6, %rd1, %rd6;
    ld.global.cg.v4.u32 {%r4, %r5, %r6, %r7}, [%rd6];
    xor.b32 %r8, %r4, %r5;
    xor.b32 %r9, %r6, %r7;
    xor.b32 %r10, %r8, %r9;
    setp.ne.u32 %p1, %r10, 2134547537;
    @%p1 bra DONE;
    st.global.u32 [%rd3], %r10;
DONE:
    ret;
}
)";
} // namespace

bool
flush_before_counting()
{
    return settings::read_once<settings::read_cache_control_flush>();
}

void
cache_flusher::flush(int device, CUstream stream)
{
    const auto* drv   = driver();
    auto        scope = internal_call_scope{};
    if(!m_tried)
    {
        m_tried     = true;
        auto l2     = 0;
        auto module = CUmodule{};
        auto dev    = CUdevice{};
        auto ok     = drv->cuDeviceGet(&dev, device) == CUDA_SUCCESS &&
                  drv->cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev) ==
                      CUDA_SUCCESS &&
                  drv->cuModuleLoadData(&module, flush_ptx) == CUDA_SUCCESS &&
                  drv->cuModuleGetFunction(&m_kernel, module, "rocp_cache_flush") == CUDA_SUCCESS;
        const auto bytes = std::max<size_t>(size_t{2} * static_cast<size_t>(l2), size_t{8} << 20);
        ok               = ok && drv->cuMemAlloc_v2(&m_buffer, bytes + 16) == CUDA_SUCCESS &&
             drv->cuMemsetD8_v2(m_buffer, 0, bytes + 16) == CUDA_SUCCESS;
        if(!ok)
        {
            common::log::warn_once("cuda-cache-flush",
                                   "cuda: the cache flush kernel could not be set up; counters "
                                   "are measured with the caches as the application left them");
            m_kernel = nullptr;
            return;
        }
        m_words = bytes / 16;
    }
    if(m_kernel == nullptr) return;
    auto        buf    = m_buffer;
    auto        count  = static_cast<unsigned long long>(m_words);
    CUdeviceptr sink   = m_buffer + m_words * 16;
    void*       args[] = {&buf, &count, &sink};
    const auto  block  = 256u;
    const auto  grid   = static_cast<unsigned>((m_words + block - 1) / block);
    if(drv->cuLaunchKernel(m_kernel, grid, 1, 1, block, 1, 1, 0, stream, args, nullptr) !=
           CUDA_SUCCESS ||
       drv->cuStreamSynchronize(stream) != CUDA_SUCCESS)
        common::log::warn_once("cuda-cache-flush-run",
                               "cuda: a cache flush before a counted execution failed");
}
} // namespace rocprofiler::cuda::metrics
