// rocpd: reads the databases rocprofv3 -f rocpd writes (one per process) as one job: summary,
// query, merge, convert. Installed beside rocprofv3 with four more names: rocpd2csv runs
// `rocpd convert`, rocpd2otf2 and rocpd2pftrace run `rocpd convert -f otf2` / `-f pftrace`
// (unless -f is given), rocpd2summary runs `rocpd summary` (the program's name decides).
#include "arguments.hpp"
#include "commands.hpp"
#include "errors.hpp"

#include <algorithm>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

namespace
{
int
run(int argc, char** argv)
{
    using namespace rocpd;
    auto program = std::string{argc > 0 ? argv[0] : "rocpd"};
    if(auto slash = program.rfind('/'); slash != std::string::npos) program.erase(0, slash + 1);
    auto args = std::vector<std::string>(argv + (argc > 0 ? 1 : 0), argv + argc);

    auto what = command::summary;
    if(program == "rocpd2csv")
        what = command::convert;
    else if(program == "rocpd2otf2")
    {
        what = command::convert;
        if(std::find(args.begin(), args.end(), "-f") == args.end() &&
           std::find(args.begin(), args.end(), "--format") == args.end())
            args.insert(args.end(), {"-f", "otf2"});
    }
    else if(program == "rocpd2pftrace")
    {
        what = command::convert;
        if(std::find(args.begin(), args.end(), "-f") == args.end() &&
           std::find(args.begin(), args.end(), "--format") == args.end())
            args.insert(args.end(), {"-f", "pftrace"});
    }
    else if(program == "rocpd2summary")
        what = command::summary;
    else
    {
        if(args.empty() || args.front() == "-h" || args.front() == "--help")
        {
            std::cout << "usage: rocpd <command> [options]\n"
                         "Reads the databases of rocprofv3 -f rocpd (one per process) as one job.\n"
                         "commands:\n"
                         "  summary   per name and domain: calls, total, mean, min, max, stddev\n"
                         "  query     one SQL query over the union of the databases\n"
                         "  merge     one database holding every input\n"
                         "  convert   CSV files; an OTF2 archive; a Perfetto trace\n"
                         "  package   a folder with an index that stands for several databases\n"
                         "rocpd <command> --help lists a command's options.\n";
            if(args.empty()) return static_cast<int>(exit_code::usage);
            return 0;
        }
        what    = command_named(args.front());
        program = "rocpd " + args.front();
        args.erase(args.begin());
    }
    auto parsed = arguments{};
    if(!parse_arguments(what, args, parsed))
    {
        std::cout << usage(what, program);
        return 0;
    }
    switch(what)
    {
    case command::summary:
        return run_summary(parsed);
    case command::query:
        return run_query(parsed);
    case command::merge:
        return run_merge(parsed);
    case command::convert:
        return run_convert(parsed);
    case command::package:
        return run_package(parsed);
    }
    return 0;
}
} // namespace

int
main(int argc, char** argv)
{
    try
    {
        return run(argc, argv);
    }
    catch(const rocpd::failure& e)
    {
        std::cerr << "rocpd: error: " << e.what() << '\n';
        return static_cast<int>(e.code());
    }
    catch(const std::exception& e)
    {
        std::cerr << "rocpd: error: " << e.what() << '\n';
        return static_cast<int>(rocpd::exit_code::internal);
    }
}
