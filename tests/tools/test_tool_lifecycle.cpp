// Tools that exercise the lifecycle rules of registration.h. One source, three libraries; the
// mode is fixed at compile time by TEST_TOOL_MODE:
//
//   decline     (test-tool-decline)     returns NULL from rocprofiler_configure when priority > 0;
//                                       at priority 0 it traces kernel dispatches normally.
//   init_fail   (test-tool-init-fail)   configures and starts a context in initialize, then
//                                       returns 1: its context must never deliver, and starting
//                                       it afterwards must fail.
//   early_fini  (test-tool-early-fini)  calls its fini_func from the ENQUEUE EXIT callback of the
//                                       kEarlyFiniAfter-th dispatch it sees: it must be finalized
//                                       exactly once (not again at exit) and receive nothing
//                                       submitted afterwards.
//
// Each writes what it observed as JSON to "$TEST_TOOL_LIFECYCLE_OUTPUT.<mode>" from its library
// destructor, which runs after the SDK's exit-time finalization, so that what happened at exit
// is included even for a tool that is never finalized.
#include <rocprofiler-sdk/rocprofiler.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>

#ifndef TEST_TOOL_MODE
#    error "TEST_TOOL_MODE must be decline, init_fail or early_fini"
#endif
#define TEST_TOOL_STR2(X) #X
#define TEST_TOOL_STR(X) TEST_TOOL_STR2(X)

namespace
{
using json = nlohmann::json;

constexpr const char* kMode           = TEST_TOOL_STR(TEST_TOOL_MODE);
constexpr uint64_t    kEarlyFiniAfter = 3;

bool
mode_is(const char* name)
{
    return std::string{kMode} == name;
}

struct tool_state
{
    std::mutex                    mutex            = {};
    rocprofiler_client_id_t*      client_id        = nullptr;
    rocprofiler_client_finalize_t fini_func        = nullptr;
    rocprofiler_context_id_t      context          = {};
    bool                          finalized        = false;
    uint64_t                      enqueue_enters   = 0;
    json                          doc              = json::object();
    json                          after_fini       = json::array();
    json                          dispatch_ids     = json::array();
    int                           configure_calls  = 0;
    int                           initialize_calls = 0;
    int                           finalize_calls   = 0;
    uint64_t                      callbacks        = 0;
};

tool_state&
state()
{
    static auto* value = new tool_state{};
    return *value;
}

int
is_finalized()
{
    int value = -1;
    rocprofiler_is_finalized(&value);
    return value;
}

void
dispatch_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    auto&       st = state();
    const auto* payload =
        static_cast<const rocprofiler_callback_tracing_kernel_dispatch_data_t*>(record.payload);
    const auto dispatch_id = payload != nullptr ? payload->dispatch_info.dispatch_id : 0;

    auto call_fini = false;
    {
        auto lk = std::lock_guard{st.mutex};
        ++st.callbacks;
        if(st.finalized)
            st.after_fini.push_back(json{{"operation", record.operation},
                                         {"phase", record.phase},
                                         {"dispatch_id", dispatch_id}});
        if(record.operation == ROCPROFILER_KERNEL_DISPATCH_ENQUEUE &&
           record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
        {
            ++st.enqueue_enters;
            st.dispatch_ids.push_back(dispatch_id);
        }
        call_fini = mode_is("early_fini") && !st.finalized &&
                    record.operation == ROCPROFILER_KERNEL_DISPATCH_ENQUEUE &&
                    record.phase == ROCPROFILER_CALLBACK_PHASE_EXIT &&
                    st.enqueue_enters == kEarlyFiniAfter;
        if(call_fini) st.doc["fini_called_at_dispatch"] = dispatch_id;
    }
    if(call_fini)
    {
        st.fini_func(*st.client_id);
        auto active = -1;
        rocprofiler_context_is_active(st.context, &active);
        auto restart                       = rocprofiler_start_context(st.context);
        auto lk                            = std::lock_guard{st.mutex};
        st.doc["active_after_fini"]        = active;
        st.doc["restart_after_fini"]       = rocprofiler_get_status_name(restart);
        st.doc["sdk_finalized_after_fini"] = is_finalized();
    }
}

int
tool_initialize(rocprofiler_client_finalize_t fini_func, void*)
{
    auto& st = state();
    {
        auto lk = std::lock_guard{st.mutex};
        ++st.initialize_calls;
        st.fini_func = fini_func;
    }
    auto create = rocprofiler_create_context(&st.context);
    auto config =
        rocprofiler_configure_callback_tracing_service(st.context,
                                                       ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                                                       nullptr,
                                                       0,
                                                       dispatch_callback,
                                                       nullptr);
    auto start               = rocprofiler_start_context(st.context);
    auto lk                  = std::lock_guard{st.mutex};
    st.doc["create_context"] = rocprofiler_get_status_name(create);
    st.doc["configure"]      = rocprofiler_get_status_name(config);
    st.doc["start_context"]  = rocprofiler_get_status_name(start);
    st.doc["context_id"]     = st.context.handle;
    return mode_is("init_fail") ? 1 : 0;
}

void
tool_finalize(void*)
{
    auto& st = state();
    auto  lk = std::lock_guard{st.mutex};
    ++st.finalize_calls;
    st.finalized                         = true;
    st.doc["is_finalized_in_finalize"]   = is_finalized();
    st.doc["enqueue_enters_at_finalize"] = st.enqueue_enters;
}

void
write_output()
{
    auto& st = state();
    auto  lk = std::lock_guard{st.mutex};
    // After exit-time finalization: the context must have been stopped, and (init_fail) starting
    // it must be refused.
    if(st.context.handle != 0)
    {
        auto active = -1;
        auto valid  = -1;
        rocprofiler_context_is_active(st.context, &active);
        rocprofiler_context_is_valid(st.context, &valid);
        st.doc["active_at_exit"] = active;
        st.doc["valid_at_exit"]  = valid;
    }
    st.doc["mode"]                  = kMode;
    st.doc["configure_calls"]       = st.configure_calls;
    st.doc["initialize_calls"]      = st.initialize_calls;
    st.doc["finalize_calls"]        = st.finalize_calls;
    st.doc["callbacks"]             = st.callbacks;
    st.doc["enqueue_enters"]        = st.enqueue_enters;
    st.doc["dispatch_ids"]          = st.dispatch_ids;
    st.doc["callbacks_after_fini"]  = st.after_fini;
    st.doc["sdk_finalized_at_exit"] = is_finalized();

    const char* base = std::getenv("TEST_TOOL_LIFECYCLE_OUTPUT");
    if(base == nullptr || *base == '\0') return;
    auto path = std::string{base} + "." + kMode;
    auto out  = std::ofstream{path};
    out << st.doc.dump(1) << "\n";
}

// Runs from _dl_fini, after every atexit handler (the SDK finalizes in one).
__attribute__((destructor)) void
at_unload()
{
    write_output();
}
} // namespace

extern "C" rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t priority, rocprofiler_client_id_t* client_id)
{
    auto& st = state();
    auto  lk = std::lock_guard{st.mutex};
    ++st.configure_calls;
    st.doc["priority"] = priority;
    client_id->name    = "test-tool-lifecycle";
    st.client_id       = client_id;
    if(mode_is("decline") && priority > 0)
    {
        st.doc["declined"] = true;
        return nullptr;
    }
    st.doc["declined"] = false;
    static auto result = rocprofiler_tool_configure_result_t{
        sizeof(rocprofiler_tool_configure_result_t), tool_initialize, tool_finalize, nullptr};
    return &result;
}
