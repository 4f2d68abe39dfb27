/* The OpenMP tools domain (OMPT): operation ids with rocprofiler-sdk's values. No OpenMP
 * runtime reports to this SDK, so the kind reports nothing; the argument union and
 * rocprofiler-sdk's OMPT entry points (rocprofiler_ompt_start_tool and its queries) are not
 * declared, as they need OpenMP's omp-tools.h. */
#pragma once

#include <rocprofiler-sdk/ompt/api_id.h>
