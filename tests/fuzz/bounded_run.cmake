# One bounded libFuzzer run for ctest: a fixed seed, a cap on inputs and on time, new inputs
# written to a scratch copy of the corpus in the build tree. Fails on any crash, leak, timeout or
# sanitizer report (libFuzzer exits non-zero and leaves the input as crash-*/leak-*/timeout-*).
#   cmake -DFUZZER=<exe> -DCORPUS=<dir> -DWORK=<dir> -DRUNS=<n> -DSECONDS=<s> [-DDICT=-dict=<f>] -P this
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/artifacts)
file(GLOB seeds ${CORPUS}/*)
file(COPY ${seeds} DESTINATION ${WORK}/corpus)
execute_process(
    COMMAND ${FUZZER} -seed=1 -runs=${RUNS} -max_total_time=${SECONDS} -timeout=10
            -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1
            -artifact_prefix=${WORK}/artifacts/ ${DICT} ${WORK}/corpus
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE out)
string(REGEX MATCH "stat::number_of_executed_units: [0-9]+" executed "${out}")
message(STATUS "${FUZZER}: ${executed}")
if(NOT rc EQUAL 0)
    file(GLOB found ${WORK}/artifacts/*)
    message(FATAL_ERROR "${FUZZER} failed (exit ${rc}); inputs kept: ${found}\n${out}")
endif()
