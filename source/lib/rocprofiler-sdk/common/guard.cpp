#include "common/guard.hpp"

#include "common/logging.hpp"

#include <new>
#include <string>

namespace rocprofiler::common
{
caught
report_current_exception(const char* where) noexcept
{
    auto kind = caught::unknown;
    auto what = std::string{"unknown exception"};
    try
    {
        try
        {
            throw;
        }
        catch(const std::bad_alloc&)
        {
            kind = caught::out_of_memory;
            what = "out of memory";
        }
        catch(const std::exception& e)
        {
            kind = caught::exception;
            what = e.what();
        }
        catch(...)
        {
        }
        const auto message = "exception in " + std::string{where} + ": " + what;
        log::warn_once(std::string{"exception:"} + where, message);
    }
    catch(...)
    {
        // Logging itself failed (out of memory): nothing more can be said.
    }
    return kind;
}
} // namespace rocprofiler::common
