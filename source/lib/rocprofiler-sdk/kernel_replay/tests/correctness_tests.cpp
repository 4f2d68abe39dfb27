// The application's memory under replay equals its memory without, on the host device, for the
// program shapes that broke it: pointers held in memory (every holder size, one to three levels,
// pointer arrays, in-place updates), kernels that dispatch kernels, and arguments pointing into
// memory the device's allocator did not hand out. Label `reliability`.
//
// The random-layout test runs ROCPROFILER_TEST_LAYOUTS layouts (default 40) from the seed
// ROCPROFILER_TEST_LAYOUT_SEED (default fixed, so CI is reproducible); a longer run:
//   ROCPROFILER_TEST_LAYOUTS=2000 ROCPROFILER_TEST_LAYOUT_SEED=$RANDOM
//   kernel-replay-correctness-tests
// A failure names the seed, the layout and the first differing byte.
#include "replay_env.hpp"
#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/experimental/kernel_replay_outcome.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include "sdk_test.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace
{
uint64_t planned_passes = 2;

uint64_t
pass_count(rocprofiler_kernel_dispatch_info_t, rocprofiler_user_data_t)
{
    return planned_passes;
}

void
replay_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.phase != ROCPROFILER_CALLBACK_PHASE_ENTER ||
       record.operation != ROCPROFILER_KERNEL_REPLAY_CONFIG)
        return;
    static_cast<rocprofiler_callback_tracing_kernel_replay_data_t*>(record.payload)
        ->replay_pass_count = pass_count;
}

struct outcome_copy
{
    rocprofiler_kernel_replay_outcome_kind_t kind       = {};
    std::string                              reason     = {};
    uint64_t                                 passes_run = 0;
};

std::mutex                mutex    = {};
std::vector<outcome_copy> outcomes = {};

void
record_outcome(const rocprofiler_kernel_replay_outcome_t* o, void*)
{
    auto lock = std::lock_guard{mutex};
    outcomes.push_back(outcome_copy{o->kind, o->reason, o->passes_run});
}

std::vector<outcome_copy>
take_outcomes()
{
    auto lock = std::lock_guard{mutex};
    auto out  = std::move(outcomes);
    outcomes.clear();
    return out;
}

uint64_t
env_or(const char* name, uint64_t fallback)
{
    const char* value = std::getenv(name);
    return value != nullptr && *value != '\0' ? std::strtoull(value, nullptr, 0) : fallback;
}

class replay_correctness : public sdk_test::tool_fixture
{
protected:
    replay_correctness()
        : tool_fixture{"replay-correctness-test",
                       []
                       {
                           sdk_test::start({sdk_test::callback_tracing_context(
                               ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY, replay_callback)});
                       }}
    {
    }
    void SetUp() override
    {
        planned_passes = 2;
        take_outcomes();
        tool_fixture::SetUp();
        ASSERT_EQ(rocprofiler_set_kernel_replay_outcome_callback(record_outcome, nullptr),
                  ROCPROFILER_STATUS_SUCCESS);
        ASSERT_EQ(rocprofiler_host_create_queue(&m_queue), ROCPROFILER_HOST_STATUS_SUCCESS);
        ASSERT_EQ(rocprofiler_host_create_queue(&m_other), ROCPROFILER_HOST_STATUS_SUCCESS);
    }
    void TearDown() override
    {
        rocprofiler_host_destroy_queue(m_queue);
        rocprofiler_host_destroy_queue(m_other);
        rocprofiler_set_kernel_replay_outcome_callback(nullptr, nullptr);
        replay_test::unset_replay_env("ROCPROFILER_REPLAY_VERIFY");
        replay_test::unset_replay_env("ROCPROFILER_REPLAY_ALLOW_HOST_MEMORY");
    }

    void run(rocprofiler_host_kernel_t kernel, const void* args, size_t size, uint32_t items)
    {
        sdk_test::dispatch_and_wait(
            m_queue, {kernel, args, size, (items + 63) / 64, items < 64 ? items : 64});
    }

    rocprofiler_host_queue_t m_queue = {};
    rocprofiler_host_queue_t m_other = {};
};

void*
device_alloc(size_t bytes)
{
    void* ptr = nullptr;
    EXPECT_EQ(rocprofiler_host_malloc(bytes, &ptr), ROCPROFILER_HOST_STATUS_SUCCESS);
    if(ptr != nullptr) std::memset(ptr, 0, bytes);
    return ptr;
}

// --- random pointer layouts ----------------------------------------------------------------------

