// The work decomposition and hash of CUDA kernel replay's hash and compare kernels
// (cuda/replay/replay_pieces.hpp), run on the host: an emulation of what each unit of the kernels
// does, checked against a direct byte-by-byte reference.
#include "cuda/replay/replay_pieces.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

namespace rocprofiler::cuda::replay_pieces
{
namespace
{
// Memory with room around the ranges the tests name: every 16-byte word the kernels load lies in
// it.
struct arena
{
    explicit arena(size_t bytes)
        : data(bytes + 64)
    {
    }
    uint64_t address(size_t offset) const
    {
        const auto base = reinterpret_cast<uintptr_t>(data.data());
        return ((base + 31) & ~uintptr_t{15}) + offset;
    }
    std::byte* at(uint64_t address) { return reinterpret_cast<std::byte*>(address); }

    std::vector<std::byte> data;
};

uint64_t
load64(uint64_t address)
{
    auto v = uint64_t{0};
    std::memcpy(&v, reinterpret_cast<const void*>(address), 8);
    return v;
}

// What the hash kernel computes: the sum per piece, over every unit.
std::vector<uint64_t>
emulate_hash(const work_plan& plan, uint64_t piece_bytes)
{
    auto sums = std::vector<uint64_t>(plan.pieces, 0);
    for(uint64_t unit = 0; unit < plan.units; ++unit)
    {
        auto s = unit_span{};
        if(!locate(plan.descs.data(),
                   static_cast<uint32_t>(plan.descs.size()),
                   unit,
                   piece_bytes,
                   plan.unit_chunks,
                   s))
            continue;
        for(uint64_t w = s.first; w < s.end; ++w)
        {
            const auto a0 = s.base + 16 * w;
            EXPECT_EQ(a0 % 16, 0u);
            const auto m0 = byte_mask(a0, s.lo, s.hi);
            const auto m1 = byte_mask(a0 + 8, s.lo, s.hi);
            EXPECT_TRUE(m0 != 0 || m1 != 0) << "a loaded word holds no byte of the piece";
            if(full_unit(s))
            {
                EXPECT_TRUE(m0 == ~0ULL && m1 == ~0ULL) << "a full unit needs a mask";
            }
            if(m0 != 0) sums[s.piece] += hash_term(load64(a0) & m0, 2 * w);
            if(m1 != 0) sums[s.piece] += hash_term(load64(a0 + 8) & m1, 2 * w + 1);
        }
    }
    return sums;
}

struct change
{
    uint64_t first = ~0ULL, last = 0, count = 0;
};

std::vector<change>
emulate_compare(const work_plan& plan, uint64_t piece_bytes)
{
    auto out = std::vector<change>(plan.pieces);
    for(uint64_t unit = 0; unit < plan.units; ++unit)
    {
        auto s = unit_span{};
        if(!locate(plan.descs.data(),
                   static_cast<uint32_t>(plan.descs.size()),
                   unit,
                   piece_bytes,
                   plan.unit_chunks,
                   s))
            continue;
        const auto copy = s.range->shadow + (s.base - s.range->start);
        auto&      c    = out[s.piece];
        for(uint64_t w = s.first; w < s.end; ++w)
        {
            const auto a0 = s.base + 16 * w;
            for(uint64_t half = 0; half < 16; half += 8)
                note_change((load64(a0 + half) ^ load64(copy + 16 * w + half)) &
                                byte_mask(a0 + half, s.lo, s.hi),
                            a0 + half,
                            c.first,
                            c.last,
                            c.count);
        }
    }
    return out;
}

std::vector<uint64_t>
reference_hashes(const std::vector<work_range>& ranges, uint64_t piece_bytes)
{
    auto out = std::vector<uint64_t>{};
    for(const auto& r : ranges)
        for(uint64_t at = 0; at < r.bytes; at += piece_bytes)
        {
            const auto size = std::min(piece_bytes, r.bytes - at);
            out.push_back(r.live ? reference_hash(reinterpret_cast<const std::byte*>(r.start + at),
                                                  r.start + at,
                                                  size)
                                 : 0);
        }
    return out;
}

std::vector<uint64_t>
kernel_hashes(const std::vector<work_range>& ranges, uint64_t piece_bytes)
{
    const auto plan = plan_work(ranges, piece_bytes);
    const auto sums = emulate_hash(plan, piece_bytes);
    return finish_hashes(ranges, piece_bytes, sums.data());
}

TEST(replay_pieces, byte_mask_selects_the_bytes_in_range)
{
    EXPECT_EQ(byte_mask(64, 64, 72), ~0ULL);
    EXPECT_EQ(byte_mask(64, 65, 72), 0xffffffffffffff00ULL);
    EXPECT_EQ(byte_mask(64, 64, 65), 0xffULL);
    EXPECT_EQ(byte_mask(64, 66, 68), 0x00000000ffff0000ULL);
    EXPECT_EQ(byte_mask(64, 72, 80), 0u);
    EXPECT_EQ(byte_mask(64, 0, 64), 0u);
}

TEST(replay_pieces, plan_counts_pieces_of_every_range_and_units_of_live_ones)
{
    const auto plan = plan_work({{0x1000, 100, 0, true},
                                 {0x9000, 0, 0, true},
                                 {0x20000, 250, 0, false},
                                 {0x30003, 201, 0, true}},
                                100);
    EXPECT_EQ(plan.pieces, 1u + 0u + 3u + 3u);
    ASSERT_EQ(plan.descs.size(), 2u);
    EXPECT_EQ(plan.descs[0].first_piece, 0u);
    EXPECT_EQ(plan.descs[1].first_piece, 4u);
    EXPECT_EQ(plan.descs[1].first_unit, plan.unit_chunks * 1u);
    EXPECT_EQ(plan.units, plan.unit_chunks * 4u);
}

TEST(replay_pieces, units_per_piece_cover_an_unaligned_piece)
{
    // A piece of piece_bytes that starts at 15 mod 16 spans piece_bytes / 16 + 1 words.
    for(uint64_t piece : {uint64_t{16},
                          uint64_t{4096},
                          uint64_t{64} << 10,
                          uint64_t{1} << 20,
                          (uint64_t{1} << 20) + 8})
        EXPECT_GE(chunks_per_piece(piece) * chunk_words, piece / 16 + 2) << piece;
}

// The kernels take the unmasked path for full units: there must be many of them.
TEST(replay_pieces, most_units_of_large_pieces_are_full)
{
    const auto plan = plan_work({{0x100003, 8 << 20, 0, true}}, 1 << 20);
    auto       full = 0, used = 0;
    for(uint64_t unit = 0; unit < plan.units; ++unit)
    {
        auto s = unit_span{};
        if(!locate(plan.descs.data(), 1, unit, 1 << 20, plan.unit_chunks, s)) continue;
        ++used;
        if(full_unit(s)) ++full;
    }
    EXPECT_EQ(used, 8 * 17); // 16 units of 64 KiB and one more word of an unaligned piece
    EXPECT_EQ(full, 8 * 15);
}

TEST(replay_pieces, kernel_hash_equals_the_reference_for_unaligned_ranges)
{
    auto a   = arena{4 << 20};
    auto rng = std::mt19937_64{7};
    for(auto& b : a.data)
        b = static_cast<std::byte>(rng());
    const auto ranges = std::vector<work_range>{
        {a.address(0), 1, 0, true},
        {a.address(17), 5, 0, true},
        {a.address(40), 1000, 0, true},
        {a.address(2000), 300000, 0, false},
        {a.address(400003), 70001, 0, true},
        {a.address(600001), (uint64_t{1} << 20) + 4097, 0, true},
        {a.address(2200000), 1 << 20, 0, true},
    };
    for(uint64_t piece : {uint64_t{24}, uint64_t{4096}, uint64_t{65536}, uint64_t{1} << 20})
        EXPECT_EQ(kernel_hashes(ranges, piece), reference_hashes(ranges, piece)) << piece;
}

TEST(replay_pieces, any_changed_byte_changes_its_piece_hash)
{
    auto       a      = arena{1 << 16};
    const auto range  = std::vector<work_range>{{a.address(3), 40000, 0, true}};
    const auto before = kernel_hashes(range, 4096);
    for(uint64_t at : {uint64_t{3}, uint64_t{4}, uint64_t{4098}, uint64_t{20000}, uint64_t{40002}})
    {
        auto* byte       = a.at(a.address(at));
        *byte            = static_cast<std::byte>(std::to_integer<int>(*byte) ^ 0x40);
        const auto after = kernel_hashes(range, 4096);
        *byte            = static_cast<std::byte>(std::to_integer<int>(*byte) ^ 0x40);
        const auto piece = (at - 3) / 4096;
        for(size_t i = 0; i < before.size(); ++i)
            EXPECT_EQ(before[i] != after[i], i == piece) << "byte " << at << ", piece " << i;
    }
    // Bytes outside the range do not count.
    *a.at(a.address(2))     = std::byte{0x5a};
    *a.at(a.address(40003)) = std::byte{0x5a};
    EXPECT_EQ(kernel_hashes(range, 4096), before);
}

TEST(replay_pieces, swapped_words_change_the_hash)
{
    auto       a     = arena{4096};
    const auto range = std::vector<work_range>{{a.address(0), 4096, 0, true}};
    std::memset(a.at(a.address(0)), 0, 4096);
    *a.at(a.address(8))    = std::byte{1};
    const auto before      = kernel_hashes(range, 4096);
    *a.at(a.address(8))    = std::byte{0};
    *a.at(a.address(1024)) = std::byte{1};
    EXPECT_NE(kernel_hashes(range, 4096), before);
}

TEST(replay_pieces, kernel_compare_finds_first_last_and_count)
{
    auto       a     = arena{1 << 20};
    const auto app   = a.address(5);          // unaligned application range
    const auto copy  = a.address(500000 + 5); // its copy: equal modulo 16
    const auto bytes = uint64_t{300000};
    auto       rng   = std::mt19937_64{11};
    for(uint64_t i = 0; i < bytes; ++i)
        *a.at(app + i) = *a.at(copy + i) = static_cast<std::byte>(rng());
    // Bytes around the range differ and must not count.
    *a.at(app - 1)     = std::byte{1};
    *a.at(copy - 1)    = std::byte{2};
    *a.at(app + bytes) = std::byte{3};
    const auto flip    = [&](uint64_t offset) {
        *a.at(app + offset) = static_cast<std::byte>(std::to_integer<int>(*a.at(app + offset)) ^ 1);
    };
    for(uint64_t offset :
        {uint64_t{0}, uint64_t{9}, uint64_t{10}, uint64_t{70000}, uint64_t{65535}, bytes - 1})
        flip(offset);
    const auto piece  = uint64_t{65536};
    const auto ranges = std::vector<work_range>{{app, bytes, copy, true}};
    const auto plan   = plan_work(ranges, piece);
    const auto got    = emulate_compare(plan, piece);
    ASSERT_EQ(got.size(), 5u);
    EXPECT_EQ(got[0].first, app);
    EXPECT_EQ(got[0].last, app + 65536);
    EXPECT_EQ(got[0].count, 4u);
    EXPECT_EQ(got[1].first, app + 70000);
    EXPECT_EQ(got[1].last, app + 70001);
    EXPECT_EQ(got[1].count, 1u);
    EXPECT_EQ(got[2].count, 0u);
    EXPECT_EQ(got[3].count, 0u);
    EXPECT_EQ(got[4].first, app + bytes - 1);
    EXPECT_EQ(got[4].last, app + bytes);
    EXPECT_EQ(got[4].count, 1u);
}

TEST(replay_pieces, compare_counts_bytes_not_bits)
{
    auto       a    = arena{256};
    const auto app  = a.address(0);
    const auto copy = a.address(128);
    std::memset(a.at(app), 0, 64);
    std::memset(a.at(copy), 0, 64);
    *a.at(app + 3)  = std::byte{0xff}; // eight bits, one byte
    *a.at(app + 12) = std::byte{0x80};
    const auto plan = plan_work({{app, 64, copy, true}}, 64);
    const auto got  = emulate_compare(plan, 64);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].count, 2u);
    EXPECT_EQ(got[0].first, app + 3);
    EXPECT_EQ(got[0].last, app + 13);
}
} // namespace
} // namespace rocprofiler::cuda::replay_pieces
