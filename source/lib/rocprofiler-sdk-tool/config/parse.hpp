// Parsing shared by rocprofv3 (the CLI) and its tool library, so that both accept exactly the same
// spellings: kernel iteration ranges, "pmc:" counter lists, the counter-group encoding of
// ROCPROF_COUNTER_GROUPS, kernel-name regular expressions, and close matches for unknown counters.
// No dependency on the SDK; pure functions, thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocprofiler::tool::parse
{
// An inclusive range of 1-based iteration numbers.
struct iteration_interval
{
    // The last iteration of an open range ("5-"): every iteration from first on.
    static constexpr uint64_t open_end = UINT64_MAX;

    uint64_t first = 0;
    uint64_t last  = 0;
};

// A set of iteration numbers; empty means "every iteration".
struct iteration_range
{
    std::vector<iteration_interval> intervals = {};

    bool contains(uint64_t iteration) const;
    bool empty() const { return intervals.empty(); }
};

// Parses "[1-3,5]", "1-3", "5", "[2]", "[1-2],[3-4]", "[1, 2, [5-8]]", "[5-]": items separated
// by commas or blanks, brackets anywhere (they group nothing, but must balance), each item a
// number, an inclusive "a-b" with a <= b, or an open "a-" (a and every later iteration); numbers
// from 1. On error returns nothing and sets @p error to a sentence naming the offending item.
std::optional<iteration_range> parse_iteration_range(std::string_view text, std::string* error);

// A set of MPI ranks (rocprofv3 --mpi-ranks): inclusive intervals, never empty.
struct rank_list
{
    std::vector<iteration_interval> intervals = {};

    bool contains(uint64_t rank) const;
};

// Parses "0,2", "0-1,3", "5": items separated by commas (blanks around an item allowed), each a
// rank (a decimal number from 0) or an inclusive "a-b" with a <= b. On error returns nothing and
// sets @p error to a sentence naming the offending item.
std::optional<rank_list> parse_rank_list(std::string_view text, std::string* error);

// A non-negative decimal number ("0", "12"; blanks around it allowed), or nothing.
std::optional<uint64_t> parse_count(std::string_view text);

// Splits a counter list such as "pmc: SQ_WAVES GRBM_COUNT" or "SQ_WAVES,GRBM_COUNT" into names.
// A leading "pmc:" is optional; separators are blanks and commas.
std::vector<std::string> parse_counter_list(std::string_view text);

// ROCPROF_COUNTER_GROUPS: groups separated by ';', counters in a group by blanks. Decoding also
// reads AMD's form, one line "pmc: A B" per group.
std::string encode_counter_groups(const std::vector<std::vector<std::string>>& groups);
std::vector<std::vector<std::string>> decode_counter_groups(std::string_view text);

// Reads the "pmc:" lines of an input text file (each line one group; '#' starts a comment; other
// non-empty lines are errors). Returns nothing and sets @p error on failure.
std::optional<std::vector<std::vector<std::string>>> parse_input_text(std::string_view contents,
                                                                      std::string*     error);

// True when @p pattern compiles as a kernel name filter (name_regex: RE2, or the std::regex
// fallback and its limits); else sets @p error to the engine's explanation.
bool validate_regex(const std::string& pattern, std::string* error);

// @p text for a message: unchanged up to 80 characters, else its first 60 and its length.
std::string abbreviate(const std::string& text);

// Case-insensitive Levenshtein distance.
size_t edit_distance(std::string_view a, std::string_view b);

// Names of @p candidates close to @p name, best first, at most @p max_results: those within an
// edit distance of max(2, |name| / 3), plus those that contain @p name or are contained in it
// (case-insensitive). An exact match is never "close": callers check membership first.
std::vector<std::string> close_matches(std::string_view                name,
                                       const std::vector<std::string>& candidates,
                                       size_t                          max_results = 5);

// Kernel names as rocprofv3 writes them: demangled (C++ Itanium ABI; a name that is not mangled
// stays as it is) unless @p demangle_names is false; with @p truncate only the base name of the
// demangled name ("void ns::add<float>(float*, int)" -> "add"), as upstream's -T.
std::string demangle(const std::string& name);
std::string truncate_name(const std::string& demangled);
std::string format_kernel_name(const std::string& name, bool demangle_names, bool truncate);

// Parses a boolean environment value: 1/true/yes/on (any case) are true, anything else false.
bool parse_bool(const char* value);
} // namespace rocprofiler::tool::parse
