// One "[kernel-replay]" line per replayed or declined candidate at debug level.
#include "harness.hpp"

#include "common/logging.hpp"
#include "dispatch/dispatch.hpp"

#include <cstdlib>
#include <string>
#include <utility>

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

// Runs the problem once; returns what it wrote to stderr and the line expected for its dispatch
// there, "[kernel-replay] dispatch_id=<id> kernel=replay_add <rest>".
std::pair<std::string, std::string>
run_and_capture(add_problem& p, const char* rest)
{
    auto id = rocprofiler::dispatch::dispatch_count() + 1;
    ::testing::internal::CaptureStderr();
    p.run();
    auto line = "[kernel-replay] dispatch_id=" + std::to_string(id) + " kernel=replay_add " + rest;
    return {::testing::internal::GetCapturedStderr(), line};
}

TEST_F(diagnostics, replayed_candidate)
{
    auto p           = targeted_add(3);
    auto [err, line] = run_and_capture(p, "passes=3 outcome=replayed reason=none");
    EXPECT_NE(err.find("[debug] " + line), std::string::npos) << err;
}

TEST_F(diagnostics, declined_candidate)
{
    auto p           = targeted_add(); // replay_pass_count left NULL
    auto [err, line] = run_and_capture(p, "passes=1 outcome=declined reason=not_requested");
    EXPECT_NE(err.find("[debug] " + line), std::string::npos) << err;
    EXPECT_EQ(err.find("[warning]"), std::string::npos) << "an opt-out is not a warning\n" << err;
}
} // namespace
} // namespace replay_test
