// The state of one dispatch's CUPTI replay cycle under the per-dispatch counter schedule
// (counter_schedule.hpp): the passes of a replayed dispatch run CUPTI's passes of one
// configuration, and the values exist once the last of them was decoded. Pure C++ (no CUDA or
// CUPTI header) so that unit tests walk every transition.
#pragma once

namespace rocprofiler::cuda::metrics
{
enum class cycle_phase
{
    idle,        // no cycle was ever opened for this dispatch
    running,     // CUPTI passes of the cycle remain
    interrupted, // running, but another execution on the context took the range profiler
    complete,    // the cycle's values are there
    ended,       // the last cycle ended without values
};

enum class cycle_event
{
    open,      // the configuration of a new cycle was set
    interrupt, // another execution set its own configuration on the context
    abandon,   // the cycle ends without values (a failure, the dispatch ended, ...)
    complete,  // CUPTI's last pass ran and its values were decoded
};

// The one transition function of the cycle. An interruption matters only while running; an
// abandoned cycle that was never opened stays idle.
constexpr cycle_phase
next_phase(cycle_phase phase, cycle_event event)
{
    switch(event)
    {
    case cycle_event::open:
        return cycle_phase::running;
    case cycle_event::interrupt:
        return phase == cycle_phase::running ? cycle_phase::interrupted : phase;
    case cycle_event::abandon:
        return phase == cycle_phase::idle ? cycle_phase::idle : cycle_phase::ended;
    case cycle_event::complete:
        return cycle_phase::complete;
    }
    return phase;
}

// CUPTI passes of the cycle remain (the range profiler is mid-cycle).
constexpr bool
is_open(cycle_phase phase)
{
    return phase == cycle_phase::running || phase == cycle_phase::interrupted;
}
} // namespace rocprofiler::cuda::metrics
