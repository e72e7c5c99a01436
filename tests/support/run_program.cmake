# For the CTest scripts (cmake -P) of the tools and the benchmarks; MPIEXEC must be set.
#
# llc_run_program(NP N TOOL path [ENV VAR=VALUE…] ARGS …): runs `mpirun -np N path ARGS…` (oversubscribed, unbound; a
# run past 60 s fails: no hang) and sets `status`, `out` and `err` in the caller's scope, after printing what it printed.
function(llc_run_program)
    cmake_parse_arguments(ARG "" "NP;TOOL" "ARGS;ENV" ${ARGN})
    set(launcher)
    if(ARG_ENV)
        set(launcher ${CMAKE_COMMAND} -E env ${ARG_ENV})
    endif()
    execute_process(COMMAND ${launcher} ${MPIEXEC} --oversubscribe --bind-to none -np ${ARG_NP} ${ARG_TOOL} ${ARG_ARGS}
                    RESULT_VARIABLE result OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr TIMEOUT 60)
    get_filename_component(name ${ARG_TOOL} NAME)
    string(JOIN " " command_line ${name} ${ARG_ARGS})
    message("${command_line} (np ${ARG_NP}) -> ${result}\n${stdout}${stderr}")
    set(status ${result} PARENT_SCOPE)
    set(out "${stdout}" PARENT_SCOPE)
    set(err "${stderr}" PARENT_SCOPE)
endfunction()

# llc_expect_output(NP N TOOL path ARGS … [ROWS regex…]): llc_run_program, and fails unless the program exits with status
# 0, its standard output matches every regex of ROWS (a ';' of a row is written '.': ROWS is a list; a failure names
# every row missed), and it prints no number that is not finite ("nan", "inf").
function(llc_expect_output)
    cmake_parse_arguments(ARG "" "NP;TOOL" "ARGS;ROWS" ${ARGN})
    llc_run_program(NP ${ARG_NP} TOOL ${ARG_TOOL} ARGS ${ARG_ARGS})
    get_filename_component(name ${ARG_TOOL} NAME)
    if(NOT status EQUAL 0)
        message(FATAL_ERROR "${name} ${ARG_ARGS}: expected exit status 0, got ${status}")
    endif()
    set(missing)
    foreach(row IN LISTS ARG_ROWS)
        if(NOT out MATCHES "${row}")
            string(APPEND missing "\n  '${row}'")
        endif()
    endforeach()
    if(missing)
        message(FATAL_ERROR "${name} ${ARG_ARGS}: printed no line matching${missing}")
    endif()
    if(out MATCHES "nan|inf")
        message(FATAL_ERROR "${name} ${ARG_ARGS}: printed a number that is not finite")
    endif()
endfunction()
