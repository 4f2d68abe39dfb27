// Unit tests of what makes the tool's outputs survive the end of the process (output.hpp): the
// streamed CSV writer, atomic whole-file writes, write errors with the OS reason, JSON that stays
// valid with a kernel name that is not UTF-8, and metadata.end.
#include "csv/rows.hpp"
#include "files/atomic_file.hpp"
#include "files/csv_stream.hpp"
#include "files/write_guard.hpp"
#include "model/names.hpp"
#include "model/replay_report.hpp"
#include "model/results.hpp"
#include "scratch_dir.hpp"
#include "session/prefix_lock.hpp"
#include "sinks/whole_files.hpp"
#include "json/record_json.hpp"
#include "json/record_spill.hpp"
#include "json/results_document.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <functional>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace fs   = std::filesystem;
namespace tool = rocprofiler::tool;

namespace
{
struct scratch : rocprofv3_test::scratch_dir
{
    scratch()
        : scratch_dir{"rocprofv3-survival-"}
    {
    }
};

std::string
read_all(const fs::path& path)
{
    auto in = std::ifstream{path, std::ios::binary};
    return std::string{std::istreambuf_iterator<char>{in}, {}};
}

bool
has_temporary_files(const fs::path& dir)
{
    for(const auto& entry : fs::directory_iterator{dir})
        if(entry.path().filename().string().find(".tmp-") != std::string::npos) return true;
    return false;
}
} // namespace

TEST(output_survival, streamed_rows_are_on_disk_at_each_flush)
{
    auto dir    = scratch{};
    auto path   = (dir.path / "run_kernel_trace.csv").string();
    auto stream = tool::csv_stream{};
    ASSERT_TRUE(stream.open(path, "\"A\",\"B\"\n"));
    EXPECT_EQ(read_all(path), "\"A\",\"B\"\n"); // the header is written at once
    stream.append("1,2\n");
    EXPECT_EQ(read_all(path), "\"A\",\"B\"\n"); // buffered until flushed
    stream.flush();
    EXPECT_EQ(read_all(path), "\"A\",\"B\"\n1,2\n");
    stream.append("3,4\n");
    auto error = std::string{};
    EXPECT_TRUE(stream.finish(error)) << error;
    EXPECT_EQ(read_all(path), "\"A\",\"B\"\n1,2\n3,4\n");
}

TEST(output_survival, a_streamed_file_removed_during_the_run_is_an_error)
{
    auto dir    = scratch{};
    auto path   = (dir.path / "sub" / "run_kernel_trace.csv").string();
    auto stream = tool::csv_stream{};
    fs::create_directories(dir.path / "sub");
    ASSERT_TRUE(stream.open(path, "h\n"));
    stream.append("row\n");
    fs::remove_all(dir.path / "sub"); // writes to the open file still succeed, into nothing
    auto error = std::string{};
    EXPECT_FALSE(stream.finish(error));
    EXPECT_NE(error.find("could not write '" + path + "': No such file or directory"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("removed during the run"), std::string::npos) << error;
}

TEST(output_survival, a_full_device_is_an_error_with_the_os_reason)
{
    if(!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
    auto stream = tool::csv_stream{};
    EXPECT_FALSE(stream.open("/dev/full", "header\n"));
    EXPECT_EQ(stream.error(), "could not write '/dev/full': No space left on device");
    auto error = std::string{};
    EXPECT_FALSE(stream.finish(error));
    EXPECT_EQ(error, stream.error());
}

TEST(output_survival, whole_files_are_replaced_atomically_or_not_at_all)
{
    auto dir    = scratch{};
    auto path   = (dir.path / "run_results.json").string();
    auto errors = std::vector<std::string>{};
    ASSERT_TRUE(tool::write_file_atomically(path, "first\n", errors));
    ASSERT_TRUE(tool::write_file_atomically(path, "second\n", errors));
    EXPECT_TRUE(errors.empty());
    EXPECT_EQ(read_all(path), "second\n");
    EXPECT_FALSE(has_temporary_files(dir.path));

    auto missing = (dir.path / "gone" / "run_results.json").string();
    EXPECT_FALSE(tool::write_file_atomically(missing, "x", errors));
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0], "could not write '" + missing + "': No such file or directory");
}

