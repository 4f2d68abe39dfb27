// CPU tests of the batched counting path (counter_batch.hpp) through a hand-written CUPTI profiler
// table: a fake range profiler that keeps the ranges pushed in a session, the value of the kernel
// launched in each, and what its counter data image holds after a decode. No GPU, no libcupti.
#include "cuda/counters/counter_batch.hpp"
#include "cuda/counters/counting_stats.hpp"
#include "cuda/cupti/cupti_loader.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace metrics = rocprofiler::cuda::metrics;

namespace
{
// What the fake range profiler saw and holds.
struct fake_state
{
    size_t      image_ranges = 0; // maxNumOfRanges of the last GetCounterDataSize
    size_t      keep         = std::numeric_limits<size_t>::max(); // ranges a decode keeps
    size_t      set_ranges   = 0;                                  // maxRangesPerPass of SetConfig
    int         set_mode     = -1;                                 // range mode of SetConfig
    int         starts = 0, stops = 0, decodes = 0, enables = 0, disables = 0, set_configs = 0;
    bool        started      = false;
    bool        in_range     = false;
    CUptiResult decode_fails = CUPTI_SUCCESS;
    uint64_t    kernels      = 0;
    // Ranges of the running session: name and the number of the kernel launched in it (0: none).
    std::vector<std::pair<std::string, uint64_t>> session = {};
    std::vector<std::pair<std::string, uint64_t>> decoded = {};
};

fake_state fake      = {};
int        fake_host = 0;

rocprofiler::cuda::cupti_profiler_table
fake_table()
{
    auto t                 = rocprofiler::cuda::cupti_profiler_table{};
    t.cuptiGetResultString = [](CUptiResult, const char** text)
    {
        *text = "fake CUPTI result";
        return CUPTI_SUCCESS;
    };
    t.cuptiProfilerHostInitialize = [](CUpti_Profiler_Host_Initialize_Params* p)
    {
        p->pHostObject = reinterpret_cast<CUpti_Profiler_Host_Object*>(&fake_host);
        return CUPTI_SUCCESS;
    };
    t.cuptiProfilerHostDeinitialize = [](CUpti_Profiler_Host_Deinitialize_Params*)
    { return CUPTI_SUCCESS; };
    t.cuptiProfilerHostConfigAddMetrics = [](CUpti_Profiler_Host_ConfigAddMetrics_Params*)
    { return CUPTI_SUCCESS; };
    t.cuptiProfilerHostGetConfigImageSize = [](CUpti_Profiler_Host_GetConfigImageSize_Params* p)
    {
        p->configImageSize = 4;
        return CUPTI_SUCCESS;
    };
    t.cuptiProfilerHostGetConfigImage = [](CUpti_Profiler_Host_GetConfigImage_Params*)
    { return CUPTI_SUCCESS; };
    t.cuptiProfilerHostGetNumOfPasses = [](CUpti_Profiler_Host_GetNumOfPasses_Params* p)
    {
        p->numOfPasses = 1;
        return CUPTI_SUCCESS;
    };
    t.cuptiRangeProfilerEnable = [](CUpti_RangeProfiler_Enable_Params* p)
    {
        ++fake.enables;
        p->pRangeProfilerObject = reinterpret_cast<CUpti_RangeProfiler_Object*>(&fake);
        return CUPTI_SUCCESS;
    };
    t.cuptiRangeProfilerDisable = [](CUpti_RangeProfiler_Disable_Params*)
    {
        ++fake.disables;
        return CUPTI_SUCCESS;
    };
    t.cuptiRangeProfilerGetCounterDataSize = [](CUpti_RangeProfiler_GetCounterDataSize_Params* p)
    {
        fake.image_ranges  = p->maxNumOfRanges;
        p->counterDataSize = 64 + p->maxNumOfRanges;
        return CUPTI_SUCCESS;
    };
    t.cuptiRangeProfilerCounterDataImageInitialize =
        [](CUpti_RangeProfiler_CounterDataImage_Initialize_Params*) { return CUPTI_SUCCESS; };
    t.cuptiRangeProfilerSetConfig = [](CUpti_RangeProfiler_SetConfig_Params* p)
    {
        ++fake.set_configs;
        fake.set_ranges = p->maxRangesPerPass;
        fake.set_mode   = static_cast<int>(p->range);
        return CUPTI_SUCCESS;
    };
    t.cuptiRangeProfilerStart = [](CUpti_RangeProfiler_Start_Params*)
    {
        ++fake.starts;
        fake.started = true;
        return CUPTI_SUCCESS;
    };
    t.cuptiRangeProfilerStop = [](CUpti_RangeProfiler_Stop_Params* p)
    {
        ++fake.stops;
        fake.started          = false;
        p->isAllPassSubmitted = 1;
        return CUPTI_SUCCESS;
    };
    t.cuptiRangeProfilerPushRange = [](CUpti_RangeProfiler_PushRange_Params* p)
    {
        if(!fake.started || fake.in_range) return CUPTI_ERROR_INVALID_OPERATION;
        fake.in_range = true;
        fake.session.emplace_back(p->pRangeName, 0);
        return CUPTI_SUCCESS;
    };
    t.cuptiRangeProfilerPopRange = [](CUpti_RangeProfiler_PopRange_Params*)
    {
        if(!fake.in_range) return CUPTI_ERROR_INVALID_OPERATION;
        fake.in_range = false;
        return CUPTI_SUCCESS;
    };
    // The image keeps the first ranges it has room for; CUPTI reports the others as dropped.
    t.cuptiRangeProfilerDecodeData = [](CUpti_RangeProfiler_DecodeData_Params* p)
    {
        ++fake.decodes;
        if(fake.decode_fails != CUPTI_SUCCESS)
        {
            fake.session.clear();
            return fake.decode_fails;
        }
        const auto room = std::min(fake.image_ranges, fake.keep);
        fake.decoded.assign(fake.session.begin(),
                            fake.session.begin() +
                                static_cast<std::ptrdiff_t>(std::min(room, fake.session.size())));
        p->numOfRangeDropped = fake.session.size() - fake.decoded.size();
        fake.session.clear();
        return CUPTI_SUCCESS;
    };
    t.cuptiRangeProfilerGetCounterDataInfo = [](CUpti_RangeProfiler_GetCounterDataInfo_Params* p)
    {
        p->numTotalRanges = fake.decoded.size();
        return CUPTI_SUCCESS;
    };
    t.cuptiRangeProfilerCounterDataGetRangeInfo =
        [](CUpti_RangeProfiler_CounterData_GetRangeInfo_Params* p)
    {
        if(p->rangeIndex >= fake.decoded.size()) return CUPTI_ERROR_INVALID_PARAMETER;
        p->rangeName = fake.decoded[p->rangeIndex].first.c_str();
        return CUPTI_SUCCESS;
    };
    // Metric m of a range is 100 times the number of its kernel plus m.
    t.cuptiProfilerHostEvaluateToGpuValues = [](CUpti_Profiler_Host_EvaluateToGpuValues_Params* p)
    {
        if(p->rangeIndex >= fake.decoded.size()) return CUPTI_ERROR_INVALID_PARAMETER;
        for(size_t m = 0; m < p->numMetrics; ++m)
            p->pMetricValues[m] = static_cast<double>(fake.decoded[p->rangeIndex].second * 100 + m);
        return CUPTI_SUCCESS;
    };
    return t;
}

// One delivered record: the dispatch (start_ns), its values and error.
struct record
{
    uint64_t                                          dispatch = 0;
    std::vector<rocprofiler::dispatch::counter_value> counters = {};
    std::string                                       error    = {};
};

// A context with the fake table installed, counters a.sum and b.sum, and the records delivered.
class cuda_counter_batch_session : public ::testing::Test
{
protected:
    void SetUp() override
    {
        fake  = fake_state{};
        table = fake_table();
        rocprofiler::cuda::use_profiler_table(&table);
        prof.object = reinterpret_cast<CUpti_RangeProfiler_Object*>(&fake);
        prof.chip   = "FAKE";
        for(uint64_t i = 0; i < 2; ++i)
        {
            defs[i].id.handle = 1000 + i;
            defs[i].spec.name = i == 0 ? "a.sum" : "b.sum";
        }
        defs[2].id.handle = 2000;
        defs[2].spec.name = "c.sum";
        device.wait       = [this]
        {
            ++waits;
            return CUDA_SUCCESS;
        };
        device.flush = [this] { ++flushes; };
    }
    // The configurations' host objects are released through the fake table, while installed.
    void TearDown() override
    {
        prof.configs.clear();
        rocprofiler::cuda::use_profiler_table(nullptr);
    }

