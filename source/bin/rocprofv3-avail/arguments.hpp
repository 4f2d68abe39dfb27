// rocprofv3-avail's command line, as AMD's rocprofv3-avail takes it:
//
//     rocprofv3-avail [-d N] list [--pmc [BOOL]] [--agent [BOOL]] [--pc-sampling [BOOL]]
//                                 [--sets [BOOL]]
//     rocprofv3-avail [-d N] info [--pmc [NAME ...]] [--pc-sampling]
//     rocprofv3-avail [-d N] pmc-check NAME[:device=N[,device=M...]] ...
//
// -d/--device is also taken after the command (AMD's documentation writes it there). --sets is
// this tool's (metric sets, docs/rocprofv3.md). Pure: no SDK, no output.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace rocprofv3_avail
{
enum class command
{
    help,
    list,
    info,
    pmc_check,
};

// One name of pmc-check, with the agents its ":device=" qualifier names (none: -d, else every GPU
// agent).
struct counter_request
{
    std::string      name    = {};
    std::vector<int> devices = {};
};

struct request
{
    command            what   = command::help;
    std::optional<int> device = {}; // -d/--device: logical_node_type_id of a GPU agent

    // list: nothing asked means --pmc.
    bool list_pmc         = false;
    bool list_agent       = false;
    bool list_pc_sampling = false;
    bool list_sets        = false;

    // info: neither asked means the agents' properties and their counters' names.
    std::optional<std::vector<std::string>> info_pmc         = {}; // empty: every counter
    bool                                    info_pc_sampling = false;

    std::vector<counter_request> pmc = {}; // pmc-check
};

struct usage_error
{
    std::string message = {};
};

// argv without the program name. An empty command line asks for help, as AMD's does.
std::variant<request, usage_error> parse_arguments(const std::vector<std::string>& args);

// The help text.
std::string usage();

// AMD's truth values (y, yes, t, true, on, 1 / n, no, f, false, off, 0; any case).
std::optional<bool> truth_value(const std::string& text);
} // namespace rocprofv3_avail
