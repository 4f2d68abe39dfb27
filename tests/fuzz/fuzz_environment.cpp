// The environment registry: any value for every setting is accepted or refused with a message,
// never a crash; an accepted number stays within the setting's bounds.
#include "common/environment.hpp"
#include "cuda/settings.hpp"
#include "host/settings.hpp"

#include <array>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>

namespace env = rocprofiler::common::env;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    auto              value = std::string{reinterpret_cast<const char*>(data), size};
    static const auto tables =
        std::array<std::span<const env::setting* const>, 3>{env::settings::all,
                                                            rocprofiler::cuda::settings::table::all,
                                                            rocprofiler::host::settings::all};
    for(const auto table : tables)
        for(const auto* def : table)
        {
            auto result = env::check(*def, def->name, value.c_str());
            if(result.status == env::state::invalid && result.message.empty()) std::abort();
            if(result.status == env::state::invalid &&
               result.message.find(def->name) == std::string::npos)
                std::abort();
        }
    return 0;
}