    // Launches the next dispatch (the n-th launch runs fake kernel n+1) through the batch, with
    // counters a.sum and b.sum (or c.sum); returns its entry. The batches it closes are released
    // at return.
    std::shared_ptr<metrics::batched_execution> launch(bool     other_config = false,
                                                       CUresult result       = CUDA_SUCCESS)
    {
        auto request = rocprofiler::dispatch::execution_request{};
        if(other_config)
            request.counters = {&defs[2]};
        else
            request.counters = {&defs[0], &defs[1]};
        auto  out   = metrics::measurement{};
        auto  run   = std::function<CUresult()>{[&]
                                                {
                                                 ++fake.kernels;
                                                 if(fake.in_range)
                                                     fake.session.back().second = fake.kernels;
                                                 return result;
                                             }};
        auto  exec  = metrics::counted_execution{0, nullptr, request, run, out};
        auto& cfg   = metrics::config_for(prof, metrics::names_of(request));
        auto  later = metrics::batch_release{};
        auto  rc    = metrics::measure_batched(prof, cfg, exec, capacity, device, later);
        EXPECT_EQ(rc, result);
        EXPECT_TRUE(out.error.empty()) << out.error;
        return out.batched;
    }

    // The kernel of dispatch `n` finished: its completion goes to the entry.
    void complete(const std::shared_ptr<metrics::batched_execution>& entry, uint64_t n)
    {
        auto result     = rocprofiler::dispatch::execution_result{};
        result.start_ns = n;
        entry->complete(result,
                        [this](const rocprofiler::dispatch::execution_result& r) {
                            records.push_back(record{r.start_ns, r.counters, r.counters_error});
                        });
    }

