// rocprofv3 -i: the JSON and YAML job files of upstream rocprofv3 ({"jobs": [{...}, ...]}), read
// into JSON. YAML is read with libyaml (Debian libyaml-dev) when rocprofv3 was built with it;
// without it a YAML file is an error that says so (JSON and text files still work).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>

namespace rocprofv3
{
// The deepest nesting of lists and mappings an input file may have (a job file needs three:
// jobs, a job, a list value). A deeper document is refused as it is read, before any value of it
// is built, so that no later copy or walk of the document can exhaust the stack.
inline constexpr size_t max_input_nesting = 64;

// The largest input file read (-i): far above any job file or list of counter groups.
inline constexpr size_t max_input_file_bytes = size_t{16} << 20;

// The document of a JSON file, or nothing with @p error (the parser's message, with its line).
std::optional<nlohmann::json> read_json_document(const std::string& text, std::string& error);

// The document of a YAML file as JSON: mappings become objects, sequences arrays; plain scalars
// true/false (also yes/no/on/off, any case) become booleans, integers numbers, '~'/null/empty
// null, and everything else (and every quoted scalar) strings. Anchors, aliases and tags are
// refused. Nothing, with @p error, when the text is not YAML or YAML support is not built in.
std::optional<nlohmann::json> read_yaml_document(const std::string& text, std::string& error);
} // namespace rocprofv3
