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

/** @brief A GNU attribute, `ROCPROFILER_ATTRIBUTE(visibility("hidden"))`. */
#if !defined(ROCPROFILER_ATTRIBUTE)
#    define ROCPROFILER_ATTRIBUTE(...) __attribute__((__VA_ARGS__))
#endif

/** @brief Marks a symbol not exported. */
#if !defined(ROCPROFILER_HIDDEN_API)
#    define ROCPROFILER_HIDDEN_API ROCPROFILER_ATTRIBUTE(visibility("hidden"))
#endif

/** @brief Marks a symbol exported, and one imported (nothing to say on Linux). */
#if !defined(ROCPROFILER_EXPORT_DECORATOR)
#    define ROCPROFILER_EXPORT_DECORATOR ROCPROFILER_PUBLIC_API
#endif
#if !defined(ROCPROFILER_IMPORT_DECORATOR)
#    define ROCPROFILER_IMPORT_DECORATOR
#endif
#define ROCPROFILER_IMPORT ROCPROFILER_IMPORT_DECORATOR

/** @brief Code that is kept in C++ only. */
#if defined(__cplusplus)
#    define ROCPROFILER_CXX_CODE(...) __VA_ARGS__
#else
#    define ROCPROFILER_CXX_CODE(...)
#endif

/** @brief Marks a declaration deprecated; ROCPROFILER_SDK_DEPRECATED does so only when a tool
 * defines ROCPROFILER_SDK_DEPRECATED_WARNINGS to a positive value (as rocprofiler-sdk). */
#if defined(__cplusplus) && __cplusplus >= 201402L
#    define ROCPROFILER_SDK_DEPRECATED_MESSAGE(...) [[deprecated(__VA_ARGS__)]]
#else
#    define ROCPROFILER_SDK_DEPRECATED_MESSAGE(...) ROCPROFILER_ATTRIBUTE(deprecated)
#endif
#if !defined(ROCPROFILER_SDK_DEPRECATED_WARNINGS)
#    define ROCPROFILER_SDK_DEPRECATED_WARNINGS 0
#endif
#if ROCPROFILER_SDK_DEPRECATED_WARNINGS > 0
#    define ROCPROFILER_SDK_DEPRECATED(...) ROCPROFILER_SDK_DEPRECATED_MESSAGE(__VA_ARGS__)
#else
#    define ROCPROFILER_SDK_DEPRECATED(...)
#endif

/** @brief Marks an experimental declaration; warns only when a tool defines
 * ROCPROFILER_SDK_EXPERIMENTAL_WARNINGS to a positive value. */
#if !defined(ROCPROFILER_SDK_EXPERIMENTAL_WARNINGS)
#    define ROCPROFILER_SDK_EXPERIMENTAL_WARNINGS 0
#endif
#define ROCPROFILER_SDK_EXPERIMENTAL_MESSAGE                                                       \
    ROCPROFILER_SDK_DEPRECATED_MESSAGE(                                                            \
        "experimental: define ROCPROFILER_SDK_EXPERIMENTAL_WARNINGS=0 "                            \
        "to silence this message")
#if ROCPROFILER_SDK_EXPERIMENTAL_WARNINGS > 0
#    define ROCPROFILER_SDK_EXPERIMENTAL ROCPROFILER_SDK_EXPERIMENTAL_MESSAGE
#else
#    define ROCPROFILER_SDK_EXPERIMENTAL
#endif

/** @brief Compatibility with tools written for rocprofiler-sdk before 1.0: on by default, and
 * honoured (nothing here differs). */
#if !defined(ROCPROFILER_SDK_BETA_COMPAT)
#    define ROCPROFILER_SDK_BETA_COMPAT 1
#endif
#if ROCPROFILER_SDK_BETA_COMPAT > 0
#    define ROCPROFILER_SDK_BETA_COMPAT_SUPPORTED 1
#endif

/** @brief A version as one number: MAX * MAX * major + MAX * minor + patch. */
#define ROCPROFILER_SDK_COMPUTE_VERSION_VALUE(MAX_VERSION_VALUE, MAJOR, MINOR, PATCH)              \
    (((MAX_VERSION_VALUE * MAX_VERSION_VALUE) * MAJOR) + (MAX_VERSION_VALUE * MINOR) + (PATCH))
/** @brief A version as rocprofiler_configure receives it: 10000 * major + 100 * minor + patch. */
#define ROCPROFILER_SDK_COMPUTE_VERSION(MAJOR, MINOR, PATCH)                                       \
    ROCPROFILER_SDK_COMPUTE_VERSION_VALUE(100, MAJOR, MINOR, PATCH)

/** @brief Defined: the API of version 0.0 is available. */
#define ROCPROFILER_SDK_VERSION_0_0
