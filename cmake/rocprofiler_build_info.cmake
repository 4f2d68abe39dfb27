# rocprofiler_write_build_info(<include dir>): writes <include dir>/rocprofiler-sdk/build_info.h
# from cmake/build_info.h.in with this build's source revision (git describe and commit of the
# source tree at configure time; empty where the tree has no git history), system and C++ compiler.
# version.h includes it, so every build that compiles the public headers calls this once.
function(rocprofiler_write_build_info _DIR)
    get_filename_component(_ROOT "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/.." ABSOLUTE)
    find_package(Git QUIET)
    set(ROCPROFILER_SDK_GIT_DESCRIBE "")
    set(ROCPROFILER_SDK_GIT_REVISION "")
    if(GIT_FOUND AND EXISTS ${_ROOT}/.git)
        execute_process(
            COMMAND ${GIT_EXECUTABLE} describe --tags --always --dirty
            WORKING_DIRECTORY ${_ROOT}
            OUTPUT_VARIABLE ROCPROFILER_SDK_GIT_DESCRIBE
            OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
        execute_process(
            COMMAND ${GIT_EXECUTABLE} rev-parse HEAD
            WORKING_DIRECTORY ${_ROOT}
            OUTPUT_VARIABLE ROCPROFILER_SDK_GIT_REVISION
            OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    endif()
    configure_file(${_ROOT}/cmake/build_info.h.in ${_DIR}/rocprofiler-sdk/build_info.h @ONLY)
endfunction()
