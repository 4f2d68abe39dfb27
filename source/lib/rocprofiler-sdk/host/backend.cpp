#include "host/backend.hpp"
#include "common/static_object.hpp"

#include "host/counters.hpp"
#include "host/pc_sampling.hpp"
#include "host/runtime/runtime.hpp"
#include "host/settings.hpp"
#include "host/spm.hpp"

#include <unistd.h>

namespace rocprofiler::host
{
namespace
{
backend::device_description
describe_process_device()
{
    const auto props   = process_device().properties();
    auto       entry   = backend::device_description{};
    entry.index        = 0;
    entry.name         = "host";
    entry.vendor_name  = props.vendor;
    entry.product_name = props.name;
    entry.model_name   = "cpu-threads";

    auto& p              = entry.properties;
    p.type               = ROCPROFILER_AGENT_TYPE_GPU;
    p.cu_count           = props.worker_count;
    p.simd_count         = props.worker_count;
    p.simd_per_cu        = 1;
    p.wave_front_size    = 1;
    p.max_waves_per_simd = 1;
    p.max_waves_per_cu   = 1;
    p.cpu_cores_count    = props.cpu_count;
    p.workgroup_max_size = props.max_workgroup_size;
    p.workgroup_max_dim  = {
         props.max_workgroup_size, props.max_workgroup_size, props.max_workgroup_size};
    p.grid_max_size  = UINT32_MAX;
    p.grid_max_dim   = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
    p.lds_size_in_kb = props.max_group_segment_size / 1024;
    auto pages       = sysconf(_SC_PHYS_PAGES);
    auto page_size   = sysconf(_SC_PAGESIZE);
    if(pages > 0 && page_size > 0)
        p.local_mem_size = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
    return entry;
}

class host_device_backend final : public backend::device_backend
{
public:
    const char* name() const override { return "host"; }

    // rocprofiler_host_memcpy reports each copy (adapter.cpp).
    bool traces_memory_copies() const override { return true; }

    std::span<const common::env::setting* const> settings() const override { return settings::all; }

    void append_devices(std::vector<backend::device_description>& out) override
    {
        out.emplace_back(describe_process_device());
    }

    std::optional<backend::device_counters> counters_of(uint32_t device_index) override
    {
        if(device_index != 0) return std::nullopt;
        return device_counters();
    }

    std::vector<backend::pc_sampling_configuration>
    pc_sampling_configurations_of(uint32_t device_index) override
    {
        if(device_index != 0) return {};
        return pc_sampling_configurations();
    }

    std::optional<backend::spm_offer> spm_offer_of(uint32_t device_index) override
    {
        if(device_index != 0) return std::nullopt;
        return spm_offer();
    }
};
} // namespace

backend::device_backend&
get_device_backend()
{
    return common::static_object<host_device_backend, common::reset_order::never>::get();
}
} // namespace rocprofiler::host
