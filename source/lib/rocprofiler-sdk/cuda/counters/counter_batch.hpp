// The batched path of counting: the counted executions of one-pass configurations that are not
// replayed (every run of application replay) share one range-profiler session on their context,
// with one user range per execution, and the session is decoded for many executions at once:
// when the application waits for the device (cuCtxSynchronize, cuStreamSynchronize,
// cuEventSynchronize: interpose/interpose_sync.cpp), when its counter data image is full, when
// another counting use takes the context's range profiler (a replayed dispatch, a change of
// configuration), and at exit. Not when the device merely went idle: an application that launches
// more slowly than its kernels run would close a batch after almost every launch (measured on a
// PyTorch training loop: 339 sessions for 797 executions, docs/PERFORMANCE.md). Each execution
// still gets its own record: its range is named after it, the decode matches ranges to executions
// by name and evaluates each range by itself, and its completion is held until both the kernel
// finished and its values are known. A range the decode does not find (CUPTI dropped it, or the
// session failed) gives its execution an error, counted in the statistics, never nothing.
//
// Without the batch a counted execution costs a SetConfig, a Start, a Stop, a wait and a decode of
// its own (about 17 ms per dispatch on a PyTorch step, docs/PERFORMANCE.md); in a batch that is
// paid once per batch, and each execution pays a range push and pop.
//
// Threading: measure_batched() and close_batch() run under the context profiler's lock;
// batched_execution's methods may be called on any thread.
#pragma once

#include "cuda/counters/counter_schedule.hpp"
#include "cuda/counters/range_profiler.hpp"
#include "dispatch/backend.hpp"

