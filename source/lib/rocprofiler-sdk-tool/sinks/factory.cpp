#include "sinks/factory.hpp"
#include "csv/csv_sink.hpp"
#include "otf2/otf2_sink.hpp"
#include "pftrace/pftrace_sink.hpp"
#include "rocpd/rocpd_sink.hpp"
#include "sinks/kept_records.hpp"
#include "json/json_sink.hpp"

namespace rocprofiler::tool
{
namespace
{
template <typename Sink>
std::unique_ptr<sink>
make(const config& cfg, results& data, std::vector<std::string>& errors)
{
    return std::make_unique<Sink>(cfg, data, errors);
}

struct format_entry
{
    std::string_view name;
    bool config::*enabled;
    std::unique_ptr<sink> (*make)(const config&, results&, std::vector<std::string>&);
};

// One line per format, in the order their files are opened.
constexpr format_entry formats[] = {
    {"csv", &config::csv, make<csv_sink>},
    {"json", &config::json, make<json_sink>},
    {"pftrace", &config::pftrace, make<pftrace_sink>},
    {"rocpd", &config::rocpd, make<rocpd_sink>},
    {"otf2", &config::otf2, make<otf2_sink>},
};
} // namespace

std::unique_ptr<sink>
make_sink(std::string_view          format,
          const config&             cfg,
          results&                  data,
          std::vector<std::string>& errors)
{
    for(const auto& f : formats)
        if(f.name == format) return f.make(cfg, data, errors);
    return nullptr;
}

fan_out
open_sinks(const config& cfg, results& data, std::vector<std::string>& errors)
{
    auto out = fan_out{};
    for(const auto& f : formats)
        if(cfg.*f.enabled) out.add(f.make(cfg, data, errors));
    if(out.empty()) out.add(std::make_unique<kept_records>(data));
    return out;
}
} // namespace rocprofiler::tool
