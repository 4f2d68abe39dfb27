// -f rocpd: results.db, an SQLite database in rocpd's schema, its rows inserted as records arrive
// and committed at each checkpoint (rocpd_writer, rocpd.hpp).
#pragma once

#include "config/config.hpp"
#include "rocpd/rocpd_writer.hpp"
#include "sinks/sink.hpp"

#include <string>
#include <vector>

namespace rocprofiler::tool
{
class rocpd_sink final : public sink
{
public:
    // Creates the database (what @p data holds already is inserted); an error is appended to
    // @p errors and the database is then missing.
    rocpd_sink(const config& cfg, const results& data, std::vector<std::string>& errors);

    void dispatch(const results&                                             data,
                  const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r) override;
    void counters(const results& data, const counter_dispatch& rec) override;
    void memory_copy(const results&                                         data,
                     const rocprofiler_buffer_tracing_memory_copy_record_t& r) override;
    void marker(const results& data, const marker_event& e) override;
    void api_call(const results& data, const marker_event& e) override;
    void replay_outcome(const results&                           data,
                        const rocprofiler::tool::replay_outcome& outcome,
                        const std::vector<uint64_t>&             missing) override;
    void code_object(const code_object_entry& entry) override;
    void kernel_symbol(const rocprofiler::tool::kernel_symbol& sym) override;
    void checkpoint() override;
    void finish(const results&            data,
                std::vector<std::string>& written,
                std::vector<std::string>& errors) override;

private:
    rocpd_writer m_db = {};
};
} // namespace rocprofiler::tool
