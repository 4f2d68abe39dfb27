// A tool library whose entry points throw, for the SDK's guards around a client's
// rocprofiler_configure, initialize and finalize. THROWING_TOOL_THROW_FROM selects the entry point
// that throws: "configure", "initialize" or "finalize" (unset: none). The tool creates one
// context in configure and starts it in initialize; it registers no callback, so the
// application's results do not depend on it.
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace
{
rocprofiler_context_id_t context = {};

void
throw_if(const char* entry_point)
{
    const auto* from = std::getenv("THROWING_TOOL_THROW_FROM");
    if(from != nullptr && std::string{from} == entry_point)
        throw std::runtime_error{std::string{"throwing-tool: thrown from "} + entry_point};
}

int
tool_initialize(rocprofiler_client_finalize_t, void*)
{
    throw_if("initialize");
    rocprofiler_start_context(context);
    return 0;
}

void
tool_finalize(void*)
{
    throw_if("finalize");
}
} // namespace

extern "C" rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id)
{
    id->name = "throwing-tool";
    rocprofiler_create_context(&context);
    throw_if("configure");
    static auto result = rocprofiler_tool_configure_result_t{
        sizeof(rocprofiler_tool_configure_result_t), tool_initialize, tool_finalize, nullptr};
    return &result;
}