// Issue 34: a symbolic link planted at an output's name, or at the name a temporary would have,
// is never followed; its target keeps its content.
TEST(output_links, a_link_at_a_streamed_output_is_refused_and_its_target_untouched)
{
    auto dir    = scratch{};
    auto target = dir.path / "users_file";
    std::ofstream{target} << "the user's content\n";
    auto csv  = (dir.path / "run_kernel_trace.csv").string();
    auto part = (dir.path / "run_results.json.kernel_dispatch.part").string();
    fs::create_symlink(target, csv);
    fs::create_symlink(target, part);
    auto stream = tool::csv_stream{};
    EXPECT_FALSE(stream.open(csv, "header\n"));
    EXPECT_EQ(stream.error(), "refusing to write '" + csv + "': it is a symbolic link");
    auto spill = tool::record_spill{};
    EXPECT_FALSE(spill.open(part));
    EXPECT_EQ(read_all(target), "the user's content\n");
    EXPECT_TRUE(fs::is_symlink(csv));
    EXPECT_TRUE(fs::is_symlink(part));
}

TEST(output_links, a_link_at_a_whole_file_output_is_refused_and_its_target_untouched)
{
    auto dir    = scratch{};
    auto target = dir.path / "users_file";
    std::ofstream{target} << "the user's content\n";
    auto path = (dir.path / "run_results.json").string();
    fs::create_symlink(target, path);
    auto errors = std::vector<std::string>{};
    EXPECT_FALSE(tool::write_file_atomically(path, "{}\n", errors));
    ASSERT_EQ(errors.size(), 1U);
    EXPECT_EQ(errors[0], "refusing to write '" + path + "': it is a symbolic link");
    EXPECT_EQ(read_all(target), "the user's content\n");
    EXPECT_FALSE(has_temporary_files(dir.path));
}

TEST(output_links, the_temporary_of_a_whole_file_write_is_created_exclusively)
{
    auto dir    = scratch{};
    auto target = dir.path / "users_file";
    std::ofstream{target} << "the user's content\n";
    auto path = (dir.path / "run_agent_info.csv").string();
    // Links at the names the writer used to take (<path>.tmp-<pid>) and at other guesses.
    fs::create_symlink(target, path + ".tmp-" + std::to_string(getpid()));
    fs::create_symlink(target, path + ".tmp-rocprofv3");
    fs::create_symlink(target, path + ".tmp-XXXXXX");
    auto errors = std::vector<std::string>{};
    ASSERT_TRUE(tool::write_file_atomically(path, "new\n", errors));
    EXPECT_TRUE(errors.empty());
    EXPECT_EQ(read_all(path), "new\n");
    EXPECT_FALSE(fs::is_symlink(path));
    EXPECT_EQ(read_all(target), "the user's content\n");
    // The temporary's name is not guessable, and it is a new file of the writer's own: a name
    // already taken is never opened.
    auto       first  = std::string{};
    auto       second = std::string{};
    const auto a      = tool::create_temporary(path, 0644, first);
    const auto b      = tool::create_temporary(path, 0644, second);
    ASSERT_GE(a, 0);
    ASSERT_GE(b, 0);
    EXPECT_NE(first, second);
    EXPECT_EQ(first.rfind(path + ".tmp-", 0), 0U);
    struct stat st = {};
    ASSERT_EQ(::lstat(first.c_str(), &st), 0);
    EXPECT_TRUE(S_ISREG(st.st_mode));
    EXPECT_EQ(st.st_size, 0);
    ::close(a);
    ::close(b);
    ::unlink(first.c_str());
    ::unlink(second.c_str());
    // Permissions stay those of every output: 0644 less the umask.
    const auto mask = ::umask(022);
    ::umask(mask);
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0644 & ~mask);
}

