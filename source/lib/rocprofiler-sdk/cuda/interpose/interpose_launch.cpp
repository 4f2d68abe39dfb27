// The launch interposers: cuLaunchKernel, cuLaunchKernelEx and cuLaunchCooperativeKernel (and
// their _ptsz variants) exported under the driver's names, and wrappers made for launch functions
// the driver hands out by other names. Each builds the launch request in one place per signature
// and hands it to handle_launch, which is their exception guard.
#include "common/logging.hpp"
#include "cuda/interpose/interpose.hpp"
#include "cuda/launch/launch.hpp"

#include <array>
#include <atomic>
#include <mutex>
#include <optional>
#include <string_view>
#include <utility>

// The parameter lists of the three launch signatures, and the arguments that pass them on.
#define ROCP_GRID_PARAMS                                                                           \
    CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,    \
        unsigned shared, CUstream stream, void **params
#define ROCP_GRID_ARGS f, gx, gy, gz, bx, by, bz, shared, stream, params
#define ROCP_KERNEL_PARAMS (ROCP_GRID_PARAMS, void** extra)
#define ROCP_KERNEL_ARGS ROCP_GRID_ARGS, extra
#define ROCP_COOP_PARAMS (ROCP_GRID_PARAMS)
#define ROCP_COOP_ARGS ROCP_GRID_ARGS
#define ROCP_EX_PARAMS (const CUlaunchConfig* config, CUfunction f, void** params, void** extra)
#define ROCP_EX_ARGS config, f, params, extra

