// Bad input to the counter services and the counter queries of agents (dispatch and device
// counting, agents and their counters), in-process. Each test asserts the exact status its
// header documents.
#include "api_errors_support.hpp"

#include <cstring>
#include <string>
#include <vector>

using namespace api_errors;

TEST(api_errors, counting_services)
{
    REQUIRE_UNCONFIGURED();
    auto ctx     = new_context();
    auto unknown = rocprofiler_context_id_t{kUnknown};
    auto buf     = rocprofiler_buffer_id_t{};
    EXPECT_STATUS(
        kSuccess,
        rocprofiler_create_buffer(
            ctx, 4096, 1024, ROCPROFILER_BUFFER_POLICY_LOSSLESS, buffer_cb, nullptr, &buf));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
                  rocprofiler_configure_buffer_dispatch_counting_service(
                      unknown, buf, counting_dispatch_cb, nullptr));
    EXPECT_STATUS(
        ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
        rocprofiler_configure_buffer_dispatch_counting_service(ctx, buf, nullptr, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND,
                  rocprofiler_configure_buffer_dispatch_counting_service(
                      ctx, rocprofiler_buffer_id_t{kUnknown}, counting_dispatch_cb, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
                  rocprofiler_configure_callback_dispatch_counting_service(
                      unknown, counting_dispatch_cb, nullptr, counting_record_cb, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_configure_callback_dispatch_counting_service(
                      ctx, nullptr, nullptr, counting_record_cb, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_configure_callback_dispatch_counting_service(
                      ctx, counting_dispatch_cb, nullptr, nullptr, nullptr));

    auto first = rocprofiler_configure_buffer_dispatch_counting_service(
        ctx, buf, counting_dispatch_cb, nullptr);
    EXPECT_TRUE(first == kSuccess || first == ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED)
        << rocprofiler_get_status_name(first);
    if(first == kSuccess)
    {
        // One dispatch counting service per context, in either form.
        EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED,
                      rocprofiler_configure_buffer_dispatch_counting_service(
                          ctx, buf, counting_dispatch_cb, nullptr));
        EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED,
                      rocprofiler_configure_callback_dispatch_counting_service(
                          ctx, counting_dispatch_cb, nullptr, counting_record_cb, nullptr));
    }

    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
                  rocprofiler_configure_device_counting_service(
                      unknown, buf, {1}, device_counting_cb, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_configure_device_counting_service(ctx, buf, {1}, nullptr, nullptr));
    size_t count = 0;
    auto   rec   = rocprofiler_counter_record_t{};
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
                  rocprofiler_sample_device_counting_service(
                      unknown, {}, ROCPROFILER_COUNTER_FLAG_NONE, &rec, &count));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_sample_device_counting_service(
                      ctx, {}, ROCPROFILER_COUNTER_FLAG_NONE, &rec, nullptr));
    // A context without the service.
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID,
                  rocprofiler_sample_device_counting_service(
                      ctx, {}, ROCPROFILER_COUNTER_FLAG_NONE, &rec, &count));

    // Counter queries: argument checks.
    auto info0 = rocprofiler_counter_info_v0_t{};
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_query_counter_info({1}, ROCPROFILER_COUNTER_INFO_VERSION_0, nullptr));
    EXPECT_STATUS(
        ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
        rocprofiler_query_counter_info({1}, ROCPROFILER_COUNTER_INFO_VERSION_NONE, &info0));
    EXPECT_STATUS(
        ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
        rocprofiler_query_counter_info({1}, ROCPROFILER_COUNTER_INFO_VERSION_LAST, &info0));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_query_record_counter_id(1, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_query_record_dimension_position(1, 0, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND,
                  rocprofiler_destroy_counter_config(rocprofiler_counter_config_id_t{kUnknown}));
}

