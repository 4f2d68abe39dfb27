#include "planner/counter_planner.hpp"

#include "config/parse.hpp"

#include <algorithm>
#include <set>

namespace rocprofiler::tool::planner
{
namespace
{
std::string
joined(const std::vector<std::string>& names, const char* separator = " ")
{
    auto out = std::string{};
    for(const auto& name : names)
        out += (out.empty() ? "" : separator) + name;
    return out;
}

std::string
agent_label(const agent_description& a)
{
    return "agent " + a.logical_id + " (" + a.product_name + ", " + a.name + ")";
}

std::function<bool(const std::string&)>
counter_of(const agent_description& a)
{
    return [&a](const std::string& name)
    { return std::find(a.counters.begin(), a.counters.end(), name) != a.counters.end(); };
}

// @p group as agent @p a collects it (its own definition of each metric set).
std::vector<std::string>
agent_group(const std::vector<std::string>& group,
            const agent_description&        a,
            const metric_sets::catalog&     sets)
{
    return metric_sets::expand(group, sets, a.name, counter_of(a));
}

// The errors and warnings of a name that no agent has as a counter but that names a metric set.
void
check_set(const std::string&                    name,
          const std::vector<agent_description>& agents,
          const metric_sets::catalog&           sets,
          std::vector<std::string>&             errors,
          std::vector<std::string>*             warnings)
{
    auto applies = false;
    auto why     = std::vector<std::string>{};
    for(const auto& a : agents)
    {
        if(a.error) continue;
        const auto* set = metric_sets::find(sets, name, a.name);
        if(set == nullptr) continue;
        auto lacks = metric_sets::missing(*set, counter_of(a));
        if(lacks.empty())
            applies = true;
        else
            why.emplace_back(agent_label(a) + " lacks " + joined(lacks, ", ") + " (" + set->file +
                             ")");
    }
    if(!applies)
    {
        auto line = "metric set '" + name + "' cannot be collected on any agent: ";
        if(why.empty())
        {
            auto defined = std::set<std::string>{};
            for(const auto& s : sets)
                if(s.name == name)
                    defined.insert(s.agents ? joined(*s.agents, ", ") : std::string{"every agent"});
            line += "it is defined for agents " +
                    joined(std::vector<std::string>{defined.begin(), defined.end()}, ", ") +
                    " only";
        }
        else
            line += joined(why, "; ");
        errors.emplace_back(std::move(line));
        return;
    }
    if(warnings != nullptr)
        for(const auto& w : why)
            warnings->emplace_back("metric set '" + name + "' is not collected on " + w);
}

// The errors of one requested name that no agent has as a counter (or the warning, when some
// agent reports no counters and the caller runs anyway).
void
check_unknown(const std::string&              name,
              const std::vector<std::string>& all,
              const std::vector<std::string>& without,
              std::vector<std::string>&       errors,
              std::vector<std::string>*       warnings)
{
    if(!without.empty() && warnings != nullptr)
    {
        warnings->emplace_back("counter '" + name + "' is listed by no agent, and " +
                               without.front() +
                               ": the application runs, and the counter is collected "
                               "only where an agent has it");
        return;
    }
    auto line    = "unknown counter '" + name + "'";
    auto matches = parse::close_matches(name, all);
    if(!matches.empty())
    {
        line += "; did you mean ";
        for(size_t i = 0; i < matches.size(); ++i)
            line += (i == 0 ? "" : i + 1 == matches.size() ? " or " : ", ") + matches[i];
        line += "?";
    }
    else
        line += " (rocprofv3 -L lists the available counters and metric sets)";
    errors.emplace_back(std::move(line));
}

// Where AMD's name @p name has no equivalent, with the reasons ("agent 0 (...): reason; ..."), or
// "" when no agent lists it as absent.
std::string
amd_absent(const std::string& name, const std::vector<agent_description>& agents)
{
    auto out = std::string{};
    for(const auto& a : agents)
        if(auto itr = a.amd_absent.find(name); !a.error && itr != a.amd_absent.end())
            out += (out.empty() ? "" : "; ") + agent_label(a) + ": " + itr->second;
    return out;
}

// Every requested name is a counter of some agent or a metric set that applies to one.
void
check_names(const std::vector<std::vector<std::string>>& groups,
            const std::vector<agent_description>&        agents,
            const std::set<std::string>&                 available,
            const std::vector<std::string>&              without,
            const metric_sets::catalog&                  sets,
            std::vector<std::string>&                    errors,
            std::vector<std::string>*                    warnings)
{
    auto all       = std::vector<std::string>{available.begin(), available.end()};
    auto set_names = metric_sets::names(sets);
    all.insert(all.end(), set_names.begin(), set_names.end());
    auto seen = std::set<std::string>{};
    for(const auto& group : groups)
        for(const auto& name : group)
        {
            if(!seen.insert(name).second) continue;
            if(available.count(name) != 0)
            {
                // A counter wins over a set of the same name, agent by agent.
                for(const auto& a : agents)
                    if(warnings != nullptr && !a.error && counter_of(a)(name) &&
                       metric_sets::find(sets, name, a.name) != nullptr)
                        warnings->emplace_back(agent_label(a) + " has a counter named '" + name +
                                               "': it is collected there instead of the metric "
                                               "set of that name");
                continue;
            }
            if(std::binary_search(set_names.begin(), set_names.end(), name))
                check_set(name, agents, sets, errors, warnings);
            else if(auto why = amd_absent(name, agents); !why.empty())
                errors.emplace_back("counter '" + name + "' is AMD's counter name with no " +
                                    "equivalent on " + why);
            else
                check_unknown(name, all, without, errors, warnings);
        }
}

// Every group fits in the passes the replay mode offers on each agent that has its counters.
void
check_limits(const std::vector<std::vector<std::string>>& groups,
             const std::vector<agent_description>&        agents,
             const metric_sets::catalog&                  sets,
             bool                                         kernel_replay,
             std::vector<std::string>&                    errors)
{
    for(const auto& a : agents)
        for(const auto& name : a.exceeding_alone)
            errors.emplace_back("counter '" + name + "' cannot be collected on agent " +
                                a.logical_id + " (" + a.product_name +
                                "): no counter configuration of it alone can be created");
    if(!kernel_replay)
        for(const auto& a : agents)
            for(const auto& [name, passes] : a.multi_pass)
                errors.emplace_back(
                    "counter '" + name + "' takes " + std::to_string(passes) + " passes on agent " +
                    a.logical_id + " (" + a.product_name +
                    ") even by itself, and without kernel replay each group is one pass of "
                    "the application; collect it with --replay-mode kernel "
                    "--kernel-replay-beta-enabled, which replays each dispatch in as many passes "
                    "as its counters take");
    for(const auto& a : agents)
        for(auto g : a.groups_exceeding)
        {
            if(g >= groups.size() || a.group_splits.count(g) != 0) continue;
            if(!a.exceeding_alone.empty()) continue; // reported above, by counter
            if(a.group_splits.count(g) == 0 && !a.multi_pass.empty()) continue;
            const auto group = agent_group(groups[g], a, sets);
            auto line = "counter group " + std::to_string(g + 1) + " (" + joined(group) + ") has " +
                        std::to_string(group.size()) +
                        " counters and does not fit in one pass on agent " + a.logical_id + " (" +
                        a.product_name + ")";
            if(a.counters_per_pass)
                line += ", which collects at most " + std::to_string(*a.counters_per_pass) +
                        " counters per pass";
            line += "; split it into several --pmc groups";
            errors.emplace_back(std::move(line));
        }
}
} // namespace

std::vector<std::string>
validate(const std::vector<std::vector<std::string>>& groups,
         const std::vector<agent_description>&        agents,
         std::vector<std::string>*                    warnings,
         const metric_sets::catalog&                  sets,
         bool                                         kernel_replay)
{
    auto errors    = std::vector<std::string>{};
    auto available = std::set<std::string>{};
    auto any_agent = false;
    for(const auto& a : agents)
    {
        if(a.error)
        {
            errors.emplace_back("agent " + a.logical_id + " (" + a.product_name +
                                ") reports no counters (" + *a.error +
                                "); --pmc cannot be collected on it");
            continue;
        }
        any_agent = true;
        available.insert(a.counters.begin(), a.counters.end());
    }
    // Agents that report no counters (their reasons, for the warnings below).
    auto without = errors;
    if(agents.empty())
    {
        errors.emplace_back("no GPU agent was found; --pmc needs one");
        return errors;
    }
    if(!any_agent && warnings == nullptr) return errors;
    // An agent without counters is only fatal when no agent can collect anything, and not even
    // then when the caller takes warnings: the application runs without those counters.
    errors.clear();
    check_names(groups, agents, available, without, sets, errors, warnings);
    check_limits(groups, agents, sets, kernel_replay, errors);
    return errors;
}

std::vector<std::vector<std::string>>
expand_groups(const std::vector<std::vector<std::string>>& groups,
              const std::vector<agent_description>&        agents,
              std::vector<std::string>&                    notes,
              const metric_sets::catalog&                  sets)
{
    auto out  = std::vector<std::vector<std::string>>{};
    auto note = [&notes](size_t                                       g,
                         size_t                                       size,
                         const agent_description&                     a,
                         const std::vector<std::vector<std::string>>& split)
    {
        auto line = "counter group " + std::to_string(g + 1) + " (" + std::to_string(size) +
                    " counters) does not fit in one pass on agent " + a.logical_id + " (" +
                    a.product_name + "); collected as " + std::to_string(split.size()) + " groups:";
        for(const auto& part : split)
            line += " [" + joined(part) + "]";
        for(const auto& [name, passes] : a.multi_pass)
            if(std::find(split.begin(), split.end(), std::vector<std::string>{name}) != split.end())
                line += "; " + name + " takes " + std::to_string(passes) + " passes by itself";
        notes.emplace_back(std::move(line));
    };
    for(size_t g = 0; g < groups.size(); ++g)
    {
        // A group naming a metric set that some agent splits: every agent that can collect it
        // gets its own one-pass groups, since the set's metrics differ from agent to agent.
        auto names_set = false;
        auto split_any = false;
        for(const auto& a : agents)
        {
            if(a.error) continue;
            names_set = names_set || agent_group(groups[g], a, sets) != groups[g];
            split_any = split_any || a.group_splits.count(g) != 0;
        }
        if(names_set && split_any)
        {
            auto parts = std::vector<std::vector<std::string>>{};
            auto add   = [&parts](const std::vector<std::string>& part)
            {
                if(std::find(parts.begin(), parts.end(), part) == parts.end())
                    parts.push_back(part);
            };
            for(const auto& a : agents)
            {
                if(a.error) continue;
                const auto group = agent_group(groups[g], a, sets);
                if(!std::all_of(group.begin(), group.end(), counter_of(a)))
                    continue; // not collectable there
                auto itr = a.group_splits.find(g);
                if(itr == a.group_splits.end() || itr->second.empty())
                {
                    add(group);
                    continue;
                }
                note(g, group.size(), a, itr->second);
                for(const auto& part : itr->second)
                    add(part);
            }
            if(parts.empty()) parts.push_back(groups[g]);
            out.insert(out.end(), parts.begin(), parts.end());
            continue;
        }

        const agent_description*                     where = nullptr;
        const std::vector<std::vector<std::string>>* split = nullptr;
        for(const auto& a : agents)
        {
            auto itr = a.group_splits.find(g);
            if(itr == a.group_splits.end() || itr->second.empty()) continue;
            where = &a;
            split = &itr->second;
            break;
        }
        if(split == nullptr)
        {
            out.push_back(groups[g]);
            continue;
        }
        note(g, groups[g].size(), *where, *split);
        out.insert(out.end(), split->begin(), split->end());
    }
    return out;
}

group_split
split_group(const std::vector<std::string>& group, const probe_fn& probe)
{
    auto out   = group_split{};
    auto names = std::vector<std::vector<std::string>>{};
    for(size_t i = 0; i < group.size(); ++i)
    {
        auto placed = false;
        for(size_t g = 0; g < out.groups.size() && !placed; ++g)
        {
            auto candidate = names[g];
            candidate.push_back(group[i]);
            const auto fit = probe(candidate);
            if(!fit.passes || *fit.passes != 1) continue;
            out.groups[g].push_back(i);
            names[g] = std::move(candidate);
            placed   = true;
        }
        if(placed) continue;
        const auto alone = probe({group[i]});
        if(!alone.passes)
            out.impossible.push_back(i);
        else if(*alone.passes > 1)
            out.multi_pass.emplace_back(i, *alone.passes);
        else
        {
            out.groups.push_back({i});
            names.push_back({group[i]});
        }
    }
    for(const auto& [index, passes] : out.multi_pass)
        out.groups.push_back({index});
    return out;
}

void
probe_groups(agent_description&                           agent,
             const std::vector<std::vector<std::string>>& groups,
             const metric_sets::catalog&                  sets,
             const probe_fn&                              probe)
{
    const auto has = counter_of(agent);
    for(size_t g = 0; g < groups.size(); ++g)
    {
        const auto group = metric_sets::expand(groups[g], sets, agent.name, has);
        if(group.empty() || !std::all_of(group.begin(), group.end(), has)) continue; // not all here
        const auto fit = probe(group);
        if(fit.passes && *fit.passes == 1) continue;
        if(!fit.passes && !fit.exceeds_limit) continue;
        agent.groups_exceeding.push_back(g);
        if(fit.passes) agent.group_passes[g] = *fit.passes;
        // The passes it takes here, for rocprofv3 to collect it as several groups.
        const auto split = split_group(group, probe);
        if(split.impossible.empty())
        {
            auto& parts = agent.group_splits[g];
            for(const auto& part : split.groups)
            {
                parts.emplace_back();
                for(auto index : part)
                    parts.back().push_back(group[index]);
            }
            for(const auto& [index, n] : split.multi_pass)
                agent.multi_pass.emplace_back(group[index], n);
        }
        for(auto index : split.impossible)
            agent.exceeding_alone.push_back(group[index]);
    }
}

std::vector<replay_pass>
plan_replay(const std::vector<uint64_t>& group_passes,
            std::optional<uint64_t>      together,
            bool                         fixed_limit)
{
    auto by_group = uint64_t{0};
    for(auto passes : group_passes)
        by_group += passes;
    auto out = std::vector<replay_pass>{};
    // Agents with a fixed number of counters per pass collect the groups as the user made them.
    if(group_passes.size() > 1 && !fixed_limit && together && *together > 0 && *together < by_group)
    {
        out.resize(*together);
        for(size_t g = 0; g < group_passes.size(); ++g)
            out[0].reports.push_back(g);
        return out;
    }
    for(size_t g = 0; g < group_passes.size(); ++g)
        for(uint64_t p = 0; p < group_passes[g]; ++p)
            out.push_back(replay_pass{g, p == 0 ? std::vector<size_t>{g} : std::vector<size_t>{}});
    return out;
}
} // namespace rocprofiler::tool::planner
