// The SDK's one subscription to CUPTI's API callbacks. CUPTI lets a process hold a single
// subscriber, and two parts of the CUDA backend want callbacks: the kernel timestamps (the launch
// entry points, for correlation ids: cupti_activity.cpp) and kernel replay's write epoch (the
// entry points that may write device memory: write_observer.cpp). Each routes the callback ids it
// needs to its own handler; a handler sees only its own ids.
//
// Only files of the CUDA backend (cuda/) include this header (it includes CUPTI's headers).
#pragma once

#include "cuda/cupti/cupti_loader.hpp"

#include <vector>

namespace rocprofiler::cuda::cupti_callbacks
{
using handler = void (*)(CUpti_CallbackDomain, CUpti_CallbackId, const CUpti_CallbackData*);

// Routes the callbacks `cbids` of `domain` to `fn`, subscribing with `table` on first use.
// Thread-safe. False when CUPTI refuses the subscription (another subscriber holds it) or an id
// (logged); ids enabled before a failure stay routed.
bool route(const cupti_activity_table&          table,
           CUpti_CallbackDomain                 domain,
           const std::vector<CUpti_CallbackId>& cbids,
           handler                              fn);
} // namespace rocprofiler::cuda::cupti_callbacks