// Agent-wide counting is built on the host device (the last GPU agent); an unknown agent is
// refused. (Looking the agent up creates the device, which initializes the SDK: a test of its
// own.)
TEST(api_errors, device_counting_on_the_host_agent)
{
    REQUIRE_UNCONFIGURED();
    auto ctx = new_context();
    auto buf = rocprofiler_buffer_id_t{};
    EXPECT_STATUS(
        kSuccess,
        rocprofiler_create_buffer(
            ctx, 4096, 1024, ROCPROFILER_BUFFER_POLICY_LOSSLESS, buffer_cb, nullptr, &buf));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND,
                  rocprofiler_configure_device_counting_service(
                      ctx, buf, {kUnknown}, device_counting_cb, nullptr));
    EXPECT_STATUS(kSuccess,
                  rocprofiler_configure_device_counting_service(
                      ctx, buf, host_agent(), device_counting_cb, nullptr));
}

// ==================================== after configuration ====================================

TEST(api_errors, agents_and_counters_of_agents)
{
    auto cb = [](rocprofiler_agent_version_t, const void**, size_t n, void* data)
    {
        *static_cast<size_t*>(data) = n;
        return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND; // propagated to the caller
    };
    size_t n = 0;
    EXPECT_STATUS(
        ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
        rocprofiler_query_available_agents(
            ROCPROFILER_AGENT_INFO_VERSION_0, nullptr, sizeof(rocprofiler_agent_v0_t), &n));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_query_available_agents(
                      ROCPROFILER_AGENT_INFO_VERSION_NONE, cb, sizeof(rocprofiler_agent_v0_t), &n));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_query_available_agents(
                      ROCPROFILER_AGENT_INFO_VERSION_LAST, cb, sizeof(rocprofiler_agent_v0_t), &n));
    EXPECT_STATUS(
        ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI,
        rocprofiler_query_available_agents(
            ROCPROFILER_AGENT_INFO_VERSION_0, cb, sizeof(rocprofiler_agent_v0_t) + 8, &n));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND,
                  rocprofiler_query_available_agents(
                      ROCPROFILER_AGENT_INFO_VERSION_0, cb, sizeof(rocprofiler_agent_v0_t), &n));
    EXPECT_GE(n, 1u);

    const auto agent       = host_agent();
    const auto unknown     = rocprofiler_agent_id_t{kUnknown};
    auto       counters_cb = [](rocprofiler_agent_id_t, rocprofiler_counter_id_t*, size_t, void*)
    { return ROCPROFILER_STATUS_SUCCESS; };
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_iterate_agent_supported_counters(agent, nullptr, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND,
                  rocprofiler_iterate_agent_supported_counters(unknown, counters_cb, nullptr));
    // The host device's counters may or may not be built yet (both documented).
    auto listed = rocprofiler_iterate_agent_supported_counters(agent, counters_cb, nullptr);
    EXPECT_TRUE(listed == kSuccess || listed == ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED)
        << rocprofiler_get_status_name(listed);

    auto ids    = std::vector<rocprofiler_counter_id_t>{{1}};
    auto config = rocprofiler_counter_config_id_t{};
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_create_counter_config(agent, nullptr, 1, &config));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_create_counter_config(agent, ids.data(), 0, &config));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_create_counter_config(agent, ids.data(), 1, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND,
                  rocprofiler_create_counter_config(unknown, ids.data(), 1, &config));
    auto info0 = rocprofiler_counter_info_v0_t{};
    auto bogus = rocprofiler_counter_id_t{kUnknown};
    auto found = rocprofiler_query_counter_info(bogus, ROCPROFILER_COUNTER_INFO_VERSION_0, &info0);
    EXPECT_TRUE(found == ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND ||
                found == ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED)
        << rocprofiler_get_status_name(found);
    if(listed == kSuccess)
    {
        auto bad_list = std::vector<rocprofiler_counter_id_t>{bogus};
        EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND,
                      rocprofiler_create_counter_config(agent, bad_list.data(), 1, &config));
    }
}
