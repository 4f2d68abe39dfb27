#if !defined(ROCPROFILER_TOOL_HAVE_SQLITE3)
#    include "rocpd/rocpd_writer.hpp"

namespace rocprofiler::tool
{
// Built without SQLite3: rocprofv3 and the tool's configuration refuse -f rocpd before this is
// reached; these only keep the tool linkable.
bool
rocpd_available()
{
    return false;
}

rocpd_writer::~rocpd_writer() = default;

bool
rocpd_writer::open(const std::string& path, const results&)
{
    m_path  = path;
    m_error = "rocpd output was not built: SQLite3 missing";
    return false;
}
void
rocpd_writer::code_object(const code_object_entry&)
{
}
void
rocpd_writer::kernel(const kernel_symbol&)
{
}
void
rocpd_writer::dispatch(const results&, const rocprofiler_buffer_tracing_kernel_dispatch_record_t&)
{
}
void
rocpd_writer::counters(const results&, const counter_dispatch&)
{
}
void
rocpd_writer::memory_copy(const results&, const rocprofiler_buffer_tracing_memory_copy_record_t&)
{
}
void
rocpd_writer::marker(const results&, const marker_event&)
{
}
void
rocpd_writer::replay_outcome(const results&,
                             const tool::replay_outcome&,
                             const std::vector<uint64_t>&)
{
}
void
rocpd_writer::commit()
{
}
bool
rocpd_writer::finish(const results&, std::string& error)
{
    error = m_error;
    return false;
}
} // namespace rocprofiler::tool
#endif
