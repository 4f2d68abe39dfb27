// Memory copy tracing on the host device: one record per rocprofiler_host_memcpy, in each of the
// four directions, with its bytes, addresses, agents, thread, timestamps and a correlation id from
// the sequence dispatches take theirs from; the operation filter; external correlation ids; and
// nothing for a failed copy, a zero-byte copy or a stopped context.
#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/external_correlation.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include "sdk_test.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <cstddef>
#include <mutex>
#include <vector>

namespace
{
struct collected
{
    std::mutex                                                       mutex   = {};
    std::vector<rocprofiler_buffer_tracing_memory_copy_record_t>     copies  = {};
    std::vector<rocprofiler_buffer_tracing_kernel_dispatch_record_t> kernels = {};
    uint64_t                                                         dropped = 0;
    uint64_t                                                         unknown = 0;
};

collected&
seen()
{
    static auto* value = new collected{};
    return *value;
}

void
collect(rocprofiler_context_id_t,
        rocprofiler_buffer_id_t,
        rocprofiler_record_header_t** headers,
        size_t                        count,
        void*,
        uint64_t drops)
{
    auto& s    = seen();
    auto  lock = std::lock_guard{s.mutex};
    s.dropped += drops;
    for(size_t i = 0; i < count; ++i)
    {
        const auto* h = headers[i];
        if(h->category == ROCPROFILER_BUFFER_CATEGORY_TRACING &&
           h->kind == ROCPROFILER_BUFFER_TRACING_MEMORY_COPY)
            s.copies.push_back(
                *static_cast<const rocprofiler_buffer_tracing_memory_copy_record_t*>(h->payload));
        else if(h->category == ROCPROFILER_BUFFER_CATEGORY_TRACING &&
                h->kind == ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH)
            s.kernels.push_back(
                *static_cast<const rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(
                    h->payload));
        else
            ++s.unknown;
    }
}

// Set by the tool's initialize: which directions the copy context traces (empty: all).
std::vector<rocprofiler_tracing_operation_t> traced_directions = {};
rocprofiler_context_id_t                     copy_context      = {};
rocprofiler_buffer_id_t                      copy_buffer       = {};

void
init_tool_unstarted()
{
    copy_context = sdk_test::create_context();
    copy_buffer  = sdk_test::create_buffer(copy_context, 1 << 16, 1 << 15, collect);
    SDK_TEST_CHECK(rocprofiler_configure_buffer_tracing_service(
        copy_context,
        ROCPROFILER_BUFFER_TRACING_MEMORY_COPY,
        traced_directions.empty() ? nullptr : traced_directions.data(),
        traced_directions.size(),
        copy_buffer));
    SDK_TEST_CHECK(rocprofiler_configure_buffer_tracing_service(
        copy_context, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0, copy_buffer));
}

void
init_tool()
{
    init_tool_unstarted();
    sdk_test::start({copy_context});
}

// Only device-to-host copies are traced.
void
init_d2h_only()
{
    traced_directions = {ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST};
    init_tool();
}

// The external id request service, asked for memory copies only: each copy gets 1000 plus its
// direction, and the request sees the copy's internal id.
std::vector<uint64_t> requested_internal_ids = {};

int
external_for_copy(rocprofiler_thread_id_t,
                  rocprofiler_context_id_t,
                  rocprofiler_external_correlation_id_request_kind_t kind,
                  rocprofiler_tracing_operation_t                    operation,
                  uint64_t                                           internal_id,
                  rocprofiler_user_data_t*                           external,
                  void*)
{
    if(kind != ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_COPY) return 1;
    requested_internal_ids.push_back(internal_id);
    external->value = 1000 + static_cast<uint64_t>(operation);
    return 0;
}

void
init_with_requests()
{
    init_tool_unstarted();
    const auto kind = ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_COPY;
    SDK_TEST_CHECK(rocprofiler_configure_external_correlation_id_request_service(
        copy_context, &kind, 1, external_for_copy, nullptr));
    sdk_test::start({copy_context});
}

class copy_fixture : public sdk_test::tool_fixture
{
protected:
    copy_fixture(const char* name, void (*init)())
        : tool_fixture{name, init}
    {
    }
    void SetUp() override
    {
        {
            auto lock = std::lock_guard{seen().mutex};
            seen().copies.clear();
            seen().kernels.clear();
            seen().dropped = 0;
            seen().unknown = 0;
        }
        tool_fixture::SetUp();
        ASSERT_EQ(rocprofiler_host_malloc(bytes, &m_a), ROCPROFILER_HOST_STATUS_SUCCESS);
        ASSERT_EQ(rocprofiler_host_malloc(bytes, &m_b), ROCPROFILER_HOST_STATUS_SUCCESS);
        for(size_t i = 0; i < m_host.size(); ++i)
            m_host[i] = static_cast<char>(i);
    }
    void TearDown() override
    {
        rocprofiler_host_free(m_a);
        rocprofiler_host_free(m_b);
        traced_directions.clear();
    }

