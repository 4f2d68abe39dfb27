// Helpers shared by the kernel replay sample tools: status checks that print the SDK's message,
// an exception firewall for callbacks, environment parsing, agent and counter queries, greedy
// counter grouping, and kernel names from code object tracing.
//
// Header-only on purpose: each sample stays one .cpp plus this file, so it can be copied out of
// the tree as is. Everything here is called from the tool's own initialize/finalize or from SDK
// callbacks; nothing throws out of it.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <optional>
#include <rocprofiler-sdk/rocprofiler.h>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace replay_sample
{
// Prefix of every message the tool prints; each sample sets it in rocprofiler_configure.
inline const char* tool_name = "kernel-replay-sample";

// Prints a failed call with the SDK's name and message for the status. Returns true on success.
inline bool
check(rocprofiler_status_t status, const char* call)
{
    if(status == ROCPROFILER_STATUS_SUCCESS) return true;
    std::fprintf(stderr,
                 "[%s] error: %s failed: %s: %s\n",
                 tool_name,
                 call,
                 rocprofiler_get_status_name(status),
                 rocprofiler_get_status_string(status));
    return false;
}

// Runs a callback body so that no exception crosses into the SDK (a C API). On an exception it
// prints where it happened and returns @p fallback, which each caller chooses to be the safe
// answer (for example "no replay" or "stop the loop").
template <typename Result, typename Body>
Result
guarded(const char* where, Result fallback, Body&& body) noexcept
{
    try
    {
        return std::forward<Body>(body)();
    }
    catch(const std::exception& e)
    {
        std::fprintf(stderr, "[%s] error: %s: %s\n", tool_name, where, e.what());
    }
    catch(...)
    {
        std::fprintf(stderr, "[%s] error: %s: unknown exception\n", tool_name, where);
    }
    return fallback;
}

template <typename Body>
void
guarded(const char* where, Body&& body) noexcept
{
    guarded(where,
            0,
            [&]
            {
                std::forward<Body>(body)();
                return 0;
            });
}

// ---- environment ---------------------------------------------------------------------------

inline std::optional<std::string>
env_string(const char* name)
{
    const char* value = std::getenv(name);
    if(value == nullptr || *value == '\0') return std::nullopt;
    return std::string{value};
}

// An integer from @p min to @p max; anything else is reported and replaced by @p fallback.
inline uint64_t
env_uint(const char* name, uint64_t fallback, uint64_t min, uint64_t max)
{
    auto text = env_string(name);
    if(!text) return fallback;
    char* end  = nullptr;
    errno      = 0;
    auto value = std::strtoull(text->c_str(), &end, 10);
    if(errno != 0 || end == nullptr || *end != '\0' || text->front() == '-' || value < min ||
       value > max)
    {
        std::fprintf(stderr,
                     "[%s] warning: %s='%s' is not a number from %llu to %llu; using %llu\n",
                     tool_name,
                     name,
                     text->c_str(),
                     static_cast<unsigned long long>(min),
                     static_cast<unsigned long long>(max),
                     static_cast<unsigned long long>(fallback));
        return fallback;
    }
    return value;
}

// A finite number from @p min to @p max; anything else is reported and replaced by @p fallback.
inline double
env_double(const char* name, double fallback, double min, double max)
{
    auto text = env_string(name);
    if(!text) return fallback;
    char* end  = nullptr;
    errno      = 0;
    auto value = std::strtod(text->c_str(), &end);
    if(errno != 0 || end == nullptr || *end != '\0' || !std::isfinite(value) || value < min ||
       value > max)
    {
        std::fprintf(stderr,
                     "[%s] warning: %s='%s' is not a number from %g to %g; using %g\n",
                     tool_name,
                     name,
                     text->c_str(),
                     min,
                     max,
                     fallback);
        return fallback;
    }
    return value;
}

// Splits "a, b,,c" into {"a", "b", "c"}: entries are trimmed and empty ones dropped.
inline std::vector<std::string>
split_list(const std::string& text, char separator = ',')
{
    auto result = std::vector<std::string>{};
    auto start  = size_t{0};
    while(start <= text.size())
    {
        auto stop  = std::min(text.find(separator, start), text.size());
        auto entry = text.substr(start, stop - start);
        auto first = entry.find_first_not_of(" \t");
        auto last  = entry.find_last_not_of(" \t");
        if(first != std::string::npos) result.emplace_back(entry.substr(first, last - first + 1));
        start = stop + 1;
    }
    return result;
}

// ---- statistics ----------------------------------------------------------------------------

// Summary of a set of durations in nanoseconds. The standard deviation is the sample one
// (divided by n - 1), 0 for a single value.
struct duration_stats
{
    size_t count  = 0;
    double min    = 0;
    double median = 0;
    double mean   = 0;
    double max    = 0;
    double stddev = 0;
};

inline duration_stats
summarize(std::vector<double> values)
{
    auto stats = duration_stats{};
    if(values.empty()) return stats;
    std::sort(values.begin(), values.end());
    auto n       = values.size();
    stats.count  = n;
    stats.min    = values.front();
    stats.max    = values.back();
    stats.median = (n % 2 == 1) ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
    auto sum     = 0.0;
    for(auto v : values)
        sum += v;
    stats.mean = sum / static_cast<double>(n);
    if(n > 1)
    {
        auto squares = 0.0;
        for(auto v : values)
            squares += (v - stats.mean) * (v - stats.mean);
        stats.stddev = std::sqrt(squares / static_cast<double>(n - 1));
    }
    return stats;
}

// ---- agents and counters -------------------------------------------------------------------

// The kernel-executing agents (type GPU: CUDA devices and the host reference device).
inline std::vector<rocprofiler_agent_v0_t>
gpu_agents()
{
    auto agents = std::vector<rocprofiler_agent_v0_t>{};
    auto cb     = [](rocprofiler_agent_version_t, const void** list, size_t count, void* data)
    {
        auto* out = static_cast<std::vector<rocprofiler_agent_v0_t>*>(data);
        for(size_t i = 0; i < count; ++i)
        {
            const auto* agent = static_cast<const rocprofiler_agent_v0_t*>(list[i]);
            if(agent->type == ROCPROFILER_AGENT_TYPE_GPU) out->push_back(*agent);
        }
        return ROCPROFILER_STATUS_SUCCESS;
    };
    check(rocprofiler_query_available_agents(
              ROCPROFILER_AGENT_INFO_VERSION_0, cb, sizeof(rocprofiler_agent_v0_t), &agents),
          "rocprofiler_query_available_agents");
    return agents;
}

struct counter
{
    rocprofiler_counter_id_t id   = {};
    std::string              name = {};
};

// The counters of @p agent, in the agent's order. An agent without counter support answers
// NOT_IMPLEMENTED; that is not an error worth printing, so it is returned in @p status.
inline std::vector<counter>
agent_counters(rocprofiler_agent_id_t agent, rocprofiler_status_t& status)
{
    auto ids = std::vector<rocprofiler_counter_id_t>{};
    auto cb  = [](rocprofiler_agent_id_t, rocprofiler_counter_id_t* list, size_t count, void* data)
    {
        auto* out = static_cast<std::vector<rocprofiler_counter_id_t>*>(data);
        out->insert(out->end(), list, list + count);
        return ROCPROFILER_STATUS_SUCCESS;
    };
    status      = rocprofiler_iterate_agent_supported_counters(agent, cb, &ids);
    auto result = std::vector<counter>{};
    if(status != ROCPROFILER_STATUS_SUCCESS) return result;
    for(auto id : ids)
    {
        auto info = rocprofiler_counter_info_v0_t{};
        if(!check(rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_0, &info),
                  "rocprofiler_query_counter_info"))
            continue;
        result.push_back(counter{id, info.name != nullptr ? info.name : ""});
    }
    return result;
}

