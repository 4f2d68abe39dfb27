// Every environment variable the library reads, in one registry: name, type, accepted values,
// default and a line of documentation. docs/api.md's environment table is checked against it
// (common/tests/environment_tests.cpp).
//
// One reaction to a bad value: a value that the setting does not accept is reported once per
// variable per process (common::log::warn_once) as
//     ROCPROFILER_X='abc' is not valid: expected <accepted values>; using the default <d>
// and the default is used. An empty value (or one of blanks only) means unset. Leading and
// trailing blanks are ignored; flags and choices ignore case.
//
// Every get() reads the environment again; callers that need one value per process cache it.
// Thread-safe as far as getenv is (not against a concurrent setenv).
//
// Depends on the C++ standard library only: the host device runtime (host/runtime/), which knows
// nothing else of the SDK, reads its own variables through it.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace rocprofiler::common::log
{
enum class level : int; // common/logging.hpp
}

namespace rocprofiler::common::env
{
enum class value_type
{
    flag,      // 1/0, true/false, yes/no, on/off
    number,    // an unsigned decimal integer within [minimum, maximum]
    choice,    // one of named values
    text,      // any string (a path, a name)
    regex,     // an ECMAScript regular expression
    path_list, // ':'-separated paths; empty entries are skipped
};

struct choice_name
{
    std::string_view name  = {};
    int              value = 0;
    bool             alias = false; // accepted, but not listed in messages and docs
};

// One entry of the registry.
struct setting
{
    std::string_view name = {}; // for an indexed family, the prefix: the variable is <name><N>
    value_type       type = value_type::text;
    std::string_view doc  = {}; // one line: what the variable controls
    // The default of a choice, text or list, or, with computed_default, how the caller computes
    // it (the typed get() then returns nullopt when unset); default_text() shows every default.
    std::string_view             default_text     = {};
    uint64_t                     fallback         = 0; // flag (0/1), number, choice value
    bool                         computed_default = false;
    uint64_t                     minimum          = 0; // number
    uint64_t                     maximum          = UINT64_MAX;
    std::string_view             unit             = {}; // number: "ms", "MiB", ...
    std::span<const choice_name> choices          = {};
    bool                         indexed          = false;
};

// A registry entry with the type its get() returns.
template <typename T> struct typed_setting
{
    setting def = {};
};

// The type of a family of regular expressions: get() takes the member's index.
struct indexed_regex
{
};

// Millisecond, microsecond and MiB settings stop at 2^40 so that the conversion to nanoseconds or
// bytes cannot overflow 64 bits.
inline constexpr uint64_t max_scaled = uint64_t{1} << 40;

struct number_range
{
    uint64_t         minimum = 0;
    uint64_t         maximum = UINT64_MAX;
    std::string_view unit    = {};
};

constexpr typed_setting<bool>
flag(std::string_view name, bool fallback, std::string_view doc)
{
    return {{.name = name, .type = value_type::flag, .doc = doc, .fallback = fallback ? 1U : 0U}};
}

constexpr typed_setting<uint64_t>
number(std::string_view name, uint64_t fallback, number_range range, std::string_view doc)
{
    return {{.name     = name,
             .type     = value_type::number,
             .doc      = doc,
             .fallback = fallback,
             .minimum  = range.minimum,
             .maximum  = range.maximum,
             .unit     = range.unit}};
}

// @p def with a default that the caller computes (@p how says how, for messages and docs).
constexpr setting
with_computed_default(setting def, std::string_view how)
{
    def.default_text     = how;
    def.computed_default = true;
    def.fallback         = 0;
    return def;
}

// A flag whose absence means something of its own (@p unset_means).
constexpr typed_setting<std::optional<bool>>
flag_or_unset(std::string_view name, std::string_view unset_means, std::string_view doc)
{
    return {with_computed_default(flag(name, false, doc).def, unset_means)};
}

constexpr typed_setting<std::optional<uint64_t>>
number_or_computed(std::string_view name,
                   std::string_view computed,
                   number_range     range,
                   std::string_view doc)
{
    return {with_computed_default(number(name, 0, range, doc).def, computed)};
}

// @p names must outlive the setting (a namespace-scope array); @p fallback must be one of them.
template <typename E>
constexpr typed_setting<E>
choice(std::string_view name, std::span<const choice_name> names, E fallback, std::string_view doc)
{
    auto text = std::string_view{};
    for(const auto& entry : names)
        if(entry.value == static_cast<int>(fallback) && !entry.alias && text.empty())
            text = entry.name;
    return {{.name         = name,
             .type         = value_type::choice,
             .doc          = doc,
             .default_text = text,
             .fallback     = static_cast<uint64_t>(fallback),
             .choices      = names}};
}

constexpr typed_setting<std::string>
text(std::string_view name, std::string_view default_text, std::string_view doc)
{
    return {{.name = name, .type = value_type::text, .doc = doc, .default_text = default_text}};
}

constexpr typed_setting<std::vector<std::string>>
path_list(std::string_view name, std::string_view doc)
{
    return {{.name = name, .type = value_type::path_list, .doc = doc, .default_text = "none"}};
}

// A family of regular expressions, <prefix><N>; unset or invalid: no expression ("").
constexpr typed_setting<indexed_regex>
indexed_regex_family(std::string_view prefix, std::string_view default_text, std::string_view doc)
{
    auto def    = text(prefix, default_text, doc).def;
    def.type    = value_type::regex;
    def.indexed = true;
    return {def};
}

// The values of the core's choice settings (one enum per setting; backends define theirs beside
// their tables).
enum class snapshot_scope
{
    predicted, // the memory the kernel is predicted to write, verified
               // (kernel_replay/write_set.hpp)
    all,       // every tracked allocation
};
enum class verify_scope
{
    all,       // every tracked range outside the snapshot
    reachable, // the regions the kernel's pointers reach, outside the snapshot
    off,
};
enum class verify_baseline
{
    kept,  // a window may start from the hashes the agent's last verified window left
    fresh, // every window hashes its verification set before pass 0
};

namespace names
{
// Levels as common::log::level numbers them (logging.cpp checks).
inline constexpr auto log_level = std::array<choice_name, 11>{{{"error", 0},
                                                               {"warning", 1},
                                                               {"info", 2},
                                                               {"debug", 3},
                                                               {"trace", 4},
                                                               {"warn", 1, true},
                                                               {"0", 0, true},
                                                               {"1", 1, true},
                                                               {"2", 2, true},
                                                               {"3", 3, true},
                                                               {"4", 4, true}}};
inline constexpr auto snapshot_scope =
    std::array<choice_name, 3>{{{"predicted", 0}, {"all", 1}, {"reachable", 0, true}}};
inline constexpr auto verify_scope =
    std::array<choice_name, 3>{{{"all", 0}, {"reachable", 1}, {"off", 2}}};
inline constexpr auto verify_baseline = std::array<choice_name, 2>{{{"kept", 0}, {"fresh", 1}}};
} // namespace names

// The core's table, one setting a line. Each device backend has its own table beside its code
// (cuda/settings.hpp, host/settings.hpp) and registers it (backend::device_backend::settings());
// docs/api.md lists the core's table, then each backend's, in the same order.
namespace settings
{
// clang-format off
inline constexpr auto tool_libraries              = path_list("ROCP_TOOL_LIBRARIES", "tool libraries to load, `:`-separated");
inline constexpr auto log_level                   = choice("ROCPROFILER_LOG_LEVEL", names::log_level, static_cast<log::level>(1), "least severe log level printed to stderr (`warn` and `0`-`4` are accepted too)");
inline constexpr auto metrics_path                = text("ROCPROFILER_METRICS_PATH", "none", "a derived-metrics file, or a directory whose `*.json` files are read in name order, added to the shipped file (a definition of the same name replaces the shipped one)");
inline constexpr auto replay_drain_timeout_ms     = number("ROCPROFILER_REPLAY_DRAIN_TIMEOUT_MS", 30000, {0, max_scaled, "ms"}, "how long kernel replay waits for an agent to drain before it declines");
inline constexpr auto replay_max_passes           = number("ROCPROFILER_REPLAY_MAX_PASSES", 1024, {2, UINT32_MAX, "passes"}, "most passes a fixed replay loop may plan; a dispatch whose replay_pass_count returns more is declined (`pass_limit`)");
inline constexpr auto replay_pass_timeout_ms      = number("ROCPROFILER_REPLAY_PASS_TIMEOUT_MS", 10000, {0, max_scaled, "ms"}, "how long kernel replay waits for one pass before it ends the replay (`pass_drain_stuck`; 0: no limit)");
inline constexpr auto replay_snapshot             = choice("ROCPROFILER_REPLAY_SNAPSHOT", names::snapshot_scope, snapshot_scope::predicted, "what a replay snapshot covers: the memory the kernel is predicted to write (verified), or every tracked allocation");
inline constexpr auto replay_verify               = choice("ROCPROFILER_REPLAY_VERIFY", names::verify_scope, verify_scope::all, "which memory outside a predicted snapshot is hashed to prove no pass wrote there: all tracked memory, the regions the kernel's pointers reach, or none");
inline constexpr auto replay_verify_baseline      = choice("ROCPROFILER_REPLAY_VERIFY_BASELINE", names::verify_baseline, verify_baseline::kept, "`kept`: a replay window starts from the hashes the agent's last verified window left when nothing that may write memory ran in between; `fresh`: every window hashes its verification set before pass 0");
inline constexpr auto replay_pointer_depth        = number("ROCPROFILER_REPLAY_POINTER_DEPTH", 3, {1, 8, "levels"}, "how many levels of pointers kernel replay follows to predict a kernel's writes: 1, the pointers in the kernel's arguments; 2, also the pointers held in the memory they point to; 3, one level further");
inline constexpr auto replay_predict_window_mb    = number("ROCPROFILER_REPLAY_PREDICT_WINDOW_MB", 256, {1, max_scaled, "MiB"}, "a kernel seen for the first time is predicted to write the whole region a pointer argument points into when it is at most this large, else this much from the pointer on");
inline constexpr auto replay_allow_host_memory    = flag("ROCPROFILER_REPLAY_ALLOW_HOST_MEMORY", false, "`1`: replay kernels that receive host memory the device's allocator did not hand out (declined as `untracked_memory` otherwise; docs/kernel_replay.md); their writes there are not restored");
// clang-format on

inline constexpr auto all = std::to_array<const setting*>({&tool_libraries.def,
                                                           &log_level.def,
                                                           &metrics_path.def,
                                                           &replay_drain_timeout_ms.def,
                                                           &replay_max_passes.def,
                                                           &replay_pass_timeout_ms.def,
                                                           &replay_snapshot.def,
                                                           &replay_verify.def,
                                                           &replay_verify_baseline.def,
                                                           &replay_predict_window_mb.def,
                                                           &replay_pointer_depth.def,
                                                           &replay_allow_host_memory.def});
} // namespace settings

// --- reading ---------------------------------------------------------------------------------

// Where values come from: std::getenv in the library, a table in tests.
using getenv_function = std::function<const char*(const char*)>;
const getenv_function& process_environment();

enum class state
{
    unset,   // absent or empty: the default applies
    valid,   // accepted: `number` or `text` holds it
    invalid, // not accepted: the default applies, `message` says why
};

// One value checked against its setting, without reporting anything.
struct outcome
{
    state       status  = state::unset;
    uint64_t    number  = 0;  // flag (0/1), number, choice value; the fallback unless valid
    std::string text    = {}; // text, regex, path list: the value as given (trimmed)
    std::string message = {}; // invalid: the warning, "NAME='v' is not valid: expected ..."
};

// Checks @p value (nullptr: unset) of @p variable (the setting's name, or <prefix><N> for an
// indexed family). Pure: for readers that cannot log (the log level itself).
outcome check(const setting& def, std::string_view variable, const char* value);

// What the setting accepts, as messages and docs/api.md say it.
std::string accepted_values(const setting& def);

// The setting's default, as messages and docs/api.md say it.
std::string default_text(const setting& def);

// check() on the environment's value, reporting an invalid value (warn_once, once per variable).
outcome read(const setting& def, std::string_view variable, const getenv_function& getenv);

bool get(const typed_setting<bool>& s, const getenv_function& getenv = process_environment());
std::optional<bool>      get(const typed_setting<std::optional<bool>>& s,
                             const getenv_function&                    getenv = process_environment());
uint64_t                 get(const typed_setting<uint64_t>& s,
                             const getenv_function&         getenv = process_environment());
std::optional<uint64_t>  get(const typed_setting<std::optional<uint64_t>>& s,
                             const getenv_function& getenv = process_environment());
std::string              get(const typed_setting<std::string>& s,
                             const getenv_function&            getenv = process_environment());
std::vector<std::string> get(const typed_setting<std::vector<std::string>>& s,
                             const getenv_function& getenv = process_environment());
// The expression of member @p index of the family; "" when unset or invalid.
std::string get(const typed_setting<indexed_regex>& s,
                uint32_t                            index,
                const getenv_function&              getenv = process_environment());

template <typename E>
E
get(const typed_setting<E>& s,
    const getenv_function&  getenv = process_environment()) requires std::is_enum_v<E>
{
    return static_cast<E>(read(s.def, s.def.name, getenv).number);
}
} // namespace rocprofiler::common::env
