// The write-set policy (kernel_replay/write_set.hpp) on synthetic memory: range arithmetic,
// anchors, first-sight and learned predictions, verification sets, and learning from what a pass
// changed. No device: `tracked` is a list of made-up allocations and `read` serves their bytes.
#include "kernel_replay/write_set.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace
{
using rocprofiler::dispatch::kernel_arguments;
using rocprofiler::dispatch::range_change;
namespace kr = rocprofiler::kernel_replay;
using kr::memory_range;

class write_set : public ::testing::Test
{
protected:
    void SetUp() override { kr::forget_learned(); }
    void TearDown() override { kr::forget_learned(); }

    kr::prediction predict(const std::vector<uint64_t>& words,
                           const kr::shape_key&         key = {7, {1, 1, 1}, {64, 1, 1}})
    {
        m_args.resize(words.size() * 8);
        if(!words.empty()) std::memcpy(m_args.data(), words.data(), m_args.size());
        return kr::predict(
            key,
            kernel_arguments{m_args.data(), m_args.size()},
            m_tracked,
            [this](uint64_t address, void* out, size_t bytes)
            {
                ++m_reads;
                std::memset(out, 0, bytes);
                for(auto itr = m_memory.lower_bound(address);
                    itr != m_memory.end() && itr->first + sizeof(uint64_t) <= address + bytes;
                    ++itr)
                    std::memcpy(static_cast<std::byte*>(out) + (itr->first - address),
                                &itr->second,
                                sizeof(uint64_t));
                return true;
            },
            m_settings);
    }

    std::vector<memory_range> m_tracked = {
        {0x10000, 0x1000}, {0x20000, 0x1000}, {0x40000, 0x100000}};
    std::map<uint64_t, uint64_t> m_memory   = {}; // 8-byte words that `read` returns
    size_t                       m_reads    = 0;  // calls of `read`
    kr::write_set_settings       m_settings = {};
    std::vector<std::byte>       m_args     = {};
};
} // namespace

TEST(write_set_ranges, normalize_intersect_subtract_and_pieces)
{
    auto n = kr::normalize({{30, 10}, {10, 10}, {20, 5}, {50, 0}, {15, 2}});
    ASSERT_EQ(n.size(), 2u);
    EXPECT_EQ(n[0], (memory_range{10, 15}));
    EXPECT_EQ(n[1], (memory_range{30, 10}));
    auto i = kr::intersect(n, {{12, 20}});
    ASSERT_EQ(i.size(), 2u);
    EXPECT_EQ(i[0], (memory_range{12, 13}));
    EXPECT_EQ(i[1], (memory_range{30, 2}));
    auto s = kr::subtract({{0, 100}}, {{10, 10}, {50, 60}});
    ASSERT_EQ(s.size(), 2u);
    EXPECT_EQ(s[0], (memory_range{0, 10}));
    EXPECT_EQ(s[1], (memory_range{20, 30}));
    EXPECT_EQ(kr::piece_count({{0, 10}, {100, 1}}, 4), 4u);
}

TEST(write_set_ranges, changed_pieces_merge_adjacent_pieces_and_keep_ranges_apart)
{
    const auto ranges = std::vector<memory_range>{{0, 10}, {100, 8}};
    // Pieces: [0,4) [4,8) [8,10) [100,104) [104,108)
    auto changed = kr::changed_pieces(ranges, 4, {1, 2, 3, 4, 5}, {1, 9, 9, 4, 6});
    ASSERT_EQ(changed.size(), 2u);
    EXPECT_EQ(changed[0], (memory_range{4, 6}));
    EXPECT_EQ(changed[1], (memory_range{104, 4}));
    EXPECT_TRUE(kr::changed_pieces(ranges, 4, {1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}).empty());
}

TEST_F(write_set, a_first_sight_anchor_predicts_its_whole_allocation_and_verifies_the_rest)
{
    auto p = predict({0x10010, 42});
    ASSERT_EQ(p.snapshot.size(), 1u);
    EXPECT_EQ(p.snapshot[0], (memory_range{0x10000, 0x1000}));
    EXPECT_FALSE(p.learned);
    // Everything else tracked is verified.
    EXPECT_EQ(p.verify_bytes(), 0x1000u + 0x100000u);
}

