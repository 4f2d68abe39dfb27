// Kernel replay on two agents (REPLAY_RULES, step 5: "Different agents replay concurrently").
//
// The host reference device has one agent, so these tests put a fake device with two agents
// behind the backend-neutral dispatch pipeline (dispatch::intercept, as every adapter does): each
// fake agent has its own FIFO worker thread (its "queue": executions complete on it, as on a
// device), its own memory (the regions its snapshot covers) and its own memory backend (drain =
// wait until its worker is idle; snapshot/restore = copy its regions). No SDK source is changed.
//
// What is shown:
// - windows of the two agents overlap in time: a kernel of each agent's first replayed dispatch
//   waits (bounded) until the other agent's window is open; with one lock for all agents neither
//   would ever see the other's window open;
// - windows on one agent never overlap, with two threads per agent, and no other execution runs
//   on an agent inside one of its windows; one agent with two threads is the negative control
//   (the same rendezvous times out, the windows are disjoint);
// - each agent's drain/snapshot/restore/release is its own: counts per agent, one live snapshot
//   per agent at most, two live at once across agents, the drain of one agent does not wait for
//   work queued on the other;
// - the memory after the run equals a run without replay, and a plain computation.
//
// "Window" here: the locked part, from the agent's drain (the first thing done under the
// isolation lock) or PASS 0 ENTER, to the last PASS EXIT. CONFIG ENTER/EXIT fire before the lock
// is taken (REPLAY_RULES steps 4-5), so a CONFIG-enter..last-PASS-exit span of one dispatch can
// contain another dispatch's passes on the same agent; the tests count those spans but only the
// locked window is required to be exclusive.
#include "fake_memory.hpp"
#include "harness.hpp"
#include "replay_env.hpp"

#include "dispatch/dispatch.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace replay_test
{
namespace
{
using namespace std::chrono_literals;
using multi_agent = replay_fixture;

uint64_t
now_ns()
{
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::steady_clock::now().time_since_epoch())
                                     .count());
}

constexpr uint64_t kernel_add       = 0x6D0001; // a[i] += b[i]                (replayed)
constexpr uint64_t kernel_histogram = 0x6D0002; // hist[in[i] % bins] += 1     (replayed)
constexpr uint64_t kernel_scale     = 0x6D0003; // b[i] = 3 * b[i] + 1          (ordinary)
constexpr uint64_t kernel_gate      = 0x6D0004; // waits until opened          (ordinary)
constexpr uint64_t passes           = 3;

// --- what one launch did -------------------------------------------------------------------------

struct launch_record
{
    uint64_t tag             = 0;
    uint64_t agent           = 0;
    uint64_t kernel          = 0;
    bool     target          = false; // a replayed kernel
    int      rendezvous_side = -1;    // >= 0: its first execution meets the other side's window
    uint64_t dispatch_id     = 0;
    uint64_t config_agent    = 0; // agent id in the CONFIG payload
    uint64_t config_enter    = 0;
    uint64_t drain_enter     = 0; // the first thing done under the isolation lock
    uint64_t drain_agent     = 0; // agent whose memory backend drained / took the snapshot
    uint64_t snap_agent      = 0;
    uint64_t pass0_enter     = 0;
    uint64_t last_exit       = 0;
    uint64_t release_ns      = 0;
    uint64_t pass_enters     = 0;
    bool     pass_order_ok   = true; // PASS ENTER k came k-th

    std::atomic<int>        executions = 0;
    std::atomic<int>        signals    = 0;
    std::mutex              mutex      = {};
    std::condition_variable cv         = {};

    void wait_signalled()
    {
        auto lock = std::unique_lock{mutex};
        cv.wait_for(lock, 10s, [this] { return signals.load() > 0; });
    }
};

// The launch this thread is submitting (set around dispatch::intercept): the replay callbacks and
// the memory backend run on the submitting thread and attribute what they see to it.
thread_local launch_record* this_thread_launch = nullptr;

// --- a rendezvous between two windows ------------------------------------------------------------

struct rendezvous_state
{
    std::mutex                mutex   = {};
    std::condition_variable   cv      = {};
    std::array<bool, 2>       open    = {false, false};
    std::array<bool, 2>       met     = {false, false};
    std::array<bool, 2>       waited  = {false, false};
    std::chrono::milliseconds timeout = 2000ms;