    void close(const char* why = "exit")
    {
        auto later = metrics::batch_release{};
        metrics::close_batch(prof, device, why, later);
    }

    // Dispatch n was counted as the (kernel)-th kernel, with both metrics.
    static void expect_values(const record& r, uint64_t kernel)
    {
        ASSERT_EQ(r.counters.size(), 2u) << "dispatch " << r.dispatch << ": " << r.error;
        EXPECT_EQ(r.counters[0].id.handle, 1000u);
        EXPECT_EQ(r.counters[1].id.handle, 1001u);
        EXPECT_EQ(r.counters[0].value, static_cast<double>(kernel * 100));
        EXPECT_EQ(r.counters[1].value, static_cast<double>(kernel * 100 + 1));
        EXPECT_TRUE(r.error.empty()) << r.error;
    }

    rocprofiler::cuda::cupti_profiler_table   table    = {};
    metrics::context_profiler                 prof     = {};
    rocprofiler::counters::counter_definition defs[3]  = {};
    metrics::batch_device                     device   = {};
    uint64_t                                  capacity = 4;
    int                                       waits    = 0;
    int                                       flushes  = 0;
    std::vector<record>                       records  = {};
};

uint64_t
stat(const metrics::phase_stat& s)
{
    return s.calls.load();
}
} // namespace

TEST(cuda_counter_batch, the_path_is_chosen_from_replay_passes_and_range_mode)
{
    auto cfg     = metrics::collection_config{};
    cfg.passes   = 1;
    auto request = rocprofiler::dispatch::execution_request{};
    EXPECT_EQ(metrics::choose_path(request, cfg, false, 128), metrics::counting_path::batched);
    EXPECT_EQ(metrics::choose_path(request, cfg, false, 0), metrics::counting_path::execution);
    EXPECT_EQ(metrics::choose_path(request, cfg, true, 128), metrics::counting_path::execution);
    request.replayed = true; // kernel replay keeps the per-dispatch cycle
    EXPECT_EQ(metrics::choose_path(request, cfg, false, 128), metrics::counting_path::cycle);
    request.replayed = false;
    cfg.passes       = 3; // several passes need a replayed dispatch: the execution path says so
    EXPECT_EQ(metrics::choose_path(request, cfg, false, 128), metrics::counting_path::execution);
    cfg.passes = 1;
    cfg.error  = "unknown metric";
    EXPECT_EQ(metrics::choose_path(request, cfg, false, 128), metrics::counting_path::execution);
}