TEST_F(write_set, anchors_near_an_allocation_and_at_odd_offsets_count)
{
    // One past the end of the first allocation, and 4 bytes before the second, at byte offset 3.
    m_args.assign(3, std::byte{0});
    auto words = std::vector<uint64_t>{0x11000};
    auto p     = predict(words);
    EXPECT_EQ(p.snapshot_bytes(), 0x1000u);

    auto raw = std::vector<std::byte>(3 + 8);
    auto ptr = uint64_t{0x20000 - 4};
    std::memcpy(raw.data() + 3, &ptr, 8);
    auto q = kr::predict(
        {1, {}, {}}, kernel_arguments{raw.data(), raw.size()}, m_tracked, {}, m_settings);
    ASSERT_EQ(q.snapshot.size(), 1u);
    EXPECT_EQ(q.snapshot[0], (memory_range{0x20000, 0x1000}));
}

TEST_F(write_set, a_region_over_the_window_is_predicted_from_the_pointer_on)
{
    m_settings.window_bytes = 0x1000;
    auto p                  = predict({0x50000});
    ASSERT_EQ(p.snapshot.size(), 1u);
    EXPECT_EQ(p.snapshot[0].start, 0x50000u - m_settings.anchor_slack);
    EXPECT_EQ(p.snapshot[0].end(), 0x51000u);
}

TEST_F(write_set, pointers_in_device_memory_are_followed_one_level)
{
    m_memory[0x10000] = 0x20100; // the first allocation holds a pointer into the second
    auto p            = predict({0x10000});
    EXPECT_EQ(p.snapshot_bytes(), 0x2000u);
    ASSERT_EQ(p.anchors.size(), 2u);
    EXPECT_EQ(p.anchors[1].offset, -1);
}

// An allocation that holds nothing but one pointer (a structure of one pointer, or a pointer to
// a pointer): its last word is scanned like any other. For every small holder size and every
// aligned place of the pointer in it, the allocation it points to is predicted and reachable.
TEST_F(write_set, a_pointer_in_the_last_word_of_an_allocation_is_followed)
{
    for(uint64_t size = 8; size <= 72; size += 8)
    {
        for(uint64_t at = 0; at + 8 <= size; at += 8)
        {
            SCOPED_TRACE("holder of " + std::to_string(size) + " bytes, pointer at " +
                         std::to_string(at));
            kr::forget_learned();
            m_tracked = {{0x10000, size}, {0x20000, 0x1000}, {0x40000, 0x100000}};
            m_memory  = {{0x10000 + at, 0x20000}};
            for(auto verify :
                {kr::verify_scope::all, kr::verify_scope::reachable, kr::verify_scope::off})
            {
                m_settings.verify = verify;
                auto p            = predict({0x10000});
                EXPECT_EQ(kr::intersect(p.snapshot, {{0x20000, 0x1000}}).size(), 1u);
                EXPECT_EQ(kr::intersect(p.snapshot, {{0x20000, 0x1000}})[0].bytes, 0x1000u);
                EXPECT_FALSE(p.scan_truncated);
            }
        }
    }
}

// A pointer stored in memory whose last word ends the allocation, at an odd holder size (12
// bytes): the aligned word at offset 0 is whole and counts; the 4 bytes after it are no word.
TEST_F(write_set, a_pointer_in_an_odd_sized_holder_is_followed)
{
    m_tracked = {{0x10000, 12}, {0x20000, 0x1000}, {0x40000, 0x100000}};
    m_memory  = {{0x10000, 0x20010}};
    auto p    = predict({0x10000});
    EXPECT_EQ(kr::intersect(p.snapshot, {{0x20000, 0x1000}}).size(), 1u);
}

