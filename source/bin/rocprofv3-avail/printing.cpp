#include "printing.hpp"
#include "exit_codes.hpp"

#include "untrusted/printable.hpp"

#include <algorithm>
#include <iomanip>
#include <set>
#include <sstream>

namespace rocprofv3_avail
{
namespace
{
std::string
shown(const std::string& text)
{
    return rocprofiler::untrusted::printable(text);
}

// "key<padding>:\tvalue" with the key padded to @p width, as AMD's blocks are.
std::string
field(const std::string& key, const std::string& value, int width = 30, const char* sep = ":\t")
{
    auto line = std::ostringstream{};
    line << std::left << std::setw(width) << key << sep << value << "\n";
    return line.str();
}

// The agents -d/--device selects (all GPU agents without it); an unknown index is an error.
bool
selected(const request& req, const context& ctx, std::vector<const agent*>& out, std::ostream& err)
{
    if(req.device)
    {
        const auto* a = find_agent(ctx.inv, *req.device);
        if(a == nullptr)
        {
            print_error(err, unknown_agent(ctx.inv, *req.device));
            return false;
        }
        out.push_back(a);
        return true;
    }
    for(const auto& a : ctx.inv.gpus)
        out.push_back(&a);
    if(out.empty())
    {
        print_error(err, "the SDK reports no GPU agent on this machine");
        return false;
    }
    return true;
}

// The agent's counter names in columns, each padded to the longest (AMD's layout).
void
counter_columns(const agent& a, size_t width, std::ostream& out)
{
    out << field("PMC", "", 30, ":") << "\n";
    if(a.counters_error)
    {
        out << "none: the agent lists no counters (" << shown(*a.counters_error) << ")\n";
        return;
    }
    size_t longest = 0;
    for(const auto& c : a.counters)
        longest = std::max(longest, shown(c.name).size());
    const auto columns = std::max<size_t>(1, width / (longest + 1));
    for(size_t i = 0; i < a.counters.size(); ++i)
    {
        const auto name = shown(a.counters[i].name);
        const bool last = (i + 1) % columns == 0 || i + 1 == a.counters.size();
        out << name;
        if(last)
            out << "\n";
        else
            out << std::string(longest - name.size() + 1, ' ');
    }
}

void
agent_properties(const agent& a, std::ostream& out)
{
    out << "GPU:" << a.index << "\n\n";
    for(const auto& [key, value] : a.properties)
        out << field(key, shown(value));
}

void
metric_sets_of(const agent& a, const metric_sets::catalog& sets, std::ostream& out)
{
    auto has  = [&a](const std::string& n) { return a.find(n) != nullptr; };
    auto join = [](const std::vector<std::string>& items, const char* separator = " ")
    {
        auto s = std::string{};
        for(const auto& item : items)
            s += (s.empty() ? "" : separator) + item;
        return s;
    };
    out << field("GPU", std::to_string(a.index)) << field("Name", shown(a.name))
        << field("Metric sets", "", 30, ":") << "\n";
    auto any = false;
    for(const auto& name : metric_sets::names(sets))
    {
        const auto* set = metric_sets::find(sets, name, a.name);
        if(set == nullptr) continue;
        any = true;
        if(has(name))
            out << shown(name) << "\tnot used on this agent: a counter has its name\n";
        else if(auto lacks = metric_sets::missing(*set, has); !lacks.empty())
            out << shown(name) << "\tnot available on this agent: it lacks "
                << shown(join(lacks, ", ")) << "\n";
        else
            out << shown(name) << "\t" << shown(set->description) << "\n    "
                << shown(join(set->metrics)) << "\n";
    }
    if(!any) out << "none defined for this agent\n";
}

std::string
passes_alone(const agent& a, const counter& c, const configure_fn& configure)
{
    if(!configure) return "";
    const auto answer = configure(a, {c.id});
    if(!answer.created) return "cannot be configured by itself (" + answer.status + ")";
    return std::to_string(answer.passes) + (answer.passes == 1 ? "" : " (even by itself)");
}

void
counter_details(const agent& a, const counter& c, const context& ctx, std::ostream& out)
{
    out << field("counter_name", shown(c.name), 20, ": ")
        << field("description", shown(c.description), 20, ": ");
    if(c.is_derived)
        out << field("expression", shown(c.expression), 20, ": ");
    else
        out << field("block", shown(c.block), 20, ": ");
    if(c.is_amd_equivalent())
        if(const auto* e = amd_names::find(ctx.names, c.name))
            if(auto def = e->mapped.find(a.name); def != e->mapped.end())
                out << field("amd_equivalent",
                             "measured as " + shown(def->second.expression) +
                                 ", not AMD's counter itself" +
                                 (def->second.notes.empty() ? "" : ": " + shown(def->second.notes)),
                             20,
                             ": ");
    for(const auto& d : c.dimensions)
        out << field("dimension_name", shown(d.name), 20, ": ")
            << field(
                   "dimension_instances",
                   "[0:" + (d.instances == 0 ? std::string{"-"} : std::to_string(d.instances - 1)) +
                       "] (" + std::to_string(d.instances) +
                       (d.instances == 1 ? " instance)" : " instances)"),
                   20,
                   ": ");
    if(auto passes = passes_alone(a, c, ctx.configure); !passes.empty())
        out << field("passes", passes, 20, ": ");
    out << "\n";
}

// info --pmc: every counter of each agent, or the named ones (a name no selected agent has is an
// error; one that some of them lack is shown where it exists).
int
info_pmc(const request& req, const context& ctx, std::ostream& out, std::ostream& err)
{
    auto agents = std::vector<const agent*>{};
    if(!selected(req, ctx, agents, err)) return exit_unknown_agent;
    const auto& wanted = *req.info_pmc;
    for(const auto& name : wanted)
    {
        if(std::any_of(agents.begin(),
                       agents.end(),
                       [&](const agent* a) { return a->find(name) != nullptr; }))
            continue;
        for(const auto* a : agents)
            print_error(err, unknown_name(name, *a, ctx.sets, ctx.names));
        return exit_unknown_counter;
    }
    for(const auto* a : agents)
    {
        out << "GPU:" << a->index << "\nName:" << shown(a->name) << "\n\n";
        if(a->counters_error)
            out << "no counters: the agent lists none (" << shown(*a->counters_error) << ")\n\n";
        if(wanted.empty())
            for(const auto& c : a->counters)
                counter_details(*a, c, ctx, out);
        for(const auto& name : wanted)
            if(const auto* c = a->find(name)) counter_details(*a, *c, ctx, out);
    }
    return exit_ok;
}

void
pc_sampling_configs(const agent& a, std::ostream& out)
{
    out << field("GPU", std::to_string(a.index), 8) << field("Name", shown(a.name), 8);
    if(a.pc_sampling_error)
    {
        out << field("configs", "cannot be asked (" + shown(*a.pc_sampling_error) + ")", 8, ":")
            << "\n";
        return;
    }
    if(a.pc_sampling.empty())
    {
        out << field("configs", "none (the agent offers no PC sampling)", 8, ":") << "\n";
        return;
    }
    out << field("configs", "", 8, ":");
    for(const auto& c : a.pc_sampling)
        out << "   " << field("method", c.method, 20, ":") << "   "
            << field("unit", c.unit, 20, ":") << "   "
            << field("min_interval", std::to_string(c.min_interval), 20, ":") << "   "
            << field("max_interval", std::to_string(c.max_interval), 20, ":") << "   "
            << field("flags", c.interval_pow2 ? "interval pow2" : "none", 20, ":") << "\n";
    out << "\n";
}
} // namespace

void
print_error(std::ostream& err, const std::string& message)
{
    err << "rocprofv3-avail: error: " << shown(message) << "\n";
}

int
print_list(const request& req, const context& ctx, std::ostream& out, std::ostream& err)
{
    auto agents = std::vector<const agent*>{};
    if(!selected(req, ctx, agents, err)) return exit_unknown_agent;
    const bool counters =
        req.list_pmc || !(req.list_agent || req.list_pc_sampling || req.list_sets);
    if(req.list_agent)
        for(const auto* a : agents)
        {
            agent_properties(*a, out);
            out << "\n";
        }
    if(counters)
        for(const auto* a : agents)
        {
            out << field("GPU", std::to_string(a->index)) << field("Name", shown(a->name));
            counter_columns(*a, ctx.width, out);
            out << "\n";
        }
    if(req.list_pc_sampling)
    {
        out << "Agents supporting PC Sampling\n\n";
        for(const auto* a : agents)
            if(!a->pc_sampling.empty())
                out << field("GPU", std::to_string(a->index), 8) << field("Name", shown(a->name), 8)
                    << "\n";
    }
    if(req.list_sets)
        for(const auto* a : agents)
        {
            metric_sets_of(*a, ctx.sets, out);
            out << "\n";
        }
    return exit_ok;
}

int
print_info(const request& req, const context& ctx, std::ostream& out, std::ostream& err)
{
    if(!req.info_pmc && !req.info_pc_sampling)
    {
        auto agents = std::vector<const agent*>{};
        if(!selected(req, ctx, agents, err)) return exit_unknown_agent;
        for(const auto* a : agents)
        {
            agent_properties(*a, out);
            counter_columns(*a, ctx.width, out);
            out << "\n";
        }
        return exit_ok;
    }
    if(req.info_pmc)
        if(auto rc = info_pmc(req, ctx, out, err); rc != exit_ok) return rc;
    if(req.info_pc_sampling)
    {
        auto agents = std::vector<const agent*>{};
        if(!selected(req, ctx, agents, err)) return exit_unknown_agent;
        for(const auto* a : agents)
            pc_sampling_configs(*a, out);
    }
    return exit_ok;
}

int
print_pmc_check(const check_result& result, std::ostream& out, std::ostream& err)
{
    for(const auto& line : result.errors)
        print_error(err, line);
    if(!result.errors.empty()) return result.exit_code;
    auto names = [](const std::vector<std::string>& list, const char* separator)
    {
        auto s = std::string{};
        for(const auto& n : list)
            s += separator + shown(n);
        return s;
    };
    for(const auto& check : result.checks)
    {
        const auto gpu   = "GPU:" + std::to_string(check.target->index);
        const auto label = agent_label(*check.target);
        switch(check.answer)
        {
        case verdict::one_pass:
            out << "Following input counters can be collected together on " << gpu
                << names(check.requested, "\t") << "\n";
            break;
        case verdict::several_passes:
            out << "Following input counters cannot be collected together in one pass on " << gpu
                << names(check.requested, "\t") << "\n"
                << "  " << shown(label) << ": they take " << check.passes << " passes";
            if(check.scheduled_by_sdk)
                out << " (one configuration of them: the agent schedules the passes)\n";
            else
            {
                out << " (" << shown(check.status) << " for all of them in one):\n";
                for(const auto& group : check.split)
                    out << "    --pmc" << names(group, " ") << "\n";
            }
            for(const auto& [name, passes] : check.multi_pass)
                out << "  " << shown(name) << " takes " << passes << " passes even by itself\n";
            break;
        case verdict::cannot_collect:
            out << "Following input counters cannot be collected on " << gpu
                << names(check.requested, "\t") << "\n"
                << "  " << shown(label) << ": no configuration of" << names(check.impossible, " ")
                << " by itself can be created (" << shown(check.status) << ")\n";
            break;
        }
        for(const auto& note : check.notes)
            out << "  note: " << shown(note) << "\n";
    }
    for(const auto& line : result.skipped)
        out << "note: " << shown(line) << "\n";
    return result.exit_code;
}
} // namespace rocprofv3_avail
