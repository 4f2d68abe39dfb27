# cmake -DFILE=<path> -DLINES=<n> -P check_line_count.cmake: FILE exists and has exactly n lines
# (a CSV file with only its header has 1). Fails with the count it found.
if(NOT EXISTS "${FILE}")
    message(FATAL_ERROR "missing file ${FILE}")
endif()
file(STRINGS "${FILE}" lines)
list(LENGTH lines count)
if(NOT count EQUAL LINES)
    message(FATAL_ERROR "${FILE}: ${count} lines, expected ${LINES}")
endif()
