// The kernel name filters' regular expressions (--kernel-include-regex, --kernel-exclude-regex,
// ROCPROF_KERNEL_FILTER_*_REGEX): a pattern matches when it matches anywhere in the name.
//
// The engine is RE2 when the build found it: linear-time matching without recursion, so neither a
// long pattern nor a long name can exhaust the stack; patterns use RE2's syntax (ECMAScript-like,
// without backreferences and lookaround). Without RE2 the engine is std::regex (ECMAScript),
// whose compiler and matcher recurse; it is then made safe by the fallback limits below.
// Immutable after compile(); search() may be called from any thread.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace rocprofiler::tool
{
class name_regex
{
public:
    // Limits of the std::regex fallback (unused with RE2): a longer pattern is rejected, a longer
    // name is matched on its first fallback_max_name_length characters.
    static constexpr size_t fallback_max_pattern_length = 256;
    static constexpr size_t fallback_max_name_length    = 1024;

    // The compiled @p pattern, or nothing with @p error (when not null) set to why not.
    static std::optional<name_regex> compile(const std::string& pattern, std::string* error);

    // "RE2" or "std::regex (ECMAScript)".
    static const char* engine();

    // True when the pattern matches anywhere in @p name.
    bool search(std::string_view name) const;

    const std::string& pattern() const;

    struct impl;

private:
    explicit name_regex(std::shared_ptr<const impl> compiled);

    std::shared_ptr<const impl> m_impl;
};
} // namespace rocprofiler::tool