TEST(output_survival, json_stays_valid_with_a_kernel_name_that_is_not_utf8)
{
    auto dir                         = scratch{};
    auto cfg                         = tool::config{};
    cfg.kernel_trace                 = true;
    cfg.csv                          = true;
    cfg.json                         = true;
    cfg.output_path                  = dir.path.string();
    cfg.output_file_name             = "run";
    auto data                        = tool::results{};
    data.pid                         = 42;
    data.command                     = {"app", "arg\xc3"}; // a truncated two-byte sequence
    auto sym                         = tool::kernel_symbol{};
    sym.kernel_id                    = 7;
    sym.name                         = "vector_add\xff\xfe";
    data.kernel_symbols[7]           = sym;
    auto record                      = rocprofiler_buffer_tracing_kernel_dispatch_record_t{};
    record.dispatch_info.kernel_id   = 7;
    record.dispatch_info.dispatch_id = 1;
    data.dispatches.push_back(record);
    data.end = tool::run_end{tool::run_end::exit, 0};

    auto errors = std::vector<std::string>{};
    tool::write_outputs(cfg, data, errors);
    ASSERT_TRUE(errors.empty()) << errors.front();
    auto        doc = nlohmann::json::parse(read_all(dir.path / "run_results.json"));
    const auto& t   = doc.at("rocprofiler-sdk-tool").at(0);
    // Each invalid byte becomes U+FFFD; the valid part of the name is kept.
    EXPECT_EQ(t.at("kernel_symbols").at("7").at("kernel_name").get<std::string>(),
              "vector_add\xef\xbf\xbd\xef\xbf\xbd");
    EXPECT_EQ(t.at("metadata").at("command").at(1).get<std::string>(), "arg\xef\xbf\xbd");
    // The CSV keeps the bytes as they are.
    EXPECT_NE(read_all(dir.path / "run_kernel_trace.csv").find("\"vector_add\xff\xfe\""),
              std::string::npos);
}

TEST(output_survival, metadata_end_says_how_the_run_ended)
{
    auto dir             = scratch{};
    auto cfg             = tool::config{};
    cfg.csv              = false;
    cfg.json             = true;
    cfg.output_path      = dir.path.string();
    cfg.output_file_name = "run";
    auto data            = tool::results{};
    auto end_of          = [&](tool::run_end end)
    {
        data.end    = end;
        auto errors = std::vector<std::string>{};
        tool::write_outputs(cfg, data, errors);
        EXPECT_TRUE(errors.empty());
        return nlohmann::json::parse(read_all(dir.path / "run_results.json"))
            .at("rocprofiler-sdk-tool")
            .at(0)
            .at("metadata")
            .at("end");
    };
    EXPECT_EQ(end_of({tool::run_end::exit, 0}),
              nlohmann::json::parse(R"({"kind": "exit", "complete": true})"));
    EXPECT_EQ(end_of({tool::run_end::running, 0}),
              nlohmann::json::parse(R"({"kind": "running", "complete": false})"));
    EXPECT_EQ(
        end_of({tool::run_end::signal, SIGSEGV}),
        nlohmann::json::parse(
            R"({"kind": "signal", "complete": false, "signal": 11, "signal_name": "SIGSEGV"})"));
    EXPECT_EQ(tool::signal_name(SIGTERM), "SIGTERM");
    EXPECT_EQ(tool::signal_name(64), "signal 64");
}

