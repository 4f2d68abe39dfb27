// input_database on hostile files: whatever a file holds, opening it ends, with the database or a
// failure naming the file.
#include "input_database.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <future>
#include <string>

namespace
{
// A database at a fresh path in the test's temporary directory, made by @p sql.
std::string
make_database(const std::string& name, const std::string& sql)
{
    auto path = testing::TempDir() + "rocpd_input_" + std::to_string(::getpid()) + "_" + name;
    std::remove(path.c_str());
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
        << (error != nullptr ? error : "");
    sqlite3_free(error);
    sqlite3_close(db);
    return path;
}

const char* const views = "CREATE VIEW kernels AS SELECT 1 AS id;"
                          "CREATE VIEW memory_copies AS SELECT 1 AS id;"
                          "CREATE VIEW regions AS SELECT 1 AS id;";

// Opens @p path on another thread, so that an open that never ends fails the test instead of
// hanging it. Returns the failure's message, or "" when the database opened.
std::string
open_bounded(const std::string& path)
{
    auto opening = std::async(std::launch::async,
                              [path]() -> std::string
                              {
                                  try
                                  {
                                      auto db = rocpd::input_database{path, 0};
                                      return {};
                                  }
                                  catch(const rocpd::failure& e)
                                  {
                                      return e.what();
                                  }
                              });
    if(opening.wait_for(std::chrono::seconds{60}) != std::future_status::ready)
    {
        ADD_FAILURE() << path << ": opening it did not return";
        std::quick_exit(1); // the opening thread cannot be joined
    }
    return opening.get();
}
} // namespace

TEST(input_database, a_rocpd_metadata_view_that_never_ends_is_refused_naming_the_file)
{
    // A recursive view: rows without end (the rocpd_input fuzzer's regression case is this file).
    const auto path = make_database(
        "endless.db",
        std::string{"CREATE VIEW rocpd_metadata AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL "
                    "SELECT x + 1 FROM c) SELECT 'uuid' AS tag, 'u' AS value FROM c;"} +
            views);
    const auto message = open_bounded(path);
    EXPECT_EQ(message.rfind(path + ": reading its metadata views (rocpd_metadata, "
                                   "rocpd_info_process) did not end within ",
                            0),
              0U)
        << message;
    EXPECT_NE(message.find("not a rocpd database this reader opens"), std::string::npos) << message;
}

TEST(input_database, a_merged_database_of_many_runs_opens_within_the_step_budget)
{
    // The budget of the open is for views that do not end: 2,000 runs of 12 tags each, as a
    // view over a table as rocprofv3's databases hold them, still open.
    auto sql = std::string{"CREATE TABLE rocpd_metadata_all (tag TEXT, value TEXT);"
                           "INSERT INTO rocpd_metadata_all VALUES ('schema_version', '3');"
                           "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r "
                           "WHERE n < 2000), t(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM t "
                           "WHERE k < 11) INSERT INTO rocpd_metadata_all SELECT 'tag' || k, "
                           "'run' || n FROM r, t;"
                           "INSERT INTO rocpd_metadata_all SELECT 'uuid', 'u' || n FROM (WITH "
                           "RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < "
                           "2000) SELECT n FROM r);"
                           "CREATE VIEW rocpd_metadata AS SELECT tag, value FROM "
                           "rocpd_metadata_all;"} +
               views;
    const auto path = make_database("merged.db", sql);
    EXPECT_EQ(open_bounded(path), "");
    auto db = rocpd::input_database{path, 0};
    EXPECT_EQ(db.runs(), 2000);
    EXPECT_EQ(db.tag("schema_version"), "3");
}
