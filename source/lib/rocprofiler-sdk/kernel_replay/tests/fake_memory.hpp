// A memory backend for engine tests whose fake agents have no real memory: nothing is tracked
// (so the engine predicts an empty snapshot and verifies nothing), and every primitive succeeds.
// Tests override snapshot/restore/release to script their outcomes.
#pragma once

#include "dispatch/backend.hpp"

#include <optional>
#include <vector>

namespace replay_test
{
class memoryless_backend : public rocprofiler::dispatch::memory_backend
{
public:
    std::vector<rocprofiler::dispatch::memory_range> tracked(bool& tracking) override
    {
        tracking = true;
        return {};
    }
    bool read(uint64_t, void*, size_t) override { return false; }
    bool compare(uint64_t, std::vector<rocprofiler::dispatch::range_change>& out) override
    {
        out.clear();
        return true;
    }
    bool hash(const std::vector<rocprofiler::dispatch::memory_range>&,
              uint64_t,
              std::vector<uint64_t>& out) override
    {
        out.clear();
        return true;
    }
};
} // namespace replay_test
