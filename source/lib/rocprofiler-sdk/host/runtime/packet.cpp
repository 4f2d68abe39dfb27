#include "rocprofiler-sdk/host/runtime/runtime.hpp"

#include <cstring>

namespace rocprofiler
{
namespace host
{
kernel_args::kernel_args(const void* data, size_t size)
{
    if(size == 0) return;
    // operator new[] aligns for every fundamental type (__STDCPP_DEFAULT_NEW_ALIGNMENT__).
    auto bytes = std::shared_ptr<std::byte[]>{new std::byte[size]};
    std::memcpy(bytes.get(), data, size);
    m_data = std::move(bytes);
    m_size = size;
}

uint64_t
packet::workgroup_count() const noexcept
{
    return uint64_t{grid.x} * grid.y * grid.z;
}

uint64_t
packet::work_item_count() const noexcept
{
    return workgroup_count() * (uint64_t{workgroup_size.x} * workgroup_size.y * workgroup_size.z);
}

uint32_t
packet::group_segment_size() const noexcept
{
    return (kernel ? kernel->group_segment_size : 0) + dynamic_group_segment_size;
}
} // namespace host
} // namespace rocprofiler
