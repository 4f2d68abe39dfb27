/**
 * @file intercept_table.h
 * @brief Registration for a runtime's API table, so that a tool can wrap its functions. None of
 * the runtimes these tables belong to (HSA, HIP, RCCL, rocDecode, rocJPEG) runs here, and ROCTx's
 * tables are wrapped by this SDK itself, so no table is ever offered.
 */
#pragma once

#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

#include <stdint.h>

ROCPROFILER_EXTERN_C_INIT

/** @brief Called when a runtime offers its tables: the table, the library's version and
 * instance, the tables and their count, and the tool's data. */
typedef void (*rocprofiler_intercept_library_cb_t)(rocprofiler_intercept_table_t type,
                                                   uint64_t                      lib_version,
                                                   uint64_t                      lib_instance,
                                                   void**                        tables,
                                                   uint64_t                      num_tables,
                                                   void*                         user_data);

/**
 * @brief Asks to be called when a runtime offers the tables @p libs names
 * (rocprofiler_intercept_table_t flags).
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p callback is NULL or @p libs has no known
 * flag.
 * @retval ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE Otherwise: no runtime here offers its tables.
 */
rocprofiler_status_t rocprofiler_at_intercept_table_registration(
    rocprofiler_intercept_library_cb_t callback, int libs, void* data) ROCPROFILER_API;

/**
 * @brief The name of one table flag: the enumerator without its `ROCPROFILER_` prefix
 * (`HSA_TABLE`, `HIP_RUNTIME_TABLE`, ...), valid for the life of the process.
 * @param [in] kind One rocprofiler_intercept_table_t flag.
 * @param [out] name The name.
 * @param [out] name_len Its length (may be NULL).
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p name is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND @p kind is not one known flag.
 */
rocprofiler_status_t rocprofiler_query_intercept_table_name(rocprofiler_intercept_table_t kind,
                                                            const char**                  name,
                                                            uint64_t* name_len) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI
