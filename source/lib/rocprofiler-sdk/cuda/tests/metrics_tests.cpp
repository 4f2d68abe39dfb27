// CPU tests of the CUDA metrics layer: CUPTI's profiler host API works from a chip name alone, so
// the metric list, pass counts and error messages are checked here without a GPU (GH100 is the
// H100/H200 chip). Skipped when libcupti cannot be loaded, except the tests that install a
// hand-written CUPTI table.
#include "cuda/counters/counter_schedule.hpp"
#include "cuda/counters/metric_registry.hpp"
#include "cuda/cupti/cupti_errors.hpp"
#include "cuda/cupti/cupti_loader.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace metrics = rocprofiler::cuda::metrics;

namespace
{
bool
have_cupti()
{
    return rocprofiler::cuda::cupti_library() != nullptr;
}

// Plain counters (no ratios or throughputs), each collectable in one pass by itself, that CUPTI
// schedules over exactly 8 passes on GH100: the metrics of benchmark/cuda/counters.
const std::vector<std::string>&
eight_pass_set()
{
    static const auto names =
        std::vector<std::string>{"sm__cycles_elapsed.avg",
                                 "smsp__inst_executed.sum",
                                 "dram__bytes_read.sum",
                                 "dram__bytes_write.sum",
                                 "l1tex__t_bytes.sum",
                                 "lts__t_bytes.sum",
                                 "smsp__warps_launched.sum",
                                 "sm__warps_active.avg",
                                 "smsp__inst_executed_pipe_fma.sum",
                                 "smsp__inst_executed_pipe_alu.sum",
                                 "smsp__inst_executed_pipe_lsu.sum",
                                 "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
                                 "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
                                 "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
                                 "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                 "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                                 "lts__t_sectors_op_read.sum",
                                 "lts__t_sectors_op_write.sum",
                                 "l1tex__data_bank_conflicts_pipe_lsu_mem_gds.sum",
                                 "l1tex__data_bank_conflicts_pipe_lsu_mem_gds_op_atom.sum",
                                 "l1tex__data_bank_conflicts_pipe_lsu_mem_gds_op_ld.sum",
                                 "l1tex__data_bank_conflicts_pipe_lsu_mem_gds_op_red.sum",
                                 "l1tex__data_bank_conflicts_pipe_lsu_mem_gds_op_st.sum",
                                 "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
                                 "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum",
                                 "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum",
                                 "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                                 "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
                                 "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_misc.sum",
                                 "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
                                 "l1tex__data_bank_conflicts_type_arbitration.sum",
                                 "l1tex__data_bank_reads.sum",
                                 "l1tex__data_bank_writes.sum",
                                 "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"};
    return names;
}
} // namespace

TEST(cuda_metrics, lists_the_chip_metrics_with_descriptions_and_units)
{
    if(!have_cupti()) GTEST_SKIP() << "libcupti not found";
    const auto list = metrics::chip_metrics("GH100");
    ASSERT_GT(list.size(), 10000u);
    auto find = [&list](const std::string& name)
    {
        return std::find_if(
            list.begin(), list.end(), [&name](const auto& spec) { return spec.name == name; });
    };
    for(const auto* name : {"smsp__inst_executed.sum",
                            "smsp__warps_launched.sum",
                            "sm__cycles_elapsed.avg",
                            "dram__bytes_read.sum",
                            "gpu__time_duration.sum",
                            "lts__t_sector_hit_rate.pct",
                            "sm__throughput.avg.pct_of_peak_sustained_elapsed"})
        EXPECT_NE(find(name), list.end()) << name;
    auto dram = find("dram__bytes_read.sum");
    ASSERT_NE(dram, list.end());
    EXPECT_EQ(dram->block, "dram");
    EXPECT_NE(dram->description.find("DRAM"), std::string::npos) << dram->description;
    EXPECT_FALSE(dram->is_derived);
    auto ratio = find("lts__t_sector_hit_rate.pct");
    ASSERT_NE(ratio, list.end());
    EXPECT_TRUE(ratio->is_derived);
    for(const auto& spec : list)
    {
        // CUPTI's dotted triage names are not collectable by name and are left out.
        ASSERT_EQ(spec.name.find('.'),
                  spec.name.find("__") == std::string::npos
                      ? std::string::npos
                      : spec.name.find('.', spec.name.find("__")))
            << spec.name;
        ASSERT_FALSE(spec.name.empty());
    }
}

