// The writers above the string paths: arbitrary records (kernel dispatches, counter records,
// memory copies, markers, API calls) decoded from the input, with arbitrary fields (times in any
// order, unknown agents and kernels, operations out of range, NaN and infinite counter values,
// names of any bytes, thousands of counters in one record), given to each output as the tool
// gives them:
// - CSV (csv/rows.hpp): every row reads back as RFC 4180 fields, as many as its header has, one
//   line ending in '\n';
// - Perfetto (pftrace/pftrace_builder.hpp): the trace's bytes are a well-formed sequence of
//   TracePacket fields, each packet a well-formed protobuf message;
// - OTF2 (otf2/otf2_trace.hpp, the model the archive is written from): every record lands in a
//   location, the lanes of each location are in time order and properly nested and hold all its
//   intervals, and every metric point has its class's number of values (at most 255).
#include "csv/rows.hpp"
#include "otf2/otf2_trace.hpp"
#include "pftrace/pftrace_builder.hpp"
#include "protobuf_varint.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tool = rocprofiler::tool;

namespace
{
// The input, read front to back; past its end every value is 0 and every string empty.
class reader
{
public:
    reader(const uint8_t* data, size_t size)
        : m_data{data}
        , m_size{size}
    {
    }
    bool     done() const { return m_at >= m_size; }
    uint8_t  u8() { return m_at < m_size ? m_data[m_at++] : 0; }
    uint64_t u64()
    {
        // One byte says how many follow (0-8): small values stay likely.
        const auto n   = u8() % 9U;
        auto       out = uint64_t{0};
        for(unsigned i = 0; i < n; ++i)
            out = (out << 8U) | u8();
        return out;
    }
    double f64()
    {
        auto bits = uint64_t{0};
        for(int i = 0; i < 8; ++i)
            bits = (bits << 8U) | u8();
        auto out = 0.0;
        std::memcpy(&out, &bits, sizeof(out));
        return out;
    }
    std::string text()
    {
        const auto n   = std::min<size_t>(u8(), m_size - std::min(m_at, m_size));
        auto       out = std::string{reinterpret_cast<const char*>(m_data + m_at), n};
        m_at += n;
        return out;
    }

private:
    const uint8_t* m_data = nullptr;
    size_t         m_size = 0;
    size_t         m_at   = 0;
};

// The fields of one CSV row (RFC 4180: quoted fields with doubled quotes, or bare ones without
// quotes, commas or line breaks); nothing when the row is not one line of such fields.
std::optional<size_t>
csv_fields(std::string_view row)
{
    if(row.empty() || row.back() != '\n') return std::nullopt;
    row.remove_suffix(1);
    size_t fields = 1;
    for(size_t i = 0; i < row.size(); ++i)
    {
        const char c = row[i];
        if(c == '"')
        {
            // Only at a field's start; it ends at an undoubled quote followed by ',' or the end.
            if(i != 0 && row[i - 1] != ',') return std::nullopt;
            for(++i;; ++i)
            {
                if(i >= row.size()) return std::nullopt;
                if(row[i] != '"') continue;
                if(i + 1 < row.size() && row[i + 1] == '"')
                {
                    ++i;
                    continue;
                }
                break;
            }
            if(i + 1 < row.size() && row[i + 1] != ',') return std::nullopt;
        }
        else if(c == ',')
            ++fields;
        else if(c == '\n' || c == '\r')
            return std::nullopt;
    }
    return fields;
}

void
check_rows(const std::string& header, const std::string& rows)
{
    const auto columns = csv_fields(header);
    if(!columns) std::abort();
    size_t start = 0;
    // Rows are separated by the '\n' that ends a row outside quotes.
    bool quoted = false;
    for(size_t i = 0; i < rows.size(); ++i)
    {
        if(rows[i] == '"') quoted = !quoted;
        if(rows[i] != '\n' || quoted) continue;
        const auto fields = csv_fields(std::string_view{rows}.substr(start, i + 1 - start));
        if(!fields || *fields != *columns) std::abort();
        start = i + 1;
    }
    if(quoted || start != rows.size()) std::abort();
}

// A protobuf message: fields of known wire types whose lengths stay inside it.
bool
well_formed(std::string_view message)
{
    size_t pos = 0;
    while(pos < message.size())
    {
        const auto key = read_varint(message, pos);
        if(!key || (*key >> 3U) == 0) return false;
        switch(*key & 7U)
        {
        case 0:
            if(!read_varint(message, pos)) return false;
            break;
        case 1:
            if(message.size() - pos < 8) return false;
            pos += 8;
            break;
        case 2:
        {
            const auto length = read_varint(message, pos);
            if(!length || *length > message.size() - pos) return false;
            pos += *length;
            break;
        }
        case 5:
            if(message.size() - pos < 4) return false;
            pos += 4;
            break;
        default:
            return false;
        }
    }
    return true;
}

// The trace: TracePacket fields (1, length-delimited), each a well-formed message.
void
check_trace(std::string_view trace)
{
    size_t pos = 0;
    while(pos < trace.size())
    {
        const auto key = read_varint(trace, pos);
        if(!key || *key != ((1U << 3U) | 2U)) std::abort();
        const auto length = read_varint(trace, pos);
        if(!length || *length > trace.size() - pos) std::abort();
        if(!well_formed(trace.substr(pos, *length))) std::abort();
        pos += *length;
    }
}

void
check_otf2(const tool::otf2_trace& trace, size_t records)
{
    if(trace.records() > records) std::abort();
    for(const auto& process : trace.processes())
        for(const auto& [key, loc] : process.locations)
        {
            auto       total = size_t{0};
            const auto lanes = tool::otf2_lanes(loc.intervals);
            for(const auto& lane : lanes)
            {
                total += lane.size();
                auto open = std::vector<uint64_t>{}; // ends of the enclosing intervals
                auto last = uint64_t{0};
                for(const auto& iv : lane)
                {
                    if(iv.start < last || iv.end < iv.start) std::abort();
                    last = iv.start;
                    while(!open.empty() && open.back() <= iv.start)
                        open.pop_back();
                    if(!open.empty() && open.back() < iv.end) std::abort();
                    open.push_back(iv.end);
                }
            }
            if(total != loc.intervals.size()) std::abort();
            for(const auto& m : loc.metrics)
            {
                if(m.metric_class >= trace.metric_classes().size()) std::abort();
                const auto& members = trace.metric_classes()[m.metric_class];
                if(m.values.size() != members.size() ||
                   members.size() > tool::otf2_trace::max_metric_members || members.empty())
                    std::abort();
            }
        }
}
} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    auto in = reader{data, size};

    // Up to 3 agents and 4 kernels, of any handles and names.
    auto results    = tool::results{};
    results.pid     = in.u64();
    const auto nags = in.u8() % 4U;
    for(unsigned i = 0; i < nags; ++i)
    {
        auto agent                 = tool::agent_entry{};
        agent.info.id.handle       = in.u64();
        agent.info.node_id         = static_cast<uint32_t>(in.u64());
        agent.info.logical_node_id = static_cast<uint32_t>(in.u64());
        agent.info.type            = static_cast<rocprofiler_agent_type_t>(in.u8() % 4U);
        agent.name                 = in.text();
        agent.product_name         = in.text();
        results.agents.push_back(agent);
    }
    const auto nkernels = in.u8() % 5U;
    for(unsigned i = 0; i < nkernels; ++i)
    {
        auto sym                              = tool::kernel_symbol{};
        sym.kernel_id                         = in.u64();
        sym.name                              = in.text();
        results.kernel_symbols[sym.kernel_id] = sym;
    }
    auto agent_of = [&](uint64_t pick)
    {
        return results.agents.empty() || pick % 4U == 3U
                   ? rocprofiler_agent_id_t{pick}
                   : results.agents[pick % results.agents.size()].info.id;
    };

    auto   trace   = tool::pftrace_builder{results, (in.u8() & 1U) != 0};
    auto   otf2    = tool::otf2_trace{};
    auto   process = otf2.add_process(in.text(), in.text());
    size_t records = 0;
    for(int n = 0; n < 64 && !in.done(); ++n)
    {
        ++records;
        switch(in.u8() % 5U)
        {
        case 0:
        {
            auto  r                   = rocprofiler_buffer_tracing_kernel_dispatch_record_t{};
            auto& d                   = r.dispatch_info;
            d.agent_id                = agent_of(in.u64());
            d.queue_id.handle         = in.u64();
            d.kernel_id               = in.u64();
            d.dispatch_id             = in.u64();
            d.grid_size               = {static_cast<uint32_t>(in.u64()), 1, 1};
            d.workgroup_size          = {static_cast<uint32_t>(in.u64()), 1, 1};
            r.thread_id               = in.u64();
            r.correlation_id.internal = in.u64();
            r.start_timestamp         = in.u64();
            r.end_timestamp           = in.u64();
            check_rows(tool::kernel_trace_csv_header(), tool::kernel_trace_csv_row(results, r));
            trace.dispatch(results, r);
            otf2.dispatch(process, results, r);
            break;
        }
        case 1:
        {
            auto rec                           = tool::counter_dispatch{};
            rec.data.dispatch_info.agent_id    = agent_of(in.u64());
            rec.data.dispatch_info.kernel_id   = in.u64();
            rec.data.dispatch_info.dispatch_id = in.u64();
            rec.data.start_timestamp           = in.u64();
            rec.data.end_timestamp             = in.u64();
            rec.thread_id                      = in.u64();
            if((in.u8() & 1U) != 0) rec.replay_pass = in.u64() % 16U;
            // Up to 300 values (more than one OTF2 metric class takes), names often repeated.
            const auto count = in.u8() % 8U == 0 ? 300U : in.u8() % 9U;
            for(unsigned v = 0; v < count; ++v)
            {
                const auto which = in.u8();
                rec.values.push_back(tool::counter_value{
                    which, which % 2U == 0 ? "C" + std::to_string(v) : in.text(), in.f64()});
            }
            check_rows(tool::counter_collection_csv_header(),
                       tool::counter_collection_csv_rows(results, rec));
            trace.counters(results, rec);
            otf2.counters(process, results, rec);
            break;
        }
        case 2:
        {
            auto c            = rocprofiler_buffer_tracing_memory_copy_record_t{};
            c.operation       = static_cast<rocprofiler_memory_copy_operation_t>(in.u8() % 8U);
            c.src_agent_id    = agent_of(in.u64());
            c.dst_agent_id    = agent_of(in.u64());
            c.bytes           = in.u64();
            c.thread_id       = in.u64();
            c.start_timestamp = in.u64();
            c.end_timestamp   = in.u64();
            check_rows(tool::memory_copy_trace_csv_header(),
                       tool::memory_copy_trace_csv_row(results, c));
            trace.memory_copy(results, c);
            otf2.memory_copy(process, results, c);
            break;
        }
        default:
        {
            auto e           = tool::marker_event{};
            e.domain         = in.text();
            e.function       = in.text();
            e.thread_id      = in.u64();
            e.correlation_id = in.u64();
            e.start          = in.u64();
            e.end            = in.u64();
            e.process_range  = (in.u8() & 1U) != 0;
            if(records % 2 == 0)
            {
                check_rows(tool::marker_api_trace_csv_header(),
                           tool::marker_api_trace_csv_row(results, e));
                trace.marker(e);
                otf2.marker(process, e);
            }
            else
            {
                trace.api_call(e);
                otf2.api_call(process, e);
            }
            break;
        }
        }
    }
    trace.finish();
    check_trace(trace.take());
    check_otf2(otf2, records);
    return 0;
}
