// rocprofv3 -i <job file> on its own: the input's first byte picks the form (even: .json, odd:
// .yaml), the rest is the file's contents, written to a private directory and read through the
// whole command line (`rocprofv3 -i <file> -- app`), so that the job reader (job_file.cpp) sees
// every document the document readers accept: jobs of any keys, types and values, merged with the
// command line. Every file is either accepted (one set of options per job) or refused with a
// message and one of rocprofv3's exit codes; the same file gives the same answer twice.
#include "options.hpp"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace
{
// A directory of this process's own, made once (mkdtemp: no other user's file is followed) and
// removed at exit (each input's file is removed after it).
char work_dir[4096] = {};

void
remove_work_directory()
{
    ::rmdir(work_dir);
}

const char*
work_directory()
{
    if(work_dir[0] != '\0') return work_dir;
    const char* tmp = std::getenv("TMPDIR");
    std::snprintf(work_dir,
                  sizeof(work_dir),
                  "%s/fuzz-job-file-XXXXXX",
                  tmp != nullptr && *tmp != '\0' ? tmp : "/tmp");
    if(::mkdtemp(work_dir) == nullptr) std::abort();
    std::atexit(remove_work_directory);
    return work_dir;
}

void
check(const rocprofv3::parse_result& r)
{
    if(r.opts)
    {
        // Accepted: a job per entry of "jobs", and no error.
        if(r.exit_code != 0 || !r.error.empty() || r.opts->jobs.empty()) std::abort();
    }
    else
    {
        if(r.exit_code == 0) std::abort(); // no --help here: a refusal has a code
        if(r.error.rfind("rocprofv3: error: ", 0) != 0 || r.error.back() != '\n') std::abort();
        if(r.exit_code != rocprofv3::exit_usage && r.exit_code != rocprofv3::exit_configuration &&
           r.exit_code != rocprofv3::exit_output)
            std::abort();
    }
}
} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if(size == 0) return 0;
    const auto path =
        std::string{work_directory()} + ((data[0] & 1U) == 0 ? "/job.json" : "/job.yaml");
    auto* file = std::fopen(path.c_str(), "wb");
    if(file == nullptr) std::abort();
    if(size > 1 && std::fwrite(data + 1, 1, size - 1, file) != size - 1) std::abort();
    std::fclose(file);
    const char* argv[] = {"rocprofv3", "-i", path.c_str(), "--", "app"};
    const auto  first  = rocprofv3::parse_command_line(5, argv);
    check(first);
    const auto again = rocprofv3::parse_command_line(5, argv);
    if(again.exit_code != first.exit_code || again.error != first.error ||
       again.opts.has_value() != first.opts.has_value())
        std::abort();
    ::unlink(path.c_str());
    return 0;
}