TEST(cuda_metrics, pass_counts_come_from_cupti_scheduling)
{
    if(!have_cupti()) GTEST_SKIP() << "libcupti not found";
    auto error = std::string{};
    EXPECT_EQ(metrics::pass_count("GH100", {"smsp__inst_executed.sum"}, &error), 1u) << error;
    EXPECT_EQ(metrics::pass_count(
                  "GH100", {"smsp__inst_executed.sum", "smsp__warps_launched.sum"}, &error),
              1u)
        << error;
    const auto many = metrics::pass_count("GH100", eight_pass_set(), &error);
    EXPECT_GE(many, 8u) << error;
    // Adding metrics never lowers the count.
    auto fewer = eight_pass_set();
    fewer.resize(fewer.size() / 2);
    EXPECT_LE(metrics::pass_count("GH100", fewer, &error), many);
    // Some throughputs need several passes by themselves: no one-pass configuration holds them.
    EXPECT_GT(
        metrics::pass_count("GH100", {"sm__throughput.avg.pct_of_peak_sustained_elapsed"}, &error),
        1u);
}

TEST(cuda_metrics, unknown_metrics_and_chips_are_errors_with_a_reason)
{
    if(!have_cupti()) GTEST_SKIP() << "libcupti not found";
    auto error = std::string{};
    EXPECT_EQ(metrics::pass_count("GH100", {"no__such_metric.sum"}, &error), 0u);
    EXPECT_NE(error.find("cuptiProfilerHostConfigAddMetrics"), std::string::npos) << error;
    error.clear();
    EXPECT_EQ(metrics::pass_count("NOT_A_CHIP", {"smsp__inst_executed.sum"}, &error), 0u);
    EXPECT_FALSE(error.empty());
    EXPECT_TRUE(metrics::chip_metrics("NOT_A_CHIP").empty());
}

