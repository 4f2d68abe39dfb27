// device_counting: agent-wide counter collection as tools for AMD's rocprofiler-sdk write it, in
// its synchronous form (AMD_STYLE_COUNTER_MODE=sync, the default: the values come back in the
// caller's array) or its asynchronous one (=async: they arrive in the buffer). The tool configures
// device counting on every GPU agent that offers it, chooses two counters whose totals follow from
// the launches when the context starts (the host device: WORK_ITEMS and WORKGROUPS; an NVIDIA GPU:
// smsp__warps_launched.sum and AMD's SQ_WAVES, the warps of 32 threads launched), and samples the
// agent after each kernel completes (from the KERNEL_DISPATCH COMPLETE callback, where the
// completed kernel is already in the sums). It also adds up, from the grids of the dispatches it
// sees completing, what those counters must total, and at exit checks that the highest (the
// latest) sample of each agent equals it and that the window left no execution out
// (experimental/device_counting.h): device counting saw every dispatch, once.
// Output: stderr, or AMD_STYLE_OUTPUT.
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#define ROCPROFILER_CALL(result, msg)                                                              \
    {                                                                                              \
        rocprofiler_status_t CHECKSTATUS = result;                                                 \
        if(CHECKSTATUS != ROCPROFILER_STATUS_SUCCESS)                                              \
        {                                                                                          \
            std::cerr << "[device_counting] " << msg << " failed with error code " << CHECKSTATUS  \
                      << ": " << rocprofiler_get_status_string(CHECKSTATUS) << std::endl;          \
            std::abort();                                                                          \
        }                                                                                          \
    }

namespace
{
struct agent_totals
{
    rocprofiler_counter_config_id_t config   = {};
    std::vector<std::string>        counters = {}; // the pair chosen
    std::map<std::string, double>   expected = {}; // from the completed dispatches' grids
    std::map<std::string, double>   last     = {}; // the highest value sampled
    size_t                          samples  = 0;
};

struct tool_state
{
    std::mutex                       mutex    = {};
    bool                             async    = false;
    std::map<uint64_t, agent_totals> agents   = {}; // by agent handle
    std::map<uint64_t, std::string>  names    = {}; // counter id -> name
    size_t                           refused  = 0;  // agents without device counting
    size_t                           bad      = 0;
    uint64_t                         next_tag = 1; // user data of each sample
};

tool_state*              state  = nullptr;
rocprofiler_context_id_t ctx    = {};
rocprofiler_buffer_id_t  buffer = {};

std::vector<rocprofiler_agent_id_t>
gpu_agents()
{
    auto out = std::vector<rocprofiler_agent_id_t>{};
    ROCPROFILER_CALL(
        rocprofiler_query_available_agents(
            ROCPROFILER_AGENT_INFO_VERSION_0,
            [](rocprofiler_agent_version_t, const void** agents, size_t n, void* data)
            {
                for(size_t i = 0; i < n; ++i)
                {
                    const auto* agent = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
                    if(agent->type == ROCPROFILER_AGENT_TYPE_GPU)
                        static_cast<std::vector<rocprofiler_agent_id_t>*>(data)->push_back(
                            agent->id);
                }
                return ROCPROFILER_STATUS_SUCCESS;
            },
            sizeof(rocprofiler_agent_v0_t),
            &out),
        "query agents");
    return out;
}

// The counter pairs the tool knows the totals of, in the order it tries them.
const std::vector<std::vector<std::string>> known_pairs = {
    {"WORK_ITEMS", "WORKGROUPS"}, {"smsp__warps_launched.sum", "SQ_WAVES"}};

// The config of the first known pair the agent has, or a zero handle when it has none.
rocprofiler_counter_config_id_t
make_config(rocprofiler_agent_id_t agent)
{
    auto ids = std::vector<rocprofiler_counter_id_t>{};
    rocprofiler_iterate_agent_supported_counters(
        agent,
        [](rocprofiler_agent_id_t, rocprofiler_counter_id_t* counters, size_t n, void* data)
        {
            static_cast<std::vector<rocprofiler_counter_id_t>*>(data)->assign(counters,
                                                                              counters + n);
            return ROCPROFILER_STATUS_SUCCESS;
        },
        &ids);
    auto by_name = std::map<std::string, rocprofiler_counter_id_t>{};
    for(auto id : ids)
    {
        auto info = rocprofiler_counter_info_v0_t{};
        ROCPROFILER_CALL(
            rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_0, &info),
            "query counter info");
        by_name[info.name] = id;
    }
    auto cfg = rocprofiler_counter_config_id_t{};
    for(const auto& pair : known_pairs)
    {
        auto wanted = std::vector<rocprofiler_counter_id_t>{};
        for(const auto& name : pair)
            if(by_name.count(name) != 0) wanted.push_back(by_name.at(name));
        if(wanted.size() != pair.size()) continue;
        for(size_t i = 0; i < pair.size(); ++i)
            state->names[wanted[i].handle] = pair[i];
        ROCPROFILER_CALL(
            rocprofiler_create_counter_config(agent, wanted.data(), wanted.size(), &cfg),
            "create counter config");
        state->agents[agent.handle].counters = pair;
        break;
    }
    return cfg;
}

