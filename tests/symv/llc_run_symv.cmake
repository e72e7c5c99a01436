# llc-run symv end to end at P = 2 (cmake -P; MPIEXEC and RUN set): the product within the error bound of a plain loop
# for both mappings, and exit status 2 with a message naming the argument for bad input.
include(${CMAKE_CURRENT_LIST_DIR}/../support/expect_bad_arguments.cmake)

function(expect_output regex)
    execute_process(COMMAND ${MPIEXEC} --oversubscribe --bind-to none -np 2 ${RUN} ${ARGN}
                    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
    message("llc-run ${ARGN} -> ${status}: ${out}")
    if(NOT status EQUAL 0 OR NOT out MATCHES "${regex}")
        message(FATAL_ERROR "llc-run ${ARGN}: expected status 0 and output matching '${regex}', got ${status}: ${err}")
    endif()
endfunction()

expect_output("check: .*\\(ok\\)" symv --n 101 --check --alpha 2 --beta 0.5 --repeat 1)
expect_output("\"mapping\":\"standard\".*\"overlap\":false" symv --n 33 --check --mapping standard --no-overlap --json
              --repeat 1)

llc_expect_bad_arguments(NP 2 TOOL ${RUN} EXPECT "--n" ARGS symv --n 0)
llc_expect_bad_arguments(NP 2 TOOL ${RUN} EXPECT "--mapping" ARGS symv --n 10 --mapping diagonal)
llc_expect_bad_arguments(NP 2 TOOL ${RUN} EXPECT "--repeat" ARGS symv --n 10 --repeat 0)
