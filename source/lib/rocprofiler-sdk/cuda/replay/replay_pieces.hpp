// How kernel replay's hash and compare kernels (replay_kernels.cu) cut memory into work, and what
// one piece's hash is: plain arithmetic shared by the kernels (compiled by nvcc into PTX) and the
// host (which builds the kernels' range descriptors and finishes their results), so that the
// decomposition can be tested on a CPU. No CUDA header.
//
// A range is cut into pieces of `piece_bytes` (the last one may be shorter). A piece covers the
// 16-byte words from its start rounded down to 16 bytes to its end rounded up; a unit is a chunk
// of `chunk_words` of those words, and each piece has `chunks_per_piece` units (those past the
// piece's last word do nothing). The hash of a piece of `bytes` bytes is
//     mix(bytes) + sum over the 8-byte words w of the piece, at index i from that base,
//                  of mix((w with the bytes outside the piece zeroed) ^ ((i + 1) * golden))
// modulo 2^64 (words with no byte in the piece left out): equal bytes hash equal, a change of one
// word always changes its term (mix is a bijection), and terms add in any order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__CUDACC__)
#    define ROCP_REPLAY_HD __host__ __device__ __forceinline__
#else
#    define ROCP_REPLAY_HD inline
#endif

namespace rocprofiler::cuda::replay_pieces
{
// One range as the kernels read it (five 8-byte fields, in this order).
struct range_desc
{
    uint64_t start       = 0; // first byte of the range (the application's memory)
    uint64_t bytes       = 0;
    uint64_t shadow      = 0; // compare: the copy of `start`, equal to it modulo 16
    uint64_t first_piece = 0; // index of the range's first piece in the output
    uint64_t first_unit  = 0; // index of the range's first unit in the grid's work
};
static_assert(sizeof(range_desc) == 40, "the kernels read five 8-byte fields");

constexpr uint64_t golden        = 0x9e3779b97f4a7c15ULL;
constexpr uint32_t chunk_words   = 4096; // 16-byte words per unit: 64 KiB
constexpr uint32_t block_threads = 256;  // the kernels' __launch_bounds__

ROCP_REPLAY_HD uint64_t
mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

// The bytes of the 8-byte word at `word` (8-aligned) that lie in [lo, hi), as a mask (byte k of
// the word is bits 8k..8k+7: little-endian).
ROCP_REPLAY_HD uint64_t
byte_mask(uint64_t word, uint64_t lo, uint64_t hi)
{
    if(word >= lo && word + 8 <= hi) return ~0ULL;
    const uint64_t first = lo > word ? lo - word : 0;
    const uint64_t last  = hi < word + 8 ? hi - word : 8;
    if(last <= first || hi <= word) return 0;
    const uint64_t upper = last == 8 ? ~0ULL : ((1ULL << (8 * last)) - 1);
    return upper & (~0ULL << (8 * first));
}

// The term of the 8-byte word at index `index` from the piece's 16-aligned base.
ROCP_REPLAY_HD uint64_t
hash_term(uint64_t masked_value, uint64_t index)
{
    return mix(masked_value ^ ((index + 1) * golden));
}

// Pieces of a range of `bytes` bytes (piece_bytes > 0).
ROCP_REPLAY_HD uint64_t
piece_count(uint64_t bytes, uint64_t piece_bytes)
{
    return (bytes + piece_bytes - 1) / piece_bytes;
}

// Units per piece: enough chunks for the longest piece (piece_bytes, unaligned at both ends).
ROCP_REPLAY_HD uint64_t
chunks_per_piece(uint64_t piece_bytes)
{
    const uint64_t words = piece_bytes / 16 + 2;
    return (words + chunk_words - 1) / chunk_words;
}

// One unit of work: its range, its piece's bounds and output index, and the 16-byte words it
// covers, counted from `base` (the piece's start rounded down to 16).
struct unit_span
{
    const range_desc* range = nullptr;
    uint64_t          piece = 0; // index in the output
    uint64_t          lo    = 0; // the piece's first byte
    uint64_t          hi    = 0; // the piece's end
    uint64_t          base  = 0;
    uint64_t          first = 0; // the chunk's first word, from base
    uint64_t          end   = 0; // the chunk's end word, from base
};

// Where unit `unit` lies (ranges sorted by first_unit, the first one at 0); false when it covers no
// word (a chunk past its piece's end).
ROCP_REPLAY_HD bool
locate(const range_desc* ranges,
       uint32_t          range_count,
       uint64_t          unit,
       uint64_t          piece_bytes,
       uint32_t          units_per_piece,
       unit_span&        out)
{
    uint32_t lo = 0, hi = range_count; // the last range whose first unit is <= unit
    while(hi - lo > 1)
    {
        const uint32_t mid = lo + (hi - lo) / 2;
        if(ranges[mid].first_unit <= unit)
            lo = mid;
        else
            hi = mid;
    }
    const range_desc* r      = ranges + lo;
    const uint64_t    local  = unit - r->first_unit;
    const uint64_t    piece  = local / units_per_piece;
    const uint64_t    chunk  = local % units_per_piece;
    const uint64_t    offset = piece * piece_bytes;
    if(offset >= r->bytes) return false;
    const uint64_t left  = r->bytes - offset;
    const uint64_t start = r->start + offset;
    const uint64_t end   = start + (left < piece_bytes ? left : piece_bytes);
    const uint64_t base  = start & ~uint64_t{15};
    const uint64_t total = (((end + 15) & ~uint64_t{15}) - base) / 16;
    const uint64_t first = uint64_t{chunk} * chunk_words;
    if(first >= total) return false;
    out.range = r;
    out.piece = r->first_piece + piece;
    out.lo    = start;
    out.hi    = end;
    out.base  = base;
    out.first = first;
    out.end   = first + chunk_words < total ? first + chunk_words : total;
    return true;
}

// Whether every word of unit `s` lies inside its piece (no byte needs masking), as for all but a
// piece's first and last unit.
ROCP_REPLAY_HD bool
full_unit(const unit_span& s)
{
    return s.base + 16 * s.first >= s.lo && s.base + 16 * s.end <= s.hi;
}

ROCP_REPLAY_HD int
popcount64(uint64_t x)
{
#if defined(__CUDA_ARCH__)
    return __popcll(x);
#else
    return __builtin_popcountll(x);
#endif
}

ROCP_REPLAY_HD int
lowest_bit(uint64_t x) // x != 0
{
#if defined(__CUDA_ARCH__)
    return __ffsll(static_cast<long long>(x)) - 1;
#else
    return __builtin_ctzll(x);
#endif
}

ROCP_REPLAY_HD int
leading_zeros(uint64_t x) // x != 0
{
#if defined(__CUDA_ARCH__)
    return __clzll(static_cast<long long>(x));
#else
    return __builtin_clzll(x);
#endif
}

// One word pair of a comparison: x is the masked XOR of the two 8-byte words at `word`. Widens
// [first, last) to the differing bytes and adds their number to `count`.
ROCP_REPLAY_HD void
note_change(uint64_t x, uint64_t word, uint64_t& first, uint64_t& last, uint64_t& count)
{
    if(x == 0) return;
    uint64_t b = x | (x >> 4); // a byte differs when any of its bits does
    b |= b >> 2;
    b |= b >> 1;
    b &= 0x0101010101010101ULL;
    count += static_cast<uint64_t>(popcount64(b));
    const uint64_t lo = word + static_cast<uint64_t>(lowest_bit(x)) / 8;
    const uint64_t hi = word + 8 - static_cast<uint64_t>(leading_zeros(x)) / 8;
    first             = lo < first ? lo : first;
    last              = hi > last ? hi : last;
}

// --- host side -----------------------------------------------------------------------------------

// A range to hash or compare: the application's memory and, for a comparison, its copy.
struct work_range
{
    uint64_t start  = 0;
    uint64_t bytes  = 0;
    uint64_t shadow = 0;
    bool     live   = true; // false: not read (freed memory); its pieces get the default result
};

// The kernels' work for `ranges` at `piece_bytes`: one descriptor per live, non-empty range, the
// pieces of every range (dead ones too) in order, and the units of the grid.
struct work_plan
{
    std::vector<range_desc> descs       = {};
    uint64_t                pieces      = 0; // output entries, every range's pieces
    uint64_t                units       = 0; // grid work
    uint32_t                unit_chunks = 0; // units per piece
};

// piece_bytes must be > 0.
work_plan plan_work(const std::vector<work_range>& ranges, uint64_t piece_bytes);

// The hash of each piece of `ranges` from the kernel's sums (one per piece, in order): the length
// term added, 0 for the pieces of ranges that are not live.
std::vector<uint64_t>
finish_hashes(const std::vector<work_range>& ranges, uint64_t piece_bytes, const uint64_t* sums);

// The reference hash of one piece (host memory), as the kernel computes it.
uint64_t reference_hash(const std::byte* data, uint64_t address, uint64_t bytes);
} // namespace rocprofiler::cuda::replay_pieces