// The counters of @p available named in @p wanted, in the order of @p wanted (all of
// @p available when @p wanted is empty). Unknown names are reported and skipped.
inline std::vector<counter>
select_counters(const std::vector<counter>& available, const std::vector<std::string>& wanted)
{
    if(wanted.empty()) return available;
    auto result = std::vector<counter>{};
    for(const auto& name : wanted)
    {
        auto it = std::find_if(
            available.begin(), available.end(), [&](const counter& c) { return c.name == name; });
        if(it == available.end())
            std::fprintf(stderr,
                         "[%s] warning: counter '%s' does not exist here; skipped\n",
                         tool_name,
                         name.c_str());
        else if(std::none_of(result.begin(),
                             result.end(),
                             [&](const counter& c) { return c.id.handle == it->id.handle; }))
            result.push_back(*it);
    }
    return result;
}

// A group of counters collected together in one pass, and the configuration that collects it.
struct counter_group
{
    rocprofiler_counter_config_id_t config   = {};
    std::vector<counter>            counters = {};
};

// Packs @p counters, in order, into as few groups as fit the agent's counter slots, greedily:
// each counter is added to the open group by creating a configuration of the open group plus
// that counter (rocprofiler_create_counter_config extends the configuration passed in). When
// the SDK answers EXCEEDS_HW_LIMIT the open group is full, so it is closed and the counter
// starts the next one. A counter that does not fit even alone is reported and skipped.
inline std::vector<counter_group>
build_counter_groups(rocprofiler_agent_id_t agent, const std::vector<counter>& counters)
{
    auto groups = std::vector<counter_group>{};
    auto open   = counter_group{};
    for(const auto& c : counters)
    {
        for(int attempt = 0; attempt < 2; ++attempt)
        {
            auto extended = open.config; // non-zero: the new config starts from this one
            auto id       = c.id;
            auto status   = rocprofiler_create_counter_config(agent, &id, 1, &extended);
            if(status == ROCPROFILER_STATUS_SUCCESS)
            {
                if(open.config.handle != 0)
                    check(rocprofiler_destroy_counter_config(open.config),
                          "rocprofiler_destroy_counter_config");
                open.config = extended;
                open.counters.push_back(c);
                break;
            }
            if(status == ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT && !open.counters.empty())
            {
                groups.push_back(std::move(open)); // full: close it and retry c in a new one
                open = counter_group{};
                continue;
            }
            std::fprintf(stderr,
                         "[%s] warning: counter %s cannot be collected: %s: %s\n",
                         tool_name,
                         c.name.c_str(),
                         rocprofiler_get_status_name(status),
                         rocprofiler_get_status_string(status));
            break;
        }
    }
    if(!open.counters.empty()) groups.push_back(std::move(open));
    return groups;
}

