// The owner of the SDK's process-wide state: one registry of static objects (the shape of AMD's
// rocprofiler-sdk common/static_object.hpp), each built on first use and never destroyed at exit.
//
// Why never destroyed at exit: threads the SDK does not join before static destruction (callback
// threads detached from inside a callback, device worker threads, a tool's own threads) and the
// exit-time finalization (atexit, library destructors) still read contexts, buffers and the tool
// registry while static destructors run. A leaked object cannot be destroyed under them.
//
// Why a registry: tests (only tests) reset the SDK to its just-loaded state between tests of one
// executable (registration::reset_for_tests). Every object that holds a tool's state names a
// reset_order; reset_all() destroys those objects in that order, and the next get() builds a fresh
// one. Objects that hold facts of the process rather than of a tool (agents, counter definitions,
// kernel symbols, adapters' hooks, isolation locks) name reset_order::never and survive a reset.
//
// Rule: reset_all() may run only while no other thread is inside the SDK or can enter it (no
// dispatch in flight, callback threads joined). Outside tests nothing calls it.
#pragma once

#include <atomic>
#include <mutex>
#include <type_traits>

namespace rocprofiler::common
{
// The order in which reset_all() destroys the objects of a tool's state: an object is destroyed
// before anything it refers to, so its destructor may still read those.
enum class reset_order : int
{
    never = -1,   // a fact of the process: kept by a reset
    registration, // the tool registry: clients and their ids (contexts are named by client)
    replay,       // the kernel replay domain's owner (a context id)
    buffers,      // buffers (owned by a context, delivered on a callback thread)
    threads,      // callback threads
    contexts,     // contexts and their services
    counters,     // counter configurations
    dispatch_ids, // dispatch and correlation id counters
    diagnostics,  // which warn_once keys were seen (a reset shows each warning once again)
    last,
};

namespace static_objects
{
using reset_fn = void (*)();

// Remembers @p fn, to be run by reset_all() at its order. Called once per object type, when the
// object is first built. Thread-safe.
void enroll(reset_order order, reset_fn fn);

// Destroys every enrolled object, in reset_order; their next get() builds fresh ones. See the rule
// above: tests only, with the SDK quiescent.
void reset_all();
} // namespace static_objects

// One process-wide object of type T. get() is thread-safe and costs one acquire load once the
// object exists. T is default-constructed; its constructor may use other static objects (not T).
// Distinct objects of one type take distinct Tag types.
template <typename T, reset_order Order, typename Tag = T> class static_object
{
public:
    static T& get()
    {
        if(auto* value = instance().load(std::memory_order_acquire); value != nullptr)
            return *value;
        return build();
    }

private:
    static std::atomic<T*>& instance()
    {
        static std::atomic<T*> value = nullptr; // trivially destructible: safe at exit
        return value;
    }

    static T& build()
    {
        // Usable from exit-time code: nothing destroys it.
        static_assert(std::is_trivially_destructible_v<std::mutex>);
        static std::mutex mutex;
        static bool       enrolled = false;
        auto              lock     = std::lock_guard{mutex};
        if(auto* value = instance().load(std::memory_order_acquire); value != nullptr)
            return *value;
        auto* value = new T{};
        instance().store(value, std::memory_order_release);
        if constexpr(Order != reset_order::never)
        {
            if(!enrolled) static_objects::enroll(Order, &reset);
            enrolled = true;
        }
        return *value;
    }

    static void reset() { delete instance().exchange(nullptr, std::memory_order_acq_rel); }
};
} // namespace rocprofiler::common
