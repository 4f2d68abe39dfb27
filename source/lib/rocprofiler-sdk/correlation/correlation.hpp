// Internal correlation ids (rocprofiler_correlation_id_t::internal): one sequence for every
// operation the SDK reports (dispatches, runtime API calls, memory copies, markers, graph
// launches), so that two operations never share an id and ids follow the order the operations
// were issued in; and the operation the calling thread is inside (its enclosing operation: the
// ancestor of what it issues meanwhile). A test reset restarts the sequence at 1
// (common::reset_order::dispatch_ids, with the dispatch ids).
//
// The external correlation ids a context asks its tool for are the dispatch pipeline's
// (dispatch::request_external_id): asking calls into the tool through delivery's guard.
#pragma once

#include <cstdint>

namespace rocprofiler::correlation
{
// Reserves the next internal correlation id. Any thread.
uint64_t next_id();

// The internal correlation id of the operation the calling thread is inside, or 0.
uint64_t current_ancestor();

// Makes `internal_id` the calling thread's enclosing operation for the scope's lifetime (the
// tool's callbacks of a dispatch run inside it); the previous one is restored at its end.
class operation_scope
{
public:
    explicit operation_scope(uint64_t internal_id);
    ~operation_scope();

    operation_scope(const operation_scope&)            = delete;
    operation_scope& operator=(const operation_scope&) = delete;

private:
    uint64_t m_previous;
};
} // namespace rocprofiler::correlation
