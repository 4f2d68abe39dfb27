// Which output prefix this process writes (prefix_claim.cpp says why it may not be the one asked
// for).
#pragma once

#include "config/config.hpp"

#include <cstdint>
#include <string>

namespace rocprofiler::tool
{
// Claims cfg.output_file_name for this process (@p pid): in cfg.run_dir among the processes of
// one rocprofv3 run, and through prefix_lock across runs. When another process has it,
// cfg.output_file_name becomes "<prefix>.<pid>" and the warning saying so is returned; otherwise
// the text is empty.
std::string claim_prefix(config& cfg, uint64_t pid);
} // namespace rocprofiler::tool