// ---- kernel names --------------------------------------------------------------------------

// Kernel names by kernel id, learned from code object tracing (kernel symbol registration).
// Dispatch records carry only the id. Callbacks may run on any thread, hence the mutex.
class kernel_names
{
public:
    // Subscribes @p context to kernel symbol records. Without them names fall back to
    // "kernel_<id>", which is why a failure here is reported but not fatal.
    bool subscribe(rocprofiler_context_id_t context)
    {
        auto op =
            rocprofiler_tracing_operation_t{ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER};
        return check(rocprofiler_configure_callback_tracing_service(
                         context, ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT, &op, 1, callback, this),
                     "rocprofiler_configure_callback_tracing_service(CODE_OBJECT)");
    }

    std::string lookup(rocprofiler_kernel_id_t id) const
    {
        auto lock = std::lock_guard{m_mutex};
        if(auto it = m_names.find(id); it != m_names.end()) return it->second;
        return "kernel_" + std::to_string(id);
    }

private:
    static void
    callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void* data)
    {
        guarded(
            "kernel symbol callback",
            [&]
            {
                if(record.kind != ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT ||
                   record.operation != ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER)
                    return;
                const auto* symbol = static_cast<
                    const rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t*>(
                    record.payload);
                auto* self = static_cast<kernel_names*>(data);
                auto  lock = std::lock_guard{self->m_mutex};
                self->m_names[symbol->kernel_id] =
                    symbol->kernel_name != nullptr ? symbol->kernel_name : "";
            });
    }

    mutable std::mutex                                       m_mutex = {};
    std::unordered_map<rocprofiler_kernel_id_t, std::string> m_names = {};
};

// Quotes a CSV field when it needs it (kernel names may hold commas, e.g. templates).
inline std::string
csv_field(const std::string& text)
{
    if(text.find_first_of(",\"\n") == std::string::npos) return text;
    auto quoted = std::string{"\""};
    for(char ch : text)
    {
        if(ch == '"') quoted += '"';
        quoted += ch;
    }
    return quoted + "\"";
}
} // namespace replay_sample

#define REPLAY_SAMPLE_CHECK(CALL) ::replay_sample::check((CALL), #CALL)
