/**
 * @file hsa_types.h
 * @brief The handle types of the HSA runtime (`hsa/hsa.h`) that rocprofiler-sdk records name,
 * declared here with HSA's layout so that no ROCm package is needed. No agent of this SDK is an
 * HSA agent: these fields are always zero here. The declarations are skipped when HSA's own
 * header was included first (same include guard); include HSA's header first if a tool needs
 * both.
 */
#pragma once

#ifndef HSA_RUNTIME_INC_HSA_H_
#    define HSA_RUNTIME_INC_HSA_H_

#    include <stdint.h>

/** @brief An HSA agent. */
typedef struct hsa_agent_s
{
    uint64_t handle; ///< Opaque handle
} hsa_agent_t;

/** @brief An HSA signal. */
typedef struct hsa_signal_s
{
    uint64_t handle; ///< Opaque handle
} hsa_signal_t;

/** @brief An HSA executable. */
typedef struct hsa_executable_s
{
    uint64_t handle; ///< Opaque handle
} hsa_executable_t;

/** @brief An HSA code object loaded into an executable. */
typedef struct hsa_loaded_code_object_s
{
    uint64_t handle; ///< Opaque handle
} hsa_loaded_code_object_t;

#endif