// arguments -> h1 -> h2 -> data: three levels of pointers (the default depth) reach the data;
// fewer levels do not, and the verification of `reachable` then does not cover it either (the
// documented assumption of that scope).
TEST_F(write_set, pointers_are_followed_to_the_configured_depth)
{
    m_tracked       = {{0x10000, 8}, {0x11000, 16}, {0x20000, 0x1000}, {0x40000, 0x100000}};
    m_memory        = {{0x10000, 0x11000}, {0x11008, 0x20000}};
    const auto data = memory_range{0x20000, 0x1000};
    for(uint32_t depth = 1; depth <= 4; ++depth)
    {
        SCOPED_TRACE("depth " + std::to_string(depth));
        kr::forget_learned();
        m_settings.pointer_depth = depth;
        m_settings.verify        = kr::verify_scope::reachable;
        auto       p             = predict({0x10000});
        const bool reached       = depth >= 3;
        EXPECT_EQ(!kr::intersect(p.snapshot, {data}).empty(), reached);
        EXPECT_TRUE(kr::intersect(p.verify, {data}).empty());
        EXPECT_EQ(!kr::intersect(p.snapshot, {{0x11000, 16}}).empty(), depth >= 2);
    }
}

// Pointers to the same address are scanned once: a pointer array of 300 copies of one pointer
// costs one read per level, not 300.
TEST_F(write_set, each_address_is_scanned_once)
{
    m_tracked = {{0x10000, 0x1000}, {0x20000, 0x1000}, {0x40000, 0x100000}};
    for(uint64_t i = 0; i < 300; ++i)
        m_memory[0x10000 + 8 * i] = 0x20000;
    m_reads = 0;
    auto p  = predict({0x10000});
    EXPECT_EQ(m_reads, 2u); // the array, then the allocation its pointers point to
    EXPECT_EQ(kr::intersect(p.snapshot, {{0x20000, 0x1000}}).size(), 1u);
}

// A scan that would read more than its budget stops, says so, and `reachable` then verifies all
// tracked memory outside the snapshot: a region it did not reach may be written.
TEST_F(write_set, a_scan_over_its_budget_verifies_all_memory_under_reachable)
{
    m_tracked              = {{0x10000, 0x1000}, {0x20000, 0x1000}, {0x40000, 0x100000}};
    m_memory               = {{0x10000, 0x20000}, {0x20000, 0x40000}};
    m_settings.scan_budget = 0x1800; // the first 4 KiB, not the second
    m_settings.verify      = kr::verify_scope::reachable;
    auto p                 = predict({0x10000});
    EXPECT_TRUE(p.scan_truncated);
    EXPECT_EQ(p.verify, kr::subtract(m_tracked, p.snapshot));
    m_settings.scan_budget = 1 << 20;
    kr::forget_learned();
    auto q = predict({0x10000});
    EXPECT_FALSE(q.scan_truncated);
}

TEST_F(write_set, a_learned_shape_snapshots_what_it_wrote_and_not_its_inputs)
{
    // Argument 0 points into the first allocation (written), argument 1 into the big one (read).
    auto p = predict({0x10100, 0x40000});
    EXPECT_EQ(p.snapshot_bytes(), 0x1000u + 0x100000u);
    // Pass 0 changed bytes 0x10100..0x10180, in two 64 KiB compare pieces worth of ranges: the
    // first allocation is one piece, the big one 16; only the first changed.
    auto changes = std::vector<range_change>(1 + 16);
    changes[0]   = {0x10100, 0x1017d, 0x7d};
    EXPECT_EQ(kr::learn_written({7, {1, 1, 1}, {64, 1, 1}}, p, changes), 0x80u); // 16-byte granules

    // The same shape, new pointers: argument 0 is its learned extent; argument 1 changed nothing
    // once, which is not yet enough to call it read-only (zeros written over zeros change
    // nothing either).
    auto q = predict({0x10200, 0x40000});
    EXPECT_TRUE(q.learned);
    EXPECT_TRUE(q.partly);
    ASSERT_EQ(q.snapshot.size(), 2u);
    EXPECT_EQ(q.snapshot[0], (memory_range{0x10200, 0x80}));
    EXPECT_EQ(q.snapshot[1], (memory_range{0x40000, 0x100000}));
    auto second = std::vector<range_change>(2 + 16);
    second[0]   = {0x10200, 0x10280, 0x80};
    kr::learn_written({7, {1, 1, 1}, {64, 1, 1}}, q, second);
    // Unchanged twice in a row: read-only, no longer snapshotted.
    auto q3 = predict({0x10300, 0x40000});
    EXPECT_FALSE(q3.partly);
    ASSERT_EQ(q3.snapshot.size(), 1u);
    EXPECT_EQ(q3.snapshot[0], (memory_range{0x10300, 0x80}));
    // A different shape is first sight again.
    auto r = predict({0x10200, 0x40000}, {7, {2, 1, 1}, {64, 1, 1}});
    EXPECT_FALSE(r.learned);
}

