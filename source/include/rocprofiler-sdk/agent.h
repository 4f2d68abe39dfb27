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
#include <rocprofiler-sdk/hsakmt_types.h>

#include <stdint.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @defgroup AGENTS Agents
 * @{
 */

/** @brief A cache of an agent (none are listed on CUDA agents or the host device). */
typedef struct rocprofiler_agent_cache_t
{
    uint64_t     processor_id_low;    ///< Lowest processor id sharing the cache
    uint64_t     size;                ///< Size, KiB
    uint32_t     level;               ///< Level (1, 2, ...)
    uint32_t     cache_line_size;     ///< Line size, bytes
    uint32_t     cache_lines_per_tag; ///< Lines per tag
    uint32_t     association;         ///< Associativity
    uint32_t     latency;             ///< Latency, ns
    HsaCacheType type;                ///< Kind
} rocprofiler_agent_cache_t;

/** @brief An I/O link of an agent (none are listed on CUDA agents or the host device). */
typedef struct rocprofiler_agent_io_link_t
{
    HSA_IOLINKTYPE   type;                      ///< Kind of link
    uint32_t         version_major;             ///< Bus version, major
    uint32_t         version_minor;             ///< Bus version, minor
    uint32_t         node_from;                 ///< Source node
    uint32_t         node_to;                   ///< Destination node
    uint32_t         weight;                    ///< Relative distance
    uint32_t         min_latency;               ///< Latency, ns
    uint32_t         max_latency;               ///< Latency, ns
    uint32_t         min_bandwidth;             ///< Bandwidth, MB/s
    uint32_t         max_bandwidth;             ///< Bandwidth, MB/s
    uint32_t         recommended_transfer_size; ///< Bytes
    HSA_LINKPROPERTY flags;                     ///< Properties
} rocprofiler_agent_io_link_t;

/** @brief A memory bank of an agent (none are listed on CUDA agents or the host device). */
typedef struct rocprofiler_agent_mem_bank_t
{
    HSA_HEAPTYPE       heap_type;     ///< Kind of heap
    HSA_MEMORYPROPERTY flags;         ///< Properties
    uint32_t           width;         ///< Bus width, bits
    uint32_t           mem_clk_max;   ///< Clock, MHz
    uint64_t           size_in_bytes; ///< Size
} rocprofiler_agent_mem_bank_t;

/** @brief The runtimes an agent is visible to (all zero here: no ROCm runtime sees ours). */
typedef struct rocprofiler_agent_runtime_visiblity_t
{
    uint32_t hsa : 1;       ///< Visible to HSA
    uint32_t hip : 1;       ///< Visible to HIP
    uint32_t rccl : 1;      ///< Visible to RCCL
    uint32_t rocdecode : 1; ///< Visible to rocDecode
    uint32_t reserved : 28; ///< Reserved
} rocprofiler_agent_runtime_visiblity_t;

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
    HSA_ENGINE_VERSION       sdma_fw_version;            ///< Copy engine firmware
    HSA_ENGINE_ID            fw_version;                 ///< Firmware
    HSA_CAPABILITY           capability;                 ///< Capability bits
    uint32_t                 cu_per_engine;              ///< CUs per engine
    uint32_t                 max_waves_per_cu;           ///< Maximum waves (warps) per CU
    uint32_t                 family_id;                  ///< Family
    uint32_t                 workgroup_max_size;         ///< Maximum work-items per workgroup
    uint32_t                 grid_max_size;           ///< Maximum work-items per grid (saturated)
    uint64_t                 local_mem_size;          ///< Device memory, bytes
    uint64_t                 hive_id;                 ///< Interconnect hive
    uint64_t                 gpu_id;                  ///< Driver id
    rocprofiler_dim3_t       workgroup_max_dim;       ///< Maximum workgroup dimensions
    rocprofiler_dim3_t       grid_max_dim;            ///< Maximum grid dimensions (work-items)
    const rocprofiler_agent_mem_bank_t* mem_banks;    ///< `mem_banks_count` banks (NULL if none)
    const rocprofiler_agent_cache_t*    caches;       ///< `caches_count` caches (NULL if none)
    const rocprofiler_agent_io_link_t*  io_links;     ///< `io_links_count` links (NULL if none)
    const char*                         name;         ///< Architecture name (e.g. "sm_90", "host")
    const char*                         vendor_name;  ///< Vendor
    const char*                         product_name; ///< Marketing name (e.g. "NVIDIA H200")
    const char*                         model_name;   ///< Model
    uint32_t                            node_id;      ///< Node id, unique among agents
    int32_t                             logical_node_id; ///< Index among all agents
    int32_t logical_node_type_id;                        ///< Index among agents of the same type
    rocprofiler_agent_runtime_visiblity_t runtime_visibility; ///< Runtimes that see the agent
    rocprofiler_uuid_t                    uuid;               ///< Unique id
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
