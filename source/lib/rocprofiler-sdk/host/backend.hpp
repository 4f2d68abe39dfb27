// The host reference device as a device backend of the core (backend/device_backend.hpp): one
// agent, the process's device, with its measured counters.
#pragma once

#include "backend/device_backend.hpp"

namespace rocprofiler::host
{
// The backend object; lives for the whole process.
backend::device_backend& get_device_backend();
} // namespace rocprofiler::host
