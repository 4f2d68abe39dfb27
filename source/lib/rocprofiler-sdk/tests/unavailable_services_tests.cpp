// Thread trace on the host device, where it does not exist: every configuration call checks its
// arguments first (the documented error for each bad one) and then returns the documented "not
// here" status, the configuration lock still applies afterwards, and the service warns once per
// process, naming the agent. The thread-trace decoder, which needs no tool, answers NOT_AVAILABLE
// for creation and "not a decoder" for every handle. PC sampling and SPM, which the host device
// offers (pc_sampling_tests.cpp and spm_tests.cpp sample with them), keep PC sampling's argument
// checks here: the order of its errors, and the answers for what the host agent does not offer.
#include <rocprofiler-sdk/experimental/thread-trace/trace_decoder.h>
#include <rocprofiler-sdk/experimental/thread_trace.h>
#include <rocprofiler-sdk/pc_sampling.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include "sdk_test.hpp"

#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace
{
// What the tool's initialize saw, by call; checked by the test body once initialize returned.
std::map<std::string, rocprofiler_status_t> seen         = {};
rocprofiler_context_id_t                    tool_context = {};
rocprofiler_buffer_id_t                     tool_buffer  = {};
rocprofiler_agent_id_t                      tool_agent   = {};

void
ignore_records(rocprofiler_context_id_t,
               rocprofiler_buffer_id_t,
               rocprofiler_record_header_t**,
               size_t,
               void*,
               uint64_t)
{
}

constexpr auto unknown_context = rocprofiler_context_id_t{0xdead};
constexpr auto unknown_agent   = rocprofiler_agent_id_t{0xdead};
constexpr auto unknown_buffer  = rocprofiler_buffer_id_t{0xdead};

void
set_up_context_and_buffer()
{
    seen         = {};
    tool_context = sdk_test::create_context();
    tool_buffer  = sdk_test::create_buffer(tool_context, 4096, 1024, ignore_records);
    tool_agent   = sdk_test::gpu_agent();
}

size_t
count_of(const std::string& text, const std::string& what)
{
    size_t n = 0;
    for(auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1))
        ++n;
    return n;
}

// A tool fixture that keeps what went to stderr while the tool's initialize ran (SetUp
// force-configures the tool, which initializes it at once).
template <const char* Name, void (*Init)()>
class capturing_tool_test : public sdk_test::tool_fixture
{
protected:
    capturing_tool_test()
        : tool_fixture{Name, Init}
    {
    }
    void SetUp() override
    {
        ::testing::internal::CaptureStderr();
        tool_fixture::SetUp();
        init_stderr = ::testing::internal::GetCapturedStderr();
    }
    std::string init_stderr = {};
};

std::string
agent_name(rocprofiler_agent_id_t id)
{
    auto found = std::pair<rocprofiler_agent_id_t, std::string>{id, {}};
    rocprofiler_query_available_agents(
        ROCPROFILER_AGENT_INFO_VERSION_0,
        [](rocprofiler_agent_version_t, const void** agents, size_t n, void* data)
        {
            auto* out = static_cast<std::pair<rocprofiler_agent_id_t, std::string>*>(data);
            for(size_t i = 0; i < n; ++i)
            {
                const auto* agent = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
                if(agent->id.handle == out->first.handle && agent->name != nullptr)
                    out->second = agent->name;
            }
            return ROCPROFILER_STATUS_SUCCESS;
        },
        sizeof(rocprofiler_agent_v0_t),
        &found);
    return found.second;
}

// --- PC sampling ---------------------------------------------------------------------------------

void
configure_pc_sampling()
{
    set_up_context_and_buffer();
    const auto method   = ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP;
    const auto unit     = ROCPROFILER_PC_SAMPLING_UNIT_TIME;
    seen["bad context"] = rocprofiler_configure_pc_sampling_service(
        unknown_context, tool_agent, method, unit, 1000, tool_buffer, 0);
    seen["bad agent"] = rocprofiler_configure_pc_sampling_service(
        tool_context, unknown_agent, method, unit, 1000, tool_buffer, 0);
    seen["bad buffer"] = rocprofiler_configure_pc_sampling_service(
        tool_context, tool_agent, method, unit, 1000, unknown_buffer, 0);
    seen["method NONE"] = rocprofiler_configure_pc_sampling_service(
        tool_context, tool_agent, ROCPROFILER_PC_SAMPLING_METHOD_NONE, unit, 1000, tool_buffer, 0);
    seen["unit LAST"] = rocprofiler_configure_pc_sampling_service(
        tool_context, tool_agent, method, ROCPROFILER_PC_SAMPLING_UNIT_LAST, 1000, tool_buffer, 0);
    seen["short interval"] = rocprofiler_configure_pc_sampling_service(
        tool_context, tool_agent, method, unit, 1000, tool_buffer, 0);
    seen["stochastic cycles"] =
        rocprofiler_configure_pc_sampling_service(tool_context,
                                                  tool_agent,
                                                  ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC,
                                                  ROCPROFILER_PC_SAMPLING_UNIT_CYCLES,
                                                  1 << 20,
                                                  tool_buffer,
                                                  0);
}

