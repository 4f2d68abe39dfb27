#include "common/static_object.hpp"

#include <array>
#include <vector>

namespace rocprofiler::common::static_objects
{
namespace
{
constexpr auto order_count = static_cast<size_t>(reset_order::last);

struct table
{
    std::mutex                                     mutex    = {};
    std::array<std::vector<reset_fn>, order_count> by_order = {};
};

// Never destroyed, like the objects it lists.
table&
get_table()
{
    static auto* value = new table{};
    return *value;
}
} // namespace

void
enroll(reset_order order, reset_fn fn)
{
    if(order == reset_order::never || order == reset_order::last || fn == nullptr) return;
    auto& tbl  = get_table();
    auto  lock = std::lock_guard{tbl.mutex};
    tbl.by_order[static_cast<size_t>(order)].emplace_back(fn);
}

void
reset_all()
{
    auto& tbl    = get_table();
    auto  to_run = std::vector<reset_fn>{};
    {
        auto lock = std::lock_guard{tbl.mutex};
        for(const auto& fns : tbl.by_order)
            to_run.insert(to_run.end(), fns.begin(), fns.end());
    }
    for(auto fn : to_run)
        fn();
}
} // namespace rocprofiler::common::static_objects
