#pragma once

#include "config/config.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace rocprofiler::tool
{
// --output-config: writes <prefix>_config.json atomically; an error is appended to @p errors.
void write_config_file(const config& cfg, uint64_t pid, std::vector<std::string>& errors);
} // namespace rocprofiler::tool
