// The entry points of rocprofiler-sdk's runtime domains that no runtime here backs: argument
// iteration, intercept tables, counter definitions, OMPT and internal-thread callbacks. Each
// checks its arguments, then answers as rocprofiler-sdk does where the domain is absent. Also the
// name queries of intercept tables and request kinds, and the deprecated counter functions.
#include <rocprofiler-sdk/experimental/counters.h>
#include <rocprofiler-sdk/intercept_table.h>
#include <rocprofiler-sdk/ompt.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include "sdk_test.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace
{
int
callback_arg(rocprofiler_callback_tracing_kind_t,
             rocprofiler_tracing_operation_t,
             uint32_t,
             const void* const,
             int32_t,
             const char*,
             const char*,
             const char*,
             int32_t,
             void*)
{
    ADD_FAILURE() << "no argument is described here";
    return 0;
}

int
buffer_arg(rocprofiler_buffer_tracing_kind_t,
           rocprofiler_tracing_operation_t,
           uint32_t,
           const void* const,
           int32_t,
           const char*,
           const char*,
           const char*,
           void*)
{
    ADD_FAILURE() << "no argument is described here";
    return 0;
}

void
on_table(rocprofiler_intercept_table_t, uint64_t, uint64_t, void**, uint64_t, void*)
{
    ADD_FAILURE() << "no table is offered here";
}

void
on_thread(rocprofiler_runtime_library_t, void*)
{
}
} // namespace

