// CODE_OBJECT callback tracing on the host device: every registered kernel is reported once with
// its name and sizes, its kernel id is the one dispatch records carry, and a context that starts
// later receives the kernels registered before it started.
#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include "sdk_test.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace
{
struct symbol_seen
{
    uint64_t    kernel_id      = 0;
    uint64_t    code_object_id = 0;
    std::string name           = {};
    uint32_t    group          = 0;
    uint32_t    priv           = 0;
};

struct observed
{
    std::mutex                      mutex      = {};
    std::vector<symbol_seen>        symbols    = {};
    std::map<uint64_t, std::string> loads      = {}; // code object id -> uri
    std::vector<uint64_t>           dispatched = {}; // kernel ids of COMPLETE records
};

observed                 early; // context started in initialize
observed                 late;  // context started by a test
rocprofiler_context_id_t late_ctx = {};

void
code_object_callback(rocprofiler_callback_tracing_record_t record,
                     rocprofiler_user_data_t*,
                     void* data)
{
    auto* out  = static_cast<observed*>(data);
    auto  lock = std::lock_guard{out->mutex};
    if(record.kind == ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH)
    {
        if(record.operation == ROCPROFILER_KERNEL_DISPATCH_COMPLETE)
            out->dispatched.push_back(
                static_cast<rocprofiler_callback_tracing_kernel_dispatch_data_t*>(record.payload)
                    ->dispatch_info.kernel_id);
        return;
    }
    EXPECT_EQ(record.kind, ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT);
    EXPECT_EQ(record.phase, ROCPROFILER_CALLBACK_PHASE_LOAD);
    if(record.operation == ROCPROFILER_CODE_OBJECT_LOAD)
    {
        auto* p =
            static_cast<rocprofiler_callback_tracing_code_object_load_data_t*>(record.payload);
        EXPECT_EQ(p->size, sizeof(*p));
        // AMD's layout: the agent under both names, no HSA agent, no known storage or addresses.
        EXPECT_EQ(p->rocp_agent.handle, p->agent_id.handle);
        EXPECT_NE(p->rocp_agent.handle, 0u);
        EXPECT_EQ(p->hsa_agent.handle, 0u);
        EXPECT_EQ(p->storage_type, ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_NONE);
        EXPECT_EQ(p->memory_base, 0u);
        EXPECT_EQ(p->memory_size, 0u);
        out->loads[p->code_object_id] = p->uri;
    }
    else if(record.operation == ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER)
    {
        auto* p =
            static_cast<rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t*>(
                record.payload);
        EXPECT_EQ(p->size, sizeof(*p));
        EXPECT_EQ(p->kernel_code_entry_byte_offset, 0);
        out->symbols.push_back(symbol_seen{p->kernel_id,
                                           p->code_object_id,
                                           p->kernel_name,
                                           p->group_segment_size,
                                           p->private_segment_size});
    }
    else
    {
        ADD_FAILURE() << "unexpected operation " << record.operation;
    }
}

// The tool: one started context tracing code objects and dispatches; a second context, started
// by a test, tracing kernel symbols only.
void
initialize_tool()
{
    auto ctx = sdk_test::callback_tracing_context(
        ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT, code_object_callback, &early);
    SDK_TEST_CHECK(
        rocprofiler_configure_callback_tracing_service(ctx,
                                                       ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                                                       nullptr,
                                                       0,
                                                       code_object_callback,
                                                       &early));
    late_ctx =
        sdk_test::callback_tracing_context(ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT,
                                           code_object_callback,
                                           &late,
                                           {ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER});
    sdk_test::start({ctx});
}

void
noop_kernel(const rocprofiler_host_work_item_t*, void*)
{
}

rocprofiler_host_kernel_t
register_kernel(const char* name, uint32_t priv, uint32_t group)
{
    auto k = rocprofiler_host_kernel_t{};
    EXPECT_EQ(rocprofiler_host_register_kernel(name, noop_kernel, priv, group, &k),
              ROCPROFILER_HOST_STATUS_SUCCESS);
    return k;
}
} // namespace

