// The seam between the backend-neutral core and a device backend (the host reference device, the
// CUDA backend, or a new one). A backend describes its devices and their counters here; the agent
// registry (agent/) and the counter registry (counters/) ask every registered backend, in
// registration order, and never name one.
//
// What a backend implements beyond this interface goes through the dispatch pipeline
// (dispatch/backend.hpp: a launch_backend per intercepted launch, a memory_backend per agent for
// kernel replay); docs/architecture.md lists the whole contract.
//
// This folder includes nothing of the rest of the library but the environment registry
// (common/environment.hpp, in registry.cpp): every other layer may include it.
#pragma once

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/fwd.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace rocprofiler::common::env
{
struct setting; // common/environment.hpp
}

namespace rocprofiler::backend
{
// One device, as its backend describes it. Strings are copied by the agent registry, which also
// sets the id, the node ids and the string pointers of `properties`.
struct device_description
{
    uint32_t               index        = 0; // the device's index within its backend
    rocprofiler_agent_v0_t properties   = {};
    std::string            name         = {};
    std::string            vendor_name  = {};
    std::string            product_name = {};
    std::string            model_name   = {};
};

// One counter of a device.
struct counter_spec
{
    std::string name        = {};
    std::string description = {};
    std::string block       = {};
    std::string expression  = {}; // derived counters only
    bool        is_constant = false;
    bool        is_derived  = false;
    uint32_t    slots       = 1; // hardware slots it takes in one pass
    // The value of several executions together is the sum of their values, so agent-wide
    // (device) counting may add it up over every execution of the agent. False for a value that
    // describes one execution only (how many distinct workers took part): such a counter is
    // refused by device counting rather than summed into a number that means nothing.
    bool additive = false;
};

// The counters of one device. Devices whose passes are not a fixed number of equal slots (NVIDIA
// GPUs: CUPTI schedules each set of metrics itself) give `passes_of`, which sets how many passes a
// set of their counters (indices into `counters`) needs and answers SUCCESS, or another status
// when the set cannot be collected at all; the slot count is then unused. Such devices accept
// configurations of several passes, collected over as many passes of a replayed dispatch.
struct device_counters
{
    using pass_check =
        std::function<rocprofiler_status_t(const std::vector<uint32_t>& indices, uint32_t& passes)>;

    std::vector<counter_spec> counters       = {};
    uint32_t                  slots_per_pass = 0;
    pass_check                passes_of      = {};
    // The device measures the counters of every execution it is asked to and reports their values
    // with the execution's completion (never deferred), so that the pipeline can sum them over
    // every execution of the device: device counting (device_counting_service.h) is offered.
    bool counts_every_execution = false;
};

// One PC sampling configuration a device offers (pc_sampling.h's configuration, without the size
// field). Intervals are in `unit`.
struct pc_sampling_configuration
{
    rocprofiler_pc_sampling_method_t method       = ROCPROFILER_PC_SAMPLING_METHOD_NONE;
    rocprofiler_pc_sampling_unit_t   unit         = ROCPROFILER_PC_SAMPLING_UNIT_NONE;
    uint64_t                         min_interval = 0;
    uint64_t                         max_interval = 0;
    uint64_t                         flags        = 0;
};

// What a device offers for SPM (experimental/spm.h): counters it samples over time during an
// execution, at an interval in [min_interval, max_interval] of its clock cycles, and the counters
// (names of its own counter list) it can sample so.
struct spm_offer
{
    uint64_t                 min_interval = 0;
    uint64_t                 max_interval = 0;
    std::vector<std::string> counters     = {};
};

class device_backend
{
public:
    virtual ~device_backend() = default;

    // A short name for diagnostics ("host", "cuda").
    virtual const char* name() const = 0;

    // Appends this backend's devices, in index order. Called once, when the agent registry is
    // built (on the first query of agents), on that thread.
    virtual void append_devices(std::vector<device_description>& out) = 0;

    // The counters of one of this backend's devices, or nothing when it has no counter support.
    // Called once per device, when the counter registry is built.
    virtual std::optional<device_counters> counters_of(uint32_t device_index) = 0;

    // The PC sampling configurations a device offers now; empty when it cannot sample (the
    // default). Asked on every configuration query, on the querying thread, so a backend may
    // answer what this process allows at that moment. A backend that offers one samples every
    // execution whose execution_request asks for it (dispatch/backend.hpp).
    virtual std::vector<pc_sampling_configuration>
    pc_sampling_configurations_of(uint32_t device_index)
    {
        (void)device_index;
        return {};
    }

    // What a device offers for SPM, or nothing (the default). A backend that offers it samples
    // every execution whose execution_request asks for it (dispatch/backend.hpp).
    virtual std::optional<spm_offer> spm_offer_of(uint32_t device_index)
    {
        (void)device_index;
        return std::nullopt;
    }

    // The backend's environment variables (its table of common/environment.hpp's registry, beside
    // its code): the library's registry is the core's table and every registered backend's
    // (every_setting()), and docs/api.md lists them all. Static: asked at any time, any thread.
    virtual std::span<const common::env::setting* const> settings() const { return {}; }

    // True when the backend reports the application's memory copies (memory_copy/memory_copy.hpp)
    // of its devices. A context that traces copies is told once about backends that do not.
    virtual bool traces_memory_copies() const { return false; }
};

// Every backend compiled into the library, in the order that fixes agent ids (the build lists
// them: rocprofiler_add_device_backend() in each backend's CMakeLists.txt). Built on first use;
// never changes afterwards.
const std::vector<device_backend*>& registered();

// Every environment variable of the library: the core's table (common/environment.hpp), then each
// registered backend's, in registration order.
std::vector<const common::env::setting*> every_setting();
} // namespace rocprofiler::backend
