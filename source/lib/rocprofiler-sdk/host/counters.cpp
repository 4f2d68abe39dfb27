#include "host/counters.hpp"

#include "common/environment.hpp"
#include "counters/counters.hpp"
#include "host/runtime/runtime.hpp"
#include "host/settings.hpp"

#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

namespace rocprofiler::host
{
namespace
{
// What a host counter measures.
enum class measure : uint32_t
{
    duration,
    cpu_time,
    workers,
    work_items,
    workgroups,
    perf, // a perf event, see perf_events
};

struct perf_event_spec
{
    const char* name;
    const char* description;
    uint32_t    type;
    uint64_t    config;
};

constexpr auto perf_events = std::array<perf_event_spec, 10>{{
    {"PERF_CPU_CYCLES",
     "CPU cycles of the worker threads while executing the dispatch",
     PERF_TYPE_HARDWARE,
     PERF_COUNT_HW_CPU_CYCLES},
    {"PERF_INSTRUCTIONS",
     "Instructions retired by the worker threads while executing the dispatch",
     PERF_TYPE_HARDWARE,
     PERF_COUNT_HW_INSTRUCTIONS},
    {"PERF_CACHE_REFERENCES",
     "Last-level cache references of the worker threads",
     PERF_TYPE_HARDWARE,
     PERF_COUNT_HW_CACHE_REFERENCES},
    {"PERF_CACHE_MISSES",
     "Last-level cache misses of the worker threads",
     PERF_TYPE_HARDWARE,
     PERF_COUNT_HW_CACHE_MISSES},
    {"PERF_BRANCH_INSTRUCTIONS",
     "Branch instructions retired by the worker threads",
     PERF_TYPE_HARDWARE,
     PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"PERF_BRANCH_MISSES",
     "Mispredicted branches of the worker threads",
     PERF_TYPE_HARDWARE,
     PERF_COUNT_HW_BRANCH_MISSES},
    {"PERF_TASK_CLOCK_NS",
     "Task clock of the worker threads (ns), from the kernel's perf events",
     PERF_TYPE_SOFTWARE,
     PERF_COUNT_SW_TASK_CLOCK},
    {"PERF_PAGE_FAULTS",
     "Page faults taken by the worker threads",
     PERF_TYPE_SOFTWARE,
     PERF_COUNT_SW_PAGE_FAULTS},
    {"PERF_CONTEXT_SWITCHES",
     "Context switches of the worker threads",
     PERF_TYPE_SOFTWARE,
     PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"PERF_CPU_MIGRATIONS",
     "Migrations of the worker threads between CPUs",
     PERF_TYPE_SOFTWARE,
     PERF_COUNT_SW_CPU_MIGRATIONS},
}};

int
open_perf_event(const perf_event_spec& spec)
{
    auto attr           = perf_event_attr{};
    attr.size           = sizeof(attr);
    attr.type           = spec.type;
    attr.config         = spec.config;
    attr.exclude_kernel = 1;
    attr.exclude_hv     = 1;
    return static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
}

// One entry per listed counter: what it measures and, for perf counters, which event.
struct host_counter
{
    measure  what       = measure::duration;
    uint32_t perf_index = 0;
};

const std::vector<host_counter>& host_counter_table();

uint32_t
slots_from_environment()
{
    return static_cast<uint32_t>(common::env::get(settings::counter_slots));
}

struct listing
{
    std::vector<host_counter>           table = {};
    std::vector<counters::counter_spec> specs = {};
};

const listing&
get_listing()
{
    static const auto* value = []
    {
        auto* out = new listing{};
        auto  add = [out](measure     what,
                         uint32_t    perf_index,
                         const char* name,
                         const char* block,
                         const char* description)
        {
            out->table.push_back(host_counter{what, perf_index});
            auto spec        = counters::counter_spec{};
            spec.name        = name;
            spec.block       = block;
            spec.description = description;
            // Durations, CPU time, work-items, workgroups and perf event counts of several
            // executions add up; the number of workers that took part in one does not (the same
            // workers serve every execution).
            spec.additive = what != measure::workers;
            out->specs.push_back(std::move(spec));
        };
        add(measure::duration,
            0,
            "DURATION_NS",
            "timer",
            "Time from the first workgroup's start to the last workgroup's end (ns)");
        add(measure::cpu_time,
            0,
            "CPU_TIME_NS",
            "cpu",
            "CPU time the worker threads spent executing the dispatch (ns)");
        add(measure::workers,
            0,
            "WORKERS_ACTIVE",
            "scheduler",
            "Worker threads that executed at least one workgroup of the dispatch");
        add(measure::work_items, 0, "WORK_ITEMS", "dispatch", "Work-items executed");
        add(measure::workgroups, 0, "WORKGROUPS", "dispatch", "Workgroups executed");
        for(uint32_t i = 0; i < perf_events.size(); ++i)
        {
            auto fd = open_perf_event(perf_events[i]);
            if(fd < 0) continue; // not permitted or not supported here: not listed
            close(fd);
            add(measure::perf, i, perf_events[i].name, "perf", perf_events[i].description);
        }
        return out;
    }();
    return *value;
}

const std::vector<host_counter>&
host_counter_table()
{
    return get_listing().table;
}

uint64_t
thread_cpu_ns()
{
    auto ts = timespec{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL) + static_cast<uint64_t>(ts.tv_nsec);
}

// Perf event descriptors of the calling worker thread, opened on first use and kept for the
// thread's life (a worker counts many executions).
int
thread_perf_fd(uint32_t perf_index)
{
    static thread_local auto fds = []
    {
        auto init = std::array<int, perf_events.size()>{};
        init.fill(-2); // -2: not opened yet; -1: failed
        return init;
    }();
    auto& fd = fds[perf_index];
    if(fd == -2) fd = open_perf_event(perf_events[perf_index]);
    return fd;
}

uint64_t
read_perf(int fd)
{
    auto value = uint64_t{0};
    if(fd < 0 || ::read(fd, &value, sizeof(value)) != static_cast<ssize_t>(sizeof(value))) return 0;
    return value;
}
} // namespace

struct counter_session::impl final : public execution_hooks
{
    impl(std::shared_ptr<const dispatch::execution_request> req, uint32_t workers)
        : request{std::move(req)}
        , starts(workers)
    {
        for(const auto* def : request->counters)
        {
            const auto& entry = host_counter_table().at(def->backend_index);
            if(entry.what == measure::cpu_time) want_cpu = true;
            if(entry.what == measure::perf) perf_indices.push_back(entry.perf_index);
        }
        perf_totals = std::vector<std::atomic<uint64_t>>(perf_indices.size());
        for(auto& s : starts)
            s.perf.resize(perf_indices.size());
    }

