// The bounded reader: regular files only, a size cap, no blocking on a FIFO.
#include "untrusted/input_file.hpp"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>

namespace fs = std::filesystem;
using rocprofiler::untrusted::non_regular_kind;
using rocprofiler::untrusted::read_bounded;

namespace
{
struct scratch
{
    scratch()
        : path{fs::temp_directory_path() /
               ("untrusted-" + std::to_string(getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name())}
    {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~scratch() { fs::remove_all(path); }
    fs::path path;
};

void
write(const fs::path& path, const std::string& text)
{
    std::ofstream{path, std::ios::binary} << text;
}
} // namespace

TEST(untrusted_input_file, a_regular_file_is_read_whole)
{
    auto dir  = scratch{};
    auto text = std::string(200000, 'x') + "end";
    write(dir.path / "a.json", text);
    auto result = read_bounded((dir.path / "a.json").string());
    ASSERT_TRUE(result.ok) << result.error;
    EXPECT_EQ(result.text, text);

    write(dir.path / "empty", "");
    result = read_bounded((dir.path / "empty").string());
    ASSERT_TRUE(result.ok) << result.error;
    EXPECT_TRUE(result.text.empty());
}

TEST(untrusted_input_file, a_link_to_a_regular_file_is_read)
{
    auto dir = scratch{};
    write(dir.path / "target", "{}");
    fs::create_symlink(dir.path / "target", dir.path / "link.json");
    auto result = read_bounded((dir.path / "link.json").string());
    ASSERT_TRUE(result.ok) << result.error;
    EXPECT_EQ(result.text, "{}");
}

TEST(untrusted_input_file, over_the_cap_is_an_error_naming_the_size_and_the_limit)
{
    auto dir = scratch{};
    write(dir.path / "big", std::string(4097, 'x'));
    auto result = read_bounded((dir.path / "big").string(), 4096);
    EXPECT_FALSE(result.ok);
    EXPECT_NE(result.error.find((dir.path / "big").string()), std::string::npos) << result.error;
    EXPECT_NE(result.error.find("4097 bytes"), std::string::npos) << result.error;
    EXPECT_NE(result.error.find("limit of 4096 bytes"), std::string::npos) << result.error;

    write(dir.path / "exact", std::string(4096, 'x'));
    EXPECT_TRUE(read_bounded((dir.path / "exact").string(), 4096).ok);

    write(dir.path / "mib", std::string(10, 'x'));
    result = read_bounded((dir.path / "mib").string(), 0);
    EXPECT_FALSE(result.ok);
    EXPECT_NE(result.error.find("limit of 0 bytes"), std::string::npos) << result.error;
}

TEST(untrusted_input_file, a_directory_fifo_socket_or_device_is_refused_without_blocking)
{
    auto dir = scratch{};
    fs::create_directories(dir.path / "sub.json");
    ASSERT_EQ(::mkfifo((dir.path / "fifo.json").c_str(), 0600), 0);
    // A socket file.
    auto sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(sock, 0);
    auto addr       = sockaddr_un{};
    addr.sun_family = AF_UNIX;
    auto sock_path  = (dir.path / "s").string();
    ASSERT_LT(sock_path.size(), sizeof(addr.sun_path));
    std::copy(sock_path.begin(), sock_path.end(), addr.sun_path);
    ASSERT_EQ(::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);

    struct expected
    {
        std::string path;
        std::string kind;
    };
    for(const auto& [path, kind] : {expected{(dir.path / "sub.json").string(), "a directory"},
                                    expected{(dir.path / "fifo.json").string(), "a FIFO"},
                                    expected{sock_path, "a socket"},
                                    expected{"/dev/zero", "a character device"},
                                    expected{"/dev/null", "a character device"}})
    {
        // Run apart so that a reader that blocks fails the test instead of hanging it.
        auto reading = std::async(std::launch::async, [p = path] { return read_bounded(p); });
        ASSERT_EQ(reading.wait_for(std::chrono::seconds{20}), std::future_status::ready) << path;
        auto result = reading.get();
        EXPECT_FALSE(result.ok) << path;
        EXPECT_EQ(result.error, path + " is " + kind + ", not a regular file");
        EXPECT_EQ(non_regular_kind(path), kind);
    }
    ::close(sock);
}

TEST(untrusted_input_file, a_missing_file_is_an_error_naming_it)
{
    auto result = read_bounded("/nonexistent-dir/metrics.json");
    EXPECT_FALSE(result.ok);
    EXPECT_EQ(result.error,
              "/nonexistent-dir/metrics.json cannot be read: No such file or directory");
    EXPECT_EQ(non_regular_kind("/nonexistent-dir/metrics.json"), "");
}
