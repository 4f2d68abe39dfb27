// The sinks of a run, from the formats it asks for (-f csv,json,pftrace,rocpd,otf2).
#pragma once

#include "config/config.hpp"
#include "sinks/fan_out.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rocprofiler::tool
{
// The sink of one format ("csv", "json", "pftrace", "rocpd", "otf2") with its files opened; nullptr
// for a name the factory does not know. Files that cannot be opened are reported in @p errors.
std::unique_ptr<sink> make_sink(std::string_view          format,
                                const config&             cfg,
                                results&                  data,
                                std::vector<std::string>& errors);

// Every format @p cfg asks for, opened in the factory's order; a run with none keeps its records
// in @p data (kept_records).
fan_out open_sinks(const config& cfg, results& data, std::vector<std::string>& errors);
} // namespace rocprofiler::tool