constexpr char pc_sampling_tool[] = "pc-sampling-unavailable";
using pc_sampling                 = capturing_tool_test<pc_sampling_tool, configure_pc_sampling>;

TEST_F(pc_sampling, configure_checks_arguments_in_order_and_refuses_what_is_not_offered)
{
    const auto& err = init_stderr;
    EXPECT_EQ(seen["bad context"], ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
    EXPECT_EQ(seen["bad agent"], ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND);
    EXPECT_EQ(seen["bad buffer"], ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
    EXPECT_EQ(seen["method NONE"], ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(seen["unit LAST"], ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    // The host agent samples every 1 ms or more, by host trap in ns.
    EXPECT_EQ(seen["short interval"], ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(seen["stochastic cycles"], ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE);
    // An agent that offers PC sampling does not warn that it has none.
    EXPECT_EQ(count_of(err, "PC sampling is not available on "), 0u) << err;

    // After initialization the lock comes first, as for every configuration call.
    EXPECT_EQ(rocprofiler_configure_pc_sampling_service(tool_context,
                                                        tool_agent,
                                                        ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP,
                                                        ROCPROFILER_PC_SAMPLING_UNIT_TIME,
                                                        1000,
                                                        tool_buffer,
                                                        0),
              ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
}

struct query_log
{
    int                                            calls     = 0;
    const rocprofiler_pc_sampling_configuration_t* configs   = nullptr;
    size_t                                         num       = 99;
    void*                                          user_data = nullptr;
    rocprofiler_status_t                           answer    = ROCPROFILER_STATUS_SUCCESS;
    rocprofiler_pc_sampling_configuration_t        first     = {}; // copied during the call
};

rocprofiler_status_t
log_pc_sampling_configs(const rocprofiler_pc_sampling_configuration_t* configs,
                        size_t                                         num,
                        void*                                          user_data)
{
    auto* log      = static_cast<query_log*>(user_data);
    log->calls     = log->calls + 1;
    log->configs   = configs;
    log->num       = num;
    log->user_data = user_data;
    if(num > 0 && configs != nullptr) log->first = configs[0];
    return log->answer;
}

TEST_F(pc_sampling, query_reports_host_trap_on_the_host_agent_and_none_elsewhere)
{
    auto agents = std::vector<rocprofiler_agent_id_t>{};
    rocprofiler_query_available_agents(
        ROCPROFILER_AGENT_INFO_VERSION_0,
        [](rocprofiler_agent_version_t, const void** list, size_t n, void* data)
        {
            for(size_t i = 0; i < n; ++i)
                static_cast<std::vector<rocprofiler_agent_id_t>*>(data)->push_back(
                    static_cast<const rocprofiler_agent_v0_t*>(list[i])->id);
            return ROCPROFILER_STATUS_SUCCESS;
        },
        sizeof(rocprofiler_agent_v0_t),
        &agents);
    ASSERT_FALSE(agents.empty());
    for(auto agent : agents)
    {
        auto log = query_log{};
        EXPECT_EQ(rocprofiler_query_pc_sampling_agent_configurations(
                      agent, log_pc_sampling_configs, &log),
                  ROCPROFILER_STATUS_SUCCESS);
        EXPECT_EQ(log.calls, 1) << "agent " << agent.handle;
        EXPECT_EQ(log.user_data, &log);
        if(agent_name(agent) != "host")
        {
            // CUDA agents offer no PC sampling yet.
            EXPECT_EQ(log.num, 0u);
            EXPECT_EQ(log.configs, nullptr);
        }
        else
        {
            // The configurations are valid only during the callback: the log keeps the count.
            EXPECT_EQ(log.num, 1u);
            EXPECT_NE(log.configs, nullptr);
            EXPECT_EQ(log.first.size, sizeof(rocprofiler_pc_sampling_configuration_t));
            EXPECT_EQ(log.first.method, ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP);
            EXPECT_EQ(log.first.unit, ROCPROFILER_PC_SAMPLING_UNIT_TIME);
            EXPECT_EQ(log.first.min_interval, 1000u * 1000u);
            EXPECT_EQ(log.first.max_interval, 1000u * 1000u * 1000u);
        }
    }

    // The callback's status is the query's.
    auto refusing   = query_log{};
    refusing.answer = ROCPROFILER_STATUS_ERROR;
    EXPECT_EQ(rocprofiler_query_pc_sampling_agent_configurations(
                  agents.front(), log_pc_sampling_configs, &refusing),
              ROCPROFILER_STATUS_ERROR);

    auto untouched = query_log{};
    EXPECT_EQ(rocprofiler_query_pc_sampling_agent_configurations(
                  unknown_agent, log_pc_sampling_configs, &untouched),
              ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND);
    EXPECT_EQ(
        rocprofiler_query_pc_sampling_agent_configurations(agents.front(), nullptr, &untouched),
        ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(untouched.calls, 0);
}

TEST_F(pc_sampling, names_of_instruction_types_and_reasons)
{
    EXPECT_STREQ(rocprofiler_get_pc_sampling_instruction_type_name(
                     ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_NONE),
                 "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_NONE");
    EXPECT_STREQ(rocprofiler_get_pc_sampling_instruction_type_name(
                     ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_DUAL_VALU),
                 "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_DUAL_VALU");
    EXPECT_EQ(rocprofiler_get_pc_sampling_instruction_type_name(
                  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LAST),
              nullptr);
    EXPECT_STREQ(rocprofiler_get_pc_sampling_instruction_not_issued_reason_name(
                     ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT),
                 "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT");
    EXPECT_EQ(rocprofiler_get_pc_sampling_instruction_not_issued_reason_name(
                  ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_LAST),
              nullptr);
    // Every value has its own enumerator's name.
    for(int i = 0; i < ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LAST; ++i)
    {
        const char* name = rocprofiler_get_pc_sampling_instruction_type_name(
            static_cast<rocprofiler_pc_sampling_instruction_type_t>(i));
        ASSERT_NE(name, nullptr) << i;
        EXPECT_EQ(std::strncmp(name, "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_", 41), 0) << name;
    }
    for(int i = 0; i < ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_LAST; ++i)
    {
        EXPECT_NE(rocprofiler_get_pc_sampling_instruction_not_issued_reason_name(
                      static_cast<rocprofiler_pc_sampling_instruction_not_issued_reason_t>(i)),
                  nullptr)
            << i;
    }
}

// --- thread trace --------------------------------------------------------------------------------

rocprofiler_thread_trace_control_flags_t
trace_nothing(rocprofiler_agent_id_t,
              rocprofiler_queue_id_t,
              rocprofiler_async_correlation_id_t,
              rocprofiler_kernel_id_t,
              rocprofiler_dispatch_id_t,
              void*,
              rocprofiler_user_data_t*)
{
    return ROCPROFILER_THREAD_TRACE_CONTROL_NONE;
}

void
ignore_shader_data(rocprofiler_thread_trace_shader_data_t, rocprofiler_user_data_t)
{
}

void
configure_thread_trace()
{
    set_up_context_and_buffer();
    auto params      = std::vector<rocprofiler_thread_trace_parameter_t>(2);
    params[0].type   = ROCPROFILER_THREAD_TRACE_PARAMETER_BUFFER_SIZE;
    params[0].value  = 1u << 20;
    params[1].type   = ROCPROFILER_THREAD_TRACE_PARAMETER_SHADER_ENGINE_MASK;
    params[1].value  = 1;
    auto bad_type    = params;
    bad_type[1].type = ROCPROFILER_THREAD_TRACE_PARAMETER_LAST;

    seen["dispatch bad context"] = rocprofiler_configure_dispatch_thread_trace_service(
        unknown_context, tool_agent, params.data(), 2, trace_nothing, ignore_shader_data, nullptr);
    seen["dispatch bad agent"] = rocprofiler_configure_dispatch_thread_trace_service(
        tool_context, unknown_agent, params.data(), 2, trace_nothing, ignore_shader_data, nullptr);
    seen["dispatch null params"] = rocprofiler_configure_dispatch_thread_trace_service(
        tool_context, tool_agent, nullptr, 2, trace_nothing, ignore_shader_data, nullptr);
    seen["dispatch bad type"] = rocprofiler_configure_dispatch_thread_trace_service(
        tool_context, tool_agent, bad_type.data(), 2, trace_nothing, ignore_shader_data, nullptr);
    seen["dispatch null cb"] = rocprofiler_configure_dispatch_thread_trace_service(
        tool_context, tool_agent, params.data(), 2, nullptr, ignore_shader_data, nullptr);
    seen["dispatch good"] = rocprofiler_configure_dispatch_thread_trace_service(
        tool_context, tool_agent, params.data(), 2, trace_nothing, ignore_shader_data, nullptr);
    seen["dispatch no params"] = rocprofiler_configure_dispatch_thread_trace_service(
        tool_context, tool_agent, nullptr, 0, trace_nothing, ignore_shader_data, nullptr);

    seen["device bad context"] = rocprofiler_configure_device_thread_trace_service(
        unknown_context, tool_agent, params.data(), 2, ignore_shader_data, {});
    seen["device null cb"] = rocprofiler_configure_device_thread_trace_service(
        tool_context, tool_agent, params.data(), 2, nullptr, {});
    seen["device good"] = rocprofiler_configure_device_thread_trace_service(
        tool_context, tool_agent, params.data(), 2, ignore_shader_data, {});
}

constexpr char thread_trace_tool[] = "thread-trace-unavailable";
using thread_trace                 = capturing_tool_test<thread_trace_tool, configure_thread_trace>;

TEST_F(thread_trace, services_check_arguments_then_are_not_supported_and_warn_once)
{
    const auto& err = init_stderr;
    EXPECT_EQ(seen["dispatch bad context"], ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
    EXPECT_EQ(seen["dispatch bad agent"], ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND);
    EXPECT_EQ(seen["dispatch null params"], ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(seen["dispatch bad type"], ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(seen["dispatch null cb"], ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(seen["dispatch good"], ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED);
    EXPECT_EQ(seen["dispatch no params"], ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED);
    EXPECT_EQ(seen["device bad context"], ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
    EXPECT_EQ(seen["device null cb"], ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(seen["device good"], ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED);

    EXPECT_EQ(count_of(err, "Thread trace is not available on "), 1u) << err;
    EXPECT_NE(err.find("Thread trace is not available on " + agent_name(tool_agent)),
              std::string::npos)
        << err;

    EXPECT_EQ(rocprofiler_configure_device_thread_trace_service(
                  tool_context, tool_agent, nullptr, 0, ignore_shader_data, {}),
              ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
}

// The decoder is AMD's library for AMD's trace format; none is loaded here. Creating one answers
// AMD's "library not found" status, warns once, and leaves the handle at 0; every other function
// answers as for a handle that is not a decoder.
TEST(thread_trace_decoder, create_is_not_available_and_no_handle_is_a_decoder)
{
    auto decoder = rocprofiler_thread_trace_decoder_id_t{0x1234};
    EXPECT_EQ(rocprofiler_thread_trace_decoder_create(nullptr, "/usr/lib"),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_thread_trace_decoder_create(&decoder, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);

    ::testing::internal::CaptureStderr();
    EXPECT_EQ(rocprofiler_thread_trace_decoder_create(&decoder, "/usr/lib"),
              ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE);
    EXPECT_EQ(decoder.handle, 0u);
    EXPECT_EQ(rocprofiler_thread_trace_decoder_create(&decoder, "/opt/rocm/lib"),
              ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE);
    const auto err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(count_of(err, "loads no thread-trace decoder"), 1u) << err;

    const char code[4]  = {0x7f, 'E', 'L', 'F'};
    char       trace[8] = {};
    EXPECT_EQ(rocprofiler_thread_trace_decoder_codeobj_load(decoder, 1, 0x1000, 4, code, 4),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_thread_trace_decoder_codeobj_unload(decoder, 1),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    auto on_records = [](rocprofiler_thread_trace_decoder_record_type_t, void*, uint64_t, void*)
    { ADD_FAILURE() << "no decoder exists to call back"; };
    EXPECT_EQ(rocprofiler_trace_decode(decoder, on_records, trace, sizeof(trace), nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_thread_trace_decoder_codeobj_load(decoder, 1, 0x1000, 4, nullptr, 4),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_thread_trace_decoder_info_string(
                  decoder, ROCPROFILER_THREAD_TRACE_DECODER_INFO_DATA_LOST),
              nullptr);
    rocprofiler_thread_trace_decoder_destroy(decoder); // a no-op: must not crash
}
} // namespace
