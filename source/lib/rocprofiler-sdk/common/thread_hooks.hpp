// The tools' callbacks around the threads this SDK starts (rocprofiler_at_internal_thread_create).
//
// Every place in the library that starts a thread of its own (buffer callback threads, the SPM
// sampler) calls before_create() just before and after_create() just after, on the starting
// thread, so that a tool can, for example, keep its own instrumentation off the SDK's threads. The
// host device's worker and queue threads are the device, not the SDK, and are not reported (as
// the GPU runtime's threads are not reported by rocprofiler-sdk's ROCPROFILER_LIBRARY). The CUDA
// backend's completion thread and kernel replay's drain threads (cuda/) call them too.
#pragma once

#include <rocprofiler-sdk/internal_threading.h>

namespace rocprofiler::common::thread_hooks
{
// Remembers one registration; @p libs is a set of rocprofiler_runtime_library_t flags. The caller
// checked the arguments.
void add(rocprofiler_internal_thread_library_cb_t precreate,
         rocprofiler_internal_thread_library_cb_t postcreate,
         int                                      libs,
         void*                                    data);

// Calls, in registration order, each registered precreate (before_create) or postcreate
// (after_create) callback whose flags include ROCPROFILER_LIBRARY, with that library and its data.
// Never throws; callbacks run without any lock of the SDK held by this module.
void before_create() noexcept;
void after_create() noexcept;
} // namespace rocprofiler::common::thread_hooks
