// Range arithmetic of kernel replay's write-set policy: lists of memory ranges, sorted and disjoint
// ("normalized"), intersected, subtracted and cut into the pieces that are hashed or compared.
#pragma once

#include "dispatch/backend.hpp"

#include <cstdint>
#include <vector>

namespace rocprofiler::kernel_replay
{
using dispatch::memory_range;

// Sorts and merges overlapping or adjacent ranges; drops empty ones.
std::vector<memory_range> normalize(std::vector<memory_range> ranges);
// `ranges` ∩ `within` (both normalized).
std::vector<memory_range> intersect(const std::vector<memory_range>& ranges,
                                    const std::vector<memory_range>& within);
// `ranges` − `minus` (both normalized).
std::vector<memory_range> subtract(const std::vector<memory_range>& ranges,
                                   const std::vector<memory_range>& minus);
// Number of pieces `ranges` cut into at `piece_bytes`.
uint64_t piece_count(const std::vector<memory_range>& ranges, uint64_t piece_bytes);

// The range of `regions` (normalized) that holds `address`, or nullptr.
const memory_range* region_containing(const std::vector<memory_range>& regions, uint64_t address);

// The pieces of `ranges` (cut at `piece_bytes` from each range's start) whose hashes differ,
// merged where adjacent.
std::vector<memory_range> changed_pieces(const std::vector<memory_range>& ranges,
                                         uint64_t                         piece_bytes,
                                         const std::vector<uint64_t>&     before,
                                         const std::vector<uint64_t>&     after);

// `ranges` (normalized) cut at absolute multiples of `piece_bytes`: one range per hash piece, the
// same bytes from one window to the next (baseline_cache.hpp).
std::vector<memory_range> grid_pieces(const std::vector<memory_range>& ranges,
                                      uint64_t                         piece_bytes);
} // namespace rocprofiler::kernel_replay
