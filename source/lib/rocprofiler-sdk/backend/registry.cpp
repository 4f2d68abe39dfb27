#include "backend/device_backend.hpp"

// The build generates the list of backends (source/lib/rocprofiler-sdk/CMakeLists.txt): one
// accessor per backend, in registration order.
#include "backend_list.inc"

namespace rocprofiler::backend
{
const std::vector<device_backend*>&
registered()
{
    static const auto* value =
        new std::vector<device_backend*>{make_backend_list()}; // never destroyed
    return *value;
}
} // namespace rocprofiler::backend
