// One "[kernel-replay]" line per replayed or declined candidate at debug level.
#include "harness.hpp"

#include "common/logging.hpp"
#include "dispatch/dispatch.hpp"

#include <cstdlib>
#include <string>

namespace replay_test
{
namespace
{
class diagnostics : public replay_fixture
{
protected:
    void SetUp() override
    {
        replay_fixture::SetUp();
        setenv("ROCPROFILER_LOG_LEVEL", "debug", 1);
        rocprofiler::common::log::reset_level_from_environment();
    }
    void TearDown() override
    {
        unsetenv("ROCPROFILER_LOG_LEVEL");
        rocprofiler::common::log::reset_level_from_environment();
        replay_fixture::TearDown();
    }
};

std::string
line_for(uint64_t dispatch_id, const char* rest)
{
    return "[kernel-replay] dispatch_id=" + std::to_string(dispatch_id) + " kernel=replay_add " +
           rest;
}

TEST_F(diagnostics, replayed_candidate)
{
    auto p         = add_problem{};
    tool().targets = {device().add.handle};
    replay_fixed(3);
    auto id = rocprofiler::dispatch::dispatch_count() + 1;
    ::testing::internal::CaptureStderr();
    p.run();
    auto err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("[debug] " + line_for(id, "passes=3 outcome=replayed reason=none")),
              std::string::npos)
        << err;
}

TEST_F(diagnostics, declined_candidate)
{
    auto p         = add_problem{};
    tool().targets = {device().add.handle}; // replay_pass_count left NULL
    auto id        = rocprofiler::dispatch::dispatch_count() + 1;
    ::testing::internal::CaptureStderr();
    p.run();
    auto err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("[debug] " + line_for(id, "passes=1 outcome=declined reason=not_requested")),
              std::string::npos)
        << err;
    EXPECT_EQ(err.find("[warning]"), std::string::npos) << "an opt-out is not a warning\n" << err;
}
} // namespace
} // namespace replay_test
