#include "kernel_replay/write_set.hpp"

#include "common/environment.hpp"
#include "common/static_object.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

namespace rocprofiler::kernel_replay
{
namespace
{
// A byte extent relative to an anchor's pointer: [lo, hi).
struct extent
{
    int64_t lo = 0;
    int64_t hi = 0;
};

// What the dispatches of one launch shape changed.
struct shape_profile
{
    std::map<int64_t, extent> written          = {};    // by argument offset; absent: not written
    bool                      indirect_written = false; // through pointers found in device memory
    bool                      refine = false; // widened by hash pieces: the next compare replaces
    // Argument offsets predicted at first sight whose memory did not change, and how many
    // dispatches in a row: an argument counts as read-only from the second one on (a kernel that
    // writes zeros over zeros, or multiplies zeros, changes nothing the first time).
    std::map<int64_t, uint32_t> unchanged = {};
};

// What a kernel changed that no anchor accounts for (pointers kept in host memory, ...).
struct kernel_profile
{
    std::vector<memory_range> absolute = {};
    // Pieces a pass changed outside the snapshot once, not yet part of `absolute`: a piece is
    // learned when a second dispatch of the kernel changes it too, so that one write of another
    // thread during a window does not make the kernel's later restores write that memory.
    std::vector<memory_range> pending = {};
};

using shape_tuple = learned_shape;

constexpr uint32_t unchanged_until_read_only = 2;

constexpr size_t   max_shapes              = 1U << 16; // then new shapes stay first-sight
constexpr size_t   max_absolute_per_kernel = 256;
constexpr uint64_t learn_granule           = 16; // bytes: learned extents are whole granules
constexpr uint64_t base_slack = 16; // bytes: the largest element a 1-based pointer steps back

struct learned_state
{
    std::mutex                           mutex   = {};
    std::map<shape_tuple, shape_profile> shapes  = {};
    std::map<uint64_t, kernel_profile>   kernels = {};
};

learned_state&
learned()
{
    return common::static_object<learned_state, common::reset_order::replay>::get();
}

shape_tuple
to_tuple(const shape_key& key, uint64_t signature)
{
    return {key.kernel_id,
            key.grid.x,
            key.grid.y,
            key.grid.z,
            key.block.x,
            key.block.y,
            key.block.z,
            signature};
}

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

const memory_range*
region_containing(const std::vector<memory_range>& regions, uint64_t address)
{
    auto itr = std::upper_bound(regions.begin(),
                                regions.end(),
                                address,
                                [](uint64_t v, const memory_range& r) { return v < r.start; });
    if(itr == regions.begin()) return nullptr;
    --itr;
    return address < itr->end() ? &*itr : nullptr;
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

memory_range
first_sight(const anchor& a, const write_set_settings& settings)
{
    if(a.region.bytes <= settings.window_bytes) return a.region;
    const auto from = std::max(
        a.region.start, a.value > settings.anchor_slack ? a.value - settings.anchor_slack : 0);
    const auto to = std::min(a.region.end(), std::max(a.value, from) + settings.window_bytes);
    return to > from ? memory_range{from, to - from} : memory_range{};
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

template <typename Fn>
void
for_each_piece(const std::vector<memory_range>& ranges, uint64_t piece_bytes, Fn&& fn)
{
    for(const auto& r : ranges)
        for(uint64_t at = r.start; at < r.end(); at += piece_bytes)
            fn(memory_range{at, std::min(piece_bytes, r.end() - at)});
}
} // namespace

write_set_settings
current_settings()
{
    namespace env = common::env;
    auto out      = write_set_settings{};
    out.snapshot  = env::get(env::settings::replay_snapshot) == env::snapshot_scope::all
                        ? snapshot_scope::all
                        : snapshot_scope::predicted;
    switch(env::get(env::settings::replay_verify))
    {
    case env::verify_scope::all:
        out.verify = verify_scope::all;
        break;
    case env::verify_scope::reachable:
        out.verify = verify_scope::reachable;
        break;
    case env::verify_scope::off:
        out.verify = verify_scope::off;
        break;
    }
    out.keep_baseline =
        env::get(env::settings::replay_verify_baseline) == env::verify_baseline::kept;
    out.window_bytes = std::max<uint64_t>(env::get(env::settings::replay_predict_window_mb), 1)
                       << 20;
    out.pointer_depth = static_cast<uint32_t>(env::get(env::settings::replay_pointer_depth));
    return out;
}

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

std::vector<memory_range>
normalize(std::vector<memory_range> ranges)
{
    std::erase_if(ranges, [](const memory_range& r) { return r.bytes == 0; });
    std::sort(ranges.begin(),
              ranges.end(),
              [](const memory_range& a, const memory_range& b) { return a.start < b.start; });
    auto out = std::vector<memory_range>{};
    out.reserve(ranges.size());
    for(const auto& r : ranges)
    {
        if(!out.empty() && r.start <= out.back().end())
            out.back().bytes = std::max(out.back().end(), r.end()) - out.back().start;
        else
            out.push_back(r);
    }
    return out;
}

std::vector<memory_range>
intersect(const std::vector<memory_range>& ranges, const std::vector<memory_range>& within)
{
    auto out = std::vector<memory_range>{};
    auto j   = size_t{0};
    for(const auto& r : ranges)
    {
        while(j < within.size() && within[j].end() <= r.start)
            ++j;
        for(auto k = j; k < within.size() && within[k].start < r.end(); ++k)
        {
            const auto from = std::max(r.start, within[k].start);
            const auto to   = std::min(r.end(), within[k].end());
            if(to > from) out.push_back({from, to - from});
        }
    }
    return out;
}

std::vector<memory_range>
subtract(const std::vector<memory_range>& ranges, const std::vector<memory_range>& minus)
{
    auto out = std::vector<memory_range>{};
    auto j   = size_t{0};
    for(const auto& r : ranges)
    {
        auto at = r.start;
        while(j < minus.size() && minus[j].end() <= r.start)
            ++j;
        for(auto k = j; k < minus.size() && minus[k].start < r.end(); ++k)
        {
            if(minus[k].start > at) out.push_back({at, minus[k].start - at});
            at = std::max(at, minus[k].end());
        }
        if(at < r.end()) out.push_back({at, r.end() - at});
    }
    return out;
}

uint64_t
piece_count(const std::vector<memory_range>& ranges, uint64_t piece_bytes)
{
    auto count = uint64_t{0};
    for(const auto& r : ranges)
        count += (r.bytes + piece_bytes - 1) / piece_bytes;
    return count;
}

// Pointers held in device memory, followed `pointer_depth - 1` levels from the argument block:
// the 8-byte-aligned words from each anchor of the previous level (from its pointer, rounded up,
// to `scan_bytes` after it or the end of its allocation, whose last word counts: an 8-byte
// allocation holding one pointer is a structure of pointers too). Each address is scanned once.
// False when the scan stopped at `scan_budget` bytes: a region it did not reach may be written.
namespace
{
bool
scan_memory_pointers(const read_fn& read, const write_set_settings& settings, prediction& out)
{
    auto buffer  = std::vector<std::byte>{};
    auto scanned = std::set<uint64_t>{};
    auto budget  = settings.scan_budget;
    auto begin   = size_t{0};
    auto end     = out.anchors.size();
    for(uint32_t level = 1; level < settings.pointer_depth && begin < end; ++level)
    {
        for(size_t i = begin; i < end; ++i)
        {
            const auto a = out.anchors[i]; // a copy: scan_words appends to the vector
            if(region_containing(out.regions, a.value) == nullptr) continue;
            const auto from  = (a.value + 7) & ~uint64_t{7};
            const auto limit = std::min(a.region.end(), a.value + settings.scan_bytes);
            if(limit < from + sizeof(uint64_t)) continue;
            if(scanned.count(from) != 0) continue;
            if(limit - from > budget) return false;
            budget -= limit - from;
            scanned.insert(from);
            buffer.resize(limit - from);
            if(!read(from, buffer.data(), buffer.size())) continue;
            scan_words(buffer.data(),
                       buffer.size(),
                       8,
                       -1,
                       from,
                       out.regions,
                       settings.anchor_slack,
                       out.anchors);
        }
        begin = end;
        end   = out.anchors.size();
    }
    return true;
}
} // namespace

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
    const auto* args = static_cast<const std::byte*>(arguments.data);
    if(args != nullptr)
        scan_words(args, arguments.size, 1, 0, 0, out.regions, settings.anchor_slack, out.anchors);

    out.shape              = to_tuple(key, argument_signature(arguments, out.anchors));
    auto       lock        = std::unique_lock{learned().mutex};
    auto       shape       = learned().shapes.find(out.shape);
    const bool seen        = shape != learned().shapes.end();
    const bool scan_memory = !seen || shape->second.indirect_written;
    const auto absolute    = learned().kernels.count(key.kernel_id) != 0
                                 ? learned().kernels[key.kernel_id].absolute
                                 : std::vector<memory_range>{};
    auto       profile     = seen ? shape->second : shape_profile{};
    lock.unlock();

    if(scan_memory && read) out.scan_truncated = !scan_memory_pointers(read, settings, out);

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
            for(const auto& r :
                intersect({relative(a.value, with_margin(itr->second))}, {a.region}))
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

std::vector<memory_range>
changed_pieces(const std::vector<memory_range>& ranges,
               uint64_t                         piece_bytes,
               const std::vector<uint64_t>&     before,
               const std::vector<uint64_t>&     after)
{
    auto out   = std::vector<memory_range>{};
    auto index = size_t{0};
    for_each_piece(ranges,
                   piece_bytes,
                   [&](const memory_range& piece)
                   {
                       const bool differs = index >= before.size() || index >= after.size() ||
                                            before[index] != after[index];
                       ++index;
                       if(!differs) return;
                       if(!out.empty() && out.back().end() == piece.start)
                           out.back().bytes += piece.bytes;
                       else
                           out.push_back(piece);
                   });
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
// --- the verification baseline kept between windows ----------------------------------------------

std::vector<memory_range>
grid_pieces(const std::vector<memory_range>& ranges, uint64_t piece_bytes)
{
    auto out = std::vector<memory_range>{};
    if(piece_bytes == 0) return ranges;
    for(const auto& r : ranges)
    {
        auto at = r.start;
        while(at < r.end())
        {
            const auto cell_end = (at / piece_bytes + 1) * piece_bytes;
            const auto end      = std::min(r.end(), cell_end);
            out.push_back({at, end - at});
            at = end;
        }
    }
    return out;
}

namespace
{
// Whether `r` meets one of `sorted` (normalized), walking `cursor` forward: the ranges asked
// about come in address order.
bool
meets(const memory_range& r, const std::vector<memory_range>& sorted, size_t& cursor)
{
    while(cursor < sorted.size() && sorted[cursor].end() <= r.start)
        ++cursor;
    return cursor < sorted.size() && sorted[cursor].start < r.end();
}
} // namespace

bool
baseline_cache::valid_for(const std::vector<memory_range>& tracked,
                          const baseline_epochs&           epochs) const
{
    return m_valid && m_epochs == epochs && m_tracked == tracked;
}

std::vector<size_t>
baseline_cache::lookup(const std::vector<memory_range>& tracked,
                       const baseline_epochs&           epochs,
                       const std::vector<memory_range>& pieces,
                       std::vector<uint64_t>&           baseline) const
{
    baseline.assign(pieces.size(), 0);
    auto       missing = std::vector<size_t>{};
    const bool valid   = valid_for(tracked, epochs);
    auto       e       = size_t{0};
    for(size_t i = 0; i < pieces.size(); ++i)
    {
        const auto& p = pieces[i];
        if(valid)
        {
            while(e < m_entries.size() &&
                  std::tie(m_entries[e].start, m_entries[e].bytes) < std::tie(p.start, p.bytes))
                ++e;
            if(e < m_entries.size() && m_entries[e].start == p.start &&
               m_entries[e].bytes == p.bytes)
            {
                baseline[i] = m_entries[e].hash;
                continue;
            }
        }
        missing.push_back(i);
    }
    return missing;
}

void
baseline_cache::keep(const std::vector<memory_range>& tracked,
                     const baseline_epochs&           epochs,
                     bool                             was_valid,
                     const std::vector<memory_range>& snapshot,
                     const std::vector<memory_range>& exclude,
                     const std::vector<memory_range>& pieces,
                     const std::vector<uint64_t>&     hashes)
{
    auto fresh  = std::vector<entry>{};
    auto cursor = size_t{0};
    for(size_t i = 0; i < pieces.size() && i < hashes.size(); ++i)
        if(!meets(pieces[i], exclude, cursor))
            fresh.push_back({pieces[i].start, pieces[i].bytes, hashes[i]});

    auto merged = std::vector<entry>{};
    if(was_valid && m_valid)
    {
        // Earlier hashes of bytes this window neither rewrote (its snapshot) nor hashed again.
        auto old = std::vector<entry>{};
        auto s   = size_t{0};
        auto x   = size_t{0};
        for(const auto& e : m_entries)
            if(!meets({e.start, e.bytes}, snapshot, s) && !meets({e.start, e.bytes}, exclude, x))
                old.push_back(e);
        merged.reserve(old.size() + fresh.size());
        auto key = [](const entry& x) { return std::tie(x.start, x.bytes); };
        auto a   = size_t{0};
        auto b   = size_t{0};
        while(a < old.size() || b < fresh.size())
        {
            if(b == fresh.size() || (a < old.size() && key(old[a]) < key(fresh[b])))
                merged.push_back(old[a++]);
            else
            {
                if(a < old.size() && key(old[a]) == key(fresh[b])) ++a;
                merged.push_back(fresh[b++]);
            }
        }
        // Partial pieces of many different snapshots would pile up: bounded by a few hashes per
        // piece of the tracked memory.
        const auto bound = 2 * fresh.size() + 4096;
        if(merged.size() > bound) merged = std::move(fresh);
    }
    else
        merged = std::move(fresh);

    m_entries = std::move(merged);
    m_tracked = tracked;
    m_epochs  = epochs;
    m_valid   = true;
}

void
baseline_cache::clear()
{
    m_valid = false;
    m_entries.clear();
    m_tracked.clear();
}
} // namespace rocprofiler::kernel_replay
