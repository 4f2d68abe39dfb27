# Nsight Compute's options (docs/rocprofv3.md, "For Nsight Compute users"), run against the host
# device. Included from CMakeLists.txt, whose rocprofv3_case, _cli and _prog it uses.
set(_ncu_check "sh|${_here}/check_ncu_habits.sh")
set(_ncu_markers "$<TARGET_FILE:rocprofv3-marker-program>")
set(_ncu_replay "--pmc|WORK_ITEMS|--pmc|DURATION_NS|--replay-mode|kernel|--kernel-replay-beta-enabled")
set(_ncu_all_kernels "before_region,inside_region,after_region")

# --nvtx-include / --nvtx-exclude under kernel replay with two counter groups: only the dispatches
# the filters select get counters and replay passes (--progress counts the passes: 2 per selected
# dispatch); every dispatch stays in the kernel trace.
foreach(
    _case
    "include_push_pop|--nvtx-include|outer/|inside_region|2"
    "include_regex|--nvtx-include|regex:^out/|inside_region|2"
    "include_any_of_two|--nvtx-include|nowhere/|--nvtx-include|outer/|inside_region|2"
    "exclude_push_pop|--nvtx-exclude|outer/|before_region,after_region|4"
    "include_start_end_without_kernels|--nvtx-include|handoff|-|0"
    "include_nested_path|--nvtx-include|outer/inner/|-|0")
    string(REPLACE "|" ";" _parts "${_case}")
    list(GET _parts 0 _name)
    list(LENGTH _parts _n)
    math(EXPR _last_filter "${_n} - 3")
    list(SUBLIST _parts 1 ${_last_filter} _filters)
    math(EXPR _counted_at "${_n} - 2")
    math(EXPR _passes_at "${_n} - 1")
    list(GET _parts ${_counted_at} _counted)
    list(GET _parts ${_passes_at} _passes)
    string(REPLACE ";" "|" _filters "${_filters}")
    # No replay pass at all: the count line names none.
    set(_progress "3 dispatches profiled, ${_passes} replay passes")
    set(_no_passes "no replay pass is expected")
    if(_passes EQUAL 0)
        set(_progress "3 dispatches profiled")
        set(_no_passes "replay passes")
    endif()
    rocprofv3_case(NAME ncu_nvtx_${_name}
        COMMAND "${_cli}|-f|csv|--kernel-trace|${_ncu_replay}|--progress|--nvtx|${_filters}|-d|@WORK@/out|-o|run|--|${_ncu_markers}"
        EXPECT_RC 0 EXPECT_STDOUT "marker program: ok" EXPECT_STDERR "${_progress}"
        REJECT_STDERR "${_no_passes}"
        VALIDATE "${_ncu_check}|counters|@WORK@/out|run|${_ncu_all_kernels}|${_counted}")
endforeach()
# Not vacuous: --nvtx without filters profiles every dispatch, and the check rejects a wrong set.
rocprofv3_case(NAME ncu_nvtx_without_filters
    COMMAND "${_cli}|-f|csv|--kernel-trace|${_ncu_replay}|--nvtx|-d|@WORK@/out|-o|run|--|${_ncu_markers}"
    EXPECT_RC 0 EXPECT_STDOUT "marker program: ok"
    VALIDATE "${_ncu_check}|counters|@WORK@/out|run|${_ncu_all_kernels}|${_ncu_all_kernels}"
    VALIDATE_FAIL "${_ncu_check}|counters|@WORK@/out|run|${_ncu_all_kernels}|inside_region"
    VALIDATE_FAIL_MATCH "FAIL: counters for")
# Filters that select no dispatch of a run collecting counters: a warning says so.
rocprofv3_case(NAME ncu_nvtx_filters_selecting_nothing_warn
    COMMAND "${_cli}|-f|csv|--pmc|WORK_ITEMS|--nvtx|--nvtx-include|nowhere/|-d|@WORK@/out|-o|run|--|${_ncu_markers}"
    EXPECT_RC 0 EXPECT_STDOUT "marker program: ok"
    EXPECT_STDERR "warning: marker range filters .--nvtx-include, --nvtx-exclude.: 0 of 3 dispatches selected for counters and kernel replay. no counters were collected")
rocprofv3_case(NAME ncu_nvtx_filters_need_nvtx
    COMMAND "${_cli}|--nvtx-include|outer/|--|${_prog}|--marker|@WORK@/ran"
    EXPECT_RC 1 EXPECT_STDERR "--nvtx-include and --nvtx-exclude need --nvtx"
    MARKER "@WORK@/ran" EXPECT_MARKER 0)
rocprofv3_case(NAME ncu_nvtx_bad_filter
    COMMAND "${_cli}|--nvtx|--nvtx-exclude|a//b/|--|${_prog}|--marker|@WORK@/ran"
    EXPECT_RC 1 EXPECT_STDERR "--nvtx-exclude 'a//b/' has an empty range name"
    MARKER "@WORK@/ran" EXPECT_MARKER 0)
rocprofv3_case(NAME ncu_nvtx_named_domain
    COMMAND "${_cli}|--nvtx|--nvtx-include|Domain A@outer/|--|${_prog}|--marker|@WORK@/ran"
    EXPECT_RC 2 EXPECT_STDERR "not supported on this device: 'Domain A@outer/' names the domain"
    MARKER "@WORK@/ran" EXPECT_MARKER 0)