    void on_worker_begin(uint32_t worker) override
    {
        auto& s = starts.at(worker);
        for(size_t i = 0; i < perf_indices.size(); ++i)
            s.perf[i] = read_perf(thread_perf_fd(perf_indices[i]));
        if(want_cpu) s.cpu = thread_cpu_ns();
    }

    void on_worker_end(uint32_t worker) override
    {
        auto& s = starts.at(worker);
        if(want_cpu) cpu_total.fetch_add(thread_cpu_ns() - s.cpu, std::memory_order_relaxed);
        for(size_t i = 0; i < perf_indices.size(); ++i)
            perf_totals[i].fetch_add(read_perf(thread_perf_fd(perf_indices[i])) - s.perf[i],
                                     std::memory_order_relaxed);
    }

    struct worker_start
    {
        uint64_t              cpu  = 0;
        std::vector<uint64_t> perf = {};
    };

    std::shared_ptr<const dispatch::execution_request> request;
    std::vector<worker_start>                          starts;
    bool                                               want_cpu     = false;
    std::vector<uint32_t>                              perf_indices = {};
    std::vector<std::atomic<uint64_t>>                 perf_totals  = {};
    std::atomic<uint64_t>                              cpu_total    = 0;
};

counter_session::counter_session(std::shared_ptr<const dispatch::execution_request> request,
                                 uint32_t                                           workers)
    : m_impl{std::make_shared<impl>(std::move(request), workers)}
{
}

counter_session::~counter_session() = default;

std::shared_ptr<execution_hooks>
counter_session::hooks()
{
    return m_impl;
}

std::vector<dispatch::counter_value>
counter_session::finish(const packet& pkt, const execution_result& result)
{
    auto values = std::vector<dispatch::counter_value>{};
    for(const auto* def : m_impl->request->counters)
    {
        const auto& entry = host_counter_table().at(def->backend_index);
        auto        value = 0.0;
        switch(entry.what)
        {
        case measure::duration:
            value = static_cast<double>(result.end_ns - result.start_ns);
            break;
        case measure::cpu_time:
            value = static_cast<double>(m_impl->cpu_total.load());
            break;
        case measure::workers:
            value = static_cast<double>(result.worker_count);
            break;
        case measure::work_items:
            value = static_cast<double>(pkt.work_item_count());
            break;
        case measure::workgroups:
            value = static_cast<double>(pkt.workgroup_count());
            break;
        case measure::perf:
            for(size_t i = 0; i < m_impl->perf_indices.size(); ++i)
                if(m_impl->perf_indices[i] == entry.perf_index)
                    value = static_cast<double>(m_impl->perf_totals[i].load());
            break;
        }
        values.push_back(dispatch::counter_value{def->id, value});
    }
    return values;
}
backend::device_counters
device_counters()
{
    auto out           = backend::device_counters{};
    out.counters       = get_listing().specs;
    out.slots_per_pass = slots_from_environment();
    // counter_session::finish gives every execution's values with its completion.
    out.counts_every_execution = true;
    return out;
}
} // namespace rocprofiler::host
