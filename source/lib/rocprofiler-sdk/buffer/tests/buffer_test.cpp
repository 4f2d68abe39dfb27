// Unit tests of buffers and callback threads: the C API of buffer.h and internal_threading.h, and
// the internal record path (rocprofiler::buffer::emplace) that the services use.
#include "buffer/buffer.hpp"
#include "registration/registration.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <gtest/gtest.h>
#include <mutex>
#include <rocprofiler-sdk/buffer.h>
#include <rocprofiler-sdk/context.h>
#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/internal_threading.h>
#include <stdexcept>
#include <thread>
#include <vector>

namespace
{
namespace buffer = rocprofiler::buffer;
using namespace std::chrono_literals;

constexpr auto patience = 10s; // how long a test waits for an asynchronous delivery

struct record
{
    uint64_t producer = 0;
    uint64_t sequence = 0;
};

struct delivered
{
    uint32_t             category = 0;
    uint32_t             kind     = 0;
    std::vector<uint8_t> bytes    = {};
    uintptr_t            address  = 0;
};

// Collects what a buffer callback receives. A gate can hold the callback (to keep a half in
// delivery) until the test opens it.
struct collector
{
    std::mutex                   mutex        = {};
    std::condition_variable      changed      = {};
    std::vector<record>          records      = {};
    std::vector<delivered>       raw          = {};
    std::vector<uint64_t>        drop_counts  = {};
    std::vector<size_t>          batch_sizes  = {};
    std::vector<std::thread::id> threads      = {};
    size_t                       payload_size = sizeof(record); // payload size of every record
    bool                         keep_raw     = false;
    bool                         gate_closed  = false;
    size_t                       in_callback  = 0;
    rocprofiler_buffer_id_t      last_buffer  = {};
    rocprofiler_context_id_t     last_context = {};

    uint64_t total_drops()
    {
        auto     lock = std::lock_guard{mutex};
        uint64_t sum  = 0;
        for(auto d : drop_counts)
            sum += d;
        return sum;
    }

    size_t deliveries()
    {
        auto lock = std::lock_guard{mutex};
        return batch_sizes.size();
    }

    size_t count()
    {
        auto lock = std::lock_guard{mutex};
        return keep_raw ? raw.size() : records.size();
    }

    // Waits until pred() holds (under the mutex) or patience runs out.
    template <typename PredT> bool wait_for(PredT&& pred)
    {
        auto lock = std::unique_lock{mutex};
        return changed.wait_for(lock, patience, [&] { return pred(); });
    }

    void close_gate()
    {
        auto lock   = std::lock_guard{mutex};
        gate_closed = true;
    }

    void open_gate()
    {
        {
            auto lock   = std::lock_guard{mutex};
            gate_closed = false;
        }
        changed.notify_all();
    }

    static void callback(rocprofiler_context_id_t      ctx,
                         rocprofiler_buffer_id_t       id,
                         rocprofiler_record_header_t** headers,
                         size_t                        num_headers,
                         void*                         data,
                         uint64_t                      drop_count)
    {
        auto* self         = static_cast<collector*>(data);
        auto  lock         = std::unique_lock{self->mutex};
        self->last_buffer  = id;
        self->last_context = ctx;
        self->drop_counts.push_back(drop_count);
        self->batch_sizes.push_back(num_headers);
        self->threads.push_back(std::this_thread::get_id());
        for(size_t i = 0; i < num_headers; ++i)
        {
            auto* header = headers[i];
            if(self->keep_raw)
            {
                auto  item  = delivered{header->category, header->kind, {}, 0};
                auto* bytes = static_cast<const uint8_t*>(header->payload);
                item.bytes.assign(bytes, bytes + self->payload_size);
                item.address = reinterpret_cast<uintptr_t>(header->payload);
                self->raw.push_back(std::move(item));
            }
            else
            {
                auto value = record{};
                std::memcpy(&value, header->payload, sizeof(value));
                self->records.push_back(value);
            }
        }
        ++self->in_callback;
        self->changed.notify_all();
        self->changed.wait(lock, [self] { return !self->gate_closed; });
        --self->in_callback;
        self->changed.notify_all();
    }
};

// One context for every test: the SDK holds a bounded number of contexts per process, and
// --gtest_repeat runs each test many times.
// Opens a collector's gate when a test ends, on every path, before its buffer is destroyed.
struct gate_opener
{
    collector& sink;
    ~gate_opener() { sink.open_gate(); }
};

rocprofiler_context_id_t
make_context()
{
    static const auto ctx = []
    {
        auto value = rocprofiler_context_id_t{};
        EXPECT_EQ(rocprofiler_create_context(&value), ROCPROFILER_STATUS_SUCCESS);
        return value;
    }();
    return ctx;
}

// A buffer destroyed at the end of the test, so that no callback outlives its collector.
struct scoped_buffer
{
    rocprofiler_buffer_id_t id = {};

