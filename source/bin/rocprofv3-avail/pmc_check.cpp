#include "pmc_check.hpp"
#include "exit_codes.hpp"

#include "config/parse.hpp"
#include "planner/counter_planner.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace rocprofv3_avail
{
namespace planner = ::rocprofiler::tool::planner;

namespace
{
std::string
joined(const std::vector<std::string>& items, const char* separator = ", ")
{
    auto out = std::string{};
    for(const auto& item : items)
        out += (out.empty() ? "" : separator) + item;
    return out;
}

void
add_once(std::vector<std::string>& list, const std::string& name)
{
    if(std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
}

// What @p name is on @p target: its counters (one for a counter, the set's metrics for a metric
// set defined for the agent with all its metrics), or nothing.
std::vector<std::string>
resolve(const std::string& name, const agent& target, const metric_sets::catalog& sets)
{
    if(target.find(name) != nullptr) return {name};
    const auto* set = metric_sets::find(sets, name, target.name);
    if(set == nullptr) return {};
    auto has = [&target](const std::string& n) { return target.find(n) != nullptr; };
    if(!metric_sets::missing(*set, has).empty()) return {};
    return set->metrics;
}

std::vector<uint64_t>
ids_of(const agent& target, const std::vector<std::string>& counters)
{
    auto ids = std::vector<uint64_t>{};
    for(const auto& name : counters)
        if(const auto* c = target.find(name)) ids.push_back(c->id);
    return ids;
}

// Decides the verdict of @p check (its counters resolved) by creating configurations.
void
decide(agent_check& check, const configure_fn& configure)
{
    const auto& target = *check.target;
    const auto  whole  = configure(target, ids_of(target, check.counters));
    if(whole.created && whole.passes == 1)
    {
        check.answer = verdict::one_pass;
        check.passes = 1;
        return;
    }
    if(whole.created)
    {
        check.answer           = verdict::several_passes;
        check.passes           = whole.passes;
        check.scheduled_by_sdk = true;
        return;
    }
    check.status = whole.status;
    // Refused: split into groups of one pass each, which also finds the counters that cannot be
    // configured even by themselves.
    auto probe = [&](const std::vector<std::string>& names)
    {
        const auto answer = configure(target, ids_of(target, names));
        auto       out    = planner::probe_result{};
        if(answer.created) out.passes = answer.passes;
        out.exceeds_limit = answer.exceeds;
        return out;
    };
    const auto split = planner::split_group(check.counters, probe);
    if(!split.impossible.empty())
    {
        check.answer = verdict::cannot_collect;
        for(auto i : split.impossible)
            check.impossible.push_back(check.counters[i]);
        check.status = configure(target, ids_of(target, {check.impossible.front()})).status;
        return;
    }
    check.answer = verdict::several_passes;
    check.passes = 0;
    auto multi   = std::map<size_t, uint64_t>{split.multi_pass.begin(), split.multi_pass.end()};
    for(const auto& group : split.groups)
    {
        auto names = std::vector<std::string>{};
        for(auto i : group)
            names.push_back(check.counters[i]);
        check.split.push_back(names);
        const auto itr = group.size() == 1 ? multi.find(group.front()) : multi.end();
        check.passes += itr != multi.end() ? itr->second : 1;
    }
    for(const auto& [i, passes] : split.multi_pass)
        check.multi_pass.emplace_back(check.counters[i], passes);
}

// The notes of a check: AMD's names measured as equivalents, metric sets expanded.
void
annotate(agent_check& check, const metric_sets::catalog& sets)
{
    const auto& target = *check.target;
    for(const auto& name : check.requested)
    {
        if(const auto* c = target.find(name))
        {
            if(c->is_amd_equivalent())
                check.notes.push_back(name + " is AMD's counter name: measured on " +
                                      agent_label(target) + " as " + c->expression +
                                      ", an equivalent, not AMD's counter itself");
            continue;
        }
        if(metric_sets::find(sets, name, target.name) != nullptr)
            check.notes.push_back("metric set " + name + " is " +
                                  joined(resolve(name, target, sets), " ") + " on " +
                                  agent_label(target));
    }
}
} // namespace

const agent*
find_agent(const inventory& inv, int index)
{
    for(const auto& a : inv.gpus)
        if(a.index == index) return &a;
    return nullptr;
}

std::string
agent_label(const agent& a)
{
    return "GPU " + std::to_string(a.index) + " (" + a.name +
           (a.product.empty() ? std::string{} : ", " + a.product) + ")";
}

std::string
unknown_agent(const inventory& inv, int index)
{
    auto known = std::vector<std::string>{};
    for(const auto& a : inv.gpus)
        known.push_back(agent_label(a));
    return "no GPU agent " + std::to_string(index) +
           (known.empty() ? std::string{" (this machine has none)"}
                          : " (GPU agents: " + joined(known) + ")");
}

std::string
unknown_name(const std::string&          name,
             const agent&                target,
             const metric_sets::catalog& sets,
             const amd_names::table&     names)
{
    const auto where = agent_label(target);
    if(target.counters_error)
        return "counter '" + name + "' cannot be checked on " + where + ": it lists no counters (" +
               *target.counters_error + ")";
    auto has = [&target](const std::string& n) { return target.find(n) != nullptr; };
    if(const auto* set = metric_sets::find(sets, name, target.name))
        return "metric set '" + name + "' is not available on " + where + ": it lacks " +
               joined(metric_sets::missing(*set, has));
    auto set_names = metric_sets::names(sets);
    if(std::binary_search(set_names.begin(), set_names.end(), name))
        return "metric set '" + name + "' has no definition for " + where;
    auto counters = std::vector<std::string>{};
    for(const auto& c : target.counters)
        counters.push_back(c.name);
    const auto amd = amd_names::describe(names, target.name, counters);
    if(auto itr = amd.absent.find(name); itr != amd.absent.end())
        return "counter '" + name + "' is AMD's counter name with no equivalent on " + where +
               ": " + itr->second;
    auto line       = "unknown counter '" + name + "' on " + where;
    auto candidates = counters;
    candidates.insert(candidates.end(), set_names.begin(), set_names.end());
    const auto matches = rocprofiler::tool::parse::close_matches(name, candidates);
    if(matches.empty()) return line + " (rocprofv3-avail list names its counters)";
    line += "; did you mean ";
    for(size_t i = 0; i < matches.size(); ++i)
        line += (i == 0 ? "" : i + 1 == matches.size() ? " or " : ", ") + matches[i];
    return line + "?";
}

check_result
check_counters(const request&              req,
               const inventory&            inv,
               const metric_sets::catalog& sets,
               const amd_names::table&     names,
               const configure_fn&         configure)
{
    auto out = check_result{};
    // Agent index -> the names to check there, and which of them were named for it.
    auto wanted    = std::map<int, std::vector<std::string>>{};
    auto named_for = std::map<int, std::set<std::string>>{};
    auto bad_agent = [&](int index)
    {
        if(find_agent(inv, index) != nullptr) return false;
        out.errors.push_back(unknown_agent(inv, index));
        return true;
    };
    if(req.device && bad_agent(*req.device))
    {
        out.exit_code = exit_unknown_agent;
        return out;
    }
    for(const auto& item : req.pmc)
    {
        auto targets = item.devices;
        if(targets.empty() && req.device) targets = {*req.device};
        for(auto index : targets)
            if(bad_agent(index))
            {
                out.exit_code = exit_unknown_agent;
                return out;
            }
        const bool named = !targets.empty();
        if(!named)
            for(const auto& a : inv.gpus)
                targets.push_back(a.index);
        for(auto index : targets)
        {
            add_once(wanted[index], item.name);
            if(named) named_for[index].insert(item.name);
        }
    }
    if(inv.gpus.empty())
    {
        out.errors.push_back("the SDK reports no GPU agent on this machine");
        out.exit_code = exit_unknown_agent;
        return out;
    }

    auto unresolved = std::vector<std::string>{}; // on agents checked only for lack of a device
    for(const auto& [index, requested] : wanted)
    {
        const auto& target  = *find_agent(inv, index);
        auto        missing = std::vector<std::string>{};
        auto        check   = agent_check{&target, requested, {}};
        for(const auto& name : requested)
        {
            auto counters = resolve(name, target, sets);
            if(counters.empty())
            {
                if(named_for[index].count(name) != 0)
                    out.errors.push_back(unknown_name(name, target, sets, names));
                else
                    missing.push_back(name);
            }
            for(const auto& c : counters)
                add_once(check.counters, c);
        }
        if(!missing.empty())
        {
            auto reasons = std::vector<std::string>{};
            for(const auto& name : missing)
                reasons.push_back(unknown_name(name, target, sets, names));
            unresolved.insert(unresolved.end(), reasons.begin(), reasons.end());
            if(named_for[index].empty())
            {
                out.skipped.push_back(agent_label(target) +
                                      " not checked: " + joined(reasons, "; "));
                continue;
            }
            // The names given for this agent are checked there; the others only where they exist.
            for(const auto& name : missing)
                check.requested.erase(
                    std::find(check.requested.begin(), check.requested.end(), name));
            out.skipped.push_back(joined(missing, " ") + " not checked on " + agent_label(target) +
                                  ": " + joined(reasons, "; "));
        }
        out.checks.push_back(std::move(check));
    }
    if(!out.errors.empty() || out.checks.empty())
    {
        // No agent named, and none has every name: the reasons are the errors.
        if(out.errors.empty()) out.errors = unresolved;
        out.skipped.clear();
        out.exit_code = exit_unknown_counter;
        out.checks.clear();
        return out;
    }
    for(auto& check : out.checks)
    {
        decide(check, configure);
        annotate(check, sets);
        if(check.answer != verdict::one_pass) out.exit_code = exit_needs_passes;
    }
    return out;
}
} // namespace rocprofv3_avail
