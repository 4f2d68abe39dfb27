/* The marker (ROCTx) tracing domains: operation ids and argument types. */
#pragma once

#include <rocprofiler-sdk/marker/api_args.h>
#include <rocprofiler-sdk/marker/api_id.h>
