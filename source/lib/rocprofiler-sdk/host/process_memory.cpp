#include "host/process_memory.hpp"

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace rocprofiler::host
{
namespace
{
// Below this a word is a count, a flag or null; above the canonical user range it is no address.
constexpr uint64_t lowest_address  = 0x10000;
constexpr uint64_t highest_address = 0x0000800000000000ULL;
} // namespace

std::vector<std::pair<uint64_t, uint64_t>>
writable_mappings()
{
    auto  out  = std::vector<std::pair<uint64_t, uint64_t>>{};
    auto* maps = std::fopen("/proc/self/maps", "re");
    if(maps == nullptr) return out;
    auto line = std::array<char, 512>{};
    while(std::fgets(line.data(), static_cast<int>(line.size()), maps) != nullptr)
    {
        auto start = uint64_t{0};
        auto end   = uint64_t{0};
        auto perms = std::array<char, 5>{};
        if(std::sscanf(line.data(), "%" SCNx64 "-%" SCNx64 " %4s", &start, &end, perms.data()) ==
               3 &&
           perms[1] == 'w')
            out.emplace_back(start, end);
        // A line longer than the buffer (a long path): skip the rest of it.
        while(std::strchr(line.data(), '\n') == nullptr &&
              std::fgets(line.data(), static_cast<int>(line.size()), maps) != nullptr)
        {
        }
    }
    std::fclose(maps);
    std::sort(out.begin(), out.end());
    return out;
}

std::optional<untracked_pointer>
find_untracked_pointer(const void* args, size_t size, const std::function<bool(uint64_t)>& tracked)
{
    const auto* bytes      = static_cast<const std::byte*>(args);
    auto        candidates = std::vector<untracked_pointer>{};
    for(size_t offset = 0; bytes != nullptr && offset + sizeof(uint64_t) <= size;
        offset += sizeof(uint64_t))
    {
        auto word = uint64_t{0};
        std::memcpy(&word, bytes + offset, sizeof(word));
        if(word < lowest_address || word >= highest_address || tracked(word)) continue;
        candidates.push_back({offset, word});
    }
    if(candidates.empty()) return std::nullopt;
    const auto mappings = writable_mappings();
    for(const auto& c : candidates)
    {
        auto itr =
            std::upper_bound(mappings.begin(), mappings.end(), std::make_pair(c.value, UINT64_MAX));
        if(itr == mappings.begin()) continue;
        --itr;
        if(c.value >= itr->first && c.value < itr->second) return c;
    }
    return std::nullopt;
}
} // namespace rocprofiler::host