// Called when the context starts: the counters each agent counts.
void
set_profile(rocprofiler_context_id_t               context_id,
            rocprofiler_agent_id_t                 agent,
            rocprofiler_device_counting_agent_cb_t set_config,
            void*)
{
    auto lock = std::lock_guard{state->mutex};
    auto itr  = state->agents.find(agent.handle);
    if(itr == state->agents.end() || itr->second.config.handle == 0) return;
    ROCPROFILER_CALL(set_config(context_id, itr->second.config), "set device counting config");
}

std::string
name_of(const rocprofiler_counter_record_t& record)
{
    auto counter = rocprofiler_counter_id_t{};
    ROCPROFILER_CALL(rocprofiler_query_record_counter_id(record.id, &counter), "record counter id");
    auto itr = state->names.find(counter.handle);
    return itr != state->names.end() ? itr->second : "?";
}

// One sampled record (state->mutex held).
void
take_record(const rocprofiler_counter_record_t& record)
{
    auto itr = state->agents.find(record.agent_id.handle);
    if(itr == state->agents.end() || record.dispatch_id != 0 || record.user_data.value == 0)
    {
        ++state->bad;
        return;
    }
    // The sums only grow while the context runs; samples taken on two threads may reach the
    // tool in either order, so the highest is the latest.
    auto  name  = name_of(record);
    auto& total = itr->second;
    if(total.last.count(name) == 0 || record.counter_value > total.last[name])
        total.last[name] = record.counter_value;
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
        if(headers[i]->category == ROCPROFILER_BUFFER_CATEGORY_COUNTERS &&
           headers[i]->kind == ROCPROFILER_COUNTER_RECORD_VALUE)
        {
            const auto& record = *static_cast<rocprofiler_counter_record_t*>(headers[i]->payload);
            take_record(record);
            // A synchronous sample writes the buffer too: those records were counted from the
            // array already.
            if(state->async) ++state->agents[record.agent_id.handle].samples;
        }
}

uint64_t
ceil_div(uint64_t a, uint64_t b)
{
    return b == 0 ? 0 : (a + b - 1) / b;
}

// After each kernel: its grid into the expected totals, then a sample of the agent.
void
on_dispatch(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH ||
       record.operation != ROCPROFILER_KERNEL_DISPATCH_COMPLETE)
        return;
    const auto& info =
        static_cast<rocprofiler_callback_tracing_kernel_dispatch_data_t*>(record.payload)
            ->dispatch_info;
    auto tag = uint64_t{0};
    {
        auto lock = std::lock_guard{state->mutex};
        auto itr  = state->agents.find(info.agent_id.handle);
        if(itr == state->agents.end()) return;
        const auto& g      = info.grid_size;
        const auto& w      = info.workgroup_size;
        const auto  groups = ceil_div(g.x, w.x) * ceil_div(g.y, w.y) * ceil_div(g.z, w.z);
        const auto  warps  = groups * ceil_div(uint64_t{w.x} * w.y * w.z, 32);
        for(const auto& name : itr->second.counters)
        {
            if(name == "WORK_ITEMS")
                itr->second.expected[name] += static_cast<double>(uint64_t{g.x} * g.y * g.z);
            else if(name == "WORKGROUPS")
                itr->second.expected[name] += static_cast<double>(groups);
            else
                itr->second.expected[name] += static_cast<double>(warps);
        }
        tag = state->next_tag++;
    }
    auto user  = rocprofiler_user_data_t{};
    user.value = tag;
    if(state->async)
    {
        ROCPROFILER_CALL(rocprofiler_sample_device_counting_service(
                             ctx, user, ROCPROFILER_COUNTER_FLAG_ASYNC, nullptr, nullptr),
                         "async sample");
        return;
    }
    auto records = std::vector<rocprofiler_counter_record_t>(8);
    auto count   = records.size();
    ROCPROFILER_CALL(rocprofiler_sample_device_counting_service(
                         ctx, user, ROCPROFILER_COUNTER_FLAG_NONE, records.data(), &count),
                     "sync sample");
    auto lock = std::lock_guard{state->mutex};
    for(size_t i = 0; i < count; ++i)
    {
        take_record(records[i]);
        ++state->agents[records[i].agent_id.handle].samples;
    }
}

