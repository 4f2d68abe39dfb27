// Runs host_demo under pc_sampling_query and validates its report: on the host device no agent
// offers PC sampling, so the tool reports zero configurations for each GPU agent, does not try to
// configure sampling, falls back to dispatch tracing and sees every dispatch; the program's
// results stay correct. Paths come from the environment (set by CTest): HOST_DEMO and
// PC_SAMPLING_QUERY_TOOL.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace
{
namespace fs = std::filesystem;

// host_demo's workload: 2 iterations of 5 kernels, so 10 dispatches.
constexpr int dispatches = 10;

std::string
required_env(const char* name)
{
    const char* value = std::getenv(name);
    if(value == nullptr || *value == '\0')
    {
        ADD_FAILURE() << name << " is not set (CTest sets it)";
        return {};
    }
    return value;
}

std::string
read_file(const fs::path& path)
{
    auto in = std::ifstream{path};
    auto ss = std::stringstream{};
    ss << in.rdbuf();
    return ss.str();
}

TEST(pc_sampling_sample, falls_back_to_dispatch_tracing_without_configurations)
{
    auto templ = (fs::temp_directory_path() / "pc-sampling-sample-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr) << std::strerror(errno);
    const auto dir     = fs::path{templ};
    const auto report  = dir / "report.txt";
    const auto program = required_env("HOST_DEMO");
    const auto tool    = required_env("PC_SAMPLING_QUERY_TOOL");
    const auto out     = dir / "stdout.txt";
    const auto err     = dir / "stderr.txt";

    auto pid = fork();
    if(pid == 0)
    {
        setenv("ROCP_TOOL_LIBRARIES", tool.c_str(), 1);
        setenv("PC_SAMPLING_QUERY_OUTPUT", report.c_str(), 1);
        int fd_out = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fd_err = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if(fd_out < 0 || fd_err < 0) _exit(126);
        dup2(fd_out, STDOUT_FILENO);
        dup2(fd_err, STDERR_FILENO);
        execl(program.c_str(),
              program.c_str(),
              "--iterations",
              "2",
              "--size",
              "1024",
              static_cast<char*>(nullptr));
        _exit(127);
    }
    auto status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << read_file(out) << read_file(err);
    EXPECT_NE(read_file(out).find("host_demo: OK"), std::string::npos) << read_file(out);
    // The fallback is not an error: the tool reports none, and the SDK warns about nothing it
    // was not asked to do.
    EXPECT_EQ(read_file(err).find("pc_sampling_query:"), std::string::npos) << read_file(err);

    const auto text = read_file(report);
    EXPECT_NE(text.find("agent id="), std::string::npos) << text;
    EXPECT_NE(text.find("configurations=0"), std::string::npos) << text;
    EXPECT_EQ(text.find("configurations=0 method="), std::string::npos) << text;
    EXPECT_EQ(text.find("configure agent="), std::string::npos)
        << "no configuration was offered, so none may be tried:\n"
        << text;
    EXPECT_NE(text.find("mode=dispatch_tracing completed_dispatches=" + std::to_string(dispatches)),
              std::string::npos)
        << text;

    if(!::testing::Test::HasFailure())
    {
        auto ec = std::error_code{};
        fs::remove_all(dir, ec);
    }
}
} // namespace