TEST_F(write_set, other_sizes_or_scalars_in_the_arguments_are_another_shape)
{
    auto p       = predict({0x10100, 64});
    auto changes = std::vector<range_change>{{0x10100, 0x10200, 0x100}};
    kr::learn_written({7, {1, 1, 1}, {64, 1, 1}}, p, changes);
    EXPECT_TRUE(predict({0x10800, 64}).learned);  // another pointer, the same size
    EXPECT_FALSE(predict({0x10100, 65}).learned); // another size: first sight
}

TEST_F(write_set, a_learned_extent_never_leaves_the_allocation_its_pointer_is_in)
{
    auto p       = predict({0x10000});
    auto changes = std::vector<range_change>{{0x10000, 0x11000, 0x1000}};
    kr::learn_written({7, {1, 1, 1}, {64, 1, 1}}, p, changes);
    // The same extent from a pointer near the allocation's end stops at the end.
    auto q = predict({0x10800});
    ASSERT_EQ(q.snapshot.size(), 1u);
    EXPECT_EQ(q.snapshot[0], (memory_range{0x10800, 0x800}));
}

TEST_F(write_set, a_learned_extent_is_predicted_with_a_margin_after_it_and_not_before_the_pointer)
{
    // Learned: the first 0x1000 bytes from the pointer changed. Predicted from a pointer in the
    // middle of the big allocation: a sixteenth more after the extent, nothing before the pointer.
    auto p       = predict({0x40000});
    auto changes = std::vector<range_change>(16, range_change{});
    changes[0]   = range_change{0x40000, 0x41000, 0x1000};
    kr::learn_written({7, {1, 1, 1}, {64, 1, 1}}, p, changes);
    auto q = predict({0x80000});
    ASSERT_EQ(q.snapshot.size(), 1u);
    EXPECT_EQ(q.snapshot[0], (memory_range{0x80000, 0x1100}));
    // An extent that started after the pointer widens before it too, down to the pointer.
    auto key   = kr::shape_key{8, {1, 1, 1}, {64, 1, 1}};
    auto r     = predict({0x40000}, key);
    changes[0] = range_change{0x40080, 0x41080, 0x1000};
    kr::learn_written(key, r, changes);
    auto t = predict({0x80000}, key);
    ASSERT_EQ(t.snapshot.size(), 1u);
    EXPECT_EQ(t.snapshot[0], (memory_range{0x80000, 0x1180}));
}

TEST_F(write_set, a_dispatch_that_changed_nothing_keeps_its_arguments_at_first_sight)
{
    // A fill that wrote the values already there changed nothing: that says nothing about which
    // argument is its output, so none becomes read-only (its next dispatch may change them).
    const auto key = kr::shape_key{7, {1, 1, 1}, {64, 1, 1}};
    kr::learn_written(key, predict({0x40000}), std::vector<range_change>(16, range_change{}));
    kr::learn_written(key, predict({0x40000}), std::vector<range_change>(16, range_change{}));
    auto q = predict({0x40000});
    ASSERT_EQ(q.snapshot.size(), 1u);
    EXPECT_EQ(q.snapshot[0], (memory_range{0x40000, 0x100000}));
}

