// The CUDA backend as a device backend of the core (backend/device_backend.hpp): one agent per
// CUDA device, listed only in processes that loaded the driver (or with ROCPROFILER_CUDA_AGENTS),
// with the metrics CUPTI can evaluate on it.
#pragma once

#include "backend/device_backend.hpp"

namespace rocprofiler::cuda
{
// The backend object; lives for the whole process. agent::id_of(get_device_backend(), ordinal)
// is the agent of a device.
backend::device_backend& get_device_backend();
} // namespace rocprofiler::cuda
