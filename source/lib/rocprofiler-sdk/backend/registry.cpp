#include "backend/device_backend.hpp"

#include "common/environment.hpp"

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

std::vector<const common::env::setting*>
every_setting()
{
    auto out = std::vector<const common::env::setting*>{common::env::settings::all.begin(),
                                                        common::env::settings::all.end()};
    for(const auto* backend : registered())
        for(const auto* def : backend->settings())
            out.push_back(def);
    return out;
}
} // namespace rocprofiler::backend
