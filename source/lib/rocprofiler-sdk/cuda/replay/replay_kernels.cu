// Device kernels of kernel replay's memory backend (memory.cpp): hashing and comparing memory in
// pieces. Not compiled by the build: generate_replay_kernels.sh turns this file into PTX
// (replay_kernels_ptx.inc), which the SDK loads with cuModuleLoadData (replay_kernels.cpp), so
// that the library needs no CUDA toolchain and runs on every architecture whose driver JITs the
// PTX. The work decomposition and the hash are replay_pieces.hpp's, shared with the host.
//
// A block takes one unit at a time (grid-stride), every thread adds the terms of its 16-byte
// words, and each warp adds its result to the piece with one 64-bit atomic: sums, minima and
// maxima do not depend on the order in which units run. Every load is an aligned 16-byte load of
// a word that holds at least one byte of the piece, so it never leaves the page of a byte the
// caller named; the bytes of such a word outside the piece are masked off.

#include "replay_pieces.hpp"

using namespace rocprofiler::cuda::replay_pieces;

namespace
{
constexpr int batch = 4; // words each thread loads before it uses them

__device__ __forceinline__ ulonglong2
load16(uint64_t address)
{
    return *reinterpret_cast<const ulonglong2*>(static_cast<uintptr_t>(address));
}

__device__ __forceinline__ uint64_t
warp_sum(uint64_t v)
{
    for(int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__device__ __forceinline__ uint64_t
warp_min(uint64_t v)
{
    for(int offset = 16; offset > 0; offset /= 2)
    {
        const uint64_t o = __shfl_down_sync(0xffffffffu, v, offset);
        v                = o < v ? o : v;
    }
    return v;
}

__device__ __forceinline__ uint64_t
warp_max(uint64_t v)
{
    for(int offset = 16; offset > 0; offset /= 2)
    {
        const uint64_t o = __shfl_down_sync(0xffffffffu, v, offset);
        v                = o > v ? o : v;
    }
    return v;
}

// The sum of the terms of this thread's words of unit `s`. Full: every word of the unit lies
// inside the piece (no mask needed), as for all but a piece's first and last unit.
template <bool Full>
__device__ __forceinline__ uint64_t
hash_words(const unit_span& s)
{
    uint64_t sum = 0;
    for(uint64_t w = s.first + threadIdx.x; w < s.end; w += batch * blockDim.x)
    {
        ulonglong2 v[batch];
#pragma unroll
        for(int q = 0; q < batch; ++q)
        {
            const uint64_t at = w + q * blockDim.x;
            v[q]              = at < s.end ? load16(s.base + 16 * at) : make_ulonglong2(0, 0);
        }
#pragma unroll
        for(int q = 0; q < batch; ++q)
        {
            const uint64_t at = w + q * blockDim.x;
            if(at >= s.end) break;
            // hash_term(word, 2 at) and hash_term(word, 2 at + 1), one multiplication for both.
            const uint64_t key = (2 * at + 1) * golden;
            if(Full)
            {
                sum += mix(v[q].x ^ key) + mix(v[q].y ^ (key + golden));
                continue;
            }
            const uint64_t a0 = s.base + 16 * at;
            const uint64_t m0 = byte_mask(a0, s.lo, s.hi);
            const uint64_t m1 = byte_mask(a0 + 8, s.lo, s.hi);
            if(m0 != 0) sum += mix((v[q].x & m0) ^ key);
            if(m1 != 0) sum += mix((v[q].y & m1) ^ (key + golden));
        }
    }
    return sum;
}

} // namespace

// out[piece] += the sum of the terms of the piece's words (out starts at 0; the host adds the
// length term).
extern "C" __global__ void
__launch_bounds__(block_threads) rocp_replay_hash(const range_desc*   ranges,
                                                  uint32_t            range_count,
                                                  uint64_t            total_units,
                                                  uint64_t            piece_bytes,
                                                  uint32_t            units_per_piece,
                                                  unsigned long long* out)
{
    for(uint64_t unit = blockIdx.x; unit < total_units; unit += gridDim.x)
    {
        unit_span s;
        // The same for every thread of the block: the whole block skips the unit or works on it.
        if(!locate(ranges, range_count, unit, piece_bytes, units_per_piece, s)) continue;
        uint64_t sum = full_unit(s) ? hash_words<true>(s) : hash_words<false>(s);
        sum          = warp_sum(sum);
        if((threadIdx.x & 31) == 0 && sum != 0) atomicAdd(out + s.piece, sum);
    }
}

namespace
{
// This thread's changes in unit `s` against its copy at `copy` (for the unit's base). Full: as
// for hash_words.
template <bool Full>
__device__ __forceinline__ void
compare_words(const unit_span& s, uint64_t copy, uint64_t& first, uint64_t& last, uint64_t& count)
{
    for(uint64_t w = s.first + threadIdx.x; w < s.end; w += batch * blockDim.x)
    {
        ulonglong2 a[batch], b[batch];
#pragma unroll
        for(int q = 0; q < batch; ++q)
        {
            const uint64_t at = w + q * blockDim.x;
            const bool     in = at < s.end;
            a[q]              = in ? load16(s.base + 16 * at) : make_ulonglong2(0, 0);
            b[q]              = in ? load16(copy + 16 * at) : make_ulonglong2(0, 0);
        }
#pragma unroll
        for(int q = 0; q < batch; ++q)
        {
            const uint64_t at = w + q * blockDim.x;
            if(at >= s.end) break;
            const uint64_t a0 = s.base + 16 * at;
            const uint64_t x0 = a[q].x ^ b[q].x;
            const uint64_t x1 = a[q].y ^ b[q].y;
            if((x0 | x1) == 0) continue;
            note_change(Full ? x0 : x0 & byte_mask(a0, s.lo, s.hi), a0, first, last, count);
            note_change(Full ? x1 : x1 & byte_mask(a0 + 8, s.lo, s.hi), a0 + 8, first, last, count);
        }
    }
}
} // namespace

// Per piece p of `pieces`: out[p] = the lowest changed byte address (starts at all ones),
// out[pieces + p] = the highest changed byte address + 1 (starts at 0), out[2 * pieces + p] += the
// changed bytes (starts at 0). A range's `shadow` is its copy, equal to `start` modulo 16.
extern "C" __global__ void
__launch_bounds__(block_threads) rocp_replay_compare(const range_desc*   ranges,
                                                     uint32_t            range_count,
                                                     uint64_t            total_units,
                                                     uint64_t            piece_bytes,
                                                     uint32_t            units_per_piece,
                                                     unsigned long long* out,
                                                     uint64_t            pieces)
{
    for(uint64_t unit = blockIdx.x; unit < total_units; unit += gridDim.x)
    {
        unit_span s;
        if(!locate(ranges, range_count, unit, piece_bytes, units_per_piece, s)) continue;
        const uint64_t copy  = s.range->shadow + (s.base - s.range->start);
        uint64_t       first = ~0ULL, last = 0, count = 0;
        if(full_unit(s))
            compare_words<true>(s, copy, first, last, count);
        else
            compare_words<false>(s, copy, first, last, count);
        if(__any_sync(0xffffffffu, count != 0))
        {
            first = warp_min(first);
            last  = warp_max(last);
            count = warp_sum(count);
            if((threadIdx.x & 31) == 0 && count != 0)
            {
                atomicMin(out + s.piece, static_cast<unsigned long long>(first));
                atomicMax(out + pieces + s.piece, static_cast<unsigned long long>(last));
                atomicAdd(out + 2 * pieces + s.piece, static_cast<unsigned long long>(count));
            }
        }
    }
}
