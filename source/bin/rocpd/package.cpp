// rocpd package: a folder that stands for several databases, as AMD's rocpd package makes it:
// `<name>.rpdb/index.yaml` lists the databases (inputs.hpp has the form), and every rocpd command
// takes the folder, or the index, as `-i`. Without --consolidate the index points at the databases
// where they are; with it they are moved into the folder (--copy: copied, the originals kept).
//
// Nothing is overwritten: a database already at its place in the folder is an error naming it,
// before anything moves; an index already in the folder keeps what it lists (the new databases
// are added); the index is written atomically (files/atomic_file.hpp). The
// inputs are checked as any command checks them (rocpd databases of one job, or --force).
#include "commands.hpp"
#include "errors.hpp"
#include "inputs.hpp"
#include "job.hpp"

#include "files/atomic_file.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>
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

// @p path relative to @p folder, through the real paths (a folder given as ../x, or a link).
std::string
relative_to(const std::string& path, const fs::path& folder)
{
    auto ec  = std::error_code{};
    auto out = fs::relative(path, folder, ec);
    if(ec || out.empty())
        throw failure{exit_code::output,
                      path + ": cannot name it relative to " + folder.string() +
                          (ec ? " (" + ec.message() + ")" : std::string{})};
    return out.string();
}

// What an index already in @p folder lists (a package added to keeps what it held), relative to
// the folder; read before anything moves, so that a bad index stops the command first.
std::vector<std::string>
already_listed(const fs::path& folder)
{
    auto ec   = std::error_code{};
    auto kept = std::vector<std::string>{};
    if(fs::exists(folder / "index.yaml", ec))
        for(const auto& path : read_package_index((folder / "index.yaml").string()))
            kept.push_back(relative_to(path, folder));
    return kept;
}

// Writes the index of @p folder: @p kept, then @p listed, each once.
void
write_index(const fs::path&                 folder,
            std::vector<std::string>        kept,
            const std::vector<std::string>& listed)
{
    for(const auto& name : listed)
        if(std::find(kept.begin(), kept.end(), name) == kept.end()) kept.push_back(name);
    // The tool's own atomic write: an exclusive, unpredictable temporary renamed over the index,
    // never through a link planted at its name.
    auto errors = std::vector<std::string>{};
    if(!rocprofiler::tool::write_file_atomically(
           (folder / "index.yaml").string(), package_index(kept), errors))
        throw failure{exit_code::output, errors.empty() ? "cannot write the index" : errors.back()};
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

    const auto kept   = already_listed(folder);
    auto       listed = std::vector<std::string>{};
    if(!args.consolidate)
    {
        for(const auto& db : the_job.databases())
            listed.push_back(relative_to(db.path(), folder));
        write_index(folder, kept, listed);
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
    // A failure part-way still indexes what arrived, so that no moved database is left unlisted.
    try
    {
        for(const auto& db : the_job.databases())
        {
            db.close();
            const auto name   = fs::path{db.path()}.filename().string();
            const auto target = folder / name;
            if(fs::exists(target, ec) && fs::equivalent(target, db.path(), ec))
            {
                listed.push_back(name);
                continue;
            }
            if(!args.copy)
            {
                fs::rename(db.path(), target, ec);
                if(!ec)
                {
                    listed.push_back(name);
                    continue;
                }
                // Another file system: copied, then the original removed.
                ec.clear();
            }
            fs::copy_file(db.path(), target, fs::copy_options::none, ec);
            if(ec)
            {
                auto ignored = std::error_code{};
                fs::remove(target, ignored); // a partial copy is not a database
                throw failure{exit_code::output,
                              target.string() + ": cannot " +
                                  std::string{args.copy ? "copy " : "move "} + db.path() +
                                  " there (" + ec.message() + ")"};
            }
            listed.push_back(name);
            if(!args.copy) fs::remove(db.path(), ec);
        }
    }
    catch(const failure&)
    {
        if(!listed.empty()) write_index(folder, kept, listed);
        throw;
    }
    write_index(folder, kept, listed);
    std::cerr << "rocpd: wrote " << folder.string() << " (" << listed.size() << " databases "
              << (args.copy ? "copied" : "moved") << " into it, and index.yaml)\n";
    return 0;
}
} // namespace rocpd
