// One run of the application: the tool library preloaded with the run's environment, signals sent
// to rocprofv3 forwarded to it, and the tool's reports read when it has ended.
#pragma once

#include "agent_query.hpp"
#include "options.hpp"

#include <map>
#include <string>

namespace rocprofv3
{
// rocprofv3's own code when the application ran but writing its outputs failed at the end (disk
// full, the output directory removed during the run): the message names the file and the OS
// reason. Listed in docs/rocprofv3.md and --help.
constexpr int exit_output_at_end = 4;

// rocprofv3 ignores SIGXFSZ (its own writes past the file size limit fail with EFBIG and are
// reported); the application gets it back as rocprofv3 found it. Called once, first thing.
void ignore_sigxfsz();

// Empty when the application's command line and the environment of a run with @p env fit exec's
// limits (exec_limits.hpp); otherwise why not, naming the option. Checked before the first run.
std::string application_environment_error(const options&                            opts,
                                          const libraries&                          libs,
                                          const std::map<std::string, std::string>& env);

// Replaces rocprofv3 with the application, unprofiled: nothing preloaded, no variable of the tool
// set, SIGXFSZ as rocprofv3 found it; the application's exit code and signals are rocprofv3's.
// Returns only when exec fails: exit_not_found or exit_not_executable, with a message.
int exec_unprofiled(const options& opts);

// Runs the application once with @p env added; returns rocprofv3's exit code for that run.
int run_application(const options&                            opts,
                    const libraries&                          libs,
                    const std::map<std::string, std::string>& env);
} // namespace rocprofv3
