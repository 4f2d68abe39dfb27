// The std::regex fallback of the kernel name filters (a build without RE2), compiled here with
// ROCPROFILER_TOOL_FORCE_STD_REGEX whatever the build found: its documented limits hold, and
// adversarial patterns within them, matched against names of any length, return.
#include "config/name_regex.hpp"

#include <gtest/gtest.h>

#include <pthread.h>
#include <string>

using rocprofiler::tool::name_regex;

// A repetition count std::regex would overflow (a signed multiply in libstdc++'s compiler, found
// by the environment fuzzer) or expand into gigabytes is refused with a message, never compiled.
TEST(name_regex_fallback, huge_repetition_counts_are_refused)
{
    auto error = std::string{};
    EXPECT_FALSE(rocprofiler::tool::name_regex::compile("0050{5555555555555555555500", &error));
    EXPECT_NE(error.find("repetition count '5555555555555555555500'"), std::string::npos) << error;
    EXPECT_FALSE(rocprofiler::tool::name_regex::compile("a{2,100000000}", &error));
    EXPECT_NE(error.find("'100000000'"), std::string::npos) << error;
    const auto small = rocprofiler::tool::name_regex::compile("^a{2,3}$", &error);
    ASSERT_TRUE(small) << error;
    EXPECT_TRUE(small->search("aaa"));
    EXPECT_FALSE(small->search("aaaa"));
}

TEST(name_regex_fallback, pattern_length_limit)
{
    EXPECT_STREQ(name_regex::engine(), "std::regex (ECMAScript)");
    auto why = std::string{};
    EXPECT_TRUE(
        name_regex::compile(std::string(name_regex::fallback_max_pattern_length, 'A'), &why))
        << why;
    EXPECT_FALSE(name_regex::compile(std::string(90000, 'A'), &why));
    EXPECT_NE(why.find("90000 characters"), std::string::npos) << why;
    EXPECT_NE(why.find("at most 256"), std::string::npos) << why;
}

TEST(name_regex_fallback, long_names_are_matched_on_their_first_characters)
{
    const auto limit = name_regex::fallback_max_name_length;
    auto       tail  = name_regex::compile("k$", nullptr);
    ASSERT_TRUE(tail);
    EXPECT_TRUE(tail->search(std::string(limit - 1, 'x') + "k"));
    EXPECT_FALSE(tail->search(std::string(limit, 'x') + "k")); // beyond the limit
    EXPECT_TRUE(name_regex::compile("^x+", nullptr)->search(std::string(30000, 'x')));
}

// The stack of the matching thread: 1 MiB in an ordinary build. AddressSanitizer makes every frame
// of std::regex's recursive matcher several times larger (redzones), so an instrumented build runs
// the same patterns on the usual 8 MiB.
#if defined(__SANITIZE_ADDRESS__)
constexpr size_t test_stack_bytes = size_t{8} << 20;
#else
constexpr size_t test_stack_bytes = size_t{1} << 20;
#endif

// Patterns whose matching recurses once or more per character, at the name limit, on a thread with
// a 1 MiB stack (an eighth of the usual 8 MiB): the bound leaves a margin for the threads the SDK
// calls from. (Backtracking time is not bounded: nested quantifiers such as "((a|aa)+)+b" take
// exponential time in std::regex, which is why RE2 is the engine whenever it is available.)
TEST(name_regex_fallback, adversarial_patterns_at_the_limits_return)
{
    const auto name = std::string(100000, 'a');
    for(const auto* pattern : {"(a|b)*c", "(a|b)*$", "(.*)+$", "^a*a*a*$", "x|(a|b)*$"})
    {
        auto re = name_regex::compile(pattern, nullptr);
        ASSERT_TRUE(re) << pattern;
        auto attr = pthread_attr_t{};
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, test_stack_bytes);
        struct job
        {
            const name_regex*  re;
            const std::string* name;
            bool               done;
        } j{&*re, &name, false};
        auto thread = pthread_t{};
        ASSERT_EQ(pthread_create(
                      &thread,
                      &attr,
                      [](void* arg) -> void*
                      {
                          auto* jb = static_cast<job*>(arg);
                          (void)jb->re->search(*jb->name);
                          jb->done = true;
                          return nullptr;
                      },
                      &j),
                  0);
        pthread_join(thread, nullptr);
        pthread_attr_destroy(&attr);
        EXPECT_TRUE(j.done) << pattern;
    }
}
