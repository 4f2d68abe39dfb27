#include "job_multiplexing.hpp"

#include "config/parse.hpp"

#include <utility>

namespace rocprofv3::cli
{
bool
read_multiplexing(const nlohmann::json& entry,
                  const std::string&    where,
                  multiplexing&         out,
                  std::string&          error)
{
    if(entry.contains("pmc_groups") && !entry.at("pmc_groups").is_null())
    {
        const auto& value = entry.at("pmc_groups");
        if(!value.is_array())
        {
            error = where + "pmc_groups is " + value.dump() +
                    ", expected a list of counter groups ([[A, B], [C]])";
            return false;
        }
        auto groups = std::vector<std::vector<std::string>>{};
        for(const auto& group : value)
        {
            auto names = std::vector<std::string>{};
            // A group is a list of counter names; a string is one group ("A B" or "A,B").
            for(const auto& item : group.is_array() ? group : nlohmann::json::array({group}))
            {
                if(!item.is_string())
                {
                    error = where + "pmc_groups has " + item.dump() +
                            ", expected counter names (strings)";
                    return false;
                }
                names.push_back(item.get<std::string>());
            }
            groups.push_back(std::move(names));
        }
        if(!groups.empty()) out.groups = std::move(groups);
    }
    if(entry.contains("pmc_group_interval") && !entry.at("pmc_group_interval").is_null())
    {
        // A number, or its text (YAML readers may give either).
        const auto& value = entry.at("pmc_group_interval");
        auto        count = std::optional<uint64_t>{};
        if(value.is_number_integer() && value.get<int64_t>() > 0)
            count = value.get<uint64_t>();
        else if(value.is_string())
            count = rocprofiler::tool::parse::parse_count(value.get<std::string>());
        if(!count || *count == 0)
        {
            error = where + "pmc_group_interval is " + value.dump() +
                    ", expected a positive number of dispatches";
            return false;
        }
        out.interval = count;
    }
    return true;
}
} // namespace rocprofv3::cli
