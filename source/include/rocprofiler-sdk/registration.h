/**
 * @file registration.h
 * @brief How a tool is found, configured, initialized and finalized.
 *
 * Discovery order: the function given to @ref rocprofiler_force_configure; each library in the
 * colon-separated environment variable `ROCP_TOOL_LIBRARIES` (every entry, the last one too); a
 * `rocprofiler_configure` linked into the executable; any other `rocprofiler_configure` visible
 * through `dlsym(RTLD_DEFAULT)`. A function found twice is called once. The n-th client found is
 * called with `priority == n`. After every client's `initialize` has run, configuration calls
 * return @ref ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED. Each client is finalized once: at
 * process exit, or earlier through the `fini_func` passed to its `initialize`.
 */
#pragma once

#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

ROCPROFILER_EXTERN_C_INIT

/** @defgroup REGISTRATION_GROUP Tool registration
 * @{
 */

/** @brief Identity of a client (a tool). The tool sets @p name in its `rocprofiler_configure`. */
typedef struct rocprofiler_client_id_t
{
    size_t         size;   ///< Size of this struct
    const char*    name;   ///< Name of the tool, set by the tool (the SDK copies nothing)
    const uint32_t handle; ///< Id of the client, set by the SDK
} rocprofiler_client_id_t;

/** @brief Ends a client early; passed to the client's `initialize`. */
typedef void (*rocprofiler_client_finalize_t)(rocprofiler_client_id_t client_id);

/**
 * @brief Called once after configuration, before any traced work. Create contexts, buffers and
 * services here.
 * @param [in] finalize_func Call it to finalize this client before process exit.
 * @param [in] tool_data The `tool_data` of the configure result.
 * @return 0 on success; non-zero deactivates the client (its contexts never start).
 */
typedef int (*rocprofiler_tool_initialize_t)(rocprofiler_client_finalize_t finalize_func,
                                             void*                         tool_data);

/** @brief Called once when the client is finalized. */
typedef void (*rocprofiler_tool_finalize_t)(void* tool_data);

/** @brief What a tool's `rocprofiler_configure` returns. */
typedef struct rocprofiler_tool_configure_result_t
{
    size_t                        size;       ///< Size of this struct
    rocprofiler_tool_initialize_t initialize; ///< Called once; may be NULL
    rocprofiler_tool_finalize_t   finalize;   ///< Called once; may be NULL
    void*                         tool_data;  ///< Passed to both
} rocprofiler_tool_configure_result_t;

/**
 * @brief The entry point a tool exports (`extern "C"`).
 * @param [in] version `10000 * major + 100 * minor + patch` of this API.
 * @param [in] runtime_version Version string of the SDK.
 * @param [in] priority Index of this client in discovery order, from 0.
 * @param [in,out] client_id The tool sets `name`.
 * @return The configure result, or NULL to stay inactive.
 */
typedef rocprofiler_tool_configure_result_t* (*rocprofiler_configure_func_t)(
    uint32_t                 version,
    const char*              runtime_version,
    uint32_t                 priority,
    rocprofiler_client_id_t* client_id);

/**
 * @brief The symbol a tool library defines; the SDK looks it up by name.
 */
rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t                 version,
                      const char*              runtime_version,
                      uint32_t                 priority,
                      rocprofiler_client_id_t* client_id) ROCPROFILER_PUBLIC_API;

/**
 * @brief Registers a configure function before the SDK initializes (e.g. from a program that
 * links the SDK). It is the first client.
 * @retval ROCPROFILER_STATUS_SUCCESS Registered; the SDK initializes now if it had not yet.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p configure_func is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED The SDK has already initialized.
 */
rocprofiler_status_t
rocprofiler_force_configure(rocprofiler_configure_func_t configure_func) ROCPROFILER_API;

/**
 * @brief Whether the SDK has initialized.
 * @param [out] status 0 before initialization, 1 while and after clients are initialized.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p status is NULL.
 */
rocprofiler_status_t rocprofiler_is_initialized(int* status) ROCPROFILER_API;

/**
 * @brief Whether the SDK has finalized.
 * @param [out] status 0 before finalization, 1 after.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p status is NULL.
 */
rocprofiler_status_t rocprofiler_is_finalized(int* status) ROCPROFILER_API;

/**
 * @brief Called by a runtime library to hand its function tables to the SDK, which may replace
 * entries with tracing wrappers before returning. librocprofiler-sdk-roctx calls it with name
 * "roctx" and its three tables (core, control, name) on its first call. Initializes the SDK (and
 * so registers the tools) when it has not yet.
 * @param [in] name The library ("roctx"; others are ignored).
 * @param [in] lib_version The library's version (major * 10000 + minor * 100 + patch).
 * @param [in] lib_instance 0 for the first copy of the library in the process.
 * @param [in,out] tables The library's tables.
 * @param [in] num_tables Number of entries in @p tables.
 * @return 0 when the tables were taken, non-zero when not (unknown name, bad arguments).
 */
int rocprofiler_set_api_table(const char* name,
                              uint64_t    lib_version,
                              uint64_t    lib_instance,
                              void**      tables,
                              uint64_t    num_tables) ROCPROFILER_API;

/** @} */

ROCPROFILER_EXTERN_C_FINI
