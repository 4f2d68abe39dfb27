// What a replay snapshot covers and what is verified around it: kernel replay's write-set policy.
// Backend-neutral; a memory backend (dispatch/backend.hpp) only copies, compares and hashes the
// ranges this policy picks.
//
// The snapshot S holds the memory the kernel is predicted to write, not every tracked allocation:
//   - an anchor is an argument word (an 8-byte window at any byte offset of the argument block, so
//     that pointers in packed structs count) whose value lies in, or within `anchor_slack` bytes
//     of, a tracked region (one tracked allocation), and, `pointer_depth - 1` levels deep, an
//     8-byte-aligned word in the first `scan_bytes` bytes from an anchor to the end of its
//     allocation, its last word included (pointers held in device memory: pointer arrays, as
//     grouped GEMM passes them, and structures of pointers), at most `scan_budget` bytes read per
//     dispatch;
//   - a launch shape (kernel, grid, workgroup, and the argument bytes other than the anchors'
//     pointers: sizes and scalars) seen before predicts, for each argument anchor, the byte extent
//     relative to the pointer that its earlier dispatches changed, within the anchor's region;
//     nothing for an argument whose memory two dispatches in a row left unchanged (read-only);
//     first sight for the others; plus the absolute ranges the kernel changed outside every
//     anchor (learned once two dispatches changed them);
//   - otherwise (first sight) an anchor predicts its whole region when the region is at most
//     `window_bytes`, else the `window_bytes` from the pointer on (and `anchor_slack` before it).
// The verification set V is the tracked memory outside S (`verify_scope::all`), or only the
// anchors' regions outside S (`verify_scope::reachable`; all of it when the scan stopped at its
// budget, since a region it did not reach may be written), or nothing (`verify_scope::off`). V is
// hashed in pieces before pass 0 and after every pass that another pass follows; a changed piece
// means that pass wrote memory the snapshot cannot restore: the replay ends after it (the
// application has exactly that pass's results) and the kernel learns the piece. After pass 0 the
// snapshot is compared with its copy, which gives the exact bytes written and the extents learned.
//
// Thread-safe: the learned profiles are process-wide, behind one lock.
#pragma once

#include "dispatch/backend.hpp"
#include "dispatch/dispatch.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <tuple>
#include <vector>

namespace rocprofiler::kernel_replay
{
using dispatch::memory_range;

enum class snapshot_scope
{
    predicted, // the predicted write set, verified (the default)
    all,       // every tracked range; nothing to verify
};

enum class verify_scope
{
    all,       // every tracked range outside the snapshot (the default)
    reachable, // the regions the kernel's anchors point into, outside the snapshot
    off,       // nothing: a write outside the snapshot goes unnoticed
};

struct write_set_settings
{
    snapshot_scope snapshot            = snapshot_scope::predicted;
    verify_scope   verify              = verify_scope::all;
    uint64_t       window_bytes        = 256ULL << 20; // ROCPROFILER_REPLAY_PREDICT_WINDOW_MB
    uint64_t       piece_bytes         = 1ULL << 20;   // hash pieces of V
    uint64_t       compare_piece_bytes = 64ULL << 10;  // compare pieces of S
    uint64_t       scan_bytes          = 4096;         // read from each anchor in memory
    uint64_t       scan_budget         = 1ULL << 20;   // read at most, per dispatch
    uint32_t       pointer_depth       = 3; // ROCPROFILER_REPLAY_POINTER_DEPTH: 1 = arguments only
    uint64_t       anchor_slack        = 256;
    bool           keep_baseline       = true; // ROCPROFILER_REPLAY_VERIFY_BASELINE=kept
};

// The settings from the environment (ROCPROFILER_REPLAY_SNAPSHOT, ROCPROFILER_REPLAY_VERIFY,
// ROCPROFILER_REPLAY_VERIFY_BASELINE, ROCPROFILER_REPLAY_PREDICT_WINDOW_MB,
// ROCPROFILER_REPLAY_POINTER_DEPTH), read per call.
write_set_settings current_settings();

// A pointer the kernel receives.
struct anchor
{
    uint64_t     value  = 0;  // the pointer
    int64_t      offset = -1; // its byte offset in the argument block; -1: found in memory
    memory_range region = {}; // the tracked allocation it points into or near
    uint64_t     source = 0;  // found in memory: the address it was read from
};

// The launch shape predictions are learned for.
struct shape_key
{
    uint64_t           kernel_id = 0;
    rocprofiler_dim3_t grid      = {};
    rocprofiler_dim3_t block     = {};
};

// A launch shape as learned: kernel, grid, workgroup and the hash of the non-pointer argument
// bytes.
using learned_shape =
    std::tuple<uint64_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint64_t>;

struct prediction
{
    std::vector<memory_range> snapshot = {}; // S: sorted, disjoint, inside tracked memory
    std::vector<memory_range> verify   = {}; // V: sorted, disjoint, disjoint from S
    std::vector<anchor>       anchors  = {};
    std::vector<memory_range> regions  = {};    // the tracked allocations
    bool                      learned  = false; // the shape was seen before
    bool                      partly   = false; // ... but some anchors were still first sight
    bool          scan_truncated = false; // the scan of pointers in memory stopped at its budget
    learned_shape shape          = {};
    std::vector<int64_t> first_sight_offsets = {}; // argument anchors predicted at first sight
    uint64_t             snapshot_bytes() const;
    uint64_t             verify_bytes() const;
};

// Reads `bytes` bytes of tracked memory at `address` into `out` (memory_backend::read).
using read_fn = std::function<bool(uint64_t address, void* out, size_t bytes)>;

// The prediction for one dispatch. `tracked` is memory_backend::tracked() (sorted, disjoint).
prediction predict(const shape_key&                  key,
                   const dispatch::kernel_arguments& arguments,
                   const std::vector<memory_range>&  tracked,
                   const read_fn&                    read,
                   const write_set_settings&         settings);

// The pieces of `ranges` (cut at `piece_bytes`) whose hashes differ, merged where adjacent.
std::vector<memory_range> changed_pieces(const std::vector<memory_range>& ranges,
                                         uint64_t                         piece_bytes,
                                         const std::vector<uint64_t>&     before,
                                         const std::vector<uint64_t>&     after);

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

// --- the verification baseline kept between windows ----------------------------------------------
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

// `ranges` (normalized) cut at absolute multiples of `piece_bytes`: one range per hash piece.
std::vector<memory_range> grid_pieces(const std::vector<memory_range>& ranges,
                                      uint64_t                         piece_bytes);

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

// --- range arithmetic (exposed for tests) --------------------------------------------------------

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
} // namespace rocprofiler::kernel_replay
