// rocprofv3-avail: what the agents of this machine offer (docs/rocprofv3-avail.md). It links the
// SDK and asks it through the public API, as any tool may without registering: agents, counters,
// PC sampling configurations, counter configurations. No runtime is started.
#include "arguments.hpp"
#include "exit_codes.hpp"
#include "inventory.hpp"
#include "pmc_check.hpp"
#include "printing.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <iostream>

namespace
{
using namespace rocprofv3_avail;

size_t
terminal_width()
{
    auto size = winsize{};
    if(isatty(STDOUT_FILENO) != 0 && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 &&
       size.ws_col > 0)
        return size.ws_col;
    return default_width;
}

int
run(const std::vector<std::string>& args)
{
    auto parsed = parse_arguments(args);
    if(const auto* bad = std::get_if<usage_error>(&parsed))
    {
        print_error(std::cerr, bad->message + " (rocprofv3-avail --help lists the commands)");
        return exit_usage;
    }
    const auto& req = std::get<request>(parsed);
    if(req.what == command::help)
    {
        std::cout << usage();
        return exit_ok;
    }

    // CUDA devices are agents even though this program never loads the driver itself, unless
    // the user said otherwise.
    setenv("ROCPROFILER_CUDA_AGENTS", "1", 0);

    auto error = std::string{};
    auto sets  = metric_sets::load(metric_sets::shipped_file(metric_sets::executable_path()),
                                  std::getenv(metric_sets::path_variable),
                                  error);
    if(!sets)
    {
        print_error(std::cerr, "metric sets: " + error);
        return exit_setup_error;
    }
    // An unreadable table of AMD's names only loses the reasons of names without an equivalent:
    // the SDK, which reads the same file, warns about it.
    auto names =
        amd_names::read_file(amd_names::shipped_file(metric_sets::executable_path()), error)
            .value_or(amd_names::table{});

    const auto inv = read_inventory();
    for(const auto& line : inv.errors)
        print_error(std::cerr, line);
    if(inv.gpus.empty() && !inv.errors.empty()) return exit_setup_error;

    const auto ctx = context{inv, *sets, names, configure, terminal_width()};
    switch(req.what)
    {
    case command::list:
        return print_list(req, ctx, std::cout, std::cerr);
    case command::info:
        return print_info(req, ctx, std::cout, std::cerr);
    case command::pmc_check:
        return print_pmc_check(
            check_counters(req, inv, *sets, names, configure), std::cout, std::cerr);
    case command::help:
        break;
    }
    return exit_ok;
}
} // namespace

int
main(int argc, char** argv)
{
    try
    {
        return run(std::vector<std::string>(argv + 1, argv + argc));
    }
    catch(const std::exception& e)
    {
        print_error(std::cerr, std::string{"unexpected failure: "} + e.what());
        return exit_setup_error;
    }
}