TEST(runtime_domains, operation_args_are_not_available)
{
    auto record = rocprofiler_callback_tracing_record_t{};
    record.kind = ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API;
    EXPECT_EQ(rocprofiler_iterate_callback_tracing_kind_operation_args(record, nullptr, 1, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(
        rocprofiler_iterate_callback_tracing_kind_operation_args(record, callback_arg, 1, nullptr),
        ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE);

    auto header = rocprofiler_record_header_t{};
    EXPECT_EQ(rocprofiler_iterate_buffer_tracing_record_args(header, nullptr, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_iterate_buffer_tracing_record_args(header, buffer_arg, nullptr),
              ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE);
}

TEST(runtime_domains, no_runtime_offers_an_intercept_table)
{
    EXPECT_EQ(rocprofiler_at_intercept_table_registration(nullptr, ROCPROFILER_HSA_TABLE, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_at_intercept_table_registration(on_table, 0, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_at_intercept_table_registration(
                  on_table, ROCPROFILER_HSA_TABLE | ROCPROFILER_HIP_RUNTIME_TABLE, nullptr),
              ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE);
}

TEST(runtime_domains, counter_definitions_are_not_implemented)
{
    auto id = rocprofiler_counter_id_t{};
    EXPECT_EQ(rocprofiler_create_counter(nullptr, 0, "A+B", 3, "", 0, {}, &id),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_create_counter("C", 1, "A+B", 3, "", 0, {}, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_create_counter("C", 1, "A+B", 3, "", 0, {}, &id),
              ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED);
    EXPECT_EQ(rocprofiler_load_counter_definition(nullptr, 0, ROCPROFILER_COUNTER_FLAG_NONE),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_load_counter_definition("x: 1", 4, ROCPROFILER_COUNTER_FLAG_NONE),
              ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED);
}

TEST(runtime_domains, internal_thread_callbacks_are_accepted_before_initialization)
{
    EXPECT_EQ(rocprofiler_at_internal_thread_create(nullptr, nullptr, ROCPROFILER_LIBRARY, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_at_internal_thread_create(on_thread, nullptr, 0, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_at_internal_thread_create(
                  on_thread, on_thread, ROCPROFILER_LIBRARY | ROCPROFILER_HSA_LIBRARY, nullptr),
              ROCPROFILER_STATUS_SUCCESS);
}

TEST(runtime_domains, intercept_table_names)
{
    const char* name = nullptr;
    auto        len  = uint64_t{0};
    EXPECT_EQ(rocprofiler_query_intercept_table_name(ROCPROFILER_HSA_TABLE, nullptr, &len),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    ASSERT_EQ(rocprofiler_query_intercept_table_name(ROCPROFILER_HSA_TABLE, &name, &len),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(std::string{name}, "HSA_TABLE");
    EXPECT_EQ(len, 9u);
    ASSERT_EQ(rocprofiler_query_intercept_table_name(ROCPROFILER_ROCJPEG_TABLE, &name, nullptr),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(std::string{name}, "ROCJPEG_TABLE");
    EXPECT_EQ(
        rocprofiler_query_intercept_table_name(static_cast<rocprofiler_intercept_table_t>(
                                                   ROCPROFILER_HSA_TABLE | ROCPROFILER_RCCL_TABLE),
                                               &name,
                                               nullptr),
        ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
    EXPECT_EQ(rocprofiler_query_intercept_table_name(
                  static_cast<rocprofiler_intercept_table_t>(0), &name, nullptr),
              ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
}

TEST(runtime_domains, external_correlation_request_kind_names)
{
    const char* name = nullptr;
    auto        len  = uint64_t{0};
    ASSERT_EQ(rocprofiler_query_external_correlation_id_request_kind_name(
                  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH, &name, &len),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(std::string{name}, "KERNEL_DISPATCH");
    EXPECT_EQ(len, 15u);
    ASSERT_EQ(rocprofiler_query_external_correlation_id_request_kind_name(
                  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_CUDA_DRIVER_API, &name, nullptr),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(std::string{name}, "CUDA_DRIVER_API");
    EXPECT_EQ(rocprofiler_query_external_correlation_id_request_kind_name(
                  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_NONE, &name, nullptr),
              ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
    EXPECT_EQ(rocprofiler_query_external_correlation_id_request_kind_name(
                  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST, &name, nullptr),
              ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
    EXPECT_EQ(rocprofiler_query_external_correlation_id_request_kind_name(
                  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_COPY, nullptr, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
}

TEST(runtime_domains, ompt_is_never_started)
{
    EXPECT_EQ(rocprofiler_ompt_start_tool(201611, "test"), nullptr);
    int status = -1;
    EXPECT_EQ(rocprofiler_ompt_is_initialized(&status), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(status, 0);
    status = -1;
    EXPECT_EQ(rocprofiler_ompt_is_finalized(&status), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(status, 0);
    EXPECT_EQ(rocprofiler_ompt_is_initialized(nullptr), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_ompt_is_finalized(nullptr), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
}

namespace
{
rocprofiler_status_t
count_dimensions(rocprofiler_counter_id_t,
                 const rocprofiler_counter_record_dimension_info_t* dims,
                 size_t                                             count,
                 void*                                              data)
{
    auto* seen = static_cast<std::vector<std::string>*>(data);
    for(size_t i = 0; i < count; ++i)
        seen->push_back(std::string{dims[i].name} + ":" + std::to_string(dims[i].instance_size));
    return ROCPROFILER_STATUS_SUCCESS;
}
} // namespace

// Last: it initializes the SDK (agents and counters are listed on first query).
TEST(runtime_domains, deprecated_counter_functions_answer_as_their_successors)
{
    const auto agent    = sdk_test::gpu_agent();
    const auto counters = sdk_test::counters_by_name(agent);
    ASSERT_FALSE(counters.empty());
    const auto counter = counters.begin()->second;

    auto count = size_t{0};
    ASSERT_EQ(rocprofiler_query_counter_instance_count(agent, counter, &count),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(count, 1u);
    EXPECT_EQ(rocprofiler_query_counter_instance_count(agent, counter, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_query_counter_instance_count(
                  rocprofiler_agent_id_t{~uint64_t{0}}, counter, &count),
              ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND);
    EXPECT_EQ(rocprofiler_query_counter_instance_count(
                  agent, rocprofiler_counter_id_t{~uint64_t{0}}, &count),
              ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND);

    auto dims = std::vector<std::string>{};
    ASSERT_EQ(rocprofiler_iterate_counter_dimensions(counter, count_dimensions, &dims),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(dims, (std::vector<std::string>{"DIMENSION_INSTANCE:1"}));
    EXPECT_EQ(rocprofiler_iterate_counter_dimensions(counter, nullptr, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_iterate_counter_dimensions(
                  rocprofiler_counter_id_t{~uint64_t{0}}, count_dimensions, &dims),
              ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND);

    auto ids    = std::vector<rocprofiler_counter_id_t>{counter};
    auto config = rocprofiler_profile_config_id_t{};
    ASSERT_EQ(rocprofiler_create_profile_config(agent, ids.data(), ids.size(), &config),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(rocprofiler_destroy_profile_config(config), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(rocprofiler_destroy_profile_config(config),
              ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND);
}
