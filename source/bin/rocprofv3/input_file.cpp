#include "input_file.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <vector>

#if defined(ROCPROFV3_HAVE_LIBYAML)
#    include <yaml.h>
#endif

namespace rocprofv3
{
std::optional<nlohmann::json>
read_json_document(const std::string& text, std::string& error)
{
    // A key given twice in one object would silently keep its last value: refused, named.
    auto keys      = std::vector<std::vector<std::string>>{};
    auto duplicate = std::string{};
    auto too_deep  = false;
    auto check     = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed)
    {
        using event_t = nlohmann::json::parse_event_t;
        // Too deep: the container is skipped (false), so nothing of it is built.
        if((event == event_t::object_start || event == event_t::array_start) &&
           static_cast<size_t>(depth) >= max_input_nesting)
        {
            too_deep = true;
            return false;
        }
        if(event == event_t::object_start) keys.emplace_back();
        if(event == event_t::object_end && !keys.empty()) keys.pop_back();
        if(event == event_t::key && !keys.empty() && duplicate.empty())
        {
            auto  key  = parsed.get<std::string>();
            auto& seen = keys.back();
            if(std::find(seen.begin(), seen.end(), key) != seen.end())
                duplicate = key;
            else
                seen.emplace_back(std::move(key));
        }
        return true;
    };
    try
    {
        auto doc = nlohmann::json::parse(text, check);
        if(too_deep)
        {
            error = "lists and objects are nested more than " + std::to_string(max_input_nesting) +
                    " levels deep";
            return std::nullopt;
        }
        if(!duplicate.empty())
        {
            error = "the key '" + duplicate + "' is given twice in one object";
            return std::nullopt;
        }
        return doc;
    }
    catch(const std::exception& e)
    {
        error = e.what();
        return std::nullopt;
    }
}

#if defined(ROCPROFV3_HAVE_LIBYAML)
namespace
{
nlohmann::json
plain_scalar(const std::string& value)
{
    auto lower = value;
    std::transform(lower.begin(),
                   lower.end(),
                   lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for(const auto* on : {"true", "yes", "on"})
        if(lower == on) return true;
    for(const auto* off : {"false", "no", "off"})
        if(lower == off) return false;
    if(lower.empty() || lower == "~" || lower == "null") return nullptr;
    auto number    = int64_t{0};
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
    if(ec == std::errc{} && end == value.data() + value.size()) return number;
    return value;
}

// Builds the JSON value of one YAML document from the parser's events. The first error stops it.
class yaml_builder
{
public:
    explicit yaml_builder(std::string& error)
        : m_error{error}
    {
    }

    // Takes one event; false with the error set when the document is refused.
    bool event(const yaml_event_t& event)
    {
        m_line = event.start_mark.line + 1;
        switch(event.type)
        {
        case YAML_STREAM_END_EVENT:
            m_done = true;
            return true;
        case YAML_DOCUMENT_START_EVENT:
            // Only one document is read: a second one would be silently ignored.
            if(++m_documents > 1)
                return fail("it holds more than one YAML document (document " +
                            std::to_string(m_documents) + " starts at line " +
                            std::to_string(m_line) +
                            "); rocprofv3 reads one: list every job under 'jobs' in one document");
            return true;
        case YAML_ALIAS_EVENT:
            return fail("YAML aliases are not supported (line " + std::to_string(m_line) + ")");
        case YAML_SCALAR_EVENT:
        {
            auto value = std::string{reinterpret_cast<const char*>(event.data.scalar.value),
                                     event.data.scalar.length};
            return add(event.data.scalar.style == YAML_PLAIN_SCALAR_STYLE ? plain_scalar(value)
                                                                          : nlohmann::json(value));
        }
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            if(m_stack.size() >= max_input_nesting)
                return fail("lists and mappings are nested more than " +
                            std::to_string(max_input_nesting) + " levels deep (line " +
                            std::to_string(m_line) + ")");
            m_stack.push_back({event.type == YAML_SEQUENCE_START_EVENT ? nlohmann::json::array()
                                                                       : nlohmann::json::object(),
                               {}});
            return true;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
        {
            auto node = std::move(m_stack.back().node);
            m_stack.pop_back();
            return add(std::move(node));
        }
        default:
            return true;
        }
    }

    bool done() const { return m_done; }
    // The document; null when it was empty.
    nlohmann::json result() const { return m_result ? *m_result : nlohmann::json{}; }

private:
    // The nodes being built, innermost last; for a mapping, the key waiting for its value.
    struct frame
    {
        nlohmann::json             node = {};
        std::optional<std::string> key  = {};
    };

    bool fail(std::string why)
    {
        m_error = std::move(why);
        return false;
    }

    bool add(nlohmann::json value)
    {
        if(m_stack.empty())
        {
            m_result = std::move(value);
            return true;
        }
        auto& top = m_stack.back();
        if(top.node.is_array())
        {
            top.node.push_back(std::move(value));
            return true;
        }
        if(!top.key)
        {
            if(!value.is_string() && !value.is_number() && !value.is_boolean())
                return fail("a mapping key is not a scalar");
            top.key = value.is_string() ? value.get<std::string>() : value.dump();
            // A key given twice would silently keep its last value: refused, named.
            if(top.node.contains(*top.key))
                return fail("the key '" + *top.key +
                            "' is given twice in one mapping (again at line " +
                            std::to_string(m_line) + ")");
            return true;
        }
        top.node[*top.key] = std::move(value);
        top.key.reset();
        return true;
    }

    std::string&                  m_error;
    size_t                        m_line      = 0; // of the event being added
    int                           m_documents = 0;
    bool                          m_done      = false;
    std::vector<frame>            m_stack     = {};
    std::optional<nlohmann::json> m_result    = {};
};
} // namespace

std::optional<nlohmann::json>
read_yaml_document(const std::string& text, std::string& error)
{
    auto parser = yaml_parser_t{};
    if(yaml_parser_initialize(&parser) == 0)
    {
        error = "cannot initialize the YAML parser";
        return std::nullopt;
    }
    yaml_parser_set_input_string(
        &parser, reinterpret_cast<const unsigned char*>(text.data()), text.size());
    auto builder = yaml_builder{error};
    auto ok      = true;
    while(ok && !builder.done())
    {
        auto event = yaml_event_t{};
        if(yaml_parser_parse(&parser, &event) == 0)
        {
            error = std::string{parser.problem != nullptr ? parser.problem : "invalid YAML"} +
                    " at line " + std::to_string(parser.problem_mark.line + 1);
            ok = false;
            break;
        }
        ok = builder.event(event);
        yaml_event_delete(&event);
    }
    yaml_parser_delete(&parser);
    if(!ok) return std::nullopt;
    return builder.result();
}
#else
std::optional<nlohmann::json>
read_yaml_document(const std::string&, std::string& error)
{
    error = "this rocprofv3 was built without YAML support (libyaml-dev); use a JSON job file "
            "(the same 'jobs' list) or a text file of 'pmc:' lines";
    return std::nullopt;
}
#endif
} // namespace rocprofv3
