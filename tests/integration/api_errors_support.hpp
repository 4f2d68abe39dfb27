// What the api_errors tests share: the status check, no-op callbacks of every service's type, and
// the tool given to rocprofiler_force_configure (one per process: the SDK's state only moves
// forward, unconfigured -> locked -> finalized, so CTest runs each test in its own process).
#pragma once

#include <gtest/gtest.h>

#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <atomic>
#include <cstdint>

namespace api_errors
{
#define EXPECT_STATUS(EXPECTED, CALL)                                                              \
    do                                                                                             \
    {                                                                                              \
        auto _status = (CALL);                                                                     \
        EXPECT_EQ(_status, EXPECTED)                                                               \
            << #CALL << " returned " << rocprofiler_get_status_name(_status) << ", expected "      \
            << rocprofiler_get_status_name(EXPECTED);                                              \
    } while(0)

inline constexpr auto kSuccess = ROCPROFILER_STATUS_SUCCESS;
inline constexpr auto kUnknown = uint64_t{0xdead'beef'0000ull};

inline void
dispatch_cb(rocprofiler_callback_tracing_record_t, rocprofiler_user_data_t*, void*)
{
}

inline void
buffer_cb(rocprofiler_context_id_t,
          rocprofiler_buffer_id_t,
          rocprofiler_record_header_t**,
          size_t,
          void*,
          uint64_t)
{
}

inline int
request_cb(rocprofiler_thread_id_t,
           rocprofiler_context_id_t,
           rocprofiler_external_correlation_id_request_kind_t,
           rocprofiler_tracing_operation_t,
           uint64_t,
           rocprofiler_user_data_t*,
           void*)
{
    return 1;
}

inline void
counting_dispatch_cb(rocprofiler_dispatch_counting_service_data_t,
                     rocprofiler_counter_config_id_t*,
                     rocprofiler_user_data_t*,
                     void*)
{
}

inline void
counting_record_cb(rocprofiler_dispatch_counting_service_data_t,
                   rocprofiler_counter_record_t*,
                   size_t,
                   rocprofiler_user_data_t,
                   void*)
{
}

inline void
device_counting_cb(rocprofiler_context_id_t,
                   rocprofiler_agent_id_t,
                   rocprofiler_device_counting_agent_cb_t,
                   void*)
{
}

inline bool
sdk_initialized()
{
    int value = 0;
    rocprofiler_is_initialized(&value);
    return value != 0;
}

// Pre-lock tests need an unconfigured SDK.
#define REQUIRE_UNCONFIGURED()                                                                     \
    do                                                                                             \
    {                                                                                              \
        if(sdk_initialized()) GTEST_SKIP() << "the SDK is already configured in this process";     \
    } while(0)

inline rocprofiler_context_id_t
new_context()
{
    auto ctx = rocprofiler_context_id_t{0};
    EXPECT_STATUS(kSuccess, rocprofiler_create_context(&ctx));
    EXPECT_NE(ctx.handle, 0u);
    return ctx;
}

// ---- the tool given to rocprofiler_force_configure ------------------------------------------

struct forced_tool
{
    std::atomic<int>              configure_calls  = 0;
    std::atomic<int>              initialize_calls = 0;
    std::atomic<int>              finalize_calls   = 0;
    std::atomic<int>              callbacks        = 0;
    uint32_t                      priority         = 99;
    rocprofiler_client_id_t*      client           = nullptr;
    rocprofiler_client_finalize_t fini             = nullptr;
    rocprofiler_context_id_t      context          = {};
    rocprofiler_buffer_id_t       buffer           = {};
    rocprofiler_status_t          init_statuses[4] = {};
    bool                          decline          = false;
};

inline forced_tool&
tool()
{
    static auto* value = new forced_tool{};
    return *value;
}

inline void
counting_callback(rocprofiler_callback_tracing_record_t, rocprofiler_user_data_t*, void*)
{
    ++tool().callbacks;
}

inline int
forced_initialize(rocprofiler_client_finalize_t fini, void*)
{
    auto& t = tool();
    ++t.initialize_calls;
    t.fini             = fini;
    t.init_statuses[0] = rocprofiler_create_context(&t.context);
    t.init_statuses[1] =
        rocprofiler_configure_callback_tracing_service(t.context,
                                                       ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                                                       nullptr,
                                                       0,
                                                       counting_callback,
                                                       nullptr);
    t.init_statuses[2] = rocprofiler_create_buffer(
        t.context, 4096, 1024, ROCPROFILER_BUFFER_POLICY_DISCARD, buffer_cb, nullptr, &t.buffer);
    t.init_statuses[3] = rocprofiler_start_context(t.context);
    return 0;
}

inline void
forced_finalize(void*)
{
    ++tool().finalize_calls;
}

inline rocprofiler_tool_configure_result_t*
forced_configure(uint32_t, const char*, uint32_t priority, rocprofiler_client_id_t* client)
{
    auto& t = tool();
    ++t.configure_calls;
    t.priority         = priority;
    t.client           = client;
    client->name       = "api-errors-forced-tool";
    static auto result = rocprofiler_tool_configure_result_t{
        sizeof(rocprofiler_tool_configure_result_t), forced_initialize, forced_finalize, nullptr};
    return t.decline ? nullptr : &result;
}

// Configures the SDK through force_configure (once per process), which locks configuration.
// False when the SDK was configured otherwise in this process (the tool is not ours).
inline bool
lock_configuration()
{
    if(tool().configure_calls.load() == 0 && !sdk_initialized())
    {
        EXPECT_EQ(rocprofiler_force_configure(forced_configure), kSuccess);
    }
    return tool().configure_calls.load() > 0;
}

#define LOCK_CONFIGURATION()                                                                       \
    do                                                                                             \
    {                                                                                              \
        if(!lock_configuration()) GTEST_SKIP() << "the SDK was configured without the test tool";  \
    } while(0)

inline rocprofiler_agent_id_t
host_agent()
{
    auto found = rocprofiler_agent_id_t{0};
    auto cb    = [](rocprofiler_agent_version_t, const void** agents, size_t n, void* data)
    {
        for(size_t i = 0; i < n; ++i)
        {
            const auto* a = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
            if(a->type == ROCPROFILER_AGENT_TYPE_GPU)
                *static_cast<rocprofiler_agent_id_t*>(data) = a->id;
        }
        return ROCPROFILER_STATUS_SUCCESS;
    };
    EXPECT_STATUS(
        kSuccess,
        rocprofiler_query_available_agents(
            ROCPROFILER_AGENT_INFO_VERSION_0, cb, sizeof(rocprofiler_agent_v0_t), &found));
    EXPECT_NE(found.handle, 0u);
    return found;
}
} // namespace api_errors