int
tool_init(rocprofiler_client_finalize_t, void*)
{
    ROCPROFILER_CALL(rocprofiler_create_context(&ctx), "context creation");
    ROCPROFILER_CALL(rocprofiler_create_buffer(ctx,
                                               4096,
                                               2048,
                                               ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                               buffered_callback,
                                               nullptr,
                                               &buffer),
                     "buffer creation");
    for(auto agent : gpu_agents())
    {
        auto status =
            rocprofiler_configure_device_counting_service(ctx, buffer, agent, set_profile, nullptr);
        if(status == ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED)
        {
            ++state->refused; // an agent that cannot count agent-wide here
            continue;
        }
        ROCPROFILER_CALL(status, "device counting service");
        state->agents[agent.handle].config = make_config(agent);
    }
    ROCPROFILER_CALL(
        rocprofiler_configure_callback_tracing_service(
            ctx, ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH, nullptr, 0, on_dispatch, nullptr),
        "kernel dispatch tracing");
    ROCPROFILER_CALL(rocprofiler_start_context(ctx), "start context");
    return 0;
}

void
tool_fini(void*)
{
    rocprofiler_flush_buffer(buffer);
    rocprofiler_stop_context(ctx);
    auto lock    = std::lock_guard{state->mutex};
    auto out     = std::ostringstream{};
    auto ok      = state->bad == 0 && !state->agents.empty();
    auto samples = size_t{0};
    auto busy    = size_t{0}; // agents that ran a dispatch
    for(const auto& [agent, total] : state->agents)
    {
        samples += total.samples;
        // An agent that ran nothing (the host device beside a GPU that ran everything) has
        // nothing to check.
        if(total.expected.empty())
        {
            out << "agent " << agent << " ran no dispatch\n";
            continue;
        }
        ++busy;
        // How many executions the window counted and left out (this SDK's extension).
        auto coverage = rocprofiler_device_counting_coverage_t{};
        if(rocprofiler_query_device_counting_coverage(ctx, {agent}, &coverage) ==
           ROCPROFILER_STATUS_SUCCESS)
        {
            out << "agent " << agent << " executions counted=" << coverage.counted
                << " unmeasured=" << coverage.unmeasured << "\n";
            if(coverage.unmeasured != 0 || coverage.counted == 0) ok = false;
        }
        else
            ok = false;
        for(const auto& [name, expected] : total.expected)
        {
            auto last = total.last.count(name) != 0 ? total.last.at(name) : -1.0;
            out << "agent " << agent << " counter " << name << " total=" << last
                << " expected=" << expected << "\n";
            if(last != expected || expected <= 0) ok = false;
        }
    }
    if(samples == 0 || busy == 0) ok = false;
    out << "device_counting (" << (state->async ? "async" : "sync") << "): " << state->agents.size()
        << " agent(s), " << state->refused << " refused, " << samples
        << " sampled records: " << (ok ? "PASS" : "FAIL") << "\n";
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
    id->name         = "amd-style-device-counting";
    state            = new tool_state{};
    const char* mode = std::getenv("AMD_STYLE_COUNTER_MODE");
    state->async     = mode != nullptr && std::string{mode} == "async";
    static auto cfg  = rocprofiler_tool_configure_result_t{
        sizeof(rocprofiler_tool_configure_result_t), &tool_init, &tool_fini, nullptr};
    return &cfg;
}
