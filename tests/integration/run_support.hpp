// Helpers of the integration tests: run a program as a subprocess with a tool, and read what the
// program and the tool wrote.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rocprofiler::integration
{
struct run_result
{
    int         exit_code = -1; // exit status, or 128 + signal
    bool        timed_out = false;
    std::string out       = {}; // stdout
    std::string err       = {}; // stderr
};

// Runs argv[0] with argv, the test's environment plus `env` (an empty value removes the
// variable), stdout and stderr captured. Kills the process group after `timeout`.
run_result run(const std::vector<std::string>&           argv,
               const std::map<std::string, std::string>& env,
               std::chrono::milliseconds timeout = std::chrono::milliseconds{60000});

// The value of a variable the CTest test sets (a tool or program path); fails the test when unset.
std::string required_env(const char* name);

// A fresh empty directory for one test's output files.
std::filesystem::path make_temp_dir(const std::string& test_name);

// Parses a JSON file; nullopt (with a reason in *why) when missing or malformed.
std::optional<nlohmann::json> read_json(const std::filesystem::path& path,
                                        std::string*                 why = nullptr);

std::string read_text(const std::filesystem::path& path);

// A printable summary of a run for assertion messages.
std::string describe(const run_result& result);
} // namespace rocprofiler::integration
