// Cache control of counted executions: before each one (ROCPROFILER_CUDA_CACHE_CONTROL=all, the
// default) a kernel reads a buffer twice the size of the device's L2 cache, as Nsight Compute does
// by default, so that every pass of a replayed dispatch starts from the same cold cache (the
// restore copy before a pass would otherwise leave the kernel's data in L2); "none" measures the
// caches as they are.
//
// Threading: one cache_flusher per context, used under its owner's lock.
#pragma once

#include <cuda.h>

#include <cstddef>

namespace rocprofiler::cuda::metrics
{
// Whether counted executions flush the caches first (the setting, read once).
bool flush_before_counting();

class cache_flusher
{
public:
    // Flushes the caches of `device` (the current context's) on `stream` and waits for it. The
    // kernel and its buffer are set up by the first call; failures are logged once and later
    // calls do nothing (counting goes on without flushes). The buffer is never freed.
    void flush(int device, CUstream stream);

private:
    bool        m_tried  = false;
    CUfunction  m_kernel = nullptr;
    CUdeviceptr m_buffer = 0;
    size_t      m_words  = 0; // 16-byte words
};
} // namespace rocprofiler::cuda::metrics
