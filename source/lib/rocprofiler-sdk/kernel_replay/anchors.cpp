#include "kernel_replay/anchors.hpp"

#include "kernel_replay/ranges.hpp"

#include <algorithm>
#include <cstring>
#include <set>

namespace rocprofiler::kernel_replay
{
namespace
{
constexpr uint64_t base_slack = 16; // bytes: the largest element a 1-based pointer steps back

// The regions (of `regions`, sorted, disjoint) a pointer `value` may be meant for: the one it
// points into (and, when it points at that region's first byte, the region that ends there: a
// pointer one past the end of its buffer); else the region it lies less than `slack` bytes past
// the end of (`x + N` and beyond), and the one it lies at most `slack` bytes before (`x - 1`).
// A pointer inside a region brings in a neighbour only when it points at the region's first byte
// (the neighbour before ends there) or into its last `base_slack` bytes (the neighbour after starts
// there: a 1-based pointer to it).
template <typename Fn>
void
for_regions_near(const std::vector<memory_range>& regions, uint64_t value, uint64_t slack, Fn&& fn)
{
    auto itr = std::upper_bound(regions.begin(),
                                regions.end(),
                                value,
                                [](uint64_t v, const memory_range& r) { return v < r.start; });
    if(itr != regions.begin())
    {
        const auto& r = *(itr - 1);
        if(value < r.end())
        {
            fn(r);
            if(value == r.start && itr - 1 != regions.begin() && (itr - 2)->end() == value)
                fn(*(itr - 2));
            // In the last element of r, and the next region starts right after: `x - 1` of it.
            if(itr != regions.end() && itr->start == r.end() && r.end() - value <= base_slack)
                fn(*itr);
            return;
        }
        if(value - r.end() < slack) fn(r);
    }
    if(itr != regions.end() && itr->start - value <= slack) fn(*itr);
}

void
scan_words(const std::byte*                 bytes,
           size_t                           size,
           size_t                           stride,
           int64_t                          base_offset,
           uint64_t                         base_address,
           const std::vector<memory_range>& regions,
           uint64_t                         slack,
           std::vector<anchor>&             out)
{
    if(regions.empty() || size < sizeof(uint64_t)) return;
    const auto low  = regions.front().start > slack ? regions.front().start - slack : 0;
    const auto high = regions.back().end() + slack;
    for(size_t offset = 0; offset + sizeof(uint64_t) <= size; offset += stride)
    {
        auto word = uint64_t{0};
        std::memcpy(&word, bytes + offset, sizeof(word));
        if(word < low || word >= high) continue;
        for_regions_near(regions,
                         word,
                         slack,
                         [&](const memory_range& r)
                         {
                             out.push_back(anchor{
                                 word,
                                 base_offset < 0 ? -1 : base_offset + static_cast<int64_t>(offset),
                                 r,
                                 base_offset < 0 ? base_address + offset : 0});
                         });
    }
}
} // namespace

// The argument bytes other than the anchors' pointers, hashed: sizes, strides and scalars, so that
// a kernel launched with the same grid on a tensor of another size is a shape of its own.
uint64_t
argument_signature(const dispatch::kernel_arguments& arguments, const std::vector<anchor>& anchors)
{
    const auto* bytes = static_cast<const std::byte*>(arguments.data);
    if(bytes == nullptr) return 0;
    auto masked = std::vector<bool>(arguments.size, false);
    for(const auto& a : anchors)
    {
        if(a.offset < 0) continue;
        for(size_t i = static_cast<size_t>(a.offset); i < static_cast<size_t>(a.offset) + 8; ++i)
            if(i < masked.size()) masked[i] = true;
    }
    auto h = uint64_t{0xcbf29ce484222325ULL};
    for(size_t i = 0; i < arguments.size; ++i)
    {
        h ^= masked[i] ? uint64_t{0x100} : static_cast<uint64_t>(bytes[i]);
        h *= 0x100000001b3ULL;
    }
    return h ^ arguments.size;
}

// The anchor a change at [first, last) belongs to: among the anchors whose region contains
// `first`, the one with the greatest pointer at or below it, else the one with the smallest above.
const anchor*
owner(const std::vector<anchor>& anchors, uint64_t first)
{
    const anchor* below = nullptr;
    const anchor* above = nullptr;
    for(const auto& a : anchors)
    {
        if(first < a.region.start || first >= a.region.end()) continue;
        if(a.value <= first)
        {
            if(below == nullptr || a.value > below->value ||
               (a.value == below->value && a.offset >= 0 && below->offset < 0))
                below = &a;
        }
        else if(above == nullptr || a.value < above->value)
            above = &a;
    }
    return below != nullptr ? below : above;
}

// The anchors a pass's changes are attributed to: a pointer found in memory that the pass itself
// overwrote is left out. Such a word is most often stale bytes of an output (a freed allocator
// chunk's links in memory the kernel fills), and the next dispatch will not find it: attributing
// to it would cut the argument's learned extent short at that word's value.
std::vector<anchor>
standing_anchors(const std::vector<anchor>&                 anchors,
                 const std::vector<dispatch::range_change>& changes)
{
    auto out = std::vector<anchor>{};
    out.reserve(anchors.size());
    for(const auto& a : anchors)
    {
        const bool overwritten =
            a.offset < 0 && std::any_of(changes.begin(),
                                        changes.end(),
                                        [&a](const dispatch::range_change& c) {
                                            return c.last > c.first && a.source < c.last &&
                                                   a.source + sizeof(uint64_t) > c.first;
                                        });
        if(!overwritten) out.push_back(a);
    }
    return out;
}

void
find_argument_anchors(const dispatch::kernel_arguments& arguments,
                      const std::vector<memory_range>&  regions,
                      uint64_t                          slack,
                      std::vector<anchor>&              out)
{
    const auto* args = static_cast<const std::byte*>(arguments.data);
    if(args != nullptr) scan_words(args, arguments.size, 1, 0, 0, regions, slack, out);
}

// Pointers held in device memory, followed `pointer_depth - 1` levels from the argument block:
// the 8-byte-aligned words from each anchor of the previous level (from its pointer, rounded up,
// to `scan_bytes` after it or the end of its allocation, whose last word counts: an 8-byte
// allocation holding one pointer is a structure of pointers too). Each address is scanned once.
// False when the scan stopped at `scan_budget` bytes: a region it did not reach may be written.
bool
find_memory_anchors(const read_fn&                   read,
                    const std::vector<memory_range>& regions,
                    const anchor_search&             settings,
                    std::vector<anchor>&             anchors)
{
    auto buffer  = std::vector<std::byte>{};
    auto scanned = std::set<uint64_t>{};
    auto budget  = settings.scan_budget;
    auto begin   = size_t{0};
    auto end     = anchors.size();
    for(uint32_t level = 1; level < settings.pointer_depth && begin < end; ++level)
    {
        for(size_t i = begin; i < end; ++i)
        {
            const auto a = anchors[i]; // a copy: scan_words appends to the vector
            if(region_containing(regions, a.value) == nullptr) continue;
            const auto from  = (a.value + 7) & ~uint64_t{7};
            const auto limit = std::min(a.region.end(), a.value + settings.scan_bytes);
            if(limit < from + sizeof(uint64_t)) continue;
            if(scanned.count(from) != 0) continue;
            if(limit - from > budget) return false;
            budget -= limit - from;
            scanned.insert(from);
            buffer.resize(limit - from);
            if(!read(from, buffer.data(), buffer.size())) continue;
            scan_words(buffer.data(), buffer.size(), 8, -1, from, regions, settings.slack, anchors);
        }
        begin = end;
        end   = anchors.size();
    }
    return true;
}
} // namespace rocprofiler::kernel_replay
