// The public name and iteration queries of callback_tracing.h and buffer_tracing.h. Expected
// names are written out by hand from the enumerators of fwd.h (the oracle), in enum order.

#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace
{
constexpr auto expected_callback_kinds = std::array<std::string_view, 24>{
    "HSA_CORE_API",
    "HSA_AMD_EXT_API",
    "HSA_IMAGE_EXT_API",
    "HSA_FINALIZE_EXT_API",
    "HIP_RUNTIME_API",
    "HIP_COMPILER_API",
    "MARKER_CORE_API",
    "MARKER_CONTROL_API",
    "MARKER_NAME_API",
    "CODE_OBJECT",
    "SCRATCH_MEMORY",
    "KERNEL_DISPATCH",
    "MEMORY_COPY",
    "RCCL_API",
    "OMPT",
    "MEMORY_ALLOCATION",
    "RUNTIME_INITIALIZATION",
    "ROCDECODE_API",
    "ROCJPEG_API",
    "HIP_STREAM",
    "MARKER_CORE_RANGE_API",
    "KERNEL_REPLAY",
    "CUDA_RUNTIME_API",
    "CUDA_DRIVER_API",
};

constexpr auto expected_buffer_kinds = std::array<std::string_view, 34>{
    "HSA_CORE_API",
    "HSA_AMD_EXT_API",
    "HSA_IMAGE_EXT_API",
    "HSA_FINALIZE_EXT_API",
    "HIP_RUNTIME_API",
    "HIP_COMPILER_API",
    "MARKER_CORE_API",
    "MARKER_CONTROL_API",
    "MARKER_NAME_API",
    "MEMORY_COPY",
    "KERNEL_DISPATCH",
    "SCRATCH_MEMORY",
    "CORRELATION_ID_RETIREMENT",
    "RCCL_API",
    "OMPT",
    "MEMORY_ALLOCATION",
    "RUNTIME_INITIALIZATION",
    "ROCDECODE_API",
    "ROCJPEG_API",
    "HIP_STREAM",
    "HIP_RUNTIME_API_EXT",
    "HIP_COMPILER_API_EXT",
    "ROCDECODE_API_EXT",
    "KFD_EVENT_PAGE_MIGRATE",
    "KFD_EVENT_PAGE_FAULT",
    "KFD_EVENT_QUEUE",
    "KFD_EVENT_UNMAP_FROM_GPU",
    "KFD_EVENT_DROPPED_EVENTS",
    "KFD_PAGE_MIGRATE",
    "KFD_PAGE_FAULT",
    "KFD_QUEUE",
    "MARKER_CORE_RANGE_API",
    "CUDA_RUNTIME_API",
    "CUDA_DRIVER_API",
};

using op_names = std::map<int32_t, std::string>;

// Collects every operation of a kind through the iteration query and names each through the
// name query.
template <typename Kind, typename Iterate, typename Query>
op_names
collect_operations(Kind kind, Iterate iterate, Query query)
{
    auto ids    = std::vector<int32_t>{};
    auto status = iterate(
        kind,
        [](Kind k, rocprofiler_tracing_operation_t op, void* data) -> int
        {
            static_cast<void>(k);
            static_cast<std::vector<int32_t>*>(data)->push_back(op);
            return 0;
        },
        &ids);
    EXPECT_EQ(status, ROCPROFILER_STATUS_SUCCESS);

    auto names = op_names{};
    for(auto op : ids)
    {
        EXPECT_TRUE(names.empty() || op > names.rbegin()->first) << "ids in increasing order";
        const char* name = nullptr;
        uint64_t    len  = 0;
        EXPECT_EQ(query(kind, op, &name, &len), ROCPROFILER_STATUS_SUCCESS);
        EXPECT_NE(name, nullptr);
        if(name)
        {
            EXPECT_EQ(len, std::strlen(name));
            names.emplace(op, name);
        }
    }
    return names;
}

op_names
callback_operations(rocprofiler_callback_tracing_kind_t kind)
{
    return collect_operations(kind,
                              rocprofiler_iterate_callback_tracing_kind_operations,
                              rocprofiler_query_callback_tracing_kind_operation_name);
}

op_names
buffer_operations(rocprofiler_buffer_tracing_kind_t kind)
{
    return collect_operations(kind,
                              rocprofiler_iterate_buffer_tracing_kind_operations,
                              rocprofiler_query_buffer_tracing_kind_operation_name);
}

// Every kind 1 .. last-1 is named `expected[kind - 1]` through `query`, with its length, and no
// two kinds share a name.
template <typename Kind, size_t N, typename Query>
void
expect_kinds_named(int last, const std::array<std::string_view, N>& expected, Query query)
{
    ASSERT_EQ(static_cast<size_t>(last) - 1, expected.size());
    auto seen = std::set<std::string>{};
    for(int kind = 1; kind < last; ++kind)
    {
        const char* name = nullptr;
        uint64_t    len  = 0;
        ASSERT_EQ(query(static_cast<Kind>(kind), &name, &len), ROCPROFILER_STATUS_SUCCESS);
        ASSERT_NE(name, nullptr);
        EXPECT_EQ(std::string_view{name}, expected.at(kind - 1)) << "kind " << kind;
        EXPECT_EQ(len, std::strlen(name));
        EXPECT_GT(len, 0u);
        seen.emplace(name);
    }
    EXPECT_EQ(seen.size(), expected.size()) << "names are unique";
}

// The iteration reports every kind 1 .. last-1, in order.
template <typename Kind, typename Iterate>
void
expect_iterates_kinds_in_order(int last, Iterate iterate)
{
    auto kinds  = std::vector<int>{};
    auto status = iterate(
        [](Kind kind, void* data)
        {
            static_cast<std::vector<int>*>(data)->push_back(kind);
            return 0;
        },
        &kinds);
    ASSERT_EQ(status, ROCPROFILER_STATUS_SUCCESS);
    ASSERT_EQ(kinds.size(), static_cast<size_t>(last) - 1);
    for(size_t i = 0; i < kinds.size(); ++i)
        EXPECT_EQ(kinds[i], static_cast<int>(i + 1));
}

// ---------------------------------------------------------------------------------------------
// Kind names
// ---------------------------------------------------------------------------------------------
TEST(callback_tracing_queries, every_kind_is_named_after_its_enumerator)
{
    EXPECT_EQ(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH, 12);
    // rocprofiler-sdk 1.0's last kind, then this SDK's.
    EXPECT_EQ(ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API, 21);
    EXPECT_EQ(ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY, 22);
    expect_kinds_named<rocprofiler_callback_tracing_kind_t>(
        ROCPROFILER_CALLBACK_TRACING_LAST,
        expected_callback_kinds,
        rocprofiler_query_callback_tracing_kind_name);
}

TEST(buffer_tracing_queries, every_kind_is_named_after_its_enumerator)
{
    EXPECT_EQ(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, 11);
    // rocprofiler-sdk 1.0's last kind, then this SDK's.
    EXPECT_EQ(ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API, 32);
    EXPECT_EQ(ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API, 33);
    expect_kinds_named<rocprofiler_buffer_tracing_kind_t>(
        ROCPROFILER_BUFFER_TRACING_LAST,
        expected_buffer_kinds,
        rocprofiler_query_buffer_tracing_kind_name);
}

TEST(callback_tracing_queries, name_outputs_may_each_be_null)
{
    constexpr auto kind = ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY;
    EXPECT_EQ(rocprofiler_query_callback_tracing_kind_name(kind, nullptr, nullptr),
              ROCPROFILER_STATUS_SUCCESS);

    const char* name = nullptr;
    EXPECT_EQ(rocprofiler_query_callback_tracing_kind_name(kind, &name, nullptr),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_STREQ(name, "KERNEL_REPLAY");

    uint64_t len = 0;
    EXPECT_EQ(rocprofiler_query_callback_tracing_kind_name(kind, nullptr, &len),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(len, std::strlen("KERNEL_REPLAY"));

    len = 0;
    EXPECT_EQ(rocprofiler_query_callback_tracing_kind_operation_name(
                  kind, ROCPROFILER_KERNEL_REPLAY_PASS, nullptr, &len),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(len, 4u);
    EXPECT_EQ(rocprofiler_query_callback_tracing_kind_operation_name(
                  kind, ROCPROFILER_KERNEL_REPLAY_PASS, nullptr, nullptr),
              ROCPROFILER_STATUS_SUCCESS);
}

TEST(buffer_tracing_queries, name_outputs_may_each_be_null)
{
    constexpr auto kind = ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH;
    EXPECT_EQ(rocprofiler_query_buffer_tracing_kind_name(kind, nullptr, nullptr),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(rocprofiler_query_buffer_tracing_kind_operation_name(
                  kind, ROCPROFILER_KERNEL_DISPATCH_COMPLETE, nullptr, nullptr),
              ROCPROFILER_STATUS_SUCCESS);
}

TEST(callback_tracing_queries, bad_kind_is_not_found)
{
    const char* name = "untouched";
    uint64_t    len  = 77;
    for(int kind : {0, static_cast<int>(ROCPROFILER_CALLBACK_TRACING_LAST), -1, 1000})
    {
        const auto k = static_cast<rocprofiler_callback_tracing_kind_t>(kind);
        EXPECT_EQ(rocprofiler_query_callback_tracing_kind_name(k, &name, &len),
                  ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
        EXPECT_EQ(rocprofiler_query_callback_tracing_kind_operation_name(k, 1, &name, &len),
                  ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
        EXPECT_EQ(
            rocprofiler_iterate_callback_tracing_kind_operations(
                k, [](rocprofiler_callback_tracing_kind_t, int32_t, void*) { return 0; }, nullptr),
            ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
    }
    EXPECT_STREQ(name, "untouched") << "outputs are left alone on failure";
    EXPECT_EQ(len, 77u);
}

TEST(buffer_tracing_queries, bad_kind_is_not_found)
{
    for(int kind : {0, static_cast<int>(ROCPROFILER_BUFFER_TRACING_LAST), -1, 1000})
    {
        const auto k = static_cast<rocprofiler_buffer_tracing_kind_t>(kind);
        EXPECT_EQ(rocprofiler_query_buffer_tracing_kind_name(k, nullptr, nullptr),
                  ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
        EXPECT_EQ(rocprofiler_query_buffer_tracing_kind_operation_name(k, 1, nullptr, nullptr),
                  ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
        EXPECT_EQ(
            rocprofiler_iterate_buffer_tracing_kind_operations(
                k, [](rocprofiler_buffer_tracing_kind_t, int32_t, void*) { return 0; }, nullptr),
            ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
    }
}

// ---------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------
TEST(callback_tracing_queries, kernel_replay_operations)
{
    EXPECT_EQ(callback_operations(ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY),
              (op_names{{1, "CONFIG"}, {2, "PASS"}}));
}

TEST(callback_tracing_queries, kernel_dispatch_operations)
{
    EXPECT_EQ(callback_operations(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH),
              (op_names{{ROCPROFILER_KERNEL_DISPATCH_ENQUEUE, "ENQUEUE"},
                        {ROCPROFILER_KERNEL_DISPATCH_COMPLETE, "COMPLETE"}}));
    EXPECT_EQ(ROCPROFILER_KERNEL_DISPATCH_ENQUEUE, 1);
    EXPECT_EQ(ROCPROFILER_KERNEL_DISPATCH_COMPLETE, 2);
}

TEST(callback_tracing_queries, listed_only_kinds_with_an_operation_enum)
{
    EXPECT_EQ(callback_operations(ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT),
              (op_names{{1, "LOAD"},
                        {2, "DEVICE_KERNEL_SYMBOL_REGISTER"},
                        {3, "HOST_KERNEL_SYMBOL_REGISTER"}}));
    const auto copies = op_names{
        {1, "HOST_TO_HOST"}, {2, "HOST_TO_DEVICE"}, {3, "DEVICE_TO_HOST"}, {4, "DEVICE_TO_DEVICE"}};
    const auto allocations =
        op_names{{1, "ALLOCATE"}, {2, "VMEM_ALLOCATE"}, {3, "FREE"}, {4, "VMEM_FREE"}};
    EXPECT_EQ(callback_operations(ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY), copies);
    EXPECT_EQ(callback_operations(ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION), allocations);
    EXPECT_EQ(buffer_operations(ROCPROFILER_BUFFER_TRACING_MEMORY_COPY), copies);
    EXPECT_EQ(buffer_operations(ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION), allocations);
}

// The marker kinds number their operations from 0, as rocprofiler-sdk does (an operation is the
// function's index in the ROCTx table); the names are the functions'.
TEST(callback_tracing_queries, marker_operations_start_at_zero)
{
    const auto core    = op_names{{0, "roctxMarkA"},
                               {1, "roctxRangePushA"},
                               {2, "roctxRangePop"},
                               {3, "roctxRangeStartA"},
                               {4, "roctxRangeStop"},
                               {5, "roctxGetThreadId"}};
    const auto control = op_names{{0, "roctxProfilerPause"}, {1, "roctxProfilerResume"}};
    const auto naming  = op_names{{0, "roctxNameOsThread"},
                                 {1, "roctxNameHsaAgent"},
                                 {2, "roctxNameHipDevice"},
                                 {3, "roctxNameHipStream"}};
    EXPECT_EQ(callback_operations(ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API), core);
    EXPECT_EQ(callback_operations(ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API), control);
    EXPECT_EQ(callback_operations(ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API), naming);
    EXPECT_EQ(buffer_operations(ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API), core);
    EXPECT_EQ(buffer_operations(ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API), control);
    EXPECT_EQ(buffer_operations(ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API), naming);
    for(int32_t op : {-1, 6, 64})
        EXPECT_EQ(rocprofiler_query_callback_tracing_kind_operation_name(
                      ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API, op, nullptr, nullptr),
                  ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND)
            << "op " << op;
}

TEST(buffer_tracing_queries, kernel_dispatch_operations)
{
    EXPECT_EQ(buffer_operations(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH),
              (op_names{{1, "ENQUEUE"}, {2, "COMPLETE"}}));
}

TEST(callback_tracing_queries, kinds_without_an_operation_enum_have_no_operations)
{
    for(auto kind : {ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API,
                     ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API,
                     ROCPROFILER_CALLBACK_TRACING_OMPT,
                     ROCPROFILER_CALLBACK_TRACING_HIP_STREAM})
    {
        EXPECT_TRUE(callback_operations(kind).empty()) << "kind " << kind;
        EXPECT_EQ(rocprofiler_query_callback_tracing_kind_operation_name(kind, 1, nullptr, nullptr),
                  ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND);
    }
    EXPECT_TRUE(buffer_operations(ROCPROFILER_BUFFER_TRACING_KFD_PAGE_MIGRATE).empty());
    EXPECT_EQ(rocprofiler_query_buffer_tracing_kind_operation_name(
                  ROCPROFILER_BUFFER_TRACING_OMPT, 1, nullptr, nullptr),
              ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND);
}

TEST(callback_tracing_queries, bad_operation_is_not_found)
{
    const char* name = "untouched";
    for(int32_t op : {0, 3, -1, 1000})
    {
        EXPECT_EQ(rocprofiler_query_callback_tracing_kind_operation_name(
                      ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY, op, &name, nullptr),
                  ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND)
            << "op " << op;
        EXPECT_EQ(rocprofiler_query_callback_tracing_kind_operation_name(
                      ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH, op, &name, nullptr),
                  ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND)
            << "op " << op;
        EXPECT_EQ(rocprofiler_query_buffer_tracing_kind_operation_name(
                      ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, op, &name, nullptr),
                  ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND)
            << "op " << op;
    }
    EXPECT_STREQ(name, "untouched");
}

// ---------------------------------------------------------------------------------------------
// Iteration
// ---------------------------------------------------------------------------------------------
TEST(callback_tracing_queries, iterates_every_kind_in_order)
{
    expect_iterates_kinds_in_order<rocprofiler_callback_tracing_kind_t>(
        ROCPROFILER_CALLBACK_TRACING_LAST, rocprofiler_iterate_callback_tracing_kinds);
}

TEST(buffer_tracing_queries, iterates_every_kind_in_order)
{
    expect_iterates_kinds_in_order<rocprofiler_buffer_tracing_kind_t>(
        ROCPROFILER_BUFFER_TRACING_LAST, rocprofiler_iterate_buffer_tracing_kinds);
}

// Counts calls and asks to stop (returns stop_value) once `stop_after` calls have been made.
struct stopper
{
    int stop_after = 0;
    int stop_value = 1;
    int calls      = 0;

    static int count(void* data)
    {
        auto* s = static_cast<stopper*>(data);
        return ++s->calls >= s->stop_after ? s->stop_value : 0;
    }
};

// How many calls a kind iteration makes when its callback stops it as `s` says.
template <typename Kind, typename Iterate>
int
kind_calls(Iterate iterate, stopper s)
{
    EXPECT_EQ(iterate([](Kind, void* data) { return stopper::count(data); }, &s),
              ROCPROFILER_STATUS_SUCCESS);
    return s.calls;
}

// The same for the operation iteration of `kind`.
template <typename Kind, typename Iterate>
int
operation_calls(Iterate iterate, Kind kind, stopper s)
{
    EXPECT_EQ(iterate(
                  kind, [](Kind, int32_t, void* data) { return stopper::count(data); }, &s),
              ROCPROFILER_STATUS_SUCCESS);
    return s.calls;
}

TEST(callback_tracing_queries, iteration_stops_when_the_callback_returns_non_zero)
{
    using kind_t = rocprofiler_callback_tracing_kind_t;
    EXPECT_EQ(kind_calls<kind_t>(rocprofiler_iterate_callback_tracing_kinds, {3, 7}), 3);
    EXPECT_EQ(operation_calls(rocprofiler_iterate_callback_tracing_kind_operations,
                              ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY,
                              {1, -1}),
              1);
}

TEST(buffer_tracing_queries, iteration_stops_when_the_callback_returns_non_zero)
{
    using kind_t = rocprofiler_buffer_tracing_kind_t;
    EXPECT_EQ(kind_calls<kind_t>(rocprofiler_iterate_buffer_tracing_kinds, {2, 1}), 2);
    EXPECT_EQ(operation_calls(rocprofiler_iterate_buffer_tracing_kind_operations,
                              ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH,
                              {1, 1}),
              1);
}

TEST(callback_tracing_queries, null_callback_is_an_invalid_argument)
{
    EXPECT_EQ(rocprofiler_iterate_callback_tracing_kinds(nullptr, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_iterate_callback_tracing_kind_operations(
                  ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY, nullptr, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
}

TEST(buffer_tracing_queries, null_callback_is_an_invalid_argument)
{
    EXPECT_EQ(rocprofiler_iterate_buffer_tracing_kinds(nullptr, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_iterate_buffer_tracing_kind_operations(
                  ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
}
} // namespace
