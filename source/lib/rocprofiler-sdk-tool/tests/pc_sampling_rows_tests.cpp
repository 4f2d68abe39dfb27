// The PC sampling CSV files: header and rows of hand-built host-trap and stochastic records, the
// stochastic names through the SDK's own name functions (as the capture side sets them), and the
// csv sink streaming the method's file. The stochastic path is the CUDA agents' one: these tests
// prove its formatting without a GPU.
#include "csv/csv_sink.hpp"
#include "csv/rows.hpp"
#include "json/record_json.hpp"

#include "scratch_dir.hpp"

#include <rocprofiler-sdk/pc_sampling.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace
{
using namespace rocprofiler::tool;

std::string
read(const std::filesystem::path& path)
{
    auto in = std::ifstream{path, std::ios::binary};
    return {std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
}

// The SDK's name functions, as capture/pc_sampling.cpp hands them to the outputs.
results
with_sdk_names()
{
    auto data                     = results{};
    data.pc_instruction_type_name = [](uint32_t v)
    {
        return rocprofiler_get_pc_sampling_instruction_type_name(
            static_cast<rocprofiler_pc_sampling_instruction_type_t>(v));
    };
    data.pc_not_issued_reason_name = [](uint32_t v)
    {
        return rocprofiler_get_pc_sampling_instruction_not_issued_reason_name(
            static_cast<rocprofiler_pc_sampling_instruction_not_issued_reason_t>(v));
    };
    return data;
}

rocprofiler_pc_sampling_record_stochastic_v0_t
stochastic(bool issued)
{
    auto r                       = rocprofiler_pc_sampling_record_stochastic_v0_t{};
    r.size                       = sizeof(r);
    r.wave_issued                = issued ? 1 : 0;
    r.inst_type                  = ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_TEX;
    r.snapshot.reason_not_issued = ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT;
    r.pc                         = {5, 0x1a0};
    r.exec_mask                  = 0xffffffff;
    r.wave_count                 = 12;
    r.timestamp                  = 1234567;
    r.dispatch_id                = 42;
    r.correlation_id.internal    = 77;
    return r;
}
} // namespace

TEST(pc_sampling_rows, host_trap_header_and_row)
{
    EXPECT_EQ(pc_sampling_host_trap_csv_header(),
              "\"Sample_Timestamp\",\"Exec_Mask\",\"Dispatch_Id\",\"Instruction\","
              "\"Instruction_Comment\",\"Correlation_Id\",\"Code_Object_Id\","
              "\"Code_Object_Offset\"\n");
    auto r                    = rocprofiler_pc_sampling_record_host_trap_v0_t{};
    r.size                    = sizeof(r);
    r.pc                      = {3, 64};
    r.exec_mask               = 1;
    r.timestamp               = 999;
    r.dispatch_id             = 7;
    r.correlation_id.internal = 9;
    EXPECT_EQ(pc_sampling_host_trap_csv_row(r), "999,1,7,\"\",\"\",9,3,64\n");
}

TEST(pc_sampling_rows, stochastic_header_and_rows_name_type_and_stall_reason)
{
    EXPECT_EQ(pc_sampling_stochastic_csv_header(),
              "\"Sample_Timestamp\",\"Exec_Mask\",\"Dispatch_Id\",\"Instruction\","
              "\"Instruction_Comment\",\"Correlation_Id\",\"Wave_Issued_Instruction\","
              "\"Instruction_Type\",\"Stall_Reason\",\"Wave_Count\",\"Code_Object_Id\","
              "\"Code_Object_Offset\"\n");
    const auto data = with_sdk_names();
    // A wave that issued nothing: its stall reason is named.
    EXPECT_EQ(pc_sampling_stochastic_csv_row(data, stochastic(false)),
              "1234567,4294967295,42,\"\",\"\",77,0,\"ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_"
              "TEX\",\"ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT\",12,5,416\n");
    // A wave that issued: no stall reason, as upstream.
    EXPECT_EQ(pc_sampling_stochastic_csv_row(data, stochastic(true)),
              "1234567,4294967295,42,\"\",\"\",77,1,\"ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_"
              "TEX\",\"\",12,5,416\n");
}

TEST(pc_sampling_rows, stochastic_values_without_a_name_are_written_as_numbers)
{
    auto r                       = stochastic(false);
    r.inst_type                  = 31; // beyond the SDK's list
    r.snapshot.reason_not_issued = 15;
    const auto row               = pc_sampling_stochastic_csv_row(with_sdk_names(), r);
    EXPECT_NE(row.find(",\"unknown (31)\",\"unknown (15)\","), std::string::npos) << row;
    // Without the SDK's functions (a results nobody set up), the same.
    const auto bare = pc_sampling_stochastic_csv_row(results{}, stochastic(false));
    EXPECT_NE(bare.find(",\"unknown (4)\",\"unknown (3)\","), std::string::npos) << bare;
}

TEST(pc_sampling_rows, csv_sink_streams_the_methods_file_only)
{
    auto dir                 = rocprofv3_test::scratch_dir{"rocprofv3-pcs-"};
    auto cfg                 = config{};
    cfg.output_path          = dir.path.string();
    cfg.output_file_name     = "run";
    cfg.pc_sampling_method   = "stochastic";
    cfg.pc_sampling_unit     = "cycles";
    cfg.pc_sampling_interval = 65536;
    auto data                = with_sdk_names();
    auto errors              = std::vector<std::string>{};
    auto sink                = csv_sink{cfg, data, errors};
    ASSERT_TRUE(errors.empty()) << errors.front();
    const auto a = stochastic(false), b = stochastic(true);
    sink.pc_sample(data, a);
    sink.pc_sample(data, b);
    auto written = std::vector<std::string>{};
    sink.finish(data, written, errors);
    EXPECT_TRUE(errors.empty());
    const auto path = dir.path / "run_pc_sampling_stochastic.csv";
    EXPECT_EQ(written, (std::vector<std::string>{path.string()}));
    EXPECT_EQ(read(path),
              pc_sampling_stochastic_csv_header() + pc_sampling_stochastic_csv_row(data, a) +
                  pc_sampling_stochastic_csv_row(data, b));
    EXPECT_FALSE(std::filesystem::exists(dir.path / "run_pc_sampling_host_trap.csv"));
}

// A sample of the other kind than the method's (an agent delivering host-trap records for a
// stochastic configuration) still reaches a file: that kind's, opened when it arrives.
TEST(pc_sampling_rows, a_sample_of_the_other_kind_opens_its_file)
{
    auto dir                 = rocprofv3_test::scratch_dir{"rocprofv3-pcs-other-"};
    auto cfg                 = config{};
    cfg.output_path          = dir.path.string();
    cfg.output_file_name     = "run";
    cfg.pc_sampling_method   = "stochastic";
    cfg.pc_sampling_unit     = "cycles";
    cfg.pc_sampling_interval = 65536;
    auto data                = results{};
    auto errors              = std::vector<std::string>{};
    auto sink                = csv_sink{cfg, data, errors};
    auto r                   = rocprofiler_pc_sampling_record_host_trap_v0_t{};
    r.dispatch_id            = 3;
    sink.pc_sample(data, r);
    auto written = std::vector<std::string>{};
    sink.finish(data, written, errors);
    EXPECT_TRUE(errors.empty()) << errors.front();
    EXPECT_EQ(read(dir.path / "run_pc_sampling_host_trap.csv"),
              pc_sampling_host_trap_csv_header() + pc_sampling_host_trap_csv_row(r));
    EXPECT_EQ(read(dir.path / "run_pc_sampling_stochastic.csv"),
              pc_sampling_stochastic_csv_header());
}

// results.json's form of a stochastic sample: upstream's record fields, the names as in the CSV.
TEST(pc_sampling_rows, stochastic_json_names_type_and_stall_reason)
{
    const auto data  = with_sdk_names();
    const auto stall = pc_sample_json(data, stochastic(false));
    EXPECT_EQ(stall["inst_index"], -1);
    EXPECT_EQ(stall["record"]["pc"]["code_object_id"], 5u);
    EXPECT_EQ(stall["record"]["pc"]["code_object_offset"], 0x1a0u);
    EXPECT_EQ(stall["record"]["dispatch_id"], 42u);
    EXPECT_EQ(stall["record"]["wave_issued"], 0u);
    EXPECT_EQ(stall["record"]["wave_cnt"], 12u);
    EXPECT_EQ(stall["record"]["inst_type"], "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_TEX");
    EXPECT_EQ(stall["record"]["snapshot"]["stall_reason"],
              "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT");
    EXPECT_EQ(pc_sample_json(data, stochastic(true))["record"]["snapshot"]["stall_reason"], "");
}
