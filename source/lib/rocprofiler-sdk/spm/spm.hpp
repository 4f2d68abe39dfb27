// SPM (experimental/spm.h): counters sampled over time while a dispatch runs. This is what an agent
// offers (its backend says: backend/device_backend.hpp, spm_offer) and the SPM counter
// configurations. Which executions are sampled and how samples reach the tool is the dispatch
// path's (dispatch/spm.hpp); taking the samples is the backend's.
#pragma once

#include "backend/device_backend.hpp"
#include "counters/counters.hpp"

#include <rocprofiler-sdk/experimental/spm.h>
#include <rocprofiler-sdk/fwd.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rocprofiler::spm
{
// SPM configuration handles carry this bit, so that no SPM configuration is taken for a dispatch
// counting one, or the other way round.
inline constexpr uint64_t config_tag = uint64_t{1} << 62U;

struct config
{
    rocprofiler_counter_config_id_t                  id       = {};
    rocprofiler_agent_id_t                           agent    = {};
    std::vector<const counters::counter_definition*> counters = {}; // in the tool's order
    uint64_t                                         interval = 0;  // cycles of the agent's clock
};

// What the agent's backend offers, or nothing.
std::optional<backend::spm_offer> offer_of(rocprofiler_agent_id_t agent);

// The agent's counters its backend samples over time, in the agent's counter order.
std::vector<const counters::counter_definition*> sampled_counters(rocprofiler_agent_id_t agent);

// rocprofiler_spm_create_counter_config, arguments already checked for NULL: every counter must
// be one the agent samples (INVALID_ARGUMENT otherwise), each once; the interval parameter (the
// one parameter type) must lie in the offered range (INVALID_ARGUMENT), and defaults to the
// shortest one. AGENT_ARCH_NOT_SUPPORTED when the agent offers no SPM.
rocprofiler_status_t          create_config(rocprofiler_agent_id_t                     agent,
                                            const rocprofiler_counter_id_t*            ids,
                                            size_t                                     count,
                                            const rocprofiler_spm_parameters_t* const* parameters,
                                            size_t                                     parameter_count,
                                            rocprofiler_counter_config_id_t*           out);
rocprofiler_status_t          destroy_config(rocprofiler_counter_config_id_t id);
std::shared_ptr<const config> get_config(rocprofiler_counter_config_id_t id);

} // namespace rocprofiler::spm
