#include "correlation/correlation.hpp"

#include "common/static_object.hpp"

#include <atomic>

namespace rocprofiler::correlation
{
namespace
{
// The last internal correlation id handed out.
struct sequence
{
    std::atomic<uint64_t> last = 0;
};

sequence&
get_sequence()
{
    return common::static_object<sequence, common::reset_order::dispatch_ids>::get();
}

thread_local uint64_t this_thread_operation = 0;
} // namespace

uint64_t
next_id()
{
    return ++get_sequence().last;
}

uint64_t
current_ancestor()
{
    return this_thread_operation;
}

operation_scope::operation_scope(uint64_t internal_id)
    : m_previous{this_thread_operation}
{
    this_thread_operation = internal_id;
}

operation_scope::~operation_scope()
{
    this_thread_operation = m_previous;
}
} // namespace rocprofiler::correlation
