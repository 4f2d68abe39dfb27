// The session's policies: the output prefix claim and the checkpoint pacing.
#include "scratch_dir.hpp"
#include "session/flusher.hpp"
#include "session/prefix_claim.hpp"
#include "session/prefix_lock.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

namespace
{
using namespace rocprofiler::tool;

TEST(prefix_claim, the_pid_prefix_is_never_claimed)
{
    auto dir             = rocprofv3_test::scratch_dir{"rocprofv3-claim-"};
    auto cfg             = config{};
    cfg.output_path      = dir.path.string();
    cfg.run_dir          = dir.path.string();
    cfg.output_file_name = "";
    EXPECT_EQ(claim_prefix(cfg, 1234), "");
    EXPECT_EQ(cfg.output_file_name, "");
}

TEST(prefix_claim, the_first_process_of_a_run_keeps_the_prefix_a_later_one_adds_its_pid)
{
    auto dir = rocprofv3_test::scratch_dir{"rocprofv3-claim-"};
    auto run = dir.path / "run";
    std::filesystem::create_directories(run);
    auto first             = config{};
    first.output_path      = (dir.path / "out").string();
    first.run_dir          = run.string();
    first.output_file_name = "trace";
    EXPECT_EQ(claim_prefix(first, 100), "");
    EXPECT_EQ(first.output_file_name, "trace");

    auto second             = first;
    second.output_file_name = "trace";
    const auto warning      = claim_prefix(second, 200);
    EXPECT_EQ(second.output_file_name, "trace.200");
    EXPECT_EQ(warning,
              "the files 'trace_*' in '" + first.output_path +
                  "' belong to another process of this run; this process (200) writes "
                  "'trace.200_*' instead");
    prefix_lock::release();
}

TEST(prefix_claim, without_a_run_directory_the_prefix_is_used_as_given)
{
    auto dir             = rocprofv3_test::scratch_dir{"rocprofv3-claim-"};
    auto cfg             = config{};
    cfg.output_path      = dir.path.string();
    cfg.output_file_name = "alone";
    EXPECT_EQ(claim_prefix(cfg, 300), "");
    EXPECT_EQ(cfg.output_file_name, "alone");
    EXPECT_TRUE(std::filesystem::exists(dir.path / "alone.lock"));
    prefix_lock::release();
}

TEST(checkpoint_pacing, at_most_every_second_or_twenty_times_the_last_checkpoint)
{
    using clock = checkpoint_pacing::clock;
    using std::chrono::milliseconds;
    auto pacing = checkpoint_pacing{};
    auto t0     = clock::now();
    EXPECT_TRUE(pacing.due(t0));
    pacing.done(t0, t0 + milliseconds{10}); // 10 ms: every 1 s
    EXPECT_EQ(pacing.every(), clock::duration{std::chrono::seconds{1}});
    EXPECT_FALSE(pacing.due(t0 + milliseconds{500}));
    EXPECT_TRUE(pacing.due(t0 + milliseconds{1010}));
    pacing.done(t0, t0 + milliseconds{100}); // 100 ms: every 2 s
    EXPECT_EQ(pacing.every(), clock::duration{milliseconds{2000}});
    EXPECT_FALSE(pacing.due(t0 + milliseconds{1500}));
    EXPECT_TRUE(pacing.due(t0 + milliseconds{2100}));
}

TEST(flusher, ticks_until_stopped)
{
    auto ticks = std::atomic<int>{0};
    auto f     = flusher{};
    f.start([&ticks] { ++ticks; }, std::chrono::milliseconds{1});
    while(ticks.load() < 3)
        std::this_thread::sleep_for(std::chrono::milliseconds{1});
    f.stop();
    const auto after = ticks.load();
    std::this_thread::sleep_for(std::chrono::milliseconds{20});
    EXPECT_EQ(ticks.load(), after);
}
} // namespace
