// What list, info and pmc-check print, in the forms of AMD's rocprofv3-avail (the key: value
// blocks, "GPU:0", the counter names in columns, "Following input counters can be collected
// together on GPU:0 ..."), with this tool's additions (passes, metric sets, the split of a set
// that does not fit). Text from the SDK and from metrics files is printed through
// untrusted::printable. Each returns the exit code (exit_codes.hpp).
#pragma once

#include "arguments.hpp"
#include "inventory.hpp"
#include "pmc_check.hpp"

#include <ostream>

namespace rocprofv3_avail
{
// The width the counter names are laid out in (AMD's: the terminal's, else 120).
inline constexpr size_t default_width = 120;

struct context
{
    const inventory&            inv;
    const metric_sets::catalog& sets;
    const amd_names::table&     names;
    configure_fn                configure = {};
    size_t                      width     = default_width;
};

int print_list(const request& req, const context& ctx, std::ostream& out, std::ostream& err);
int print_info(const request& req, const context& ctx, std::ostream& out, std::ostream& err);
int print_pmc_check(const check_result& result, std::ostream& out, std::ostream& err);

// "rocprofv3-avail: error: <message>" on @p err.
void print_error(std::ostream& err, const std::string& message);
} // namespace rocprofv3_avail
