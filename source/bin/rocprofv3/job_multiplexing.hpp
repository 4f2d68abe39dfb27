// The multiplexing keys of an input file's job (AMD's schema): `pmc_groups`, the counter groups one
// run cycles through, and `pmc_group_interval`, how many dispatches of an agent each group counts
// before the next takes over. job_file.cpp turns the groups into --pmc groups and the interval into
// options::pmc_group_interval.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rocprofv3::cli
{
// pmc_groups / pmc_group_interval: AMD's multiplexing, one run in which each dispatch is counted
// with one of the groups, switching to the next every pmc_group_interval dispatches of an agent.
// The groups become --pmc groups (so that every check of --pmc applies to them); the run then
// multiplexes them (options::pmc_group_interval) unless the job asks for a replay mode, which
// collects every group for every dispatch.
struct multiplexing
{
    std::optional<std::vector<std::vector<std::string>>> groups   = {};
    std::optional<uint64_t>                              interval = {};
};

// Reads the job's pmc_groups and pmc_group_interval; false with @p error on a malformed value.
bool read_multiplexing(const nlohmann::json& entry,
                       const std::string&    where,
                       multiplexing&         out,
                       std::string&          error);
} // namespace rocprofv3::cli
