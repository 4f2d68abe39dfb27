#include "buffer/buffer.hpp"

#include "buffer/callback_thread.hpp"
#include "common/dcheck.hpp"
#include "common/guard.hpp"
#include "common/logging.hpp"
#include "common/static_object.hpp"
#include "context/context.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace rocprofiler::buffer
{
namespace
{
// More buffers than any tool needs; a fixed table keeps the lookup on the record path lock-free.
constexpr size_t max_buffers = 4096;
// Payloads start on 8-byte boundaries and occupy multiples of 8 bytes.
constexpr size_t payload_alignment = 8;
// Headers reserved per half at creation; the vectors grow (and keep their capacity) beyond that.
constexpr size_t initial_headers = 1024;

// Bytes a payload of @p bytes occupies. Callers ensure bytes <= a capacity that is a multiple of
// 8, so this cannot overflow.
size_t
footprint(size_t bytes)
{
    if(bytes == 0) return payload_alignment;
    return ((bytes + payload_alignment - 1) / payload_alignment) * payload_alignment;
}

enum class lifetime
{
    alive,
    closing, // destroy() is delivering the last records; emplace refuses
    destroyed,
};

// State of the half that is not being filled.
enum class hand_off
{
    idle,       // empty and free: the next swap can happen at once
    submitted,  // full, posted to a callback thread, callback not started
    delivering, // the callback is running
};

struct half
{
    std::unique_ptr<uint64_t[]>               storage  = {}; // capacity bytes, 8-aligned
    size_t                                    used     = 0;  // bytes
    std::vector<rocprofiler_record_header_t>  headers  = {};
    std::vector<rocprofiler_record_header_t*> pointers = {}; // same length as headers
    uint64_t                                  drops    = 0;  // drop count handed with this half
    uint64_t                                  sequence = 0;  // submission number

    std::byte* bytes() { return reinterpret_cast<std::byte*>(storage.get()); }
};

struct instance
{
    // Fixed at creation.
    uint64_t                        handle    = 0;
    rocprofiler_context_id_t        context   = {};
    size_t                          capacity  = 0; // size rounded up to 8
    size_t                          watermark = 0;
    bool                            lossless  = true;
    rocprofiler_buffer_tracing_cb_t callback  = nullptr;
    void*                           data      = nullptr;

    std::atomic<uint64_t> thread = internal_threading::default_thread;
    std::atomic<lifetime> state  = lifetime::alive; // written under mutex

    // Everything below is guarded by mutex, except the half in hand-off state delivering, which
    // belongs to the delivering thread.
    std::mutex              mutex           = {};
    std::condition_variable changed         = {}; // a hand-off completed, or destroy started
    std::array<half, 2>     halves          = {};
    int                     active          = 0;
    hand_off                other           = hand_off::idle;
    uint64_t                submitted_to    = 0; // callback thread the submitted half went to
    uint64_t                drops           = 0; // since the last submission
    uint64_t                submit_seq      = 0;
    uint64_t                delivered_seq   = 0;
    bool                    flush_requested = false; // flush(wait=false) while a half was busy
};

// Never destroyed at exit, and instances are never freed by destroy() (it frees their storage
// only): a record producer may still hold a pointer while another thread destroys the buffer, and
// callback threads may outlive static destruction (common/static_object.hpp). A test reset, after
// finalize() destroyed every buffer and joined the callback threads, frees the instances.
struct registry
{
    registry() = default;
    ~registry()
    {
        for(auto& entry : buffers)
            delete entry.load();
    }
    registry(const registry&)            = delete;
    registry& operator=(const registry&) = delete;

    std::mutex                                      create_mutex = {};
    std::atomic<size_t>                             count        = 0;
    std::array<std::atomic<instance*>, max_buffers> buffers      = {};
};

registry&
get_registry()
{
    return common::static_object<registry, common::reset_order::buffers>::get();
}

instance*
lookup(rocprofiler_buffer_id_t id)
{
    if(id.handle == 0 || id.handle > max_buffers) return nullptr;
    return get_registry().buffers[id.handle - 1].load(std::memory_order_acquire);
}

// Buffers whose callback is running on this thread, innermost first (callbacks nest when one
// delivers another buffer's half inline).
struct callback_frame
{
    const instance* buffer   = nullptr;
    callback_frame* previous = nullptr;
};

thread_local callback_frame* current_frame = nullptr;

bool
in_any_callback()
{
    return current_frame != nullptr;
}

bool
in_callback_of(const instance& buf)
{
    for(auto* frame = current_frame; frame != nullptr; frame = frame->previous)
        if(frame->buffer == &buf) return true;
    return false;
}

bool
should_submit(const instance& buf)
{
    if(buf.other != hand_off::idle) return false;
    const auto& act         = buf.halves[buf.active];
    const bool  has_records = !act.headers.empty();
    if(has_records && act.used >= buf.watermark) return true;
    return buf.flush_requested && (has_records || buf.drops > 0);
}

void deliver_task(void* arg);

// Lock held, buf.other == submitted. Runs the callback here, and keeps delivering on this thread
// while a next half is due and no callback thread accepts it. Returns with the lock held.
void
deliver(instance& buf, std::unique_lock<std::mutex>& lock)
{
    ROCP_DCHECK(lock.owns_lock() && buf.other == hand_off::submitted,
                "a buffer half is delivered once it was submitted, under the buffer's lock");
    while(true)
    {
        buf.other  = hand_off::delivering;
        auto& full = buf.halves[buf.active ^ 1];
        lock.unlock();

        for(size_t i = 0; i < full.headers.size(); ++i)
            full.pointers[i] = &full.headers[i];
        auto frame    = callback_frame{&buf, current_frame};
        current_frame = &frame;
        try
        {
            buf.callback(buf.context,
                         rocprofiler_buffer_id_t{buf.handle},
                         full.pointers.data(),
                         full.headers.size(),
                         buf.data,
                         full.drops);
        }
        catch(...)
        {
            // Reported once per buffer; the buffer's context is stopped, as after any tool
            // callback that threw (dispatch/delivery.hpp), and the records of later flushes are
            // still delivered to the callback.
            const auto where = "the tool's callback of buffer " + std::to_string(buf.handle);
            common::report_current_exception(where.c_str());
            context::stop(buf.context);
            common::log::warn_once("buffer-callback-threw:" + std::to_string(buf.handle),
                                   where + " threw: its context " +
                                       std::to_string(buf.context.handle) +
                                       " is stopped and records nothing further (the "
                                       "application continues)");
        }
        current_frame = frame.previous;

        lock.lock();
        full.used = 0;
        full.headers.clear();
        full.pointers.clear();
        full.drops        = 0;
        buf.delivered_seq = full.sequence;
        buf.other         = hand_off::idle;
        buf.changed.notify_all();

        if(!should_submit(buf)) return;
        // Same as submit(), looping here instead of recursing when no thread takes the half.
        auto& act           = buf.halves[buf.active];
        act.drops           = buf.drops;
        act.sequence        = ++buf.submit_seq;
        buf.drops           = 0;
        buf.flush_requested = false;
        buf.active ^= 1;
        buf.other        = hand_off::submitted;
        buf.submitted_to = buf.thread.load(std::memory_order_relaxed);
        if(internal_threading::post(buf.submitted_to, {&deliver_task, &buf})) return;
    }
}

// Lock held, buf.other == idle, the active half holds records or drops are pending. Swaps the
// halves and hands the full one to the buffer's callback thread, or delivers it here when no
// callback thread can run it. Returns with the lock held.
void
submit(instance& buf, std::unique_lock<std::mutex>& lock)
{
    ROCP_DCHECK(lock.owns_lock() && buf.other == hand_off::idle,
                "a buffer half is submitted only while no other half is in delivery, under the "
                "buffer's lock");
    auto& act           = buf.halves[buf.active];
    act.drops           = buf.drops;
    act.sequence        = ++buf.submit_seq;
    buf.drops           = 0;
    buf.flush_requested = false;
    buf.active ^= 1;
    buf.other        = hand_off::submitted;
    buf.submitted_to = buf.thread.load(std::memory_order_relaxed);
    // Posting under the lock is safe: callback threads never hold their queue lock while they
    // take a buffer's lock.
    if(!internal_threading::post(buf.submitted_to, {&deliver_task, &buf})) deliver(buf, lock);
}

// Runs on a callback thread. A task may find nothing to do: a flush from inside a callback may
// have delivered its half already.
void
deliver_task(void* arg)
{
    auto& buf  = *static_cast<instance*>(arg);
    auto  lock = std::unique_lock{buf.mutex};
    if(buf.other != hand_off::submitted) return;
    if(static_cast<int64_t>(buf.submitted_to) != internal_threading::current_thread()) return;
    deliver(buf, lock);
}

// Waits once for the other half to change state. Inside a buffer callback it never waits for
// another thread's callback (two callbacks waiting for each other would deadlock): a submitted
// half is delivered here instead, and a half being delivered elsewhere returns false.
bool
wait_for_hand_off(instance& buf, std::unique_lock<std::mutex>& lock)
{
    if(in_any_callback())
    {
        if(buf.other == hand_off::submitted)
        {
            deliver(buf, lock);
            return true;
        }
        if(buf.other == hand_off::delivering) return false;
        return true;
    }
    buf.changed.wait(lock);
    return true;
}

rocprofiler_status_t
flush_locked(instance& buf, std::unique_lock<std::mutex>& lock, bool wait)
{
    // Get every record written so far into a submitted half.
    uint64_t target = 0;
    while(true)
    {
        if(buf.state.load(std::memory_order_relaxed) == lifetime::destroyed)
            return ROCPROFILER_STATUS_SUCCESS; // destroy() delivered everything
        const auto& act = buf.halves[buf.active];
        if(act.headers.empty() && buf.drops == 0)
        {
            target = buf.submit_seq;
            break;
        }
        if(buf.other == hand_off::idle)
        {
            target = buf.submit_seq + 1;
            submit(buf, lock);
            break;
        }
        if(!wait)
        {
            buf.flush_requested = true;
            return ROCPROFILER_STATUS_SUCCESS;
        }
        if(!wait_for_hand_off(buf, lock)) return ROCPROFILER_STATUS_ERROR_BUFFER_BUSY;
    }
    if(!wait) return ROCPROFILER_STATUS_SUCCESS;
    while(buf.delivered_seq < target)
    {
        if(!wait_for_hand_off(buf, lock)) return ROCPROFILER_STATUS_ERROR_BUFFER_BUSY;
    }
    return ROCPROFILER_STATUS_SUCCESS;
}

template <typename FuncT>
void
for_each_buffer(FuncT&& func)
{
    auto& reg = get_registry();
    auto  n   = reg.count.load(std::memory_order_acquire);
    for(size_t i = 0; i < n; ++i)
    {
        if(auto* buf = reg.buffers[i].load(std::memory_order_acquire); buf != nullptr)
            func(rocprofiler_buffer_id_t{buf->handle});
    }
}
} // namespace

rocprofiler_status_t
create(rocprofiler_context_id_t        ctx,
       size_t                          size,
       size_t                          watermark,
       rocprofiler_buffer_policy_t     policy,
       rocprofiler_buffer_tracing_cb_t cb,
       void*                           data,
       rocprofiler_buffer_id_t*        out)
{
    if(context::get(ctx) == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    const auto policy_value = static_cast<int>(policy);
    if(cb == nullptr || out == nullptr || size == 0 || watermark > size ||
       policy_value < static_cast<int>(ROCPROFILER_BUFFER_POLICY_NONE) ||
       policy_value >= static_cast<int>(ROCPROFILER_BUFFER_POLICY_LAST))
        return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    if(size > SIZE_MAX - payload_alignment) return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;

    auto buf       = std::make_unique<instance>();
    buf->context   = ctx;
    buf->capacity  = footprint(size);
    buf->watermark = watermark;
    buf->lossless  = (policy != ROCPROFILER_BUFFER_POLICY_DISCARD);
    buf->callback  = cb;
    buf->data      = data;
    try
    {
        for(auto& h : buf->halves)
        {
            // Not value-initialized: pages are committed as records arrive.
            h.storage.reset(new(std::nothrow) uint64_t[buf->capacity / payload_alignment]);
            if(!h.storage) return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
            auto reserve = std::min(buf->capacity / payload_alignment, initial_headers);
            h.headers.reserve(reserve);
            h.pointers.reserve(reserve);
        }
    }
    catch(const std::bad_alloc&)
    {
        return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    catch(const std::length_error&)
    {
        return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
    }

    auto& reg  = get_registry();
    auto  lock = std::lock_guard{reg.create_mutex};
    auto  idx  = reg.count.load(std::memory_order_relaxed);
    if(idx >= max_buffers)
    {
        ROCP_LOG(error) << "cannot create more than " << max_buffers << " buffers";
        return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    buf->handle = idx + 1;
    out->handle = buf->handle;
    reg.buffers[idx].store(buf.release(), std::memory_order_release);
    reg.count.store(idx + 1, std::memory_order_release);
    return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t
flush(rocprofiler_buffer_id_t id, bool wait)
{
    auto* buf = lookup(id);
    if(buf == nullptr) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
    auto lock = std::unique_lock{buf->mutex};
    if(buf->state.load(std::memory_order_relaxed) == lifetime::destroyed)
        return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
    if(in_callback_of(*buf)) return ROCPROFILER_STATUS_ERROR_BUFFER_BUSY;
    return flush_locked(*buf, lock, wait);
}

rocprofiler_status_t
destroy(rocprofiler_buffer_id_t id)
{
    auto* buf = lookup(id);
    if(buf == nullptr) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
    auto lock = std::unique_lock{buf->mutex};
    if(buf->state.load(std::memory_order_relaxed) != lifetime::alive)
        return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
    if(in_callback_of(*buf) || (in_any_callback() && buf->other == hand_off::delivering))
        return ROCPROFILER_STATUS_ERROR_BUFFER_BUSY;

    buf->state.store(lifetime::closing, std::memory_order_relaxed);
    buf->changed.notify_all(); // producers waiting for room give up: the buffer is going away
    while(true)
    {
        const auto& act = buf->halves[buf->active];
        if(buf->other == hand_off::idle)
        {
            if(act.headers.empty() && buf->drops == 0) break;
            submit(*buf, lock);
            continue;
        }
        if(!wait_for_hand_off(*buf, lock))
        {
            // Only reachable inside a callback while another thread delivers this buffer.
            buf->state.store(lifetime::alive, std::memory_order_relaxed);
            return ROCPROFILER_STATUS_ERROR_BUFFER_BUSY;
        }
    }
    buf->state.store(lifetime::destroyed, std::memory_order_relaxed);
    for(auto& h : buf->halves)
    {
        h.storage.reset();
        h.headers  = {};
        h.pointers = {};
    }
    buf->changed.notify_all();
    return ROCPROFILER_STATUS_SUCCESS;
}

bool
exists(rocprofiler_buffer_id_t id)
{
    auto* buf = lookup(id);
    return buf != nullptr && buf->state.load(std::memory_order_acquire) == lifetime::alive;
}

std::optional<rocprofiler_context_id_t>
owner(rocprofiler_buffer_id_t id)
{
    if(!exists(id)) return std::nullopt;
    return lookup(id)->context;
}

rocprofiler_status_t
assign_callback_thread(rocprofiler_buffer_id_t id, rocprofiler_callback_thread_t thread)
{
    if(!exists(id)) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
    if(!internal_threading::exists(thread)) return ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND;
    lookup(id)->thread.store(thread.handle, std::memory_order_relaxed);
    return ROCPROFILER_STATUS_SUCCESS;
}

bool
emplace(
    rocprofiler_buffer_id_t id, uint32_t category, uint32_t kind, const void* record, size_t size)
{
    auto* buf = lookup(id);
    if(buf == nullptr || (record == nullptr && size > 0)) return false;

    auto lock = std::unique_lock{buf->mutex};
    if(buf->state.load(std::memory_order_relaxed) != lifetime::alive) return false;
    if(size > buf->capacity)
    {
        ++buf->drops;
        auto capacity = buf->capacity;
        lock.unlock();
        common::log::warn_once("buffer-record-too-large-" + std::to_string(id.handle),
                               "buffer " + std::to_string(id.handle) + ": a record of " +
                                   std::to_string(size) + " bytes is larger than the buffer (" +
                                   std::to_string(capacity) +
                                   " bytes) and was dropped; create a larger buffer");
        return false;
    }

    const auto bytes = footprint(size);
    while(buf->halves[buf->active].used + bytes > buf->capacity)
    {
        if(buf->other == hand_off::idle)
        {
            submit(*buf, lock);
            continue;
        }
        if(!buf->lossless)
        {
            ++buf->drops;
            return false;
        }
        if(in_callback_of(*buf) && buf->other == hand_off::delivering)
        {
            // The half in delivery is the one whose callback is running on this stack: waiting
            // would never end.
            ++buf->drops;
            lock.unlock();
            common::log::warn_once(
                "buffer-self-emplace-" + std::to_string(id.handle),
                "buffer " + std::to_string(id.handle) +
                    ": a record produced inside the buffer's own callback found the buffer full "
                    "and was dropped");
            return false;
        }
        if(in_any_callback() && buf->other == hand_off::submitted)
        {
            deliver(*buf, lock);
            continue;
        }
        buf->changed.wait(lock);
        if(buf->state.load(std::memory_order_relaxed) != lifetime::alive) return false;
    }

    auto& act     = buf->halves[buf->active];
    auto* payload = act.bytes() + act.used;
    try
    {
        act.headers.push_back(rocprofiler_record_header_t{});
        try
        {
            act.pointers.push_back(nullptr);
        }
        catch(...)
        {
            act.headers.pop_back();
            throw;
        }
    }
    catch(const std::bad_alloc&)
    {
        ++buf->drops;
        return false;
    }
    if(size > 0) std::memcpy(payload, record, size);
    auto& header    = act.headers.back();
    header.category = category;
    header.kind     = kind;
    header.payload  = payload;
    act.used += bytes;

    if(act.used >= buf->watermark && buf->other == hand_off::idle) submit(*buf, lock);
    return true;
}

bool
count_lost(rocprofiler_buffer_id_t id, uint64_t count)
{
    auto* buf = lookup(id);
    if(buf == nullptr) return false;
    auto lock = std::unique_lock{buf->mutex};
    if(buf->state.load(std::memory_order_relaxed) != lifetime::alive) return false;
    buf->drops += count;
    return true;
}

void
flush_all()
{
    for_each_buffer(
        [](rocprofiler_buffer_id_t id)
        {
            if(exists(id)) flush(id, true);
        });
}

void
destroy_all()
{
    for_each_buffer(
        [](rocprofiler_buffer_id_t id)
        {
            if(exists(id)) destroy(id);
        });
    internal_threading::finalize();
}
} // namespace rocprofiler::buffer
