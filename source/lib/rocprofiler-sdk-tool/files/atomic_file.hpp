// How the tool opens and replaces its output files: never through a symbolic link, whole files
// replaced atomically (a temporary renamed over the old one), so that a checkpoint or an abrupt end
// never leaves a half-written file.
#pragma once

#include "config/config.hpp"

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace rocprofiler::tool
{
// The path of one output file: <output_path>/<prefix>_<suffix>.
std::string output_file(const config& cfg, uint64_t pid, std::string_view suffix);

// Opens the output @p path for writing with @p flags (O_WRONLY or O_RDWR, O_CREAT, O_TRUNC...),
// never through a symbolic link: O_NOFOLLOW and O_CLOEXEC are added, so a link planted at the name
// is refused and its target left untouched. Returns the descriptor, or -1 with @p error set to
// "refusing to write '<path>': it is a symbolic link" or "could not write '<path>': <OS reason>".
int open_output(const std::string& path, int flags, mode_t mode, std::string& error);
// "refusing to write '<path>': it is a symbolic link" when @p path is one, else empty.
std::string symbolic_link_refusal(const std::string& path);
// Creates a temporary for @p path in its directory, "<path>.tmp-<random>", exclusively
// (O_CREAT | O_EXCL | O_NOFOLLOW): a file or link already at a guessed name is never opened.
// @p mode is applied with the umask, as for any output. Returns the descriptor (its name in
// @p temporary), or -1 with errno set.
int create_temporary(const std::string& path, mode_t mode, std::string& temporary);

// Writes @p contents to @p path atomically (a temporary file in the same directory, created
// exclusively under an unpredictable name, renamed over it). A symbolic link at @p path is
// refused. On failure appends "could not write '<path>': <OS reason>" to @p errors.
bool write_file_atomically(const std::string&        path,
                           const std::string&        contents,
                           std::vector<std::string>& errors);
// The same with the contents written by @p write_contents to the temporary file's descriptor
// (returns 0 or the errno).
bool write_file_atomically(const std::string&             path,
                           const std::function<int(int)>& write_contents,
                           std::vector<std::string>&      errors);
} // namespace rocprofiler::tool
