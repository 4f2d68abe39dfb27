#include "run_support.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace rocprofiler::integration
{
namespace fs = std::filesystem;

std::string
read_text(const fs::path& path)
{
    auto in = std::ifstream{path};
    auto ss = std::stringstream{};
    ss << in.rdbuf();
    return ss.str();
}

run_result
run(const std::vector<std::string>&           argv,
    const std::map<std::string, std::string>& env,
    std::chrono::milliseconds                 timeout)
{
    auto result = run_result{};
    if(argv.empty()) return result;

    // The environment: ours, with `env` applied on top.
    auto vars = std::map<std::string, std::string>{};
    for(char** itr = environ; itr != nullptr && *itr != nullptr; ++itr)
    {
        auto entry = std::string{*itr};
        auto eq    = entry.find('=');
        if(eq != std::string::npos) vars[entry.substr(0, eq)] = entry.substr(eq + 1);
    }
    for(const auto& [key, value] : env)
    {
        if(value.empty())
            vars.erase(key);
        else
            vars[key] = value;
    }
    auto env_strings = std::vector<std::string>{};
    for(const auto& [key, value] : vars)
        env_strings.emplace_back(key + "=" + value);
    auto envp = std::vector<char*>{};
    for(auto& itr : env_strings)
        envp.emplace_back(itr.data());
    envp.emplace_back(nullptr);
    auto args = std::vector<std::string>{argv};
    auto argp = std::vector<char*>{};
    for(auto& itr : args)
        argp.emplace_back(itr.data());
    argp.emplace_back(nullptr);

    // Output goes to files, so a chatty child can never block on a full pipe.
    auto dir      = make_temp_dir("run");
    auto out_path = dir / "stdout.txt";
    auto err_path = dir / "stderr.txt";

    pid_t pid = fork();
    if(pid < 0) return result;
    if(pid == 0)
    {
        setpgid(0, 0);
        int out_fd = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err_fd = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if(out_fd >= 0) dup2(out_fd, STDOUT_FILENO);
        if(err_fd >= 0) dup2(err_fd, STDERR_FILENO);
        execve(argp[0], argp.data(), envp.data());
        _exit(127);
    }

    auto deadline = std::chrono::steady_clock::now() + timeout;
    int  status   = 0;
    while(true)
    {
        auto rc = waitpid(pid, &status, WNOHANG);
        if(rc == pid) break;
        if(std::chrono::steady_clock::now() > deadline)
        {
            result.timed_out = true;
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds{5});
    }
    if(WIFEXITED(status))
        result.exit_code = WEXITSTATUS(status);
    else if(WIFSIGNALED(status))
        result.exit_code = 128 + WTERMSIG(status);
    result.out = read_text(out_path);
    result.err = read_text(err_path);
    fs::remove_all(dir);
    return result;
}

std::string
required_env(const char* name)
{
    const char* value = std::getenv(name);
    if(value == nullptr || *value == '\0')
    {
        ADD_FAILURE() << "environment variable " << name
                      << " is not set (run this test through ctest)";
        return {};
    }
    return value;
}

fs::path
make_temp_dir(const std::string& test_name)
{
    auto pattern = (fs::temp_directory_path() / ("rocp-integ-" + test_name + "-XXXXXX")).string();
    auto buffer  = std::vector<char>(pattern.begin(), pattern.end());
    buffer.emplace_back('\0');
    if(mkdtemp(buffer.data()) == nullptr) return fs::temp_directory_path();
    return fs::path{buffer.data()};
}

std::optional<nlohmann::json>
read_json(const fs::path& path, std::string* why)
{
    if(!fs::exists(path))
    {
        if(why) *why = path.string() + " was not written";
        return std::nullopt;
    }
    try
    {
        return nlohmann::json::parse(read_text(path));
    }
    catch(const std::exception& e)
    {
        if(why) *why = path.string() + ": " + e.what();
        return std::nullopt;
    }
}

std::string
describe(const run_result& result)
{
    auto ss = std::stringstream{};
    ss << "exit code " << result.exit_code << (result.timed_out ? " (timed out)" : "")
       << "\n--- stdout ---\n"
       << result.out << "\n--- stderr ---\n"
       << result.err;
    return ss.str();
}
} // namespace rocprofiler::integration
