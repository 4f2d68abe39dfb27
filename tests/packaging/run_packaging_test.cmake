# Installs the build into a fresh prefix, builds tests/packaging/consumer against it with
# find_package(rocprofiler-sdk), and runs the consumer's program under the consumer's tool.
# Variables: BUILD_DIR, SOURCE_DIR, WORK_DIR.
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}"
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install failed: ${rc}")
endif()
foreach(required include/rocprofiler-sdk/rocprofiler.h include/rocprofiler-sdk/build_info.h
                 include/rocprofiler-sdk/experimental/kernel_replay.h
                 include/rocprofiler-sdk-host/host.h lib/cmake/rocprofiler-sdk/rocprofiler-sdk-config.cmake
                 share/rocprofiler-sdk/metrics.json)
    if(NOT EXISTS "${prefix}/${required}")
        message(FATAL_ERROR "not installed: ${required}")
    endif()
endforeach()
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}/tests/packaging/consumer" -B "${WORK_DIR}/build"
                        "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_BUILD_TYPE=Release
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configuring the consumer failed:\n${out}\n${err}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK_DIR}/build" RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "building the consumer failed:\n${out}\n${err}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "ROCP_TOOL_LIBRARIES=${WORK_DIR}/build/libconsumer-tool.so"
                        "LD_LIBRARY_PATH=${prefix}/lib" "${WORK_DIR}/build/consumer-program"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the consumer program failed (${rc}):\n${out}\n${err}")
endif()
if(NOT out MATCHES "consumer-program: ok" OR NOT out MATCHES "consumer-tool: 3 completions")
    message(FATAL_ERROR "unexpected output:\n${out}\n${err}")
endif()
# The installed rocprofv3 finds the shipped metric sets relative to itself
# (<prefix>/bin -> <prefix>/share/rocprofiler-sdk/metrics.json), as the tool library does.
if(EXISTS "${prefix}/bin/rocprofv3")
    execute_process(COMMAND "${prefix}/bin/rocprofv3" -L RESULT_VARIABLE rc OUTPUT_VARIABLE out
                    ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 OR NOT out MATCHES "metric sets \\(--pmc <set>\\):.*speed_of_light")
        message(FATAL_ERROR "the installed rocprofv3 -L lists no shipped metric set (${rc}):\n${out}\n${err}")
    endif()
endif()
# rocpd is installed beside rocprofv3, with rocpd2csv, rocpd2otf2 and rocpd2summary as links to it.
if(EXISTS "${prefix}/bin/rocprofv3" AND EXISTS "${BUILD_DIR}/bin/rocpd")
    foreach(program rocpd rocpd2csv rocpd2otf2 rocpd2summary)
        execute_process(COMMAND "${prefix}/bin/${program}" --help RESULT_VARIABLE rc
                        OUTPUT_VARIABLE out ERROR_VARIABLE err)
        if(NOT rc EQUAL 0 OR NOT out MATCHES "usage: ")
            message(FATAL_ERROR "the installed ${program} --help failed (${rc}):\n${out}\n${err}")
        endif()
    endforeach()
endif()
# rocprofv3-avail is installed beside rocprofv3: it loads the installed SDK through its run path
# (no LD_LIBRARY_PATH) and finds the shipped metric sets and AMD's names under <prefix>/share.
if(EXISTS "${BUILD_DIR}/bin/rocprofv3-avail")
    execute_process(COMMAND "${CMAKE_COMMAND}" -E env ROCPROFILER_CUDA_AGENTS=0
                            "${prefix}/bin/rocprofv3-avail" list --sets
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 OR NOT out MATCHES "Name                          :\thost.*speed_of_light\t")
        message(FATAL_ERROR "the installed rocprofv3-avail lists no shipped metric set (${rc}):\n${out}\n${err}")
    endif()
    execute_process(COMMAND "${CMAKE_COMMAND}" -E env ROCPROFILER_CUDA_AGENTS=0
                            "${prefix}/bin/rocprofv3-avail" pmc-check SQ_WAVES
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 OR NOT out MATCHES "collected together on GPU:0\tSQ_WAVES")
        message(FATAL_ERROR "the installed rocprofv3-avail does not check AMD's names (${rc}):\n${out}\n${err}")
    endif()
endif()
message(STATUS "packaging: installed SDK found, linked and traced 3 dispatches")
