// Runs host_demo under each kernel replay sample tool and validates what the tool wrote.
//
// host_demo checks its own results and exits 0 only when every value is right, so "exit 0" proves
// that replay left the application with exactly one run's state, non-idempotent kernels included.
// Paths come from the environment (set by CTest): HOST_DEMO and one variable per tool.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace
{
namespace fs = std::filesystem;

// host_demo's workload in every test: 2 iterations of 5 kernels on 1024 elements (16 workgroups
// of 64), so 10 dispatches.
constexpr int               iterations = 2;
constexpr int               kernels    = 5;
constexpr int               dispatches = iterations * kernels;
constexpr uint64_t          work_items = 1024;
constexpr uint64_t          workgroups = 16;
const std::set<std::string> kernel_set = {
    "vector_add", "saxpy", "accumulate", "histogram", "scale_inplace"};

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

struct run_result
{
    int         exit_code = -1;
    std::string out       = {};
    std::string err       = {};
};

using env_list = std::vector<std::pair<std::string, std::string>>;

// A scratch directory per test, removed when the test passed.
class sample_test : public ::testing::Test
{
protected:
    void SetUp() override
    {
        auto        base  = fs::temp_directory_path() / "kernel-replay-samples-XXXXXX";
        std::string templ = base.string();
        ASSERT_NE(mkdtemp(templ.data()), nullptr) << std::strerror(errno);
        dir = templ;
    }
    void TearDown() override
    {
        if(!HasFailure())
        {
            auto ec = std::error_code{};
            fs::remove_all(dir, ec);
        }
        else
            std::fprintf(stderr, "kept %s for inspection\n", dir.c_str());
    }

    // Runs host_demo with ROCP_TOOL_LIBRARIES=<tool> and @p env; stdout/stderr go to files.
    run_result run(const std::string& tool,
                   const env_list&    env,
                   int                program_iterations = iterations,
                   uint64_t           program_size       = work_items)
    {
        auto program = required_env("HOST_DEMO");
        auto out     = dir / "stdout.txt";
        auto err     = dir / "stderr.txt";
        auto pid     = fork();
        if(pid == 0)
        {
            setenv("ROCP_TOOL_LIBRARIES", tool.c_str(), 1);
            for(const auto& [name, value] : env)
                setenv(name.c_str(), value.c_str(), 1);
            int fd_out = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            int fd_err = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if(fd_out < 0 || fd_err < 0) _exit(126);
            dup2(fd_out, STDOUT_FILENO);
            dup2(fd_err, STDERR_FILENO);
            auto it   = std::to_string(program_iterations);
            auto size = std::to_string(program_size);
            execl(program.c_str(),
                  program.c_str(),
                  "--iterations",
                  it.c_str(),
                  "--size",
                  size.c_str(),
                  static_cast<char*>(nullptr));
            _exit(127);
        }
        auto result = run_result{};
        auto status = 0;
        if(pid < 0 || waitpid(pid, &status, 0) != pid) return result;
        result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        result.out       = read_file(out);
        result.err       = read_file(err);
        return result;
    }

    // The program must have run correctly under the tool.
    static void expect_program_ok(const run_result& r)
    {
        EXPECT_EQ(r.exit_code, 0) << "stdout:\n" << r.out << "\nstderr:\n" << r.err;
        EXPECT_NE(r.out.find("host_demo: OK"), std::string::npos) << r.out;
        EXPECT_EQ(r.err.find("error"), std::string::npos) << r.err;
    }

    fs::path dir = {};
};

// ---- a small CSV reader (RFC 4180 quoting) ------------------------------------------------

using csv_row = std::map<std::string, std::string>;

std::vector<std::string>
split_csv_line(const std::string& line)
{
    auto fields = std::vector<std::string>{""};
    auto quoted = false;
    for(size_t i = 0; i < line.size(); ++i)
    {
        char ch = line[i];
        if(quoted && ch == '"' && i + 1 < line.size() && line[i + 1] == '"')
            fields.back() += line[++i];
        else if(ch == '"')
            quoted = !quoted;
        else if(ch == ',' && !quoted)
            fields.emplace_back();
        else
            fields.back() += ch;
    }
    return fields;
}

struct csv_table
{
    std::vector<std::string> columns = {};
    std::vector<csv_row>     rows    = {};
};

csv_table
read_csv(const fs::path& path)
{
    auto table = csv_table{};
    auto in    = std::ifstream{path};
    auto line  = std::string{};
    if(!std::getline(in, line))
    {
        ADD_FAILURE() << path << " is missing or empty";
        return table;
    }
    table.columns = split_csv_line(line);
    while(std::getline(in, line))
    {
        auto fields = split_csv_line(line);
        EXPECT_EQ(fields.size(), table.columns.size()) << "malformed row: " << line;
        auto row = csv_row{};
        for(size_t i = 0; i < fields.size() && i < table.columns.size(); ++i)
            row[table.columns[i]] = fields[i];
        table.rows.push_back(std::move(row));
    }
    return table;
}

double
number(const csv_row& row, const std::string& column)
{
    auto it = row.find(column);
    if(it == row.end() || it->second.empty())
    {
        ADD_FAILURE() << "no value in column " << column;
        return std::nan("");
    }
    return std::stod(it->second);
}

uint64_t
integer(const csv_row& row, const std::string& column)
{
    return static_cast<uint64_t>(number(row, column));
}

// "A=1;B=2" -> {A: 1, B: 2}
std::map<std::string, double>
parse_values(const std::string& text)
{
    auto values = std::map<std::string, double>{};
    auto ss     = std::stringstream{text};
    auto item   = std::string{};
    while(std::getline(ss, item, ';'))
    {
        auto eq = item.find('=');
        if(eq == std::string::npos) continue;
        values[item.substr(0, eq)] = std::stod(item.substr(eq + 1));
    }
    return values;
}

// The first unsigned number after @p label in @p text.
uint64_t
number_after(const std::string& text, const std::string& label)
{
    auto at = text.find(label);
    if(at == std::string::npos)
    {
        ADD_FAILURE() << "'" << label << "' not in:\n" << text;
        return 0;
    }
    return std::strtoull(text.c_str() + at + label.size(), nullptr, 10);
}

// ---- replay_timing_stats -----------------------------------------------------------------

void
expect_timing_table(const csv_table& table, uint64_t passes)
{
    ASSERT_EQ(table.rows.size(), kernel_set.size());
    auto names = std::set<std::string>{};
    for(const auto& row : table.rows)
    {
        names.insert(row.at("kernel"));
        SCOPED_TRACE(row.at("kernel"));
        EXPECT_EQ(integer(row, "dispatches"), static_cast<uint64_t>(iterations));
        EXPECT_EQ(integer(row, "passes"), iterations * passes); // merged on (dispatch, pass)
        EXPECT_EQ(integer(row, "incomplete_dispatches"), 0u);
        auto min = number(row, "min_ns"), median = number(row, "median_ns");
        auto mean = number(row, "mean_ns"), max = number(row, "max_ns");
        EXPECT_GT(min, 0);
        EXPECT_LE(min, median);
        EXPECT_LE(median, max);
        EXPECT_LE(min, mean);
        EXPECT_LE(mean, max);
        EXPECT_GE(number(row, "stddev_ns"), 0);
    }
    EXPECT_EQ(names, kernel_set);
}

// Every dispatch gets the default 10 passes, each timed once, and the table reaches stderr.
TEST_F(sample_test, timing_stats_default_passes)
{
    auto csv = dir / "timing.csv";
    auto r   = run(required_env("REPLAY_TIMING_STATS_TOOL"), {{"REPLAY_TIMING_OUTPUT", csv}});
    expect_program_ok(r);
    EXPECT_NE(r.err.find("median"), std::string::npos) << r.err;
    expect_timing_table(read_csv(csv), 10);
}

// REPLAY_TIMING_PASSES=1 declines replay: one sample per dispatch, from the ordinary run.
TEST_F(sample_test, timing_stats_single_pass_is_not_replayed)
{
    auto csv = dir / "timing.csv";
    auto r   = run(required_env("REPLAY_TIMING_STATS_TOOL"),
                 {{"REPLAY_TIMING_OUTPUT", csv}, {"REPLAY_TIMING_PASSES", "1"}});
    expect_program_ok(r);
    expect_timing_table(read_csv(csv), 1);
}

// ---- replay_counter_groups ---------------------------------------------------------------

const std::vector<std::string> base_counters = {
    "DURATION_NS", "CPU_TIME_NS", "WORKERS_ACTIVE", "WORK_ITEMS", "WORKGROUPS"};

// @p groups: the exact pass count of every dispatch, or nullopt for "the same for every dispatch
// and at least 2" (when derived counters, which take no slot of their own, are in the list).
void
expect_counter_rows(const csv_table&                table,
                    const std::vector<std::string>& counters,
                    std::optional<uint64_t>         groups)
{
    ASSERT_EQ(table.rows.size(), static_cast<size_t>(dispatches)); // one row per dispatch
    auto ids = std::set<std::string>{};
    for(const auto& row : table.rows)
    {
        SCOPED_TRACE("dispatch " + row.at("dispatch_id"));
        ids.insert(row.at("dispatch_id"));
        EXPECT_EQ(kernel_set.count(row.at("kernel")), 1u) << row.at("kernel");
        if(!groups) groups = integer(row, "passes"); // the first dispatch's, for the others
        EXPECT_EQ(integer(row, "passes"), *groups);
        EXPECT_GE(*groups, 2u); // more than one pass: replay is needed
        for(const auto& name : counters)
            EXPECT_FALSE(row.at(name).empty()) << name << " missing";
        auto has = [&](const char* name)
        { return std::find(counters.begin(), counters.end(), name) != counters.end(); };
        // The host device's counters measure the execution, so they are checkable.
        if(has("WORK_ITEMS"))
        {
            EXPECT_EQ(integer(row, "WORK_ITEMS"), work_items);
        }
        if(has("WORKGROUPS"))
        {
            EXPECT_EQ(integer(row, "WORKGROUPS"), workgroups);
        }
        // AMD's name on the host device is its work-items, whichever pass measured each.
        if(has("SQ_WAVES") && has("WORK_ITEMS"))
        {
            EXPECT_EQ(number(row, "SQ_WAVES"), number(row, "WORK_ITEMS"));
        }
        if(has("DURATION_NS"))
        {
            EXPECT_GT(number(row, "DURATION_NS"), 0);
        }
        if(has("WORKERS_ACTIVE"))
        {
            EXPECT_GE(number(row, "WORKERS_ACTIVE"), 1);
        }
    }
    EXPECT_EQ(ids.size(), static_cast<size_t>(dispatches));
}

// Default: every counter of the agent, in groups of 4 (the host device's slots per pass).
TEST_F(sample_test, counter_groups_all_counters)
{
    auto csv = dir / "counters.csv";
    auto r   = run(required_env("REPLAY_COUNTER_GROUPS_TOOL"),
                 {{"REPLAY_COUNTER_GROUPS_OUTPUT", csv}, {"ROCPROFILER_HOST_COUNTER_SLOTS", "4"}});
    expect_program_ok(r);
    EXPECT_NE(r.err.find("0 dispatches are missing values"), std::string::npos) << r.err;
    auto table    = read_csv(csv);
    auto counters = std::vector<std::string>(table.columns.begin() + 4, table.columns.end());
    for(const auto& name : base_counters)
        EXPECT_NE(std::find(counters.begin(), counters.end(), name), counters.end()) << name;
    // Base counters take one slot each, derived ones (the shipped metrics, AMD's counter names)
    // none: at most one group per 4 counters, and the same count for every dispatch.
    expect_counter_rows(table, counters, std::nullopt);
    ASSERT_FALSE(table.rows.empty());
    EXPECT_LE(integer(table.rows.front(), "passes"), (counters.size() + 3) / 4);
}

// REPLAY_COUNTERS picks and orders the counters; 2 slots make 5 counters 3 groups (2+2+1).
TEST_F(sample_test, counter_groups_named_counters_two_slots)
{
    auto csv  = dir / "counters.csv";
    auto list = std::string{"WORKGROUPS, WORK_ITEMS,DURATION_NS,CPU_TIME_NS,WORKERS_ACTIVE"};
    auto r    = run(required_env("REPLAY_COUNTER_GROUPS_TOOL"),
                 {{"REPLAY_COUNTER_GROUPS_OUTPUT", csv},
                     {"REPLAY_COUNTERS", list},
                     {"ROCPROFILER_HOST_COUNTER_SLOTS", "2"}});
    expect_program_ok(r);
    auto table = read_csv(csv);
    auto want  = std::vector<std::string>{"dispatch_id",
                                          "kernel",
                                          "agent",
                                          "passes",
                                          "WORKGROUPS",
                                          "WORK_ITEMS",
                                          "DURATION_NS",
                                          "CPU_TIME_NS",
                                          "WORKERS_ACTIVE"};
    EXPECT_EQ(table.columns, want);
    expect_counter_rows(table, {want.begin() + 4, want.end()}, 3);
}

// ---- replay_per_pass_services ------------------------------------------------------------

// Groups with 2 slots: {WORKGROUPS, WORK_ITEMS}, {DURATION_NS, CPU_TIME_NS}, {WORKERS_ACTIVE},
// so a replayed dispatch runs 3 counter passes and 1 timing pass.
TEST_F(sample_test, per_pass_services_counters_then_timing)
{
    auto csv = dir / "per_pass.csv";
    auto r =
        run(required_env("REPLAY_PER_PASS_SERVICES_TOOL"),
            {{"REPLAY_PER_PASS_OUTPUT", csv},
             {"REPLAY_EVERY", "2"},
             {"REPLAY_COUNTERS", "WORKGROUPS,WORK_ITEMS,DURATION_NS,CPU_TIME_NS,WORKERS_ACTIVE"},
             {"ROCPROFILER_HOST_COUNTER_SLOTS", "2"}});
    expect_program_ok(r);
    // Localized toggles never reached the global state, and the masked counting context was
    // never asked on a timing pass.
    EXPECT_GT(number_after(r.err, "global state checks: "), 0u);
    EXPECT_EQ(number_after(r.err, "contexts found inactive: "), 0u) << r.err;
    EXPECT_EQ(number_after(r.err, "counting requests on a timing pass: "), 0u) << r.err;

    const auto groups = std::vector<std::set<std::string>>{
        {"WORKGROUPS", "WORK_ITEMS"}, {"DURATION_NS", "CPU_TIME_NS"}, {"WORKERS_ACTIVE"}};
    struct seen
    {
        uint64_t                        replay_passes = 0;
        std::map<uint64_t, std::string> counters      = {}; // pass -> values
        std::vector<uint64_t>           timing_passes = {};
        int                             counter_rows  = 0;
    };
    auto by_dispatch = std::map<uint64_t, seen>{};
    for(const auto& row : read_csv(csv).rows)
    {
        auto& s         = by_dispatch[integer(row, "dispatch_id")];
        s.replay_passes = integer(row, "replay_passes");
        auto pass       = integer(row, "pass");
        EXPECT_GT(integer(row, "end_ns"), integer(row, "start_ns"));
        if(row.at("service") == "timing")
            s.timing_passes.push_back(pass);
        else
        {
            EXPECT_EQ(row.at("service"), "counters");
            s.counters[pass] = row.at("values");
            ++s.counter_rows;
        }
    }
    ASSERT_EQ(by_dispatch.size(), static_cast<size_t>(dispatches));
    auto replayed = 0;
    for(const auto& [id, s] : by_dispatch)
    {
        SCOPED_TRACE("dispatch " + std::to_string(id));
        auto expect_group = [&](uint64_t pass, const std::set<std::string>& names)
        {
            auto values = parse_values(s.counters.at(pass));
            auto keys   = std::set<std::string>{};
            for(const auto& [name, value] : values)
                keys.insert(name);
            EXPECT_EQ(keys, names) << "pass " << pass;
        };
        if((id - 1) % 2 == 0)
        {
            // Replayed: counters on passes 0..N-2 (group i on pass i), timing on the last only.
            ++replayed;
            EXPECT_EQ(s.replay_passes, groups.size() + 1);
            ASSERT_EQ(s.counter_rows, static_cast<int>(groups.size()));
            for(uint64_t p = 0; p < groups.size(); ++p)
            {
                ASSERT_EQ(s.counters.count(p), 1u) << "no counters on pass " << p;
                expect_group(p, groups[p]);
            }
            EXPECT_EQ(s.timing_passes, std::vector<uint64_t>{groups.size()});
        }
        else
        {
            // Not replayed: both contexts took part in the one run, as without replay.
            EXPECT_EQ(s.replay_passes, 0u);
            ASSERT_EQ(s.counter_rows, 1);
            ASSERT_EQ(s.counters.count(0), 1u);
            expect_group(0, groups[0]);
            EXPECT_EQ(s.timing_passes, std::vector<uint64_t>{0});
        }
    }
    EXPECT_EQ(replayed, dispatches / 2);
}

// ---- replay_until_stable -----------------------------------------------------------------

struct stable_result
{
    csv_table table = {};
    uint64_t  total = 0; // passes in total, as the tool reported on stderr
};

stable_result
check_until_stable(
    const run_result& r, const fs::path& csv, uint64_t window, double threshold, uint64_t cap)
{
    auto result = stable_result{read_csv(csv), number_after(r.err, "dispatches, ")};
    auto summed = uint64_t{0};
    EXPECT_EQ(result.table.rows.size(), static_cast<size_t>(dispatches));
    for(const auto& row : result.table.rows)
    {
        SCOPED_TRACE("dispatch " + row.at("dispatch_id"));
        auto passes = integer(row, "passes");
        summed += passes;
        EXPECT_GE(passes, 1u);
        EXPECT_LE(passes, cap); // the fallback bounds every loop
        EXPECT_GT(number(row, "window_min_ns"), 0);
        if(row.at("stopped_by") == "stable")
        {
            EXPECT_GE(passes, window);
            EXPECT_GE(number(row, "spread"), 0);
            EXPECT_LT(number(row, "spread"), threshold);
        }
        else
        {
            EXPECT_EQ(row.at("stopped_by"), "cap");
            EXPECT_EQ(passes, cap);
        }
    }
    EXPECT_EQ(result.total, summed);
    return result;
}

// A threshold of 0 can never be met (spread < 0), so every loop ends at the cap.
TEST_F(sample_test, until_stable_unreachable_threshold_stops_at_cap)
{
    auto csv = dir / "stable.csv";
    auto r   = run(required_env("REPLAY_UNTIL_STABLE_TOOL"),
                 {{"REPLAY_STABLE_OUTPUT", csv},
                    {"REPLAY_STABLE_WINDOW", "3"},
                    {"REPLAY_STABLE_THRESHOLD", "0"},
                    {"REPLAY_STABLE_MAX_PASSES", "7"}});
    expect_program_ok(r);
    auto result = check_until_stable(r, csv, 3, 0, 7);
    for(const auto& row : result.table.rows)
        EXPECT_EQ(row.at("stopped_by"), "cap");
    EXPECT_EQ(result.total, 7u * dispatches);
}

// A threshold no spread reaches stops each loop as soon as the window is full.
TEST_F(sample_test, until_stable_loose_threshold_stops_after_window)
{
    auto csv = dir / "stable.csv";
    auto r   = run(required_env("REPLAY_UNTIL_STABLE_TOOL"),
                 {{"REPLAY_STABLE_OUTPUT", csv},
                    {"REPLAY_STABLE_WINDOW", "3"},
                    {"REPLAY_STABLE_THRESHOLD", "1000000"},
                    {"REPLAY_STABLE_MAX_PASSES", "50"}});
    expect_program_ok(r);
    auto result = check_until_stable(r, csv, 3, 1e6, 50);
    for(const auto& row : result.table.rows)
    {
        EXPECT_EQ(row.at("stopped_by"), "stable");
        EXPECT_EQ(integer(row, "passes"), 3u);
    }
    EXPECT_EQ(result.total, 3u * dispatches);
}

// Defaults (window 5, 5 %, cap 50): whatever the machine's noise, each loop ends either stable
// (and then its spread is under 5 %) or at the cap.
TEST_F(sample_test, until_stable_defaults_terminate_within_cap)
{
    auto csv = dir / "stable.csv";
    auto r   = run(required_env("REPLAY_UNTIL_STABLE_TOOL"), {{"REPLAY_STABLE_OUTPUT", csv}});
    expect_program_ok(r);
    check_until_stable(r, csv, 5, 0.05, 50);
}
} // namespace

