// Nsight Compute's options on the capture side:
//   --target-processes application-only: only the process that loaded the tool first profiles
//     (its descendants find ROCPROF_TARGET_ROOT_PID set to another pid and leave the tool off);
//   --nvtx: the marker ranges open at each dispatch (this thread's push/pop stack, the process's
//     start/end ranges), decided once per dispatch on the submitting thread, when the dispatch is
//     first seen, and remembered by dispatch id so that every service and every replay pass of
//     the dispatch agree; the range filters choose which dispatches get counters and replay;
//   --print-summary: the per-gpu and per-nvtx tables (model/ncu_summary.hpp).
#include "capture/tool_state.hpp"
#include "contract/environment.hpp"
#include "log.hpp"
#include "model/ncu_summary.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>

namespace rocprofiler::tool
{
namespace
{
constexpr const char* root_pid_variable = "ROCPROF_TARGET_ROOT_PID";

// The first process that loads the tool under application-only marks itself the root, before
// main() runs, so that every process it starts inherits the mark.
__attribute__((constructor)) void
mark_root_process()
{
    const auto* mode = std::getenv(contract::target_processes);
    if(mode == nullptr || std::string{mode} != "application-only") return;
    if(std::getenv(root_pid_variable) != nullptr) return;
    setenv(root_pid_variable, std::to_string(getpid()).c_str(), 1);
}

// This thread's push/pop ranges, outermost first.
thread_local std::vector<std::string> pushed_ranges = {};

struct dispatch_ranges
{
    bool        profile = true;
    std::string context = {}; // nvtx::describe
};

// The process's start/end ranges and the decisions of the last `window` dispatch ids.
struct range_state
{
    static constexpr size_t window = size_t{1} << 16U;

    std::mutex                                    mutex     = {};
    std::map<uint64_t, std::string>               started   = {}; // by range id: start order
    std::unordered_map<uint64_t, dispatch_ranges> decisions = {};
    std::deque<uint64_t>                          order     = {};
    ncu_summary                                   summary   = {};
    uint64_t                                      selected  = 0; // dispatches the filters chose
    uint64_t                                      skipped   = 0; // and those they did not
};

range_state&
ranges()
{
    static auto* s = new range_state{}; // leaked: finalization may run from atexit handlers
    return *s;
}

// The decision of @p dispatch_id, made now (on the submitting thread) when first seen.
dispatch_ranges
decide(uint64_t dispatch_id)
{
    auto& s    = ranges();
    auto  lock = std::lock_guard{s.mutex};
    if(auto it = s.decisions.find(dispatch_id); it != s.decisions.end()) return it->second;
    auto open   = nvtx::open_ranges{};
    open.pushed = pushed_ranges;
    for(const auto& [id, name] : s.started)
        open.started.push_back(name);
    auto d    = dispatch_ranges{};
    d.profile = state->cfg.nvtx_filter.accept(open);
    d.context = nvtx::describe(open);
    ++(d.profile ? s.selected : s.skipped);
    s.decisions.emplace(dispatch_id, d);
    s.order.push_back(dispatch_id);
    if(s.order.size() > range_state::window)
    {
        s.decisions.erase(s.order.front());
        s.order.pop_front();
    }
    return d;
}
} // namespace

bool
target_process()
{
    const auto* mode = std::getenv(contract::target_processes);
    if(mode == nullptr || std::string{mode} != "application-only") return true;
    const auto* root = std::getenv(root_pid_variable);
    return root == nullptr || std::string{root} == std::to_string(getpid());
}

void
follow_marker_range(const rocprofiler_callback_tracing_record_t& record)
{
    if(!state->cfg.follows_ranges() || record.kind != ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API)
        return;
    const auto* data =
        static_cast<const rocprofiler_callback_tracing_marker_api_data_t*>(record.payload);
    const auto enter = record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER;
    const auto exit  = record.phase == ROCPROFILER_CALLBACK_PHASE_EXIT;
    switch(record.operation)
    {
    case ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA:
        if(exit)
            pushed_ranges.emplace_back(data->args.roctxRangePushA.message != nullptr
                                           ? data->args.roctxRangePushA.message
                                           : "");
        break;
    case ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop:
        if(enter && !pushed_ranges.empty()) pushed_ranges.pop_back();
        break;
    case ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStartA:
        if(exit)
        {
            auto& s    = ranges();
            auto  lock = std::lock_guard{s.mutex};
            s.started[data->retval.roctx_range_id_t_retval] =
                data->args.roctxRangeStartA.message != nullptr ? data->args.roctxRangeStartA.message
                                                               : "";
        }
        break;
    case ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStop:
        if(enter)
        {
            auto& s    = ranges();
            auto  lock = std::lock_guard{s.mutex};
            s.started.erase(data->args.roctxRangeStop.id);
        }
        break;
    default:
        break;
    }
}

bool
ranges_allow(const rocprofiler_kernel_dispatch_info_t& info)
{
    if(!state->cfg.follows_ranges()) return true;
    return decide(info.dispatch_id).profile;
}

void
summarize_dispatch(const rocprofiler_buffer_tracing_kernel_dispatch_record_t& record)
{
    if(state->cfg.print_summary.empty() || state->cfg.print_summary == "per-kernel") return;
    auto context = std::string{"(no range)"};
    if(state->cfg.follows_ranges()) context = decide(record.dispatch_info.dispatch_id).context;
    auto& s    = ranges();
    auto  lock = std::lock_guard{s.mutex};
    s.summary.add(record, context);
}

namespace
{
// What the range filters chose, said at the end: a warning when they chose no dispatch of a run
// that collects counters (nothing would otherwise tell why the counter file is empty).
void
report_range_filters()
{
    if(state->cfg.nvtx_filter.empty()) return;
    auto&      s    = ranges();
    auto       lock = std::lock_guard{s.mutex};
    const auto seen = s.selected + s.skipped;
    const auto line =
        "marker range filters (--nvtx-include, --nvtx-exclude): " + std::to_string(s.selected) +
        " of " + std::to_string(seen) + " dispatches selected for counters and kernel replay";
    if(s.selected == 0 && seen > 0 && state->cfg.counter_collection)
        log::warning(line + "; no counters were collected");
    else if(state->progress)
        log::info(line);
}
} // namespace

// Called with state->mutex held (the end of the run, session/outputs.cpp).
void
print_ncu_summary()
{
    report_range_filters();
    const auto& mode = state->cfg.print_summary;
    if(mode.empty()) return;
    auto table = std::string{};
    if(mode == "per-kernel")
        table = format_summary(compute_kernel_stats(state->data));
    else
    {
        auto names = std::map<uint64_t, std::string>{};
        for(const auto& a : state->data.agents)
        {
            // The Agent_Id column's label (a number under -A relative and absolute).
            auto label = memory_copy_agent(state->data, a.info.id);
            if(!label.empty() && label.find_first_not_of("0123456789") == std::string::npos)
                label = "Agent " + label;
            names[a.info.id.handle] =
                label + " (" + (a.product_name.empty() ? a.name : a.product_name) + ")";
        }
        auto& s    = ranges();
        auto  lock = std::lock_guard{s.mutex};
        table      = mode == "per-gpu"
                         ? s.summary.per_gpu(
                          [&](uint64_t id)
                          {
                              auto it = names.find(id);
                              return it != names.end() ? it->second : "agent " + std::to_string(id);
                          })
                         : s.summary.per_nvtx();
    }
    std::fputs(table.c_str(), stdout);
    std::fflush(stdout);
}
} // namespace rocprofiler::tool
