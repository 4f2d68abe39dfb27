// What rocprofv3 completes after a process that never finalized (run_end.hpp).
#include "run_end.hpp"

#include "contract/report_line.hpp"

#include <gtest/gtest.h>

#include <algorithm>
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

// The tool's report lines carry any byte in a field: an output directory with a tab or a newline,
// a multi-line error. Before, a newline became a space and a tab split the field, so rocprofv3
// looked for a process's outputs in the wrong directory.
TEST(run_reports, fields_with_tabs_newlines_and_backslashes_come_back_unchanged)
{
    namespace contract = rocprofiler::tool::contract;
    const auto dir     = std::string{"/tmp/out\twith tab\nand newline\\n"};
    const auto message = std::string{"could not write 'a\tb':\nno space left\r"};
    auto       text    = contract::encode_report_line("init", 42, {dir, "run"}) + "\n" +
                contract::encode_report_line("error", 42, {message}) + "\n" +
                contract::encode_report_line("disabled", 43, {"bad\\value"}) + "\n";
    EXPECT_EQ(text.find('\r'), std::string::npos);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3);
    auto reports = rocprofv3::run_reports{};
    // Fed in two pieces, as a pipe may deliver them.
    reports.add(text.data(), 17);
    reports.add(text.data() + 17, text.size() - 17);
    ASSERT_EQ(reports.processes().count(42), 1u);
    EXPECT_EQ(reports.processes().at(42).directory, dir);
    EXPECT_EQ(reports.processes().at(42).prefix, "run");
    ASSERT_EQ(reports.errors().size(), 1u);
    EXPECT_EQ(reports.errors()[0], message);
    ASSERT_EQ(reports.disabled().size(), 1u);
    EXPECT_EQ(reports.disabled()[0], "process 43: bad\\value");
}

TEST(run_reports, a_line_cut_short_or_a_stray_backslash_decodes_without_loss)
{
    namespace contract = rocprofiler::tool::contract;
    EXPECT_EQ(contract::decode_report_line("error\t1\tends with \\"),
              (std::vector<std::string>{"error", "1", "ends with \\"}));
    EXPECT_EQ(contract::decode_report_line("error\t1\t\\q is kept"),
              (std::vector<std::string>{"error", "1", "\\q is kept"}));
    EXPECT_EQ(contract::decode_report_line("end\t7\texit"),
              (std::vector<std::string>{"end", "7", "exit"}));
}
