// Callback threads: the threads on which buffer callbacks run (internal_threading.h).
//
// Thread 0 is the default thread; rocprofiler_create_callback_thread adds threads 1, 2, ... Each
// thread runs the tasks posted to it one at a time, in the order they were posted. The operating
// system thread starts on the first post, so a tool that never fills a buffer never gets a thread.
// Threads are stopped and joined only by finalize(); before that they sleep when idle.
#pragma once

#include <cstdint>
#include <rocprofiler-sdk/fwd.h>

namespace rocprofiler::internal_threading
{
// A unit of work for a callback thread. Plain function and argument so that posting never
// allocates beyond the growth of the thread's queue.
struct task
{
    void (*function)(void*) = nullptr;
    void* argument          = nullptr;
};

// Handle of the default thread.
inline constexpr uint64_t default_thread = 0;

// Creates a callback thread and writes its handle. The caller checks the configuration lock.
// ERROR_INVALID_ARGUMENT when @p id is null, ERROR_OUT_OF_RESOURCES when the table is full.
rocprofiler_status_t create_callback_thread(rocprofiler_callback_thread_t* id);

// True for the default thread and every created thread.
bool exists(rocprofiler_callback_thread_t id);

// Queues @p work on thread @p handle. Returns false when the thread does not exist, has been
// stopped by finalize(), or its operating-system thread could not be started; the caller must then
// run the work itself. Thread-safe.
bool post(uint64_t handle, task work);

// The handle of the callback thread running the caller, or -1 when the caller is not one.
int64_t current_thread();

// Stops every callback thread after it has run the tasks already queued, and joins it. A thread
// that calls finalize() from inside a callback is detached instead of joined. Idempotent; after it
// returns, post() returns false.
void finalize();
} // namespace rocprofiler::internal_threading
