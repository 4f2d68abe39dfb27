/**
 * @file cxx/codeobj/segment.hpp
 * @brief Which loaded code object holds an address: a set of address ranges, each tagged with a
 * code object's id, with rocprofiler-sdk's names (`address_range_t`, `CodeobjTableTranslator`).
 * rocprofiler-sdk's other codeobj helpers (disassembly.hpp, code_printing.hpp) decode AMD GPU
 * code through AMD's comgr and are not provided. C++17.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <stdexcept>

namespace rocprofiler
{
namespace sdk
{
namespace codeobj
{
namespace segment
{
using marker_id_t = size_t;

/**
 * @brief The range [addr, addr + size) of code object `id`. Two ranges compare equal when they
 * overlap (a range of size 0 overlaps the ranges that contain its address), so a set of disjoint
 * ranges is searched with a range of size 0.
 */
struct address_range_t
{
    uint64_t    addr = 0;
    uint64_t    size = 0;
    marker_id_t id   = 0;

    /** @brief Whether @p address lies in the range. */
    bool inrange(uint64_t address) const { return address >= addr && address - addr < size; }

    bool operator==(const address_range_t& other) const
    {
        return inrange(other.addr) || other.inrange(addr);
    }
    bool operator<(const address_range_t& other) const
    {
        return !(*this == other) && addr < other.addr;
    }
};

/**
 * @brief The ranges of the loaded code objects, assumed disjoint, with the last range found
 * cached. Not thread-safe.
 */
class CodeobjTableTranslator : public std::set<address_range_t>
{
public:
    /** @brief The range holding @p addr; throws std::out_of_range (a std::exception) if none. */
    address_range_t find_codeobj_in_range(uint64_t addr)
    {
        if(cached.inrange(addr)) return cached;
        auto it = find(address_range_t{addr, 0, 0});
        if(it == end()) throw std::out_of_range{"no code object holds this address"};
        cached = *it;
        return cached;
    }

    /** @brief Forgets the cached range. */
    void clear_cache() { cached = {}; }

    /** @brief Removes the range that overlaps @p range; false if there was none. */
    bool remove(const address_range_t& range)
    {
        clear_cache();
        return erase(range) != 0;
    }

    /** @brief Removes the range that holds @p addr; false if there was none. */
    bool remove(uint64_t addr) { return remove(address_range_t{addr, 0, 0}); }

private:
    address_range_t cached = {};
};
} // namespace segment
} // namespace codeobj
} // namespace sdk
} // namespace rocprofiler
