#include "kernel_replay/ranges.hpp"

#include <algorithm>

namespace rocprofiler::kernel_replay
{
namespace
{
template <typename Fn>
void
for_each_piece(const std::vector<memory_range>& ranges, uint64_t piece_bytes, Fn&& fn)
{
    for(const auto& r : ranges)
        for(uint64_t at = r.start; at < r.end(); at += piece_bytes)
            fn(memory_range{at, std::min(piece_bytes, r.end() - at)});
}
} // namespace

const memory_range*
region_containing(const std::vector<memory_range>& regions, uint64_t address)
{
    auto itr = std::upper_bound(regions.begin(),
                                regions.end(),
                                address,
                                [](uint64_t v, const memory_range& r) { return v < r.start; });
    if(itr == regions.begin()) return nullptr;
    --itr;
    return address < itr->end() ? &*itr : nullptr;
}

std::vector<memory_range>
normalize(std::vector<memory_range> ranges)
{
    std::erase_if(ranges, [](const memory_range& r) { return r.bytes == 0; });
    std::sort(ranges.begin(),
              ranges.end(),
              [](const memory_range& a, const memory_range& b) { return a.start < b.start; });
    auto out = std::vector<memory_range>{};
    out.reserve(ranges.size());
    for(const auto& r : ranges)
    {
        if(!out.empty() && r.start <= out.back().end())
            out.back().bytes = std::max(out.back().end(), r.end()) - out.back().start;
        else
            out.push_back(r);
    }
    return out;
}

std::vector<memory_range>
intersect(const std::vector<memory_range>& ranges, const std::vector<memory_range>& within)
{
    auto out = std::vector<memory_range>{};
    auto j   = size_t{0};
    for(const auto& r : ranges)
    {
        while(j < within.size() && within[j].end() <= r.start)
            ++j;
        for(auto k = j; k < within.size() && within[k].start < r.end(); ++k)
        {
            const auto from = std::max(r.start, within[k].start);
            const auto to   = std::min(r.end(), within[k].end());
            if(to > from) out.push_back({from, to - from});
        }
    }
    return out;
}

std::vector<memory_range>
subtract(const std::vector<memory_range>& ranges, const std::vector<memory_range>& minus)
{
    auto out = std::vector<memory_range>{};
    auto j   = size_t{0};
    for(const auto& r : ranges)
    {
        auto at = r.start;
        while(j < minus.size() && minus[j].end() <= r.start)
            ++j;
        for(auto k = j; k < minus.size() && minus[k].start < r.end(); ++k)
        {
            if(minus[k].start > at) out.push_back({at, minus[k].start - at});
            at = std::max(at, minus[k].end());
        }
        if(at < r.end()) out.push_back({at, r.end() - at});
    }
    return out;
}

uint64_t
piece_count(const std::vector<memory_range>& ranges, uint64_t piece_bytes)
{
    auto count = uint64_t{0};
    for(const auto& r : ranges)
        count += (r.bytes + piece_bytes - 1) / piece_bytes;
    return count;
}

std::vector<memory_range>
changed_pieces(const std::vector<memory_range>& ranges,
               uint64_t                         piece_bytes,
               const std::vector<uint64_t>&     before,
               const std::vector<uint64_t>&     after)
{
    auto out   = std::vector<memory_range>{};
    auto index = size_t{0};
    for_each_piece(ranges,
                   piece_bytes,
                   [&](const memory_range& piece)
                   {
                       const bool differs = index >= before.size() || index >= after.size() ||
                                            before[index] != after[index];
                       ++index;
                       if(!differs) return;
                       if(!out.empty() && out.back().end() == piece.start)
                           out.back().bytes += piece.bytes;
                       else
                           out.push_back(piece);
                   });
    return out;
}

std::vector<memory_range>
grid_pieces(const std::vector<memory_range>& ranges, uint64_t piece_bytes)
{
    auto out = std::vector<memory_range>{};
    if(piece_bytes == 0) return ranges;
    for(const auto& r : ranges)
    {
        auto at = r.start;
        while(at < r.end())
        {
            const auto cell_end = (at / piece_bytes + 1) * piece_bytes;
            const auto end      = std::min(r.end(), cell_end);
            out.push_back({at, end - at});
            at = end;
        }
    }
    return out;
}
} // namespace rocprofiler::kernel_replay
