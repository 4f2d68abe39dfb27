// SPM of the host reference device: while an execution runs, a sampler thread reads, every
// interval, how much CPU time the execution's worker threads have consumed so far (each worker's
// CPU-time clock, pthread_getcpuclockid) and how many workers are inside it. A sample's
// CPU_TIME_NS is the CPU time consumed since the previous sample (the last sample, taken at the
// execution's completion, carries the rest: the values of an execution add up to its CPU time),
// its WORKERS_ACTIVE the workers inside the execution at that moment. The interval is in cycles of
// the host device's SPM clock, which ticks at 1 MHz (a cycle is a microsecond).
#pragma once

#include "backend/device_backend.hpp"
#include "dispatch/backend.hpp"
#include "host/runtime/runtime.hpp"

#include <time.h>

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace rocprofiler::host
{
// What the host agent offers: CPU_TIME_NS and WORKERS_ACTIVE, every 100 to 1,000,000 cycles
// (100 us to 1 s).
backend::spm_offer spm_offer();

// Samples one execution. Its hooks go to device::enqueue; finish() stops the sampler, takes the
// last sample and delivers the batch exactly once (the execution's completion, after every
// on_worker_end()).
class spm_session final : public execution_hooks
{
public:
    spm_session(std::shared_ptr<const dispatch::spm_request> request, uint32_t workers);
    ~spm_session() override;

    spm_session(const spm_session&)            = delete;
    spm_session& operator=(const spm_session&) = delete;

    void on_worker_begin(uint32_t worker_index) override;
    void on_worker_end(uint32_t worker_index) override;

    void finish();

private:
    enum class counter
    {
        cpu_time,
        workers_active,
    };
    struct worker_state
    {
        bool      active   = false;
        bool      readable = false; // its CPU-time clock can be read by the sampler
        clockid_t clock    = {};
        uint64_t  start_ns = 0; // the worker's CPU time when it began
        uint64_t  done_ns  = 0; // CPU time of the parts it finished
    };

    void run();
    // With m_mutex held; `last`: the sample at the execution's end, always kept.
    void take_sample(bool last);

    std::shared_ptr<const dispatch::spm_request> m_request;
    size_t                     m_limit     = 0;  // samples kept per execution, the last included
    std::vector<counter>       m_counters  = {}; // per requested counter
    std::mutex                 m_mutex     = {};
    std::condition_variable    m_wake      = {};
    std::vector<worker_state>  m_workers   = {};
    bool                       m_begun     = false; // a worker began
    bool                       m_stop      = false;
    bool                       m_delivered = false;
    uint64_t                   m_reported  = 0; // CPU time in samples so far
    dispatch::spm_sample_batch m_batch     = {};
    std::thread                m_sampler   = {};
};
} // namespace rocprofiler::host
