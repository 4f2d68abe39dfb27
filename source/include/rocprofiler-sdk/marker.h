/* The marker (ROCTx) tracing domains: operation ids and argument types. */
#pragma once

#include <rocprofiler-sdk/marker/api_args.h>
#include <rocprofiler-sdk/marker/api_id.h>
#include <rocprofiler-sdk/marker/table_id.h>
