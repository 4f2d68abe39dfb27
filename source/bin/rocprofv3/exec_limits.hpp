// What exec accepts of the application's command line and environment (Linux): each string at
// most MAX_ARG_STRLEN bytes with its terminating NUL, and all strings with their pointers within
// ARG_MAX. rocprofv3 checks the environment it builds against both before the run, so that a value
// too long is a usage error naming its option, never an exec failure blamed on the application.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace rocprofv3
{
// MAX_ARG_STRLEN: the longest argument or "NAME=value" string exec takes, its NUL included.
inline constexpr size_t max_exec_string_bytes = 131072;

// What the application's environment gets at exec time beyond what the options decide (the tool
// and SDK library paths, the report channel), kept free when the options are checked.
inline constexpr size_t exec_reserve_bytes = 16384;

// The option whose value becomes variable @p name of the application's environment
// ("--kernel-include-regex"), or a description when no single option does.
std::string option_of_variable(const std::string& name);

// Empty when the application's @p command and environment (@p inherited, NULL-terminated, with
// @p added set over it) fit exec's limits, @p arg_max (sysconf(_SC_ARG_MAX)) less @p reserve bytes
// in all; otherwise a sentence that names what does not fit, its option and the limit.
std::string exec_size_error(const std::vector<std::string>&           command,
                            const std::map<std::string, std::string>& added,
                            const char* const*                        inherited,
                            size_t                                    arg_max,
                            size_t                                    reserve);
} // namespace rocprofv3
