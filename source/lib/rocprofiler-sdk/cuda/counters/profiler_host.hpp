// CUPTI's profiler host API (metric lists, configuration images, pass counts, evaluation) and the
// device queries of its target side. The host API needs a chip name only, so this works without a
// GPU; the target side needs cuptiProfilerInitialize (target_initialized()).
//
// Threading: CUPTI's host objects are not documented as thread-safe, so every host-API call of the
// SDK holds host_api_mutex().
#pragma once

#include "cuda/cupti/cupti_loader.hpp"

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace rocprofiler::cuda::metrics
{
std::mutex& host_api_mutex();

// Initializes the target side of CUPTI's profiler once. Returns why it failed, or an empty string.
const std::string& target_initialized();

// The chip name of CUDA device `ordinal`, or empty with `error` set.
std::string chip_name(uint32_t ordinal, std::string& error);

// A host object for one chip (and, when given, one context's counter availability), destroyed
// with its owner. Used under host_api_mutex().
class host_object
{
public:
    // `error` is set when CUPTI refuses the chip; the object is then empty.
    // `type` is CUPTI's profiler the object serves (the range profiler unless PM sampling).
    host_object(std::string_view            chip,
                const std::vector<uint8_t>* availability,
                std::string&                error,
                CUpti_ProfilerType          type = CUPTI_PROFILER_TYPE_RANGE_PROFILER);
    ~host_object();

    host_object(const host_object&)            = delete;
    host_object& operator=(const host_object&) = delete;

    CUpti_Profiler_Host_Object* get() const { return m_object; }

    // Adds the metrics and returns the configuration image; empty with `error` set on failure.
    std::vector<uint8_t> config_image(const std::vector<const char*>& names, std::string& error);

private:
    std::string                 m_chip   = {};
    CUpti_Profiler_Host_Object* m_object = nullptr;
};

// The CUPTI passes a configuration image needs (0 with `error` set on failure).
uint32_t passes_of(std::vector<uint8_t>& image, std::string& error);

// Pointers to the names' characters, valid while `names` lives unchanged.
std::vector<const char*> c_names(const std::vector<std::string>& names);
} // namespace rocprofiler::cuda::metrics
