// CUDA devices as a device backend of the core: one GPU agent per device, in device-ordinal order,
// with the metrics CUPTI lists for it (metric_registry.hpp).
#include "common/static_object.hpp"
#include "cuda/backend.hpp"

#include "common/logging.hpp"
#include "cuda/counters/metric_registry.hpp"
#include "cuda/interpose/driver.hpp"
#include "cuda/interpose/settings_driver.hpp"
#include "cuda/sampling/pc_sampling_session.hpp"
#include "cuda/sampling/pm_sampling_offer.hpp"
#include "cuda/settings.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace rocprofiler::cuda
{
namespace
{
int
attribute(CUdevice dev, CUdevice_attribute attr)
{
    auto value = 0;
    if(driver()->cuDeviceGetAttribute(&value, attr, dev) != CUDA_SUCCESS) return 0;
    return value;
}

// The PCI product id, which CUDA does not report: from sysfs, 0 when unreadable.
uint16_t
pci_device_id(int domain, int bus, int device)
{
    char path[128];
    std::snprintf(
        path, sizeof(path), "/sys/bus/pci/devices/%04x:%02x:%02x.0/device", domain, bus, device);
    auto file = std::ifstream{path};
    auto text = std::string{};
    if(!(file >> text)) return 0;
    return static_cast<uint16_t>(std::strtoul(text.c_str(), nullptr, 16));
}

uint32_t
saturate(uint64_t value)
{
    return value > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(value);
}

void
append_cuda_agents(std::vector<backend::device_description>& out)
{
    // The driver is only loaded here when the process has loaded it already (a CUDA program), or
    // when ROCPROFILER_CUDA_AGENTS=1 asks for it: programs without CUDA stay without it.
    const auto mode = settings::cuda_agents();
    if(mode == settings::agents_mode::never) return;
    const auto* drv = driver(mode == settings::agents_mode::always);
    if(drv == nullptr) return;
    auto scope = internal_call_scope{};
    if(auto result = drv->cuInit(0); result != CUDA_SUCCESS)
    {
        ROCP_LOG(info) << "cuda: cuInit failed (" << error_name(result) << "); no CUDA agents";
        return;
    }
    auto count = 0;
    if(drv->cuDeviceGetCount(&count) != CUDA_SUCCESS) return;
    for(int ordinal = 0; ordinal < count; ++ordinal)
    {
        auto dev = CUdevice{};
        if(drv->cuDeviceGet(&dev, ordinal) != CUDA_SUCCESS) continue;
        auto entry        = backend::device_description{};
        entry.index       = static_cast<uint32_t>(ordinal);
        const auto major  = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
        const auto minor  = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
        entry.name        = "sm_" + std::to_string(major) + std::to_string(minor);
        entry.vendor_name = "NVIDIA";
        char product[256] = {};
        if(drv->cuDeviceGetName(product, sizeof(product) - 1, dev) == CUDA_SUCCESS)
            entry.product_name = product;
        entry.model_name = entry.name;

        auto& p              = entry.properties;
        p.type               = ROCPROFILER_AGENT_TYPE_GPU;
        p.gfx_target_version = static_cast<uint32_t>(major * 10 + minor);
        p.cu_count           = attribute(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
        p.wave_front_size    = attribute(dev, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
        p.workgroup_max_size = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
        p.workgroup_max_dim  = {
             static_cast<uint32_t>(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)),
             static_cast<uint32_t>(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)),
             static_cast<uint32_t>(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z))};
        p.grid_max_dim  = {saturate(uint64_t(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)) *
                                   p.workgroup_max_dim.x),
                           saturate(uint64_t(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)) *
                                   p.workgroup_max_dim.y),
                           saturate(uint64_t(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)) *
                                   p.workgroup_max_dim.z)};
        p.grid_max_size = UINT32_MAX;
        p.lds_size_in_kb =
            attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR) / 1024;
        if(p.wave_front_size > 0)
            p.max_waves_per_cu =
                attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR) /
                p.wave_front_size;
        p.simd_per_cu             = 4; // SM sub-partitions (warp schedulers) since Volta
        p.max_waves_per_simd      = p.simd_per_cu > 0 ? p.max_waves_per_cu / p.simd_per_cu : 0;
        p.max_engine_clk_fcompute = attribute(dev, CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1000;
        p.num_sdma_engines        = attribute(dev, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT);
        auto total                = size_t{0};
        if(drv->cuDeviceTotalMem_v2(&total, dev) == CUDA_SUCCESS) p.local_mem_size = total;
        const auto domain = attribute(dev, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
        const auto bus    = attribute(dev, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
        const auto slot   = attribute(dev, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
        p.vendor_id       = 0x10de;
        p.device_id       = pci_device_id(domain, bus, slot);
        p.domain          = static_cast<uint32_t>(domain);
        p.location_id     = static_cast<uint32_t>((bus << 8) | (slot << 3)); // bus:device.function
        auto uuid         = CUuuid{};
        if(drv->cuDeviceGetUuid_v2(&uuid, dev) == CUDA_SUCCESS)
            std::memcpy(p.uuid.bytes, uuid.bytes, sizeof(p.uuid.bytes));
        out.emplace_back(std::move(entry));
    }
}

class cuda_device_backend final : public backend::device_backend
{
public:
    const char* name() const override { return "cuda"; }

    // CUPTI's memcpy activity records (memory_copies.hpp).
    bool traces_memory_copies() const override { return true; }

    std::span<const common::env::setting* const> settings() const override
    {
        return settings::table::all;
    }

    void append_devices(std::vector<backend::device_description>& out) override
    {
        append_cuda_agents(out);
    }

    std::optional<backend::device_counters> counters_of(uint32_t device_index) override
    {
        auto counters = metrics::agent_counters(device_index);
        if(counters)
        {
            auto names = std::vector<std::string>{};
            for(const auto& spec : counters->counters)
                names.push_back(spec.name);
            pm_sampling::remember_counters(device_index, std::move(names));
        }
        return counters;
    }

    // CUPTI's PM sampling API (pm_sampling_offer.hpp): the agent's counters that PM sampling
    // takes on the chip.
    std::optional<backend::spm_offer> spm_offer_of(uint32_t device_index) override
    {
        return pm_sampling::offer_of(device_index);
    }

    // CUPTI's PC Sampling API (pc_sampling_session.hpp): offered where libcupti has it; whether
    // the chip supports it is known only when sampling is enabled on a context, so a chip without
    // it reports CUPTI's error in the batch of each execution.
    std::vector<backend::pc_sampling_configuration>
    pc_sampling_configurations_of(uint32_t device_index) override
    {
        (void)device_index;
        if(pc_sampling::table() == nullptr) return {};
        return {pc_sampling::offered_configuration()};
    }
};
} // namespace

backend::device_backend&
get_device_backend()
{
    return common::static_object<cuda_device_backend, common::reset_order::never>::get();
}
} // namespace rocprofiler::cuda
