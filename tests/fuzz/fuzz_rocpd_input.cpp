// rocpd's input databases: any bytes, written to a file and opened as rocpd opens each input
// (input_database). The constructor either gives an open database of the known schema version
// with at least one run, or throws rocpd::failure naming the file; nothing else escapes it.
// (SQLite itself is the system's, not instrumented: this fuzzes our checks around it.)
#include "input_database.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace
{
// The file every input is written to: one per fuzzing process, in a directory of its own so that
// nothing SQLite might look for beside it (a journal, a WAL file) is left from another input.
// The directory and its files are removed when the fuzzer exits normally.
const char* const suffixes[] = {"", "-journal", "-wal", "-shm"};

const std::string&
input_directory()
{
    static const std::string dir = []
    {
        auto out = std::string{"/tmp/fuzz-rocpd-input-XXXXXX"};
        if(::mkdtemp(out.data()) == nullptr) std::abort();
        return out;
    }();
    return dir;
}

void
remove_input()
{
    for(const auto* suffix : suffixes)
        ::unlink((input_directory() + "/input.db" + suffix).c_str());
    ::rmdir(input_directory().c_str());
}

const std::string&
input_path()
{
    static const std::string path = []
    {
        auto out = input_directory() + "/input.db";
        std::atexit(remove_input);
        return out;
    }();
    return path;
}

void
write_input(const std::string& path, const uint8_t* data, size_t size)
{
    for(const auto* suffix : suffixes)
        ::unlink((path + suffix).c_str());
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if(fd < 0) std::abort();
    for(size_t done = 0; done < size;)
    {
        const auto n = ::write(fd, data + done, size - done);
        if(n <= 0) std::abort();
        done += static_cast<size_t>(n);
    }
    ::close(fd);
}
} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const auto& path = input_path();
    write_input(path, data, size);
    try
    {
        auto db = rocpd::input_database{path, 0};
        if(db.handle() == nullptr || db.runs() < 1 ||
           db.tag("schema_version") != rocpd::known_schema_version || !db.has_tag("uuid"))
            std::abort();
    }
    catch(const rocpd::failure& e)
    {
        const auto message = std::string{e.what()};
        if(message.rfind(path + ": ", 0) != 0 || message.size() == path.size() + 2) std::abort();
        if(e.code() != rocpd::exit_code::bad_input && e.code() != rocpd::exit_code::locked)
            std::abort();
    }
    return 0;
}
