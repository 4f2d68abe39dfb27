// A fresh directory per GoogleTest case (named after the prefix, the process and the test),
// removed at the end: the rocprofv3 writer tests' scratch space.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

namespace rocprofv3_test
{
struct scratch_dir
{
    explicit scratch_dir(const std::string& prefix)
        : path{std::filesystem::temp_directory_path() /
               (prefix + std::to_string(getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name())}
    {
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~scratch_dir() { std::filesystem::remove_all(path); }
    scratch_dir(const scratch_dir&)            = delete;
    scratch_dir& operator=(const scratch_dir&) = delete;

    std::filesystem::path path;
};
} // namespace rocprofv3_test
