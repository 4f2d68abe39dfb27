// counter_collection: counter collection per dispatch as tools for AMD's rocprofiler-sdk write
// it, in its callback form (AMD_STYLE_COUNTER_MODE=callback, the default) or its buffered form
// (=buffer). For each agent it looks up counters by name, reads each counter's dimensions through
// rocprofiler_query_counter_info (version 1: `*info.dimensions`, `dimensions_instances`), builds
// one counter configuration per agent on the first dispatch, and sums the values per counter. The
// counters are named by AMD_STYLE_COUNTERS (comma-separated; default "WORK_ITEMS,WORKGROUPS", two
// counters of the host device). At exit it prints the totals and PASS or FAIL (every dispatch
// reported each counter once, and the values are positive). Output: stderr, or AMD_STYLE_OUTPUT.
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <rocprofiler-sdk/cxx/details/tokenize.hpp>
#include <rocprofiler-sdk/cxx/hash.hpp>
#include <rocprofiler-sdk/cxx/operators.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#define ROCPROFILER_CALL(result, msg)                                                              \
    {                                                                                              \
        rocprofiler_status_t CHECKSTATUS = result;                                                 \
        if(CHECKSTATUS != ROCPROFILER_STATUS_SUCCESS)                                              \
        {                                                                                          \
            std::cerr << "[counter_collection] " << msg << " failed with error code "              \
                      << CHECKSTATUS << ": " << rocprofiler_get_status_string(CHECKSTATUS)         \
                      << std::endl;                                                                \
            std::abort();                                                                          \
        }                                                                                          \
    }

