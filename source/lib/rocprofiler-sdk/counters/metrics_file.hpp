// Reading derived-metric definitions from files (docs/api.md, "Derived metrics"): the file the SDK
// ships beside its library, and the user's files named by ROCPROFILER_METRICS_PATH.
//
// A file is JSON:
//     { "version": 1,
//       "derived": [ { "name": "...", "expression": "...", "description": "...", "unit": "...",
//                      "agents": ["host", "sm_90"] } ],
//       "sets": [ ... ] }
// "description", "unit" and "agents" are optional; "sets" belongs to rocprofv3 and is not read
// here. Every problem is one message that names the file (and the definition, when it is one
// definition's); a bad definition is skipped, a bad file contributes nothing; nothing throws.
#pragma once

#include "counters/derived.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace rocprofiler::counters::metrics_file
{
struct loaded
{
    std::vector<derived::definition> definitions = {};
    std::vector<std::string>         errors      = {};
};

// The definitions of one file, appended to @p out (a name given twice in one file: the later
// definition replaces the earlier, with a message).
void read_file(const std::string& path, loaded& out);

// read_file() on the contents @p text of the file @p path (the fuzzer's entry point).
void read_text(std::string_view text, const std::string& path, loaded& out);

// ROCPROFILER_METRICS_PATH's value: a file, or a directory whose `*.json` files are read in name
// order. A path that does not exist, or a directory without such files, is an error.
void read_path(const std::string& path, loaded& out);

// @p shipped followed by @p user, where a user definition with the name of a shipped one (or of an
// earlier user one) takes that one's place.
std::vector<derived::definition> merge(std::vector<derived::definition> shipped,
                                       std::vector<derived::definition> user);

// Where the shipped file is for a library (or executable) at @p object_path:
// <dir of object>/<relative>, with `relative` the install layout's path from the library
// directory to share/rocprofiler-sdk/metrics.json (the build tree has the same layout).
std::string shipped_path_for(const std::string& object_path);

// The path of the object this code is linked into (the SDK's shared library, or an executable
// that links it statically), from dladdr; "" when unknown.
std::string library_object();

// shipped_path_for(library_object()), or "" when that is unknown.
std::string shipped_path();

// Whether @p object_path names a shared library (a missing shipped file is then a broken
// installation, worth a warning; a test executable that links the SDK statically has none).
bool is_shared_library(const std::string& object_path);

// AMD's counter names (docs/api.md, "AMD counter names"): the table
//     { "version": 1,
//       "equivalents": [ { "name": "SQ_WAVES", "amd_meaning": "...", "amd_kind": "hardware",
//                          "definitions": [ { "agents": ["host"], "expression": "WORK_ITEMS",
//                                             "unit": "...", "description": "...",
//                                             "notes": "..." } ],
//                          "absent": [ { "agents": ["sm_90"], "reason": "..." } ] } ] }
// Each definition becomes a derived definition named like AMD's counter, for its agents, with the
// description "equivalent of AMD's <name>: <description>" and quiet_when_unavailable set. An entry
// with a problem (an unknown key, a missing or empty string, a bad expression, an agent named
// twice, an "absent" without a reason) is skipped whole with one message naming the file and the
// entry; a file that is not such a table contributes nothing, with one message. Absent names are
// not definitions: rocprofv3 reads them from the table itself.
void read_equivalents_text(std::string_view text, const std::string& path, loaded& out);
void read_equivalents_file(const std::string& path, loaded& out);

// The table beside the shipped metrics file @p shipped_metrics_path (same directory).
std::string equivalents_path_for(const std::string& shipped_metrics_path);

// What the registry reads, apart: the shipped metrics file, the table of AMD's counter names and
// the user's files (ROCPROFILER_METRICS_PATH). Every problem is logged.
struct sources
{
    std::vector<derived::definition> shipped     = {};
    std::vector<derived::definition> equivalents = {};
    std::vector<derived::definition> user        = {};
};
sources load_sources(const std::string& metrics_path);

// The definitions the registry resolves for every agent: shipped and user merged (merge()), then
// the equivalents whose name no shipped or user definition has (a user definition of AMD's name
// replaces the equivalent on every agent). Equivalents of one name for different agents all stay:
// each applies only to the agents it names, so resolve() sees one per agent.
std::vector<derived::definition> combine(sources all);

// Everything the registry offers: the shipped file and @p metrics_path (the value of
// ROCPROFILER_METRICS_PATH, "" when unset), merged; every problem is logged as an error (a
// missing shipped file as a warning or at info level, see is_shared_library).
std::vector<derived::definition> load(const std::string& metrics_path);
} // namespace rocprofiler::counters::metrics_file
