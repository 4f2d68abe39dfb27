#include "registration/registration.hpp"

#include "buffer/buffer.hpp"
#include "common/environment.hpp"
#include "common/fork.hpp"
#include "common/guard.hpp"
#include "common/logging.hpp"
#include "common/static_object.hpp"
#include "context/context.hpp"
#include "registration/shutdown.hpp"

#include <rocprofiler-sdk/version.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <link.h>
#include <mutex>
#include <string>
#include <vector>

namespace rocprofiler::registration
{
namespace
{
enum class state : int
{
    uninitialized = 0,
    configuring,
    initializing,
    locked,
    finalizing,
    finalized,
};

struct client
{
    rocprofiler_configure_func_t         configure = nullptr;
    std::string                          origin    = {}; // where it was found, for diagnostics
    rocprofiler_client_id_t*             id        = nullptr;
    rocprofiler_tool_configure_result_t* result    = nullptr;
    std::atomic<bool>                    finalized = false;
    bool                                 active    = false;
};

// The tools' state. Read from atexit handlers and library destructors, so never destroyed at exit
// (common/static_object.hpp); a test reset destroys it with its clients.
struct registry
{
    registry() = default;
    ~registry()
    {
        for(auto* entry : clients)
        {
            delete entry->id;
            delete entry;
        }
    }
    registry(const registry&)            = delete;
    registry& operator=(const registry&) = delete;

