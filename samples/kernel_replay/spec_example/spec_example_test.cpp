// Runs host_demo under the spec_example tool (the spec's configuration snippet and callbacks,
// pasted unchanged) and checks that it behaves as the spec says:
// - host_demo exits 0 with its "host_demo: OK" line: its two non-idempotent kernels left exactly
//   one run's memory state, and every completion it waited on fired;
// - every dispatch has exactly N KERNEL_DISPATCH records, all with its one dispatch id, carrying
//   passes 0..N-1 (the pass published at PASS ENTER), each with its own timestamps;
// - replay_pass_count ran once per dispatch (once per CONFIG), PASS ENTER and PASS EXIT fired N
//   times per dispatch.
// HOST_DEMO and SPEC_EXAMPLE_TOOL come from CTest.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace
{
namespace fs = std::filesystem;

constexpr uint64_t dispatches = 2 * 5; // host_demo --iterations 2: 5 kernels per iteration

std::string
slurp(const fs::path& path)
{
    auto in = std::ifstream{path};
    auto ss = std::stringstream{};
    ss << in.rdbuf();
    return ss.str();
}

struct result
{
    int         exit_code = -1;
    std::string out       = {};
    std::string err       = {};
    std::string csv       = {};
};

class spec_example : public ::testing::Test
{
protected:
    void SetUp() override
    {
        auto templ = (fs::temp_directory_path() / "spec-example-XXXXXX").string();
        ASSERT_NE(mkdtemp(templ.data()), nullptr) << std::strerror(errno);
        dir = templ;
    }
    void TearDown() override
    {
        auto ec = std::error_code{};
        if(!HasFailure())
            fs::remove_all(dir, ec);
        else
            std::fprintf(stderr, "kept %s for inspection\n", dir.c_str());
    }

    // groups: SPEC_EXAMPLE_GROUPS, or nullptr to leave it unset (the default, 3).
    result run(const char* groups)
    {
        const char* program = std::getenv("HOST_DEMO");
        const char* tool    = std::getenv("SPEC_EXAMPLE_TOOL");
        EXPECT_TRUE(program != nullptr && tool != nullptr)
            << "CTest sets HOST_DEMO and SPEC_EXAMPLE_TOOL";
        auto r = result{};
        if(program == nullptr || tool == nullptr) return r;
        auto out = dir / "stdout.txt", err = dir / "stderr.txt", csv = dir / "records.csv";
        auto pid = fork();
        if(pid == 0)
        {
            setenv("ROCP_TOOL_LIBRARIES", tool, 1);
            setenv("SPEC_EXAMPLE_OUTPUT", csv.c_str(), 1);
            if(groups != nullptr)
                setenv("SPEC_EXAMPLE_GROUPS", groups, 1);
            else
                unsetenv("SPEC_EXAMPLE_GROUPS");
            int fo = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            int fe = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if(fo < 0 || fe < 0) _exit(126);
            dup2(fo, STDOUT_FILENO);
            dup2(fe, STDERR_FILENO);
            execl(program,
                  program,
                  "--iterations",
                  "2",
                  "--size",
                  "1024",
                  static_cast<char*>(nullptr));
            _exit(127);
        }
        auto status = 0;
        if(pid < 0 || waitpid(pid, &status, 0) != pid) return r;
        r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        r.out       = slurp(out);
        r.err       = slurp(err);
        r.csv       = slurp(csv);
        return r;
    }

    fs::path dir = {};
};

uint64_t
summary_value(const std::string& err, const std::string& key)
{
    auto pos = err.find("spec_example: pass_count_calls=");
    EXPECT_NE(pos, std::string::npos) << "no summary line\n" << err;
    if(pos == std::string::npos) return ~0ull;
    auto line = err.substr(pos, err.find('\n', pos) - pos);
    auto at   = line.find(key + "=");
    EXPECT_NE(at, std::string::npos) << line;
    if(at == std::string::npos) return ~0ull;
    return std::strtoull(line.c_str() + at + key.size() + 1, nullptr, 10);
}

struct record
{
    uint64_t kernel = 0;
    int64_t  pass   = 0;
    uint64_t start  = 0;
    uint64_t end    = 0;
};

// dispatch id -> its records, in file order.
std::map<uint64_t, std::vector<record>>
parse(const std::string& csv)
{
    auto by_id = std::map<uint64_t, std::vector<record>>{};
    auto in    = std::istringstream{csv};
    auto line  = std::string{};
    std::getline(in, line);
    EXPECT_EQ(line, "dispatch_id,kernel_id,pass,start,end");
    while(std::getline(in, line))
    {
        unsigned long long id = 0, kernel = 0, start = 0, end = 0;
        long long          pass = 0;
        EXPECT_EQ(std::sscanf(
                      line.c_str(), "%llu,%llu,%lld,%llu,%llu", &id, &kernel, &pass, &start, &end),
                  5)
            << line;
        by_id[id].push_back({kernel, pass, start, end});
    }
    return by_id;
}

void
expect_program_ok(const result& r)
{
    EXPECT_EQ(r.exit_code, 0) << "stdout:\n" << r.out << "\nstderr:\n" << r.err;
    EXPECT_NE(r.out.find("host_demo: OK"), std::string::npos) << r.out;
    EXPECT_EQ(r.err.find("error"), std::string::npos) << r.err;
}

void
expect_replayed(const result& r, uint64_t passes)
{
    expect_program_ok(r);
    EXPECT_EQ(summary_value(r.err, "pass_count_calls"), dispatches) << "once per CONFIG";
    EXPECT_EQ(summary_value(r.err, "pass_enters"), dispatches * passes);
    EXPECT_EQ(summary_value(r.err, "pass_exits"), dispatches * passes);
    EXPECT_EQ(summary_value(r.err, "records"), dispatches * passes);
    auto by_id = parse(r.csv);
    ASSERT_EQ(by_id.size(), dispatches) << r.csv;
    for(const auto& [id, recs] : by_id)
    {
        SCOPED_TRACE("dispatch " + std::to_string(id));
        ASSERT_EQ(recs.size(), passes) << "one record per pass, all with this dispatch id";
        auto got    = std::vector<int64_t>{};
        auto starts = std::set<uint64_t>{};
        for(const auto& rec : recs)
        {
            got.push_back(rec.pass);
            starts.insert(rec.start);
            EXPECT_EQ(rec.kernel, recs.front().kernel);
            EXPECT_LE(rec.start, rec.end);
        }
        auto want = std::vector<int64_t>{};
        for(uint64_t p = 0; p < passes; ++p)
            want.push_back(static_cast<int64_t>(p));
        EXPECT_EQ(got, want) << "passes 0..N-1, in order";
        EXPECT_EQ(starts.size(), passes) << "each pass has its own timestamps";
    }
}

TEST_F(spec_example, default_three_passes)
{
    expect_replayed(run(nullptr), 3);
}

TEST_F(spec_example, five_passes)
{
    expect_replayed(run("5"), 5);
}

// "Return 1 to skip replay": one record per dispatch, no PASS callback, no pass published.
TEST_F(spec_example, one_pass_is_not_replayed)
{
    auto r = run("1");
    expect_program_ok(r);
    EXPECT_EQ(summary_value(r.err, "pass_count_calls"), dispatches);
    EXPECT_EQ(summary_value(r.err, "pass_enters"), 0u);
    EXPECT_EQ(summary_value(r.err, "pass_exits"), 0u);
    auto by_id = parse(r.csv);
    ASSERT_EQ(by_id.size(), dispatches);
    for(const auto& [id, recs] : by_id)
    {
        ASSERT_EQ(recs.size(), 1u) << "dispatch " << id;
        EXPECT_EQ(recs[0].pass, -1) << "dispatch " << id;
    }
}
} // namespace