// The data a work-item reaches: root -> holder(s) -> data arrays of `n` uint32_t.
struct layout_args
{
    uint64_t root;      // the argument's pointer
    uint32_t depth;     // levels of pointers to the data: 1, root is the data array
    uint32_t fanout;    // pointers side by side in the last holder (depth > 1)
    uint32_t n;         // elements of each data array
    uint32_t op;        // 0: d += 1 on each; 1: d = 3d + 1 on each; 2: first += last + 1
    uint32_t offset[2]; // byte offset of the pointer(s) in the holder of each level
};

uint64_t
load_pointer(uint64_t at)
{
    auto value = uint64_t{0};
    std::memcpy(&value, reinterpret_cast<const void*>(at), sizeof(value));
    return value;
}

void
layout_kernel(const rocprofiler_host_work_item_t* item, void* raw)
{
    const auto* a = static_cast<const layout_args*>(raw);
    const auto  i = item->global_linear_id;
    if(i >= a->n) return;
    auto p = a->root;
    for(uint32_t level = 0; level + 2 < a->depth; ++level)
        p = load_pointer(p + a->offset[level]);
    uint32_t* data[8] = {};
    if(a->depth == 1)
        data[0] = reinterpret_cast<uint32_t*>(p);
    else
        for(uint32_t k = 0; k < a->fanout; ++k)
            data[k] =
                reinterpret_cast<uint32_t*>(load_pointer(p + a->offset[a->depth - 2] + 8 * k));
    const auto count = a->depth == 1 ? 1u : a->fanout;
    switch(a->op)
    {
    case 0:
        for(uint32_t k = 0; k < count; ++k)
            data[k][i] += 1;
        break;
    case 1:
        for(uint32_t k = 0; k < count; ++k)
            data[k][i] = 3 * data[k][i] + 1;
        break;
    default:
        data[0][i] += data[count - 1][i] + 1;
        break;
    }
}

struct allocation
{
    std::byte* ptr   = nullptr;
    size_t     bytes = 0;
};

// One layout, allocated in host-device memory.
struct layout
{
    layout_args             args        = {};
    std::vector<allocation> allocations = {};
    std::string             description = {};

    ~layout()
    {
        for(auto& a : allocations)
            rocprofiler_host_free(a.ptr);
    }
    std::vector<std::vector<std::byte>> contents() const
    {
        auto out = std::vector<std::vector<std::byte>>{};
        for(const auto& a : allocations)
            out.emplace_back(a.ptr, a.ptr + a.bytes);
        return out;
    }
    void restore(const std::vector<std::vector<std::byte>>& saved) const
    {
        for(size_t k = 0; k < allocations.size(); ++k)
            std::memcpy(allocations[k].ptr, saved[k].data(), saved[k].size());
    }
};

std::byte*
add_allocation(layout& l, size_t bytes)
{
    auto* ptr = static_cast<std::byte*>(device_alloc(bytes));
    l.allocations.push_back({ptr, bytes});
    return ptr;
}

void
make_layout(std::mt19937_64& rng, layout& l)
{
    auto pick = [&rng](uint64_t lo, uint64_t hi) {
        return std::uniform_int_distribution<uint64_t>{lo, hi}(rng);
    };
    auto&      a     = l.args;
    const auto depth = static_cast<uint32_t>(pick(1, 3));
    a.depth          = depth;
    a.fanout         = depth == 1 ? 1 : static_cast<uint32_t>(pick(1, 4));
    a.n              = static_cast<uint32_t>(pick(1, 200));
    a.op             = static_cast<uint32_t>(pick(0, 2));
    // Bytes after the pointer(s) of a holder: none (the pointer is the last word), a few (odd
    // sizes), a word, or a page (more than the scan reads).
    const uint64_t tails[] = {0, 0, 0, 1, 4, 8, 64, 4096};
    auto           desc    = std::ostringstream{};
    desc << "depth " << depth << ", fanout " << a.fanout << ", n " << a.n << ", op " << a.op;

    auto data = std::vector<std::byte*>{};
    for(uint64_t k = 0, arrays = pick(1, a.fanout); k < arrays; ++k)
    {
        auto* d = add_allocation(l, a.n * sizeof(uint32_t));
        for(uint32_t i = 0; i < a.n; ++i)
        {
            const auto v = static_cast<uint32_t>(pick(0, 1000));
            std::memcpy(d + i * sizeof(uint32_t), &v, sizeof(v));
        }
        data.push_back(d);
    }
    if(depth == 1)
    {
        a.root        = reinterpret_cast<uint64_t>(data[0]);
        l.description = desc.str();
        return;
    }
    // From the data up: the last holder holds `fanout` pointers to the arrays (repeats allowed).
    auto below = uint64_t{0};
    for(uint32_t level = depth - 1; level >= 1; --level)
    {
        const bool     last  = level == depth - 1;
        const uint64_t words = last ? a.fanout : 1;
        // Half of the holders start with their pointer(s), so that with no tail the holder is
        // exactly its pointers (an 8-byte allocation holding one pointer).
        const uint64_t at    = pick(0, 1) == 0 ? 0 : 8 * pick(1, 7);
        const uint64_t tail  = tails[pick(0, std::size(tails) - 1)];
        const uint64_t bytes = at + 8 * words + tail;
        auto*          h     = add_allocation(l, bytes);
        for(uint64_t k = 0; k < words; ++k)
        {
            const auto target =
                last ? reinterpret_cast<uint64_t>(data[pick(0, data.size() - 1)]) : below;
            std::memcpy(h + at + 8 * k, &target, sizeof(target));
        }
        a.offset[level - 1] = static_cast<uint32_t>(at);
        desc << "; holder " << level << ": " << bytes << " bytes, pointer at " << at;
        below = reinterpret_cast<uint64_t>(h);
    }
    a.root        = below;
    l.description = desc.str();
}

