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
// The parts, a file each: anchors.hpp (finding the pointers), learned_profiles.hpp (what shapes and
// kernels changed; process-wide, thread-safe), ranges.hpp (range arithmetic), baseline_cache.hpp
// (the verification hashes kept between windows). This file is the policy that combines them.
#pragma once

#include "common/environment.hpp"
#include "dispatch/backend.hpp"
#include "dispatch/dispatch.hpp"
#include "kernel_replay/anchors.hpp"
#include "kernel_replay/baseline_cache.hpp"
#include "kernel_replay/learned_profiles.hpp"
#include "kernel_replay/ranges.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace rocprofiler::kernel_replay
{
using dispatch::memory_range;

// The setting's own enums (common/environment.hpp): one enum per setting.
using common::env::snapshot_scope; // predicted (verified) or every tracked range
using common::env::verify_scope;   // all, reachable or off

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
    // (settings.hpp reads the values from the environment once per session)
};

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

// The prediction for one dispatch. `tracked` is memory_backend::tracked() (sorted, disjoint).
prediction predict(const shape_key&                  key,
                   const dispatch::kernel_arguments& arguments,
                   const std::vector<memory_range>&  tracked,
                   const read_fn&                    read,
                   const write_set_settings&         settings);
} // namespace rocprofiler::kernel_replay
