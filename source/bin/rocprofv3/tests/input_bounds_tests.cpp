// -i files as hostile input: only regular files, a size cap, a nesting limit, no hang.
#include "input_file.hpp"
#include "options.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <vector>

namespace
{
rocprofv3::parse_result
run(std::vector<const char*> args)
{
    args.insert(args.begin(), "rocprofv3");
    return rocprofv3::parse_command_line(static_cast<int>(args.size()), args.data());
}

// parse_command_line on another thread, so that a read that blocks fails the test instead of
// hanging it.
rocprofv3::parse_result
run_bounded(const std::string& input)
{
    auto parsing = std::async(std::launch::async,
                              [input] {
                                  return run({"-i", input.c_str(), "--", "app"});
                              });
    if(parsing.wait_for(std::chrono::seconds{20}) != std::future_status::ready)
    {
        ADD_FAILURE() << "-i " << input << " did not return";
        std::quick_exit(1); // the reading thread cannot be joined
    }
    return parsing.get();
}

std::string
write_temp(const std::string& name, const std::string& contents)
{
    auto path = testing::TempDir() + name;
    std::ofstream{path} << contents;
    return path;
}
} // namespace

TEST(input_bounds, a_device_fifo_or_directory_is_a_usage_error_naming_it)
{
    auto fifo = testing::TempDir() + "rocprofv3_fifo_" + std::to_string(getpid()) + ".json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto dir = testing::TempDir() + "rocprofv3_dir_" + std::to_string(getpid()) + ".yaml";
    std::filesystem::create_directories(dir);
    // /dev/zero has no extension: refused before anything is read. Through a link named .txt it
    // is read as what it is, a device.
    auto zero = testing::TempDir() + "rocprofv3_zero_" + std::to_string(getpid()) + ".txt";
    std::filesystem::remove(zero);
    std::filesystem::create_symlink("/dev/zero", zero);
    struct expected
    {
        std::string input;
        std::string message;
    };
    for(const auto& [input, message] :
        {expected{"/dev/zero", "does not have a recognized extension"},
         expected{zero, "is a character device, not a regular file"},
         expected{fifo, "is a FIFO, not a regular file"},
         expected{dir, "is a directory, not a regular file"}})
    {
        auto r = run_bounded(input);
        EXPECT_FALSE(r.opts) << input;
        EXPECT_NE(r.error.find(message), std::string::npos) << input << ": " << r.error;
    }
    std::filesystem::remove(fifo);
    std::filesystem::remove(zero);
    std::filesystem::remove_all(dir);
}

TEST(input_bounds, a_file_over_the_cap_is_refused_with_its_size_and_the_limit)
{
    auto big =
        write_temp("rocprofv3_big.txt", std::string(rocprofv3::max_input_file_bytes + 1, '#'));
    auto r = run_bounded(big);
    EXPECT_FALSE(r.opts);
    EXPECT_NE(r.error.find("over the limit of 16 MiB"), std::string::npos) << r.error;
    std::filesystem::remove(big);
}

TEST(input_bounds, nesting_deeper_than_the_limit_is_refused_in_json_and_yaml)
{
    // 100,000 nested lists as the value of pmc: refused as read, nothing built, no stack overflow.
    auto deep = std::string{R"({"jobs": [{"pmc": )"} + std::string(100000, '[') +
                std::string(100000, ']') + "}]}";
    auto r = run_bounded(write_temp("rocprofv3_deep.json", deep));
    EXPECT_FALSE(r.opts);
    EXPECT_NE(r.error.find("nested more than 64 levels deep"), std::string::npos) << r.error;

    auto yaml = std::string{"jobs:\n  - pmc: "} + std::string(100000, '[') +
                std::string(100000, ']') + "\n";
    r = run_bounded(write_temp("rocprofv3_deep.yaml", yaml));
    EXPECT_FALSE(r.opts);
    // Without libyaml the YAML form is refused for that reason instead.
    EXPECT_TRUE(r.error.find("nested more than 64 levels deep") != std::string::npos ||
                r.error.find("without YAML support") != std::string::npos)
        << r.error;

    // At the limit a document is read (the job is then refused for its value, not its depth).
    auto ok = std::string{R"({"jobs": [{"pmc": )"} + std::string(61, '[') + R"("A")" +
              std::string(61, ']') + "}]}";
    r = run_bounded(write_temp("rocprofv3_deep_ok.json", ok));
    EXPECT_EQ(r.error.find("nested more than"), std::string::npos) << r.error;
}
