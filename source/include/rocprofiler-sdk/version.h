/* Version of the rocprofiler-sdk C API that this library implements, and (from build_info.h,
 * written when the SDK is configured) the revision, system and compiler it was built with. */
#pragma once

#include <rocprofiler-sdk/build_info.h>
#include <rocprofiler-sdk/defines.h>

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

/** @brief Defined to 1: these headers are the rocprofiler-sdk API. */
#define ROCPROFILER_IS_ROCPROFILER_SDK 1

/** @brief The same version under rocprofiler-sdk's ROCPROFILER_SDK_ names. */
#define ROCPROFILER_SDK_VERSION_MAJOR ROCPROFILER_VERSION_MAJOR
#define ROCPROFILER_SDK_VERSION_MINOR ROCPROFILER_VERSION_MINOR
#define ROCPROFILER_SDK_VERSION_PATCH ROCPROFILER_VERSION_PATCH
#define ROCPROFILER_SDK_VERSION_STRING ROCPROFILER_VERSION_STRING
#define ROCPROFILER_SDK_VERSION                                                                    \
    ROCPROFILER_SDK_COMPUTE_VERSION(                                                               \
        ROCPROFILER_VERSION_MAJOR, ROCPROFILER_VERSION_MINOR, ROCPROFILER_VERSION_PATCH)

/** @brief The library's SONAME version (librocprofiler-sdk.so.1). */
#define ROCPROFILER_SOVERSION ROCPROFILER_VERSION_MAJOR
#define ROCPROFILER_SDK_SOVERSION ROCPROFILER_VERSION_MAJOR
