// librocprofiler-sdk-roctx: the ROCTx functions a program calls. Each call goes through a table of
// this library's own implementations; on the first call the library hands its tables to the SDK
// (rocprofiler_set_api_table, found in the process when a profiler loaded the SDK), which may
// replace entries with tracing wrappers. Without the SDK the calls keep ROCTx's results: push
// depths per thread, process range ids.
#include <rocprofiler-sdk-roctx/api_trace.h>
#include <rocprofiler-sdk-roctx/roctx.h>

#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>

namespace
{
using set_api_table_fn = int (*)(const char*, uint64_t, uint64_t, void**, uint64_t);

thread_local int      push_depth = 0;
std::atomic<uint64_t> range_ids{0};

void
mark(const char*)
{
}

int
range_push(const char*)
{
    return push_depth++;
}

int
range_pop()
{
    if(push_depth == 0) return -1;
    return --push_depth;
}

roctx_range_id_t
range_start(const char*)
{
    return range_ids.fetch_add(1, std::memory_order_relaxed) + 1;
}

void
range_stop(roctx_range_id_t)
{
}

int
get_thread_id(roctx_thread_id_t* tid)
{
    if(tid != nullptr) *tid = static_cast<roctx_thread_id_t>(::syscall(SYS_gettid));
    return 0;
}

int
profiler_pause(roctx_thread_id_t)
{
    return 0;
}

int
profiler_resume(roctx_thread_id_t)
{
    return 0;
}

int
name_os_thread(const char*)
{
    return 0;
}

int
name_hsa_agent(const char*, const struct hsa_agent_s*)
{
    return 0;
}

int
name_hip_device(const char*, int)
{
    return 0;
}

int
name_hip_stream(const char*, const struct ihipStream_t*)
{
    return 0;
}

roctxCoreApiTable_t core_table = {sizeof(roctxCoreApiTable_t),
                                  &mark,
                                  &range_push,
                                  &range_pop,
                                  &range_start,
                                  &range_stop,
                                  &get_thread_id};

roctxControlApiTable_t control_table = {
    sizeof(roctxControlApiTable_t), &profiler_pause, &profiler_resume};

roctxNameApiTable_t name_table = {sizeof(roctxNameApiTable_t),
                                  &name_os_thread,
                                  &name_hsa_agent,
                                  &name_hip_device,
                                  &name_hip_stream};

// Hands the tables to the SDK once, before the first call runs through them.
void
register_tables()
{
    static std::once_flag once;
    std::call_once(once,
                   []
                   {
                       auto* fn = reinterpret_cast<set_api_table_fn>(
                           ::dlsym(RTLD_DEFAULT, "rocprofiler_set_api_table"));
                       if(fn == nullptr) return;
                       void* tables[] = {&core_table, &control_table, &name_table};
                       fn("roctx", ROCTX_VERSION, 0, tables, 3);
                   });
}
} // namespace

extern "C"
{
    void roctxMarkA(const char* message)
    {
        register_tables();
        core_table.roctxMarkA_fn(message);
    }

    int roctxRangePushA(const char* message)
    {
        register_tables();
        return core_table.roctxRangePushA_fn(message);
    }

    int roctxRangePop(void)
    {
        register_tables();
        return core_table.roctxRangePop_fn();
    }

    roctx_range_id_t roctxRangeStartA(const char* message)
    {
        register_tables();
        return core_table.roctxRangeStartA_fn(message);
    }

    void roctxRangeStop(roctx_range_id_t id)
    {
        register_tables();
        core_table.roctxRangeStop_fn(id);
    }

    int roctxGetThreadId(roctx_thread_id_t* tid)
    {
        register_tables();
        return core_table.roctxGetThreadId_fn(tid);
    }

    int roctxProfilerPause(roctx_thread_id_t tid)
    {
        register_tables();
        return control_table.roctxProfilerPause_fn(tid);
    }

    int roctxProfilerResume(roctx_thread_id_t tid)
    {
        register_tables();
        return control_table.roctxProfilerResume_fn(tid);
    }

    int roctxNameOsThread(const char* name)
    {
        register_tables();
        return name_table.roctxNameOsThread_fn(name);
    }

    int roctxNameHsaAgent(const char* name, const struct hsa_agent_s* agent)
    {
        register_tables();
        return name_table.roctxNameHsaAgent_fn(name, agent);
    }

    int roctxNameHipDevice(const char* name, int device_id)
    {
        register_tables();
        return name_table.roctxNameHipDevice_fn(name, device_id);
    }

    int roctxNameHipStream(const char* name, const struct ihipStream_t* stream)
    {
        register_tables();
        return name_table.roctxNameHipStream_fn(name, stream);
    }
}
