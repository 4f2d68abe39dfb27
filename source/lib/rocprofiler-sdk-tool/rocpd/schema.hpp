// rocpd's schema (rocpd/schema.sql): the SQL that creates every table and view of results.db,
// embedded into the tool when it is built (CMake generates its definition from the .sql file).
#pragma once

namespace rocprofiler::tool
{
extern const char* const rocpd_schema_sql;
} // namespace rocprofiler::tool
