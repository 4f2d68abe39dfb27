// Runs host_demo under pc_sampling_query and validates its report: the host agent offers host-trap
// sampling in ns, the tool configures it at the shortest interval, and samples arrive, some of
// them inside host_demo's kernels (named through CODE_OBJECT tracing, at offsets inside the
// functions); the program's results stay correct. Paths come from the environment (set by CTest):
// HOST_DEMO and PC_SAMPLING_QUERY_TOOL.
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

// host_demo's workload: large enough arrays that its kernels run for tens of milliseconds of CPU
// time, a few samples each at the 1 ms interval (more under sanitizers, which slow them down).
constexpr const char* iterations = "3";
constexpr const char* size       = "4000000";

uint64_t
value_after(const std::string& text, const std::string& key)
{
    const auto pos = text.find(key);
    return pos == std::string::npos ? 0 : std::stoull(text.substr(pos + key.size()));
}

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

TEST(pc_sampling_sample, samples_the_host_devices_kernels)
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
              iterations,
              "--size",
              size,
              static_cast<char*>(nullptr));
        _exit(127);
    }
    auto status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << read_file(out) << read_file(err);
    EXPECT_NE(read_file(out).find("host_demo: OK"), std::string::npos) << read_file(out);
    EXPECT_EQ(read_file(err).find("pc_sampling_query:"), std::string::npos) << read_file(err);
    // Every kernel's size is known (host_demo's symbol table lists them), and nothing is dropped.
    EXPECT_EQ(read_file(err).find("PC sampling:"), std::string::npos) << read_file(err);

    const auto text = read_file(report);
    EXPECT_NE(text.find("agent id=1 name=host configurations=1 method=2 unit=3 min=1000000 "
                        "max=1000000000"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("configure agent=1 status=ROCPROFILER_STATUS_SUCCESS"), std::string::npos)
        << text;
    EXPECT_GT(value_after(text, "mode=pc_sampling samples="), 0u) << text;
    EXPECT_EQ(value_after(text, " invalid="), 0u) << text;
    // Some samples land inside a kernel, at an offset inside its (small) function.
    EXPECT_NE(text.find("kernel name="), std::string::npos) << text;
    EXPECT_LT(value_after(text, "max_offset="), 4096u) << text;

    if(!::testing::Test::HasFailure())
    {
        auto ec = std::error_code{};
        fs::remove_all(dir, ec);
    }
}
} // namespace
