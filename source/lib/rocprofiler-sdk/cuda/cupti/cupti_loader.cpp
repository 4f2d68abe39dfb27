#include "cuda/cupti/cupti_loader.hpp"

#include "common/logging.hpp"
#include "cuda/cupti/settings_cupti.hpp"
#include "cuda/interpose/driver.hpp"

#include <dlfcn.h>

#include <atomic>
#include <memory>
#include <string_view>
#include <vector>

namespace rocprofiler::cuda
{
namespace
{
void*
open_cupti()
{
    auto candidates = std::vector<std::string>{};
    if(auto path = settings::read_cupti_library()) candidates.emplace_back(*path);
    candidates.emplace_back("libcupti.so.13");
    candidates.emplace_back("libcupti.so");
#if defined(ROCPROFILER_CUPTI_DEFAULT_LIBRARY)
    if(std::string_view{ROCPROFILER_CUPTI_DEFAULT_LIBRARY}.size() > 0)
        candidates.emplace_back(ROCPROFILER_CUPTI_DEFAULT_LIBRARY);
#endif
#if defined(ROCPROFILER_CUPTI_DEFAULT_DIR)
    candidates.emplace_back(std::string{ROCPROFILER_CUPTI_DEFAULT_DIR} + "/libcupti.so.13");
    candidates.emplace_back(std::string{ROCPROFILER_CUPTI_DEFAULT_DIR} + "/libcupti.so");
#endif
    candidates.emplace_back("/usr/local/cuda/lib64/libcupti.so");
    candidates.emplace_back("/usr/local/cuda/extras/CUPTI/lib64/libcupti.so");
    for(const auto& path : candidates)
        if(void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL); handle != nullptr)
        {
            ROCP_LOG(debug) << "cuda: CUPTI from " << path;
            return handle;
        }
    return nullptr;
}

const cupti_profiler_table&
loaded_profiler_table()
{
    static const cupti_profiler_table* value = []
    {
        auto* t      = new cupti_profiler_table{};
        void* handle = cupti_library();
        if(handle == nullptr)
        {
            t->error = "CUPTI not found (set ROCPROFILER_CUPTI_LIBRARY to libcupti.so)";
            return t;
        }
#define ROCP_CUPTI_LOAD(NAME)                                                                      \
    t->NAME = reinterpret_cast<decltype(t->NAME)>(real_dlsym(handle, #NAME));                      \
    if(t->NAME == nullptr && t->error.empty())                                                     \
        t->error = "this CUPTI has no " #NAME " (the range profiler needs CUDA 12.6 or later)";
        ROCP_CUPTI_PROFILER_FUNCTIONS(ROCP_CUPTI_LOAD)
#undef ROCP_CUPTI_LOAD
        return t;
    }();
    return *value;
}

std::atomic<const cupti_profiler_table*> installed_profiler_table = nullptr;
} // namespace

void*
cupti_library()
{
    static void* handle = open_cupti();
    return handle;
}

const cupti_profiler_table&
profiler_table()
{
    if(const auto* t = installed_profiler_table.load(std::memory_order_acquire)) return *t;
    return loaded_profiler_table();
}

void
use_profiler_table(const cupti_profiler_table* table)
{
    installed_profiler_table.store(table, std::memory_order_release);
}

cupti_activity_table*
load_activity_table(void* handle)
{
    auto table = std::make_unique<cupti_activity_table>();
#define ROCP_CUPTI_LOAD(NAME)                                                                      \
    table->NAME = reinterpret_cast<decltype(table->NAME)>(real_dlsym(handle, #NAME));              \
    if(table->NAME == nullptr) return nullptr;
    ROCP_CUPTI_ACTIVITY_FUNCTIONS(ROCP_CUPTI_LOAD)
#undef ROCP_CUPTI_LOAD
    return table.release();
}

std::string
result_text(CUptiResult result)
{
    const char* text = nullptr;
    if(const auto& t = profiler_table(); t.cuptiGetResultString != nullptr)
        t.cuptiGetResultString(result, &text);
    return text != nullptr ? std::string{text}
                           : "CUptiResult " + std::to_string(static_cast<int>(result));
}
} // namespace rocprofiler::cuda
