// A tool callback of the dispatch services that throws: the exception never reaches the device's
// completion path, it is reported once with the tool's name and the callback, the tool's context
// is stopped, and the application's dispatches still complete with correct results.
#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include "sdk_test.hpp"

#include <atomic>
#include <stdexcept>
#include <string>

namespace
{
std::atomic<int> completes        = 0;
std::atomic<int> enqueues         = 0;
bool             throw_at_enqueue = false;

void
throwing_dispatch_callback(rocprofiler_callback_tracing_record_t record,
                           rocprofiler_user_data_t*,
                           void*)
{
    if(record.operation == ROCPROFILER_KERNEL_DISPATCH_ENQUEUE)
    {
        ++enqueues;
        if(throw_at_enqueue) throw std::runtime_error{"enqueue went wrong"};
        return;
    }
    if(record.operation == ROCPROFILER_KERNEL_DISPATCH_COMPLETE)
    {
        ++completes;
        throw std::runtime_error{"complete went wrong"};
    }
}

class tool_callback_exception : public sdk_test::tool_fixture
{
protected:
    tool_callback_exception()
        : tool_fixture{
              "throwing-dispatch-tool",
              []
              {
                  sdk_test::start({sdk_test::callback_tracing_context(
                      ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH, throwing_dispatch_callback)});
              }}
    {
    }
    void SetUp() override
    {
        completes        = 0;
        enqueues         = 0;
        throw_at_enqueue = false;
        tool_fixture::SetUp();
    }
};

// Runs increment_each over 16 ints twice; both dispatches must complete.
void
run_twice(std::string& err)
{
    auto queue = rocprofiler_host_queue_t{};
    ASSERT_EQ(rocprofiler_host_create_queue(&queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto kernel = sdk_test::register_kernel("increment", sdk_test::increment_each);
    auto first  = sdk_test::device_ints{16};
    auto second = sdk_test::device_ints{16};
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(sdk_test::dispatch_and_wait(queue, {kernel, &first.data(), sizeof(int*), 1, 16}), 0);
    EXPECT_EQ(sdk_test::dispatch_and_wait(queue, {kernel, &second.data(), sizeof(int*), 1, 16}), 0);
    err = ::testing::internal::GetCapturedStderr();
    EXPECT_TRUE(first.incremented_once());
    EXPECT_TRUE(second.incremented_once());
    ASSERT_EQ(rocprofiler_host_destroy_queue(queue), ROCPROFILER_HOST_STATUS_SUCCESS);
}
} // namespace

TEST_F(tool_callback_exception, a_throwing_complete_callback_stops_its_context_not_the_application)
{
    auto err = std::string{};
    run_twice(err);
    // The first COMPLETE threw; the context was stopped, so the second dispatch is not traced.
    EXPECT_EQ(completes.load(), 1);
    // ENTER of the first dispatch, and its EXIT unless the COMPLETE on the device thread threw
    // (and stopped the context) before the submitting thread reached the EXIT callback.
    EXPECT_GE(enqueues.load(), 1);
    EXPECT_LE(enqueues.load(), 2);
    EXPECT_NE(err.find("KERNEL_DISPATCH COMPLETE callback"), std::string::npos) << err;
    EXPECT_NE(err.find("complete went wrong"), std::string::npos) << err;
    EXPECT_NE(err.find("tool 'throwing-dispatch-tool'"), std::string::npos) << err;
    EXPECT_NE(err.find("is stopped"), std::string::npos) << err;
}

TEST_F(tool_callback_exception, a_throwing_enqueue_callback_stops_its_context_not_the_application)
{
    throw_at_enqueue = true;
    auto err         = std::string{};
    run_twice(err);
    EXPECT_EQ(enqueues.load(), 1);
    EXPECT_EQ(completes.load(), 0);
    EXPECT_NE(err.find("KERNEL_DISPATCH ENQUEUE callback"), std::string::npos) << err;
    EXPECT_NE(err.find("enqueue went wrong"), std::string::npos) << err;
}
