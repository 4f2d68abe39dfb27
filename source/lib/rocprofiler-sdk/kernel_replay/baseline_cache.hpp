// The verification baseline kept between windows: the hashes one agent's last verified replay
// window left behind, which the next window of the agent may start from.
//
// V is hashed in pieces cut at absolute multiples of the piece size (grid_pieces), so that a piece
// of one window is the same bytes as that piece of the next. A window whose passes were verified
// leaves the hashes of its pieces behind: outside its snapshot, the memory after its last pass is
// the memory its verification hashed (its last pass is not verified: it is the application's run
// whatever it writes, and a write of it outside the snapshot shows at the next verification as a
// change before that window). The next window of the agent takes its baseline from there instead
// of hashing all of V again, when nothing that may write tracked memory was issued in between:
// the engine's count of ordinary dispatches and the memory backend's write_epoch() are unchanged,
// and so are the tracked ranges. Pieces in memory_backend::externally_writable() are never kept.
#pragma once

#include "kernel_replay/ranges.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rocprofiler::kernel_replay
{
// What a kept baseline must still match to be used.
struct baseline_epochs
{
    uint64_t engine  = 0; // ordinary dispatches counted by the engine
    uint64_t backend = 0; // memory_backend::write_epoch()

    bool operator==(const baseline_epochs&) const = default;
};

// The hashes one agent's last verified window left behind. Not thread-safe: used under the
// agent's isolation lock, held exclusively.
class baseline_cache
{
public:
    // Fills `baseline` (one hash per piece of `pieces`, sorted) from the kept hashes of exactly
    // those bytes, when the cache is valid for `epochs` and `tracked`; returns the indexes of the
    // pieces it could not fill (all of them when the cache is not valid).
    std::vector<size_t> lookup(const std::vector<memory_range>& tracked,
                               const baseline_epochs&           epochs,
                               const std::vector<memory_range>& pieces,
                               std::vector<uint64_t>&           baseline) const;

    // After a window whose passes were verified: keeps `hashes` of `pieces` (sorted) outside
    // `exclude` (normalized: externally writable memory). Earlier hashes stay when the cache was
    // valid at the window's start (`was_valid`), except those of pieces that meet `snapshot` (the
    // window's snapshot, which its last pass rewrote).
    void keep(const std::vector<memory_range>& tracked,
              const baseline_epochs&           epochs,
              bool                             was_valid,
              const std::vector<memory_range>& snapshot,
              const std::vector<memory_range>& exclude,
              const std::vector<memory_range>& pieces,
              const std::vector<uint64_t>&     hashes);

    void   clear();
    bool   valid_for(const std::vector<memory_range>& tracked, const baseline_epochs& epochs) const;
    size_t size() const { return m_entries.size(); }

private:
    struct entry
    {
        uint64_t start = 0;
        uint64_t bytes = 0;
        uint64_t hash  = 0;
    };
    bool                      m_valid   = false;
    baseline_epochs           m_epochs  = {};
    std::vector<memory_range> m_tracked = {};
    std::vector<entry>        m_entries = {}; // sorted by (start, bytes)
};
} // namespace rocprofiler::kernel_replay