TEST(output_survival, spilled_records_make_the_same_results_json_as_records_in_memory)
{
    auto dir               = scratch{};
    auto cfg               = tool::config{};
    cfg.csv                = false;
    cfg.json               = true;
    cfg.kernel_trace       = true;
    cfg.output_path        = dir.path.string();
    cfg.output_file_name   = "run";
    auto data              = tool::results{};
    data.pid               = 42;
    auto sym               = tool::kernel_symbol{};
    sym.kernel_id          = 7;
    sym.name               = "k\n\"name\xff"; // a newline, a quote and a byte that is not UTF-8
    data.kernel_symbols[7] = sym;
    for(uint64_t i = 1; i <= 2500; ++i) // several flushes of the spill's 64 KiB buffer
    {
        auto record                      = rocprofiler_buffer_tracing_kernel_dispatch_record_t{};
        record.dispatch_info.kernel_id   = 7;
        record.dispatch_info.dispatch_id = i;
        record.start_timestamp           = 1000 * i;
        record.end_timestamp             = 1000 * i + 10;
        data.dispatches.push_back(record);
        auto counted                           = tool::counter_dispatch{};
        counted.data.dispatch_info.dispatch_id = i;
        counted.values.push_back(tool::counter_value{3, "C", static_cast<double>(i)});
        data.counter_records.push_back(counted);
    }
    data.end    = tool::run_end{tool::run_end::exit, 0};
    auto errors = std::vector<std::string>{};
    tool::write_outputs(cfg, data, errors);
    ASSERT_TRUE(errors.empty()) << errors.front();
    const auto in_memory = nlohmann::json::parse(read_all(dir.path / "run_results.json"));
    // Written in order, the document is laid out exactly as nlohmann's dump with an indent of 1.
    const auto text = read_all(dir.path / "run_results.json");
    EXPECT_EQ(text, nlohmann::ordered_json::parse(text).dump(1) + "\n");

    // The same records through part files, the vectors empty: the text is the same, byte for
    // byte, but for the spilled arrays' compact records.
    auto spill_path = [&](const char* what) { return (dir.path / what).string(); };
    auto dispatches = tool::record_spill{};
    auto counters   = tool::record_spill{};
    ASSERT_TRUE(dispatches.open(spill_path("d.part")));
    ASSERT_TRUE(counters.open(spill_path("c.part")));
    for(const auto& r : data.dispatches)
        dispatches.append(tool::dispatch_record_json(r));
    for(const auto& r : data.counter_records)
        counters.append(tool::counter_record_json(r));
    data.dispatches.clear();
    data.counter_records.clear();
    EXPECT_EQ(dispatches.size(), 2500u);
    auto       spills         = tool::results_spills{};
    const auto report         = tool::replay_report{};
    const auto path           = (dir.path / "run_results.json").string();
    spills.kernel_dispatch    = &dispatches;
    spills.counter_collection = &counters;
    ASSERT_TRUE(tool::write_results_json(path, cfg, data, report, spills, errors));
    ASSERT_TRUE(errors.empty()) << errors.front();
    const auto spilled = nlohmann::json::parse(read_all(dir.path / "run_results.json"));
    EXPECT_EQ(spilled, in_memory);
    EXPECT_EQ(
        spilled.at("rocprofiler-sdk-tool").at(0).at("buffer_records").at("kernel_dispatch").size(),
        2500u);
    // A checkpoint and the final write read the same part files; removing them leaves nothing.
    ASSERT_TRUE(tool::write_results_json(path, cfg, data, report, spills, errors));
    EXPECT_EQ(nlohmann::json::parse(read_all(dir.path / "run_results.json")), in_memory);
    dispatches.remove();
    counters.remove();
    EXPECT_FALSE(fs::exists(spill_path("d.part")));
    EXPECT_FALSE(fs::exists(spill_path("c.part")));
    EXPECT_FALSE(has_temporary_files(dir.path));
}

