// rocprofiler-sdk/cxx/serialization.hpp with cereal, as a tool uses it: records and handles the
// SDK delivers are written into a JSON archive under their field names (NULL strings as ""), the
// same values round-trip through a binary archive for the types load.hpp reads, and the name
// tables serialize as their kinds. Built as C++17 where cereal is found.
#include <rocprofiler-sdk/cxx/serialization.hpp>

#include <rocprofiler-sdk/cxx/name_info.hpp>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <sstream>
#include <string>
#include <vector>

namespace
{
// The text without whitespace, so that expectations do not depend on cereal's layout (no string
// the tests write holds a space).
std::string
compact(std::string text)
{
    text.erase(
        std::remove_if(text.begin(), text.end(), [](char c) { return std::isspace(c) != 0; }),
        text.end());
    return text;
}

template <typename Tp>
std::string
to_json(const char* name, const Tp& value)
{
    auto out = std::stringstream{};
    {
        auto ar = cereal::JSONOutputArchive{out, cereal::JSONOutputArchive::Options::NoIndent()};
        ar(cereal::make_nvp(name, value));
    }
    return compact(out.str());
}

TEST(CxxSerialization, KernelDispatchRecordIsWrittenByFieldName)
{
    auto record                          = rocprofiler_buffer_tracing_kernel_dispatch_record_t{};
    record.size                          = sizeof(record);
    record.kind                          = ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH;
    record.operation                     = ROCPROFILER_KERNEL_DISPATCH_COMPLETE;
    record.correlation_id.internal       = 7;
    record.correlation_id.external.value = 42;
    record.thread_id                     = 99;
    record.start_timestamp               = 1000;
    record.end_timestamp                 = 2000;
    record.dispatch_info.agent_id        = {3};
    record.dispatch_info.kernel_id       = 11;
    record.dispatch_info.dispatch_id     = 5;
    record.dispatch_info.grid_size       = {64, 2, 1};
    const auto json                      = to_json("record", record);
    const auto kind = "\"kind\": " + std::to_string(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH);
    EXPECT_NE(json.find(compact(kind)), std::string::npos) << kind << " in " << json;
    for(const auto* expected : {"\"internal\": 7",
                                "\"external\": 42",
                                "\"thread_id\": 99",
                                "\"start_timestamp\": 1000",
                                "\"end_timestamp\": 2000",
                                "\"agent_id\": {\"handle\": 3}",
                                "\"kernel_id\": 11",
                                "\"dispatch_id\": 5",
                                "\"grid_size\": {\"x\": 64,\"y\": 2,\"z\": 1}"})
        EXPECT_NE(json.find(compact(expected)), std::string::npos) << expected << " in " << json;
}

TEST(CxxSerialization, StringsMayBeNullAndCounterInfoListsItsDimensions)
{
    auto symbol        = rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t{};
    symbol.kernel_id   = 4;
    symbol.kernel_name = nullptr;
    auto json          = to_json("symbol", symbol);
    EXPECT_NE(json.find(compact("\"kernel_name\": \"\"")), std::string::npos) << json;
    symbol.kernel_name = "vector_add";
    json               = to_json("symbol", symbol);
    EXPECT_NE(json.find(compact("\"kernel_name\": \"vector_add\"")), std::string::npos) << json;

    auto dimension          = rocprofiler_counter_record_dimension_info_t{};
    dimension.name          = "DIMENSION_INSTANCE";
    dimension.instance_size = 1;
    const auto* dimensions  = &dimension;
    auto        info        = rocprofiler_counter_info_v1_t{};
    info.id                 = {9};
    info.name               = "SQ_WAVES";
    info.is_derived         = 1;
    info.dimensions_count   = 1;
    info.dimensions         = &dimensions;
    json                    = to_json("counter", info);
    for(const auto* expected : {"\"name\": \"SQ_WAVES\"",
                                "\"description\": \"\"",
                                "\"is_derived\": 1",
                                "\"dimensions\": [{\"name\": \"DIMENSION_INSTANCE\"",
                                "\"dimensions_instances\": []"})
        EXPECT_NE(json.find(compact(expected)), std::string::npos) << expected << " in " << json;
}

TEST(CxxSerialization, HandlesAndIdsRoundTripThroughABinaryArchive)
{
    const auto agent           = rocprofiler_agent_id_t{17};
    const auto grid            = rocprofiler_dim3_t{4, 5, 6};
    auto       correlation     = rocprofiler_correlation_id_t{};
    correlation.internal       = 8;
    correlation.ancestor       = 2;
    correlation.external.value = 33;

    auto buffer = std::stringstream{};
    {
        auto ar = cereal::BinaryOutputArchive{buffer};
        ar(agent, grid, correlation);
    }
    auto agent_in       = rocprofiler_agent_id_t{};
    auto grid_in        = rocprofiler_dim3_t{};
    auto correlation_in = rocprofiler_correlation_id_t{};
    {
        auto ar = cereal::BinaryInputArchive{buffer};
        ar(agent_in, grid_in, correlation_in);
    }
    EXPECT_EQ(agent_in.handle, 17u);
    EXPECT_EQ(grid_in.x, 4u);
    EXPECT_EQ(grid_in.y, 5u);
    EXPECT_EQ(grid_in.z, 6u);
    EXPECT_EQ(correlation_in.internal, 8u);
    EXPECT_EQ(correlation_in.ancestor, 2u);
    EXPECT_EQ(correlation_in.external.value, 33u);
}

TEST(CxxSerialization, NameTablesAreWrittenAsTheirKinds)
{
    const auto names = rocprofiler::sdk::get_buffer_tracing_names();
    const auto json  = to_json("names", names);
    EXPECT_NE(json.find(compact("\"name\": \"KERNEL_DISPATCH\"")), std::string::npos) << json;
    EXPECT_NE(json.find(compact("\"name\": \"MEMORY_COPY\"")), std::string::npos) << json;
    EXPECT_NE(json.find(compact("\"operations\": [")), std::string::npos) << json;
}
} // namespace