    scoped_buffer(size_t                          size,
                  size_t                          watermark,
                  rocprofiler_buffer_policy_t     policy,
                  collector&                      sink,
                  rocprofiler_buffer_tracing_cb_t cb = &collector::callback)
    {
        auto status =
            rocprofiler_create_buffer(make_context(), size, watermark, policy, cb, &sink, &id);
        EXPECT_EQ(status, ROCPROFILER_STATUS_SUCCESS);
    }
    ~scoped_buffer()
    {
        if(buffer::exists(id))
        {
            EXPECT_EQ(rocprofiler_destroy_buffer(id), ROCPROFILER_STATUS_SUCCESS);
        }
    }
    scoped_buffer(const scoped_buffer&)            = delete;
    scoped_buffer& operator=(const scoped_buffer&) = delete;
};

bool
put(rocprofiler_buffer_id_t id, uint64_t producer, uint64_t sequence)
{
    return buffer::emplace(id,
                           ROCPROFILER_BUFFER_CATEGORY_TRACING,
                           ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH,
                           record{producer, sequence});
}

void
dummy_callback(rocprofiler_context_id_t,
               rocprofiler_buffer_id_t,
               rocprofiler_record_header_t**,
               size_t,
               void*,
               uint64_t)
{
}

// rocprofiler_create_buffer's arguments; the defaults are what most tests use. The policy is an
// int because a C tool may pass any int.
struct buffer_args
{
    rocprofiler_context_id_t        context   = make_context();
    size_t                          size      = 64;
    size_t                          watermark = 0;
    int                             policy    = ROCPROFILER_BUFFER_POLICY_LOSSLESS;
    rocprofiler_buffer_tracing_cb_t callback  = dummy_callback;
    void*                           data      = nullptr;
};

rocprofiler_status_t
create(const buffer_args& args, rocprofiler_buffer_id_t* id)
{
    return rocprofiler_create_buffer(args.context,
                                     args.size,
                                     args.watermark,
                                     static_cast<rocprofiler_buffer_policy_t>(args.policy),
                                     args.callback,
                                     args.data,
                                     id);
}
} // namespace

// ---------------------------------------------------------------------------------------------
// Creation
// ---------------------------------------------------------------------------------------------

