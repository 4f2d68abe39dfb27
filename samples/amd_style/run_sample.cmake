# Runs one AMD-style sample tool over host_demo: cmake -DPROGRAM=<host_demo> -DTOOL=<tool.so>
# -DNAME=<summary prefix> [-DMODE=<AMD_STYLE_COUNTER_MODE>] -P run_sample.cmake
# Passes when host_demo exits 0 with its OK line and the tool's summary line ends in PASS.
set(ENV{ROCP_TOOL_LIBRARIES} "${TOOL}")
set(ENV{AMD_STYLE_OUTPUT} "")
if(DEFINED MODE)
    set(ENV{AMD_STYLE_COUNTER_MODE} "${MODE}")
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
