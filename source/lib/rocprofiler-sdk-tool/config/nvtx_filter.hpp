// Marker range filters in Nsight Compute's forms (rocprofv3 --nvtx --nvtx-include/--nvtx-exclude,
// ROCPROF_NVTX_INCLUDE / ROCPROF_NVTX_EXCLUDE): which dispatches get counters and kernel replay,
// decided from the marker ranges open on the submitting thread when the dispatch is submitted.
//
// One filter is [regex:][<domain>@]<range>[/<range>...][/]:
//   "A/"        a push/pop range A (roctxRangePush / nvtxRangePush) open on the thread
//   "A/B/"      B pushed directly inside A; "A/*/B/": B inside A with any ranges in between
//   "A"         a start/end range A (roctxRangeStart / nvtxRangeStart) open in the process
//   "@A", "A"   the default domain; "D@A" names domain D
//   "regex:..." each name (domain, range) is a regular expression that matches anywhere in it
// A push/pop path matches anywhere in the thread's stack (not only at its bottom), and "*" matches
// any number of ranges, none included. A dispatch is profiled when it matches some include (or
// there is none) and no exclude.
//
// Markers carry no domain here (ROCTx has none, and the NVTX calls of the CUDA backend are
// recorded without theirs): every range is in the default domain, and a filter naming another
// domain could never match, so parse() reports it as unsupported. Pure: no SDK, no I/O.
#pragma once

#include "config/name_regex.hpp"

#include <optional>
#include <string>
#include <vector>

namespace rocprofiler::tool::nvtx
{
// The marker ranges open when a dispatch is submitted.
struct open_ranges
{
    std::vector<std::string> pushed  = {}; // this thread's push/pop stack, outermost first
    std::vector<std::string> started = {}; // the process's start/end ranges, in start order
};

struct filter_spec
{
    std::string              text     = {}; // as given
    bool                     push_pop = false;
    bool                     regex    = false;
    std::string              domain   = {}; // empty: the default domain
    std::vector<std::string> path     = {}; // push/pop: outermost first, "*" any; else one name
};

// Why @p text cannot be a filter, as a message: empty when it can (then @p out is set).
// @p unsupported tells a well-formed filter that cannot match here (a named domain) from a
// malformed one.
std::string parse(const std::string& text, filter_spec& out, bool* unsupported = nullptr);

class range_filter
{
public:
    range_filter() = default;

    // Compiles the filters; the first error as a message (the filter that has it) when one fails.
    static std::optional<range_filter> compile(const std::vector<std::string>& includes,
                                               const std::vector<std::string>& excludes,
                                               std::string&                    error);

    bool empty() const { return m_includes.empty() && m_excludes.empty(); }
    bool accept(const open_ranges& ranges) const;

private:
    struct compiled
    {
        filter_spec             spec    = {};
        std::vector<name_regex> regexes = {}; // one per path element (unused for "*")
    };
    static bool matches(const compiled& c, const open_ranges& ranges);

    std::vector<compiled> m_includes = {};
    std::vector<compiled> m_excludes = {};
};

// "A/B/" for a push/pop stack and " + S" for each start/end range: how --print-summary per-nvtx
// names the ranges a dispatch was submitted in; "(no range)" when none is open.
std::string describe(const open_ranges& ranges);
} // namespace rocprofiler::tool::nvtx
