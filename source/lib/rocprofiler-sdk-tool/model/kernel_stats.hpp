// The accumulators of the model: kernel_stats.csv's per-kernel sums and the window of recent
// dispatch ids that tells a kernel-replay pass from the call it replays. Memory bounded by the
// number of kernels (and the window), not by the run; no I/O.
#pragma once

#include <rocprofiler-sdk/buffer_tracing.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace rocprofiler::tool
{
// Under kernel replay a dispatch has one record per pass with one dispatch id, and its passes
// complete one after another inside its replay window: this numbers the records of each of the
// last `window` dispatch ids seen (0 for a dispatch's first record, its pass 0), in memory that
// does not grow with the run.
class recent_dispatches
{
public:
    static constexpr size_t window = size_t{1} << 16U;

    // How many records of @p dispatch_id came before this one.
    uint64_t number(uint64_t dispatch_id);

private:
    std::unordered_map<uint64_t, uint64_t> m_seen = {};
    std::deque<uint64_t>                   m_fifo = {};
};

// kernel_stats.csv as dispatches arrive, in memory that does not grow with the run: one
// accumulator per kernel id (names are looked up when the table is made, so a name reported after
// the kernel's first dispatch is used). Under kernel replay the first record of a dispatch id
// stands for the call (pass 0, the execution the application asked for); the others are its
// replay passes (recent_dispatches).
class kernel_stats_accumulator
{
public:
    void add(const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r);

    struct per_kernel
    {
        uint64_t calls = 0, total = 0, min = UINT64_MAX, max = 0;
        double   sum_sq = 0.0;
    };
    const std::map<uint64_t, per_kernel>& kernels() const { return m_kernels; }

private:
    std::map<uint64_t, per_kernel> m_kernels = {};
    recent_dispatches              m_recent  = {};
};

// One row of kernel_stats.csv.
struct kernel_stat
{
    std::string name       = {};
    uint64_t    calls      = 0;
    uint64_t    total_ns   = 0;
    double      average_ns = 0.0;
    double      percentage = 0.0; // of the total duration of all kernels
    uint64_t    min_ns     = 0;
    uint64_t    max_ns     = 0;
    double      stddev_ns  = 0.0; // population standard deviation
};

// Per kernel name: the accumulator's kernel ids named by @p name_of ("kernel_<id>" for an empty
// name), merged by name.
std::map<std::string, kernel_stats_accumulator::per_kernel>
kernel_totals_by_name(const kernel_stats_accumulator&                    stats,
                      const std::function<const std::string&(uint64_t)>& name_of);

// kernel_totals_by_name's rows, sorted by total duration (largest first), ties by name.
std::vector<kernel_stat>
merge_kernel_stats(const kernel_stats_accumulator&                    stats,
                   const std::function<const std::string&(uint64_t)>& name_of);

// The -S/--summary table, for stderr.
std::string format_summary(const std::vector<kernel_stat>& stats);
} // namespace rocprofiler::tool
