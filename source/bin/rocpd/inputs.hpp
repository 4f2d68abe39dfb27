// What `-i` names, as AMD's rocpd reads it: a database file, a folder (its *.db files, or the
// databases its index.yaml lists: a package, `rocpd package`), or a package index (index.yaml, any
// .yaml/.yml file of that form). A package index lists the databases relative to its own folder:
//
//   rocprofiler-sdk:
//     rocpd:
//       rocpd_package_version: '1.0'
//       path: .
//       files:
//       - rank_0_results.db
//       - rank_1_results.db
//
// (`files` may be one name instead of a list; names may hold the wildcards * ? [ ]).
#pragma once

#include <string>
#include <vector>

namespace rocpd
{
// The version of the package index this writes (AMD's rocpd_package_version).
inline constexpr const char* package_version = "1.0";

// The database files @p items name, in order (a folder's and a wildcard's sorted by name).
// Throws failure{bad_input} naming the item for a folder without databases, an index that lists
// none or is not of that form, and a wildcard that matches nothing.
std::vector<std::string> expand_inputs(const std::vector<std::string>& items);

// The databases the index @p index lists, resolved against its folder; throws as expand_inputs.
std::vector<std::string> read_package_index(const std::string& index);

// The text of the index of a package in @p folder that lists @p databases (paths relative to it).
std::string package_index(const std::vector<std::string>& databases);
} // namespace rocpd
