// rocprofv3's small value parsers, shared by the CLI and the tool: the first byte picks one, the
// rest is its input. Each either refuses with a message or gives a value that survives its own
// round trip.
#include "config/parse.hpp"
#include "config/placeholders.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace parse        = rocprofiler::tool::parse;
namespace placeholders = rocprofiler::tool::placeholders;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if(size == 0) return 0;
    auto text = std::string_view{reinterpret_cast<const char*>(data) + 1, size - 1};
    switch(data[0] % 6)
    {
    case 0:
    {
        auto error = std::string{};
        auto range = parse::parse_iteration_range(text, &error);
        if(!range && error.empty()) std::abort();
        if(range)
            for(uint64_t i : {uint64_t{0}, uint64_t{1}, uint64_t{7}, UINT64_MAX})
                (void)range->contains(i);
        break;
    }
    case 1:
        (void)parse::parse_count(text);
        break;
    case 2:
    {
        auto names = parse::parse_counter_list(text);
        for(const auto& name : names)
            if(name.empty()) std::abort();
        break;
    }
    case 3:
    {
        // Groups decoded from anything encode and decode to themselves.
        auto groups = parse::decode_counter_groups(text);
        if(parse::decode_counter_groups(parse::encode_counter_groups(groups)) != groups)
            std::abort();
        break;
    }
    case 4:
    {
        auto values = [](std::string_view key) -> std::optional<std::string>
        {
            if(key == "pid") return std::string{"123"};
            if(key.substr(0, 4) == "env{") return std::string(300, 'e');
            return std::nullopt;
        };
        auto error = std::string{};
        auto out   = placeholders::expand(text, values, &error);
        if(!out && error.empty()) std::abort();
        (void)placeholders::has_placeholder(text);
        break;
    }
    case 5:
    {
        auto name = std::string{text};
        (void)parse::format_kernel_name(name, true, true);
        (void)parse::abbreviate(name);
        (void)parse::edit_distance(text.substr(0, 64), "SQ_WAVES");
        break;
    }
    }
    return 0;
}
