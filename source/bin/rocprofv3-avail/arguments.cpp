#include "arguments.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>

namespace rocprofv3_avail
{
namespace
{
bool
is_option(const std::string& token)
{
    return token.size() > 1 && token[0] == '-';
}

std::optional<int>
device_index(const std::string& text)
{
    auto        value = 0;
    const auto* end   = text.data() + text.size();
    auto [ptr, ec]    = std::from_chars(text.data(), end, value);
    if(text.empty() || ec != std::errc{} || ptr != end || value < 0) return std::nullopt;
    return value;
}

// The value of an option written OPTION=VALUE, or nothing.
std::optional<std::string>
attached_value(const std::string& token, const std::string& option)
{
    if(token.size() > option.size() && token.compare(0, option.size(), option) == 0 &&
       token[option.size()] == '=')
        return token.substr(option.size() + 1);
    return std::nullopt;
}

// Walks the tokens; each step consumes one option (and its values) or one name.
class parser
{
public:
    explicit parser(const std::vector<std::string>& args)
        : m_args{args}
    {
    }

    std::variant<request, usage_error> run()
    {
        if(m_args.empty()) return m_out;
        while(m_pos < m_args.size() && !m_error)
        {
            const auto& token = m_args[m_pos++];
            if(token == "-h" || token == "--help")
            {
                m_out.what = command::help;
                return m_out;
            }
            if(device_option(token)) continue;
            if(!m_command)
                start(token);
            else if(token == "--" && m_out.what == command::pmc_check)
                m_names_only = true;
            else if(m_out.what == command::list)
                list_option(token);
            else if(m_out.what == command::info)
                info_option(token);
            else
                pmc_check_name(token);
        }
        if(m_error) return usage_error{*m_error};
        if(!m_command) return usage_error{"no command given (choose from list, info, pmc-check)"};
        if(m_out.what == command::pmc_check && m_out.pmc.empty())
            return usage_error{"pmc-check needs at least one counter name"};
        return m_out;
    }

private:
    void fail(std::string message)
    {
        if(!m_error) m_error = std::move(message);
    }

    // -d N, -dN, --device N, --device=N, before or after the command.
    bool device_option(const std::string& token)
    {
        if(m_names_only) return false;
        auto value = std::optional<std::string>{};
        if(token == "-d" || token == "--device")
        {
            if(m_pos >= m_args.size())
            {
                fail(token + " needs a GPU index");
                return true;
            }
            value = m_args[m_pos++];
        }
        else if(auto attached = attached_value(token, "--device"))
            value = attached;
        else if(token.size() > 2 && token.compare(0, 2, "-d") == 0)
            value = token.substr(2);
        else
            return false;
        auto index = device_index(*value);
        if(!index)
            fail("-d/--device takes a GPU index (0, 1, ...), not '" + *value + "'");
        else if(m_out.device && *m_out.device != *index)
            fail("-d/--device given twice (" + std::to_string(*m_out.device) + " and " +
                 std::to_string(*index) + ")");
        else
            m_out.device = index;
        return true;
    }

    void start(const std::string& token)
    {
        if(is_option(token))
            fail("unknown option '" + token + "' (before the command: -d/--device, -h/--help)");
        else if(token == "list")
            m_out.what = command::list;
        else if(token == "info")
            m_out.what = command::info;
        else if(token == "pmc-check")
            m_out.what = command::pmc_check;
        else
            fail("unknown command '" + token + "' (choose from list, info, pmc-check)");
        m_command = true;
    }

    // --flag, --flag=BOOL or --flag BOOL.
    void list_option(const std::string& token)
    {
        struct flag
        {
            const char* name;
            bool*       value;
        };
        const flag flags[] = {{"--pmc", &m_out.list_pmc},
                              {"--agent", &m_out.list_agent},
                              {"--pc-sampling", &m_out.list_pc_sampling},
                              {"--sets", &m_out.list_sets}};
        for(const auto& f : flags)
        {
            auto text = attached_value(token, f.name);
            if(token != f.name && !text) continue;
            if(!text && m_pos < m_args.size() && !is_option(m_args[m_pos])) text = m_args[m_pos++];
            if(!text)
            {
                *f.value = true;
                return;
            }
            if(auto value = truth_value(*text))
                *f.value = *value;
            else
                fail("list " + std::string{f.name} + " takes true or false (or nothing), not '" +
                     *text + "'");
            return;
        }
        if(is_option(token))
            fail("unknown option '" + token + "' for list (it takes --pmc, --agent, " +
                 "--pc-sampling, --sets)");
        else
            fail("unexpected argument '" + token + "' for list");
    }

