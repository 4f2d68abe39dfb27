/* rocprofiler-sdk splits its thread-trace service over experimental/thread-trace/core.h,
 * agent.h and dispatch.h; here one header holds it, and each of those paths includes it. The
 * decoder's front end is trace_decoder.h. */
#pragma once

#include <rocprofiler-sdk/experimental/thread_trace.h>