TEST_F(cuda_counter_batch_session, one_record_per_dispatch_in_order_across_full_images)
{
    const auto full_before = stat(metrics::phases().batch_full);
    // 10 dispatches in batches of 4: the image fills twice, the last 2 are decoded at exit.
    for(uint64_t n = 0; n < 10; ++n)
        complete(launch(), n);
    EXPECT_EQ(records.size(), 8u); // the two full batches
    close();
    ASSERT_EQ(records.size(), 10u);
    for(uint64_t n = 0; n < 10; ++n)
    {
        EXPECT_EQ(records[n].dispatch, n);
        expect_values(records[n], n + 1);
    }
    EXPECT_EQ(stat(metrics::phases().batch_full) - full_before, 2u);
    EXPECT_EQ(fake.starts, 3);
    EXPECT_EQ(fake.stops, 3);
    EXPECT_EQ(fake.decodes, 3);
    EXPECT_EQ(waits, 3);
    EXPECT_EQ(flushes, 10);     // the cache flush stays per dispatch, outside its range
    EXPECT_EQ(fake.enables, 0); // one configuration: never re-enabled
    // Each session was set for `capacity` user ranges.
    EXPECT_EQ(fake.image_ranges, 4u);
    EXPECT_EQ(fake.set_ranges, 4u);
    EXPECT_EQ(fake.set_mode, static_cast<int>(CUPTI_UserRange));
}

TEST_F(cuda_counter_batch_session, completions_before_and_after_the_decode_are_each_delivered_once)
{
    auto entries = std::vector<std::shared_ptr<metrics::batched_execution>>{};
    for(uint64_t n = 0; n < 3; ++n)
        entries.push_back(launch());
    complete(entries[0], 0); // kernels that finished before their batch was decoded wait for it
    complete(entries[1], 1);
    EXPECT_TRUE(records.empty());
    entries.push_back(launch());
    entries.push_back(launch()); // the image is full: dispatches 0-3 are decoded
    ASSERT_EQ(records.size(), 2u);
    complete(entries[2], 2); // kernels that finish after the decode are delivered at once
    complete(entries[3], 3);
    ASSERT_EQ(records.size(), 4u);
    complete(entries[4], 4);
    entries.push_back(launch());
    complete(entries[5], 5);
    EXPECT_EQ(records.size(), 4u);
    close();
    ASSERT_EQ(records.size(), 6u);
    for(uint64_t n = 0; n < 6; ++n)
    {
        EXPECT_EQ(records[n].dispatch, n);
        expect_values(records[n], n + 1);
    }
    complete(entries[0], 0); // a second completion of the same dispatch is ignored
    EXPECT_EQ(records.size(), 6u);
}

TEST_F(cuda_counter_batch_session, ranges_cupti_drops_are_reported_on_their_records_and_counted)
{
    const auto dropped_before = stat(metrics::phases().batch_dropped);
    fake.keep                 = 3; // the image keeps 3 of the 4 ranges of a batch
    for(uint64_t n = 0; n < 4; ++n)
        complete(launch(), n);
    close();
    ASSERT_EQ(records.size(), 4u);
    for(uint64_t n = 0; n < 3; ++n)
        expect_values(records[n], n + 1);
    EXPECT_TRUE(records[3].counters.empty());
    EXPECT_NE(records[3].error.find("no range for this dispatch"), std::string::npos)
        << records[3].error;
    EXPECT_NE(records[3].error.find("1 of 4 ranges dropped"), std::string::npos)
        << records[3].error;
    EXPECT_EQ(stat(metrics::phases().batch_dropped) - dropped_before, 1u);
}

TEST_F(cuda_counter_batch_session,
       a_failed_decode_gives_its_batch_the_error_and_the_next_session_counts)
{
    const auto dropped_before = stat(metrics::phases().batch_dropped);
    fake.decode_fails         = CUPTI_ERROR_UNKNOWN;
    for(uint64_t n = 0; n < 5; ++n)
        complete(launch(), n); // the 5th closes the first batch, whose decode fails
    fake.decode_fails = CUPTI_SUCCESS;
    close();
    ASSERT_EQ(records.size(), 5u);
    for(uint64_t n = 0; n < 4; ++n)
    {
        EXPECT_TRUE(records[n].counters.empty());
        EXPECT_NE(records[n].error.find("cuptiRangeProfilerDecodeData"), std::string::npos)
            << records[n].error;
    }
    expect_values(records[4], 5);
    EXPECT_EQ(stat(metrics::phases().batch_dropped) - dropped_before, 4u);
}

