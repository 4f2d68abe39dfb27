// SPM on a CUDA agent, between the agent's counter list and a PM sampling range: the offer (the
// agent's counters whose base metric CUPTI's profiler host lists for PM sampling on the chip, the
// interval in GPU system clock cycles) and the sampling of one execution (pm_sampling_session.hpp)
// with the configuration image of the request's counters.
//
// Status: written and compiled against CUDA 13's headers; the session below it is CPU-tested;
// not yet run on a GPU.
#pragma once

#include "backend/device_backend.hpp"
#include "dispatch/backend.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rocprofiler::cuda::pm_sampling
{
// Remembers device `ordinal`'s counter names (backend::device_counters::counters, in order), so
// that an spm_request's indices name CUPTI metrics.
void remember_counters(uint32_t ordinal, std::vector<std::string> names);

// The SPM offer of device `ordinal`, or nothing when libcupti lacks PM sampling, the chip is
// unknown, or none of the agent's counters can be sampled.
std::optional<backend::spm_offer> offer_of(uint32_t ordinal);

// Runs `launch` inside one PM sampling range of `request`'s counters on device `ordinal`, waits
// for it through `wait`, and delivers the samples (or why there are none) exactly once.
// Returns what `launch` returned (CUresult as int, so that this header needs no CUDA header).
int sample_execution(uint32_t                     ordinal,
                     const dispatch::spm_request& request,
                     const std::function<int()>&  launch,
                     const std::function<void()>& wait);
} // namespace rocprofiler::cuda::pm_sampling
