# Compiler flags shared by every target of the project.
add_library(rocprofiler-build-flags INTERFACE)
target_compile_options(
    rocprofiler-build-flags
    INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wno-missing-field-initializers>
              $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wpedantic>)
if(ROCPROFILER_WERROR)
    target_compile_options(rocprofiler-build-flags INTERFACE -Werror)
endif()

if(ROCPROFILER_BUILD_SANITIZERS)
    # Applied globally so that test programs, tools and the library agree on the runtime.
    add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    add_link_options(-fsanitize=address,undefined)
endif()
