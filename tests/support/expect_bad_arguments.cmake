# llc_expect_bad_arguments(NP N TOOL path EXPECT regex [NO_FILE path] [ENV VAR=VALUE…] ARGS …): runs
# `mpirun -np N path ARGS…` and fails unless it exits with status 2 (bad arguments, on every rank: no hang) and its
# standard error matches the regex (a message naming the argument and its value); with NO_FILE, unless that file is
# still absent afterwards (a rejected command line writes no output). For the tools' CTest scripts (cmake -P); MPIEXEC
# must be set.
function(llc_expect_bad_arguments)
    cmake_parse_arguments(ARG "" "NP;TOOL;EXPECT;NO_FILE" "ARGS;ENV" ${ARGN})
    get_filename_component(name ${ARG_TOOL} NAME)
    if(ARG_NO_FILE)
        file(REMOVE ${ARG_NO_FILE})
    endif()
    set(launcher)
    if(ARG_ENV)
        set(launcher ${CMAKE_COMMAND} -E env ${ARG_ENV})
    endif()
    execute_process(COMMAND ${launcher} ${MPIEXEC} --oversubscribe --bind-to none -np ${ARG_NP} ${ARG_TOOL} ${ARG_ARGS}
                    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
    message("${name} ${ARG_ARGS} -> ${status}: ${err}")
    if(NOT status EQUAL 2)
        message(FATAL_ERROR "${name} ${ARG_ARGS}: expected exit status 2, got ${status}")
    endif()
    if(NOT err MATCHES "${ARG_EXPECT}")
        message(FATAL_ERROR "${name} ${ARG_ARGS}: expected a message matching '${ARG_EXPECT}'")
    endif()
    if(ARG_NO_FILE AND EXISTS ${ARG_NO_FILE})
        message(FATAL_ERROR "${name} ${ARG_ARGS}: a rejected command line wrote ${ARG_NO_FILE}")
    endif()
endfunction()