    // Called inside side `me`'s window: marks it open, waits until the other side's is open.
    void meet(int me)
    {
        auto lock = std::unique_lock{mutex};
        open[me]  = true;
        cv.notify_all();
        met[me]    = cv.wait_for(lock, timeout, [&] { return open[1 - me]; });
        waited[me] = true;
    }
    // At the end of side `me`'s window.
    void close(int me)
    {
        auto lock = std::lock_guard{mutex};
        open[me]  = false;
        cv.notify_all();
    }
};

rendezvous_state g_rendezvous = {};

// --- the fake device ----------------------------------------------------------------------------

struct execution_entry
{
    uint64_t tag   = 0;
    uint64_t start = 0;
    uint64_t end   = 0;
};

struct memory_stats
{
    int drains         = 0;
    int snapshots      = 0;
    int restores       = 0;
    int releases       = 0;
    int max_live       = 0;
    int misuse         = 0; // a second live snapshot, a restore or release without one
    int live_snapshots = 0;
};

// Live snapshots over all agents, and the most seen at once.
std::atomic<int> g_live_snapshots     = 0;
std::atomic<int> g_max_live_snapshots = 0;

class fake_agent;

class fake_memory final : public replay_test::memoryless_backend
{
public:
    explicit fake_memory(fake_agent& agent)
        : m_agent{agent}
    {
    }
    bool drain(uint64_t timeout_ns) override;
    std::optional<rocprofiler::dispatch::decline_reason>
         snapshot(const std::vector<rocprofiler::dispatch::memory_range>&) override;
    bool restore() override;
    void release() override;

private:
    fake_agent& m_agent;
};

// One agent: a FIFO worker thread that runs executions in submission order (its queue), the
// memory regions its snapshots cover, and its memory backend.
class fake_agent
{
public:
    explicit fake_agent(uint64_t handle)
        : m_handle{handle}
        , m_memory{*this}
        , m_worker{[this] { work(); }}
    {
    }
    ~fake_agent()
    {
        {
            auto lock = std::lock_guard{m_mutex};
            m_stop    = true;
        }
        m_cv.notify_all();
        m_worker.join();
    }
    fake_agent(const fake_agent&)            = delete;
    fake_agent& operator=(const fake_agent&) = delete;

    uint64_t     handle() const { return m_handle; }
    fake_memory& memory() { return m_memory; }

    void track(void* ptr, size_t bytes)
    {
        auto lock = std::lock_guard{m_mutex};
        m_regions.push_back({static_cast<std::byte*>(ptr), bytes});
    }

    void submit(std::function<void()> job)
    {
        {
            auto lock = std::lock_guard{m_mutex};
            m_jobs.push_back(std::move(job));
        }
        m_cv.notify_all();
    }

    bool wait_idle(uint64_t timeout_ns)
    {
        auto lock = std::unique_lock{m_mutex};
        return m_cv.wait_for(lock,
                             std::chrono::nanoseconds{timeout_ns},
                             [this] { return m_jobs.empty() && !m_busy; });
    }

    void log_execution(uint64_t tag, uint64_t start, uint64_t end)
    {
        auto lock = std::lock_guard{m_mutex};
        m_executions.push_back({tag, start, end});
    }

    std::vector<execution_entry> executions()
    {
        auto lock = std::lock_guard{m_mutex};
        return m_executions;
    }

    memory_stats stats()
    {
        auto lock = std::lock_guard{m_mutex};
        return m_stats;
    }

private:
    friend class fake_memory;

    struct region
    {
        std::byte* ptr   = nullptr;
        size_t     bytes = 0;
    };

    void work()
    {
        auto lock = std::unique_lock{m_mutex};
        while(true)
        {
            m_cv.wait(lock, [this] { return m_stop || !m_jobs.empty(); });
            if(m_jobs.empty()) return; // stopping, nothing left
            auto job = std::move(m_jobs.front());
            m_jobs.pop_front();
            m_busy = true;
            lock.unlock();
            job();
            lock.lock();
            m_busy = false;
            m_cv.notify_all();
        }
    }

    uint64_t                            m_handle;
    std::mutex                          m_mutex      = {};
    std::condition_variable             m_cv         = {};
    std::deque<std::function<void()>>   m_jobs       = {};
    bool                                m_busy       = false;
    bool                                m_stop       = false;
    std::vector<region>                 m_regions    = {};
    std::vector<std::vector<std::byte>> m_shadows    = {};
    std::vector<execution_entry>        m_executions = {};
    memory_stats                        m_stats      = {};
    fake_memory                         m_memory;
    std::thread                         m_worker;
};

