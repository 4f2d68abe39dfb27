// Which words of a kernel's arguments point into writable memory of the process that the host
// device's allocator did not hand out (plain malloc, globals, stacks): a host-device kernel can
// write any of it, and replay cannot restore what it does not track.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace rocprofiler::host
{
struct untracked_pointer
{
    size_t   offset = 0; // of the word in the argument block
    uint64_t value  = 0; // the pointer
};

// The writable mappings of this process, from /proc/self/maps, as sorted [start, end) pairs.
// Empty when the file cannot be read.
std::vector<std::pair<uint64_t, uint64_t>> writable_mappings();

// The first 8-byte-aligned word of `args` that is not a small integer, lies outside every tracked
// allocation (`tracked(word)` false) and inside a writable mapping of the process; or nothing.
// Reads /proc/self/maps only when some word passes the first two tests.
std::optional<untracked_pointer>
find_untracked_pointer(const void* args, size_t size, const std::function<bool(uint64_t)>& tracked);
} // namespace rocprofiler::host
