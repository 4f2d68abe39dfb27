#include "rocpd/run_uuid.hpp"
#include "rocpd/schema.hpp"

#include <sys/random.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <utility>

namespace rocprofiler::tool::rocpd
{
std::string
new_run_uuid()
{
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    const auto ms =
        static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(now).count());
    auto random = std::array<uint8_t, 10>{};
    if(::getrandom(random.data(), random.size(), 0) != static_cast<ssize_t>(random.size()))
    {
        auto machine = std::string{};
        std::getline(std::ifstream{"/etc/machine-id"}, machine);
        const auto ticks =
            static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
        const auto seed =
            std::hash<std::string>{}(machine + ":" + std::to_string(::getpid()) + ":" +
                                     std::to_string(::getppid()) + ":" + std::to_string(ticks));
        for(size_t i = 0; i < random.size(); ++i)
            random[i] = static_cast<uint8_t>((seed ^ (ticks << 7U)) >> (8U * (i % 8U)));
    }
    return format_run_uuid(ms, random);
}
} // namespace rocprofiler::tool::rocpd

namespace rocprofiler::tool
{
std::string
fill_rocpd_placeholders(std::string text, const std::string& uuid)
{
    const auto suffix = rocpd::run_table_suffix(uuid);
    for(const auto& [token, value] :
        {std::pair<std::string, const std::string*>{"{{uuid}}", &suffix},
         std::pair<std::string, const std::string*>{"{{guid}}", &uuid}})
        for(auto at = text.find(token); at != std::string::npos;
            at      = text.find(token, at + value->size()))
            text.replace(at, token.size(), *value);
    return text;
}

std::string
rocpd_schema_for(const std::string& uuid)
{
    return fill_rocpd_placeholders(rocpd_schema_sql, uuid);
}
} // namespace rocprofiler::tool
