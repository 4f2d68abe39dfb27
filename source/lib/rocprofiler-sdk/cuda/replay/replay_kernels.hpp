// The hash and compare kernels of kernel replay's memory backend (replay_kernels.cu, loaded from
// PTX once per context) and the one round trip that runs one of them: the range descriptors and
// the output's initial values go up in one copy, one launch covers every range of the call, the
// results come back in one copy to pinned host memory, and the host waits once. Everything is
// queued on the caller's stream, behind the work queued there before.
//
// Threading: any thread that holds `ctx` current; calls for one context are serialized (its
// module and scratch memory are shared).
#pragma once

#include "cuda/replay/replay_pieces.hpp"

#include <cuda.h>

#include <cstdint>
#include <vector>

namespace rocprofiler::cuda
{
// Runs the hash kernel over `plan` (replay_pieces::plan_work at `piece_bytes`) on `stream` and
// waits: `sums` receives one kernel sum per piece (0 for pieces of ranges not in the plan).
// False when the kernels cannot be loaded or a call fails (logged).
bool run_hash_kernel(CUcontext                       ctx,
                     CUstream                        stream,
                     const replay_pieces::work_plan& plan,
                     uint64_t                        piece_bytes,
                     std::vector<uint64_t>&          sums);

// Runs the compare kernel likewise: `out` receives 3 * plan.pieces entries, the lowest changed
// address per piece (all ones when none changed), then the highest changed address + 1, then the
// changed byte counts.
bool run_compare_kernel(CUcontext                       ctx,
                        CUstream                        stream,
                        const replay_pieces::work_plan& plan,
                        uint64_t                        piece_bytes,
                        std::vector<uint64_t>&          out);
} // namespace rocprofiler::cuda