namespace rocprofiler::cuda
{
namespace
{
constexpr size_t slots_per_api = 8;

struct launch_slot
{
    std::atomic<void*> real       = nullptr;
    bool               per_thread = false;
};

std::array<std::array<launch_slot, slots_per_api>, 3> slots = {};

// Where a wrapper finds the driver function it stands for: an exported interposer calls the
// driver's function of the same name; a slot wrapper the function its slot was made for.
template <auto Member, bool PerThread> struct exported_target
{
    static launch_request request(launch_api api) noexcept
    {
        auto r        = launch_request{};
        r.api         = api;
        const auto* d = interposer_driver("cuLaunch");
        r.real        = d != nullptr ? reinterpret_cast<void*>(d->*Member) : nullptr;
        r.per_thread  = PerThread;
        return r;
    }
};

template <size_t Slot> struct slot_target
{
    static launch_request request(launch_api api) noexcept
    {
        auto& slot   = slots[static_cast<size_t>(api)][Slot];
        auto  r      = launch_request{};
        r.api        = api;
        r.real       = slot.real.load(std::memory_order_acquire);
        r.per_thread = slot.per_thread;
        return r;
    }
};

// One launch function per signature, for every target.
template <typename Target>
CUresult CUDAAPI
grid_launch(launch_api api, ROCP_GRID_PARAMS, void** extra)
{
    auto r     = Target::request(api);
    r.function = f;
    r.grid[0] = gx, r.grid[1] = gy, r.grid[2] = gz;
    r.block[0] = bx, r.block[1] = by, r.block[2] = bz;
    r.shared = shared, r.stream = stream, r.params = params, r.extra = extra;
    return handle_launch(r);
}

template <typename Target> CUresult CUDAAPI launch_kernel ROCP_KERNEL_PARAMS
{
    return grid_launch<Target>(launch_api::kernel, ROCP_KERNEL_ARGS);
}

template <typename Target> CUresult CUDAAPI launch_cooperative ROCP_COOP_PARAMS
{
    return grid_launch<Target>(launch_api::cooperative, ROCP_COOP_ARGS, nullptr);
}

template <typename Target> CUresult CUDAAPI launch_kernel_ex ROCP_EX_PARAMS
{
    auto r     = Target::request(launch_api::kernel_ex);
    r.function = f, r.config = config, r.params = params, r.extra = extra;
    return handle_launch(r);
}

template <size_t... S>
constexpr std::array<std::array<void*, slots_per_api>, 3>
make_slot_wrappers(std::index_sequence<S...>)
{
    return {{{reinterpret_cast<void*>(&launch_kernel<slot_target<S>>)...},
             {reinterpret_cast<void*>(&launch_kernel_ex<slot_target<S>>)...},
             {reinterpret_cast<void*>(&launch_cooperative<slot_target<S>>)...}}};
}

const auto slot_wrappers = make_slot_wrappers(std::make_index_sequence<slots_per_api>{});

// The wrapper of a launch function the driver returned for `api`.
void*
slot_wrapper(launch_api api, void* real, bool per_thread)
{
    static std::mutex mutex;
    auto              lock  = std::lock_guard{mutex};
    auto&             table = slots[static_cast<size_t>(api)];
    for(size_t i = 0; i < slots_per_api; ++i)
        if(table[i].real.load() == real) return slot_wrappers[static_cast<size_t>(api)][i];
    for(size_t i = 0; i < slots_per_api; ++i)
        if(table[i].real.load() == nullptr)
        {
            table[i].per_thread = per_thread;
            table[i].real.store(real, std::memory_order_release);
            return slot_wrappers[static_cast<size_t>(api)][i];
        }
    common::log::warn_once("cuda-slots",
                           "cuda: too many distinct launch functions; some launches "
                           "are not intercepted");
    return real;
}

bool
ends_with(std::string_view text, std::string_view suffix)
{
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::optional<launch_api>
launch_api_of(std::string_view name)
{
    if(ends_with(name, "_ptsz")) name.remove_suffix(5);
    if(name == "cuLaunchKernel") return launch_api::kernel;
    if(name == "cuLaunchKernelEx") return launch_api::kernel_ex;
    if(name == "cuLaunchCooperativeKernel") return launch_api::cooperative;
    return std::nullopt;
}
} // namespace
} // namespace rocprofiler::cuda

using namespace rocprofiler::cuda;

// X(NAME, SHAPE, PER_THREAD): the exported launch interposers, by driver function, with the launch
// function of their signature and whether stream 0 is the per-thread stream.
#define ROCP_LAUNCH_INTERPOSERS(X)                                                                 \
    X(cuLaunchKernel, KERNEL, launch_kernel, false)                                                \
    X(cuLaunchKernel_ptsz, KERNEL, launch_kernel, true)                                            \
    X(cuLaunchKernelEx, EX, launch_kernel_ex, false)                                               \
    X(cuLaunchKernelEx_ptsz, EX, launch_kernel_ex, true)                                           \
    X(cuLaunchCooperativeKernel, COOP, launch_cooperative, false)                                  \
    X(cuLaunchCooperativeKernel_ptsz, COOP, launch_cooperative, true)

#define ROCP_DEFINE_LAUNCH_INTERPOSER(NAME, SIGNATURE, SHAPE, PER_THREAD)                          \
    ROCP_INTERPOSER(NAME, ROCP_##SIGNATURE##_PARAMS)                                               \
    {                                                                                              \
        return SHAPE<exported_target<&driver_table::NAME, PER_THREAD>>(ROCP_##SIGNATURE##_ARGS);   \
    }
ROCP_LAUNCH_INTERPOSERS(ROCP_DEFINE_LAUNCH_INTERPOSER)
#undef ROCP_DEFINE_LAUNCH_INTERPOSER

namespace rocprofiler::cuda
{
void*
exported_launch_wrapper(const driver_table& drv, void* real)
{
#define ROCP_SUBSTITUTE(NAME, SIGNATURE, SHAPE, PER_THREAD)                                        \
    if(real == reinterpret_cast<void*>(drv.NAME)) return reinterpret_cast<void*>(&rocp_##NAME);
    ROCP_LAUNCH_INTERPOSERS(ROCP_SUBSTITUTE)
#undef ROCP_SUBSTITUTE
    return nullptr;
}

// A launch function that is not an exported one (an internal variant the driver hands out):
// launch functions have one signature per name, so it gets a wrapper of its own.
void*
launch_wrapper_by_name(const char* name, void* real, bool per_thread)
{
    if(auto api = launch_api_of(name))
        return slot_wrapper(*api, real, per_thread || ends_with(name, "_ptsz"));
    return nullptr;
}
} // namespace rocprofiler::cuda
