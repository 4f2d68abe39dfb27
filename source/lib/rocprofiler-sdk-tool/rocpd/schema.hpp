// rocpd's schema (rocpd/schema.sql): the SQL that creates every table and view of results.db,
// embedded into the tool when it is built (CMake generates its definition from the .sql file).
#pragma once

#include <string>

namespace rocprofiler::tool
{
// The text holds the placeholders {{uuid}} (the run's table suffix) and {{guid}} (the run's
// UUID): rocpd_schema_for() fills them in.
extern const char* const rocpd_schema_sql;

// The schema of the run @p uuid, ready to run.
std::string rocpd_schema_for(const std::string& uuid);

// Replaces every {{uuid}} in @p text by the table suffix of @p uuid and every {{guid}} by @p uuid.
std::string fill_rocpd_placeholders(std::string text, const std::string& uuid);
} // namespace rocprofiler::tool
