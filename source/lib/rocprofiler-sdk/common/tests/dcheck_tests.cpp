// The internal contract checks (common/dcheck.hpp): with checks on (debug and sanitizer builds) a
// broken contract aborts with a line naming it; with checks off the condition is not evaluated.
#include "common/dcheck.hpp"
#include "dispatch/backend.hpp"

#include <gtest/gtest.h>

namespace
{
int evaluations = 0;

bool
counted_false()
{
    ++evaluations;
    return false;
}

class signalled_twice final : public rocprofiler::dispatch::launch_backend
{
public:
    void enqueue(rocprofiler::dispatch::completion_fn,
                 std::shared_ptr<const rocprofiler::dispatch::execution_request>) override
    {
    }
    void signal_application(const rocprofiler::dispatch::execution_result&) override { ++signals; }

    int signals = 0;
};
} // namespace

TEST(dcheck, a_held_contract_passes_and_a_broken_one_aborts_with_its_name_when_checks_are_on)
{
    evaluations = 0;
    ROCP_DCHECK(evaluations == 0, "holds");
    if constexpr(!rocprofiler::common::dcheck::enabled)
    {
        ROCP_DCHECK(counted_false(), "never evaluated without checks");
        EXPECT_EQ(evaluations, 0) << "a release build must not pay for the condition";
        return;
    }
    EXPECT_DEATH(ROCP_DCHECK(counted_false(), "the example contract"),
                 "internal check failed: counted_false\\(\\) \\(the example contract\\) at .*"
                 "dcheck_tests.cpp:[0-9]+");
}

TEST(dcheck, once_allows_one_call_per_object)
{
    auto first  = rocprofiler::common::dcheck::once{};
    auto second = rocprofiler::common::dcheck::once{};
    ROCP_DCHECK_ONCE(first, "first object, first call");
    ROCP_DCHECK_ONCE(second, "another object has its own count");
    if constexpr(rocprofiler::common::dcheck::enabled)
    {
        EXPECT_DEATH(ROCP_DCHECK_ONCE(first, "called twice"),
                     "internal check failed.*called twice");
    }
}

TEST(dcheck, the_application_is_signalled_once_per_launch)
{
    auto backend = signalled_twice{};
    backend.signal_once({});
    EXPECT_EQ(backend.signals, 1);
    if constexpr(rocprofiler::common::dcheck::enabled)
    {
        EXPECT_DEATH(backend.signal_once({}),
                     "internal check failed.*the application is signalled once per logical "
                     "dispatch");
    }
}
