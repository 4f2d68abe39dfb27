// The entry points of rocprofiler-sdk's runtime domains that no runtime here backs: argument
// iteration, intercept tables, counter definitions and internal-thread callbacks. Each checks its
// arguments, then answers as rocprofiler-sdk does where the domain is absent.
#include <rocprofiler-sdk/experimental/counters.h>
#include <rocprofiler-sdk/intercept_table.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

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
