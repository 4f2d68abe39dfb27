// PC sampling of the host reference device: while a worker thread runs an execution's workgroups,
// a timer on the thread's CPU-time clock (timer_create(CLOCK_THREAD_CPUTIME_ID), delivered to that
// thread as a real-time signal) interrupts it every interval; the handler reads the interrupted
// program counter from the signal context and stores it in the worker's ring (pc_sample_ring.hpp).
// When the worker is done with the execution the samples are mapped onto the kernel's function
// (its address and symbol size) and handed to the SDK's request (dispatch/backend.hpp).
#pragma once

#include "backend/device_backend.hpp"
#include "dispatch/backend.hpp"
#include "host/runtime/runtime.hpp"

#include <time.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace rocprofiler::host
{
class pc_sample_ring;

// What the host agent offers: HOST_TRAP in TIME (ns) when this process can sample its threads
// (a supported architecture, the sampling signal not taken by the application, CPU-time timers
// available); otherwise nothing.
std::vector<backend::pc_sampling_configuration> pc_sampling_configurations();

// Samples one execution. Its hooks go to device::enqueue; finish() delivers the samples exactly
// once, after every on_worker_end() (the execution's completion).
class pc_sampling_session final : public execution_hooks
{
public:
    pc_sampling_session(std::shared_ptr<const dispatch::pc_sampling_request> request,
                        const kernel_info&                                   kernel,
                        uint32_t                                             workers);
    ~pc_sampling_session() override;

    pc_sampling_session(const pc_sampling_session&)            = delete;
    pc_sampling_session& operator=(const pc_sampling_session&) = delete;

    void on_worker_begin(uint32_t worker_index) override;
    void on_worker_end(uint32_t worker_index) override;

    void finish();

private:
    struct worker_timer
    {
        pc_sample_ring* ring  = nullptr;
        timer_t         timer = {};
    };

    std::shared_ptr<const dispatch::pc_sampling_request> m_request;
    uint64_t                                             m_entry = 0; // kernel's address
    uint64_t                                             m_size  = 0; // 0: unknown
    bool m_unavailable = false; // the handler could not be installed: nothing is sampled
    std::vector<std::unique_ptr<worker_timer>> m_timers    = {}; // one per worker
    std::mutex                                 m_mutex     = {};
    dispatch::pc_sample_batch                  m_batch     = {};
    bool                                       m_delivered = false;
};
} // namespace rocprofiler::host
