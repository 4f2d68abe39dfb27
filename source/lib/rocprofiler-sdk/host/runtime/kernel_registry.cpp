#include "rocprofiler-sdk/host/runtime/kernel_registry.hpp"
#include "rocprofiler-sdk/host/runtime/after_fork.hpp"

#include <mutex>

namespace rocprofiler
{
namespace host
{
rocprofiler_host_status_t
kernel_registry::add(const char*                  name,
                     rocprofiler_host_kernel_fn_t fn,
                     uint32_t                     private_segment_size,
                     uint32_t                     group_segment_size,
                     rocprofiler_host_kernel_t*   kernel)
{
    if(!kernel) return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    kernel->handle = 0;
    if(!name || name[0] == '\0' || !fn) return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    if(private_segment_size > ROCPROFILER_HOST_MAX_PRIVATE_SEGMENT_SIZE ||
       group_segment_size > ROCPROFILER_HOST_MAX_GROUP_SEGMENT_SIZE)
        return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;

    auto key  = std::string{name};
    auto lock = std::unique_lock{m_mutex};
    if(auto it = m_by_name.find(key); it != m_by_name.end())
    {
        const auto& existing = *m_by_id.at(it->second - 1);
        if(existing.function != fn || existing.private_segment_size != private_segment_size ||
           existing.group_segment_size != group_segment_size)
            return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
        kernel->handle = existing.id;
        return ROCPROFILER_HOST_STATUS_SUCCESS;
    }

    auto info                  = std::make_shared<kernel_info>();
    info->id                   = m_by_id.size() + 1;
    info->name                 = key;
    info->function             = fn;
    info->private_segment_size = private_segment_size;
    info->group_segment_size   = group_segment_size;
    m_by_id.reserve(m_by_id.size() + 1); // so that the emplace below cannot throw half-way
    m_by_name.emplace(std::move(key), info->id);
    m_by_id.push_back(info);
    kernel->handle = info->id;
    return ROCPROFILER_HOST_STATUS_SUCCESS;
}

std::shared_ptr<const kernel_info>
kernel_registry::find(uint64_t id) const
{
    auto lock = std::shared_lock{m_mutex};
    if(id == 0 || id > m_by_id.size()) return nullptr;
    return m_by_id[id - 1];
}
std::vector<std::shared_ptr<const kernel_info>>
kernel_registry::all() const
{
    auto lock = std::shared_lock{m_mutex};
    return m_by_id;
}

void
kernel_registry::reset_after_fork()
{
    renew_after_fork(m_mutex);
}
} // namespace host
} // namespace rocprofiler
