#include "cuda/replay/replay_pieces.hpp"

#include <cstring>

namespace rocprofiler::cuda::replay_pieces
{
work_plan
plan_work(const std::vector<work_range>& ranges, uint64_t piece_bytes)
{
    auto out        = work_plan{};
    out.unit_chunks = static_cast<uint32_t>(chunks_per_piece(piece_bytes));
    out.descs.reserve(ranges.size());
    for(const auto& r : ranges)
    {
        const auto pieces = piece_count(r.bytes, piece_bytes);
        if(r.live && pieces != 0)
        {
            out.descs.push_back(range_desc{r.start, r.bytes, r.shadow, out.pieces, out.units});
            out.units += pieces * out.unit_chunks;
        }
        out.pieces += pieces;
    }
    return out;
}

std::vector<uint64_t>
finish_hashes(const std::vector<work_range>& ranges, uint64_t piece_bytes, const uint64_t* sums)
{
    auto out = std::vector<uint64_t>{};
    auto at  = size_t{0};
    for(const auto& r : ranges)
    {
        for(uint64_t offset = 0; offset < r.bytes; offset += piece_bytes, ++at)
        {
            const auto size = r.bytes - offset < piece_bytes ? r.bytes - offset : piece_bytes;
            out.push_back(r.live ? mix(size) + sums[at] : 0);
        }
    }
    return out;
}

uint64_t
reference_hash(const std::byte* data, uint64_t address, uint64_t bytes)
{
    auto       sum  = mix(bytes);
    const auto base = address & ~uint64_t{15};
    for(uint64_t word = address & ~uint64_t{7}; word < address + bytes; word += 8)
    {
        auto value = uint64_t{0};
        for(uint64_t k = 0; k < 8; ++k)
        {
            const auto at = word + k;
            if(at < address || at >= address + bytes) continue;
            value |= static_cast<uint64_t>(std::to_integer<uint8_t>(data[at - address])) << (8 * k);
        }
        sum += hash_term(value, (word - base) / 8);
    }
    return sum;
}
} // namespace rocprofiler::cuda::replay_pieces
