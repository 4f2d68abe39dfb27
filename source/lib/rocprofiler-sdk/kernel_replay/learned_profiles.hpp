// Learned profiles: what the dispatches of each launch shape changed, relative to their anchors
// (anchors.hpp), and what each kernel changed that no anchor accounts for. The write-set policy
// (write_set.hpp) predicts from them; the window memory (window_memory.hpp) teaches them after
// pass 0's compare and after a verification that found a write outside the snapshot.
//
// Process-wide, behind one lock (thread-safe); bounded (at most 2^16 shapes, 256 absolute ranges
// per kernel); forgotten at a reset (common::reset_order::replay).
#pragma once

#include "dispatch/backend.hpp"

#include <rocprofiler-sdk/fwd.h>

#include <compare>
#include <cstdint>
#include <map>
#include <vector>

namespace rocprofiler::kernel_replay
{
using dispatch::memory_range;
struct prediction; // write_set.hpp

// The launch shape predictions are learned for.
struct shape_key
{
    uint64_t           kernel_id = 0;
    rocprofiler_dim3_t grid      = {};
    rocprofiler_dim3_t block     = {};
};

// A launch shape as learned: kernel, grid, workgroup and the hash of the argument bytes other
// than the anchors' pointers (anchors.hpp's argument_signature), so that a kernel launched with
// the same grid on a tensor of another size is a shape of its own.
struct learned_shape
{
    struct dim
    {
        uint32_t x = 0;
        uint32_t y = 0;
        uint32_t z = 0;

        auto operator<=>(const dim&) const = default;
    };

    uint64_t kernel_id = 0;
    dim      grid      = {};
    dim      block     = {};
    uint64_t signature = 0;

    auto operator<=>(const learned_shape&) const = default;
};

learned_shape learned_shape_of(const shape_key& key, uint64_t signature);

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

// Dispatches in a row that changed nothing through an argument before it counts as read-only.
inline constexpr uint32_t unchanged_until_read_only = 2;

// What a kernel changed that no anchor accounts for (pointers kept in host memory, ...).
struct kernel_profile
{
    std::vector<memory_range> absolute = {};
    // Pieces a pass changed outside the snapshot once, not yet part of `absolute`: a piece is
    // learned when a second dispatch of the kernel changes it too, so that one write of another
    // thread during a window does not make the kernel's later restores write that memory.
    std::vector<memory_range> pending = {};
};

// What is known of one shape and its kernel, copied out of the lock.
struct learned_profile
{
    bool                      seen     = false; // the shape was learned before
    shape_profile             shape    = {};
    std::vector<memory_range> absolute = {}; // the kernel's absolute ranges
};

learned_profile look_up_learned(const shape_key& key, const learned_shape& shape);

// The memory a learned extent predicts for a pointer: widened on each side by a sixteenth of its
// size (whole granules; nothing below 256 bytes), but not to before the pointer when it started
// at or after it (a 1-based base).
memory_range predicted_extent(uint64_t pointer, const extent& learned);

// After pass 0: what the snapshot comparison found (one range_change per compare piece of S).
// Records the extents the shape's anchors changed, and returns the bytes written: per piece, the
// span from its first to its last changed byte, in whole 16-byte granules.
uint64_t learn_written(const shape_key&                           key,
                       const prediction&                          predicted,
                       const std::vector<dispatch::range_change>& changes);

// A pass changed `outside` (pieces of V): the shape's prediction widens to cover them. Returns
// false when some piece is not attributed to an argument and waits for a second dispatch to confirm
// it.
bool learn_outside(const shape_key&                 key,
                   const prediction&                predicted,
                   const std::vector<memory_range>& outside);

// Forgets every learned profile (tests).
void forget_learned();
} // namespace rocprofiler::kernel_replay
