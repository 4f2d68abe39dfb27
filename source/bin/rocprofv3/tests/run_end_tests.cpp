// What rocprofv3 completes after a process that never finalized (run_end.hpp).
#include "run_end.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

TEST(run_end, a_perfetto_packet_cut_short_is_removed)
{
    const auto dir = std::filesystem::path{testing::TempDir()} / "rocprofv3-run-end-pftrace";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    // Two whole packets (tag 0x0A, length, bytes; one with a two-byte length), then one cut short.
    auto whole = std::string{"\x0a\x03"
                             "abc"} +
                 "\x0a\x80\x01" + std::string(128, 'x');
    auto cut = std::string{"\x0a\x10"
                           "short"};
    {
        auto out = std::ofstream{dir / "run_results.pftrace", std::ios::binary};
        out << whole << cut;
    }
    {
        auto out = std::ofstream{dir / "run_kernel_trace.csv", std::ios::binary};
        out << "\"A\",\"B\"\n1,2\n3,";
    }
    auto errors  = std::vector<std::string>{};
    auto process = rocprofv3::profiled_process{dir.string(), "run", false};
    (void)rocprofv3::complete_outputs(7, process, "signal 9 (SIGKILL)", errors);
    EXPECT_TRUE(errors.empty()) << errors.front();
    EXPECT_EQ(std::filesystem::file_size(dir / "run_results.pftrace"), whole.size());
    EXPECT_EQ(std::filesystem::file_size(dir / "run_kernel_trace.csv"), 12u);
    // A complete trace is left as it is.
    (void)rocprofv3::complete_outputs(7, process, "signal 9 (SIGKILL)", errors);
    EXPECT_EQ(std::filesystem::file_size(dir / "run_results.pftrace"), whole.size());
    std::filesystem::remove_all(dir);
}