TEST_F(write_set, writes_outside_widen_the_anchor_and_the_next_compare_refines_them)
{
    const auto key = kr::shape_key{7, {1, 1, 1}, {64, 1, 1}};
    // Two dispatches that wrote the second argument's first 16 bytes and left the first
    // argument's memory unchanged: the first argument counts as read-only.
    auto wrote_second = std::vector<range_change>(17, range_change{});
    wrote_second[0]   = range_change{0x10000, 0x10010, 0x10};
    kr::learn_written(key, predict({0x40000, 0x10000}), wrote_second);
    kr::learn_written(key, predict({0x40000, 0x10000}), wrote_second);
    auto q = predict({0x40000, 0x10000});
    ASSERT_EQ(q.snapshot.size(), 1u);
    EXPECT_EQ(q.snapshot[0], (memory_range{0x10000, 0x10}));
    // The next dispatch writes 0x40000..0x40010: a hash piece of the big allocation changed.
    kr::learn_outside(key, q, {{0x40000, 0x10000}});
    auto r = predict({0x40000, 0x10000});
    ASSERT_EQ(r.snapshot.size(), 2u);
    EXPECT_EQ(r.snapshot[1], (memory_range{0x40000, 0x11000})); // the piece and its margin
    // Its compare finds the exact bytes: they replace the piece.
    auto changes = std::vector<range_change>{{0x10000, 0x10010, 0x10}, {0x40000, 0x40010, 0x10}};
    kr::learn_written(key, r, changes);
    auto s = predict({0x40000, 0x10000});
    ASSERT_EQ(s.snapshot.size(), 2u);
    EXPECT_EQ(s.snapshot[1], (memory_range{0x40000, 0x10}));
}

TEST_F(write_set, an_unattributed_write_is_learned_once_two_dispatches_made_it)
{
    const auto key = kr::shape_key{7, {1, 1, 1}, {64, 1, 1}};
    auto       p   = predict({});
    EXPECT_TRUE(p.snapshot.empty());
    kr::learn_outside(key, p, {{0x20000, 0x1000}});
    EXPECT_TRUE(predict({}).snapshot.empty()); // pending: could have been another thread
    kr::learn_outside(key, p, {{0x20000, 0x1000}});
    auto q = predict({});
    ASSERT_EQ(q.snapshot.size(), 1u);
    EXPECT_EQ(q.snapshot[0], (memory_range{0x20000, 0x1000}));
}

TEST_F(write_set, verification_scopes_and_snapshot_all)
{
    m_settings.verify = kr::verify_scope::reachable;
    EXPECT_EQ(predict({0x10000}).verify_bytes(), 0u);
    m_settings.verify = kr::verify_scope::off;
    EXPECT_EQ(predict({0x20000}).verify_bytes(), 0u);
    m_settings.verify   = kr::verify_scope::all;
    m_settings.snapshot = kr::snapshot_scope::all;
    auto p              = predict({});
    EXPECT_EQ(p.snapshot_bytes(), 0x1000u + 0x1000u + 0x100000u);
    EXPECT_EQ(p.verify_bytes(), 0u);
}

TEST_F(write_set, adjacent_allocations_come_in_only_for_pointers_at_their_border)
{
    // Three 256-byte allocations back to back.
    m_tracked = {{0x1000, 0x100}, {0x1100, 0x100}, {0x1200, 0x100}};
    // A pointer to the start of the middle one: that one only (also the first, which ends
    // there: the pointer may be one past its end).
    auto p = predict({0x1100});
    EXPECT_EQ(p.snapshot_bytes(), 0x200u);
    EXPECT_EQ(p.snapshot.front().start, 0x1000u);
    // A pointer into the middle of the middle one: that one only.
    auto q = predict({0x1180});
    ASSERT_EQ(q.snapshot.size(), 1u);
    EXPECT_EQ(q.snapshot[0], (memory_range{0x1100, 0x100}));
    // A pointer 4 bytes before the last one (its 1-based base): the middle one and the last.
    auto r = predict({0x11fc});
    EXPECT_EQ(r.snapshot_bytes(), 0x200u);
    EXPECT_EQ(r.snapshot.front().start, 0x1100u);
}

TEST_F(write_set, an_argument_at_a_border_counts_once_towards_read_only)
{
    // Argument 0 points at the first byte of the second of two adjacent allocations: it anchors
    // both. One dispatch that changed neither is one unchanged dispatch, not two.
    m_tracked    = {{0x1000, 0x100}, {0x1100, 0x100}};
    const auto k = kr::shape_key{9, {1, 1, 1}, {64, 1, 1}};
    auto       p = predict({0x1100}, k);
    ASSERT_EQ(p.anchors.size(), 2u);
    kr::learn_written(k, p, std::vector<range_change>(2, range_change{}));
    EXPECT_EQ(predict({0x1100}, k).snapshot_bytes(), 0x200u); // still predicted
}

