// The internal name tables (tracing/names.hpp) and the replay operation names
// (kernel_replay/kernel_replay.hpp).

#include "tracing/names.hpp"
#include "kernel_replay/kernel_replay.hpp"

#include <rocprofiler-sdk/fwd.h>

#include <gtest/gtest.h>

#include <optional>
#include <string_view>

namespace
{
namespace tracing = rocprofiler::tracing;
namespace replay  = rocprofiler::kernel_replay;

TEST(kernel_replay_names, name_by_id)
{
    EXPECT_STREQ(replay::name_by_id(ROCPROFILER_KERNEL_REPLAY_CONFIG), "CONFIG");
    EXPECT_STREQ(replay::name_by_id(ROCPROFILER_KERNEL_REPLAY_PASS), "PASS");
    EXPECT_EQ(replay::name_by_id(ROCPROFILER_KERNEL_REPLAY_NONE), nullptr);
    EXPECT_EQ(replay::name_by_id(ROCPROFILER_KERNEL_REPLAY_LAST), nullptr);
    EXPECT_EQ(replay::name_by_id(-1), nullptr);
    EXPECT_EQ(replay::name_by_id(1000), nullptr);
}

TEST(kernel_replay_names, id_by_name)
{
    EXPECT_EQ(replay::id_by_name("CONFIG"), std::optional<int32_t>{1});
    EXPECT_EQ(replay::id_by_name("PASS"), std::optional<int32_t>{2});
    EXPECT_EQ(replay::id_by_name("NONE"), std::nullopt);
    EXPECT_EQ(replay::id_by_name("LAST"), std::nullopt);
    EXPECT_EQ(replay::id_by_name("config"), std::nullopt);
    EXPECT_EQ(replay::id_by_name("PASSES"), std::nullopt);
    EXPECT_EQ(replay::id_by_name(""), std::nullopt);
}

TEST(kernel_replay_names, round_trip)
{
    for(int32_t op = ROCPROFILER_KERNEL_REPLAY_NONE + 1; op < ROCPROFILER_KERNEL_REPLAY_LAST; ++op)
    {
        const char* name = replay::name_by_id(op);
        ASSERT_NE(name, nullptr);
        EXPECT_EQ(replay::id_by_name(name), std::optional<int32_t>{op});
    }
}

TEST(tracing_names, replay_kind_uses_the_replay_names)
{
    constexpr int kind = ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY;
    EXPECT_EQ(tracing::callback_operation_count(kind), ROCPROFILER_KERNEL_REPLAY_LAST);
    for(int32_t op = 1; op < ROCPROFILER_KERNEL_REPLAY_LAST; ++op)
        EXPECT_EQ(tracing::callback_operation_name(kind, op),
                  std::optional<std::string_view>{replay::name_by_id(op)});
}

TEST(tracing_names, operation_counts_are_the_enum_last_values)
{
    EXPECT_EQ(tracing::callback_operation_count(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH),
              ROCPROFILER_KERNEL_DISPATCH_LAST);
    EXPECT_EQ(tracing::callback_operation_count(ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT),
              ROCPROFILER_CODE_OBJECT_LAST);
    EXPECT_EQ(tracing::callback_operation_count(ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY),
              ROCPROFILER_MEMORY_COPY_LAST);
    EXPECT_EQ(tracing::callback_operation_count(ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION),
              ROCPROFILER_MEMORY_ALLOCATION_LAST);
    EXPECT_EQ(tracing::buffer_operation_count(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH),
              ROCPROFILER_KERNEL_DISPATCH_LAST);
    EXPECT_EQ(tracing::buffer_operation_count(ROCPROFILER_BUFFER_TRACING_MEMORY_COPY),
              ROCPROFILER_MEMORY_COPY_LAST);
    EXPECT_EQ(tracing::buffer_operation_count(ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION),
              ROCPROFILER_MEMORY_ALLOCATION_LAST);

    // No operation enum here: [1, 1) is empty.
    EXPECT_EQ(tracing::callback_operation_count(ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API), 1);
    EXPECT_EQ(tracing::buffer_operation_count(ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API), 1);

    // Not kinds.
    EXPECT_EQ(tracing::callback_operation_count(ROCPROFILER_CALLBACK_TRACING_NONE), 0);
    EXPECT_EQ(tracing::callback_operation_count(ROCPROFILER_CALLBACK_TRACING_LAST), 0);
    EXPECT_EQ(tracing::buffer_operation_count(-1), 0);
    EXPECT_EQ(tracing::buffer_operation_count(ROCPROFILER_BUFFER_TRACING_LAST), 0);
}

TEST(tracing_names, operation_validity)
{
    constexpr int dispatch = ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH;
    EXPECT_FALSE(tracing::is_valid_callback_operation(dispatch, ROCPROFILER_KERNEL_DISPATCH_NONE));
    EXPECT_TRUE(
        tracing::is_valid_callback_operation(dispatch, ROCPROFILER_KERNEL_DISPATCH_ENQUEUE));
    EXPECT_TRUE(
        tracing::is_valid_callback_operation(dispatch, ROCPROFILER_KERNEL_DISPATCH_COMPLETE));
    EXPECT_FALSE(tracing::is_valid_callback_operation(dispatch, ROCPROFILER_KERNEL_DISPATCH_LAST));
    EXPECT_FALSE(
        tracing::is_valid_callback_operation(ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API, 1));
    EXPECT_FALSE(tracing::is_valid_callback_operation(ROCPROFILER_CALLBACK_TRACING_LAST, 1));
    EXPECT_TRUE(tracing::is_valid_buffer_operation(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH,
                                                   ROCPROFILER_KERNEL_DISPATCH_COMPLETE));
    EXPECT_FALSE(tracing::is_valid_buffer_operation(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, 0));
}

// The CUDA API kinds' operations are CUPTI's callback ids, named by the function, in every build.
TEST(tracing_names, cuda_api_operations_are_cupti_callback_ids)
{
    for(auto kind : {ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API,
                     ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API})
    {
        EXPECT_EQ(tracing::callback_operation_first(kind), 1);
        EXPECT_GT(tracing::callback_operation_count(kind), 500);
        EXPECT_FALSE(tracing::callback_operation_name(kind, 0).has_value());
        EXPECT_FALSE(
            tracing::callback_operation_name(kind, tracing::callback_operation_count(kind)));
    }
    // Values of CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, _cudaLaunchKernel_v7000,
    // CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2 and _cuLaunchKernel (CUPTI only appends ids).
    EXPECT_EQ(tracing::callback_operation_name(ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API, 20),
              std::optional<std::string_view>{"cudaMalloc"});
    EXPECT_EQ(tracing::callback_operation_name(ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API, 211),
              std::optional<std::string_view>{"cudaLaunchKernel"});
    EXPECT_EQ(tracing::buffer_operation_name(ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API, 243),
              std::optional<std::string_view>{"cuMemAlloc_v2"});
    EXPECT_EQ(tracing::buffer_operation_name(ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API, 307),
              std::optional<std::string_view>{"cuLaunchKernel"});
    EXPECT_EQ(tracing::callback_operation_count(ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API),
              tracing::buffer_operation_count(ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API));
}

TEST(tracing_names, supported_kinds)
{
    for(int kind = ROCPROFILER_CALLBACK_TRACING_NONE; kind <= ROCPROFILER_CALLBACK_TRACING_LAST;
        ++kind)
    {
        const bool expected = kind == ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH ||
                              kind == ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY ||
                              kind == ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT ||
                              kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API ||
                              kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API ||
                              kind == ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API ||
                              kind == ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API ||
                              kind == ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API;
        EXPECT_EQ(tracing::callback_kind_supported(kind), expected) << "callback kind " << kind;
    }
    for(int kind = ROCPROFILER_BUFFER_TRACING_NONE; kind <= ROCPROFILER_BUFFER_TRACING_LAST; ++kind)
    {
        const bool expected = kind == ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH ||
                              kind == ROCPROFILER_BUFFER_TRACING_MEMORY_COPY ||
                              kind == ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API ||
                              kind == ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API ||
                              kind == ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API ||
                              kind == ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API ||
                              kind == ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API;
        EXPECT_EQ(tracing::buffer_kind_supported(kind), expected) << "buffer kind " << kind;
    }
    EXPECT_FALSE(tracing::callback_kind_supported(-1));
    EXPECT_FALSE(tracing::buffer_kind_supported(1000));
}

TEST(tracing_names, names_are_nul_terminated)
{
    for(int kind = 1; kind < ROCPROFILER_CALLBACK_TRACING_LAST; ++kind)
    {
        const auto name = tracing::callback_kind_name(kind);
        ASSERT_TRUE(name.has_value());
        EXPECT_EQ(name->data()[name->size()], '\0');
    }
    const auto op = tracing::buffer_operation_name(ROCPROFILER_BUFFER_TRACING_MEMORY_COPY,
                                                   ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST);
    ASSERT_EQ(op, std::optional<std::string_view>{"DEVICE_TO_HOST"});
    EXPECT_EQ(op->data()[op->size()], '\0');
}
} // namespace
