#include "sdk_test.hpp"

#include "registration/registration.hpp"

#include <cstdio>
#include <cstdlib>
#include <utility>

namespace sdk_test
{
namespace
{
// The tool configure_tool() installs; read by the SDK on the configuring thread only.
struct tool_setup
{
    std::string           name = {};
    std::function<void()> init = {};
};

tool_setup&
current_tool()
{
    static auto* value = new tool_setup{}; // never destroyed: finalization may run at exit
    return *value;
}

int
tool_initialize(rocprofiler_client_finalize_t, void*)
{
    if(current_tool().init) current_tool().init();
    return 0;
}

rocprofiler_tool_configure_result_t*
tool_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id)
{
    id->name           = current_tool().name.c_str();
    static auto result = rocprofiler_tool_configure_result_t{
        sizeof(rocprofiler_tool_configure_result_t), tool_initialize, nullptr, nullptr};
    return &result;
}
int
next_external_id(rocprofiler_thread_id_t,
                 rocprofiler_context_id_t,
                 rocprofiler_external_correlation_id_request_kind_t,
                 rocprofiler_tracing_operation_t,
                 uint64_t,
                 rocprofiler_user_data_t* value,
                 void*                    counter)
{
    value->value = ++*static_cast<std::atomic<uint64_t>*>(counter);
    return 0;
}

void
deliver_counter_records(rocprofiler_context_id_t,
                        rocprofiler_buffer_id_t,
                        rocprofiler_record_header_t** headers,
                        size_t                        count,
                        void*                         data,
                        uint64_t)
{
    const auto* sink = static_cast<const counter_sink*>(data);
    for(size_t i = 0; i < count; ++i)
    {
        if(headers[i]->category != ROCPROFILER_BUFFER_CATEGORY_COUNTERS) continue;
        if(headers[i]->kind == ROCPROFILER_COUNTER_RECORD_PROFILE_COUNTING_DISPATCH_HEADER &&
           sink->header)
            sink->header(*static_cast<const rocprofiler_dispatch_counting_service_record_t*>(
                headers[i]->payload));
        else if(headers[i]->kind == ROCPROFILER_COUNTER_RECORD_VALUE && sink->value)
            sink->value(*static_cast<const rocprofiler_counter_record_t*>(headers[i]->payload));
    }
}
} // namespace

void
check_setup(rocprofiler_status_t status, const char* call)
{
    if(status == ROCPROFILER_STATUS_SUCCESS) return;
    std::fprintf(stderr, "tool setup failed: %s -> %d\n", call, static_cast<int>(status));
    std::abort();
}

rocprofiler_status_t
configure_tool(const char* name, std::function<void()> init)
{
    rocprofiler::registration::reset_for_tests();
    current_tool() = tool_setup{name, std::move(init)};
    return rocprofiler_force_configure(&tool_configure);
}

tool_fixture::tool_fixture(const char* name, std::function<void()> init)
    : m_name{name}
    , m_init{std::move(init)}
{
}

void
tool_fixture::SetUp()
{
    ASSERT_EQ(configure_tool(m_name, m_init), ROCPROFILER_STATUS_SUCCESS);
}

rocprofiler_context_id_t
create_context()
{
    auto ctx = rocprofiler_context_id_t{};
    SDK_TEST_CHECK(rocprofiler_create_context(&ctx));
    return ctx;
}

rocprofiler_context_id_t
callback_tracing_context(rocprofiler_callback_tracing_kind_t          kind,
                         rocprofiler_callback_tracing_cb_t            callback,
                         void*                                        data,
                         std::vector<rocprofiler_tracing_operation_t> operations)
{
    auto ctx = create_context();
    SDK_TEST_CHECK(rocprofiler_configure_callback_tracing_service(
        ctx,
        kind,
        operations.empty() ? nullptr : operations.data(),
        operations.size(),
        callback,
        data));
    return ctx;
}

rocprofiler_buffer_id_t
create_buffer(rocprofiler_context_id_t        ctx,
              size_t                          size,
              size_t                          watermark,
              rocprofiler_buffer_tracing_cb_t callback,
              void*                           data)
{
    auto id = rocprofiler_buffer_id_t{};
    SDK_TEST_CHECK(rocprofiler_create_buffer(
        ctx, size, watermark, ROCPROFILER_BUFFER_POLICY_LOSSLESS, callback, data, &id));
    return id;
}

void
request_external_ids(rocprofiler_context_id_t ctx, std::atomic<uint64_t>* counter)
{
    auto kind = ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH;
    SDK_TEST_CHECK(rocprofiler_configure_external_correlation_id_request_service(
        ctx, &kind, 1, next_external_id, counter));
}

rocprofiler_buffer_id_t
create_counter_buffer(rocprofiler_context_id_t ctx,
                      size_t                   size,
                      size_t                   watermark,
                      const counter_sink*      sink)
{
    return create_buffer(
        ctx, size, watermark, deliver_counter_records, const_cast<counter_sink*>(sink));
}

void
start(std::initializer_list<rocprofiler_context_id_t> contexts)
{
    for(auto ctx : contexts)
        SDK_TEST_CHECK(rocprofiler_start_context(ctx));
}

