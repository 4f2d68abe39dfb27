// replay_timing_stats: runs every kernel dispatch N times with kernel replay and reports, per
// kernel, the distribution of its duration over all passes (min, median, mean, max, standard
// deviation). One run of the application gives N samples per dispatch, each on the same input,
// because the SDK restores device memory before every further pass.
//
// Where the durations come from: kernel-dispatch buffer tracing, one record per pass. Every record
// of a dispatch carries the same dispatch id, so records are merged on (dispatch_id, pass). The
// record has no pass field; the pass is published thread-locally at PASS ENTER, and the external
// correlation id request service, asked on the submitting thread for every submit of a pass,
// stamps it into the record's external correlation id (pass + 1; 0 = not inside a replay pass).
//
// Environment: REPLAY_TIMING_PASSES (passes per dispatch, default 10, 1 = no replay),
// REPLAY_TIMING_OUTPUT (CSV path, default replay_timing_stats.csv).
//
// Threading: the replay callbacks and the correlation request run on the submitting thread; the
// buffer callback on an SDK thread; finalize on the thread that ends the process.
#include "common/sample_common.hpp"

#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <rocprofiler-sdk/rocprofiler.h>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace
{
using namespace replay_sample;

struct pass_key
{
    rocprofiler_dispatch_id_t dispatch_id = 0;
    uint64_t                  pass        = 0;
    bool                      operator<(const pass_key& other) const
    {
        return std::tie(dispatch_id, pass) < std::tie(other.dispatch_id, other.pass);
    }
};

struct pass_sample
{
    rocprofiler_kernel_id_t kernel_id   = 0;
    double                  duration_ns = 0;
};

struct tool_state
{
    uint64_t                 passes      = 10;
    std::string              output_path = "replay_timing_stats.csv";
    rocprofiler_context_id_t context     = {};
    rocprofiler_buffer_id_t  buffer      = {};
    kernel_names             names       = {};

    std::mutex                      mutex            = {};
    std::map<pass_key, pass_sample> samples          = {}; // guarded by mutex
    uint64_t                        duplicate_passes = 0;  // guarded by mutex
    uint64_t                        dropped_records  = 0;  // guarded by mutex
};

tool_state* state = nullptr; // leaked on purpose: finalize may run during process exit

// The replay pass running on this thread, between PASS ENTER and PASS EXIT.
thread_local std::optional<uint64_t> current_pass = std::nullopt;

uint64_t
pass_count(rocprofiler_kernel_dispatch_info_t, rocprofiler_user_data_t)
{
    return state->passes; // the same for every dispatch; 1 means "do not replay"
}

void
replay_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    guarded("replay callback",
            [&]
            {
                if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY) return;
                auto* payload =
                    static_cast<rocprofiler_callback_tracing_kernel_replay_data_t*>(record.payload);
                if(record.operation == ROCPROFILER_KERNEL_REPLAY_CONFIG &&
                   record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
                    payload->replay_pass_count = pass_count; // fixed loop: no replay_continue
                else if(record.operation == ROCPROFILER_KERNEL_REPLAY_PASS)
                {
                    if(record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
                        current_pass = payload->current_pass;
                    else
                        current_pass.reset();
                }
            });
}

// Asked once per submit, on the submitting thread, so inside a pass it sees that pass.
int
external_correlation_request(rocprofiler_thread_id_t,
                             rocprofiler_context_id_t,
                             rocprofiler_external_correlation_id_request_kind_t,
                             rocprofiler_tracing_operation_t,
                             uint64_t,
                             rocprofiler_user_data_t* external,
                             void*)
{
    external->value = current_pass ? *current_pass + 1 : 0;
    return 0;
}

void
buffer_callback(rocprofiler_context_id_t,
                rocprofiler_buffer_id_t,
                rocprofiler_record_header_t** headers,
                size_t                        num_headers,
                void*,
                uint64_t drop_count)
{
    guarded("buffer callback",
            [&]
            {
                auto lock = std::lock_guard{state->mutex};
                state->dropped_records += drop_count;
                for(size_t i = 0; i < num_headers; ++i)
                {
                    if(headers[i]->category != ROCPROFILER_BUFFER_CATEGORY_TRACING ||
                       headers[i]->kind != ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH)
                        continue;
                    const auto* rec =
                        static_cast<const rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(
                            headers[i]->payload);
                    auto stamp = rec->correlation_id.external.value;
                    auto key = pass_key{rec->dispatch_info.dispatch_id, stamp > 0 ? stamp - 1 : 0};
                    auto value =
                        pass_sample{rec->dispatch_info.kernel_id,
                                    static_cast<double>(rec->end_timestamp - rec->start_timestamp)};
                    if(!state->samples.emplace(key, value).second) ++state->duplicate_passes;
                }
            });
}

struct kernel_summary
{
    std::string                         name       = {};
    std::set<rocprofiler_dispatch_id_t> dispatches = {};
    std::vector<double>                 durations  = {};
    // Dispatches that did not get exactly passes 0..N-1 (for example a declined replay).
    uint64_t incomplete = 0;
};

std::map<rocprofiler_kernel_id_t, kernel_summary>
summarize_kernels()
{
    auto kernels   = std::map<rocprofiler_kernel_id_t, kernel_summary>{};
    auto per_pass  = std::map<rocprofiler_dispatch_id_t, std::set<uint64_t>>{};
    auto kernel_of = std::map<rocprofiler_dispatch_id_t, rocprofiler_kernel_id_t>{};
    for(const auto& [key, sample] : state->samples)
    {
        auto& k = kernels[sample.kernel_id];
        k.dispatches.insert(key.dispatch_id);
        k.durations.push_back(sample.duration_ns);
        per_pass[key.dispatch_id].insert(key.pass);
        kernel_of[key.dispatch_id] = sample.kernel_id;
    }
    for(const auto& [dispatch_id, passes] : per_pass)
    {
        auto complete = passes.size() == state->passes && *passes.rbegin() + 1 == state->passes;
        if(!complete) ++kernels[kernel_of[dispatch_id]].incomplete;
    }
    for(auto& [id, k] : kernels)
        k.name = state->names.lookup(id);
    return kernels;
}

void
write_report()
{
    auto kernels = summarize_kernels();

    std::fprintf(stderr,
                 "[%s] kernel durations over %llu passes per dispatch (ns)\n",
                 tool_name,
                 static_cast<unsigned long long>(state->passes));
    std::fprintf(stderr,
                 "%-24s %10s %7s %12s %12s %12s %12s %12s\n",
                 "kernel",
                 "dispatches",
                 "passes",
                 "min",
                 "median",
                 "mean",
                 "max",
                 "stddev");
    for(const auto& [id, k] : kernels)
    {
        auto s = summarize(k.durations);
        std::fprintf(stderr,
                     "%-24s %10zu %7zu %12.0f %12.0f %12.0f %12.0f %12.0f\n",
                     k.name.c_str(),
                     k.dispatches.size(),
                     s.count,
                     s.min,
                     s.median,
                     s.mean,
                     s.max,
                     s.stddev);
        if(k.incomplete > 0)
            std::fprintf(stderr,
                         "[%s] warning: %llu dispatches of %s did not run all %llu passes\n",
                         tool_name,
                         static_cast<unsigned long long>(k.incomplete),
                         k.name.c_str(),
                         static_cast<unsigned long long>(state->passes));
    }
    if(state->duplicate_passes > 0 || state->dropped_records > 0)
        std::fprintf(stderr,
                     "[%s] warning: %llu duplicate (dispatch, pass) records, %llu dropped\n",
                     tool_name,
                     static_cast<unsigned long long>(state->duplicate_passes),
                     static_cast<unsigned long long>(state->dropped_records));

    auto out = std::ofstream{state->output_path};
    out << "kernel,kernel_id,dispatches,passes,incomplete_dispatches,min_ns,median_ns,mean_ns,"
           "max_ns,stddev_ns\n";
    for(const auto& [id, k] : kernels)
    {
        auto s = summarize(k.durations);
        out << csv_field(k.name) << ',' << id << ',' << k.dispatches.size() << ',' << s.count << ','
            << k.incomplete << ',' << s.min << ',' << s.median << ',' << s.mean << ',' << s.max
            << ',' << s.stddev << '\n';
    }
    out.flush();
    if(!out)
        std::fprintf(
            stderr, "[%s] error: cannot write %s\n", tool_name, state->output_path.c_str());
    else
        std::fprintf(stderr, "[%s] wrote %s\n", tool_name, state->output_path.c_str());
}

int
tool_initialize(rocprofiler_client_finalize_t, void*)
{
    return guarded(
        "initialize",
        1,
        []
        {
            auto& ctx = state->context;
            auto  ok =
                REPLAY_SAMPLE_CHECK(rocprofiler_create_context(&ctx)) &&
                REPLAY_SAMPLE_CHECK(rocprofiler_create_buffer(ctx,
                                                              1U << 20U,
                                                              1U << 19U,
                                                              ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                                              buffer_callback,
                                                              nullptr,
                                                              &state->buffer)) &&
                REPLAY_SAMPLE_CHECK(rocprofiler_configure_buffer_tracing_service(
                    ctx, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0, state->buffer));
            auto kinds = rocprofiler_external_correlation_id_request_kind_t{
                ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH};
            ok = ok &&
                 REPLAY_SAMPLE_CHECK(rocprofiler_configure_external_correlation_id_request_service(
                     ctx, &kinds, 1, external_correlation_request, nullptr));
            // Configure replay here, in initialize: the allocation tracker starts with it, before
            // the application allocates the memory its kernels use.
            ok = ok && REPLAY_SAMPLE_CHECK(rocprofiler_configure_callback_tracing_service(
                           ctx,
                           ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY,
                           nullptr,
                           0,
                           replay_callback,
                           nullptr));
            if(ok) state->names.subscribe(ctx); // optional: only names depend on it
            ok = ok && REPLAY_SAMPLE_CHECK(rocprofiler_start_context(ctx));
            if(!ok) std::fprintf(stderr, "[%s] error: the tool is disabled\n", tool_name);
            return ok ? 0 : 1;
        });
}

void
tool_finalize(void*)
{
    guarded("finalize",
            []
            {
                if(state->buffer.handle != 0)
                    REPLAY_SAMPLE_CHECK(rocprofiler_flush_buffer(state->buffer));
                auto lock = std::lock_guard{state->mutex};
                write_report();
            });
}
} // namespace

extern "C" __attribute__((visibility("default"))) rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* client_id)
{
    return guarded("configure",
                   static_cast<rocprofiler_tool_configure_result_t*>(nullptr),
                   [&]
                   {
                       tool_name = "replay_timing_stats";
                       if(client_id != nullptr) client_id->name = tool_name;
                       state         = new tool_state{};
                       state->passes = env_uint("REPLAY_TIMING_PASSES", 10, 1, 100000);
                       if(auto path = env_string("REPLAY_TIMING_OUTPUT"))
                           state->output_path = *path;
                       static auto result = rocprofiler_tool_configure_result_t{
                           sizeof(rocprofiler_tool_configure_result_t),
                           tool_initialize,
                           tool_finalize,
                           nullptr};
                       return &result;
                   });
}
