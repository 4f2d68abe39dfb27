// Buffers: where buffered services leave records for the tool (buffer.h).
//
// Each buffer has two halves of `size` bytes. Producers copy records into the active half; when
// its bytes in use reach the watermark (or a record does not fit) and the other half is idle, the
// halves swap and the full one is handed to the buffer's callback thread. At most one half of a
// buffer is in delivery at a time, so the tool sees records in production order and its callback
// never runs concurrently for one buffer.
//
// Accounting: a record uses its payload size rounded up to 8 bytes (a zero-size record uses 8);
// `size` and `watermark` count those bytes. Headers are kept beside the payloads.
//
// Threading: every function here is thread-safe. emplace() may be called from any thread; under
// LOSSLESS it waits when both halves are full, under DISCARD it never waits for the tool.
// Callbacks run on callback threads (callback_thread.hpp), except that flush, destroy or a
// LOSSLESS emplace issued from inside a buffer callback delivers a half still queued for another
// buffer on the calling thread rather than waiting for it (that wait could deadlock).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <rocprofiler-sdk/buffer.h>
#include <rocprofiler-sdk/fwd.h>
#include <type_traits>

namespace rocprofiler::buffer
{
// Creates a buffer owned by @p ctx. Does not check the configuration lock (the C entry point
// does). ERROR_CONTEXT_NOT_FOUND for an unknown context; ERROR_INVALID_ARGUMENT for a null
// callback or @p out, size 0, watermark above size, or a policy outside NONE..LOSSLESS;
// ERROR_OUT_OF_RESOURCES when the storage cannot be allocated. POLICY_NONE behaves as LOSSLESS.
rocprofiler_status_t create(rocprofiler_context_id_t        ctx,
                            size_t                          size,
                            size_t                          watermark,
                            rocprofiler_buffer_policy_t     policy,
                            rocprofiler_buffer_tracing_cb_t cb,
                            void*                           data,
                            rocprofiler_buffer_id_t*        out);

// Hands the records written before the call to the callback. With @p wait, returns after the
// callback has run for them. ERROR_BUFFER_NOT_FOUND for an unknown or destroyed buffer;
// ERROR_BUFFER_BUSY from inside this buffer's own callback, or from inside any buffer callback
// while this buffer's callback is running on another thread.
rocprofiler_status_t flush(rocprofiler_buffer_id_t id, bool wait);

// Refuses new records, delivers every record already written, then invalidates the id (later
// flush/destroy: ERROR_BUFFER_NOT_FOUND; later emplace: false). Errors as flush().
rocprofiler_status_t destroy(rocprofiler_buffer_id_t id);

// True from create() until destroy() starts.
bool exists(rocprofiler_buffer_id_t id);

// The context that owns the buffer, while it exists.
std::optional<rocprofiler_context_id_t> owner(rocprofiler_buffer_id_t id);

// Delivers the buffer's records on callback thread @p thread from now on. The caller checks the
// configuration lock. ERROR_BUFFER_NOT_FOUND, ERROR_THREAD_NOT_FOUND.
rocprofiler_status_t assign_callback_thread(rocprofiler_buffer_id_t       id,
                                            rocprofiler_callback_thread_t thread);

// Copies @p size bytes of @p record into the buffer. Thread-safe, from any thread. Returns false
// when the record was not stored: unknown or destroyed buffer, DISCARD with both halves full (the
// drop is counted and reported as drop_count), a record larger than the buffer (counted, warned
// once), or a null @p record with a non-zero @p size.
bool emplace(
    rocprofiler_buffer_id_t id, uint32_t category, uint32_t kind, const void* record, size_t size);

template <typename T>
bool
emplace(rocprofiler_buffer_id_t id, uint32_t category, uint32_t kind, const T& record)
{
    static_assert(std::is_trivially_copyable_v<T>, "buffer records are copied bytewise");
    static_assert(alignof(T) <= 8, "buffer payloads are aligned to 8 bytes");
    return emplace(id, category, kind, static_cast<const void*>(&record), sizeof(T));
}

// Counts @p count records that a producer lost before it could write them (a sampler's full
// ring, a hardware buffer that overflowed): the buffer's callback receives them in its drop_count
// with the next delivery, as it receives the records the buffer itself dropped. False for an
// unknown or destroyed buffer.
bool count_lost(rocprofiler_buffer_id_t id, uint64_t count);

// Finalization: delivers every buffer's records and waits for the callbacks.
void flush_all();

// Finalization, after flush_all(): destroys every buffer (delivering anything written since) and
// stops and joins the callback threads.
void destroy_all();
} // namespace rocprofiler::buffer
