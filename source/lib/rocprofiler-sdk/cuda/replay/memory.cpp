#include "cuda/replay/memory.hpp"
#include "cuda/replay/write_observer.hpp"

#include "common/logging.hpp"
#include "common/time.hpp"
#include "cuda/interpose/driver.hpp"
#include "cuda/interpose/settings_driver.hpp"
#include "cuda/replay/allocation_tracker.hpp"
#include "cuda/replay/drain_worker.hpp"
#include "cuda/replay/replay_kernels.hpp"
#include "cuda/replay/replay_pieces.hpp"
#include "cuda/replay/shadow_copies.hpp"
#include "cuda/replay/shadow_pool.hpp"

#include <algorithm>

namespace rocprofiler::cuda
{
namespace
{
void
add_restore(replay_memory_stats& st, uint64_t ns)
{
    st.restores += 1;
    st.restore_total_ns += ns;
    st.restore_max_ns = std::max(st.restore_max_ns, ns);
}
} // namespace

bool
launch_memory::drain(uint64_t timeout_ns)
{
    m_window_start_ns  = common::timestamp_ns();
    m_drain_result     = CUDA_SUCCESS;
    const auto result  = synchronize_context(m_ctx, timeout_ns);
    const auto took_ns = common::timestamp_ns() - m_window_start_ns;
    update_stats(
        [&](auto&, auto& ph)
        {
            ph.drain.add(took_ns);
            if(!result) ph.drain_timeouts += 1;
            if(result && *result != CUDA_SUCCESS) ph.drain_errors += 1;
        });
    if(!result) return false;
    m_drain_result = *result;
    if(*result != CUDA_SUCCESS)
        ROCP_LOG(warning) << "[kernel-replay] cuCtxSynchronize before the snapshot returned "
                          << error_name(*result);
    return true;
}

std::vector<dispatch::memory_range>
launch_memory::tracked(bool& tracking)
{
    tracking = tracking_enabled();
    auto out = std::vector<dispatch::memory_range>{};
    if(!tracking) return out;
    refresh_mapped_access(m_device);
    for(const auto& r : device_ranges(m_device, m_ctx))
        out.push_back({r.start, r.bytes});
    return out;
}

std::optional<uint64_t>
launch_memory::write_epoch()
{
    return cuda::write_epoch();
}

std::vector<dispatch::memory_range>
launch_memory::externally_writable()
{
    auto out = std::vector<dispatch::memory_range>{};
    for(const auto& r : managed_ranges())
        out.push_back({r.start, r.bytes});
    return out;
}

std::optional<dispatch::decline_reason>
launch_memory::check_arguments(const dispatch::kernel_arguments& args)
{
    return cuda::check_arguments(args);
}

bool
launch_memory::read(uint64_t address, void* out, size_t bytes)
{
    if(bytes == 0) return true;
    if(m_drain_result != CUDA_SUCCESS) return false;
    {
        // The engine is only given the bytes of tracked memory (a copy from memory the driver
        // does not know would fail anyway).
        const auto lock = tracker_lock{};
        if(!lock.inside_tracked(address, bytes)) return false;
    }
    auto        scope  = internal_call_scope{};
    const auto* drv    = driver();
    auto        stream = private_stream(m_ctx);
    // Called after the drain and before the snapshot: nothing of the launch is queued yet, and the
    // wait makes the bytes the host's.
    return stream != nullptr &&
           drv->cuMemcpyDtoHAsync_v2(out, static_cast<CUdeviceptr>(address), bytes, stream) ==
               CUDA_SUCCESS &&
           drv->cuStreamSynchronize(stream) == CUDA_SUCCESS;
}

std::optional<CUstream>
launch_memory::work_stream()
{
    // The launch stream when known: the kernels queue behind the passes and restores issued there
    // (stream order), and the wait for their results covers those too. Otherwise every earlier
    // copy was waited for on the host already, and the SDK's own stream serves.
    if(m_stream_known) return m_stream;
    auto stream = private_stream(m_ctx);
    if(stream == nullptr) return std::nullopt;
    return stream;
}

bool
launch_memory::compare(uint64_t piece_bytes, std::vector<dispatch::range_change>& out)
{
    out.clear();
    if(piece_bytes == 0 || m_drain_result != CUDA_SUCCESS) return false;
    if(m_shadows.empty()) return true;
    const auto started = common::timestamp_ns();
    auto       scope   = internal_call_scope{};
    // Pinned host memory has the same address on the device (unified addressing).
    const auto shadow = m_host ? static_cast<uint64_t>(reinterpret_cast<uintptr_t>(m_host_block))
                               : static_cast<uint64_t>(m_device_block);
    auto       work   = std::vector<replay_pieces::work_range>{};
    auto       bytes  = uint64_t{0};
    work.reserve(m_shadows.size());
    {
        const auto lock = tracker_lock{};
        for(const auto& s : m_shadows)
        {
            const bool live = lock.inside_tracked(s.start, s.bytes);
            work.push_back({s.start, s.bytes, shadow + s.offset, live});
            if(live) bytes += s.bytes;
        }
    }
    const auto plan    = replay_pieces::plan_work(work, piece_bytes);
    const auto stream  = work_stream();
    auto       result  = std::vector<uint64_t>{};
    const bool ok      = stream && run_compare_kernel(m_ctx, *stream, plan, piece_bytes, result);
    const auto took_ns = common::timestamp_ns() - started;
    update_stats(
        [&](auto&, auto& ph)
        {
            if(!ok)
            {
                ph.compare_failures += 1;
                return;
            }
            ph.compare.add(took_ns);
            ph.compare_bytes += bytes;
        });
    if(!ok) return false;
    const auto pieces = static_cast<size_t>(plan.pieces);
    out.reserve(pieces);
    for(size_t i = 0; i < pieces; ++i)
    {
        const auto count = result[2 * pieces + i];
        out.push_back(count == 0 ? dispatch::range_change{}
                                 : dispatch::range_change{result[i], result[pieces + i], count});
    }
    return true;
}

bool
launch_memory::hash(const std::vector<dispatch::memory_range>& ranges,
                    uint64_t                                   piece_bytes,
                    std::vector<uint64_t>&                     out)
{
    out.clear();
    if(piece_bytes == 0 || m_drain_result != CUDA_SUCCESS) return false;
    const auto started = common::timestamp_ns();
    auto       scope   = internal_call_scope{};
    auto       work    = std::vector<replay_pieces::work_range>{};
    auto       bytes   = uint64_t{0};
    work.reserve(ranges.size());
    {
        // Memory freed during the window is not read: it hashes as 0 (it no longer holds what it
        // held). Frees of tracked memory wait for the window, so what is live now stays so.
        const auto lock = tracker_lock{};
        for(const auto& r : ranges)
        {
            const bool live = lock.inside_tracked(r.start, r.bytes);
            work.push_back({r.start, r.bytes, 0, live});
            if(live) bytes += r.bytes;
        }
    }
    const auto plan    = replay_pieces::plan_work(work, piece_bytes);
    const auto stream  = work_stream();
    auto       sums    = std::vector<uint64_t>{};
    const bool ok      = stream && run_hash_kernel(m_ctx, *stream, plan, piece_bytes, sums);
    const auto took_ns = common::timestamp_ns() - started;
    update_stats(
        [&](auto&, auto& ph)
        {
            if(!ok)
            {
                ph.hash_failures += 1;
                return;
            }
            ph.hash.add(took_ns);
            ph.hash_bytes += bytes;
        });
    if(!ok) return false;
    out = replay_pieces::finish_hashes(work, piece_bytes, sums.data());
    return true;
}

std::optional<dispatch::decline_reason>
launch_memory::snapshot(const std::vector<dispatch::memory_range>& ranges)
{
    drop();
    const auto started = common::timestamp_ns();
    // A context with an error (a kernel faulted earlier) can copy nothing; the dispatch runs once
    // and the application sees the error from its launch.
    if(m_drain_result != CUDA_SUCCESS) return dispatch::decline_reason::snapshot_failed;

    auto scope  = internal_call_scope{};
    auto wanted = std::vector<address_range>{};
    wanted.reserve(ranges.size());
    for(const auto& r : ranges)
        wanted.push_back({r.start, static_cast<size_t>(r.bytes)});
    auto layout = layout_shadows(wanted);
    m_shadows   = std::move(layout.shadows);
    if(m_shadows.empty())
    {
        m_window = true; // nothing to copy: every execution is still a pass
        return std::nullopt;
    }

    const bool ordered = m_stream_known;
    auto       stream  = ordered ? m_stream : private_stream(m_ctx);
    if(!ordered && stream == nullptr)
    {
        m_shadows.clear();
        return dispatch::decline_reason::snapshot_failed;
    }
    if(auto reason = acquire_shadow(layout.total)) return reason;
    if(!copy_shadows(true, stream))
    {
        drop();
        return dispatch::decline_reason::snapshot_failed;
    }
    if(!ordered)
    {
        if(auto result = driver()->cuStreamSynchronize(stream); result != CUDA_SUCCESS)
        {
            ROCP_LOG(error) << "[kernel-replay] snapshot copy failed: " << error_name(result);
            drop();
            return dispatch::decline_reason::snapshot_failed;
        }
    }

    // Restore timing (statistics only): the pool's two events, when no other window holds them.
    if(stats_enabled()) m_events = take_restore_events(*m_pool);

    m_window           = true;
    const auto took_ns = common::timestamp_ns() - started;
    const bool host    = m_host;
    const auto total   = layout.total;
    update_stats(
        [&](auto& st, auto& ph)
        {
            st.max_snapshot_bytes = std::max(st.max_snapshot_bytes, total);
            ph.snapshot.add(took_ns);
            (ordered ? ph.stream_ordered : ph.host_synced) += 1;
            if(host) ph.host_shadows += 1;
        });
    ROCP_LOG(debug) << "[kernel-replay] snapshot of " << m_shadows.size() << " allocations, "
                    << total << " bytes, in " << shadow_kind() << " memory"
                    << (ordered ? ", stream-ordered" : "");
    return std::nullopt;
}

std::optional<dispatch::decline_reason>
launch_memory::acquire_shadow(size_t total)
{
    m_pool            = find_pool(m_ctx, true);
    const auto policy = settings::replay_shadow();
    auto       block  = std::optional<uint64_t>{};
    if(policy != settings::shadow_placement::host)
        block = acquire_block(*m_pool, total, false, m_pooled);
    if(block)
    {
        m_host         = false;
        m_device_block = static_cast<CUdeviceptr>(*block);
    }
    else if(policy != settings::shadow_placement::device &&
            (block = acquire_block(*m_pool, total, true, m_pooled)))
    {
        m_host       = true;
        m_host_block = reinterpret_cast<void*>(*block);
    }
    else
    {
        m_shadows.clear();
        return dispatch::decline_reason::footprint_budget;
    }
    return std::nullopt;
}

bool
launch_memory::copy_shadows(bool to_shadow, CUstream stream)
{
    const auto target =
        copy_target{to_shadow, stream, m_device, m_host, m_device_block, m_host_block};
    return cuda::copy_shadows(target, m_shadows);
}

void
launch_memory::finish_restore_timing()
{
    if(!m_restore_pending) return;
    m_restore_pending = false;
    auto        ms    = 0.0f;
    const auto* drv   = driver(false);
    const bool  timed =
        drv != nullptr && drv->cuEventElapsedTime_v2 != nullptr &&
        drv->cuEventElapsedTime_v2(&ms, m_pool->restore_start, m_pool->restore_end) == CUDA_SUCCESS;
    const auto gpu_ns  = static_cast<uint64_t>(static_cast<double>(ms) * 1.0e6);
    const auto host_ns = m_pending_host_ns;
    update_stats(
        [&](auto& st, auto& ph)
        {
            if(timed) ph.restore_gpu.add(gpu_ns);
            add_restore(st, timed ? gpu_ns : host_ns);
        });
}

bool
launch_memory::restore()
{
    if(m_shadows.empty()) return true;
    finish_restore_timing();
    const auto  started = common::timestamp_ns();
    const auto* drv     = driver();
    auto        scope   = internal_call_scope{};
    const bool  ordered = m_stream_known;
    auto        stream  = ordered ? m_stream : private_stream(m_ctx);
    if(!ordered && stream == nullptr) return false;
    const bool timed =
        m_events && ordered && drv->cuEventRecord(m_pool->restore_start, stream) == CUDA_SUCCESS;
    if(!copy_shadows(false, stream)) return false;
    if(ordered)
    {
        // The next pass is launched on `stream` after these copies: stream order completes them
        // first; the host does not wait.
        const bool ended = timed && drv->cuEventRecord(m_pool->restore_end, stream) == CUDA_SUCCESS;
        const auto took_ns = common::timestamp_ns() - started;
        update_stats([&](auto&, auto& ph) { ph.restore_host.add(took_ns); });
        if(ended)
        {
            m_restore_pending = true;
            m_pending_host_ns = took_ns;
            return true;
        }
        update_stats([&](auto& st, auto&) { add_restore(st, took_ns); });
        return true;
    }
    if(auto result = drv->cuStreamSynchronize(stream); result != CUDA_SUCCESS)
    {
        ROCP_LOG(error) << "[kernel-replay] restore failed: " << error_name(result);
        return false;
    }
    const auto took_ns = common::timestamp_ns() - started;
    update_stats(
        [&](auto& st, auto& ph)
        {
            ph.restore_host.add(took_ns);
            add_restore(st, took_ns);
        });
    return true;
}

void
launch_memory::drop()
{
    auto scope = internal_call_scope{};
    finish_restore_timing();
    if(m_device_block != 0) give_back_block(m_pool, m_device_block, false, m_pooled);
    if(m_host_block != nullptr)
        give_back_block(m_pool, reinterpret_cast<uint64_t>(m_host_block), true, m_pooled);
    if(m_events && m_pool != nullptr) give_back_restore_events(*m_pool);
    m_events       = false;
    m_device_block = 0;
    m_host_block   = nullptr;
    m_pooled       = false;
    m_window       = false;
    m_shadows.clear();
}

void
launch_memory::release()
{
    const bool held = m_window || m_device_block != 0 || m_host_block != nullptr;
    if(!held)
    {
        m_shadows.clear();
        return;
    }
    const auto started = common::timestamp_ns();
    drop();
    const auto now = common::timestamp_ns();
    update_stats(
        [&](auto&, auto& ph)
        {
            ph.release.add(now - started);
            if(m_window_start_ns != 0) ph.window.add(now - m_window_start_ns);
        });
    m_window_start_ns = 0;
}
} // namespace rocprofiler::cuda