    void info_option(const std::string& token)
    {
        if(token == "--pmc")
        {
            auto names = std::vector<std::string>{};
            while(m_pos < m_args.size() && !is_option(m_args[m_pos]))
                if(!split_names(m_args[m_pos++], names)) return;
            if(!m_out.info_pmc) m_out.info_pmc.emplace();
            m_out.info_pmc->insert(m_out.info_pmc->end(), names.begin(), names.end());
        }
        else if(auto attached = attached_value(token, "--pmc"))
        {
            auto names = std::vector<std::string>{};
            if(!split_names(*attached, names)) return;
            if(!m_out.info_pmc) m_out.info_pmc.emplace();
            m_out.info_pmc->insert(m_out.info_pmc->end(), names.begin(), names.end());
        }
        else if(token == "--pc-sampling")
        {
            m_out.info_pc_sampling = true;
            if(m_pos < m_args.size() && !is_option(m_args[m_pos]))
                fail("info --pc-sampling takes no value (it lists the configurations of every "
                     "agent), not '" +
                     m_args[m_pos] + "'");
        }
        else if(is_option(token))
            fail("unknown option '" + token + "' for info (it takes --pmc, --pc-sampling)");
        else
            fail("unexpected argument '" + token + "' for info (counter names follow --pmc)");
    }

    // "A,B" and "A B" are the same; an empty name is an error.
    bool split_names(const std::string& text, std::vector<std::string>& out)
    {
        size_t start = 0;
        for(;;)
        {
            auto comma = text.find(',', start);
            auto name  = text.substr(start, comma == std::string::npos ? comma : comma - start);
            if(name.empty())
            {
                fail("info --pmc: an empty counter name in '" + text + "'");
                return false;
            }
            out.push_back(name);
            if(comma == std::string::npos) return true;
            start = comma + 1;
        }
    }

    // NAME or NAME:device=N[,device=M...].
    void pmc_check_name(const std::string& token)
    {
        if(!m_names_only && is_option(token))
        {
            fail("unknown option '" + token + "' for pmc-check (it takes counter names and " +
                 "-d/--device)");
            return;
        }
        auto colon = token.find(':');
        auto entry = counter_request{token.substr(0, colon), {}};
        if(entry.name.empty())
        {
            fail("pmc-check: '" + token + "' names no counter");
            return;
        }
        if(colon != std::string::npos)
        {
            const auto qualifiers = token.substr(colon + 1);
            size_t     start      = 0;
            for(;;)
            {
                auto comma = qualifiers.find(',', start);
                auto item =
                    qualifiers.substr(start, comma == std::string::npos ? comma : comma - start);
                auto value = attached_value(item, "device");
                auto index = value ? device_index(*value) : std::nullopt;
                if(!index)
                {
                    fail("pmc-check: '" + token + "': expected NAME:device=N[,device=M...], " +
                         "not '" + item + "'");
                    return;
                }
                if(std::find(entry.devices.begin(), entry.devices.end(), *index) ==
                   entry.devices.end())
                    entry.devices.push_back(*index);
                if(comma == std::string::npos) break;
                start = comma + 1;
            }
        }
        m_out.pmc.push_back(std::move(entry));
    }

    const std::vector<std::string>& m_args;
    size_t                          m_pos        = 0;
    bool                            m_command    = false;
    bool                            m_names_only = false;
    request                         m_out        = {};
    std::optional<std::string>      m_error      = {};
};
} // namespace

std::optional<bool>
truth_value(const std::string& text)
{
    auto lower = text;
    std::transform(lower.begin(),
                   lower.end(),
                   lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for(const auto* yes : {"y", "yes", "t", "true", "on", "1"})
        if(lower == yes) return true;
    for(const auto* no : {"n", "no", "f", "false", "off", "0"})
        if(lower == no) return false;
    return std::nullopt;
}

std::variant<request, usage_error>
parse_arguments(const std::vector<std::string>& args)
{
    return parser{args}.run();
}

std::string
usage()
{
    return R"(usage: rocprofv3-avail [-d N] <command> [options]

What the agents of this machine offer: counters, metric sets, PC sampling, and whether a set of
counters is collected in one pass.

commands:
  list [--pmc] [--agent] [--pc-sampling] [--sets]
        the agents' counter names (--pmc, the default), their properties (--agent), the
        agents offering PC sampling (--pc-sampling), the metric sets of each agent (--sets);
        each flag also takes true or false (--pmc false, --agent=yes)
  info [--pmc [NAME ...]] [--pc-sampling]
        without options: each agent's properties and counter names; --pmc: every counter (or
        the named ones) with its description, block or expression, dimensions and the passes
        it takes by itself; --pc-sampling: each agent's PC sampling configurations
  pmc-check NAME[:device=N[,device=M]] ...
        whether the counters (or metric sets) are collected together in one pass of each agent
        they are checked on, how many passes they take otherwise, and how they split

options:
  -d N, --device N   only the GPU agent of index N (logical_node_type_id); before or after
                     the command
  -h, --help         this text

exit codes: 0 answered (pmc-check: every set fits in one pass), 1 usage error, 2 unknown
agent, 3 unknown counter or metric set, 4 pmc-check: a set needs several passes or cannot be
collected, 5 the SDK could not be asked
)";
}
} // namespace rocprofv3_avail
