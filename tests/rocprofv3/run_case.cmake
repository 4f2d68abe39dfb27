# One rocprofv3 test case, run by CTest as `cmake -D... -P run_case.cmake`.
#   WORK_DIR        fresh directory for the case (removed first)
#   COMMAND         the command, with "|" between arguments; @WORK@ is replaced by WORK_DIR and
#                   @REPEAT_<c>_<n>@ by <n> times the character <c> (long arguments)
#   ENV             optional "NAME=VALUE|NAME=VALUE" added to the environment
#   EXPECT_RC       expected exit code
#   EXPECT_STDERR   optional regular expression the combined stderr must match
#   EXPECT_STDOUT   optional regular expression stdout must match
#   MARKER          optional file the program creates when it runs (@WORK@ allowed)
#   EXPECT_MARKER   1: the marker must exist (the app ran); 0: it must not (the app was not run)
#   VALIDATE        optional second command ("|"-separated, @WORK@ allowed) that must exit 0
#   VALIDATE2       optional third command, same rules (e.g. the second application-replay pass)
#   VALIDATE3       optional fourth command, same rules
#   VALIDATE_FAIL   optional command that must exit non-zero with stderr matching
#                   VALIDATE_FAIL_MATCH (proves the validator catches that violation)
#   STDERR_TO_FILE  1: the command's stderr goes to a file (WORK_DIR/stderr.txt), not a pipe
#   REJECT_STDERR   optional regular expression stderr must NOT match
#   EXPECT_FILES    optional "|"-separated files that must exist afterwards (@WORK@ allowed)
#   ABSENT_FILES    optional "|"-separated files that must not exist afterwards
foreach(var WORK_DIR COMMAND EXPECT_RC)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "run_case.cmake: ${var} is not set")
    endif()
endforeach()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

macro(expand_list out text)
    string(REPLACE "@WORK@" "${WORK_DIR}" _expanded "${text}")
    while(_expanded MATCHES "@REPEAT_(.)_([0-9]+)@")
        string(REPEAT "${CMAKE_MATCH_1}" ${CMAKE_MATCH_2} _repeated)
        string(REPLACE "@REPEAT_${CMAKE_MATCH_1}_${CMAKE_MATCH_2}@" "${_repeated}" _expanded
                       "${_expanded}")
    endwhile()
    string(REPLACE "|" ";" ${out} "${_expanded}")
endmacro()

expand_list(command "${COMMAND}")
if(DEFINED ENV AND NOT ENV STREQUAL "")
    expand_list(env_list "${ENV}")
    set(command ${CMAKE_COMMAND} -E env ${env_list} ${command})
endif()

if(STDERR_TO_FILE)
    execute_process(
        COMMAND ${command}
        WORKING_DIRECTORY "${WORK_DIR}"
        RESULT_VARIABLE rc
        OUTPUT_VARIABLE out
        ERROR_FILE "${WORK_DIR}/stderr.txt"
        TIMEOUT 150)
    file(READ "${WORK_DIR}/stderr.txt" err)
else()
    execute_process(
        COMMAND ${command}
        WORKING_DIRECTORY "${WORK_DIR}"
        RESULT_VARIABLE rc
        OUTPUT_VARIABLE out
        ERROR_VARIABLE err
        TIMEOUT 150)
endif()
message(STATUS "command: ${command}\nexit code: ${rc}\nstdout:\n${out}\nstderr:\n${err}")

if(NOT rc STREQUAL "${EXPECT_RC}")
    message(FATAL_ERROR "exit code ${rc}, expected ${EXPECT_RC}")
endif()
if(DEFINED EXPECT_STDERR AND NOT err MATCHES "${EXPECT_STDERR}")
    message(FATAL_ERROR "stderr does not match '${EXPECT_STDERR}'")
endif()
if(DEFINED REJECT_STDERR AND err MATCHES "${REJECT_STDERR}")
    message(FATAL_ERROR "stderr matches '${REJECT_STDERR}' although it must not")
endif()
if(DEFINED EXPECT_STDOUT AND NOT out MATCHES "${EXPECT_STDOUT}")
    message(FATAL_ERROR "stdout does not match '${EXPECT_STDOUT}'")
endif()
if(DEFINED MARKER)
    string(REPLACE "@WORK@" "${WORK_DIR}" marker "${MARKER}")
    if(EXPECT_MARKER AND NOT EXISTS "${marker}")
        message(FATAL_ERROR "the application did not run (no ${marker})")
    elseif(NOT EXPECT_MARKER AND EXISTS "${marker}")
        message(FATAL_ERROR "the application ran although it must not (${marker} exists)")
    endif()
endif()
if(DEFINED EXPECT_FILES)
    expand_list(files "${EXPECT_FILES}")
    foreach(f ${files})
        if(NOT EXISTS "${f}")
            message(FATAL_ERROR "missing output ${f}")
        endif()
    endforeach()
endif()
if(DEFINED ABSENT_FILES)
    expand_list(files "${ABSENT_FILES}")
    foreach(f ${files})
        if(EXISTS "${f}")
            message(FATAL_ERROR "unexpected output ${f}")
        endif()
    endforeach()
endif()
foreach(v VALIDATE VALIDATE2 VALIDATE3)
    if(DEFINED ${v})
        expand_list(validate "${${v}}")
        execute_process(COMMAND ${validate} RESULT_VARIABLE vrc OUTPUT_VARIABLE vout ERROR_VARIABLE verr)
        message(STATUS "${v}: ${vout}${verr}")
        if(NOT vrc EQUAL 0)
            message(FATAL_ERROR "validation failed: ${verr}")
        endif()
    endif()
endforeach()
if(DEFINED VALIDATE_FAIL)
    expand_list(validate "${VALIDATE_FAIL}")
    execute_process(COMMAND ${validate} RESULT_VARIABLE vrc OUTPUT_VARIABLE vout ERROR_VARIABLE verr)
    message(STATUS "VALIDATE_FAIL: ${vout}${verr}")
    if(vrc EQUAL 0)
        message(FATAL_ERROR "the validator accepted outputs it must reject")
    endif()
    if(DEFINED VALIDATE_FAIL_MATCH AND NOT verr MATCHES "${VALIDATE_FAIL_MATCH}")
        message(FATAL_ERROR "the validator failed, but not with '${VALIDATE_FAIL_MATCH}'")
    endif()
endif()
