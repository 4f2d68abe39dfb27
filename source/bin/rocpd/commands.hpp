// The subcommands of `rocpd`, one file each. Each returns the process's exit status or throws a
// failure (errors.hpp).
#pragma once

#include "arguments.hpp"

namespace rocpd
{
int run_summary(const arguments& args); // summary.cpp
int run_query(const arguments& args);   // query.cpp
int run_merge(const arguments& args);   // merge.cpp
int run_convert(const arguments& args); // convert.cpp
int run_package(const arguments& args); // package.cpp
} // namespace rocpd
