#include "cuda/launch/kernel_registry.hpp"
#include "common/static_object.hpp"

#include "code_object/code_object.hpp"
#include "cuda/interpose/driver.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

namespace rocprofiler::cuda
{
namespace
{
struct kernel_registry
{
    std::shared_mutex                              mutex     = {};
    std::unordered_map<void*, kernel_entry*>       by_handle = {};
    std::deque<kernel_entry*>                      by_id     = {}; // id - 1
    std::unordered_map<std::string, kernel_entry*> by_name   = {}; // demangled; the first entry
};

kernel_registry&
get_registry()
{
    return common::static_object<kernel_registry, common::reset_order::never>::get();
}

std::string
demangle(const char* name)
{
    if(name == nullptr) return "<unknown>";
    int   status    = 0;
    char* demangled = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    auto  result    = std::string{(status == 0 && demangled != nullptr) ? demangled : name};
    std::free(demangled);
    return result;
}

// Resolves a kernel handle; called outside the registry's lock.
kernel_entry
resolve(CUfunction handle)
{
    const auto* drv   = driver();
    auto        scope = internal_call_scope{};
    auto        entry = kernel_entry{};
    entry.function    = handle;
    const char* raw   = nullptr;
    if(drv->cuFuncGetName(&raw, handle) != CUDA_SUCCESS)
    {
        auto function = CUfunction{};
        if(drv->cuKernelGetFunction != nullptr &&
           drv->cuKernelGetFunction(&function, reinterpret_cast<CUkernel>(handle)) == CUDA_SUCCESS)
        {
            entry.function = function;
            drv->cuFuncGetName(&raw, function);
        }
    }
    entry.name   = demangle(raw);
    auto module  = CUmodule{};
    auto library = CUlibrary{};
    if(entry.function != handle && drv->cuKernelGetLibrary != nullptr &&
       drv->cuKernelGetLibrary(&library, reinterpret_cast<CUkernel>(handle)) == CUDA_SUCCESS)
        entry.module = library;
    else if(drv->cuFuncGetModule != nullptr &&
            drv->cuFuncGetModule(&module, entry.function) == CUDA_SUCCESS)
        entry.module = module;
    auto value = 0;
    if(drv->cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_NUM_REGS, entry.function) == CUDA_SUCCESS)
        entry.registers = static_cast<uint32_t>(value);
    if(drv->cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, entry.function) ==
       CUDA_SUCCESS)
        entry.local_bytes = static_cast<uint32_t>(value);
    if(drv->cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, entry.function) ==
       CUDA_SUCCESS)
        entry.static_shared = static_cast<uint32_t>(value);
    if(drv->cuFuncGetParamInfo != nullptr)
    {
        for(size_t index = 0; index < 4096; ++index)
        {
            auto offset = size_t{0};
            auto size   = size_t{0};
            auto result = drv->cuFuncGetParamInfo(entry.function, index, &offset, &size);
            if(result == CUDA_ERROR_INVALID_VALUE)
            {
                entry.params_known = true; // past the last parameter
                break;
            }
            if(result != CUDA_SUCCESS) break; // layout unknown
            entry.params.emplace_back(offset, size);
            entry.args_size = std::max(entry.args_size, offset + size);
        }
    }
    return entry;
}

// A code object id per CUmodule/CUlibrary, from a range of its own (1 << 40 up) so that it never
// meets the ids the SDK gives kernels reported without one.
uint64_t
code_object_id_of(void* module)
{
    if(module == nullptr) return 0;
    // A fact of the process (a module keeps its id): kept by a test reset.
    struct module_ids
    {
        std::mutex                          mutex = {};
        std::unordered_map<void*, uint64_t> ids   = {};
    };
    auto& state       = common::static_object<module_ids, common::reset_order::never>::get();
    auto  guard       = std::lock_guard{state.mutex};
    auto [itr, added] = state.ids.emplace(module, 0);
    if(added) itr->second = (uint64_t{1} << 40) + state.ids.size();
    return itr->second;
}

void
report_kernel(const kernel_entry& entry, CUfunction handle, rocprofiler_agent_id_t agent)
{
    auto symbol           = code_object::kernel_symbol{};
    symbol.kernel_id      = entry.id;
    symbol.agent          = agent;
    symbol.name           = entry.name;
    symbol.code_object_id = code_object_id_of(entry.module);
    char uri[64]          = {};
    std::snprintf(uri, sizeof(uri), "cuda://module/%p", entry.module);
    symbol.uri                  = uri;
    symbol.kernel_object        = reinterpret_cast<uint64_t>(handle);
    symbol.kernarg_size         = static_cast<uint32_t>(entry.args_size);
    symbol.group_segment_size   = entry.static_shared;
    symbol.private_segment_size = entry.local_bytes;
    symbol.registers            = entry.registers;
    code_object::register_kernel(std::move(symbol));
}

} // namespace

const kernel_entry&
lookup_kernel(CUfunction handle)
{
    auto& reg = get_registry();
    {
        auto lock = std::shared_lock{reg.mutex};
        if(auto itr = reg.by_handle.find(handle); itr != reg.by_handle.end()) return *itr->second;
    }
    auto resolved = resolve(handle);
    auto lock     = std::unique_lock{reg.mutex};
    if(auto itr = reg.by_handle.find(handle); itr != reg.by_handle.end()) return *itr->second;
    auto* entry = new kernel_entry{std::move(resolved)};
    entry->id   = reg.by_id.size() + 1;
    reg.by_id.push_back(entry);
    reg.by_handle.emplace(handle, entry);
    reg.by_name.emplace(entry->name, entry);
    return *entry;
}

const kernel_entry&
lookup_kernel_by_name(const char* mangled)
{
    auto  name = demangle(mangled);
    auto& reg  = get_registry();
    auto  lock = std::unique_lock{reg.mutex};
    if(auto itr = reg.by_name.find(name); itr != reg.by_name.end()) return *itr->second;
    auto* entry = new kernel_entry{};
    entry->name = std::move(name);
    entry->id   = reg.by_id.size() + 1;
    reg.by_id.push_back(entry);
    reg.by_name.emplace(entry->name, entry);
    return *entry;
}

void
report_kernel_once(const kernel_entry& entry, CUfunction handle, rocprofiler_agent_id_t agent)
{
    struct report_lock
    {
        std::mutex mutex = {};
    };
    auto guard = std::lock_guard{
        common::static_object<report_lock, common::reset_order::never>::get().mutex};
    if(entry.reported) return;
    report_kernel(entry, handle, agent);
    entry.reported = true;
}
} // namespace rocprofiler::cuda