# --cache-control: the host device cannot flush CPU caches (exit 2 before the run); none is what
# it does, and runs.
rocprofv3_case(NAME ncu_cache_control_all_on_the_host_device
    COMMAND "${_cli}|-f|csv|--cache-control|all|--pmc|DURATION_NS|-d|@WORK@/out|--|${_prog}|--marker|@WORK@/ran"
    EXPECT_RC 2 EXPECT_STDERR "--cache-control all is not supported on the host device"
    MARKER "@WORK@/ran" EXPECT_MARKER 0)
rocprofv3_case(NAME ncu_cache_control_none
    COMMAND "${_cli}|-f|csv|--cache-control|none|--pmc|DURATION_NS|-d|@WORK@/out|-o|run|--|${_prog}"
    EXPECT_RC 0 EXPECT_STDOUT "dispatches: 9" EXPECT_FILES "@WORK@/out/run_counter_collection.csv")
rocprofv3_case(NAME ncu_cache_control_bad_value
    COMMAND "${_cli}|--cache-control|some|--|${_prog}|--marker|@WORK@/ran"
    EXPECT_RC 1 EXPECT_STDERR "--cache-control 'some' is not accepted .accepted: all, none."
    MARKER "@WORK@/ran" EXPECT_MARKER 0)

# --target-processes: a shell runs the program once as its child, then execs it (the exec'd
# program is the shell's process, the application's own). all (and the default): two processes
# profiled; application-only: one, and the child still runs and succeeds.
set(_ncu_two_runs "sh|-c|${_prog} && exec ${_prog}")
rocprofv3_case(NAME ncu_target_processes_default
    COMMAND "${_cli}|-f|csv|--kernel-trace|-d|@WORK@/out|--|${_ncu_two_runs}"
    EXPECT_RC 0 EXPECT_STDOUT "dispatches: 9.*dispatches: 9"
    VALIDATE "${_default_output}|@WORK@/out|2|kernel_trace.csv")
rocprofv3_case(NAME ncu_target_processes_all
    COMMAND "${_cli}|-f|csv|--target-processes|all|--kernel-trace|-d|@WORK@/out|--|${_ncu_two_runs}"
    EXPECT_RC 0 EXPECT_STDOUT "dispatches: 9.*dispatches: 9"
    VALIDATE "${_default_output}|@WORK@/out|2|kernel_trace.csv")
rocprofv3_case(NAME ncu_target_processes_application_only
    COMMAND "${_cli}|-f|csv|--target-processes|application-only|--kernel-trace|-d|@WORK@/out|--|${_ncu_two_runs}"
    EXPECT_RC 0 EXPECT_STDOUT "dispatches: 9.*dispatches: 9"
    VALIDATE "${_default_output}|@WORK@/out|1|kernel_trace.csv"
    VALIDATE_FAIL "${_default_output}|@WORK@/out|2|kernel_trace.csv"
    VALIDATE_FAIL_MATCH "FAIL: 1 files <pid>_kernel_trace.csv")
rocprofv3_case(NAME ncu_target_processes_bad_value
    COMMAND "${_cli}|--target-processes|children|--|${_prog}|--marker|@WORK@/ran"
    EXPECT_RC 1 EXPECT_STDERR "accepted: application-only, all"
    MARKER "@WORK@/ran" EXPECT_MARKER 0)

# --print-summary: the table on stdout, after the program's own output.
rocprofv3_case(NAME ncu_print_summary_per_kernel
    COMMAND "${_cli}|-f|csv|--print-summary|per-kernel|-d|@WORK@/out|--|${_prog}"
    EXPECT_RC 0 EXPECT_STDOUT "dispatches: 9.*rocprofv3 kernel summary .3 kernels..NAME +CALLS"
    REJECT_STDERR "kernel summary")
rocprofv3_case(NAME ncu_print_summary_per_gpu
    COMMAND "${_cli}|-f|csv|--print-summary|per-gpu|-d|@WORK@/out|--|${_prog}"
    EXPECT_RC 0 EXPECT_STDOUT "rocprofv3 agent summary .1 agents..NAME +CALLS.*Agent [0-9]+ .* 9 ")
rocprofv3_case(NAME ncu_print_summary_per_nvtx
    COMMAND "${_cli}|-f|csv|--print-summary|per-nvtx|-d|@WORK@/out|--|${_ncu_markers}"
    EXPECT_RC 0
    # Rows are sorted by total time, which either context may lead: both orders are accepted.
    EXPECT_STDOUT "rocprofv3 marker range summary .2 range contexts..NAME +CALLS.*(.no range. +2 .*outer/ +1 |outer/ +1 .*.no range. +2 )")
rocprofv3_case(NAME ncu_print_summary_bad_value
    COMMAND "${_cli}|--print-summary|per-thread|--|${_prog}|--marker|@WORK@/ran"
    EXPECT_RC 1 EXPECT_STDERR "accepted: per-kernel, per-gpu, per-nvtx"
    MARKER "@WORK@/ran" EXPECT_MARKER 0)