#include <cuda.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocprofiler::cuda::metrics
{
// One counted execution of a batch: the rendezvous of its kernel's completion and its values.
// Its completion reaches the tool once the kernel finished and the batch that holds it was
// decoded and released, on the thread that comes last (never under a context profiler's lock).
class batched_execution
{
public:
    batched_execution(std::string range, std::vector<rocprofiler_counter_id_t> ids);

    // The name of its range in the session (unique on the context).
    const std::string& range() const { return m_range; }

    // The kernel finished (any thread, once): `next` gets `result` with the values once they are
    // known and released.
    void complete(const dispatch::execution_result& result, dispatch::completion_fn next);

    // The values, in the order of the ids, or why there are none. The first call counts; later
    // ones are ignored. Delivers nothing (it runs under the context profiler's lock).
    void resolve(std::vector<double> values, std::string error);
    bool resolved() const;
    // Whether its kernel finished (complete() was called).
    bool finished() const;

    // After the batch's decode, outside the lock: the completion may be delivered now.
    void release();

private:
    void deliver(std::unique_lock<std::mutex>& lock);

    const std::string                           m_range;
    const std::vector<rocprofiler_counter_id_t> m_ids;
    mutable std::mutex                          m_mutex     = {};
    std::optional<dispatch::execution_result>   m_result    = {};
    dispatch::completion_fn                     m_next      = {};
    bool                                        m_resolved  = false;
    bool                                        m_released  = false;
    bool                                        m_delivered = false;
    std::vector<double>                         m_values    = {};
    std::string                                 m_error     = {};
};

// The executions of closed batches, released when this goes out of scope: declared before the
// context profiler's lock is taken, so that completions reach tools after it was dropped.
class batch_release
{
public:
    batch_release() = default;
    ~batch_release();

    batch_release(const batch_release&)            = delete;
    batch_release& operator=(const batch_release&) = delete;

    void add(std::vector<std::shared_ptr<batched_execution>>&& entries);

private:
    std::vector<std::shared_ptr<batched_execution>> m_entries = {};
};

// What the batched path needs from the device besides CUPTI (injected, so that tests run it with
// a hand-written CUPTI table and no GPU).
struct batch_device
{
    // Waits until every kernel of the session finished (all streams of the context).
    std::function<CUresult()> wait = {};
    // The cache flush before a counted execution (when caches are flushed), or empty.
    std::function<void()> flush = {};
};

// Which path measures a counted execution.
enum class counting_path
{
    batched,   // one range in the context's batched session (this file)
    cycle,     // a pass of a replayed dispatch (counter_schedule.hpp)
    execution, // a session of its own (set, start, launch, stop, wait, decode)
};

// The path of an execution: replayed executions and every execution under user range mode
// (ROCPROFILER_CUDA_RANGE_MODE=user) keep the per-dispatch paths; the others go into the batch when
// their configuration takes one CUPTI pass and batches hold at least one execution (`capacity`,
// ROCPROFILER_CUDA_COUNTER_BATCH). A configuration of several passes, or one that cannot be
// collected, keeps the per-execution path (which reports why).
counting_path choose_path(const dispatch::execution_request& request,
                          const collection_config&           cfg,
                          bool                               user_range_mode,
                          uint64_t                           capacity);

// Runs one counted execution in the context's batch: closes the batch first when its
// configuration differs or its image is full (`capacity` ranges), opens a session when none runs
// (SetConfig for `capacity` user ranges, Start), flushes the caches, pushes the execution's range,
// launches, pops. `out.batched` is the execution's entry (its values come with its completion),
// unless the batch could not take it (`out.error` says why; the kernel ran without counters).
// Returns the launch's result.
CUresult measure_batched(context_profiler&        prof,
                         collection_config&       cfg,
                         const counted_execution& exec,
                         uint64_t                 capacity,
                         const batch_device&      device,
                         batch_release&           later);

// Decodes the context's running session, if any: Stop, the wait, DecodeData, and for each range
// the evaluation of its metrics, given to the execution of the same name; executions whose range
// is missing get an error (counted). `why` says what closed it (for the debug log). The next
// counted execution of a batch opens a new session. Every execution of the batch goes to `later`.
void close_batch(context_profiler&   prof,
                 const batch_device& device,
                 std::string_view    why,
                 batch_release&      later);

// After `entry`'s kernel finished: decodes the context's batch when `entry` is its last range and
// the application is waiting for the device meanwhile (`application_waiting`: it is blocked in a
// synchronization, so it launches nothing before the decode and a later fault of the context
// cannot take these records with it). Returns whether it decoded. Called with the profiler's lock
// held.
bool close_if_last(context_profiler&                         prof,
                   const batch_device&                       device,
                   const std::shared_ptr<batched_execution>& entry,
                   bool                                      application_waiting,
                   batch_release&                            later);

// After the application's synchronization returned: decodes the context's batch when every
// execution in it has finished (a wait for one stream leaves others running: their batch waits for
// the next synchronization). Returns whether it decoded. Called with the profiler's lock held.
bool close_if_finished(context_profiler& prof, const batch_device& device, batch_release& later);

// After the application's synchronization of the whole context returned successfully: every kernel
// of the context finished, whether or not its completion reached the SDK yet, so the batch is
// decoded now (its records follow their completions). Returns whether it decoded. Called with the
// profiler's lock held.
bool
close_after_context_wait(context_profiler& prof, const batch_device& device, batch_release& later);

// Threads of the application inside a synchronization with the device, process-wide. The
// synchronization interposers hold one scope around the driver's call; the batched path reads it.
class application_wait_scope
{
public:
    application_wait_scope();
    ~application_wait_scope();

    application_wait_scope(const application_wait_scope&)            = delete;
    application_wait_scope& operator=(const application_wait_scope&) = delete;

    static bool any();
};

// How many contexts have a counting session open (a batch running), process-wide: each opened
// batch counts until it is closed.
int running_batches();

// After an application's synchronization returned: close_after_context_wait() on the batch of
// `synchronized` (the context a successful cuCtxSynchronize waited for; nullptr after a stream or
// event wait, or a failed one), close_if_finished() on every other context's. With no batch
// running (no counting, or every batch decoded) it returns at once: an application's waits cost
// one atomic load, not a walk over the contexts and their locks.
void close_batches_after_wait(CUcontext synchronized);

// The device side of the batched path on a real context: the wait synchronizes `ctx` (made
// current on the calling thread for the call), the flush is the context's cache flusher.
batch_device real_batch_device(context_profiler& prof, CUcontext ctx, int device, CUstream stream);

// Closes every context's batch (at exit, and before a GPU-wide wait that must see every value).
void close_all_batches(std::string_view why);
} // namespace rocprofiler::cuda::metrics
