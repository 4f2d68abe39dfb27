// rocpd package: a folder that stands for several databases, as AMD's rocpd package makes it:
// `<name>.rpdb/index.yaml` lists the databases (inputs.hpp has the form), and every rocpd command
// takes the folder, or the index, as `-i`. Without --consolidate the index points at the databases
// where they are; with it they are moved into the folder (--copy: copied, the originals kept).
//
// Nothing is overwritten: a database already at its place in the folder is an error naming it,
// before anything moves; an index already in the folder keeps what it lists (the new databases
// are added); the index is written to a temporary name and renamed into place. The
// inputs are checked as any command checks them (rocpd databases of one job, or --force).
#include "commands.hpp"
#include "errors.hpp"
#include "inputs.hpp"
#include "job.hpp"

#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

namespace rocpd
{
namespace fs = std::filesystem;

namespace
{
// AMD's folder names: <path>.rpdb; without -d, the current folder (index only) or, to
// consolidate, rocpd-<date>-<time>.rpdb in it.
fs::path
package_folder(const arguments& args)
{
    if(args.output_path.empty())
    {
        if(!args.consolidate) return fs::current_path();
        char stamp[32] = {};
        auto now       = std::time(nullptr);
        auto local     = std::tm{};
        ::localtime_r(&now, &local);
        std::strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &local);
        return fs::current_path() / (std::string{"rocpd-"} + stamp + ".rpdb");
    }
    auto path = fs::path{args.output_path};
    if(path.extension() != ".rpdb") path += ".rpdb";
    return path;
}

// Writes the index of @p folder: the databases an index already there lists (a package added
// to keeps what it held), then @p listed, each once.
void
write_index(const fs::path& folder, std::vector<std::string> listed)
{
    auto ec = std::error_code{};
    if(fs::exists(folder / "index.yaml", ec))
    {
        auto kept = std::vector<std::string>{};
        for(const auto& path : read_package_index((folder / "index.yaml").string()))
            kept.push_back(fs::absolute(path).lexically_relative(fs::absolute(folder)).string());
        for(auto& name : listed)
            if(std::find(kept.begin(), kept.end(), name) == kept.end())
                kept.push_back(std::move(name));
        listed = std::move(kept);
    }
    const auto index   = folder / "index.yaml";
    const auto partial = folder / ("index.yaml.partial-" + std::to_string(::getpid()));
    {
        auto out = std::ofstream{partial, std::ios::binary | std::ios::trunc};
        out << package_index(listed);
        out.close();
        if(!out)
        {
            fs::remove(partial);
            throw failure{exit_code::output, index.string() + ": cannot write the index"};
        }
    }
    fs::rename(partial, index, ec);
    if(ec)
    {
        fs::remove(partial);
        throw failure{exit_code::output,
                      index.string() + ": cannot write the index (" + ec.message() + ")"};
    }
}
} // namespace

int
run_package(const arguments& args)
{
    const auto the_job = job{args};
    const auto folder  = package_folder(args);
    auto       ec      = std::error_code{};
    fs::create_directories(folder, ec);
    if(ec || !fs::is_directory(folder))
        throw failure{exit_code::output,
                      folder.string() + ": cannot create the package folder" +
                          (ec ? " (" + ec.message() + ")" : std::string{})};

    auto listed = std::vector<std::string>{};
    if(!args.consolidate)
    {
        for(const auto& db : the_job.databases())
            listed.push_back(
                fs::absolute(db.path()).lexically_relative(fs::absolute(folder)).string());
        write_index(folder, listed);
        std::cerr << "rocpd: wrote " << (folder / "index.yaml").string() << " (" << listed.size()
                  << " databases where they are)\n";
        return 0;
    }

    // Every place checked before anything moves: two inputs of one name, or a file already there.
    auto names = std::set<std::string>{};
    for(const auto& db : the_job.databases())
    {
        const auto name = fs::path{db.path()}.filename().string();
        if(!names.insert(name).second)
            throw failure{exit_code::usage,
                          "rocpd package: two inputs are named " + name +
                              "; the package holds them side by side"};
        const auto target = folder / name;
        if(fs::exists(fs::symlink_status(target, ec)) && !fs::equivalent(target, db.path(), ec))
            throw failure{exit_code::output,
                          target.string() + " is already there; nothing was moved"};
    }
    for(const auto& db : the_job.databases())
    {
        db.close();
        const auto name   = fs::path{db.path()}.filename().string();
        const auto target = folder / name;
        listed.push_back(name);
        if(fs::exists(target, ec) && fs::equivalent(target, db.path(), ec)) continue;
        if(!args.copy)
        {
            fs::rename(db.path(), target, ec);
            if(!ec) continue;
            // Another file system: copied, then the original removed.
            ec.clear();
        }
        fs::copy_file(db.path(), target, fs::copy_options::none, ec);
        if(ec)
            throw failure{exit_code::output,
                          target.string() + ": cannot " +
                              std::string{args.copy ? "copy " : "move "} + db.path() + " there (" +
                              ec.message() + ")"};
        if(!args.copy) fs::remove(db.path(), ec);
    }
    write_index(folder, listed);
    std::cerr << "rocpd: wrote " << folder.string() << " (" << listed.size() << " databases "
              << (args.copy ? "copied" : "moved") << " into it, and index.yaml)\n";
    return 0;
}
} // namespace rocpd
