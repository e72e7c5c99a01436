# llc_expect_bad_arguments(NP N TOOL path EXPECT regex [NO_FILE path] [ENV VAR=VALUE…] ARGS …): runs
# `mpirun -np N path ARGS…` and fails unless it exits with status 2 (bad arguments, on every rank: no hang) and its
# standard error matches the regex (a message naming the argument and its value); with NO_FILE, unless that file is
# still absent afterwards (a rejected command line writes no output). For the tools' CTest scripts (cmake -P); MPIEXEC
# must be set.
include(${CMAKE_CURRENT_LIST_DIR}/run_program.cmake)
function(llc_expect_bad_arguments)
    cmake_parse_arguments(ARG "" "NP;TOOL;EXPECT;NO_FILE" "ARGS;ENV" ${ARGN})
    get_filename_component(name ${ARG_TOOL} NAME)
    if(ARG_NO_FILE)
        file(REMOVE ${ARG_NO_FILE})
    endif()
    llc_run_program(NP ${ARG_NP} TOOL ${ARG_TOOL} ENV ${ARG_ENV} ARGS ${ARG_ARGS})
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
