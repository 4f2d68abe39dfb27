// Counters of the host reference device. Every value is a measurement of the execution it
// belongs to: its duration, the CPU time its worker threads consumed, how many workers took part,
// the work-items and workgroups it ran, and Linux perf events counted on each worker thread while
// it worked on the execution (only the events the kernel lets this process open are listed).
//
// The device has a fixed number of counter slots per pass (ROCPROFILER_HOST_COUNTER_SLOTS,
// default 4; every counter takes one), so a configuration of more counters than that does not
// fit in one pass and groups are real.
#pragma once

#include "backend/device_backend.hpp"
#include "dispatch/dispatch.hpp"

#include <memory>

namespace rocprofiler::host
{
class device;
struct packet;
struct execution_result;
class execution_hooks;

// Measures the requested counters of one execution. Create it before enqueueing; hooks() goes to
// the device's enqueue, and finish() turns the device's result into counter values.
class counter_session
{
public:
    counter_session(std::shared_ptr<const dispatch::execution_request> request, uint32_t workers);
    ~counter_session();

    counter_session(const counter_session&)            = delete;
    counter_session& operator=(const counter_session&) = delete;

    std::shared_ptr<execution_hooks> hooks();

    std::vector<dispatch::counter_value> finish(const packet& pkt, const execution_result& result);

private:
    struct impl;
    std::shared_ptr<impl> m_impl;
};

// The counters of the host agent, as its device backend reports them.
backend::device_counters device_counters();
} // namespace rocprofiler::host