    std::mutex                   init_mutex = {};
    std::mutex                   fini_mutex = {};
    std::atomic<state>           current    = state::uninitialized;
    rocprofiler_configure_func_t forced     = nullptr;
    std::vector<client*>         clients    = {};
};

registry&
get_registry()
{
    return common::static_object<registry, common::reset_order::registration>::get();
}

// Runtime adapters register these once per process: a test reset keeps them.
struct shutdown_hooks
{
    std::mutex                 mutex = {};
    std::vector<shutdown_hook> hooks = {};
};

shutdown_hooks&
get_shutdown_hooks()
{
    return common::static_object<shutdown_hooks, common::reset_order::never>::get();
}

thread_local bool     this_thread_initializes = false;
thread_local uint32_t this_thread_client      = 0;

constexpr const char* configure_symbol = "rocprofiler_configure";

void
add_candidate(std::vector<client*>& out, rocprofiler_configure_func_t func, std::string origin)
{
    if(func == nullptr) return;
    for(const auto* itr : out)
    {
        if(itr->configure == func)
        {
            ROCP_LOG(debug) << "tool entry point from " << origin << " already registered; skipped";
            return;
        }
    }
    auto* entry      = new client{};
    entry->configure = func;
    entry->origin    = std::move(origin);
    out.emplace_back(entry);
}

int
collect_loaded_object(struct dl_phdr_info* info, size_t, void* data)
{
    auto* names = static_cast<std::vector<std::string>*>(data);
    names->emplace_back(info->dlpi_name != nullptr ? info->dlpi_name : "");
    return 0;
}

std::vector<client*>
discover()
{
    auto found = std::vector<client*>{};

    if(auto* forced = get_registry().forced)
        add_candidate(found, forced, "rocprofiler_force_configure");

    for(const auto& path : common::env::get(common::env::settings::tool_libraries))
    {
        void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
        if(handle == nullptr)
        {
            const char* why = dlerror();
            ROCP_LOG(error) << "ROCP_TOOL_LIBRARIES: cannot load '" << path
                            << "': " << (why != nullptr ? why : "unknown error");
            continue;
        }
        auto* sym = dlsym(handle, configure_symbol);
        if(sym == nullptr)
        {
            ROCP_LOG(error) << "ROCP_TOOL_LIBRARIES: '" << path << "' does not export "
                            << configure_symbol;
            continue;
        }
        add_candidate(found, reinterpret_cast<rocprofiler_configure_func_t>(sym), path);
    }

    // A rocprofiler_configure linked into the executable or into any loaded library (for example
    // one preloaded with LD_PRELOAD). The executable is the first object dl_iterate_phdr reports.
    auto objects = std::vector<std::string>{};
    dl_iterate_phdr(collect_loaded_object, &objects);
    for(const auto& name : objects)
    {
        void* handle = name.empty() ? dlopen(nullptr, RTLD_NOW | RTLD_NOLOAD)
                                    : dlopen(name.c_str(), RTLD_NOW | RTLD_NOLOAD);
        if(handle == nullptr) continue;
        // Duplicates (a symbol reached through several objects) are skipped by add_candidate.
        if(auto* sym = dlsym(handle, configure_symbol); sym != nullptr)
            add_candidate(found,
                          reinterpret_cast<rocprofiler_configure_func_t>(sym),
                          name.empty() ? std::string{"executable"} : name);
        dlclose(handle);
    }

    if(auto* sym = dlsym(RTLD_DEFAULT, configure_symbol); sym != nullptr)
        add_candidate(found, reinterpret_cast<rocprofiler_configure_func_t>(sym), "RTLD_DEFAULT");
    return found;
}

const char*
client_name(const client& entry)
{
    return entry.id != nullptr && entry.id->name != nullptr ? entry.id->name : "unnamed";
}

// The boundary name under which an exception thrown by a tool's entry point is reported (once).
std::string
tool_boundary(const client& entry, const char* entry_point)
{
    return "tool '" + std::string{client_name(entry)} + "' (" + entry.origin + ") " + entry_point;
}

// The tool is off for good: it is not initialized or finalized, and its contexts never start.
void
deactivate(client& entry)
{
    entry.active = false;
    entry.finalized.store(true);
    context::for_each(
        [&entry](context::context& ctx)
        {
            if(ctx.client == entry.id->handle)
            {
                ctx.active.store(false);
                ctx.disabled = true;
            }
        });
}

void
finalize_one(client& entry)
{
    if(entry.finalized.exchange(true)) return;
    context::for_each(
        [&entry](context::context& ctx)
        {
            if(ctx.client == entry.id->handle) ctx.active.store(false);
        });
    if(entry.active && entry.result != nullptr && entry.result->finalize != nullptr)
    {
        ROCP_LOG(debug) << "finalizing tool '" << client_name(entry) << "'";
        // A throwing finalize must not reach exit()'s caller (std::terminate).
        common::guarded(tool_boundary(entry, "finalize").c_str(),
                        [&entry] { entry.result->finalize(entry.result->tool_data); });
    }
}

void
client_finalize_func(rocprofiler_client_id_t id)
{
    finalize_client(id.handle);
}

void
atexit_finalize()
{
    finalize();
}

// A library unloaded without exit() (dlclose) still finalizes its tools.
__attribute__((destructor)) void
library_destructor()
{
    finalize();
}
} // namespace

void
add_shutdown_hook(shutdown_hook hook)
{
    auto& list = get_shutdown_hooks();
    auto  lock = std::lock_guard{list.mutex};
    list.hooks.emplace_back(hook);
}

void
initialize()
{
    auto&      reg = get_registry();
    const auto now = reg.current.load(std::memory_order_acquire);
    if(now != state::uninitialized && now != state::configuring && now != state::initializing)
        return;
    // A tool's configure or initialize that uses a runtime lands here again on the same thread.
    if(this_thread_initializes) return;

    // Any other thread waits here until the initializing thread is done (it holds the lock for the
    // whole initialization): returning early would let that thread allocate or launch before the
    // tools configured their services (an allocation made then is never tracked for replay).
    auto lock = std::lock_guard{reg.init_mutex};
    if(reg.current.load() != state::uninitialized) return;

    this_thread_initializes = true;
    reg.current.store(state::configuring);

    reg.clients       = discover();
    uint32_t priority = 0;
    for(auto* entry : reg.clients)
    {
        entry->id =
            new rocprofiler_client_id_t{sizeof(rocprofiler_client_id_t), nullptr, priority + 1};
        this_thread_client = entry->id->handle;
        auto threw         = false;
        entry->result      = common::guarded(
            ("tool from " + entry->origin + " rocprofiler_configure").c_str(),
            [entry, priority] {
                return entry->configure(
                    ROCPROFILER_VERSION, ROCPROFILER_VERSION_STRING, priority, entry->id);
            },
            [&threw](common::caught) -> rocprofiler_tool_configure_result_t*
            {
                threw = true;
                return nullptr;
            });
        this_thread_client = 0;
        entry->active      = (entry->result != nullptr);
        if(threw)
        {
            ROCP_LOG(warning) << "tool '" << client_name(*entry) << "' from " << entry->origin
                              << " threw from rocprofiler_configure; it is deactivated";
            deactivate(*entry);
        }
        ROCP_LOG(info) << "tool #" << priority << " from " << entry->origin << " ("
                       << client_name(*entry) << ") "
                       << (entry->active ? "configured" : "declined");
        ++priority;
    }

    reg.current.store(state::initializing);
    for(auto* entry : reg.clients)
    {
        if(!entry->active || entry->result->initialize == nullptr) continue;
        this_thread_client = entry->id->handle;
        auto rc            = common::guarded(
            tool_boundary(*entry, "initialize").c_str(),
            [entry]
            { return entry->result->initialize(client_finalize_func, entry->result->tool_data); },
            [](common::caught) { return -1; });
        this_thread_client = 0;
        if(rc != 0)
        {
            ROCP_LOG(warning) << "tool '" << client_name(*entry)
                              << "' failed to initialize (returned " << rc
                              << " or threw); it is deactivated";
            deactivate(*entry);
        }
    }

    reg.current.store(state::locked, std::memory_order_release);
    this_thread_initializes = false;
    // Once per process, also when a test reset lets initialize() run again.
    static const bool finalize_at_exit = (std::atexit(atexit_finalize), true);
    (void)finalize_at_exit;
}

void
finalize()
{
    // A child forked without exec has the parent's tools and buffers but not their threads:
    // flushing would wait for callback threads that do not exist, joining them would throw.
    // Profiling is off in it (common/fork.hpp); the parent finalizes its own.
    if(common::forked_child()) return;
    auto& reg = get_registry();
    {
        auto expected = state::locked;
        if(!reg.current.compare_exchange_strong(expected, state::finalizing))
        {
            // Never initialized: nothing to finalize, but buffers created by hand still flush.
            expected = state::uninitialized;
            if(!reg.current.compare_exchange_strong(expected, state::finalizing)) return;
        }
    }

    auto lock  = std::lock_guard{reg.fini_mutex};
    auto hooks = std::vector<shutdown_hook>{};
    {
        auto& list      = get_shutdown_hooks();
        auto  list_lock = std::lock_guard{list.mutex};
        hooks           = list.hooks;
    }
    // Runtimes first: work still in flight completes and reaches the services.
    for(auto hook : hooks)
        hook();
    buffer::flush_all();
    for(auto* entry : reg.clients)
        finalize_one(*entry);
    buffer::flush_all();
    context::stop_all();
    buffer::destroy_all();
    reg.current.store(state::finalized);
}

bool
configuration_locked()
{
    auto value = get_registry().current.load(std::memory_order_acquire);
    return value == state::locked || value == state::finalizing || value == state::finalized;
}

bool
is_active()
{
    return get_registry().current.load(std::memory_order_acquire) == state::locked;
}

int
initialized_status()
{
    return get_registry().current.load() == state::uninitialized ? 0 : 1;
}

int
finalized_status()
{
    auto value = get_registry().current.load();
    return (value == state::finalizing || value == state::finalized) ? 1 : 0;
}

rocprofiler_status_t
force_configure(rocprofiler_configure_func_t func)
{
    if(func == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    auto& reg = get_registry();
    {
        auto lock = std::lock_guard{reg.init_mutex};
        if(reg.current.load() != state::uninitialized)
            return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
        reg.forced = func;
    }
    initialize();
    return ROCPROFILER_STATUS_SUCCESS;
}

uint32_t
current_client()
{
    return this_thread_client;
}

void
finalize_client(uint32_t client_handle)
{
    auto& reg = get_registry();
    for(auto* entry : reg.clients)
    {
        if(entry->id != nullptr && entry->id->handle == client_handle)
        {
            buffer::flush_all();
            finalize_one(*entry);
            return;
        }
    }
}

bool
client_finalized(uint32_t client_handle)
{
    for(auto* entry : get_registry().clients)
        if(entry->id != nullptr && entry->id->handle == client_handle)
            return entry->finalized.load();
    return false;
}

std::string
client_label(uint32_t client_handle)
{
    for(auto* entry : get_registry().clients)
        if(entry->id != nullptr && entry->id->handle == client_handle)
            return "tool '" + std::string{client_name(*entry)} + "' (" + entry->origin + ")";
    return "a tool";
}

rocprofiler_status_t
configurable_context(rocprofiler_context_id_t id, context::context** ctx)
{
    if(configuration_locked()) return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
    *ctx = context::get(id);
    return *ctx != nullptr ? ROCPROFILER_STATUS_SUCCESS
                           : ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
}

void
reset_for_tests()
{
    finalize();
    common::static_objects::reset_all();
}
} // namespace rocprofiler::registration