// --- the verification baseline kept between windows ----------------------------------------------

TEST(write_set_baseline, grid_pieces_cut_at_absolute_multiples_of_the_piece_size)
{
    const auto pieces = kr::grid_pieces({{100, 250}, {1000, 100}}, 128);
    const auto expect =
        std::vector<memory_range>{{100, 28}, {128, 128}, {256, 94}, {1000, 24}, {1024, 76}};
    EXPECT_EQ(pieces, expect);
    // The same bytes cut the same way whatever the range around them.
    const auto wider = kr::grid_pieces({{0, 512}}, 128);
    EXPECT_EQ(wider[1], (memory_range{128, 128}));
}

TEST(write_set_baseline, a_kept_hash_is_used_only_for_the_same_bytes_and_the_same_epochs)
{
    auto       cache   = kr::baseline_cache{};
    const auto tracked = std::vector<memory_range>{{0, 1024}};
    const auto epochs  = kr::baseline_epochs{3, 7};
    const auto pieces  = std::vector<memory_range>{{0, 256}, {256, 256}, {512, 256}, {768, 256}};
    auto       out     = std::vector<uint64_t>{};
    // Nothing kept yet.
    EXPECT_EQ(cache.lookup(tracked, epochs, pieces, out).size(), 4u);

    cache.keep(tracked, epochs, false, {{256, 16}}, {}, pieces, {11, 22, 33, 44});
    EXPECT_TRUE(cache.valid_for(tracked, epochs));
    auto missing = cache.lookup(tracked, epochs, pieces, out);
    EXPECT_TRUE(missing.empty());
    EXPECT_EQ(out, (std::vector<uint64_t>{11, 22, 33, 44}));

    // A piece cut differently (by another snapshot) is other bytes: hashed again.
    const auto cut = std::vector<memory_range>{{0, 256}, {272, 240}, {512, 256}};
    missing        = cache.lookup(tracked, epochs, cut, out);
    EXPECT_EQ(missing, (std::vector<size_t>{1}));

    // Another epoch, or other tracked memory: nothing is used.
    EXPECT_EQ(cache.lookup(tracked, kr::baseline_epochs{4, 7}, pieces, out).size(), 4u);
    EXPECT_EQ(cache.lookup(tracked, kr::baseline_epochs{3, 8}, pieces, out).size(), 4u);
    EXPECT_EQ(cache.lookup({{0, 2048}}, epochs, pieces, out).size(), 4u);
    cache.clear();
    EXPECT_EQ(cache.lookup(tracked, epochs, pieces, out).size(), 4u);
}

TEST(write_set_baseline, a_window_drops_what_its_snapshot_rewrote_and_never_keeps_external_memory)
{
    auto       cache   = kr::baseline_cache{};
    const auto tracked = std::vector<memory_range>{{0, 1024}};
    const auto epochs  = kr::baseline_epochs{1, 1};
    const auto all     = std::vector<memory_range>{{0, 256}, {256, 256}, {512, 256}, {768, 256}};
    cache.keep(tracked, epochs, false, {}, {}, all, {1, 2, 3, 4});

    // The next window snapshots [256, 512) and verifies only the first piece (reachable): the
    // rewritten piece goes, the others stay; [768, 1024) is managed memory and is not kept.
    cache.keep(tracked, epochs, true, {{256, 256}}, {{768, 256}}, {{0, 256}, {768, 256}}, {9, 8});
    auto out     = std::vector<uint64_t>{};
    auto missing = cache.lookup(tracked, epochs, all, out);
    EXPECT_EQ(missing, (std::vector<size_t>{1, 3}));
    EXPECT_EQ(out[0], 9u);
    EXPECT_EQ(out[2], 3u);

    // A window that started from an invalid cache keeps only its own hashes.
    cache.keep(tracked, epochs, false, {}, {}, {{0, 256}}, {5});
    missing = cache.lookup(tracked, epochs, all, out);
    EXPECT_EQ(missing, (std::vector<size_t>{1, 2, 3}));
}
