/**
 * @file agent.h
 * @brief Agents: the devices the SDK sees. Kernel-executing devices (CUDA GPUs, then the host
 * reference device) have type @ref ROCPROFILER_AGENT_TYPE_GPU; the CPU is listed as a CPU agent.
 * Ids are stable for the life of the process; CUDA devices come first so their ids do not depend
 * on the host device.
 */
#pragma once

#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @defgroup AGENTS Agents
 * @{
 */

/** @brief 128-bit unique id of an agent. */
typedef union rocprofiler_uuid_t
{
    uint8_t  bytes[16];  ///< As bytes
    uint64_t value64[2]; ///< As two words
} rocprofiler_uuid_t;

/**
 * @brief Properties of an agent (version 0). Fields the device cannot answer are zero (or an
 * empty string for names).
 */
typedef struct rocprofiler_agent_v0_t
{
    uint64_t                 size;                   ///< Size of this struct
    rocprofiler_agent_id_t   id;                     ///< Id of the agent
    rocprofiler_agent_type_t type;                   ///< CPU or GPU
    uint32_t                 cpu_cores_count;        ///< CPU cores (CPU agents)
    uint32_t                 simd_count;             ///< SIMD units in all (GPU: SMSPs)
    uint32_t                 mem_banks_count;        ///< Memory banks
    uint32_t                 caches_count;           ///< Caches
    uint32_t                 io_links_count;         ///< I/O links
    uint32_t                 cpu_core_id_base;       ///< First CPU core id
    uint32_t                 simd_id_base;           ///< First SIMD id
    uint32_t                 max_waves_per_simd;     ///< Maximum waves (warps) per SIMD
    uint32_t                 lds_size_in_kb;         ///< Group (shared) memory per CU, KiB
    uint32_t                 gds_size_in_kb;         ///< Global data share, KiB
    uint32_t                 num_gws;                ///< Global wave syncs
    uint32_t                 wave_front_size;        ///< Wavefront (warp) width, work-items
    uint32_t                 num_xcc;                ///< Compute dies
    uint32_t                 cu_count;               ///< Compute units (CUDA: SMs; host: workers)
    uint32_t                 array_count;            ///< SIMD arrays
    uint32_t                 num_shader_banks;       ///< Shader engines
    uint32_t                 simd_arrays_per_engine; ///< SIMD arrays per engine
    uint32_t                 cu_per_simd_array;      ///< CUs per SIMD array
    uint32_t                 simd_per_cu;            ///< SIMDs per CU
    uint32_t                 max_slots_scratch_cu;   ///< Scratch slots per CU
    uint32_t                 gfx_target_version;    ///< Architecture version (CUDA: 10*major+minor)
    uint16_t                 vendor_id;             ///< PCI vendor id
    uint16_t                 device_id;             ///< PCI device id
    uint32_t                 location_id;           ///< PCI location (bus/device/function)
    uint32_t                 domain;                ///< PCI domain
    uint32_t                 drm_render_minor;      ///< DRM render node
    uint32_t                 num_sdma_engines;      ///< Copy engines
    uint32_t                 num_sdma_xgmi_engines; ///< Peer copy engines
    uint32_t                 num_sdma_queues_per_engine; ///< Queues per copy engine
    uint32_t                 num_cp_queues;              ///< Compute queues
    uint32_t                 max_engine_clk_ccompute;    ///< CPU clock, MHz
    uint32_t                 max_engine_clk_fcompute;    ///< Device clock, MHz
    uint32_t                 sdma_fw_version;            ///< Copy engine firmware
    uint32_t                 fw_version;                 ///< Firmware
    uint32_t                 capability;                 ///< Capability bits
    uint32_t                 cu_per_engine;              ///< CUs per engine
    uint32_t                 max_waves_per_cu;           ///< Maximum waves (warps) per CU
    uint32_t                 family_id;                  ///< Family
    uint32_t                 workgroup_max_size;         ///< Maximum work-items per workgroup
    uint32_t                 grid_max_size;        ///< Maximum work-items per grid (saturated)
    uint64_t                 local_mem_size;       ///< Device memory, bytes
    uint64_t                 hive_id;              ///< Interconnect hive
    uint64_t                 gpu_id;               ///< Driver id
    rocprofiler_dim3_t       workgroup_max_dim;    ///< Maximum workgroup dimensions
    rocprofiler_dim3_t       grid_max_dim;         ///< Maximum grid dimensions (work-items)
    const char*              name;                 ///< Architecture name (e.g. "sm_90", "host")
    const char*              vendor_name;          ///< Vendor
    const char*              product_name;         ///< Marketing name (e.g. "NVIDIA H200")
    const char*              model_name;           ///< Model
    uint32_t                 node_id;              ///< Node id, unique among agents
    int32_t                  logical_node_id;      ///< Index among all agents
    int32_t                  logical_node_type_id; ///< Index among agents of the same type
    int32_t                  reserved_padding0;    ///< Reserved
    rocprofiler_uuid_t       uuid;                 ///< Unique id
} rocprofiler_agent_v0_t;

/** @brief The current agent struct. */
typedef rocprofiler_agent_v0_t rocprofiler_agent_t;

/**
 * @brief Receives every agent at once.
 * @param [in] version The version requested.
 * @param [in] agents Array of @p num_agents pointers to agent structs of that version.
 * @param [in] num_agents Number of agents.
 * @param [in] user_data The `user_data` of the query.
 */
typedef rocprofiler_status_t (*rocprofiler_query_available_agents_cb_t)(
    rocprofiler_agent_version_t version, const void** agents, size_t num_agents, void* user_data);

/**
 * @brief Lists the agents.
 * @param [in] version Must be @ref ROCPROFILER_AGENT_INFO_VERSION_0.
 * @param [in] callback Called once with every agent.
 * @param [in] agent_size `sizeof(rocprofiler_agent_v0_t)` as the caller knows it; must not exceed
 * the library's.
 * @param [in] user_data Passed to @p callback.
 * @retval ROCPROFILER_STATUS_SUCCESS (or what @p callback returned)
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p callback is NULL or @p version unknown.
 * @retval ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI @p agent_size is larger than the library's
 * struct.
 */
rocprofiler_status_t
rocprofiler_query_available_agents(rocprofiler_agent_version_t             version,
                                   rocprofiler_query_available_agents_cb_t callback,
                                   size_t                                  agent_size,
                                   void* user_data) ROCPROFILER_API;

/** @} */

ROCPROFILER_EXTERN_C_FINI
