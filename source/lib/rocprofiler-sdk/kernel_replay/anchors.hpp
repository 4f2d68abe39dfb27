// Anchors: the pointers a kernel receives, in its argument block and, some levels deep, in the
// device memory those pointers reach. The write-set policy (write_set.hpp) predicts a kernel's
// writes relative to them and learns which of them the kernel writes through.
#pragma once

#include "dispatch/backend.hpp"
#include "dispatch/dispatch.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace rocprofiler::kernel_replay
{
using dispatch::memory_range;

// A pointer the kernel receives.
struct anchor
{
    uint64_t     value  = 0;  // the pointer
    int64_t      offset = -1; // its byte offset in the argument block; -1: found in memory
    memory_range region = {}; // the tracked allocation it points into or near
    uint64_t     source = 0;  // found in memory: the address it was read from
};

// Reads `bytes` bytes of tracked memory at `address` into `out` (memory_backend::read).
using read_fn = std::function<bool(uint64_t address, void* out, size_t bytes)>;

// How far the search goes (write_set_settings holds the values).
struct anchor_search
{
    uint64_t slack         = 256;      // a word this close past or before a region points at it
    uint64_t scan_bytes    = 4096;     // read from each anchor in memory
    uint64_t scan_budget   = 1U << 20; // read at most, per dispatch
    uint32_t pointer_depth = 3;        // 1: the argument block only
};

// Every 8-byte window at any byte offset of the argument block (pointers in packed structures
// count) whose value lies in, or within `slack` bytes of, one of `regions` (the tracked
// allocations, normalized), appended to `out`.
void find_argument_anchors(const dispatch::kernel_arguments& arguments,
                           const std::vector<memory_range>&  regions,
                           uint64_t                          slack,
                           std::vector<anchor>&              out);

// Pointers held in device memory, followed `pointer_depth - 1` levels from the anchors already in
// `anchors`: the 8-byte-aligned words from each anchor of the previous level, up to `scan_bytes`
// after it or the end of its allocation (whose last word counts). Each address is scanned once.
// False when the scan stopped at `scan_budget` bytes: a region it did not reach may be written.
bool find_memory_anchors(const read_fn&                   read,
                         const std::vector<memory_range>& regions,
                         const anchor_search&             settings,
                         std::vector<anchor>&             anchors);

// The argument bytes other than the anchors' pointers, hashed: sizes, strides and scalars.
uint64_t argument_signature(const dispatch::kernel_arguments& arguments,
                            const std::vector<anchor>&        anchors);

// The anchor a change starting at `first` belongs to: among the anchors whose region contains
// it, the one with the greatest pointer at or below it, else the one with the smallest above;
// nullptr when no anchor's region contains it.
const anchor* owner(const std::vector<anchor>& anchors, uint64_t first);

// The anchors a pass's changes are attributed to: a pointer found in memory that the pass itself
// overwrote is left out.
std::vector<anchor> standing_anchors(const std::vector<anchor>&                 anchors,
                                     const std::vector<dispatch::range_change>& changes);
} // namespace rocprofiler::kernel_replay