    static std::vector<rocprofiler_buffer_tracing_memory_copy_record_t> copies()
    {
        EXPECT_EQ(rocprofiler_flush_buffer(copy_buffer), ROCPROFILER_STATUS_SUCCESS);
        auto lock = std::lock_guard{seen().mutex};
        EXPECT_EQ(seen().dropped, 0u);
        EXPECT_EQ(seen().unknown, 0u);
        return seen().copies;
    }

    // Host to device, device to device, device to host, host to host.
    void copy_each_way()
    {
        ASSERT_EQ(rocprofiler_host_memcpy(m_a, m_host.data(), bytes),
                  ROCPROFILER_HOST_STATUS_SUCCESS);
        ASSERT_EQ(rocprofiler_host_memcpy(m_b, m_a, bytes), ROCPROFILER_HOST_STATUS_SUCCESS);
        ASSERT_EQ(rocprofiler_host_memcpy(m_back.data(), m_b, bytes - 8),
                  ROCPROFILER_HOST_STATUS_SUCCESS);
        ASSERT_EQ(rocprofiler_host_memcpy(m_other.data(), m_back.data(), 16),
                  ROCPROFILER_HOST_STATUS_SUCCESS);
    }

    static constexpr size_t bytes   = 4096;
    void*                   m_a     = nullptr;
    void*                   m_b     = nullptr;
    std::array<char, bytes> m_host  = {};
    std::array<char, bytes> m_back  = {};
    std::array<char, bytes> m_other = {};
};

uint64_t
address(const void* p)
{
    return reinterpret_cast<uint64_t>(p);
}

class memory_copy_tracing : public copy_fixture
{
protected:
    memory_copy_tracing()
        : copy_fixture{"memory-copy-test", init_tool}
    {
    }
};

class memory_copy_filtered : public copy_fixture
{
protected:
    memory_copy_filtered()
        : copy_fixture{"memory-copy-filtered-test", init_d2h_only}
    {
    }
};

class memory_copy_requests : public copy_fixture
{
protected:
    memory_copy_requests()
        : copy_fixture{"memory-copy-request-test", init_with_requests}
    {
    }
};

TEST_F(memory_copy_requests, the_request_callback_gives_each_copy_its_external_id)
{
    requested_internal_ids.clear();
    copy_each_way();
    const auto list = copies();
    ASSERT_EQ(list.size(), 4u);
    ASSERT_EQ(requested_internal_ids.size(), 4u);
    for(size_t i = 0; i < list.size(); ++i)
    {
        EXPECT_EQ(list[i].correlation_id.external.value,
                  1000u + static_cast<uint64_t>(list[i].operation));
        EXPECT_EQ(list[i].correlation_id.internal, requested_internal_ids[i]);
    }
}

TEST_F(memory_copy_tracing, each_direction_gets_one_record_with_what_was_copied)
{
    const auto before = rocprofiler_timestamp_t{};
    auto       start  = before;
    ASSERT_EQ(rocprofiler_get_timestamp(&start), ROCPROFILER_STATUS_SUCCESS);
    copy_each_way();
    auto end = rocprofiler_timestamp_t{};
    ASSERT_EQ(rocprofiler_get_timestamp(&end), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(m_back[100], m_host[100]); // the copies themselves still happened
    EXPECT_EQ(m_other[15], m_host[15]);

    const auto list = copies();
    ASSERT_EQ(list.size(), 4u);
    const auto device = sdk_test::gpu_agent();
    const auto none   = rocprofiler_agent_id_t{0};
    struct expected
    {
        rocprofiler_memory_copy_operation_t op;
        const void*                         dst;
        const void*                         src;
        uint64_t                            bytes;
        rocprofiler_agent_id_t              dst_agent;
        rocprofiler_agent_id_t              src_agent;
    };
    const auto want = std::array<expected, 4>{
        expected{ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE, m_a, m_host.data(), bytes, device, none},
        expected{ROCPROFILER_MEMORY_COPY_DEVICE_TO_DEVICE, m_b, m_a, bytes, device, device},
        expected{
            ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST, m_back.data(), m_b, bytes - 8, none, device},
        expected{
            ROCPROFILER_MEMORY_COPY_HOST_TO_HOST, m_other.data(), m_back.data(), 16, none, none}};
    const auto tid = static_cast<uint64_t>(syscall(SYS_gettid));
    for(size_t i = 0; i < want.size(); ++i)
    {
        const auto& r = list[i];
        SCOPED_TRACE(i);
        EXPECT_EQ(r.size, sizeof(r));
        EXPECT_EQ(r.kind, ROCPROFILER_BUFFER_TRACING_MEMORY_COPY);
        EXPECT_EQ(r.operation, want[i].op);
        EXPECT_EQ(r.dst_address.value, address(want[i].dst));
        EXPECT_EQ(r.src_address.ptr, want[i].src);
        EXPECT_EQ(r.bytes, want[i].bytes);
        EXPECT_EQ(r.dst_agent_id.handle, want[i].dst_agent.handle);
        EXPECT_EQ(r.src_agent_id.handle, want[i].src_agent.handle);
        EXPECT_EQ(r.thread_id, tid);
        EXPECT_GE(r.start_timestamp, start);
        EXPECT_LE(r.start_timestamp, r.end_timestamp);
        EXPECT_LE(r.end_timestamp, end);
        EXPECT_EQ(r.correlation_id.external.value, 0u);
        if(i > 0)
        {
            EXPECT_GT(r.correlation_id.internal, list[i - 1].correlation_id.internal);
            EXPECT_GE(r.start_timestamp, list[i - 1].end_timestamp);
        }
        else
            EXPECT_GT(r.correlation_id.internal, 0u);
    }
}

TEST_F(memory_copy_tracing, copies_and_dispatches_share_one_correlation_sequence)
{
    ASSERT_EQ(rocprofiler_host_memcpy(m_a, m_host.data(), 64), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto queue = rocprofiler_host_queue_t{};
    ASSERT_EQ(rocprofiler_host_create_queue(&queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto ints = sdk_test::device_ints{64};
    EXPECT_EQ(sdk_test::dispatch_and_wait(
                  queue,
                  {sdk_test::register_kernel("copy_test_increment", sdk_test::increment_each),
                   &ints.data(),
                   sizeof(int*),
                   1,
                   64}),
              0);
    ASSERT_EQ(rocprofiler_host_memcpy(m_host.data(), m_a, 64), ROCPROFILER_HOST_STATUS_SUCCESS);
    rocprofiler_host_destroy_queue(queue);

    const auto list = copies();
    ASSERT_EQ(list.size(), 2u);
    auto kernels = std::vector<rocprofiler_buffer_tracing_kernel_dispatch_record_t>{};
    {
        auto lock = std::lock_guard{seen().mutex};
        kernels   = seen().kernels;
    }
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_LT(list[0].correlation_id.internal, kernels[0].correlation_id.internal);
    EXPECT_GT(list[1].correlation_id.internal, kernels[0].correlation_id.internal);
}

TEST_F(memory_copy_tracing, failed_empty_and_untraced_copies_leave_no_record)
{
    // Overruns its device allocation: refused, nothing copied, nothing recorded.
    EXPECT_EQ(rocprofiler_host_memcpy(m_a, m_host.data(), bytes + 1),
              ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_host_memcpy(m_a, m_host.data(), 0), ROCPROFILER_HOST_STATUS_SUCCESS);
    EXPECT_TRUE(copies().empty());

    ASSERT_EQ(rocprofiler_stop_context(copy_context), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(rocprofiler_host_memcpy(m_a, m_host.data(), 8), ROCPROFILER_HOST_STATUS_SUCCESS);
    EXPECT_TRUE(copies().empty());

    ASSERT_EQ(rocprofiler_start_context(copy_context), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(rocprofiler_host_memcpy(m_a, m_host.data(), 8), ROCPROFILER_HOST_STATUS_SUCCESS);
    EXPECT_EQ(copies().size(), 1u);
}

TEST_F(memory_copy_tracing, a_pushed_external_correlation_id_is_in_the_record)
{
    auto tid = rocprofiler_thread_id_t{};
    ASSERT_EQ(rocprofiler_get_thread_id(&tid), ROCPROFILER_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_push_external_correlation_id(
                  copy_context, tid, rocprofiler_user_data_t{.value = 4242}),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(rocprofiler_host_memcpy(m_a, m_host.data(), 8), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto popped = rocprofiler_user_data_t{};
    ASSERT_EQ(rocprofiler_pop_external_correlation_id(copy_context, tid, &popped),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(rocprofiler_host_memcpy(m_a, m_host.data(), 8), ROCPROFILER_HOST_STATUS_SUCCESS);
    const auto list = copies();
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0].correlation_id.external.value, 4242u);
    EXPECT_EQ(list[1].correlation_id.external.value, 0u);
}

// The record's layout is rocprofiler-sdk's, so that a tool built against its headers reads ours.
TEST(memory_copy_record, has_the_layout_of_rocprofiler_sdk)
{
    using record = rocprofiler_buffer_tracing_memory_copy_record_t;
    EXPECT_EQ(offsetof(record, kind), 8u);
    EXPECT_EQ(offsetof(record, operation), 12u);
    EXPECT_EQ(offsetof(record, correlation_id), 16u);
    EXPECT_EQ(offsetof(record, thread_id), 32u);
    EXPECT_EQ(offsetof(record, start_timestamp), 40u);
    EXPECT_EQ(offsetof(record, end_timestamp), 48u);
    EXPECT_EQ(offsetof(record, dst_agent_id), 56u);
    EXPECT_EQ(offsetof(record, src_agent_id), 64u);
    EXPECT_EQ(offsetof(record, bytes), 72u);
    EXPECT_EQ(offsetof(record, dst_address), 80u);
    EXPECT_EQ(offsetof(record, src_address), 88u);
    EXPECT_EQ(sizeof(record), 96u);
    using data = rocprofiler_callback_tracing_memory_copy_data_t;
    EXPECT_EQ(offsetof(data, dst_agent_id), 24u);
    EXPECT_EQ(offsetof(data, bytes), 40u);
    EXPECT_EQ(sizeof(data), 64u);
    EXPECT_EQ(sizeof(rocprofiler_address_t), 8u);
}

TEST_F(memory_copy_filtered, only_the_traced_directions_are_recorded)
{
    copy_each_way();
    const auto list = copies();
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0].operation, ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST);
    EXPECT_EQ(list[0].bytes, bytes - 8);
}
} // namespace