namespace
{
// Runs @p body in a child process and returns its wait status: a SIGXFSZ that escaped the guard
// kills the child (WIFSIGNALED), an expectation that failed in it makes it exit with 1.
int
in_child(const std::function<bool()>& body)
{
    const auto pid = fork();
    if(pid == 0) _exit(body() ? 0 : 1);
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

bool
sigxfsz_pending()
{
    auto pending = sigset_t{};
    sigpending(&pending);
    return sigismember(&pending, SIGXFSZ) == 1;
}

void
limit_file_size(rlim_t bytes)
{
    auto limit     = rlimit{};
    limit.rlim_cur = bytes;
    limit.rlim_max = bytes;
    setrlimit(RLIMIT_FSIZE, &limit);
}
} // namespace

// docs/reliability.md, "Write failures": a write past RLIMIT_FSIZE fails with EFBIG; no SIGXFSZ
// reaches the process (its default action would end it) and none is left pending.
TEST(write_guard, file_size_limit_is_an_error_not_a_signal)
{
    auto       dir    = scratch{};
    const auto path   = (dir.path / "big").string();
    const auto status = in_child(
        [&]
        {
            limit_file_size(1024);
            const auto fd  = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            auto       buf = std::string(4096, 'x');
            const auto err = tool::write_all(fd, buf.data(), buf.size());
            return err == EFBIG && !sigxfsz_pending();
        });
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "wait status " << status;
}

// A SIGXFSZ that was pending before the write (the application's own) is left pending.
TEST(write_guard, the_application_s_pending_sigxfsz_is_left_alone)
{
    auto       dir    = scratch{};
    const auto path   = (dir.path / "big").string();
    const auto status = in_child(
        [&]
        {
            auto set = sigset_t{};
            sigemptyset(&set);
            sigaddset(&set, SIGXFSZ);
            sigprocmask(SIG_BLOCK, &set, nullptr);
            raise(SIGXFSZ);
            limit_file_size(1024);
            const auto fd  = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            auto       buf = std::string(4096, 'x');
            return tool::write_all(fd, buf.data(), buf.size()) == EFBIG && sigxfsz_pending();
        });
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "wait status " << status;
}

// A streamed file whose write is cut short by the limit keeps its whole rows only.
TEST(write_guard, a_cut_stream_ends_with_its_last_whole_row)
{
    auto       dir    = scratch{};
    const auto path   = (dir.path / "run_kernel_trace.csv").string();
    const auto status = in_child(
        [&]
        {
            limit_file_size(1000);
            auto stream = tool::csv_stream{};
            if(!stream.open(path, "\"A\",\"B\"\n")) return false;
            stream.append(std::string(100, '1') + "\n");
            stream.flush();
            stream.append(std::string(2000, '2') + "\n");
            stream.flush();
            auto error = std::string{};
            return !stream.finish(error) && error.find("File too large") != std::string::npos;
        });
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "wait status " << status;
    EXPECT_EQ(read_all(path), "\"A\",\"B\"\n" + std::string(100, '1') + "\n");
}

// docs/reliability.md, "One run owns its outputs": a prefix locked by one process is taken for
// every other (a child forked from it included); released, the lock file is gone.
TEST(prefix_lock, a_locked_prefix_is_taken_for_other_processes)
{
    namespace lock = tool::prefix_lock;
    auto dir       = scratch{};
    ASSERT_EQ(lock::lock(dir.path.string(), "run"), lock::outcome::locked);
    EXPECT_TRUE(fs::exists(dir.path / "run.lock"));
    const auto status =
        in_child([&] { return lock::lock(dir.path.string(), "run") == lock::outcome::taken; });
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "wait status " << status;
    // The child's end did not release the parent's lock.
    const auto again =
        in_child([&] { return lock::lock(dir.path.string(), "run") == lock::outcome::taken; });
    EXPECT_TRUE(WIFEXITED(again) && WEXITSTATUS(again) == 0) << "wait status " << again;
    lock::release();
    EXPECT_FALSE(fs::exists(dir.path / "run.lock"));
    const auto free =
        in_child([&] { return lock::lock(dir.path.string(), "run") == lock::outcome::locked; });
    EXPECT_TRUE(WIFEXITED(free) && WEXITSTATUS(free) == 0) << "wait status " << free;
}