// (ROCPROFILER_REPLAY_VERIFY, passes)
class replay_layouts : public replay_correctness,
                       public ::testing::WithParamInterface<std::tuple<const char*, uint64_t>>
{
};

TEST_P(replay_layouts, the_application_memory_equals_a_run_without_replay)
{
    const auto [verify, passes] = GetParam();
    replay_test::set_replay_env("ROCPROFILER_REPLAY_VERIFY", verify);
    const auto    seed    = env_or("ROCPROFILER_TEST_LAYOUT_SEED", 20261205);
    const auto    layouts = env_or("ROCPROFILER_TEST_LAYOUTS", 40);
    const auto    kernel  = sdk_test::register_kernel("layout_kernel", layout_kernel);
    auto          rng     = std::mt19937_64{seed};
    constexpr int runs    = 2; // the second dispatch of a shape runs on a learned prediction
    for(uint64_t index = 0; index < layouts; ++index)
    {
        auto l = layout{};
        make_layout(rng, l);
        SCOPED_TRACE("seed " + std::to_string(seed) + ", layout " + std::to_string(index) + ": " +
                     l.description);
        const auto initial = l.contents();

        planned_passes = 1;
        for(int r = 0; r < runs; ++r)
            run(kernel, &l.args, sizeof(l.args), l.args.n);
        const auto alone = l.contents();
        l.restore(initial);
        take_outcomes();

        planned_passes = passes;
        for(int r = 0; r < runs; ++r)
            run(kernel, &l.args, sizeof(l.args), l.args.n);
        const auto replayed = l.contents();

        // Every dispatch was replayed (or ended early with a reason): none declined.
        for(const auto& o : take_outcomes())
            ASSERT_NE(o.kind, ROCPROFILER_KERNEL_REPLAY_OUTCOME_DECLINED) << o.reason;
        for(size_t k = 0; k < alone.size(); ++k)
        {
            if(alone[k] == replayed[k]) continue;
            size_t at = 0;
            while(at < alone[k].size() && alone[k][at] == replayed[k][at])
                ++at;
            FAIL() << "allocation " << k << " (" << alone[k].size() << " bytes) differs at byte "
                   << at << " after " << runs << " dispatches replayed in " << passes
                   << " passes with ROCPROFILER_REPLAY_VERIFY=" << verify;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(verify_modes_and_passes,
                         replay_layouts,
                         ::testing::Combine(::testing::Values("all", "reachable", "off"),
                                            ::testing::Values(uint64_t{2}, uint64_t{3})),
                         [](const auto& info)
                         {
                             return std::string{std::get<0>(info.param)} + "_" +
                                    std::to_string(std::get<1>(info.param)) + "_passes";
                         });

// The program: an 8-byte allocation holding the array's address, one `+1` kernel, two
// groups. Alone the array ends at +1; so it must under replay, in every mode, with no pass lost.
struct holder_args
{
    uint32_t** holder;
    uint32_t   n;
};

void
add_one_through_holder(const rocprofiler_host_work_item_t* item, void* raw)
{
    const auto* a = static_cast<const holder_args*>(raw);
    if(item->global_linear_id < a->n) (*a->holder)[item->global_linear_id] += 1;
}

TEST_F(replay_correctness, an_eight_byte_pointer_holder_is_replayed_in_full_in_every_mode)
{
    const auto kernel = sdk_test::register_kernel("add_one_through_holder", add_one_through_holder);
    for(const char* verify : {"all", "reachable", "off"})
    {
        SCOPED_TRACE(verify);
        replay_test::set_replay_env("ROCPROFILER_REPLAY_VERIFY", verify);
        constexpr uint32_t n      = 100;
        auto*              array  = static_cast<uint32_t*>(device_alloc(n * sizeof(uint32_t)));
        auto*              holder = static_cast<uint32_t**>(device_alloc(sizeof(uint32_t*)));
        *holder                   = array;
        take_outcomes();
        for(int dispatch = 0; dispatch < 3; ++dispatch)
        {
            const auto args = holder_args{holder, n};
            run(kernel, &args, sizeof(args), n);
            for(uint32_t i = 0; i < n; ++i)
                ASSERT_EQ(array[i], static_cast<uint32_t>(dispatch + 1)) << "element " << i;
        }
        for(const auto& o : take_outcomes())
        {
            EXPECT_EQ(o.kind, ROCPROFILER_KERNEL_REPLAY_OUTCOME_REPLAYED) << o.reason;
            EXPECT_EQ(o.passes_run, 2u);
        }
        rocprofiler_host_free(holder);
        rocprofiler_host_free(array);
    }
}

// --- kernels that dispatch kernels ---------------------------------------------------------------

struct spawn_args
{
    rocprofiler_host_queue_t  queue;
    rocprofiler_host_kernel_t child;
    uint32_t*                 parent_out;
    uint32_t*                 child_out; // null: the child writes through `hidden_child_out`
    uint32_t                  n;
};

// Memory the child writes that the parent's arguments do not reach.
uint32_t* hidden_child_out = nullptr;

void
slow_child(const rocprofiler_host_work_item_t* item, void* raw)
{
    const auto* a = static_cast<const spawn_args*>(raw);
    // Late enough that, unwaited for, its first element is written while the parent's replay
    // restores memory.
    if(item->global_linear_id == 0) std::this_thread::sleep_for(std::chrono::milliseconds{3});
    auto* out = a->child_out != nullptr ? a->child_out : hidden_child_out;
    if(item->global_linear_id < a->n) out[item->global_linear_id] += 2;
}

void
spawning_parent(const rocprofiler_host_work_item_t* item, void* raw)
{
    const auto* a = static_cast<const spawn_args*>(raw);
    if(item->global_linear_id < a->n) a->parent_out[item->global_linear_id] += 1;
    if(item->global_linear_id != 0) return;
    auto params           = rocprofiler_host_dispatch_params_t{};
    params.size           = sizeof(params);
    params.kernel         = a->child;
    params.grid           = {(a->n + 63) / 64, 1, 1};
    params.workgroup_size = {a->n < 64 ? a->n : 64, 1, 1};
    params.args           = a;
    params.args_size      = sizeof(*a);
    EXPECT_EQ(rocprofiler_host_dispatch(a->queue, &params), ROCPROFILER_HOST_STATUS_SUCCESS);
}

// Repeated, since a missing wait shows as a race: every run must end with parent +1 and child +2
// per dispatch, whatever the verification mode and wherever the child's output lies.
TEST_F(replay_correctness, a_kernel_that_dispatches_kernels_never_leaves_torn_memory)
{
    const auto parent    = sdk_test::register_kernel("spawning_parent", spawning_parent);
    const auto child     = sdk_test::register_kernel("slow_child", slow_child);
    planned_passes       = 3;
    constexpr uint32_t n = 96;
    for(const char* verify : {"all", "reachable", "off"})
    {
        for(bool hidden : {false, true})
        {
            SCOPED_TRACE(std::string{verify} + (hidden ? ", child output not in the arguments"
                                                       : ", child output in the arguments"));
            replay_test::set_replay_env("ROCPROFILER_REPLAY_VERIFY", verify);
            auto* parent_out = static_cast<uint32_t*>(device_alloc(n * sizeof(uint32_t)));
            auto* child_out  = static_cast<uint32_t*>(device_alloc(n * sizeof(uint32_t)));
            hidden_child_out = child_out;
            auto args = spawn_args{m_other, child, parent_out, hidden ? nullptr : child_out, n};
            take_outcomes();
            for(uint32_t dispatch = 1; dispatch <= 8; ++dispatch)
            {
                run(parent, &args, sizeof(args), n);
                // dispatch_and_wait waited for the whole device: the last pass's child too.
                for(uint32_t i = 0; i < n; ++i)
                {
                    ASSERT_EQ(parent_out[i], dispatch) << "parent element " << i;
                    ASSERT_EQ(child_out[i], 2 * dispatch) << "child element " << i;
                }
            }
            for(const auto& o : take_outcomes())
            {
                // Replayed in full where the verification covers the children; otherwise ended
                // after the first pass, with the reason.
                if(std::string{verify} == "all")
                    EXPECT_TRUE(o.reason == "none" || o.reason == "write_outside_snapshot")
                        << o.reason;
                else
                {
                    EXPECT_EQ(o.kind, ROCPROFILER_KERNEL_REPLAY_OUTCOME_ENDED_EARLY);
                    EXPECT_EQ(o.reason, "child_dispatch");
                    EXPECT_EQ(o.passes_run, 1u);
                }
            }
            rocprofiler_host_free(parent_out);
            rocprofiler_host_free(child_out);
        }
    }
}

// --- memory the device's allocator did not hand out
// ------------------------------------------------

struct plain_args
{
    uint32_t* data;
    uint32_t  n;
};

void
add_one_plain(const rocprofiler_host_work_item_t* item, void* raw)
{
    const auto* a = static_cast<const plain_args*>(raw);
    if(item->global_linear_id < a->n) a->data[item->global_linear_id] += 1;
}

uint32_t global_counts[64] = {};

// An argument pointing into plain malloc memory or a global: declined (untracked_memory, as CUDA
// declines pinned host memory), so the kernel runs once and adds 1, not once per pass.
TEST_F(replay_correctness, arguments_pointing_to_untracked_host_memory_are_declined)
{
    const auto         kernel = sdk_test::register_kernel("add_one_plain", add_one_plain);
    constexpr uint32_t n      = 64;
    auto*              heap   = static_cast<uint32_t*>(std::calloc(n, sizeof(uint32_t)));
    for(uint32_t* data : {heap, global_counts})
    {
        take_outcomes();
        const auto args = plain_args{data, n};
        run(kernel, &args, sizeof(args), n);
        for(uint32_t i = 0; i < n; ++i)
            ASSERT_EQ(data[i], 1u) << "element " << i;
        auto seen = take_outcomes();
        ASSERT_EQ(seen.size(), 1u);
        EXPECT_EQ(seen[0].kind, ROCPROFILER_KERNEL_REPLAY_OUTCOME_DECLINED);
        EXPECT_EQ(seen[0].reason, "untracked_memory");
    }
    // Opted in: replayed, and the untracked writes repeat with each pass (documented).
    replay_test::set_replay_env("ROCPROFILER_REPLAY_ALLOW_HOST_MEMORY", "1");
    take_outcomes();
    const auto args = plain_args{heap, n};
    run(kernel, &args, sizeof(args), n);
    EXPECT_EQ(heap[0], 1u + planned_passes);
    auto seen = take_outcomes();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].kind, ROCPROFILER_KERNEL_REPLAY_OUTCOME_REPLAYED);
    std::free(heap);
}

// Words that are not pointers into writable memory are no reason to decline: sizes, read-only
// data (a string literal), code (a function's address), one past the end of a tracked array.
struct mixed_args
{
    uint32_t*   data;
    uint32_t*   end;
    const char* label;
    void (*fn)(const rocprofiler_host_work_item_t*, void*);
    uint64_t n;
};

void
add_one_mixed(const rocprofiler_host_work_item_t* item, void* raw)
{
    const auto* a = static_cast<const mixed_args*>(raw);
    if(item->global_linear_id < a->n) a->data[item->global_linear_id] += 1;
}

TEST_F(replay_correctness, values_and_read_only_pointers_do_not_decline)
{
    const auto         kernel = sdk_test::register_kernel("add_one_mixed", add_one_mixed);
    constexpr uint32_t n      = 64;
    auto*              data   = static_cast<uint32_t*>(device_alloc(n * sizeof(uint32_t)));
    auto               args   = mixed_args{data, data + n, "a label", add_one_mixed, n};
    take_outcomes();
    run(kernel, &args, sizeof(args), n);
    EXPECT_EQ(data[0], 1u);
    auto seen = take_outcomes();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].kind, ROCPROFILER_KERNEL_REPLAY_OUTCOME_REPLAYED) << seen[0].reason;
    rocprofiler_host_free(data);
}
} // namespace