TEST_F(cuda_counter_batch_session,
       a_change_of_configuration_closes_the_batch_and_keeps_each_dispatchs_values)
{
    complete(launch(), 0);
    complete(launch(), 1);
    complete(launch(true), 2); // c.sum: the first batch is decoded, a session of c.sum opens
    ASSERT_EQ(records.size(), 2u);
    complete(launch(), 3); // back to a.sum and b.sum
    ASSERT_EQ(records.size(), 3u);
    close();
    ASSERT_EQ(records.size(), 4u);
    expect_values(records[0], 1);
    expect_values(records[1], 2);
    ASSERT_EQ(records[2].counters.size(), 1u);
    EXPECT_EQ(records[2].counters[0].id.handle, 2000u);
    EXPECT_EQ(records[2].counters[0].value, 300.0);
    expect_values(records[3], 4);
    EXPECT_EQ(fake.enables, 2); // each change of configuration re-enables the range profiler
}

TEST_F(cuda_counter_batch_session, a_failed_launch_has_its_error_and_leaves_the_others_values)
{
    complete(launch(), 0);
    auto failed = launch(false, CUDA_ERROR_LAUNCH_FAILED);
    auto result = rocprofiler::dispatch::execution_result{};
    result.ok   = false;
    failed->complete(result,
                     [this](const rocprofiler::dispatch::execution_result& r)
                     {
                         EXPECT_FALSE(r.ok);
                         records.push_back(record{1, r.counters, r.counters_error});
                     });
    complete(launch(), 2);
    close();
    ASSERT_EQ(records.size(), 3u);
    expect_values(records[0], 1);
    EXPECT_TRUE(records[1].counters.empty());
    expect_values(records[2], 3);
}

// A batch whose last kernel finished is decoded then (the application waits or is idle), not at a
// full image or exit: the records of a batch cannot be lost to a later fault of the context.
// A batch is decoded when its last kernel finishes while the application waits for the device
// (it launches nothing meanwhile), not merely because the device went idle: an application that
// launches more slowly than its kernels run would otherwise get a session per launch.
TEST_F(cuda_counter_batch_session, a_batch_is_decoded_when_its_last_kernel_finished_during_a_wait)
{
    auto first  = launch();
    auto second = launch();
    complete(first, 0);
    {
        auto later = metrics::batch_release{};
        EXPECT_FALSE(metrics::close_if_last(prof, device, first, true, later)) << "not the last";
    }
    EXPECT_TRUE(records.empty());
    complete(second, 1);
    {
        auto later = metrics::batch_release{};
        EXPECT_FALSE(metrics::close_if_last(prof, device, second, false, later))
            << "the device is idle but the application does not wait: the batch stays open";
        EXPECT_TRUE(records.empty());
        EXPECT_TRUE(metrics::close_if_last(prof, device, second, true, later));
    }
    ASSERT_EQ(records.size(), 2u);
    expect_values(records[0], 1);
    expect_values(records[1], 2);
    EXPECT_EQ(fake.decodes, 1);
    // The next dispatch opens a new session; a closed batch is not closed twice.
    auto third = launch();
    complete(third, 2);
    {
        auto later = metrics::batch_release{};
        EXPECT_FALSE(metrics::close_if_last(prof, device, second, true, later));
        EXPECT_TRUE(metrics::close_if_last(prof, device, third, true, later));
    }
    ASSERT_EQ(records.size(), 3u);
    expect_values(records[2], 3);
    EXPECT_EQ(fake.starts, 2);
}

// After the application's synchronization returned, a batch whose executions have all finished
// is decoded; one that still has a kernel running (another stream) waits for the next one. Many
// launches between two waits share one session.
TEST_F(cuda_counter_batch_session, a_synchronization_decodes_a_batch_whose_kernels_all_finished)
{
    auto first  = launch();
    auto second = launch();
    auto third  = launch();
    complete(first, 0);
    complete(second, 1);
    {
        auto later = metrics::batch_release{};
        EXPECT_FALSE(metrics::close_if_finished(prof, device, later)) << "third still runs";
    }
    EXPECT_TRUE(records.empty());
    complete(third, 2);
    {
        auto later = metrics::batch_release{};
        EXPECT_TRUE(metrics::close_if_finished(prof, device, later));
        EXPECT_FALSE(metrics::close_if_finished(prof, device, later)) << "nothing left to close";
    }
    ASSERT_EQ(records.size(), 3u);
    expect_values(records[0], 1);
    expect_values(records[2], 3);
    EXPECT_EQ(fake.starts, 1) << "three launches, one session";
    EXPECT_EQ(fake.decodes, 1);
}

