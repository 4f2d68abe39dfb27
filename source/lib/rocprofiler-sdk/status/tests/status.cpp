// Walks every status code through the public queries. The expected names are written out by hand
// from the order in spec/API.md: that list is the oracle, not the table in status.cpp.

#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include <array>
#include <set>
#include <string>
#include <string_view>

namespace
{
constexpr auto expected_suffixes = std::array<std::string_view, 41>{
    "SUCCESS",
    "ERROR",
    "ERROR_CONTEXT_NOT_FOUND",
    "ERROR_BUFFER_NOT_FOUND",
    "ERROR_KIND_NOT_FOUND",
    "ERROR_OPERATION_NOT_FOUND",
    "ERROR_THREAD_NOT_FOUND",
    "ERROR_AGENT_NOT_FOUND",
    "ERROR_COUNTER_NOT_FOUND",
    "ERROR_CONTEXT_ERROR",
    "ERROR_CONTEXT_INVALID",
    "ERROR_CONTEXT_NOT_STARTED",
    "ERROR_CONTEXT_CONFLICT",
    "ERROR_CONTEXT_ID_NOT_ZERO",
    "ERROR_BUFFER_BUSY",
    "ERROR_SERVICE_ALREADY_CONFIGURED",
    "ERROR_CONFIGURATION_LOCKED",
    "ERROR_NOT_IMPLEMENTED",
    "ERROR_INCOMPATIBLE_ABI",
    "ERROR_INVALID_ARGUMENT",
    "ERROR_METRIC_NOT_VALID_FOR_AGENT",
    "ERROR_FINALIZED",
    "ERROR_HSA_NOT_LOADED",
    "ERROR_DIM_NOT_FOUND",
    "ERROR_PROFILE_COUNTER_NOT_FOUND",
    "ERROR_AST_GENERATION_FAILED",
    "ERROR_AST_NOT_FOUND",
    "ERROR_AQL_NO_EVENT_COORD",
    "ERROR_INCOMPATIBLE_KERNEL",
    "ERROR_OUT_OF_RESOURCES",
    "ERROR_PROFILE_NOT_FOUND",
    "ERROR_AGENT_DISPATCH_CONFLICT",
    "INTERNAL_NO_AGENT_CONTEXT",
    "ERROR_SAMPLE_RATE_EXCEEDED",
    "ERROR_NO_PROFILE_QUEUE",
    "ERROR_NO_HARDWARE_COUNTERS",
    "ERROR_AGENT_MISMATCH",
    "ERROR_NOT_AVAILABLE",
    "ERROR_EXCEEDS_HW_LIMIT",
    "ERROR_AGENT_ARCH_NOT_SUPPORTED",
    "ERROR_PERMISSION_DENIED",
};

// The name and the message of a status value, both non-null (a test assertion otherwise).
struct description
{
    std::string name    = {};
    std::string message = {};
};

description
describe(int value)
{
    SCOPED_TRACE("value " + std::to_string(value));
    const auto  status  = static_cast<rocprofiler_status_t>(value);
    const char* name    = rocprofiler_get_status_name(status);
    const char* message = rocprofiler_get_status_string(status);
    EXPECT_NE(name, nullptr);
    EXPECT_NE(message, nullptr);
    return {name != nullptr ? name : "", message != nullptr ? message : ""};
}

TEST(status, enum_has_exactly_the_specified_codes)
{
    EXPECT_EQ(static_cast<size_t>(ROCPROFILER_STATUS_LAST), expected_suffixes.size());
    // Spot checks that the header's enumerators sit where the spec puts them.
    EXPECT_EQ(ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND, 4);
    EXPECT_EQ(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT, 19);
    EXPECT_EQ(ROCPROFILER_STATUS_INTERNAL_NO_AGENT_CONTEXT, 32);
    EXPECT_EQ(ROCPROFILER_STATUS_ERROR_PERMISSION_DENIED, 40);
}

TEST(status, every_code_has_its_name_and_a_message)
{
    auto names    = std::set<std::string>{};
    auto messages = std::set<std::string>{};
    for(int code = 0; code < ROCPROFILER_STATUS_LAST; ++code)
    {
        SCOPED_TRACE("code " + std::to_string(code));
        const auto [name, message] = describe(code);
        ASSERT_FALSE(name.empty() || message.empty()) << "a null name or message";

        EXPECT_EQ(name, "ROCPROFILER_STATUS_" + std::string{expected_suffixes.at(code)});
        EXPECT_GT(message.size(), 0u);
        EXPECT_NE(message, name);
        EXPECT_EQ(message.find('\n'), std::string::npos) << "one line";

        names.emplace(name);
        messages.emplace(message);
    }
    EXPECT_EQ(names.size(), expected_suffixes.size()) << "names are unique";
    EXPECT_EQ(messages.size(), expected_suffixes.size()) << "messages are unique";
}

TEST(status, known_codes_are_not_reported_as_unknown)
{
    const std::string unknown = rocprofiler_get_status_name(ROCPROFILER_STATUS_LAST);
    for(int code = 0; code < ROCPROFILER_STATUS_LAST; ++code)
        EXPECT_NE(rocprofiler_get_status_name(static_cast<rocprofiler_status_t>(code)), unknown);
}

TEST(status, out_of_range_values_give_an_unknown_string)
{
    // C tools may pass any int; GCC gives these enums an int-sized underlying type.
    for(int value : {static_cast<int>(ROCPROFILER_STATUS_LAST), -1, 1000})
    {
        const auto [name, message] = describe(value);
        EXPECT_NE(name.find("UNKNOWN"), std::string::npos) << name;
        EXPECT_NE(message.find("unknown"), std::string::npos) << message;
    }
}
} // namespace
