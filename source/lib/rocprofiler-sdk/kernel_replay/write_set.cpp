#include "kernel_replay/write_set.hpp"

#include <algorithm>
#include <utility>

namespace rocprofiler::kernel_replay
{
namespace
{
memory_range
first_sight(const anchor& a, const write_set_settings& settings)
{
    if(a.region.bytes <= settings.window_bytes) return a.region;
    const auto from = std::max(
        a.region.start, a.value > settings.anchor_slack ? a.value - settings.anchor_slack : 0);
    const auto to = std::min(a.region.end(), std::max(a.value, from) + settings.window_bytes);
    return to > from ? memory_range{from, to - from} : memory_range{};
}
} // namespace

uint64_t
prediction::snapshot_bytes() const
{
    auto total = uint64_t{0};
    for(const auto& r : snapshot)
        total += r.bytes;
    return total;
}

uint64_t
prediction::verify_bytes() const
{
    auto total = uint64_t{0};
    for(const auto& r : verify)
        total += r.bytes;
    return total;
}

prediction
predict(const shape_key&                  key,
        const dispatch::kernel_arguments& arguments,
        const std::vector<memory_range>&  tracked,
        const read_fn&                    read,
        const write_set_settings&         settings)
{
    auto out    = prediction{};
    out.regions = tracked; // one region per allocation: never across allocations
    if(settings.snapshot == snapshot_scope::all)
    {
        out.snapshot = tracked;
        return out;
    }

    // Anchors: every byte offset of the argument block, then one level into device memory.
    find_argument_anchors(arguments, out.regions, settings.anchor_slack, out.anchors);

    out.shape               = learned_shape_of(key, argument_signature(arguments, out.anchors));
    const auto  learned     = look_up_learned(key, out.shape);
    const bool  seen        = learned.seen;
    const bool  scan_memory = !seen || learned.shape.indirect_written;
    const auto& absolute    = learned.absolute;
    const auto& profile     = learned.shape;

    if(scan_memory && read)
        out.scan_truncated = !find_memory_anchors(read,
                                                  out.regions,
                                                  {settings.anchor_slack,
                                                   settings.scan_bytes,
                                                   settings.scan_budget,
                                                   settings.pointer_depth},
                                                  out.anchors);

    auto chosen  = absolute;
    auto partial = false;
    for(const auto& a : out.anchors)
    {
        if(seen && a.offset >= 0)
        {
            auto itr = profile.written.find(a.offset);
            if(itr == profile.written.end())
            {
                auto count = profile.unchanged.find(a.offset);
                if(count != profile.unchanged.end() && count->second >= unchanged_until_read_only)
                    continue;
                // Not known to be read-only yet: first sight.
                out.first_sight_offsets.push_back(a.offset);
                chosen.push_back(first_sight(a, settings));
                partial = true;
                continue;
            }
            // Within the region the pointer points into: a smaller buffer at the same argument
            // never brings its neighbour into the snapshot.
            for(const auto& r : intersect({predicted_extent(a.value, itr->second)}, {a.region}))
                chosen.push_back(r);
            continue;
        }
        if(seen && a.offset < 0 && !profile.indirect_written) continue;
        if(a.offset >= 0) out.first_sight_offsets.push_back(a.offset);
        chosen.push_back(first_sight(a, settings));
        partial = partial || seen;
    }
    out.learned  = seen;
    out.partly   = seen && partial;
    out.snapshot = intersect(normalize(std::move(chosen)), out.regions);

    switch(settings.verify)
    {
    case verify_scope::all:
        out.verify = subtract(out.regions, out.snapshot);
        break;
    case verify_scope::reachable:
    {
        if(out.scan_truncated)
        {
            out.verify = subtract(out.regions, out.snapshot);
            break;
        }
        auto reached = std::vector<memory_range>{};
        for(const auto& a : out.anchors)
            reached.push_back(a.region);
        out.verify = subtract(normalize(std::move(reached)), out.snapshot);
        break;
    }
    case verify_scope::off:
        break;
    }
    return out;
}
} // namespace rocprofiler::kernel_replay
