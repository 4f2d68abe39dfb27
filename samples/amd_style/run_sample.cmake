# Runs one AMD-style sample tool over host_demo: cmake -DPROGRAM=<host_demo> -DTOOL=<tool.so>
# -DNAME=<summary prefix> [-DMODE=<AMD_STYLE_COUNTER_MODE>] [-DCOUNTERS=<AMD_STYLE_COUNTERS>]
# [-DEQUAL_TOTALS=<a,b>] -P run_sample.cmake
# Passes when host_demo exits 0 with its OK line and the tool's summary line ends in PASS, and,
# with EQUAL_TOTALS, when the tool printed the same total for the two counters named (values
# measured in the run, compared with each other).
set(ENV{ROCP_TOOL_LIBRARIES} "${TOOL}")
set(ENV{AMD_STYLE_OUTPUT} "")
if(DEFINED MODE)
    set(ENV{AMD_STYLE_COUNTER_MODE} "${MODE}")
endif()
if(DEFINED COUNTERS)
    set(ENV{AMD_STYLE_COUNTERS} "${COUNTERS}")
endif()
execute_process(
    COMMAND ${PROGRAM} --iterations 3
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE err
    TIMEOUT 120)
message("${out}${err}")
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "host_demo under ${TOOL} exited with ${rc}")
endif()
if(NOT out MATCHES "host_demo: OK")
    message(FATAL_ERROR "host_demo did not print its OK line")
endif()
if(NOT err MATCHES "${NAME}[^\n]*: PASS\n")
    message(FATAL_ERROR "${NAME} did not report PASS")
endif()
if(DEFINED EQUAL_TOTALS)
    string(REPLACE "," ";" pair "${EQUAL_TOTALS}")
    set(totals "")
    foreach(counter ${pair})
        if(NOT err MATCHES "counter ${counter} total=([0-9.e+]+)\n")
            message(FATAL_ERROR "${NAME} printed no total for ${counter}")
        endif()
        list(APPEND totals "${CMAKE_MATCH_1}")
    endforeach()
    list(GET totals 0 first)
    list(GET totals 1 second)
    if(NOT first STREQUAL second OR first STREQUAL "0")
        message(FATAL_ERROR "totals of ${EQUAL_TOTALS}: ${first} and ${second} (expected equal, non-zero)")
    endif()
endif()
