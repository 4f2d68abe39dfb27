// The counters the registry lists for an NVIDIA device: every metric of the device's chip that
// CUPTI's profiler host API lists (raw counters with their .sum/.avg/.min/.max roll-ups, ratios,
// throughputs), with CUPTI's descriptions and hardware units, filtered per device. A configuration
// takes the passes CUPTI schedules its metrics into on that chip: one-pass configurations are
// collected by any execution, configurations of several passes over that many passes of a
// replayed dispatch (counter_schedule.hpp).
//
// docs/cuda.md ("Counters") describes the environment variables and the failure messages.
#pragma once

#include "counters/counters.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocprofiler::cuda::metrics
{
// The counters of CUDA device `ordinal`, or nothing (CUPTI missing or the chip unsupported; the
// reason is logged once). ROCPROFILER_CUDA_METRIC_FILTER_DEVICE<N>=<regex> keeps only the metrics
// of device N whose name contains a match.
std::optional<counters::agent_counters> agent_counters(uint32_t ordinal);

// Number of passes CUPTI needs for `names` on `chip` (0 with `error` set when a name is unknown or
// CUPTI fails). Works without a GPU: the profiler host API needs the chip name only.
uint32_t pass_count(std::string_view                chip,
                    const std::vector<std::string>& names,
                    std::string*                    error = nullptr);

// Metric names CUPTI lists for a chip, as agent_counters() lists them (for tests).
std::vector<counters::counter_spec> chip_metrics(std::string_view chip);

// The metrics device `ordinal` keeps under ROCPROFILER_CUDA_METRIC_FILTER_DEVICE<ordinal> (all of
// them when it is unset or not a valid regular expression, which is logged).
std::vector<counters::counter_spec> filter_for_device(std::vector<counters::counter_spec> metrics,
                                                      uint32_t                            ordinal);
} // namespace rocprofiler::cuda::metrics
