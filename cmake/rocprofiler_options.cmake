# Compiler flags shared by every target of the project.
add_library(rocprofiler-build-flags INTERFACE)
target_compile_options(
    rocprofiler-build-flags
    INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wno-missing-field-initializers>
              $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wpedantic>)
if(ROCPROFILER_WERROR)
    target_compile_options(rocprofiler-build-flags INTERFACE -Werror)
endif()
if(ROCPROFILER_BUILD_SANITIZERS OR ROCPROFILER_BUILD_TSAN)
    # GCC's flow analysis reports false "maybe uninitialized" warnings inside libstdc++ (<regex>,
    # std::function) once sanitizer instrumentation is on.
    target_compile_options(rocprofiler-build-flags INTERFACE $<$<CXX_COMPILER_ID:GNU>:-Wno-maybe-uninitialized>)
endif()

if(ROCPROFILER_BUILD_SANITIZERS AND ROCPROFILER_BUILD_TSAN)
    message(FATAL_ERROR "ROCPROFILER_BUILD_SANITIZERS and ROCPROFILER_BUILD_TSAN cannot be combined")
endif()
if(ROCPROFILER_BUILD_TSAN)
    add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
    add_link_options(-fsanitize=thread)
endif()

if(ROCPROFILER_BUILD_SANITIZERS)
    # Applied globally so that test programs, tools and the library agree on the runtime.
    add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    add_link_options(-fsanitize=address,undefined)
endif()

# Internal contract checks (ROCP_DCHECK, source/lib/rocprofiler-sdk/common/dcheck.hpp): on in
# debug, sanitizer and TSan builds, off in release builds, where their conditions are not
# evaluated.
if(ROCPROFILER_BUILD_SANITIZERS OR ROCPROFILER_BUILD_TSAN OR CMAKE_BUILD_TYPE STREQUAL "Debug")
    set(_rocp_dchecks_default ON)
else()
    set(_rocp_dchecks_default OFF)
endif()
option(ROCPROFILER_DCHECKS "Check the library's internal contracts at run time" ${_rocp_dchecks_default})
if(ROCPROFILER_DCHECKS)
    add_compile_definitions(ROCPROFILER_DCHECKS=1)
endif()