bool
fake_memory::drain(uint64_t timeout_ns)
{
    if(auto* rec = this_thread_launch)
    {
        rec->drain_enter = now_ns();
        rec->drain_agent = m_agent.handle();
    }
    {
        auto lock = std::lock_guard{m_agent.m_mutex};
        ++m_agent.m_stats.drains;
    }
    return m_agent.wait_idle(timeout_ns);
}

std::optional<rocprofiler::dispatch::decline_reason>
fake_memory::snapshot(const std::vector<rocprofiler::dispatch::memory_range>&)
{
    if(auto* rec = this_thread_launch) rec->snap_agent = m_agent.handle();
    auto  lock = std::lock_guard{m_agent.m_mutex};
    auto& st   = m_agent.m_stats;
    if(st.live_snapshots != 0) ++st.misuse;
    m_agent.m_shadows.clear();
    for(const auto& r : m_agent.m_regions)
        m_agent.m_shadows.emplace_back(r.ptr, r.ptr + r.bytes);
    ++st.snapshots;
    ++st.live_snapshots;
    st.max_live = std::max(st.max_live, st.live_snapshots);
    auto live   = ++g_live_snapshots;
    auto seen   = g_max_live_snapshots.load();
    while(live > seen && !g_max_live_snapshots.compare_exchange_weak(seen, live))
    {
    }
    return std::nullopt;
}

bool
fake_memory::restore()
{
    auto  lock = std::lock_guard{m_agent.m_mutex};
    auto& st   = m_agent.m_stats;
    if(st.live_snapshots != 1 || m_agent.m_shadows.size() != m_agent.m_regions.size())
    {
        ++st.misuse;
        return false;
    }
    for(size_t i = 0; i < m_agent.m_regions.size(); ++i)
        std::memcpy(
            m_agent.m_regions[i].ptr, m_agent.m_shadows[i].data(), m_agent.m_regions[i].bytes);
    ++st.restores;
    return true;
}

void
fake_memory::release()
{
    if(auto* rec = this_thread_launch) rec->release_ns = now_ns();
    auto  lock = std::lock_guard{m_agent.m_mutex};
    auto& st   = m_agent.m_stats;
    if(st.live_snapshots != 1) ++st.misuse;
    st.live_snapshots = 0;
    ++st.releases;
    m_agent.m_shadows.clear();
    --g_live_snapshots;
}

class fake_launch final : public rocprofiler::dispatch::launch_backend
{
public:
    fake_launch(fake_agent& agent, std::function<void()> body, launch_record& rec)
        : m_agent{agent}
        , m_body{std::move(body)}
        , m_rec{rec}
    {
    }
    void enqueue(rocprofiler::dispatch::completion_fn on_complete,
                 std::shared_ptr<const rocprofiler::dispatch::execution_request>) override
    {
        m_agent.submit(
            [this, on_complete = std::move(on_complete)]
            {
                auto result     = rocprofiler::dispatch::execution_result{};
                result.start_ns = now_ns();
                ++m_rec.executions;
                m_body();
                result.end_ns = now_ns();
                m_agent.log_execution(m_rec.tag, result.start_ns, result.end_ns);
                on_complete(result);
            });
    }
    void signal_application(const rocprofiler::dispatch::execution_result&) override
    {
        {
            auto lock = std::lock_guard{m_rec.mutex};
            ++m_rec.signals;
        }
        m_rec.cv.notify_all();
    }
    rocprofiler::dispatch::memory_backend* memory() override { return &m_agent.memory(); }

private:
    fake_agent&           m_agent;
    std::function<void()> m_body;
    launch_record&        m_rec;
};

std::atomic<uint64_t> g_tags = 0;

// Submits one launch through the dispatch pipeline, as an adapter does, without waiting for it
// (an asynchronous launch; a replayed dispatch returns after its window).
void
launch(fake_agent&           agent,
       uint64_t              queue,
       uint64_t              kernel,
       std::function<void()> body,
       launch_record&        rec)
{
    rec.tag             = ++g_tags;
    rec.agent           = agent.handle();
    rec.kernel          = kernel;
    rec.target          = (kernel == kernel_add || kernel == kernel_histogram);
    auto info           = rocprofiler::dispatch::launch_info{};
    info.agent          = rocprofiler_agent_id_t{agent.handle()};
    info.queue          = rocprofiler_queue_id_t{queue};
    info.kernel_id      = kernel;
    info.kernel_name    = "multi_agent_kernel";
    info.workgroup_size = {64, 1, 1};
    info.grid_size      = {256, 1, 1};
    this_thread_launch  = &rec;
    rocprofiler::dispatch::intercept(info,
                                     std::make_shared<fake_launch>(agent, std::move(body), rec));
    this_thread_launch = nullptr;
}