TEST(buffer_create, rejects_unknown_context)
{
    auto id = rocprofiler_buffer_id_t{};
    EXPECT_EQ(create({.context = rocprofiler_context_id_t{0}}, &id),
              ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
    EXPECT_EQ(create({.context = rocprofiler_context_id_t{0xdeadbeef}}, &id),
              ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
    EXPECT_EQ(id.handle, 0u);
}

TEST(buffer_create, rejects_invalid_arguments)
{
    auto       id       = rocprofiler_buffer_id_t{};
    const auto lossless = ROCPROFILER_BUFFER_POLICY_LOSSLESS;
    EXPECT_EQ(create({.policy = lossless, .callback = nullptr}, &id),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(create({.policy = lossless}, nullptr), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(create({.size = 0, .policy = lossless}, &id),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(create({.watermark = 65, .policy = lossless}, &id),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(create({.policy = ROCPROFILER_BUFFER_POLICY_LAST}, &id),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(create({.policy = -1}, &id), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(create({.policy = 1000}, &id), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(id.handle, 0u);
    // Watermark equal to size is allowed.
    ASSERT_EQ(create({.watermark = 64, .policy = lossless}, &id), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_NE(id.handle, 0u);
    EXPECT_EQ(rocprofiler_destroy_buffer(id), ROCPROFILER_STATUS_SUCCESS);
}

TEST(buffer_create, impossible_size_is_out_of_resources_not_a_crash)
{
    auto id = rocprofiler_buffer_id_t{};
    EXPECT_EQ(create({.size = SIZE_MAX}, &id), ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES);
    EXPECT_EQ(create({.size = SIZE_MAX / 2}, &id), ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES);
}

TEST(buffer_create, exists_and_owner)
{
    auto sink = collector{};
    auto ctx  = make_context();
    auto id   = rocprofiler_buffer_id_t{};
    ASSERT_EQ(create({.policy   = ROCPROFILER_BUFFER_POLICY_DISCARD,
                      .callback = collector::callback,
                      .data     = &sink},
                     &id),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_TRUE(buffer::exists(id));
    ASSERT_TRUE(buffer::owner(id).has_value());
    EXPECT_EQ(buffer::owner(id)->handle, ctx.handle);
    EXPECT_FALSE(buffer::exists(rocprofiler_buffer_id_t{0}));
    EXPECT_FALSE(buffer::owner(rocprofiler_buffer_id_t{0}).has_value());
    EXPECT_FALSE(buffer::exists(rocprofiler_buffer_id_t{UINT64_MAX}));

    ASSERT_TRUE(put(id, 0, 0));
    ASSERT_EQ(rocprofiler_flush_buffer(id), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(sink.last_buffer.handle, id.handle);
    EXPECT_EQ(sink.last_context.handle, ctx.handle);

    ASSERT_EQ(rocprofiler_destroy_buffer(id), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_FALSE(buffer::exists(id));
    EXPECT_FALSE(buffer::owner(id).has_value());
}

// ---------------------------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------------------------

TEST(buffer_records, payloads_are_copied_aligned_and_in_order)
{
    auto sink         = collector{};
    sink.keep_raw     = true;
    sink.payload_size = 0; // set per record below
    auto buf          = scoped_buffer{4096, 4096, ROCPROFILER_BUFFER_POLICY_LOSSLESS, sink};

    // Sizes that are not multiples of 8; the source is overwritten after each emplace to prove the
    // payload was copied.
    const std::vector<size_t> sizes  = {1, 3, 8, 13, 16, 31, 0, 7};
    auto                      source = std::vector<uint8_t>(64);
    for(size_t i = 0; i < sizes.size(); ++i)
    {
        for(size_t b = 0; b < source.size(); ++b)
            source[b] = static_cast<uint8_t>(i * 16 + b);
        ASSERT_TRUE(buffer::emplace(buf.id,
                                    ROCPROFILER_BUFFER_CATEGORY_COUNTERS,
                                    static_cast<uint32_t>(100 + i),
                                    source.data(),
                                    sizes[i]));
        std::memset(source.data(), 0xff, source.size());
    }
    // Payload bytes are checked inside the callback by the next test.
    ASSERT_EQ(rocprofiler_flush_buffer(buf.id), ROCPROFILER_STATUS_SUCCESS);
    ASSERT_EQ(sink.count(), sizes.size());
    for(size_t i = 0; i < sizes.size(); ++i)
    {
        EXPECT_EQ(sink.raw[i].category, ROCPROFILER_BUFFER_CATEGORY_COUNTERS);
        EXPECT_EQ(sink.raw[i].kind, 100 + i);
        EXPECT_EQ(sink.raw[i].address % 8, 0u) << "record " << i;
    }
    EXPECT_EQ(sink.drop_counts.back(), 0u);
}

namespace
{
// Checks the bytes of every payload inside the callback (payloads are valid only there).
struct content_checker
{
    std::vector<std::vector<uint8_t>> expected = {};
    size_t                            checked  = 0;
    size_t                            failures = 0;

    static void callback(rocprofiler_context_id_t,
                         rocprofiler_buffer_id_t,
                         rocprofiler_record_header_t** headers,
                         size_t                        num_headers,
                         void*                         data,
                         uint64_t)
    {
        auto* self = static_cast<content_checker*>(data);
        for(size_t i = 0; i < num_headers; ++i, ++self->checked)
        {
            const auto& want = self->expected.at(self->checked);
            if(headers[i]->kind != self->checked ||
               std::memcmp(headers[i]->payload, want.data(), want.size()) != 0)
                ++self->failures;
        }
    }
};
} // namespace

TEST(buffer_records, payload_bytes_survive_across_deliveries)
{
    auto checker = content_checker{};
    auto id      = rocprofiler_buffer_id_t{};
    ASSERT_EQ(
        create(
            {.size = 100, .watermark = 50, .callback = content_checker::callback, .data = &checker},
            &id),
        ROCPROFILER_STATUS_SUCCESS);
    for(size_t i = 0; i < 200; ++i)
    {
        auto bytes = std::vector<uint8_t>(1 + (i * 7) % 40);
        for(size_t b = 0; b < bytes.size(); ++b)
            bytes[b] = static_cast<uint8_t>(i ^ (b * 31));
        checker.expected.push_back(bytes);
    }
    for(size_t i = 0; i < checker.expected.size(); ++i)
        ASSERT_TRUE(buffer::emplace(id,
                                    ROCPROFILER_BUFFER_CATEGORY_TRACING,
                                    static_cast<uint32_t>(i),
                                    checker.expected[i].data(),
                                    checker.expected[i].size()));
    ASSERT_EQ(rocprofiler_destroy_buffer(id), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(checker.checked, checker.expected.size());
    EXPECT_EQ(checker.failures, 0u);
}

TEST(buffer_records, null_record_with_size_is_rejected)
{
    auto sink = collector{};
    auto buf  = scoped_buffer{64, 64, ROCPROFILER_BUFFER_POLICY_LOSSLESS, sink};
    EXPECT_FALSE(buffer::emplace(buf.id, 1, 1, nullptr, 8));
    EXPECT_FALSE(put(rocprofiler_buffer_id_t{0}, 0, 0));
    EXPECT_FALSE(put(rocprofiler_buffer_id_t{UINT64_MAX}, 0, 0));
}

// ---------------------------------------------------------------------------------------------
// Watermark
// ---------------------------------------------------------------------------------------------

TEST(buffer_watermark, reaching_it_delivers_without_flush)
{
    auto sink = collector{};
    auto buf  = scoped_buffer{1024, 64, ROCPROFILER_BUFFER_POLICY_LOSSLESS, sink};
    for(uint64_t i = 0; i < 3; ++i) // 48 bytes: below the watermark
        ASSERT_TRUE(put(buf.id, 0, i));
    std::this_thread::sleep_for(100ms);
    EXPECT_EQ(sink.deliveries(), 0u);
    ASSERT_TRUE(put(buf.id, 0, 3)); // 64 bytes: reaches it
    EXPECT_TRUE(sink.wait_for([&] { return sink.records.size() == 4; }));
    EXPECT_EQ(sink.batch_sizes.at(0), 4u);
}

TEST(buffer_watermark, zero_delivers_each_record_promptly)
{
    auto sink = collector{};
    auto buf  = scoped_buffer{1024, 0, ROCPROFILER_BUFFER_POLICY_LOSSLESS, sink};
    for(uint64_t i = 0; i < 5; ++i)
    {
        ASSERT_TRUE(put(buf.id, 0, i));
        EXPECT_TRUE(sink.wait_for([&] { return sink.records.size() == i + 1; })) << i;
    }
    for(uint64_t i = 0; i < 5; ++i)
        EXPECT_EQ(sink.records[i].sequence, i);
}

TEST(buffer_watermark, below_it_waits_for_flush)
{
    auto sink = collector{};
    auto buf  = scoped_buffer{1024, 1024, ROCPROFILER_BUFFER_POLICY_LOSSLESS, sink};
    for(uint64_t i = 0; i < 10; ++i)
        ASSERT_TRUE(put(buf.id, 0, i));
    std::this_thread::sleep_for(100ms);
    EXPECT_EQ(sink.deliveries(), 0u);
    ASSERT_EQ(rocprofiler_flush_buffer(buf.id), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(sink.count(), 10u);
    EXPECT_EQ(sink.deliveries(), 1u);
}

// ---------------------------------------------------------------------------------------------
// Policies
// ---------------------------------------------------------------------------------------------

namespace
{
// Fills both halves of a 64-byte buffer (4 records each) while the callback is held on the first.
void
fill_both_halves_with_callback_held(collector& sink, rocprofiler_buffer_id_t id)
{
    sink.close_gate();
    for(uint64_t i = 0; i < 4; ++i)
        ASSERT_TRUE(put(id, 0, i));
    ASSERT_TRUE(sink.wait_for([&] { return sink.in_callback == 1; }));
    for(uint64_t i = 4; i < 8; ++i)
        ASSERT_TRUE(put(id, 0, i));
}
} // namespace

TEST(buffer_policy, discard_drops_when_full_and_reports_drop_count_once)
{
    auto sink   = collector{};
    auto buf    = scoped_buffer{64, 64, ROCPROFILER_BUFFER_POLICY_DISCARD, sink};
    auto opener = gate_opener{sink};
    fill_both_halves_with_callback_held(sink, buf.id);
    // Both halves full, one in delivery: DISCARD does not wait.
    auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(put(buf.id, 0, 8));
    EXPECT_FALSE(put(buf.id, 0, 9));
    EXPECT_FALSE(put(buf.id, 0, 10));
    EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
    sink.open_gate();
    ASSERT_EQ(rocprofiler_flush_buffer(buf.id), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(sink.count(), 8u);
    EXPECT_EQ(sink.total_drops(), 3u);
    for(uint64_t i = 0; i < 8; ++i)
        EXPECT_EQ(sink.records[i].sequence, i);

    // The count was reset by the delivery that reported it.
    ASSERT_TRUE(put(buf.id, 0, 11));
    ASSERT_EQ(rocprofiler_flush_buffer(buf.id), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(sink.drop_counts.back(), 0u);
    EXPECT_EQ(sink.total_drops(), 3u);
}

namespace
{
// Both halves full, the callback held on one: a producer under `policy` waits for room, then
// stores its record; nothing is dropped and the order is kept.
void
expect_producer_waits_for_room(rocprofiler_buffer_policy_t policy)
{
    auto sink   = collector{};
    auto buf    = scoped_buffer{64, 64, policy, sink};
    auto opener = gate_opener{sink};
    fill_both_halves_with_callback_held(sink, buf.id);
    auto done     = std::atomic<bool>{false};
    auto stored   = std::atomic<bool>{false};
    auto producer = std::thread{[&]
                                {
                                    stored = put(buf.id, 0, 8);
                                    done   = true;
                                }};
    std::this_thread::sleep_for(200ms);
    EXPECT_FALSE(done.load()) << "a LOSSLESS producer must wait for room";
    sink.open_gate();
    producer.join();
    EXPECT_TRUE(stored.load());
    ASSERT_EQ(rocprofiler_flush_buffer(buf.id), ROCPROFILER_STATUS_SUCCESS);
    ASSERT_EQ(sink.count(), 9u);
    for(uint64_t i = 0; i < 9; ++i)
        EXPECT_EQ(sink.records[i].sequence, i);
    EXPECT_EQ(sink.total_drops(), 0u);
}
} // namespace

TEST(buffer_policy, lossless_producer_waits_and_never_drops)
{
    expect_producer_waits_for_room(ROCPROFILER_BUFFER_POLICY_LOSSLESS);
}

TEST(buffer_policy, none_behaves_as_lossless)
{
    expect_producer_waits_for_room(ROCPROFILER_BUFFER_POLICY_NONE);
}

TEST(buffer_policy, record_larger_than_buffer_is_dropped_and_counted_under_both_policies)
{
    for(auto policy : {ROCPROFILER_BUFFER_POLICY_LOSSLESS, ROCPROFILER_BUFFER_POLICY_DISCARD})
    {
        auto sink = collector{};
        auto buf  = scoped_buffer{16, 16, policy, sink};
        auto big  = std::vector<uint8_t>(17);
        EXPECT_FALSE(buffer::emplace(buf.id, 1, 1, big.data(), big.size()));
        EXPECT_FALSE(buffer::emplace(buf.id, 1, 1, big.data(), SIZE_MAX));
        ASSERT_TRUE(put(buf.id, 0, 0)); // exactly the buffer's size: fits
        ASSERT_EQ(rocprofiler_flush_buffer(buf.id), ROCPROFILER_STATUS_SUCCESS);
        EXPECT_EQ(sink.count(), 1u);
        EXPECT_EQ(sink.total_drops(), 2u) << "policy " << policy;
    }
}

TEST(buffer_policy, drops_without_records_are_still_reported_by_flush)
{
    auto sink = collector{};
    auto buf  = scoped_buffer{16, 16, ROCPROFILER_BUFFER_POLICY_DISCARD, sink};
    auto big  = std::vector<uint8_t>(64);
    EXPECT_FALSE(buffer::emplace(buf.id, 1, 1, big.data(), big.size()));
    ASSERT_EQ(rocprofiler_flush_buffer(buf.id), ROCPROFILER_STATUS_SUCCESS);
    ASSERT_EQ(sink.deliveries(), 1u);
    EXPECT_EQ(sink.batch_sizes[0], 0u);
    EXPECT_EQ(sink.drop_counts[0], 1u);
}

// ---------------------------------------------------------------------------------------------
// Flush and destroy
// ---------------------------------------------------------------------------------------------

TEST(buffer_flush, returns_after_the_callback_ran)
{
    auto sink = collector{};
    auto buf  = scoped_buffer{4096, 4096, ROCPROFILER_BUFFER_POLICY_LOSSLESS, sink};
    for(int round = 0; round < 50; ++round)
    {
        ASSERT_TRUE(put(buf.id, 0, static_cast<uint64_t>(round)));
        ASSERT_EQ(rocprofiler_flush_buffer(buf.id), ROCPROFILER_STATUS_SUCCESS);
        ASSERT_EQ(sink.count(), static_cast<size_t>(round + 1));
    }
    // An empty buffer flushes at once, without calling the callback.
    auto before = sink.deliveries();
    EXPECT_EQ(rocprofiler_flush_buffer(buf.id), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(sink.deliveries(), before);
}

TEST(buffer_flush, delivers_everything_written_before_it_while_producers_run)
{
    auto sink     = collector{};
    auto buf      = scoped_buffer{256, 128, ROCPROFILER_BUFFER_POLICY_LOSSLESS, sink};
    auto written  = std::atomic<uint64_t>{0};
    auto stop     = std::atomic<bool>{false};
    auto producer = std::thread{[&]
                                {
                                    for(uint64_t i = 1; !stop.load(); ++i)
                                    {
                                        if(!put(buf.id, 0, i))
                                        {
                                            ADD_FAILURE() << "LOSSLESS emplace failed";
                                            return;
                                        }
                                        written.store(i);
                                    }
                                }};
    for(int round = 0; round < 200; ++round)
    {
        auto before = written.load();
        EXPECT_EQ(rocprofiler_flush_buffer(buf.id), ROCPROFILER_STATUS_SUCCESS);
        auto lock = std::lock_guard{sink.mutex};
        auto seen = sink.records.empty() ? 0 : sink.records.back().sequence;
        EXPECT_GE(seen, before) << "round " << round;
    }
    stop = true;
    producer.join();
}

TEST(buffer_flush, without_wait_still_delivers)
{
    auto sink   = collector{};
    auto buf    = scoped_buffer{4096, 4096, ROCPROFILER_BUFFER_POLICY_LOSSLESS, sink};
    auto opener = gate_opener{sink};
    ASSERT_TRUE(put(buf.id, 0, 0));
    EXPECT_EQ(buffer::flush(buf.id, false), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_TRUE(sink.wait_for([&] { return sink.records.size() == 1; }));

    // With a half in delivery, a non-waiting flush is remembered and served afterwards.
    sink.close_gate();
    ASSERT_TRUE(put(buf.id, 0, 1));
    EXPECT_EQ(buffer::flush(buf.id, false), ROCPROFILER_STATUS_SUCCESS);
    ASSERT_TRUE(sink.wait_for([&] { return sink.in_callback == 1; }));
    ASSERT_TRUE(put(buf.id, 0, 2));
    EXPECT_EQ(buffer::flush(buf.id, false), ROCPROFILER_STATUS_SUCCESS);
    sink.open_gate();
    EXPECT_TRUE(sink.wait_for([&] { return sink.records.size() == 3; }));
}

namespace
{
struct reentrant
{
    collector               sink           = {};
    rocprofiler_buffer_id_t self           = {};
    rocprofiler_buffer_id_t other          = {};
    std::atomic<int>        flush_status   = -1;
    std::atomic<int>        destroy_status = -1;
    std::atomic<int>        other_status   = -1;
    std::atomic<int>        stored         = 0;
    std::atomic<int>        rejected       = 0;
    std::atomic<bool>       ran            = false;
    // What the callback does, once.
    std::function<void(reentrant&, rocprofiler_buffer_id_t)> action = {};
};

// Runs the state's action once, from inside the buffer's first delivery.
void
run_once_callback(rocprofiler_context_id_t,
                  rocprofiler_buffer_id_t id,
                  rocprofiler_record_header_t**,
                  size_t,
                  void* data,
                  uint64_t)
{
    auto* state = static_cast<reentrant*>(data);
    if(state->ran.exchange(true)) return;
    state->action(*state, id);
}

} // namespace

TEST(buffer_flush, from_own_callback_is_busy_not_a_deadlock)
{
    auto state   = reentrant{};
    state.action = [](reentrant& st, rocprofiler_buffer_id_t id)
    {
        st.flush_status   = rocprofiler_flush_buffer(id);
        st.destroy_status = rocprofiler_destroy_buffer(id);
    };
    ASSERT_EQ(create({.callback = run_once_callback, .data = &state}, &state.self),
              ROCPROFILER_STATUS_SUCCESS);
    ASSERT_TRUE(put(state.self, 0, 0));
    ASSERT_EQ(rocprofiler_flush_buffer(state.self), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(state.flush_status.load(), ROCPROFILER_STATUS_ERROR_BUFFER_BUSY);
    EXPECT_EQ(state.destroy_status.load(), ROCPROFILER_STATUS_ERROR_BUFFER_BUSY);
    EXPECT_TRUE(buffer::exists(state.self));
    EXPECT_EQ(rocprofiler_destroy_buffer(state.self), ROCPROFILER_STATUS_SUCCESS);
}

TEST(buffer_flush, of_another_buffer_on_the_same_thread_from_a_callback)
{
    // Emits a record into another buffer from inside a callback (as the SDK does when a tool's
    // callback launches traced work), then flushes that buffer. Both buffers are on the same
    // callback thread.
    auto state   = reentrant{};
    state.action = [](reentrant& st, rocprofiler_buffer_id_t)
    {
        put(st.other, 7, 7);
        st.other_status = rocprofiler_flush_buffer(st.other);
    };
    ASSERT_EQ(create({.callback = run_once_callback, .data = &state}, &state.self),
              ROCPROFILER_STATUS_SUCCESS);
    ASSERT_EQ(create({.callback = collector::callback, .data = &state.sink}, &state.other),
              ROCPROFILER_STATUS_SUCCESS);
    ASSERT_TRUE(put(state.self, 0, 0));
    ASSERT_EQ(rocprofiler_flush_buffer(state.self), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(state.other_status.load(), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(state.sink.count(), 1u);
    EXPECT_EQ(rocprofiler_destroy_buffer(state.self), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(rocprofiler_destroy_buffer(state.other), ROCPROFILER_STATUS_SUCCESS);
}

TEST(buffer_policy, lossless_emplace_from_own_callback_into_full_buffer_does_not_hang)
{
    auto state   = reentrant{};
    state.action = [](reentrant& st, rocprofiler_buffer_id_t id)
    {
        for(uint64_t i = 0; i < 20; ++i)
            (put(id, 1, i) ? st.stored : st.rejected)++;
    };
    ASSERT_EQ(create({.watermark = 64, .callback = run_once_callback, .data = &state}, &state.self),
              ROCPROFILER_STATUS_SUCCESS);
    ASSERT_TRUE(put(state.self, 0, 0));
    ASSERT_EQ(rocprofiler_flush_buffer(state.self), ROCPROFILER_STATUS_SUCCESS);
    // The other half (64 bytes = 4 records) takes four; the rest would wait on this very callback.
    EXPECT_EQ(state.stored.load(), 4);
    EXPECT_EQ(state.rejected.load(), 16);
    EXPECT_EQ(rocprofiler_destroy_buffer(state.self), ROCPROFILER_STATUS_SUCCESS);
}

TEST(buffer_destroy, flushes_then_invalidates)
{
    auto sink = collector{};
    auto id   = rocprofiler_buffer_id_t{};
    ASSERT_EQ(
        create({.size = 4096, .watermark = 4096, .callback = collector::callback, .data = &sink},
               &id),
        ROCPROFILER_STATUS_SUCCESS);
    for(uint64_t i = 0; i < 10; ++i)
        ASSERT_TRUE(put(id, 0, i));
    ASSERT_EQ(rocprofiler_destroy_buffer(id), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(sink.count(), 10u);
    EXPECT_FALSE(put(id, 0, 10));
    EXPECT_EQ(rocprofiler_flush_buffer(id), ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
    EXPECT_EQ(rocprofiler_destroy_buffer(id), ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
    EXPECT_EQ(buffer::flush(id, false), ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
    EXPECT_EQ(rocprofiler_assign_callback_thread(id, rocprofiler_callback_thread_t{0}),
              ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
    EXPECT_EQ(sink.count(), 10u);
}

TEST(buffer_destroy, unknown_ids_are_not_found)
{
    for(auto handle : {uint64_t{0}, uint64_t{4097}, uint64_t{123456789}, UINT64_MAX})
    {
        EXPECT_EQ(rocprofiler_flush_buffer({handle}), ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
        EXPECT_EQ(rocprofiler_destroy_buffer({handle}), ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
    }
}

TEST(buffer_destroy, concurrent_with_producers_loses_no_accepted_record)
{
    auto sink = collector{};
    auto id   = rocprofiler_buffer_id_t{};
    ASSERT_EQ(
        create({.size = 128, .watermark = 64, .callback = collector::callback, .data = &sink}, &id),
        ROCPROFILER_STATUS_SUCCESS);
    auto accepted  = std::atomic<size_t>{0};
    auto producers = std::vector<std::thread>{};
    auto go        = std::atomic<bool>{false};
    for(uint64_t p = 0; p < 4; ++p)
        producers.emplace_back(
            [&, p]
            {
                while(!go.load())
                    std::this_thread::yield();
                // Until destroy() refuses records, so that destroy always races with producers.
                for(uint64_t i = 0; i < 10'000'000 && put(id, p, i); ++i)
                    ++accepted;
            });
    go = true;
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(rocprofiler_destroy_buffer(id), ROCPROFILER_STATUS_SUCCESS);
    for(auto& t : producers)
        t.join();
    EXPECT_EQ(sink.count(), accepted.load());
    EXPECT_EQ(sink.total_drops(), 0u);
}

// ---------------------------------------------------------------------------------------------
// Callback threads
// ---------------------------------------------------------------------------------------------

TEST(callback_thread, create_validates)
{
    EXPECT_EQ(rocprofiler_create_callback_thread(nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    auto a = rocprofiler_callback_thread_t{};
    auto b = rocprofiler_callback_thread_t{};
    ASSERT_EQ(rocprofiler_create_callback_thread(&a), ROCPROFILER_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_create_callback_thread(&b), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_NE(a.handle, 0u); // 0 is the default thread
    EXPECT_NE(a.handle, b.handle);
}

TEST(callback_thread, assign_validates)
{
    auto sink = collector{};
    auto buf  = scoped_buffer{64, 0, ROCPROFILER_BUFFER_POLICY_LOSSLESS, sink};
    auto t    = rocprofiler_callback_thread_t{};
    ASSERT_EQ(rocprofiler_create_callback_thread(&t), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(rocprofiler_assign_callback_thread({0}, t),
              ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
    EXPECT_EQ(rocprofiler_assign_callback_thread({999999}, t),
              ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
    EXPECT_EQ(rocprofiler_assign_callback_thread(buf.id, {999999}),
              ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND);
    EXPECT_EQ(rocprofiler_assign_callback_thread(buf.id, {UINT64_MAX}),
              ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND);
    EXPECT_EQ(rocprofiler_assign_callback_thread(buf.id, t), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(rocprofiler_assign_callback_thread(buf.id, {0}), ROCPROFILER_STATUS_SUCCESS);
}

TEST(callback_thread, callbacks_run_on_the_assigned_thread)
{
    auto on_default   = collector{};
    auto on_created   = collector{};
    auto also_created = collector{};
    auto a            = scoped_buffer{1024, 0, ROCPROFILER_BUFFER_POLICY_LOSSLESS, on_default};
    auto b            = scoped_buffer{1024, 0, ROCPROFILER_BUFFER_POLICY_LOSSLESS, on_created};
    auto c            = scoped_buffer{1024, 0, ROCPROFILER_BUFFER_POLICY_DISCARD, also_created};
    auto thread       = rocprofiler_callback_thread_t{};
    ASSERT_EQ(rocprofiler_create_callback_thread(&thread), ROCPROFILER_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_assign_callback_thread(b.id, thread), ROCPROFILER_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_assign_callback_thread(c.id, thread), ROCPROFILER_STATUS_SUCCESS);

    for(auto id : {a.id, b.id, c.id})
    {
        ASSERT_TRUE(put(id, 0, 0));
        ASSERT_EQ(rocprofiler_flush_buffer(id), ROCPROFILER_STATUS_SUCCESS);
    }
    const auto producer = std::this_thread::get_id();
    ASSERT_EQ(on_default.threads.size(), 1u);
    ASSERT_EQ(on_created.threads.size(), 1u);
    ASSERT_EQ(also_created.threads.size(), 1u);
    EXPECT_NE(on_default.threads[0], producer);
    EXPECT_NE(on_created.threads[0], producer);
    EXPECT_NE(on_created.threads[0], on_default.threads[0]);
    EXPECT_EQ(also_created.threads[0], on_created.threads[0]);

    // Watermark deliveries from another producer thread land on the assigned thread too.
    auto other = std::thread{[&] { EXPECT_TRUE(put(b.id, 0, 1)); }};
    other.join();
    ASSERT_TRUE(on_created.wait_for([&] { return on_created.threads.size() == 2; }));
    EXPECT_EQ(on_created.threads[1], on_created.threads[0]);

    // Back to the default thread.
    ASSERT_EQ(rocprofiler_assign_callback_thread(b.id, {0}), ROCPROFILER_STATUS_SUCCESS);
    ASSERT_TRUE(put(b.id, 0, 2));
    ASSERT_EQ(rocprofiler_flush_buffer(b.id), ROCPROFILER_STATUS_SUCCESS);
    ASSERT_EQ(on_created.threads.size(), 3u);
    EXPECT_EQ(on_created.threads[2], on_default.threads[0]);
}

TEST(callback_thread, a_slow_callback_does_not_delay_a_buffer_on_another_thread)
{
    auto slow   = collector{};
    auto fast   = collector{};
    auto a      = scoped_buffer{1024, 0, ROCPROFILER_BUFFER_POLICY_LOSSLESS, slow};
    auto b      = scoped_buffer{1024, 0, ROCPROFILER_BUFFER_POLICY_LOSSLESS, fast};
    auto opener = gate_opener{slow};
    auto thread = rocprofiler_callback_thread_t{};
    ASSERT_EQ(rocprofiler_create_callback_thread(&thread), ROCPROFILER_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_assign_callback_thread(b.id, thread), ROCPROFILER_STATUS_SUCCESS);
    slow.close_gate();
    ASSERT_TRUE(put(a.id, 0, 0));
    ASSERT_TRUE(slow.wait_for([&] { return slow.in_callback == 1; }));
    ASSERT_TRUE(put(b.id, 0, 0));
    EXPECT_EQ(rocprofiler_flush_buffer(b.id), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(fast.count(), 1u);
    slow.open_gate();
}

TEST(callback_thread, a_throwing_callback_is_contained)
{
    auto calls = std::atomic<int>{0};
    auto id    = rocprofiler_buffer_id_t{};
    auto cb    = [](rocprofiler_context_id_t,
                 rocprofiler_buffer_id_t,
                 rocprofiler_record_header_t**,
                 size_t,
                 void* data,
                 uint64_t)
    {
        ++*static_cast<std::atomic<int>*>(data);
        throw std::runtime_error{"tool bug"};
    };
    ASSERT_EQ(create({.watermark = 64, .callback = cb, .data = &calls}, &id),
              ROCPROFILER_STATUS_SUCCESS);
    for(int i = 0; i < 3; ++i)
    {
        ASSERT_TRUE(put(id, 0, 0));
        EXPECT_EQ(rocprofiler_flush_buffer(id), ROCPROFILER_STATUS_SUCCESS);
    }
    EXPECT_EQ(calls.load(), 3);
    EXPECT_EQ(rocprofiler_destroy_buffer(id), ROCPROFILER_STATUS_SUCCESS);
}

// ---------------------------------------------------------------------------------------------
// Concurrency
// ---------------------------------------------------------------------------------------------

namespace
{
struct order_checker
{
    std::mutex            mutex        = {};
    std::vector<uint64_t> next         = {};
    size_t                total        = 0;
    size_t                out_of_order = 0;
    uint64_t              drops        = 0;

    static void callback(rocprofiler_context_id_t,
                         rocprofiler_buffer_id_t,
                         rocprofiler_record_header_t** headers,
                         size_t                        num_headers,
                         void*                         data,
                         uint64_t                      drop_count)
    {
        auto* self = static_cast<order_checker*>(data);
        auto  lock = std::lock_guard{self->mutex};
        self->drops += drop_count;
        for(size_t i = 0; i < num_headers; ++i)
        {
            auto value = record{};
            std::memcpy(&value, headers[i]->payload, sizeof(value));
            if(value.producer >= self->next.size())
            {
                ++self->out_of_order;
                continue;
            }
            // DISCARD may skip sequence numbers but never reorders them.
            if(value.sequence < self->next[value.producer]) ++self->out_of_order;
            self->next[value.producer] = value.sequence + 1;
            ++self->total;
        }
    }
};

void
run_producers(rocprofiler_buffer_id_t id,
              size_t                  producers,
              uint64_t                per_producer,
              std::atomic<size_t>&    accepted)
{
    auto threads = std::vector<std::thread>{};
    auto go      = std::atomic<bool>{false};
    for(uint64_t p = 0; p < producers; ++p)
        threads.emplace_back(
            [&, p]
            {
                while(!go.load())
                    std::this_thread::yield();
                for(uint64_t i = 0; i < per_producer; ++i)
                    if(put(id, p, i)) ++accepted;
            });
    go = true;
    for(auto& t : threads)
        t.join();
}
} // namespace

TEST(buffer_concurrency, lossless_tiny_buffer_many_producers_loses_nothing)
{
    constexpr size_t   producers    = 8;
    constexpr uint64_t per_producer = 5000;
    auto               checker      = order_checker{};
    checker.next.assign(producers, 0);
    auto id = rocprofiler_buffer_id_t{};
    // Room for 4 records per half; watermark after 3.
    ASSERT_EQ(create({.watermark = 48, .callback = order_checker::callback, .data = &checker}, &id),
              ROCPROFILER_STATUS_SUCCESS);
    auto accepted = std::atomic<size_t>{0};
    run_producers(id, producers, per_producer, accepted);
    ASSERT_EQ(rocprofiler_flush_buffer(id), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(accepted.load(), producers * per_producer);
    EXPECT_EQ(checker.total, producers * per_producer);
    EXPECT_EQ(checker.out_of_order, 0u);
    EXPECT_EQ(checker.drops, 0u);
    for(auto next : checker.next)
        EXPECT_EQ(next, per_producer);
    EXPECT_EQ(rocprofiler_destroy_buffer(id), ROCPROFILER_STATUS_SUCCESS);
}

TEST(buffer_concurrency, lossless_on_created_thread_with_watermark_zero)
{
    constexpr size_t   producers    = 4;
    constexpr uint64_t per_producer = 3000;
    auto               checker      = order_checker{};
    checker.next.assign(producers, 0);
    auto id     = rocprofiler_buffer_id_t{};
    auto thread = rocprofiler_callback_thread_t{};
    ASSERT_EQ(create({.size = 16, .callback = order_checker::callback, .data = &checker}, &id),
              ROCPROFILER_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_create_callback_thread(&thread), ROCPROFILER_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_assign_callback_thread(id, thread), ROCPROFILER_STATUS_SUCCESS);
    auto accepted = std::atomic<size_t>{0};
    run_producers(id, producers, per_producer, accepted);
    ASSERT_EQ(rocprofiler_destroy_buffer(id), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(checker.total, producers * per_producer);
    EXPECT_EQ(checker.out_of_order, 0u);
}

TEST(buffer_concurrency, discard_accounts_for_every_record)
{
    constexpr size_t   producers    = 8;
    constexpr uint64_t per_producer = 5000;
    auto               checker      = order_checker{};
    checker.next.assign(producers, 0);
    auto id = rocprofiler_buffer_id_t{};
    ASSERT_EQ(create({.size      = 128,
                      .watermark = 64,
                      .policy    = ROCPROFILER_BUFFER_POLICY_DISCARD,
                      .callback  = order_checker::callback,
                      .data      = &checker},
                     &id),
              ROCPROFILER_STATUS_SUCCESS);
    auto accepted = std::atomic<size_t>{0};
    run_producers(id, producers, per_producer, accepted);
    ASSERT_EQ(rocprofiler_flush_buffer(id), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(checker.total, accepted.load());
    EXPECT_EQ(checker.total + checker.drops, producers * per_producer);
    EXPECT_EQ(checker.out_of_order, 0u);
    EXPECT_EQ(rocprofiler_destroy_buffer(id), ROCPROFILER_STATUS_SUCCESS);
}

TEST(buffer_concurrency, concurrent_flushers_and_producers)
{
    auto checker = order_checker{};
    checker.next.assign(4, 0);
    auto id = rocprofiler_buffer_id_t{};
    ASSERT_EQ(
        create({.size = 96, .watermark = 96, .callback = order_checker::callback, .data = &checker},
               &id),
        ROCPROFILER_STATUS_SUCCESS);
    auto stop     = std::atomic<bool>{false};
    auto flushers = std::vector<std::thread>{};
    for(int f = 0; f < 2; ++f)
        flushers.emplace_back(
            [&]
            {
                while(!stop.load())
                    EXPECT_EQ(rocprofiler_flush_buffer(id), ROCPROFILER_STATUS_SUCCESS);
            });
    auto accepted = std::atomic<size_t>{0};
    run_producers(id, 4, 3000, accepted);
    stop = true;
    for(auto& t : flushers)
        t.join();
    ASSERT_EQ(rocprofiler_destroy_buffer(id), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(checker.total, 4u * 3000u);
    EXPECT_EQ(checker.out_of_order, 0u);
}

// ---------------------------------------------------------------------------------------------
// Finalization and the configuration lock. Finalization is one-way, so each test runs in a child
// process (a gtest death test that is expected to exit with status 0).
// ---------------------------------------------------------------------------------------------

namespace
{
int
finalization_child()
{
    auto sink = collector{};
    auto idle = collector{};
    auto a    = rocprofiler_buffer_id_t{};
    auto b    = rocprofiler_buffer_id_t{};
    auto t    = rocprofiler_callback_thread_t{};
    if(create({.size = 4096, .watermark = 4096, .callback = collector::callback, .data = &sink},
              &a) != ROCPROFILER_STATUS_SUCCESS)
        return 1;
    if(create({.callback = collector::callback, .data = &idle}, &b) != ROCPROFILER_STATUS_SUCCESS)
        return 2;
    if(rocprofiler_create_callback_thread(&t) != ROCPROFILER_STATUS_SUCCESS) return 3;
    if(rocprofiler_assign_callback_thread(b, t) != ROCPROFILER_STATUS_SUCCESS) return 4;
    // Start both threads, then leave them idle.
    if(!put(b, 0, 0) || rocprofiler_flush_buffer(b) != ROCPROFILER_STATUS_SUCCESS) return 5;
    if(!put(a, 0, 0) || rocprofiler_flush_buffer(a) != ROCPROFILER_STATUS_SUCCESS) return 6;
    // Below the watermark: only finalization delivers these.
    for(uint64_t i = 1; i <= 100; ++i)
        if(!put(a, 0, i)) return 7;

    rocprofiler::buffer::flush_all();
    if(sink.count() != 101) return 8;
    rocprofiler::buffer::destroy_all();
    if(put(a, 0, 0) || put(b, 0, 0)) return 9; // buffers are gone
    if(rocprofiler_flush_buffer(a) != ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND) return 10;
    rocprofiler::buffer::destroy_all(); // idempotent
    return 0;
}

int
locked_child()
{
    auto id = rocprofiler_buffer_id_t{};
    if(create({}, &id) != ROCPROFILER_STATUS_SUCCESS) return 1;
    // The real finalization path: it locks configuration for good.
    rocprofiler::registration::finalize();
    if(!rocprofiler::registration::configuration_locked()) return 2;
    auto other = rocprofiler_buffer_id_t{};
    if(create({}, &other) != ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED) return 3;
    if(other.handle != 0) return 4;
    auto t = rocprofiler_callback_thread_t{};
    if(rocprofiler_create_callback_thread(&t) != ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED)
        return 5;
    if(rocprofiler_assign_callback_thread(id, {0}) != ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED)
        return 6;
    return 0;
}
} // namespace

TEST(buffer_finalization, delivers_everything_and_joins_idle_threads)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(std::_Exit(finalization_child()), ::testing::ExitedWithCode(0), "");
}

TEST(buffer_finalization, configuration_calls_are_locked_after_finalize)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(std::_Exit(locked_child()), ::testing::ExitedWithCode(0), "");
}