namespace
{
struct counter_meta
{
    std::string name       = {};
    size_t      dimensions = 0;
    size_t      instances  = 0;
};

struct tool_state
{
    std::mutex                                                                  mutex        = {};
    std::vector<std::string>                                                    wanted       = {};
    std::unordered_map<rocprofiler_agent_id_t, rocprofiler_counter_config_id_t> configs      = {};
    std::unordered_map<rocprofiler_counter_id_t, counter_meta>                  meta         = {};
    std::map<std::string, double>                                               totals       = {};
    std::map<uint64_t, std::map<std::string, size_t>>                           per_dispatch = {};
    size_t                                                                      dispatches   = 0;
    size_t                                                                      bad          = 0;
    bool                                                                        buffered = false;
};

tool_state*              state  = nullptr;
rocprofiler_context_id_t ctx    = {};
rocprofiler_buffer_id_t  buffer = {};

// The counters of an agent that the tool wants, with their dimensions read as AMD's tools read
// them.
std::vector<rocprofiler_counter_id_t>
find_counters(rocprofiler_agent_id_t agent)
{
    auto all = std::vector<rocprofiler_counter_id_t>{};
    ROCPROFILER_CALL(rocprofiler_iterate_agent_supported_counters(
                         agent,
                         [](rocprofiler_agent_id_t,
                            rocprofiler_counter_id_t* counters,
                            size_t                    num_counters,
                            void*                     user_data)
                         {
                             auto* vec =
                                 static_cast<std::vector<rocprofiler_counter_id_t>*>(user_data);
                             vec->assign(counters, counters + num_counters);
                             return ROCPROFILER_STATUS_SUCCESS;
                         },
                         &all),
                     "iterate supported counters");
    auto out = std::vector<rocprofiler_counter_id_t>{};
    for(auto counter : all)
    {
        auto info = rocprofiler_counter_info_v1_t{};
        ROCPROFILER_CALL(
            rocprofiler_query_counter_info(counter, ROCPROFILER_COUNTER_INFO_VERSION_1, &info),
            "query counter info");
        for(const auto& name : state->wanted)
        {
            if(name != info.name) continue;
            auto meta =
                counter_meta{info.name, info.dimensions_count, info.dimensions_instances_count};
            // As AMD's samples do: the first dimension's name and size.
            const auto& first = *info.dimensions[0];
            if(first.name == nullptr || first.instance_size == 0) ++state->bad;
            auto instances = size_t{0};
            ROCPROFILER_CALL(rocprofiler_query_counter_instance_count(agent, counter, &instances),
                             "query counter instance count");
            if(instances != info.dimensions_instances_count) ++state->bad;
            state->meta[counter] = meta;
            out.push_back(counter);
        }
    }
    return out;
}

void
dispatch_callback(rocprofiler_dispatch_counting_service_data_t dispatch_data,
                  rocprofiler_counter_config_id_t*             config,
                  rocprofiler_user_data_t*                     user_data,
                  void*)
{
    auto lock  = std::lock_guard{state->mutex};
    auto agent = dispatch_data.dispatch_info.agent_id;
    auto found = state->configs.find(agent);
    if(found == state->configs.end())
    {
        auto counters = find_counters(agent);
        auto cfg      = rocprofiler_counter_config_id_t{};
        if(counters.size() == state->wanted.size())
            ROCPROFILER_CALL(
                rocprofiler_create_counter_config(agent, counters.data(), counters.size(), &cfg),
                "create counter config");
        found = state->configs.emplace(agent, cfg).first;
    }
    if(found->second.handle == 0) return; // this agent lacks a counter: nothing collected
    user_data->value = dispatch_data.dispatch_info.dispatch_id;
    *config          = found->second;
}

void
take_value(const rocprofiler_counter_record_t& record)
{
    auto counter = rocprofiler_counter_id_t{};
    ROCPROFILER_CALL(rocprofiler_query_record_counter_id(record.id, &counter), "record counter id");
    auto meta = state->meta.find(counter);
    if(meta == state->meta.end())
    {
        ++state->bad;
        return;
    }
    if(record.user_data.value != record.dispatch_id) ++state->bad;
    if(!(record.counter_value > 0)) ++state->bad;
    state->totals[meta->second.name] += record.counter_value;
    ++state->per_dispatch[record.dispatch_id][meta->second.name];
}

void
record_callback(rocprofiler_dispatch_counting_service_data_t,
                rocprofiler_counter_record_t* record_data,
                size_t                        record_count,
                rocprofiler_user_data_t,
                void*)
{
    auto lock = std::lock_guard{state->mutex};
    ++state->dispatches;
    for(size_t i = 0; i < record_count; ++i)
        take_value(record_data[i]);
}

void
buffered_callback(rocprofiler_context_id_t,
                  rocprofiler_buffer_id_t,
                  rocprofiler_record_header_t** headers,
                  size_t                        num_headers,
                  void*,
                  uint64_t drop_count)
{
    auto lock = std::lock_guard{state->mutex};
    if(drop_count != 0) ++state->bad;
    for(size_t i = 0; i < num_headers; ++i)
    {
        auto* header = headers[i];
        if(header->category != ROCPROFILER_BUFFER_CATEGORY_COUNTERS) continue;
        if(header->kind == ROCPROFILER_COUNTER_RECORD_PROFILE_COUNTING_DISPATCH_HEADER)
            ++state->dispatches;
        else if(header->kind == ROCPROFILER_COUNTER_RECORD_VALUE)
            take_value(*static_cast<rocprofiler_counter_record_t*>(header->payload));
    }
}

int
tool_init(rocprofiler_client_finalize_t, void*)
{
    ROCPROFILER_CALL(rocprofiler_create_context(&ctx), "context creation");
    if(state->buffered)
    {
        ROCPROFILER_CALL(rocprofiler_create_buffer(ctx,
                                                   4096,
                                                   2048,
                                                   ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                                   buffered_callback,
                                                   nullptr,
                                                   &buffer),
                         "buffer creation");
        ROCPROFILER_CALL(rocprofiler_configure_buffer_dispatch_counting_service(
                             ctx, buffer, dispatch_callback, nullptr),
                         "buffered dispatch counting service");
    }
    else
    {
        ROCPROFILER_CALL(rocprofiler_configure_callback_dispatch_counting_service(
                             ctx, dispatch_callback, nullptr, record_callback, nullptr),
                         "callback dispatch counting service");
    }
    ROCPROFILER_CALL(rocprofiler_start_context(ctx), "start context");
    return 0;
}

void
tool_fini(void*)
{
    if(state->buffered) rocprofiler_flush_buffer(buffer);
    rocprofiler_stop_context(ctx);

    auto lock = std::lock_guard{state->mutex};
    auto out  = std::ostringstream{};
    auto ok =
        state->bad == 0 && state->dispatches > 0 && state->per_dispatch.size() == state->dispatches;
    for(const auto& [dispatch, seen] : state->per_dispatch)
        for(const auto& name : state->wanted)
            if(seen.count(name) == 0 || seen.at(name) != 1) ok = false;
    for(const auto& [name, total] : state->totals)
        out << "counter " << name << " total=" << total << "\n";
    out << "counter_collection (" << (state->buffered ? "buffer" : "callback")
        << "): " << state->dispatches << " dispatches, " << state->totals.size()
        << " counters: " << (ok ? "PASS" : "FAIL") << "\n";
    const char* path = std::getenv("AMD_STYLE_OUTPUT");
    if(path != nullptr && *path != '\0')
        std::ofstream{path} << out.str();
    else
        std::cerr << out.str() << std::flush;
}
} // namespace

extern "C" rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id)
{
    id->name = "amd-style-counter-collection";
    state    = new tool_state{};

    const char* names = std::getenv("AMD_STYLE_COUNTERS");
    state->wanted     = rocprofiler::sdk::parse::tokenize(
        (names != nullptr && *names != '\0') ? names : "WORK_ITEMS,WORKGROUPS", ",");
    const char* mode = std::getenv("AMD_STYLE_COUNTER_MODE");
    state->buffered  = mode != nullptr && std::string{mode} == "buffer";

    static auto cfg = rocprofiler_tool_configure_result_t{
        sizeof(rocprofiler_tool_configure_result_t), &tool_init, &tool_fini, nullptr};
    return &cfg;
}