// ---- replay_service_sequence -------------------------------------------------------------

// Every dispatch replayed: pass 0 collects the one counter group, pass 1 is the PC sampling pass
// (the host agent samples its worker threads), pass 2 the SPM pass (CPU time and active workers
// over time); thread trace is not offered by the host agent and is left out with its reason.
// host_demo's arrays are large enough that its kernels run for tens of milliseconds, so that
// samples are taken.
TEST_F(sample_test, service_sequence_counters_then_pc_sampling)
{
    constexpr int      big_iterations = 2;
    constexpr uint64_t big_size       = 4000000;
    auto               csv            = dir / "sequence.csv";
    auto               r              = run(required_env("REPLAY_SERVICE_SEQUENCE_TOOL"),
                 {{"REPLAY_SEQUENCE_OUTPUT", csv},
                                             {"REPLAY_EVERY", "1"},
                                             {"REPLAY_COUNTERS", "WORKGROUPS,WORK_ITEMS"}},
                 big_iterations,
                 big_size);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("host_demo: OK"), std::string::npos) << r.out;
    EXPECT_EQ(r.err.find("error"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("passes counters 0, pc_sampling, spm\n"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("left out: spm"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("left out: thread_trace (agent"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("ERROR_AGENT_ARCH_NOT_SUPPORTED"), std::string::npos) << r.err;
    EXPECT_EQ(number_after(r.err, "counting requests off a counter pass: "), 0u) << r.err;
    EXPECT_GT(number_after(r.err, "PC samples: "), 0u) << "no sample in a sampling pass\n" << r.err;

    auto rows_of = std::map<uint64_t, std::map<uint64_t, csv_row>>{};
    for(const auto& row : read_csv(csv).rows)
        rows_of[integer(row, "dispatch_id")][integer(row, "pass")] = row;
    ASSERT_EQ(rows_of.size(), static_cast<size_t>(big_iterations * kernels)) << read_file(csv);
    auto sampled                  = uint64_t{0};
    auto spm_samples              = uint64_t{0};
    auto passes_sampled_in_flight = uint64_t{0};
    for(const auto& [id, passes] : rows_of)
    {
        SCOPED_TRACE("dispatch " + std::to_string(id));
        ASSERT_EQ(passes.size(), 3u);
        EXPECT_EQ(passes.at(0).at("service"), "counters");
        auto values = parse_values(passes.at(0).at("detail"));
        EXPECT_EQ(values["WORK_ITEMS"], static_cast<double>(big_size));
        EXPECT_EQ(values["WORKGROUPS"], static_cast<double>((big_size + 63) / 64));
        EXPECT_EQ(passes.at(1).at("service"), "pc_sampling");
        const auto& detail = passes.at(1).at("detail");
        ASSERT_EQ(detail.rfind("samples=", 0), 0u) << detail;
        sampled += std::stoull(detail.substr(8));
        // SPM: samples of the pass's CPU time and of the workers inside it
        // (ROCPROFILER_HOST_WORKERS=2). Every pass has at least its closing sample, with the
        // pass's CPU time; how many samples fall inside a kernel of tens of ms at 100 us depends
        // on when the sampler thread gets a core (on a loaded 2-core machine one pass once had
        // only its closing sample, taken after the workers finished), so the samples taken while
        // workers run are checked over the whole run below, not per pass.
        EXPECT_EQ(passes.at(2).at("service"), "spm");
        auto spm = parse_values(passes.at(2).at("detail"));
        EXPECT_GE(spm["samples"], 1.0) << passes.at(2).at("detail");
        EXPECT_GT(spm["CPU_TIME_NS.sum"], 0.0) << passes.at(2).at("detail");
        EXPECT_LE(spm["WORKERS_ACTIVE.max"], 2.0) << passes.at(2).at("detail");
        if(spm["samples"] >= 2.0 && spm["WORKERS_ACTIVE.max"] >= 1.0) ++passes_sampled_in_flight;
        spm_samples += static_cast<uint64_t>(spm["samples"]);
    }
    EXPECT_GE(passes_sampled_in_flight, 1u)
        << "no SPM pass sampled its kernel while workers ran (several samples, an active worker)";
    EXPECT_EQ(spm_samples, number_after(r.err, "SPM samples in SPM passes: "));
    EXPECT_EQ(sampled, number_after(r.err, "PC samples: "))
        << "the rows hold the samples the summary counts in the sampling pass";
}
