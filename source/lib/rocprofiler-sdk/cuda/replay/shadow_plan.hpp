// Where the tracked allocations of one replay snapshot go in its shadow block, and which copy
// calls a snapshot or a restore makes: pure decisions over plain numbers (no CUDA), so that they
// can be tested on a CPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rocprofiler::cuda
{
// Offsets in a shadow block are congruent to the application's addresses modulo this (bytes; see
// layout_shadows).
constexpr size_t shadow_alignment = 256;

constexpr size_t
align_up(size_t value, size_t alignment = shadow_alignment)
{
    return (value + alignment - 1) / alignment * alignment;
}

// An allocation: its device address and size in bytes.
struct address_range
{
    uint64_t start = 0;
    size_t   bytes = 0;
};

// One allocation and its copy in the shadow block.
struct shadow_span
{
    uint64_t start  = 0; // the application's device address
    size_t   bytes  = 0;
    size_t   offset = 0; // into the shadow block
};

struct shadow_layout
{
    std::vector<shadow_span> shadows = {};
    size_t                   total   = 0; // bytes the block needs (aligned)
};

// Places `ranges` (in address order) in one block: each at an offset equal to its start modulo
// shadow_alignment (an aligned offset for an aligned range), after the previous one, except a
// range that starts where the previous one ends, which stays contiguous in the shadow too (so that
// a merged copy can cover both). A block aligned to shadow_alignment then holds every copy at the
// application's address modulo shadow_alignment.
shadow_layout layout_shadows(const std::vector<address_range>& ranges);

// One copy call of a snapshot or restore.
struct copy_op
{
    uint64_t app    = 0; // the application's address
    size_t   offset = 0; // into the shadow block
    size_t   bytes  = 0;
    size_t   first  = 0; // the allocations it covers: shadows[first .. first + count)
    size_t   count  = 0;
};

// The copy calls for `shadows`: one per allocation that `keep(span)` accepts (a restore skips
// allocations freed or remapped during the window); with `merge`, runs of allocations contiguous
// both in memory and in the shadow block become one call.
template <typename Keep>
std::vector<copy_op>
plan_copies(const std::vector<shadow_span>& shadows, bool merge, Keep&& keep)
{
    auto ops = std::vector<copy_op>{};
    ops.reserve(shadows.size());
    for(size_t i = 0; i < shadows.size(); ++i)
    {
        const auto& s = shadows[i];
        if(!keep(s)) continue;
        auto* last = ops.empty() ? nullptr : &ops.back();
        if(merge && last != nullptr && last->first + last->count == i &&
           last->app + last->bytes == s.start && last->offset + last->bytes == s.offset)
        {
            last->bytes += s.bytes;
            last->count += 1;
        }
        else
            ops.push_back(copy_op{s.start, s.offset, s.bytes, i, 1});
    }
    return ops;
}

// Whether the copies of one snapshot or restore go in one batch call: there are at least
// `batch_min` of them (0: never), the stream is not the legacy stream (the batch API refuses it)
// and batches have not failed before.
constexpr bool
use_batch(size_t copies, size_t batch_min, bool legacy_stream, bool batches_broken)
{
    return batch_min > 0 && copies >= batch_min && !legacy_stream && !batches_broken;
}
} // namespace rocprofiler::cuda
