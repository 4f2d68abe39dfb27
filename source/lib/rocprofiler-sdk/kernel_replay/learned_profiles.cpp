#include "kernel_replay/learned_profiles.hpp"

#include "common/static_object.hpp"
#include "kernel_replay/anchors.hpp"
#include "kernel_replay/ranges.hpp"
#include "kernel_replay/write_set.hpp"

#include <algorithm>
#include <map>
#include <mutex>

namespace rocprofiler::kernel_replay
{
namespace
{
constexpr size_t   max_shapes              = 1U << 16; // then new shapes stay first-sight
constexpr size_t   max_absolute_per_kernel = 256;
constexpr uint64_t learn_granule           = 16; // bytes: learned extents are whole granules

struct learned_state
{
    std::mutex                             mutex   = {};
    std::map<learned_shape, shape_profile> shapes  = {};
    std::map<uint64_t, kernel_profile>     kernels = {};
};

learned_state&
learned()
{
    return common::static_object<learned_state, common::reset_order::replay>::get();
}

void
widen(extent& e, int64_t lo, int64_t hi, bool known)
{
    if(!known)
    {
        e = {lo, hi};
        return;
    }
    e.lo = std::min(e.lo, lo);
    e.hi = std::max(e.hi, hi);
}

// Attributes [first, last) to the anchors, split at the pointers of other anchors inside it.
void
attribute(const std::vector<anchor>& anchors,
          uint64_t                   first,
          uint64_t                   last,
          shape_profile&             shape,
          kernel_profile&            kernel,
          std::map<int64_t, bool>&   replaced)
{
    while(first < last)
    {
        const auto* a = owner(anchors, first);
        if(a == nullptr)
        {
            kernel.absolute.push_back({first, last - first});
            return;
        }
        // The next anchor pointer inside (first, last) in the same region ends this part.
        auto cut = last;
        for(const auto& b : anchors)
            if(b.value > first && b.value < cut && b.region.start == a->region.start) cut = b.value;
        if(a->offset < 0)
            shape.indirect_written = true;
        else
        {
            const auto lo  = static_cast<int64_t>(first) - static_cast<int64_t>(a->value);
            const auto hi  = static_cast<int64_t>(cut) - static_cast<int64_t>(a->value);
            auto       itr = shape.written.find(a->offset);
            const bool known =
                itr != shape.written.end() && !(shape.refine && !replaced[a->offset]);
            widen(shape.written[a->offset], lo, hi, known);
            replaced[a->offset] = true;
        }
        first = cut;
    }
}

void
trim_absolute(kernel_profile& kernel)
{
    kernel.absolute = normalize(std::move(kernel.absolute));
    // Too many distinct ranges: merge the closest neighbours until it fits.
    while(kernel.absolute.size() > max_absolute_per_kernel)
    {
        auto best = size_t{0};
        auto gap  = UINT64_MAX;
        for(size_t i = 0; i + 1 < kernel.absolute.size(); ++i)
        {
            const auto g = kernel.absolute[i + 1].start - kernel.absolute[i].end();
            if(g < gap)
            {
                gap  = g;
                best = i;
            }
        }
        auto& a = kernel.absolute[best];
        a.bytes = kernel.absolute[best + 1].end() - a.start;
        kernel.absolute.erase(kernel.absolute.begin() + static_cast<std::ptrdiff_t>(best) + 1);
    }
}
memory_range
relative(uint64_t value, const extent& e)
{
    const auto from = static_cast<int64_t>(value) + e.lo;
    const auto to   = static_cast<int64_t>(value) + e.hi;
    if(to <= from || to <= 0) return {};
    const auto start = static_cast<uint64_t>(std::max<int64_t>(from, 0));
    return {start, static_cast<uint64_t>(to) - start};
}

// A learned extent as predicted: widened on each side by a sixteenth of its size (whole
// granules; nothing below 256 bytes), but not to before the pointer when it started at or after
// it (a kernel writes before its pointer only when it did so before: a 1-based base). What a
// compare learns is what changed, and an output whose first or last elements kept their values
// (zeros over zeros, the rows of units a ReLU left dead) learns short: the next dispatch that
// changes them would write outside the snapshot. The margin costs at most an eighth more shadow
// bytes.
extent
with_margin(const extent& e)
{
    const auto size   = e.hi - e.lo;
    const auto margin = static_cast<int64_t>(size / 16 / learn_granule * learn_granule);
    const auto head   = e.lo >= 0 ? std::min(margin, e.lo) : margin;
    return extent{e.lo - head, e.hi + margin};
}

} // namespace

learned_shape
learned_shape_of(const shape_key& key, uint64_t signature)
{
    return {.kernel_id = key.kernel_id,
            .grid      = {key.grid.x, key.grid.y, key.grid.z},
            .block     = {key.block.x, key.block.y, key.block.z},
            .signature = signature};
}

memory_range
predicted_extent(uint64_t pointer, const extent& learned)
{
    return relative(pointer, with_margin(learned));
}

learned_profile
look_up_learned(const shape_key& key, const learned_shape& shape)
{
    auto  lock  = std::lock_guard{learned().mutex};
    auto& state = learned();
    auto  out   = learned_profile{};
    if(auto itr = state.shapes.find(shape); itr != state.shapes.end())
    {
        out.seen  = true;
        out.shape = itr->second;
    }
    if(auto itr = state.kernels.find(key.kernel_id); itr != state.kernels.end())
        out.absolute = itr->second.absolute;
    return out;
}

uint64_t
learn_written(const shape_key&                           key,
              const prediction&                          predicted,
              const std::vector<dispatch::range_change>& changes)
{
    auto  total = uint64_t{0};
    auto  lock  = std::lock_guard{learned().mutex};
    auto& state = learned();
    auto  itr   = state.shapes.find(predicted.shape);
    if(itr == state.shapes.end())
    {
        if(state.shapes.size() >= max_shapes) return 0;
        itr = state.shapes.emplace(predicted.shape, shape_profile{}).first;
    }
    auto&      kernel   = state.kernels[key.kernel_id];
    auto       replaced = std::map<int64_t, bool>{};
    const auto anchors  = standing_anchors(predicted.anchors, changes);
    for(const auto& c : changes)
    {
        if(c.last <= c.first) continue;
        // A write changes whole elements, but not every byte of each (a float whose high byte
        // stays): the envelope grows to whole aligned granules, within the piece's allocation.
        auto first = c.first & ~(learn_granule - 1);
        auto last  = (c.last + learn_granule - 1) & ~(learn_granule - 1);
        if(const auto* r = region_containing(predicted.regions, c.first))
        {
            first = std::max(first, r->start);
            last  = std::min(last, r->end());
        }
        total += last - first;
        attribute(anchors, first, last, itr->second, kernel, replaced);
    }
    // Arguments predicted at first sight that changed nothing: one step closer to read-only.
    // Once per argument: one argument can anchor two allocations (a pointer at their border).
    // A dispatch that changed nothing of a kernel with no known write says nothing about which
    // argument is its output (a fill that wrote the values already there): its arguments stay at
    // first sight.
    if(total == 0 && itr->second.written.empty() && !itr->second.indirect_written &&
       kernel.absolute.empty() && kernel.pending.empty())
    {
        itr->second.refine = false;
        return total;
    }
    auto offsets = predicted.first_sight_offsets;
    std::sort(offsets.begin(), offsets.end());
    offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
    for(const auto offset : offsets)
    {
        if(replaced.count(offset) != 0 || itr->second.written.count(offset) != 0)
        {
            itr->second.unchanged.erase(offset);
            continue;
        }
        auto& count = itr->second.unchanged[offset];
        count       = std::min(count + 1, unchanged_until_read_only);
    }
    itr->second.refine = false;
    trim_absolute(kernel);
    if(kernel.absolute.empty() && kernel.pending.empty()) state.kernels.erase(key.kernel_id);
    return total;
}

bool
learn_outside(const shape_key&                 key,
              const prediction&                predicted,
              const std::vector<memory_range>& outside)
{
    auto  lock  = std::lock_guard{learned().mutex};
    auto& state = learned();
    auto  itr   = state.shapes.find(predicted.shape);
    if(itr == state.shapes.end())
    {
        if(state.shapes.size() >= max_shapes) return false;
        itr = state.shapes.emplace(predicted.shape, shape_profile{}).first;
    }
    auto  covered = true;
    auto& shape   = itr->second;
    auto& kernel  = state.kernels[key.kernel_id];
    for(const auto& piece : outside)
    {
        const auto* a = owner(predicted.anchors, piece.start);
        if(a == nullptr || a->offset < 0)
        {
            // Not an argument's extent: the piece itself is learned (and, for a pointer found in
            // device memory, such pointers are followed again).
            if(a != nullptr) shape.indirect_written = true;
            if(!intersect({piece}, normalize(kernel.pending)).empty())
                kernel.absolute.push_back(piece);
            else
            {
                kernel.pending.push_back(piece);
                covered = false;
            }
            continue;
        }
        const auto lo    = static_cast<int64_t>(piece.start) - static_cast<int64_t>(a->value);
        const auto hi    = static_cast<int64_t>(piece.end()) - static_cast<int64_t>(a->value);
        const bool known = shape.written.count(a->offset) != 0;
        widen(shape.written[a->offset], lo, hi, known);
        shape.unchanged.erase(a->offset);
    }
    shape.refine   = true;
    kernel.pending = normalize(std::move(kernel.pending));
    if(kernel.pending.size() > max_absolute_per_kernel)
        kernel.pending.erase(kernel.pending.begin(),
                             kernel.pending.end() -
                                 static_cast<std::ptrdiff_t>(max_absolute_per_kernel));
    trim_absolute(kernel);
    return covered;
}

void
forget_learned()
{
    auto lock = std::lock_guard{learned().mutex};
    learned().shapes.clear();
    learned().kernels.clear();
}
} // namespace rocprofiler::kernel_replay
