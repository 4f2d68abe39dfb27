#include "cuda/replay/shadow_plan.hpp"

namespace rocprofiler::cuda
{
shadow_layout
layout_shadows(const std::vector<address_range>& ranges)
{
    auto out = shadow_layout{};
    out.shadows.reserve(ranges.size());
    auto total = size_t{0};
    for(const auto& r : ranges)
    {
        const bool adjacent =
            !out.shadows.empty() && out.shadows.back().start + out.shadows.back().bytes == r.start;
        // The copy keeps the allocation's address modulo shadow_alignment, so that the compare
        // kernel reads both with the same aligned words.
        const auto offset =
            adjacent ? total : align_up(total) + static_cast<size_t>(r.start % shadow_alignment);
        out.shadows.push_back(shadow_span{r.start, r.bytes, offset});
        total = offset + r.bytes;
    }
    out.total = align_up(total);
    return out;
}
} // namespace rocprofiler::cuda
