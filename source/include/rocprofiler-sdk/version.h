/* Version of the rocprofiler-sdk C API that this library implements. */
#pragma once

/** @brief Major version of the API. */
#define ROCPROFILER_VERSION_MAJOR 1
/** @brief Minor version of the API. */
#define ROCPROFILER_VERSION_MINOR 0
/** @brief Patch version of the API. */
#define ROCPROFILER_VERSION_PATCH 0
/** @brief Version as one number: 10000 * major + 100 * minor + patch. */
#define ROCPROFILER_VERSION                                                                        \
    ((10000 * ROCPROFILER_VERSION_MAJOR) + (100 * ROCPROFILER_VERSION_MINOR) +                     \
     ROCPROFILER_VERSION_PATCH)
/** @brief Version as a string. */
#define ROCPROFILER_VERSION_STRING "1.0.0"