TEST(code_object, every_kernel_is_reported_once_with_its_name_and_sizes)
{
    auto a     = register_kernel("code_object_test_a", 16, 256);
    auto b     = register_kernel("code_object_test_b", 0, 0);
    auto again = register_kernel("code_object_test_a", 16, 256); // same registration: no new symbol
    EXPECT_EQ(again.handle, a.handle);

    auto lock = std::lock_guard{early.mutex};
    ASSERT_EQ(early.symbols.size(), 2u);
    EXPECT_EQ(early.symbols[0].kernel_id, a.handle);
    EXPECT_EQ(early.symbols[0].name, "code_object_test_a");
    EXPECT_EQ(early.symbols[0].priv, 16u);
    EXPECT_EQ(early.symbols[0].group, 256u);
    EXPECT_EQ(early.symbols[1].kernel_id, b.handle);
    EXPECT_EQ(early.symbols[1].name, "code_object_test_b");
    EXPECT_NE(early.symbols[0].code_object_id, early.symbols[1].code_object_id);
    ASSERT_EQ(early.loads.size(), 2u);
    EXPECT_EQ(early.loads.at(early.symbols[0].code_object_id), "host://code_object_test_a");
}

TEST(code_object, dispatch_records_carry_the_reported_kernel_id)
{
    auto k     = register_kernel("code_object_test_dispatched", 0, 0);
    auto queue = rocprofiler_host_queue_t{};
    ASSERT_EQ(rocprofiler_host_create_queue(&queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto params           = rocprofiler_host_dispatch_params_t{};
    params.size           = sizeof(params);
    params.kernel         = k;
    params.grid           = {2, 1, 1};
    params.workgroup_size = {4, 1, 1};
    ASSERT_EQ(rocprofiler_host_dispatch(queue, &params), ROCPROFILER_HOST_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_host_queue_synchronize(queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_host_destroy_queue(queue), ROCPROFILER_HOST_STATUS_SUCCESS);

    auto lock = std::lock_guard{early.mutex};
    ASSERT_EQ(early.dispatched.size(), 1u);
    auto name = std::string{};
    for(const auto& s : early.symbols)
        if(s.kernel_id == early.dispatched[0]) name = s.name;
    EXPECT_EQ(name, "code_object_test_dispatched");
}

TEST(code_object, a_context_started_later_receives_the_kernels_registered_before)
{
    register_kernel("code_object_test_before_start", 0, 0);
    ASSERT_EQ(rocprofiler_start_context(late_ctx), ROCPROFILER_STATUS_SUCCESS);
    {
        auto lock  = std::lock_guard{late.mutex};
        auto names = std::vector<std::string>{};
        for(const auto& s : late.symbols)
            names.push_back(s.name);
        EXPECT_NE(std::find(names.begin(), names.end(), "code_object_test_before_start"),
                  names.end());
        EXPECT_TRUE(late.loads.empty()) << "the context asked for kernel symbols only";
    }
    register_kernel("code_object_test_after_start", 0, 0);
    auto before = size_t{0};
    {
        auto lock = std::lock_guard{late.mutex};
        EXPECT_EQ(late.symbols.back().name, "code_object_test_after_start");
        before = late.symbols.size();
    }
    // Starting an active context again does not repeat the symbols.
    EXPECT_EQ(rocprofiler_start_context(late_ctx), ROCPROFILER_STATUS_SUCCESS);
    auto lock = std::lock_guard{late.mutex};
    EXPECT_EQ(late.symbols.size(), before);
}

int
main(int argc, char** argv)
{
    ::testing::InitGoogleTest(&argc, argv);
    if(sdk_test::configure_tool("code-object-test", initialize_tool) != ROCPROFILER_STATUS_SUCCESS)
        return 2;
    return RUN_ALL_TESTS();
}
