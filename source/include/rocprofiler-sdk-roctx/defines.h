/* Macros of the ROCTx marker API (rocprofiler-sdk-roctx). */
#pragma once

#if defined(__cplusplus)
#    define ROCTX_EXTERN_C_INIT                                                                    \
        extern "C"                                                                                 \
        {
#    define ROCTX_EXTERN_C_FINI }
#else
#    define ROCTX_EXTERN_C_INIT
#    define ROCTX_EXTERN_C_FINI
#endif

/** @brief Marks a function of version 0.0 of the ROCTx interface (every function here); expands
 * to nothing. */
#define ROCPROFILER_SDK_ROCTX_VERSION_0_0

/** @brief Marks a symbol exported from librocprofiler-sdk-roctx.so. */
#define ROCTX_API __attribute__((visibility("default")))

/** @brief Marks pointer parameters that must not be NULL. */
#if defined(__GNUC__)
#    define ROCTX_NONNULL(...) __attribute__((nonnull(__VA_ARGS__)))
#else
#    define ROCTX_NONNULL(...)
#endif
