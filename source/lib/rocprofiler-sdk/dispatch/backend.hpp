// What a runtime adapter (a device backend: the host device, CUDA) implements for the dispatch
// pipeline, and the plain data that crosses between them. The pipeline and the replay engine see a
// launch only through these types; nothing here names a backend.
//
// Threading: launch_info and a launch_backend are created on the submitting thread; enqueue()'s
// completion may run on any thread; memory_backend calls come from the submitting thread while
// the replaying dispatch holds its agent's isolation lock exclusively.
#pragma once

#include "common/dcheck.hpp"
#include "counters/counters.hpp"
#include "dispatch/decline_reason.hpp"

#include <rocprofiler-sdk/fwd.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rocprofiler::dispatch
{
// The kernel's argument bytes as the launch passed them, for snapshots that cover only what the
// kernel can reach. Owned by the launch_backend; valid until the application's completion was
// signalled. Empty when the backend does not know them.
struct kernel_arguments
{
    const void* data = nullptr;
    size_t      size = 0;
};

// What the adapter knows about a launch before the SDK sees it.
struct launch_info
{
    rocprofiler_agent_id_t  agent                = {};
    rocprofiler_queue_id_t  queue                = {};
    rocprofiler_kernel_id_t kernel_id            = 0;
    uint32_t                private_segment_size = 0;
    uint32_t                group_segment_size   = 0;
    rocprofiler_dim3_t      workgroup_size       = {};
    rocprofiler_dim3_t      grid_size            = {}; // work-items, as in HSA
    const char*             kernel_name          = ""; // valid for the life of the process
    kernel_arguments        arguments            = {};
};

// One sampled program counter of an execution, as a backend takes it.
struct pc_sample
{
    uint64_t pc           = 0;     // the interrupted instruction's address
    uint64_t timestamp_ns = 0;     // when the sample was taken, on the SDK's clock
    uint32_t worker       = 0;     // the execution unit that ran it (the host device: the worker)
    bool     in_kernel    = false; // pc lies inside the kernel's code
    uint64_t offset       = 0;     // pc's offset from the kernel's entry, when in_kernel
    // Stochastic sampling only (the backend's method is STOCHASTIC): whether the sampled wave
    // issued its instruction and, when it did not, why (a
    // rocprofiler_pc_sampling_instruction_not_issued_reason_t).
    bool    wave_issued       = false;
    uint8_t not_issued_reason = 0;
};

// The samples of one execution, from every execution unit, and what could not be delivered.
struct pc_sample_batch
{
    std::vector<pc_sample> samples = {};
    uint64_t               dropped = 0; // taken but lost (a full ring): reported, never hidden
    std::string            error = {};  // why the execution was not sampled at all; empty if it was
};

// PC sampling of one execution. The backend samples the execution units while they run the
// kernel, every `interval` of `unit` (one of the configurations it offers), and calls `deliver`
// exactly once, before the execution's completion, on any thread.
struct pc_sampling_request
{
    rocprofiler_pc_sampling_method_t            method   = ROCPROFILER_PC_SAMPLING_METHOD_NONE;
    rocprofiler_pc_sampling_unit_t              unit     = ROCPROFILER_PC_SAMPLING_UNIT_NONE;
    uint64_t                                    interval = 0;
    std::function<void(const pc_sample_batch&)> deliver  = {};
};

// One SPM sample: when it was taken and one value per counter of the request, in its order.
struct spm_sample
{
    uint64_t            timestamp_ns = 0; // on the SDK's clock
    std::vector<double> values       = {};
};

// The samples of one execution, in time order.
struct spm_sample_batch
{
    std::vector<spm_sample> samples = {};
    uint64_t                dropped = 0;  // taken but not kept (the execution's limit): flagged
    std::string             error   = {}; // why the execution was not sampled; empty if it was
};

// SPM of one execution: the backend samples `counters` (indices into the agent's counter list,
// backend::device_counters::counters, each one its backend::spm_offer named) every `interval`
// cycles of its clock while the execution runs, and calls `deliver` exactly once, before the
// execution's completion, on any thread.
struct spm_request
{
    std::vector<uint32_t>                        counters = {};
    uint64_t                                     interval = 0;
    std::function<void(const spm_sample_batch&)> deliver  = {};
};

// One execution of a kernel, as the pipeline asks the backend for it.
struct execution_request
{
    // Counters the execution must measure: the union of the configurations of every context that
    // counts it; empty when none does.
    std::vector<const counters::counter_definition*> counters = {};
    // Set for the passes of a replayed dispatch: which pass this is, how many passes are planned
    // (0 when replay_continue may end the loop early or the loop is indefinite; a failed pass or
    // restore still ends a planned loop early, so backends must not rely on reaching the last
    // one: finish_counting() is always called), and the number of this counted execution among
    // the dispatch's counted executions (deferred_counters::execution names it). A backend may
    // defer the values of such an execution (execution_result::counters_deferred) and deliver them
    // with a later execution of the same dispatch, or from launch_backend::finish_counting().
    // A replayed execution runs with the snapshot's memory: backends must not infer it otherwise.
    bool     replayed   = false;
    uint64_t pass       = 0;
    uint64_t pass_count = 0;
    uint64_t execution  = 0;
    // PC sampling of this execution, or null. Agent-wide: set on every execution (replay passes
    // included) while a context that samples the agent is globally active.
    std::shared_ptr<const pc_sampling_request> pc_sampling = {};
    // SPM of this execution, or null. Per dispatch: set when a context active for this execution
    // (the replay engine's local mask included) configured SPM and its callback chose a
    // configuration.
    std::shared_ptr<const spm_request> spm = {};
};

// A measured counter value.
struct counter_value
{
    rocprofiler_counter_id_t id    = {};
    double                   value = 0.0;
};

// Counter values of an earlier (or the current) counted execution of the same logical dispatch,
// which the backend measured later than that execution ran (NVIDIA GPUs: one CUPTI replay cycle
// spans several passes, and its values are decoded after the last of them).
//
// Late counters, who calls what on which thread. Any backend may use it; nothing in it is tied to
// one way of measuring:
//   - Replayed executions: the backend marks an execution's values as coming later
//     (execution_result::counters_deferred) in the result it hands to on_complete (any thread).
//     The replay engine reads that result on the replaying thread (the one that submitted the
//     dispatch) after the pass finished, keeps the execution pending, and delivers each
//     deferred_counters it later finds in `resolved` of a pass's result, or in what
//     launch_backend::finish_counting() returns (called once, on the replaying thread, after the
//     last pass, also when the loop ended early), as that execution's records, with the
//     timestamps of its own pass. Values for an execution that is not pending are logged and
//     dropped; a pending execution whose values never come is reported with an error, never
//     dropped silently (kernel_replay/deferred_counting.hpp).
//   - Executions that are not replayed: the backend does not defer; it holds on_complete until
//     both the kernel finished and its values are known, and calls it once with them, on the thread
//     that comes last (the CUDA backend's batched counting: cuda/counters/counter_batch.hpp).
struct deferred_counters
{
    uint64_t                   execution = 0;  // execution_request::execution
    std::vector<counter_value> counters  = {}; // one per counter of that execution's request
    std::string                error     = {}; // as execution_result::counters_error
};

// Outcome of one execution of a kernel. Timestamps on the SDK's clock, ns.
struct execution_result
{
    uint64_t                   start_ns = 0;
    uint64_t                   end_ns   = 0;
    bool                       ok       = true;
    std::string                error    = {};
    std::vector<counter_value> counters = {}; // one per requested counter, when ok
    // Why the requested counters could not be measured although the kernel ran (no permission,
    // another profiler holds the counters, ...); empty when they were measured or not requested.
    std::string counters_error = {};
    // The values of this execution come later, in `resolved` of this or a later execution of the
    // dispatch, or from finish_counting() (replayed executions only).
    bool counters_deferred = false;
    // Values of deferred executions of this dispatch that are known now.
    std::vector<deferred_counters> resolved = {};
};

using completion_fn = std::function<void(const execution_result&)>;

class memory_backend;

// The adapter's operations on one logical dispatch. Owned through a shared_ptr by the pipeline
// until the application has been signalled.
class launch_backend
{
public:
    virtual ~launch_backend() = default;

    // Puts one execution of the kernel into its queue, behind earlier work of that queue, and
    // returns; the execution measures request->counters when there are any (the registry never
    // lets a configuration of an agent without counters exist). on_complete is called exactly
    // once, on any thread, when the kernel finished. Must not signal the application's
    // completion. May be called several times (kernel replay). request is never null.
    virtual void enqueue(completion_fn                            on_complete,
                         std::shared_ptr<const execution_request> request) = 0;

    // After the last pass of a replayed dispatch: the values of every execution still deferred
    // (with an error when they cannot be measured any more). Backends that never defer keep the
    // default.
    virtual std::vector<deferred_counters> finish_counting() { return {}; }

    // Signals the application's completion of the logical dispatch. Called exactly once, after the
    // last execution finished (on the thread that observed it, or the submitting thread), through
    // signal_once().
    virtual void signal_application(const execution_result& last) = 0;

    // What the pipeline and the interceptor call: signal_application(), checked to run once per
    // launch (ROCP_DCHECK; common/dcheck.hpp).
    void signal_once(const execution_result& last)
    {
        ROCP_DCHECK_ONCE(m_signalled, "the application is signalled once per logical dispatch");
        signal_application(last);
    }

    // Why this launch can never be replayed (reentrant_dispatch, stream_capture,
    // collective_kernel), or nothing. Checked before the CONFIG callback; the replay engine
    // reports it like any other decline.
    virtual std::optional<decline_reason> replay_exclusion() const { return std::nullopt; }

    // The memory of the launch's agent, for snapshots; nullptr when the backend cannot replay.
    virtual memory_backend* memory() { return nullptr; }

private:
    [[no_unique_address]] common::dcheck::once m_signalled = {};
};

// A range of device memory: [start, start + bytes).
struct memory_range
{
    uint64_t start = 0;
    uint64_t bytes = 0;

    uint64_t end() const { return start + bytes; }
    bool     operator==(const memory_range&) const = default;
};

// How one snapshot range differs from its copy now: the changed bytes lie in [first, last)
// (absolute addresses; first == last when nothing changed), and how many bytes differ.
struct range_change
{
    uint64_t first         = 0;
    uint64_t last          = 0;
    uint64_t changed_bytes = 0;
};

// Device memory of one agent, as kernel replay needs it: primitives only. What a snapshot covers,
// what is verified and what is learned is the replay engine's policy (kernel_replay/write_set.hpp);
// a backend copies, compares and hashes the ranges it is given. Called on the submitting thread
// while the replaying dispatch holds the agent's isolation lock exclusively. Every operation is
// ordered after the executions and copies issued before it (a backend that queues them, as CUDA
// does on the launch stream, waits where an operation returns results).
class memory_backend
{
public:
    virtual ~memory_backend() = default;

    // Waits until no earlier work of the agent is queued or running. False on timeout.
    virtual bool drain(uint64_t timeout_ns) = 0;

    // The memory that a kernel of the agent may write and that the SDK can restore, one range per
    // tracked allocation (device memory of the agent, memory every agent shares such as managed
    // memory, writable module globals; the contiguously mapped part of one virtual reservation
    // counts as one allocation), sorted by address and disjoint. The engine never lets a
    // prediction cross from one range into another. Nothing when tracking is off (then `tracking`
    // is false).
    virtual std::vector<memory_range> tracked(bool& tracking) = 0;

    // Why the kernel arguments make the launch unreplayable (untracked_memory: they point into
    // memory that cannot be restored, such as host-pinned memory on CUDA), or nothing.
    virtual std::optional<decline_reason> check_arguments(const kernel_arguments&)
    {
        return std::nullopt;
    }

    // Copies `bytes` bytes of tracked memory at `address` into `out` (host memory), for the
    // engine's scan of pointers stored in device memory. False on failure.
    virtual bool read(uint64_t address, void* out, size_t bytes) = 0;

    // Copies `ranges` (sorted, disjoint, inside tracked memory) aside. On failure returns the
    // decline reason (footprint_budget: no room in device or host shadow memory; snapshot_failed)
    // and keeps nothing. Replaces an earlier snapshot.
    virtual std::optional<decline_reason> snapshot(const std::vector<memory_range>& ranges) = 0;

    // Copies the snapshot back (ranges freed during the window are skipped). False on failure
    // (fatal to the replay).
    virtual bool restore() = 0;

    // How the snapshot's memory differs from its copy now: each range of the snapshot, in order,
    // is cut into pieces of `piece_bytes` (the last one of a range may be shorter), and `out`
    // receives one range_change per piece. False on failure.
    virtual bool compare(uint64_t piece_bytes, std::vector<range_change>& out) = 0;

    // Hashes `ranges` (sorted, disjoint, inside tracked memory) in pieces: each range is cut into
    // pieces of `piece_bytes` (the last one of a range may be shorter) and `out` receives one
    // 64-bit content hash per piece, range by range. Equal contents hash equal; a change of any
    // byte changes the hash but with a probability of about 2^-64. False on failure.
    virtual bool hash(const std::vector<memory_range>& ranges,
                      uint64_t                         piece_bytes,
                      std::vector<uint64_t>&           out) = 0;

    // Frees the snapshot.
    virtual void release() = 0;

    // A count that changes whenever work was issued, outside the SDK's replay windows, that may
    // have written tracked memory without a kernel dispatch of the SDK's pipeline (copies,
    // memsets, graph launches, stream memory operations, on any thread), or memory was allocated,
    // freed, mapped or unmapped. Nothing when the backend cannot observe every such writer: then
    // no verification baseline is kept from one window to the next (kernel_replay/write_set.hpp).
    virtual std::optional<uint64_t> write_epoch() { return std::nullopt; }

    // Tracked ranges that something other than the device's work may write at any time (managed
    // memory the host writes with plain stores): their hashes are never kept between windows.
    virtual std::vector<memory_range> externally_writable() { return {}; }
};
} // namespace rocprofiler::dispatch
