/* Macros shared by every public header of the rocprofiler-sdk C API. */
#pragma once

#if defined(__cplusplus)
#    define ROCPROFILER_EXTERN_C_INIT                                                              \
        extern "C"                                                                                 \
        {
#    define ROCPROFILER_EXTERN_C_FINI }
#else
#    define ROCPROFILER_EXTERN_C_INIT
#    define ROCPROFILER_EXTERN_C_FINI
#endif

/** @brief Marks a symbol exported from librocprofiler-sdk.so. */
#define ROCPROFILER_API __attribute__((visibility("default")))

/** @brief Marks pointer parameters that must not be NULL (C++ callers only). */
#if defined(__cplusplus)
#    define ROCPROFILER_NONNULL(...) __attribute__((nonnull(__VA_ARGS__)))
#else
#    define ROCPROFILER_NONNULL(...)
#endif

/** @brief Marks a symbol that a tool library exports and the SDK looks up. */
#define ROCPROFILER_PUBLIC_API ROCPROFILER_API

/** @brief Tool-side functions that the SDK looks up weakly. */
#define ROCPROFILER_EXPORT __attribute__((visibility("default")))

/** @brief Marks an anonymous struct or union member (C11 and C++; an extension in C99). */
#if defined(__GNUC__)
#    define ROCPROFILER_ANONYMOUS __extension__
#else
#    define ROCPROFILER_ANONYMOUS
#endif
