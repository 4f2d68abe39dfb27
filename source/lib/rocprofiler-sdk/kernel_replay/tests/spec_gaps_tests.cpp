// Statements of the spec (kernel_replay_callback_api.md) and REPLAY_RULES.md that the other replay
// test binaries do not check; docs/kernel_replay_spec_coverage.md maps each statement to its test.
//
// Its own tool (configured in main, before the first host-device call):
// - replay:   KERNEL_REPLAY callback tracing, all operations (NULL, 0);
// - counting: callback dispatch counting + external correlation requests (a counter); its
//             dispatch callback picks counter group `pass` (the thread-local pass published at
//             PASS ENTER, as the spec's example does), or group 0 outside a pass;
// - buffered: buffer dispatch counting into a LOSSLESS buffer, group 0 on every pass;
// - device counting: tried in initialize on the host agent (NOT_IMPLEMENTED there).
#include "common/logging.hpp"
#include "dispatch/dispatch.hpp"
#include "sdk_test.hpp"

#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace
{
using payload_t = rocprofiler_callback_tracing_kernel_replay_data_t;

// --- what the tool saw ---------------------------------------------------------------------------

struct counting_choice // the counting service's dispatch callback
{
    uint64_t dispatch_id = 0;
    int64_t  pass        = -1; // published on this thread when it ran
    uint64_t thread      = 0;
};

struct counter_record // the counting service's record callback
{
    uint64_t                      dispatch_id = 0;
    std::vector<uint64_t>         value_ids   = {}; // rocprofiler_counter_record_t::dispatch_id
    int64_t                       pass        = -1;
    uint64_t                      thread      = 0;
    uint64_t                      internal    = 0;
    uint64_t                      external    = 0;
    uint64_t                      start       = 0;
    uint64_t                      end         = 0;
    std::map<std::string, double> values      = {};
};

struct buffered_header
{
    uint64_t dispatch_id = 0;
    uint64_t start       = 0;
    uint64_t end         = 0;
    uint64_t values      = 0;
};

struct observations
{
    std::mutex                   mutex          = {};
    std::vector<std::string>     order          = {}; // "pass-enter 0", "choose 0", "record 0", ...
    std::vector<uint64_t>        config_ids     = {}; // dispatch id at CONFIG ENTER
    std::vector<uint64_t>        config_exits   = {};
    std::vector<uint64_t>        pass_ids       = {}; // dispatch id at every PASS ENTER
    std::vector<uint64_t>        pass_count_ids = {}; // dispatch id given to replay_pass_count
    std::vector<uint64_t>        continues      = {}; // current_pass given to replay_continue
    std::vector<uint64_t>        internals      = {}; // internal correlation id, CONFIG + PASS
    std::vector<counting_choice> choices        = {};
    std::vector<counter_record>  records        = {};
    std::vector<buffered_header> headers        = {};
    std::vector<uint64_t>        value_ids      = {}; // buffered value records' dispatch ids
    std::vector<rocprofiler_kernel_dispatch_info_t> infos = {}; // CONFIG, PASS, counter records

    void clear()
    {
        auto lock = std::lock_guard{mutex};
        order.clear();
        config_ids.clear();
        config_exits.clear();
        pass_ids.clear();
        pass_count_ids.clear();
        continues.clear();
        internals.clear();
        choices.clear();
        records.clear();
        headers.clear();
        value_ids.clear();
        infos.clear();
    }
};

observations&
seen()
{
    static auto* value = new observations{}; // never destroyed: buffer callbacks may run at exit
    return *value;
}

// --- what the tool does (per test) ---------------------------------------------------------------

struct behaviour
{
    uint64_t                                     target     = 0; // kernel handle; others: no replay
    std::function<uint64_t()>                    pass_count = {};
    std::function<int(uint64_t pass)>            continue_fn   = {};
    std::function<void(payload_t&)>              on_pass_enter = {};
    std::function<void(uint64_t pass)>           on_continue   = {};
    std::vector<rocprofiler_counter_config_id_t> groups        = {}; // counting: group per pass
};

behaviour g_behaviour = {};

struct contexts_t
{
    rocprofiler_context_id_t replay   = {};
    rocprofiler_context_id_t counting = {};
    rocprofiler_context_id_t buffered = {};
    rocprofiler_buffer_id_t  buffer   = {};
    rocprofiler_agent_id_t   agent    = {};
};

contexts_t g_ctx = {};

thread_local int64_t this_thread_pass = -1;

uint64_t
os_thread_id()
{
    return static_cast<uint64_t>(::syscall(SYS_gettid));
}

void
note(std::string what)
{
    auto lock = std::lock_guard{seen().mutex};
    seen().order.push_back(std::move(what));
}

uint64_t
tool_pass_count(rocprofiler_kernel_dispatch_info_t info, rocprofiler_user_data_t)
{
    {
        auto lock = std::lock_guard{seen().mutex};
        seen().pass_count_ids.push_back(info.dispatch_id);
    }
    return g_behaviour.pass_count();
}

int
tool_continue(rocprofiler_kernel_dispatch_info_t, uint64_t pass, uint64_t, rocprofiler_user_data_t)
{
    {
        auto lock = std::lock_guard{seen().mutex};
        seen().continues.push_back(pass);
        seen().order.push_back("continue " + std::to_string(pass));
    }
    if(g_behaviour.on_continue) g_behaviour.on_continue(pass);
    return g_behaviour.continue_fn(pass);
}

void
replay_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY) return;
    auto* payload = static_cast<payload_t*>(record.payload);
    if(payload->dispatch_info.kernel_id != g_behaviour.target) return;
    {
        auto lock = std::lock_guard{seen().mutex};
        seen().internals.push_back(record.correlation_id.internal);
        seen().infos.push_back(payload->dispatch_info);
    }
    if(record.operation == ROCPROFILER_KERNEL_REPLAY_CONFIG)
    {
        auto lock = std::lock_guard{seen().mutex};
        if(record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
        {
            seen().config_ids.push_back(payload->dispatch_info.dispatch_id);
            seen().order.push_back("config-enter");
            if(g_behaviour.pass_count) payload->replay_pass_count = tool_pass_count;
            if(g_behaviour.continue_fn) payload->replay_continue = tool_continue;
        }
        else
        {
            seen().config_exits.push_back(payload->dispatch_info.dispatch_id);
            seen().order.push_back("config-exit");
        }
        return;
    }
    if(record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
    {
        {
            auto lock = std::lock_guard{seen().mutex};
            seen().pass_ids.push_back(payload->dispatch_info.dispatch_id);
            seen().order.push_back("pass-enter " + std::to_string(payload->current_pass));
        }
        this_thread_pass = static_cast<int64_t>(payload->current_pass); // the spec's pattern
        if(g_behaviour.on_pass_enter) g_behaviour.on_pass_enter(*payload);
    }
    else
    {
        note("pass-exit " + std::to_string(payload->current_pass));
        this_thread_pass = -1;
    }
}

void
choose_config(rocprofiler_dispatch_counting_service_data_t data,
              rocprofiler_counter_config_id_t*             config,
              rocprofiler_user_data_t*,
              void* args)
{
    if(data.dispatch_info.kernel_id != g_behaviour.target || g_behaviour.groups.empty()) return;
    const bool buffered = args != nullptr;
    {
        auto lock = std::lock_guard{seen().mutex};
        if(!buffered)
        {
            seen().choices.push_back(
                {data.dispatch_info.dispatch_id, this_thread_pass, os_thread_id()});
            seen().order.push_back("choose " + std::to_string(this_thread_pass));
        }
    }
    auto group =
        (buffered || this_thread_pass < 0) ? size_t{0} : static_cast<size_t>(this_thread_pass);
    *config = g_behaviour.groups.at(group % g_behaviour.groups.size());
}

void
record_callback(rocprofiler_dispatch_counting_service_data_t data,
                rocprofiler_counter_record_t*                values,
                size_t                                       count,
                rocprofiler_user_data_t,
                void*)
{
    if(data.dispatch_info.kernel_id != g_behaviour.target) return;
    auto rec        = counter_record{};
    rec.dispatch_id = data.dispatch_info.dispatch_id;
    rec.pass        = this_thread_pass;
    rec.thread      = os_thread_id();
    rec.internal    = data.correlation_id.internal;
    rec.external    = data.correlation_id.external.value;
    rec.start       = data.start_timestamp;
    rec.end         = data.end_timestamp;
    for(size_t i = 0; i < count; ++i)
    {
        rec.values[sdk_test::counter_name(values[i].id)] = values[i].counter_value;
        rec.value_ids.push_back(values[i].dispatch_id);
    }
    auto lock = std::lock_guard{seen().mutex};
    seen().infos.push_back(data.dispatch_info);
    seen().records.push_back(rec);
    seen().order.push_back("record " + std::to_string(this_thread_pass));
}

// The buffered context's counter records, for the target kernel's dispatches.
const auto* const buffered_records = new sdk_test::counter_sink{
    [](const rocprofiler_dispatch_counting_service_record_t& h)
    {
        if(h.dispatch_info.kernel_id != g_behaviour.target) return;
        auto lock = std::lock_guard{seen().mutex};
        seen().headers.push_back(
            {h.dispatch_info.dispatch_id, h.start_timestamp, h.end_timestamp, h.num_records});
    },
    [](const rocprofiler_counter_record_t& v)
    {
        auto lock = std::lock_guard{seen().mutex};
        seen().value_ids.push_back(v.dispatch_id);
    }}; // never destroyed: exit-time finalization delivers

std::atomic<uint64_t> external_counter = 5000;

void
initialize_tool()
{
    auto& c  = g_ctx;
    c.agent  = sdk_test::gpu_agent();
    c.replay = sdk_test::callback_tracing_context(ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY,
                                                  replay_callback);

    c.counting = sdk_test::create_context();
    SDK_TEST_CHECK(rocprofiler_configure_callback_dispatch_counting_service(
        c.counting, choose_config, nullptr, record_callback, nullptr));
    sdk_test::request_external_ids(c.counting, &external_counter);

    c.buffered = sdk_test::create_context();
    c.buffer   = sdk_test::create_counter_buffer(c.buffered, 8192, 4096, buffered_records);
    static int buffered_marker = 1; // non-NULL args: the buffered service's choice
    SDK_TEST_CHECK(rocprofiler_configure_buffer_dispatch_counting_service(
        c.buffered, c.buffer, choose_config, &buffered_marker));

    sdk_test::start({c.replay, c.counting, c.buffered});
}

// --- the device ------------------------------------------------------------------------------

struct add_args
{
    int32_t*       a;
    const int32_t* b;
    uint64_t       n;
};

void
add_kernel(const rocprofiler_host_work_item_t* item, void* raw)
{
    auto* args = static_cast<add_args*>(raw);
    if(item->global_linear_id < args->n)
        args->a[item->global_linear_id] += args->b[item->global_linear_id];
}

struct device_t
{
    rocprofiler_host_kernel_t add   = {};
    rocprofiler_host_queue_t  queue = {};
};

const device_t&
device()
{
    static const device_t value = []
    {
        auto d = device_t{};
        if(rocprofiler_host_register_kernel("spec_gaps_add", add_kernel, 0, 0, &d.add) !=
               ROCPROFILER_HOST_STATUS_SUCCESS ||
           rocprofiler_host_create_queue(&d.queue) != ROCPROFILER_HOST_STATUS_SUCCESS)
            std::abort();
        return d;
    }();
    return value;
}

// a[i] += b[i] (not idempotent), n work-items in workgroups of 64.
struct add_problem
{
    uint64_t n    = 0;
    int32_t* a    = nullptr;
    int32_t* b    = nullptr;
    add_args args = {};

    explicit add_problem(uint64_t count = 1024)
        : n{count}
    {
        void* pa = nullptr;
        void* pb = nullptr;
        EXPECT_EQ(rocprofiler_host_malloc(n * sizeof(int32_t), &pa),
                  ROCPROFILER_HOST_STATUS_SUCCESS);
        EXPECT_EQ(rocprofiler_host_malloc(n * sizeof(int32_t), &pb),
                  ROCPROFILER_HOST_STATUS_SUCCESS);
        a    = static_cast<int32_t*>(pa);
        b    = static_cast<int32_t*>(pb);
        args = {a, b, n};
        for(uint64_t i = 0; i < n; ++i)
        {
            a[i] = static_cast<int32_t>(i);
            b[i] = static_cast<int32_t>(2 * i + 5);
        }
    }
    ~add_problem()
    {
        rocprofiler_host_free(a);
        rocprofiler_host_free(b);
    }
    add_problem(const add_problem&)            = delete;
    add_problem& operator=(const add_problem&) = delete;

    bool initial() const
    {
        for(uint64_t i = 0; i < n; ++i)
            if(a[i] != static_cast<int32_t>(i)) return false;
        return true;
    }
    bool one_run() const
    {
        for(uint64_t i = 0; i < n; ++i)
            if(a[i] != static_cast<int32_t>(i + 2 * i + 5)) return false;
        return true;
    }

    // Dispatches with a completion signal starting at 1; checks it ends at exactly 0.
    void run()
    {
        auto sig = rocprofiler_host_signal_t{};
        ASSERT_EQ(rocprofiler_host_create_signal(1, &sig), ROCPROFILER_HOST_STATUS_SUCCESS);
        auto params              = rocprofiler_host_dispatch_params_t{};
        params.size              = sizeof(params);
        params.kernel            = device().add;
        params.grid              = {static_cast<uint32_t>(n / 64), 1, 1};
        params.workgroup_size    = {64, 1, 1};
        params.args              = &args;
        params.args_size         = sizeof(args);
        params.completion_signal = sig;
        ASSERT_EQ(rocprofiler_host_dispatch(device().queue, &params),
                  ROCPROFILER_HOST_STATUS_SUCCESS);
        EXPECT_EQ(
            rocprofiler_host_signal_wait(
                sig, ROCPROFILER_HOST_SIGNAL_CONDITION_LT, 1, 60ULL * 1000 * 1000 * 1000, nullptr),
            ROCPROFILER_HOST_STATUS_SUCCESS);
        EXPECT_EQ(rocprofiler_host_queue_synchronize(device().queue),
                  ROCPROFILER_HOST_STATUS_SUCCESS);
        auto value = int64_t{-99};
        EXPECT_EQ(rocprofiler_host_signal_load(sig, &value), ROCPROFILER_HOST_STATUS_SUCCESS);
        EXPECT_EQ(value, 0) << "the application's completion fires exactly once";
        rocprofiler_host_destroy_signal(sig);
    }
};

// --- counters --------------------------------------------------------------------------------

rocprofiler_counter_config_id_t
make_config(const std::vector<std::string>& names)
{
    return sdk_test::make_config(g_ctx.agent, names);
}

// Pass i collects group i: {WORK_ITEMS, DURATION_NS}, {WORKGROUPS, DURATION_NS}, {DURATION_NS}.
const std::vector<std::set<std::string>> group_names = {
    {"WORK_ITEMS", "DURATION_NS"}, {"WORKGROUPS", "DURATION_NS"}, {"DURATION_NS"}};

std::vector<rocprofiler_counter_config_id_t>
three_groups()
{
    auto out = std::vector<rocprofiler_counter_config_id_t>{};
    for(const auto& g : group_names)
        out.push_back(make_config({g.begin(), g.end()}));
    return out;
}

void
flush()
{
    EXPECT_EQ(rocprofiler_flush_buffer(g_ctx.buffer), ROCPROFILER_STATUS_SUCCESS);
}

class spec_gaps : public ::testing::Test
{
protected:
    void SetUp() override
    {
        g_behaviour = behaviour{};
        seen().clear();
        unsetenv("ROCPROFILER_LOG_LEVEL"); // the default level (warning) for the warning test
        rocprofiler::common::log::reset_level_from_environment();
        ASSERT_EQ(sdk_test::configure_tool("kernel-replay-spec-gaps", initialize_tool),
                  ROCPROFILER_STATUS_SUCCESS);
        g_behaviour.target = device().add.handle;
    }
    void TearDown() override
    {
        EXPECT_EQ(rocprofiler_host_device_synchronize(), ROCPROFILER_HOST_STATUS_SUCCESS);
        flush();
        g_behaviour = behaviour{};
        seen().clear();
    }
};

void
fixed(uint64_t n)
{
    g_behaviour.pass_count = [n] { return n; };
}

int
is_active(rocprofiler_context_id_t id)
{
    auto status = -1;
    EXPECT_EQ(rocprofiler_context_is_active(id, &status), ROCPROFILER_STATUS_SUCCESS);
    return status;
}

// --- subscription ------------------------------------------------------------------------------

// Spec: "Subscribing to all operations (passing NULL, 0 for the operations array) satisfies this."
TEST_F(spec_gaps, null_zero_subscription_activates_replay)
{
    auto p = add_problem{};
    fixed(2);
    p.run();
    auto lock = std::lock_guard{seen().mutex};
    EXPECT_EQ(seen().config_ids.size(), 1u) << "the dispatch is a candidate: CONFIG fired";
    EXPECT_EQ(seen().pass_ids.size(), 2u) << "and it was replayed";
}

// --- counter records under replay ------------------------------------------------------------

// Spec: "every record produced by any pass carry the same dispatch_info.dispatch_id, and the
// dispatch counter is bumped exactly once" - for dispatch counting records, callback and buffer.
TEST_F(spec_gaps, counter_records_of_every_pass_carry_the_one_dispatch_id)
{
    auto p             = add_problem{};
    g_behaviour.groups = three_groups();
    fixed(3);
    const auto before = rocprofiler::dispatch::dispatch_count();
    p.run();
    flush();
    EXPECT_EQ(rocprofiler::dispatch::dispatch_count(), before + 1) << "the counter moves once";
    const auto id = before + 1;
    EXPECT_TRUE(p.one_run());

    auto lock = std::lock_guard{seen().mutex};
    ASSERT_EQ(seen().config_ids, std::vector<uint64_t>{id});
    ASSERT_EQ(seen().pass_count_ids, std::vector<uint64_t>{id});
    ASSERT_EQ(seen().pass_ids, (std::vector<uint64_t>{id, id, id}));
    ASSERT_EQ(seen().choices.size(), 3u) << "the counting dispatch callback runs once per pass";
    for(const auto& c : seen().choices)
        EXPECT_EQ(c.dispatch_id, id);
    ASSERT_EQ(seen().records.size(), 3u) << "one counter record per pass";
    for(const auto& r : seen().records)
    {
        EXPECT_EQ(r.dispatch_id, id);
        ASSERT_FALSE(r.value_ids.empty());
        for(auto v : r.value_ids)
            EXPECT_EQ(v, id) << "rocprofiler_counter_record_t::dispatch_id";
    }
    ASSERT_EQ(seen().headers.size(), 3u) << "buffered counting: one header per pass";
    for(const auto& h : seen().headers)
        EXPECT_EQ(h.dispatch_id, id);
    ASSERT_EQ(seen().value_ids.size(), 3u * group_names[0].size());
    for(auto v : seen().value_ids)
        EXPECT_EQ(v, id);
}

// Spec: "Each pass produces its own kernel start/end timestamps in dispatch tracing and counter
// records"; "Record callbacks therefore arrive once per pass with identical correlation and
// dispatch ids but different start/end timestamps".
TEST_F(spec_gaps, each_pass_has_its_own_counter_timestamps)
{
    auto p             = add_problem{};
    g_behaviour.groups = three_groups();
    fixed(3);
    p.run();
    flush();
    auto lock = std::lock_guard{seen().mutex};
    ASSERT_EQ(seen().records.size(), 3u);
    ASSERT_EQ(seen().headers.size(), 3u);
    ASSERT_FALSE(seen().internals.empty());
    const auto internal = seen().internals.front();
    for(auto v : seen().internals)
        EXPECT_EQ(v, internal) << "CONFIG and PASS carry one internal correlation id";
    for(size_t i = 0; i < 3; ++i)
    {
        const auto& r = seen().records[i];
        EXPECT_EQ(r.internal, internal);
        EXPECT_GT(r.start, 0u);
        EXPECT_LE(r.start, r.end);
        ASSERT_EQ(r.values.count("DURATION_NS"), 1u);
        EXPECT_EQ(r.values.at("DURATION_NS"), static_cast<double>(r.end - r.start))
            << "the record's timestamps are the timestamps of its pass's execution";
        EXPECT_EQ(seen().headers[i].start, r.start) << "the buffered record of the same pass";
        EXPECT_EQ(seen().headers[i].end, r.end);
        if(i > 0)
        {
            EXPECT_GT(r.start, seen().records[i - 1].end)
                << "pass " << i << " ran after pass " << i - 1;
            EXPECT_NE(seen().headers[i].start, seen().headers[i - 1].start);
        }
    }
}

// REPLAY_RULES 3: "External correlation ids are requested per submit (they may differ)" - here
// for the dispatch counting service, whose context requests external ids.
TEST_F(spec_gaps, external_correlation_id_is_requested_per_submit_for_counter_records)
{
    auto p             = add_problem{};
    g_behaviour.groups = three_groups();
    fixed(3);
    const auto before = external_counter.load();
    p.run();
    auto lock      = std::lock_guard{seen().mutex};
    auto externals = std::set<uint64_t>{};
    auto internals = std::set<uint64_t>{};
    ASSERT_EQ(seen().records.size(), 3u);
    for(const auto& r : seen().records)
    {
        externals.insert(r.external);
        internals.insert(r.internal);
        EXPECT_GT(r.external, before);
    }
    EXPECT_EQ(externals.size(), 3u) << "a new external id for every pass's submit";
    EXPECT_EQ(internals.size(), 1u) << "one internal id for the whole sequence";
    EXPECT_EQ(external_counter.load(), before + 3) << "requested once per submit";
}

// Spec: the thread-local pass published at PASS ENTER is what the counter dispatch callback
// sees; it is cleared at PASS EXIT so ordinary dispatches never observe a stale value. Pass i
// maps to group i.
TEST_F(spec_gaps, pass_published_at_pass_enter_selects_the_counter_group)
{
    auto p             = add_problem{};
    g_behaviour.groups = three_groups();
    fixed(3);
    p.run();
    const auto me = os_thread_id();
    {
        auto lock = std::lock_guard{seen().mutex};
        ASSERT_EQ(seen().choices.size(), 3u);
        ASSERT_EQ(seen().records.size(), 3u);
        for(size_t i = 0; i < 3; ++i)
        {
            EXPECT_EQ(seen().choices[i].pass, static_cast<int64_t>(i));
            EXPECT_EQ(seen().choices[i].thread, me) << "on the submitting thread";
            EXPECT_EQ(seen().records[i].pass, static_cast<int64_t>(i)) << "within the pass";
            EXPECT_EQ(seen().records[i].thread, me);
            auto names = std::set<std::string>{};
            for(const auto& [name, value] : seen().records[i].values)
                names.insert(name);
            EXPECT_EQ(names, group_names[i]) << "pass " << i << " holds group " << i;
        }
        auto expected = std::vector<std::string>{"config-enter",
                                                 "config-exit",
                                                 "pass-enter 0",
                                                 "choose 0",
                                                 "record 0",
                                                 "pass-exit 0",
                                                 "pass-enter 1",
                                                 "choose 1",
                                                 "record 1",
                                                 "pass-exit 1",
                                                 "pass-enter 2",
                                                 "choose 2",
                                                 "record 2",
                                                 "pass-exit 2"};
        EXPECT_EQ(seen().order, expected);
    }

    // An ordinary (not replayed) dispatch afterwards sees no pass.
    seen().clear();
    g_behaviour.pass_count = {};
    p.run();
    auto lock = std::lock_guard{seen().mutex};
    ASSERT_EQ(seen().choices.size(), 1u);
    EXPECT_EQ(seen().choices[0].pass, -1) << "cleared at PASS EXIT";
    ASSERT_EQ(seen().records.size(), 1u);
    EXPECT_EQ(seen().records[0].pass, -1);
}

// REPLAY_RULES "Localized context control": dispatch counter collection consults the override
// map at dispatch time (callback and buffer form); a local stop never changes global state.
TEST_F(spec_gaps, dispatch_counting_honours_the_local_mask)
{
    auto p             = add_problem{};
    g_behaviour.groups = three_groups();
    fixed(3);
    auto active               = std::vector<int>{};
    g_behaviour.on_pass_enter = [&active](payload_t& payload)
    {
        if(payload.current_pass == 0)
        {
            EXPECT_EQ(payload.replay_stop_context(g_ctx.buffered), ROCPROFILER_STATUS_SUCCESS);
        }
        if(payload.current_pass == 1)
        {
            EXPECT_EQ(payload.replay_stop_context(g_ctx.counting), ROCPROFILER_STATUS_SUCCESS);
        }
        if(payload.current_pass == 2)
        {
            EXPECT_EQ(payload.replay_start_context(g_ctx.counting), ROCPROFILER_STATUS_SUCCESS);
        }
        active.push_back(is_active(g_ctx.counting));
        active.push_back(is_active(g_ctx.buffered));
    };
    p.run();
    flush();
    EXPECT_TRUE(p.one_run());
    EXPECT_EQ(active, (std::vector<int>(6, 1))) << "rocprofiler_context_is_active does not change";
    {
        auto lock   = std::lock_guard{seen().mutex};
        auto passes = std::vector<int64_t>{};
        for(const auto& r : seen().records)
            passes.push_back(r.pass);
        EXPECT_EQ(passes, (std::vector<int64_t>{0, 2}))
            << "masked on pass 1 only (stop, then start)";
        auto chosen = std::vector<int64_t>{};
        for(const auto& c : seen().choices)
            chosen.push_back(c.pass);
        EXPECT_EQ(chosen, (std::vector<int64_t>{0, 2}))
            << "a masked context is not asked for a config";
        EXPECT_TRUE(seen().headers.empty()) << "buffered counting stopped at pass 0, sticky";
    }

    // Scoped to the loop: the next dispatch is counted by both again.
    seen().clear();
    g_behaviour.pass_count    = {};
    g_behaviour.on_pass_enter = {};
    p.run();
    flush();
    auto lock = std::lock_guard{seen().mutex};
    EXPECT_EQ(seen().records.size(), 1u);
    EXPECT_EQ(seen().headers.size(), 1u);
}

// docs/kernel_replay.md: the replay context's own PASS callbacks ignore the mask.
TEST_F(spec_gaps, stopping_the_replay_context_locally_does_not_stop_the_loop)
{
    auto p = add_problem{};
    fixed(3);
    g_behaviour.on_pass_enter = [](payload_t& payload)
    {
        if(payload.current_pass == 0)
        {
            EXPECT_EQ(payload.replay_stop_context(g_ctx.replay), ROCPROFILER_STATUS_SUCCESS);
        }
    };
    p.run();
    EXPECT_TRUE(p.one_run());
    auto lock = std::lock_guard{seen().mutex};
    EXPECT_EQ(seen().pass_ids.size(), 3u);
    auto exits = std::count_if(seen().order.begin(),
                               seen().order.end(),
                               [](const std::string& s) { return s.rfind("pass-exit", 0) == 0; });
    EXPECT_EQ(exits, 3);
}

// REPLAY_RULES, the terms table, host column: "private_segment_size / group_segment_size: as
// declared by the kernel"; "workgroup_size / grid_size: as submitted" (grid_size in work-items).
// The same dispatch_info in CONFIG, every PASS and every pass's counter record.
struct sized_args
{
    int32_t* out;
};

void
sized_kernel(const rocprofiler_host_work_item_t* item, void* raw)
{
    static_cast<sized_args*>(raw)->out[item->global_linear_id] = 1;
}

TEST_F(spec_gaps, dispatch_info_is_the_kernels_and_the_submits_on_every_callback)
{
    static const auto kernel = []
    {
        auto k = rocprofiler_host_kernel_t{};
        EXPECT_EQ(rocprofiler_host_register_kernel("spec_gaps_sized", sized_kernel, 24, 512, &k),
                  ROCPROFILER_HOST_STATUS_SUCCESS);
        return k;
    }();
    g_behaviour.target = kernel.handle;
    g_behaviour.groups = three_groups();
    fixed(2);
    void* mem = nullptr;
    ASSERT_EQ(rocprofiler_host_malloc(512 * sizeof(int32_t), &mem),
              ROCPROFILER_HOST_STATUS_SUCCESS);
    auto args             = sized_args{static_cast<int32_t*>(mem)};
    auto params           = rocprofiler_host_dispatch_params_t{};
    params.size           = sizeof(params);
    params.kernel         = kernel;
    params.grid           = {4, 2, 1};
    params.workgroup_size = {16, 4, 1};
    params.args           = &args;
    params.args_size      = sizeof(args);
    ASSERT_EQ(rocprofiler_host_dispatch(device().queue, &params), ROCPROFILER_HOST_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_host_queue_synchronize(device().queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    rocprofiler_host_free(mem);
    auto lock = std::lock_guard{seen().mutex};
    // CONFIG ENTER + EXIT, 2 x (PASS ENTER + EXIT), 2 counter records.
    ASSERT_EQ(seen().infos.size(), 2u + 4u + 2u);
    for(const auto& info : seen().infos)
    {
        EXPECT_EQ(info.kernel_id, kernel.handle);
        EXPECT_EQ(info.queue_id.handle, device().queue.handle);
        EXPECT_EQ(info.agent_id.handle, g_ctx.agent.handle);
        EXPECT_EQ(info.private_segment_size, 24u);
        EXPECT_EQ(info.group_segment_size, 512u);
        EXPECT_EQ(info.workgroup_size.x, 16u);
        EXPECT_EQ(info.workgroup_size.y, 4u);
        EXPECT_EQ(info.workgroup_size.z, 1u);
        EXPECT_EQ(info.grid_size.x, 64u) << "work-items: 4 workgroups of 16";
        EXPECT_EQ(info.grid_size.y, 8u);
        EXPECT_EQ(info.grid_size.z, 1u);
    }
}

// --- the loop --------------------------------------------------------------------------------

// Spec: "replay_continue is consulted after a pass completes and after that pass's PHASE_EXIT";
// "Because the break happens before restore(), the last executed pass leaves device memory in
// the state the application expects"; a fixed loop consults it for passes 0..N-2 only.
TEST_F(spec_gaps, continue_runs_after_pass_exit_and_before_the_restore)
{
    auto p = add_problem{};
    fixed(4);
    g_behaviour.continue_fn   = [](uint64_t) { return 1; };
    auto at_continue          = std::vector<bool>{};
    auto at_enter             = std::vector<bool>{};
    g_behaviour.on_continue   = [&](uint64_t) { at_continue.push_back(p.one_run()); };
    g_behaviour.on_pass_enter = [&](payload_t&) { at_enter.push_back(p.initial()); };
    p.run();
    EXPECT_TRUE(p.one_run()) << "no restore after the last executed pass";
    EXPECT_EQ(at_continue, (std::vector<bool>{true, true, true}))
        << "replay_continue sees the pass's result: memory is not restored yet";
    EXPECT_EQ(at_enter, (std::vector<bool>{true, true, true, true})) << "restored before each pass";
    auto lock     = std::lock_guard{seen().mutex};
    auto expected = std::vector<std::string>{"config-enter",
                                             "config-exit",
                                             "pass-enter 0",
                                             "pass-exit 0",
                                             "continue 0",
                                             "pass-enter 1",
                                             "pass-exit 1",
                                             "continue 1",
                                             "pass-enter 2",
                                             "pass-exit 2",
                                             "continue 2",
                                             "pass-enter 3",
                                             "pass-exit 3"};
    EXPECT_EQ(seen().order, expected) << "never consulted after the final pass of a fixed loop";
}

// The same for an indefinite loop, which does consult replay_continue after the pass that ends
// it: that pass's result is what the application keeps.
TEST_F(spec_gaps, indefinite_loop_ends_on_the_last_pass_without_a_restore)
{
    auto p = add_problem{};
    fixed(0);
    g_behaviour.continue_fn = [](uint64_t pass) { return pass < 2 ? 1 : 0; };
    auto at_continue        = std::vector<bool>{};
    g_behaviour.on_continue = [&](uint64_t) { at_continue.push_back(p.one_run()); };
    p.run();
    EXPECT_TRUE(p.one_run());
    EXPECT_EQ(at_continue, (std::vector<bool>{true, true, true}));
    auto lock     = std::lock_guard{seen().mutex};
    auto expected = std::vector<std::string>{"config-enter",
                                             "config-exit",
                                             "pass-enter 0",
                                             "pass-exit 0",
                                             "continue 0",
                                             "pass-enter 1",
                                             "pass-exit 1",
                                             "continue 1",
                                             "pass-enter 2",
                                             "pass-exit 2",
                                             "continue 2"};
    EXPECT_EQ(seen().order, expected);
}

// Spec "Terminating an indefinite loop": "there is no pass cap, no wall-clock budget, and no
// diagnostic for a loop that runs long". 200 passes are not cut short.
TEST_F(spec_gaps, indefinite_loop_has_no_pass_cap)
{
    constexpr uint64_t passes = 200;
    auto               p      = add_problem{256};
    fixed(0);
    g_behaviour.continue_fn = [](uint64_t pass) { return pass + 1 < passes ? 1 : 0; };
    ::testing::internal::CaptureStderr();
    p.run();
    auto err = ::testing::internal::GetCapturedStderr();
    EXPECT_TRUE(p.one_run());
    EXPECT_EQ(err.find("[warning]"), std::string::npos) << "no diagnostic for a long loop\n" << err;
    auto lock = std::lock_guard{seen().mutex};
    EXPECT_EQ(seen().pass_ids.size(), passes);
    ASSERT_EQ(seen().continues.size(), passes);
    EXPECT_EQ(seen().continues.back(), passes - 1);
}

// Spec table: "returns 0 | NULL | Rejected: the SDK warns and the dispatch is not replayed."
// At the default log level (warning): nothing else in this binary declines for this reason, so
// this test's warning is the process's first for it (also in a whole-binary run).
TEST_F(spec_gaps, zero_without_continue_warns_at_the_default_level)
{
    auto p = add_problem{};
    fixed(0); // no replay_continue
    ::testing::internal::CaptureStderr();
    p.run();
    auto err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("[warning] [kernel-replay]"), std::string::npos) << err;
    EXPECT_NE(err.find("reason=indefinite_without_continue"), std::string::npos) << err;
    EXPECT_TRUE(p.one_run());
    auto lock = std::lock_guard{seen().mutex};
    EXPECT_EQ(seen().config_exits.size(), 1u);
    EXPECT_TRUE(seen().pass_ids.empty()) << "not replayed";
}
} // namespace