// The replay callbacks, attributed to the launch being submitted on this thread.
void
install_hooks()
{
    tool().targets   = {kernel_add, kernel_histogram};
    tool().on_config = [](payload_t& payload, auto*, rocprofiler_callback_phase_t phase)
    {
        auto* rec = this_thread_launch;
        if(rec == nullptr || phase != ROCPROFILER_CALLBACK_PHASE_ENTER) return;
        rec->dispatch_id  = payload.dispatch_info.dispatch_id;
        rec->config_agent = payload.dispatch_info.agent_id.handle;
        rec->config_enter = now_ns();
    };
    tool().on_pass = [](payload_t& payload, auto*, rocprofiler_callback_phase_t phase)
    {
        auto* rec = this_thread_launch;
        if(rec == nullptr) return;
        if(phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
        {
            if(payload.current_pass == 0) rec->pass0_enter = now_ns();
            if(payload.current_pass != rec->pass_enters) rec->pass_order_ok = false;
            ++rec->pass_enters;
            return;
        }
        rec->last_exit = now_ns();
        if(payload.current_pass + 1 == payload.total_passes && rec->rendezvous_side >= 0)
            g_rendezvous.close(rec->rendezvous_side);
    };
}

// --- the workload -------------------------------------------------------------------------------

// One thread's data on its agent: a += b, an atomic histogram, an ordinary b = 3b + 1 between.
struct problem
{
    static constexpr size_t n    = 512;
    static constexpr size_t bins = 16;

    std::vector<uint32_t> a    = std::vector<uint32_t>(n);
    std::vector<uint32_t> b    = std::vector<uint32_t>(n);
    std::vector<uint32_t> in   = std::vector<uint32_t>(n);
    std::vector<uint32_t> hist = std::vector<uint32_t>(bins);

    explicit problem(uint32_t seed)
    {
        for(size_t i = 0; i < n; ++i)
        {
            a[i]  = seed * 1000 + static_cast<uint32_t>(i);
            b[i]  = seed + 3 * static_cast<uint32_t>(i) + 1;
            in[i] = (static_cast<uint32_t>(i) * 2654435761u) ^ seed;
        }
    }

    void apply(uint64_t kernel)
    {
        if(kernel == kernel_add)
            for(size_t i = 0; i < n; ++i)
                a[i] += b[i];
        else if(kernel == kernel_histogram)
            for(size_t i = 0; i < n; ++i)
                __atomic_fetch_add(&hist[in[i] % bins], 1u, __ATOMIC_RELAXED);
        else if(kernel == kernel_scale)
            for(size_t i = 0; i < n; ++i)
                b[i] = 3 * b[i] + 1;
    }

    std::vector<uint32_t> bytes() const
    {
        auto out = a;
        out.insert(out.end(), b.begin(), b.end());
        out.insert(out.end(), hist.begin(), hist.end());
        return out;
    }
};

// A drain that does not finish in time declines the replay; main() sets 100 ms, which a loaded CI
// machine may exceed while the other thread's ordinary work finishes. 5 s for these tests.
class drain_timeout_scope
{
public:
    drain_timeout_scope()
    {
        replay_test::set_replay_env("ROCPROFILER_REPLAY_DRAIN_TIMEOUT_MS", "5000");
    }
    ~drain_timeout_scope()
    {
        replay_test::set_replay_env("ROCPROFILER_REPLAY_DRAIN_TIMEOUT_MS", "100");
    }

    drain_timeout_scope(const drain_timeout_scope&)            = delete;
    drain_timeout_scope& operator=(const drain_timeout_scope&) = delete;
};

constexpr std::array<uint64_t, 3> sequence = {kernel_add, kernel_histogram, kernel_scale};

struct workload
{
    size_t                    agents             = 2;
    size_t                    threads_per_agent  = 1;
    size_t                    iterations         = 12;
    bool                      replay             = true;
    bool                      rendezvous         = false; // first replayed dispatch of threads 0, 1
    std::chrono::milliseconds rendezvous_timeout = 2000ms;
    std::chrono::microseconds work               = 200us; // device time of one execution
};

struct outcome
{
    std::vector<uint64_t>                                   agents     = {};
    std::vector<size_t>                                     agent_of   = {}; // thread -> agent
    std::vector<std::vector<uint32_t>>                      memory     = {}; // per thread
    std::vector<std::vector<uint32_t>>                      plain      = {}; // no SDK at all
    std::vector<std::unique_ptr<std::deque<launch_record>>> records    = {}; // per thread
    std::vector<memory_stats>                               stats      = {}; // per agent
    std::vector<std::vector<execution_entry>>               executions = {}; // per agent
    int                                                     max_live   = 0;
    std::array<bool, 2>                                     met        = {false, false};
};

outcome
run_workload(const workload& w)
{
    auto timeout = drain_timeout_scope{};
    install_hooks();
    if(w.replay)
        replay_fixed(passes);
    else
        tool().pass_count = {}; // CONFIG fires, replay_pass_count stays NULL: runs once
    g_rendezvous.open    = {false, false};
    g_rendezvous.met     = {false, false};
    g_rendezvous.waited  = {false, false};
    g_rendezvous.timeout = w.rendezvous_timeout;
    g_live_snapshots     = 0;
    g_max_live_snapshots = 0;

    auto out    = outcome{};
    auto agents = std::vector<std::unique_ptr<fake_agent>>{};
    for(size_t g = 0; g < w.agents; ++g)
    {
        agents.emplace_back(std::make_unique<fake_agent>(0x6A01 + g));
        out.agents.push_back(agents.back()->handle());
    }
    const auto threads  = w.agents * w.threads_per_agent;
    auto       problems = std::vector<std::unique_ptr<problem>>{};
    for(size_t t = 0; t < threads; ++t)
    {
        out.agent_of.push_back(t / w.threads_per_agent);
        problems.emplace_back(std::make_unique<problem>(static_cast<uint32_t>(t + 1)));
        auto& p = *problems.back();
        auto& g = *agents[out.agent_of.back()];
        g.track(p.a.data(), p.a.size() * sizeof(uint32_t));
        g.track(p.b.data(), p.b.size() * sizeof(uint32_t));
        g.track(p.in.data(), p.in.size() * sizeof(uint32_t));
        g.track(p.hist.data(), p.hist.size() * sizeof(uint32_t));
        out.records.emplace_back(std::make_unique<std::deque<launch_record>>());
    }

    auto start   = std::atomic<size_t>{0};
    auto workers = std::vector<std::thread>{};
    for(size_t t = 0; t < threads; ++t)
        workers.emplace_back(
            [&, t]
            {
                auto& p       = *problems[t];
                auto& g       = *agents[out.agent_of[t]];
                auto& records = *out.records[t];
                auto  met     = false;
                ++start;
                while(start.load() < threads) // all threads start together
                    std::this_thread::yield();
                for(size_t i = 0; i < w.iterations; ++i)
                {
                    const auto kernel = sequence[i % sequence.size()];
                    auto&      rec    = records.emplace_back();
                    if(w.rendezvous && t < 2 && kernel == kernel_add && !met)
                    {
                        rec.rendezvous_side = static_cast<int>(t);
                        met                 = true;
                    }
                    auto body = [&p, &rec, kernel, work = w.work]
                    {
                        if(rec.rendezvous_side >= 0 && rec.executions.load() == 1)
                            g_rendezvous.meet(rec.rendezvous_side);
                        p.apply(kernel);
                        std::this_thread::sleep_for(work);
                    };
                    launch(g, g.handle() * 0x100 + t, kernel, body, rec);
                }
                for(auto& rec : records)
                    rec.wait_signalled();
            });
    for(auto& th : workers)
        th.join();

    for(size_t t = 0; t < threads; ++t)
    {
        out.memory.push_back(problems[t]->bytes());
        auto plain = problem{static_cast<uint32_t>(t + 1)};
        for(size_t i = 0; i < w.iterations; ++i)
            plain.apply(sequence[i % sequence.size()]);
        out.plain.push_back(plain.bytes());
    }
    for(auto& g : agents)
    {
        EXPECT_TRUE(g->wait_idle(5'000'000'000ULL));
        out.stats.push_back(g->stats());
        out.executions.push_back(g->executions());
    }
    out.max_live = g_max_live_snapshots.load();
    out.met      = g_rendezvous.met;
    return out;
}

struct interval
{
    uint64_t begin = 0;
    uint64_t end   = 0;
    uint64_t tag   = 0;
    size_t   agent = 0;
};

bool
overlaps(const interval& x, const interval& y)
{
    return x.begin < y.end && y.begin < x.end;
}

enum class window_start
{
    config, // CONFIG ENTER: before the isolation lock is taken
    drain,  // the drain: the first thing done under the lock
    pass0,  // PASS 0 ENTER: after the drain, nothing else runs on the agent from here
};

// Windows of replayed launches, from `start` to the last PASS EXIT.
std::vector<interval>
windows(const outcome& out, window_start start = window_start::drain)
{
    auto result = std::vector<interval>{};
    for(size_t t = 0; t < out.records.size(); ++t)
        for(const auto& rec : *out.records[t])
        {
            if(!rec.target || rec.pass_enters == 0) continue;
            const auto begin = start == window_start::config  ? rec.config_enter
                               : start == window_start::drain ? rec.drain_enter
                                                              : rec.pass0_enter;
            result.push_back({begin, rec.last_exit, rec.tag, out.agent_of[t]});
        }
    return result;
}

size_t
count_overlaps(const std::vector<interval>& w, bool same_agent)
{
    auto n = size_t{0};
    for(size_t i = 0; i < w.size(); ++i)
        for(size_t j = i + 1; j < w.size(); ++j)
            if((w[i].agent == w[j].agent) == same_agent && overlaps(w[i], w[j])) ++n;
    return n;
}

// Every launch: one application completion; replayed ones ran `passes` times with PASS 0..N-1 in
// order, with the dispatch's own agent in CONFIG and for drain and snapshot; others ran once.
void
expect_launches(const outcome& out, bool replay)
{
    for(size_t t = 0; t < out.records.size(); ++t)
        for(const auto& rec : *out.records[t])
        {
            SCOPED_TRACE("thread " + std::to_string(t) + " tag " + std::to_string(rec.tag));
            EXPECT_EQ(rec.signals.load(), 1) << "exactly one application completion";
            if(!rec.target || !replay)
            {
                EXPECT_EQ(rec.executions.load(), 1);
                EXPECT_EQ(rec.pass_enters, 0u);
                continue;
            }
            EXPECT_EQ(rec.executions.load(), static_cast<int>(passes));
            EXPECT_EQ(rec.pass_enters, passes);
            EXPECT_TRUE(rec.pass_order_ok);
            EXPECT_NE(rec.dispatch_id, 0u);
            EXPECT_EQ(rec.config_agent, rec.agent) << "CONFIG carries the dispatch's agent";
            EXPECT_EQ(rec.drain_agent, rec.agent) << "the dispatch's own agent is drained";
            EXPECT_EQ(rec.snap_agent, rec.agent) << "the dispatch's own agent is snapshotted";
            EXPECT_LE(rec.config_enter, rec.drain_enter);
            EXPECT_LE(rec.drain_enter, rec.pass0_enter);
            EXPECT_LE(rec.pass0_enter, rec.last_exit);
            EXPECT_GE(rec.release_ns, rec.last_exit);
        }
}

// Per agent: one snapshot per replayed dispatch of that agent, N-1 restores each, every snapshot
// released, never two live on one agent.
void
expect_memory_per_agent(const outcome& out, bool replay)
{
    for(size_t g = 0; g < out.agents.size(); ++g)
    {
        SCOPED_TRACE("agent " + std::to_string(g));
        auto replayed = 0;
        for(size_t t = 0; t < out.records.size(); ++t)
            if(out.agent_of[t] == g)
                for(const auto& rec : *out.records[t])
                    if(rec.target && replay) ++replayed;
        const auto& st = out.stats[g];
        EXPECT_EQ(st.snapshots, replayed);
        EXPECT_EQ(st.drains, replayed);
        EXPECT_EQ(st.restores, replayed * static_cast<int>(passes - 1));
        EXPECT_EQ(st.releases, replayed);
        EXPECT_EQ(st.live_snapshots, 0);
        EXPECT_EQ(st.misuse, 0);
        EXPECT_LE(st.max_live, 1);
    }
}

// From PASS 0 ENTER to the last PASS EXIT of a window (the drain has finished), only the window's
// own dispatch executes on that agent.
size_t
foreign_executions(const outcome& out)
{
    auto n = size_t{0};
    for(const auto& w : windows(out, window_start::pass0))
        for(const auto& e : out.executions[w.agent])
            if(e.tag != w.tag && overlaps(w, interval{e.start, e.end, e.tag, w.agent})) ++n;
    return n;
}

// Replayed dispatches whose CONFIG ENTER (before the isolation lock) fell inside a window of
// another thread on the same agent: they waited for that window.
size_t
waited_for_other_thread(const outcome& out)
{
    auto n = size_t{0};
    for(size_t t = 0; t < out.records.size(); ++t)
        for(const auto& rec : *out.records[t])
        {
            if(!rec.target || rec.pass_enters == 0) continue;
            auto waited = false;
            for(size_t u = 0; u < out.records.size() && !waited; ++u)
                if(u != t && out.agent_of[u] == out.agent_of[t])
                    for(const auto& other : *out.records[u])
                        if(other.target && other.pass_enters > 0 &&
                           other.drain_enter <= rec.config_enter &&
                           rec.config_enter < other.last_exit)
                            waited = true;
            n += waited ? 1 : 0;
        }
    return n;
}

// Two agents, one thread each: the windows overlap (forced by the rendezvous, which only
// succeeds when both agents' windows are open at once); memory equals a run without replay.
TEST_F(multi_agent, two_agents_replay_concurrently_with_independent_snapshots)
{
    auto w       = workload{};
    w.rendezvous = true;
    auto with    = run_workload(w);
    w.replay     = false;
    w.rendezvous = false;
    auto without = run_workload(w);

    EXPECT_TRUE(with.met[0] && with.met[1])
        << "each agent's first replayed kernel saw the other agent's window open";
    const auto locked = windows(with);
    EXPECT_EQ(locked.size(), 2 * 8u); // 12 iterations: 4 add + 4 histogram per thread
    EXPECT_GT(count_overlaps(locked, false), 0u) << "windows of the two agents overlap in time";
    EXPECT_EQ(count_overlaps(locked, true), 0u);
    EXPECT_EQ(with.max_live, 2) << "both agents held a live snapshot at the same time";
    expect_launches(with, true);
    expect_launches(without, false);
    expect_memory_per_agent(with, true);
    expect_memory_per_agent(without, false);
    EXPECT_EQ(foreign_executions(with), 0u);
    EXPECT_EQ(with.memory, without.memory) << "replay leaves the memory of a run without replay";
    EXPECT_EQ(with.memory, with.plain);
    EXPECT_TRUE(windows(without).empty());
}

// Two agents, two threads each, no rendezvous: windows on one agent never overlap and nothing
// else runs on the agent inside one; the other agent keeps running meanwhile.
TEST_F(multi_agent, windows_on_one_agent_never_overlap_with_two_threads_per_agent)
{
    auto w              = workload{};
    w.threads_per_agent = 2;
    w.iterations        = 24;
    w.work              = 100us;
    auto with           = run_workload(w);
    w.replay            = false;
    auto without        = run_workload(w);

    const auto locked = windows(with);
    EXPECT_EQ(locked.size(), 4 * 16u);
    EXPECT_EQ(count_overlaps(locked, true), 0u) << "windows on one agent overlap";
    EXPECT_EQ(foreign_executions(with), 0u) << "another dispatch ran on an agent inside a window";
    expect_launches(with, true);
    expect_launches(without, false);
    expect_memory_per_agent(with, true);
    EXPECT_EQ(with.memory, without.memory);
    EXPECT_EQ(with.memory, with.plain);
    // Informational: CONFIG fires before the isolation lock, so CONFIG-enter spans may overlap on
    // one agent; cross-agent overlap is not forced here.
    RecordProperty("config_span_overlaps_same_agent",
                   static_cast<int>(count_overlaps(windows(with, window_start::config), true)));
    RecordProperty("window_overlaps_across_agents",
                   static_cast<int>(count_overlaps(locked, false)));
}

// Negative control: one agent, two threads, the same rendezvous. The isolation lock keeps the
// second window closed while the first waits, so neither side meets the other and the windows
// are disjoint: the overlap measure can say "no".
TEST_F(multi_agent, one_agent_two_threads_windows_do_not_overlap)
{
    auto w               = workload{};
    w.agents             = 1;
    w.threads_per_agent  = 2;
    w.rendezvous         = true;
    w.rendezvous_timeout = 300ms;
    // The negative control means something only when the threads contended (below). On a loaded
    // machine one thread can run all its dispatches before the other starts: up to three runs.
    auto with = run_workload(w);
    for(int attempt = 1; attempt < 3 && waited_for_other_thread(with) == 0; ++attempt)
        with = run_workload(w);
    w.replay     = false;
    w.rendezvous = false;
    auto without = run_workload(w);

    EXPECT_FALSE(with.met[0] || with.met[1]) << "two windows of one agent were open at once";
    const auto locked = windows(with);
    EXPECT_EQ(locked.size(), 2 * 8u);
    EXPECT_EQ(count_overlaps(locked, true), 0u);
    EXPECT_EQ(foreign_executions(with), 0u);
    // The two threads did contend: a dispatch of one thread entered CONFIG (before the lock)
    // while a window of the other was open, and had to wait for it.
    EXPECT_GT(waited_for_other_thread(with), 0u)
        << "the threads did not contend for the agent in three runs";
    expect_launches(with, true);
    expect_memory_per_agent(with, true);
    EXPECT_EQ(with.max_live, 1);
    EXPECT_EQ(with.memory, without.memory);
    EXPECT_EQ(with.memory, with.plain);
}

// The drain of one agent waits for that agent's work only: a kernel blocked on agent B (until A's
// replay is over, or 3 s) does not delay a replay on agent A. A drain that waited for B would end
// after B's kernel gave up, or decline with agent_drain_stuck and run once.
TEST_F(multi_agent, drain_of_one_agent_does_not_wait_for_the_other)
{
    auto timeout = drain_timeout_scope{};
    install_hooks();
    replay_fixed(passes);
    auto a  = fake_agent{0x6A11};
    auto b  = fake_agent{0x6A12};
    auto pa = problem{7};
    auto pb = problem{8};
    a.track(pa.a.data(), pa.a.size() * sizeof(uint32_t));
    a.track(pa.b.data(), pa.b.size() * sizeof(uint32_t));
    b.track(pb.a.data(), pb.a.size() * sizeof(uint32_t));
    b.track(pb.b.data(), pb.b.size() * sizeof(uint32_t));

    auto gate_open    = std::atomic<bool>{false};
    auto gate_running = std::atomic<bool>{false};
    auto gate_rec     = launch_record{};
    launch(
        b,
        0x6A1201,
        kernel_gate,
        [&]
        {
            gate_running  = true;
            auto deadline = std::chrono::steady_clock::now() + 3s;
            while(!gate_open.load() && std::chrono::steady_clock::now() < deadline)
                std::this_thread::sleep_for(100us);
        },
        gate_rec);
    while(!gate_running.load())
        std::this_thread::yield();

    auto rec = launch_record{};
    launch(
        a, 0x6A1101, kernel_add, [&] { pa.apply(kernel_add); }, rec);
    const auto a_done      = now_ns();
    const auto gate_closed = !gate_open.load() && gate_rec.signals.load() == 0;
    gate_open              = true;
    gate_rec.wait_signalled();

    // Then a replay on B, behind nothing.
    auto rec_b = launch_record{};
    launch(
        b, 0x6A1201, kernel_add, [&] { pb.apply(kernel_add); }, rec_b);
    rec.wait_signalled();
    rec_b.wait_signalled();

    EXPECT_TRUE(gate_closed) << "agent A's replay completed while agent B was still busy";
    EXPECT_EQ(rec.executions.load(), static_cast<int>(passes)) << "A's replay was declined";
    EXPECT_EQ(rec.drain_agent, a.handle());
    EXPECT_LE(rec.last_exit, a_done);
    EXPECT_EQ(rec_b.executions.load(), static_cast<int>(passes));
    EXPECT_EQ(gate_rec.executions.load(), 1);
    EXPECT_EQ(a.stats().snapshots, 1);
    EXPECT_EQ(b.stats().snapshots, 1);
    auto expect_a = problem{7};
    expect_a.apply(kernel_add);
    EXPECT_EQ(pa.bytes(), expect_a.bytes());
    auto expect_b = problem{8};
    expect_b.apply(kernel_add);
    EXPECT_EQ(pb.bytes(), expect_b.bytes());
}
} // namespace
} // namespace replay_test