TEST(cuda_metrics, failures_are_explained)
{
    auto perm = metrics::explain("cuptiRangeProfilerEnable", CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
    EXPECT_NE(perm.find("ERR_NVGPUCTRPERM"), std::string::npos) << perm;
    EXPECT_NE(perm.find("cuptiRangeProfilerEnable"), std::string::npos) << perm;
    auto busy = metrics::explain("cuptiRangeProfilerEnable",
                                 CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
    EXPECT_NE(busy.find("another profiler"), std::string::npos) << busy;
    auto name =
        metrics::explain("cuptiProfilerHostConfigAddMetrics", CUPTI_ERROR_INVALID_METRIC_NAME);
    EXPECT_NE(name.find("rocprofv3 -L"), std::string::npos) << name;
    auto other = metrics::explain("cuptiRangeProfilerStart", CUPTI_ERROR_UNKNOWN);
    EXPECT_EQ(other.find("another profiler"), std::string::npos) << other;
    EXPECT_NE(other.find("cuptiRangeProfilerStart failed"), std::string::npos) << other;
}

TEST(cuda_metrics, a_per_device_filter_keeps_only_matching_metrics_of_that_device)
{
    if(!have_cupti()) GTEST_SKIP() << "libcupti not found";
    const auto all = metrics::chip_metrics("GH100");
    ASSERT_FALSE(all.empty());
    ::unsetenv("ROCPROFILER_CUDA_METRIC_FILTER_DEVICE0");
    ::unsetenv("ROCPROFILER_CUDA_METRIC_FILTER_DEVICE1");
    ::setenv("ROCPROFILER_CUDA_METRIC_FILTER_DEVICE1", "^(?!smsp__warps_launched)", 1);
    EXPECT_EQ(metrics::filter_for_device(all, 0).size(), all.size()); // device 0: no filter
    const auto dev1 = metrics::filter_for_device(all, 1);
    EXPECT_LT(dev1.size(), all.size());
    auto has = [](const std::vector<rocprofiler::counters::counter_spec>& list, const char* name)
    {
        return std::any_of(
            list.begin(), list.end(), [name](const auto& spec) { return spec.name == name; });
    };
    EXPECT_FALSE(has(dev1, "smsp__warps_launched.sum"));
    EXPECT_TRUE(has(dev1, "smsp__inst_executed.sum"));
    // Not a regular expression: logged, and nothing is filtered out.
    ::setenv("ROCPROFILER_CUDA_METRIC_FILTER_DEVICE2", "([", 1);
    EXPECT_EQ(metrics::filter_for_device(all, 2).size(), all.size());
    ::unsetenv("ROCPROFILER_CUDA_METRIC_FILTER_DEVICE1");
    ::unsetenv("ROCPROFILER_CUDA_METRIC_FILTER_DEVICE2");
}

TEST(cuda_metrics, the_dispatch_schedule_measures_the_union_of_the_agents_configurations)
{
    namespace counters = rocprofiler::counters;
    auto def           = [](uint64_t id, const char* name)
    {
        auto d      = counters::counter_definition{};
        d.id.handle = id;
        d.spec.name = name;
        return d;
    };
    const auto inst  = def(1, "smsp__inst_executed.sum");
    const auto warps = def(2, "smsp__warps_launched.sum");
    const auto dram  = def(3, "dram__bytes_read.sum");
    const auto cyc   = def(4, "sm__cycles_elapsed.avg");
    auto       g0    = std::make_shared<counters::config>();
    g0->counters     = {&inst, &warps};
    auto g1          = std::make_shared<counters::config>();
    g1->counters     = {&dram, &warps};
    auto request     = rocprofiler::dispatch::execution_request{};
    request.counters = {&cyc};

    const auto names = metrics::union_names({g0, g1}, request);
    // Sorted, each name once, the request's own counters included.
    EXPECT_EQ(names,
              (std::vector<std::string>{"dram__bytes_read.sum",
                                        "sm__cycles_elapsed.avg",
                                        "smsp__inst_executed.sum",
                                        "smsp__warps_launched.sum"}));
    EXPECT_TRUE(metrics::covers(names, {"smsp__warps_launched.sum", "dram__bytes_read.sum"}));
    EXPECT_TRUE(metrics::covers(names, {}));
    EXPECT_FALSE(metrics::covers(names, {"smsp__warps_launched.sum", "lts__t_bytes.sum"}));
    EXPECT_FALSE(metrics::covers({}, {"dram__bytes_read.sum"}));
}

TEST(cuda_metrics, the_union_of_the_benchmark_groups_is_one_cupti_cycle_of_as_many_passes)
{
    // The 34 counters of benchmark/cuda/counters are 8 one-pass groups for rocprofv3, and CUPTI
    // schedules their union over 8 passes on GH100: one replay cycle per dispatch, no more passes
    // than the dispatch has.
    if(!have_cupti()) GTEST_SKIP() << "libcupti not found";
    auto error = std::string{};
    EXPECT_EQ(metrics::pass_count("GH100", eight_pass_set(), &error), 8u) << error;
}

namespace
{
// A profiler table of hand-written functions: a 3-byte configuration image of 3 passes, host
// objects counted.
int fake_host_objects = 0;

rocprofiler::cuda::cupti_profiler_table
fake_profiler_table()
{
    auto t                 = rocprofiler::cuda::cupti_profiler_table{};
    t.cuptiGetResultString = [](CUptiResult, const char** text)
    {
        *text = "fake CUPTI result";
        return CUPTI_SUCCESS;
    };
    t.cuptiProfilerHostInitialize = [](CUpti_Profiler_Host_Initialize_Params* p)
    {
        ++fake_host_objects;
        p->pHostObject = reinterpret_cast<CUpti_Profiler_Host_Object*>(&fake_host_objects);
        return CUPTI_SUCCESS;
    };
    t.cuptiProfilerHostDeinitialize = [](CUpti_Profiler_Host_Deinitialize_Params*)
    {
        --fake_host_objects;
        return CUPTI_SUCCESS;
    };
    t.cuptiProfilerHostConfigAddMetrics = [](CUpti_Profiler_Host_ConfigAddMetrics_Params*)
    { return CUPTI_SUCCESS; };
    t.cuptiProfilerHostGetConfigImageSize = [](CUpti_Profiler_Host_GetConfigImageSize_Params* p)
    {
        p->configImageSize = 3;
        return CUPTI_SUCCESS;
    };
    t.cuptiProfilerHostGetConfigImage = [](CUpti_Profiler_Host_GetConfigImage_Params* p)
    {
        p->pConfigImage[0] = 0;
        return CUPTI_SUCCESS;
    };
    // As many passes as the image has bytes.
    t.cuptiProfilerHostGetNumOfPasses = [](CUpti_Profiler_Host_GetNumOfPasses_Params* p)
    {
        p->numOfPasses = p->configImageSize;
        return CUPTI_SUCCESS;
    };
    return t;
}

// Installs a table for one test.
class installed_table
{
public:
    explicit installed_table(const rocprofiler::cuda::cupti_profiler_table& t)
    {
        rocprofiler::cuda::use_profiler_table(&t);
    }
    ~installed_table() { rocprofiler::cuda::use_profiler_table(nullptr); }

    installed_table(const installed_table&)            = delete;
    installed_table& operator=(const installed_table&) = delete;
};
} // namespace

TEST(cuda_metrics_injected_cupti, pass_count_runs_on_a_hand_written_table)
{
    const auto table   = fake_profiler_table();
    auto       install = installed_table{table};
    auto       error   = std::string{};
    EXPECT_EQ(metrics::pass_count("ANY_CHIP", {"a.sum", "b.sum"}, &error), 3u) << error;
    EXPECT_TRUE(error.empty());
    EXPECT_EQ(fake_host_objects, 0); // the host object is released
}

TEST(cuda_metrics_injected_cupti, a_failing_call_is_explained_with_cuptis_text)
{
    auto table                              = fake_profiler_table();
    table.cuptiProfilerHostConfigAddMetrics = [](CUpti_Profiler_Host_ConfigAddMetrics_Params*)
    { return CUPTI_ERROR_INVALID_METRIC_NAME; };
    auto install = installed_table{table};
    auto error   = std::string{};
    EXPECT_EQ(metrics::pass_count("ANY_CHIP", {"no__such_metric.sum"}, &error), 0u);
    EXPECT_NE(error.find("rocprofv3 -L"), std::string::npos) << error;
    EXPECT_NE(error.find("fake CUPTI result"), std::string::npos) << error;
    EXPECT_EQ(fake_host_objects, 0);
}

TEST(cuda_metrics_injected_cupti, an_unusable_table_gives_no_passes_and_its_reason)
{
    auto table   = rocprofiler::cuda::cupti_profiler_table{};
    table.error  = "no CUPTI here";
    auto install = installed_table{table};
    auto error   = std::string{};
    EXPECT_EQ(metrics::pass_count("ANY_CHIP", {"a.sum"}, &error), 0u);
    EXPECT_EQ(error, "no CUPTI here");
    EXPECT_TRUE(metrics::chip_metrics("ANY_CHIP").empty());
}

// Every metric of the shipped sm_90 metric sets and derived metrics is one GH100 lists, and CUPTI
// schedules each set (so `--pmc <set>` can be collected under kernel replay in that many passes).
TEST(cuda_metrics, the_shipped_sm_90_sets_and_derived_metrics_use_metrics_gh100_has)
{
    if(!have_cupti()) GTEST_SKIP() << "libcupti not found";
    auto in = std::ifstream{ROCPROFILER_TEST_METRICS_JSON};
    ASSERT_TRUE(in.good()) << ROCPROFILER_TEST_METRICS_JSON;
    const auto doc   = nlohmann::json::parse(in);
    auto       known = std::set<std::string>{};
    for(const auto& spec : metrics::chip_metrics("GH100"))
        known.insert(spec.name);
    ASSERT_GT(known.size(), 10000u);
    auto for_sm_90 = [](const nlohmann::json& entry)
    {
        if(!entry.contains("agents")) return false;
        for(const auto& a : entry.at("agents"))
            if(a.get<std::string>() == "sm_90") return true;
        return false;
    };
    auto sets = 0;
    for(const auto& set : doc.at("sets"))
    {
        if(!for_sm_90(set)) continue;
        ++sets;
        auto names = set.at("metrics").get<std::vector<std::string>>();
        for(const auto& name : names)
            EXPECT_EQ(known.count(name), 1u) << set.at("name") << ": " << name;
        auto error  = std::string{};
        auto passes = metrics::pass_count("GH100", names, &error);
        EXPECT_GE(passes, 1u) << set.at("name") << ": " << error;
        std::printf("set %s: %zu metrics, %u CUPTI passes on GH100\n",
                    set.at("name").get<std::string>().c_str(),
                    names.size(),
                    passes);
    }
    EXPECT_GE(sets, 5);
    // A derived metric's names: what its expression names, less the functions min and max and
    // the other derived metrics.
    auto derived = std::set<std::string>{};
    for(const auto& d : doc.at("derived"))
        derived.insert(d.at("name").get<std::string>());
    const auto word = std::regex{"[A-Za-z_][A-Za-z0-9_.]*"};
    for(const auto& d : doc.at("derived"))
    {
        if(!for_sm_90(d)) continue;
        const auto text = d.at("expression").get<std::string>();
        for(auto it = std::sregex_iterator{text.begin(), text.end(), word};
            it != std::sregex_iterator{};
            ++it)
        {
            const auto name = it->str();
            if(name == "min" || name == "max" || derived.count(name) != 0) continue;
            EXPECT_EQ(known.count(name), 1u) << d.at("name") << ": " << name;
        }
    }
}

// Every metric the registry lists for GH100 is one CUPTI's host API accepts and schedules by
// itself: a tool that picks any listed name gets a configuration CUPTI can program. (What the host
// API cannot see offline is a device's counter availability: docs/cuda.md, "Counters".)
TEST(cuda_metrics, every_metric_listed_for_gh100_is_accepted_by_cuptis_host_api)
{
    if(!have_cupti()) GTEST_SKIP() << "libcupti not found";
    const auto list = metrics::chip_metrics("GH100");
    ASSERT_GT(list.size(), 10000u);
    auto rejected = std::map<std::string, std::string>{};
    for(const auto& spec : list)
    {
        auto error = std::string{};
        if(metrics::pass_count("GH100", {spec.name}, &error) == 0) rejected[spec.name] = error;
    }
    auto shown = std::string{};
    for(const auto& [name, error] : rejected)
        if(shown.size() < 2000) shown += name + ": " + error + "\n";
    EXPECT_TRUE(rejected.empty()) << rejected.size() << " of " << list.size()
                                  << " listed metrics are rejected:\n"
                                  << shown;
}
