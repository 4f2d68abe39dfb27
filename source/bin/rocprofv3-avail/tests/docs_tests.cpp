// docs/rocprofv3-avail.md's table of exit codes and the help text name exactly the codes of
// exit_codes.hpp, so neither can drift from the program.
#include "arguments.hpp"
#include "exit_codes.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace
{
using namespace rocprofv3_avail;

const std::set<int> codes = {exit_ok,
                             exit_usage,
                             exit_unknown_agent,
                             exit_unknown_counter,
                             exit_needs_passes,
                             exit_setup_error};

// The codes of the rows of the table under "## Exit codes".
std::set<int>
documented_codes()
{
    auto in      = std::ifstream{ROCPROFV3_AVAIL_DOCS};
    auto out     = std::set<int>{};
    auto section = false;
    for(std::string line; std::getline(in, line);)
    {
        if(line.rfind("## ", 0) == 0) section = line == "## Exit codes";
        if(!section || line.rfind("| ", 0) != 0) continue;
        auto cell = line.substr(2, line.find(" |", 2) - 2);
        if(!cell.empty() && cell.find_first_not_of("0123456789") == std::string::npos)
            out.insert(std::stoi(cell));
    }
    return out;
}
} // namespace

TEST(avail_docs, exit_code_table_matches_the_program)
{
    EXPECT_EQ(codes.size(), 6u) << "two exit codes share a value";
    EXPECT_EQ(documented_codes(), codes);
}

TEST(avail_docs, help_names_every_exit_code)
{
    const auto text = usage();
    const auto at   = text.find("exit codes:");
    ASSERT_NE(at, std::string::npos);
    for(auto code : codes)
        EXPECT_NE(text.find(std::to_string(code) + " ", at), std::string::npos) << code;
}