rocprofiler_agent_id_t
gpu_agent()
{
    auto found = rocprofiler_agent_id_t{};
    rocprofiler_query_available_agents(
        ROCPROFILER_AGENT_INFO_VERSION_0,
        [](rocprofiler_agent_version_t, const void** agents, size_t n, void* data)
        {
            for(size_t i = 0; i < n; ++i)
            {
                const auto* agent = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
                if(agent->type == ROCPROFILER_AGENT_TYPE_GPU)
                    *static_cast<rocprofiler_agent_id_t*>(data) = agent->id;
            }
            return ROCPROFILER_STATUS_SUCCESS;
        },
        sizeof(rocprofiler_agent_v0_t),
        &found);
    return found;
}

std::map<std::string, rocprofiler_counter_id_t>
counters_by_name(rocprofiler_agent_id_t agent)
{
    auto ids = std::vector<rocprofiler_counter_id_t>{};
    EXPECT_EQ(rocprofiler_iterate_agent_supported_counters(
                  agent,
                  [](rocprofiler_agent_id_t, rocprofiler_counter_id_t* list, size_t n, void* data)
                  {
                      static_cast<std::vector<rocprofiler_counter_id_t>*>(data)->assign(list,
                                                                                        list + n);
                      return ROCPROFILER_STATUS_SUCCESS;
                  },
                  &ids),
              ROCPROFILER_STATUS_SUCCESS);
    auto by_name = std::map<std::string, rocprofiler_counter_id_t>{};
    for(auto id : ids)
    {
        auto info = rocprofiler_counter_info_v0_t{};
        EXPECT_EQ(rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_0, &info),
                  ROCPROFILER_STATUS_SUCCESS);
        by_name[info.name] = id;
    }
    return by_name;
}

std::string
counter_name(rocprofiler_counter_instance_id_t instance)
{
    auto id = rocprofiler_counter_id_t{};
    if(rocprofiler_query_record_counter_id(instance, &id) != ROCPROFILER_STATUS_SUCCESS) return "?";
    auto info = rocprofiler_counter_info_v0_t{};
    if(rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_0, &info) !=
       ROCPROFILER_STATUS_SUCCESS)
        return "?";
    return info.name;
}

rocprofiler_counter_config_id_t
make_config(rocprofiler_agent_id_t agent, const std::vector<std::string>& names)
{
    auto all = counters_by_name(agent);
    auto ids = std::vector<rocprofiler_counter_id_t>{};
    for(const auto& name : names)
    {
        EXPECT_EQ(all.count(name), 1u) << name;
        if(all.count(name) != 0) ids.push_back(all.at(name));
    }
    auto cfg = rocprofiler_counter_config_id_t{};
    EXPECT_EQ(rocprofiler_create_counter_config(agent, ids.data(), ids.size(), &cfg),
              ROCPROFILER_STATUS_SUCCESS);
    return cfg;
}

rocprofiler_host_kernel_t
register_kernel(const char* name, rocprofiler_host_kernel_fn_t fn)
{
    auto kernel = rocprofiler_host_kernel_t{};
    if(rocprofiler_host_register_kernel(name, fn, 0, 0, &kernel) != ROCPROFILER_HOST_STATUS_SUCCESS)
        std::abort();
    return kernel;
}

void
increment_each(const rocprofiler_host_work_item_t* item, void* args)
{
    auto* a = *static_cast<int* const*>(args);
    a[item->global_linear_id] += 1;
}

device_ints::device_ints(size_t n)
    : m_size{n}
{
    void* mem = nullptr;
    EXPECT_EQ(rocprofiler_host_malloc(n * sizeof(int), &mem), ROCPROFILER_HOST_STATUS_SUCCESS);
    m_data = static_cast<int*>(mem);
    if(m_data == nullptr) m_size = 0;
    for(size_t i = 0; i < m_size; ++i)
        m_data[i] = static_cast<int>(i);
}

device_ints::~device_ints()
{
    if(m_data != nullptr) rocprofiler_host_free(m_data);
}

bool
device_ints::incremented_once() const
{
    for(size_t i = 0; i < m_size; ++i)
        if(m_data[i] != static_cast<int>(i) + 1) return false;
    return m_size != 0;
}

int64_t
dispatch_and_wait(rocprofiler_host_queue_t queue, const launch& what)
{
    auto sig = rocprofiler_host_signal_t{};
    EXPECT_EQ(rocprofiler_host_create_signal(1, &sig), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto params              = rocprofiler_host_dispatch_params_t{};
    params.size              = sizeof(params);
    params.kernel            = what.kernel;
    params.grid              = {what.grid, 1, 1};
    params.workgroup_size    = {what.workgroup, 1, 1};
    params.args              = what.args;
    params.args_size         = what.args_size;
    params.completion_signal = sig;
    EXPECT_EQ(rocprofiler_host_dispatch(queue, &params), ROCPROFILER_HOST_STATUS_SUCCESS);
    EXPECT_EQ(rocprofiler_host_signal_wait(
                  sig, ROCPROFILER_HOST_SIGNAL_CONDITION_LT, 1, 2'000'000'000ULL, nullptr),
              ROCPROFILER_HOST_STATUS_SUCCESS);
    EXPECT_EQ(rocprofiler_host_device_synchronize(), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto value = int64_t{-99};
    rocprofiler_host_signal_load(sig, &value);
    rocprofiler_host_destroy_signal(sig);
    return value;
}
} // namespace sdk_test
