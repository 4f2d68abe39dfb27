#pragma once

#include "rocprofiler-sdk/host/runtime/runtime.hpp"

#include <memory>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace rocprofiler
{
namespace host
{
// Name -> kernel table. Kernels are never removed; ids are 1, 2, 3, ... in registration order.
class kernel_registry
{
public:
    rocprofiler_host_status_t add(const char*                  name,
                                  rocprofiler_host_kernel_fn_t fn,
                                  uint32_t                     private_segment_size,
                                  uint32_t                     group_segment_size,
                                  rocprofiler_host_kernel_t*   kernel);

    std::shared_ptr<const kernel_info> find(uint64_t id) const;

    // Every registered kernel, in id order.
    std::vector<std::shared_ptr<const kernel_info>> all() const;

    // In a forked child (after_fork.hpp): locks of threads that are gone start afresh.
    void reset_after_fork();

private:
    mutable std::shared_mutex                       m_mutex;
    std::vector<std::shared_ptr<const kernel_info>> m_by_id; // index id - 1
    std::unordered_map<std::string, uint64_t>       m_by_name;
};
} // namespace host
} // namespace rocprofiler
