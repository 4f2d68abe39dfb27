#include "test_support.hpp"

#include <set>
#include <string>

TEST(host_status, every_code_has_a_distinct_name_and_a_message)
{
    auto names = std::set<std::string>{};
    for(int i = 0; i < ROCPROFILER_HOST_STATUS_LAST; ++i)
    {
        auto        status  = static_cast<rocprofiler_host_status_t>(i);
        std::string name    = rocprofiler_host_status_string(status);
        std::string message = rocprofiler_host_status_message(status);
        EXPECT_EQ(name.rfind("ROCPROFILER_HOST_STATUS_", 0), 0u) << name;
        EXPECT_NE(name, "ROCPROFILER_HOST_STATUS_UNKNOWN");
        EXPECT_FALSE(message.empty());
        EXPECT_TRUE(names.insert(name).second) << "duplicate " << name;
    }
    EXPECT_STREQ(rocprofiler_host_status_string(ROCPROFILER_HOST_STATUS_SUCCESS),
                 "ROCPROFILER_HOST_STATUS_SUCCESS");
    EXPECT_STREQ(rocprofiler_host_status_string(ROCPROFILER_HOST_STATUS_TIMEOUT),
                 "ROCPROFILER_HOST_STATUS_TIMEOUT");
}

TEST(host_status, out_of_range_codes_are_unknown)
{
    EXPECT_STREQ(rocprofiler_host_status_string(ROCPROFILER_HOST_STATUS_LAST),
                 "ROCPROFILER_HOST_STATUS_UNKNOWN");
    EXPECT_STREQ(rocprofiler_host_status_string(static_cast<rocprofiler_host_status_t>(15)),
                 "ROCPROFILER_HOST_STATUS_UNKNOWN");
    EXPECT_NE(rocprofiler_host_status_message(
                  static_cast<rocprofiler_host_status_t>(ROCPROFILER_HOST_STATUS_LAST + 1)),
              nullptr);
}

TEST(host_agent, properties_describe_the_device)
{
    auto& dev   = rocprofiler::host::get_device();
    auto  props = dev.properties();
    EXPECT_EQ(props.name, "Host reference device");
    EXPECT_EQ(props.vendor, "rocprofiler-sdk host reference device");
    EXPECT_EQ(props.worker_count, dev.worker_count());
    EXPECT_GE(props.worker_count, 1u);
    EXPECT_EQ(props.max_workgroup_size, ROCPROFILER_HOST_MAX_WORKGROUP_SIZE);
    EXPECT_EQ(props.allocation_alignment, ROCPROFILER_HOST_ALLOCATION_ALIGNMENT);

    auto count = uint32_t{0};
    HOST_ASSERT_OK(rocprofiler_host_get_worker_count(&count));
    EXPECT_EQ(count, props.worker_count);
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_get_worker_count(nullptr));
}

TEST(host_agent, worker_count_comes_from_options_then_environment)
{
    using rocprofiler::host::device;
    using rocprofiler::host::device_options;
    {
        auto dev = device{device_options{3}};
        EXPECT_EQ(dev.worker_count(), 3u);
    }
    // The test environment sets ROCPROFILER_HOST_WORKERS; save and restore it.
    const char* saved     = std::getenv("ROCPROFILER_HOST_WORKERS");
    auto        saved_str = std::string{saved ? saved : ""};
    ::setenv("ROCPROFILER_HOST_WORKERS", "5", 1);
    {
        auto dev = device{};
        EXPECT_EQ(dev.worker_count(), 5u);
    }
    ::setenv("ROCPROFILER_HOST_WORKERS", "not-a-number", 1);
    {
        auto dev = device{};
        EXPECT_GE(dev.worker_count(), 2u); // default: hardware concurrency, at least 2
    }
    if(saved)
        ::setenv("ROCPROFILER_HOST_WORKERS", saved_str.c_str(), 1);
    else
        ::unsetenv("ROCPROFILER_HOST_WORKERS");
}

TEST(host_clock, timestamps_are_monotonic)
{
    auto a = uint64_t{0};
    auto b = uint64_t{0};
    HOST_ASSERT_OK(rocprofiler_host_get_timestamp(&a));
    b = rocprofiler::host::now_ns();
    EXPECT_GT(a, 0u);
    EXPECT_LE(a, b);
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_get_timestamp(nullptr));
}