// After the application synchronized the whole context, every kernel of it has finished, even when
// the SDK has not yet been told (completions come on another thread, later): the batch is decoded
// at once, and each execution's record follows when its completion comes. Waiting for the
// completions instead lost the batch to a kernel that faulted right after the wait (first H100
// run of cuda.counters_fault with decoding at synchronizations).
TEST_F(cuda_counter_batch_session, a_context_synchronization_decodes_before_the_completions_come)
{
    auto first  = launch();
    auto second = launch();
    {
        auto later = metrics::batch_release{};
        EXPECT_FALSE(metrics::close_if_finished(prof, device, later)) << "no completion yet";
        EXPECT_TRUE(metrics::close_after_context_wait(prof, device, later));
        EXPECT_FALSE(metrics::close_after_context_wait(prof, device, later))
            << "nothing left to close";
    }
    EXPECT_EQ(fake.decodes, 1);
    EXPECT_TRUE(records.empty()) << "a record waits for its kernel's completion";
    complete(first, 0);
    complete(second, 1);
    ASSERT_EQ(records.size(), 2u);
    expect_values(records[0], 1);
    expect_values(records[1], 2);
    // A later launch opens a new session.
    auto third = launch();
    complete(third, 2);
    {
        auto later = metrics::batch_release{};
        EXPECT_TRUE(metrics::close_after_context_wait(prof, device, later));
    }
    ASSERT_EQ(records.size(), 3u);
    expect_values(records[2], 3);
    EXPECT_EQ(fake.starts, 2);
}

// Each open session counts until it is closed: an application's wait with none open returns
// without visiting any context.
TEST_F(cuda_counter_batch_session, running_batches_count_the_open_sessions)
{
    const auto before = metrics::running_batches();
    auto       first  = launch();
    EXPECT_EQ(metrics::running_batches(), before + 1);
    auto second = launch(); // the same session
    EXPECT_EQ(metrics::running_batches(), before + 1);
    complete(first, 0);
    complete(second, 1);
    close();
    EXPECT_EQ(metrics::running_batches(), before);
    close(); // closing a closed batch changes nothing
    EXPECT_EQ(metrics::running_batches(), before);
    ASSERT_EQ(records.size(), 2u);
}

// The wait scope counts the threads inside a synchronization.
TEST(cuda_counter_batch, application_wait_scopes_count_the_waiting_threads)
{
    EXPECT_FALSE(metrics::application_wait_scope::any());
    {
        auto outer = metrics::application_wait_scope{};
        EXPECT_TRUE(metrics::application_wait_scope::any());
        {
            auto inner = metrics::application_wait_scope{};
            EXPECT_TRUE(metrics::application_wait_scope::any());
        }
        EXPECT_TRUE(metrics::application_wait_scope::any());
    }
    EXPECT_FALSE(metrics::application_wait_scope::any());
}

// CUPTI's PM and PC sampling do not run beside an enabled range profiler (HARDWARE_BUSY on the
// H100): suspend() disables it between sessions only, and the next enable() enables it again,
// with the configuration set anew.
TEST_F(cuda_counter_batch_session, the_range_profiler_is_suspended_for_a_sampler_between_sessions)
{
    prof.tried = true; // enabled once already (the fixture's object)
    auto entry = launch();
    EXPECT_FALSE(metrics::suspend(prof)) << "a batch runs";
    EXPECT_EQ(fake.disables, 0);
    close();
    complete(entry, 0);
    ASSERT_EQ(records.size(), 1u);
    EXPECT_TRUE(metrics::suspend(prof));
    EXPECT_EQ(fake.disables, 1);
    EXPECT_EQ(prof.object, nullptr);
    EXPECT_FALSE(metrics::suspend(prof)) << "already disabled";
    metrics::enable(prof, nullptr, 0);
    EXPECT_EQ(fake.enables, 1);
    EXPECT_NE(prof.object, nullptr);
    EXPECT_TRUE(prof.error.empty()) << prof.error;
    const auto sized_before = fake.image_ranges;
    fake.image_ranges       = 0;
    auto again              = launch();
    EXPECT_EQ(fake.image_ranges, sized_before) << "the configuration is sized again";
    complete(again, 1);
    close();
    ASSERT_EQ(records.size(), 2u);
    expect_values(records[1], 2);
}
