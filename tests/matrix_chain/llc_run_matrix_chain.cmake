# llc-run matrix-chain / optimal-bst end to end at P = 2 (cmake -P; MPIEXEC and RUN set): the digest's answers in the
# JSON output, and exit status 2 with a message naming the argument for bad input.
include(${CMAKE_CURRENT_LIST_DIR}/../support/expect_bad_arguments.cmake)

function(expect_output regex)
    execute_process(COMMAND ${MPIEXEC} --oversubscribe --bind-to none -np 2 ${RUN} ${ARGN}
                    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
    message("llc-run ${ARGN} -> ${status}: ${out}")
    if(NOT status EQUAL 0 OR NOT out MATCHES "${regex}")
        message(FATAL_ERROR "llc-run ${ARGN}: expected status 0 and output matching '${regex}', got ${status}: ${err}")
    endif()
endfunction()

expect_output("\"cost\":15125.*\"parenthesization\":\"\\(\\(A1\\(A2A3\\)\\)\\(\\(A4A5\\)A6\\)\\)\""
              matrix-chain --dims 30,35,15,5,10,20,25 --json --repeat 1)
expect_output("\"cost\":15125" matrix-chain --dims 30,35,15,5,10,20,25 --r 1 --json --repeat 1)
expect_output("cost: +142\n.*root: +2" optimal-bst --freq 34,8,50 --repeat 1)
expect_output("\"cost\":170.0.*\"root\":3" optimal-bst --freq 10,10,10,10,10,10,10 --json --repeat 1)
expect_output("n = 50 matrices" matrix-chain --n 50 --seed 3 --repeat 1)

llc_expect_bad_arguments(NP 2 TOOL ${RUN} EXPECT "dims\\[1\\]" ARGS matrix-chain --dims 30,0,5)
llc_expect_bad_arguments(NP 2 TOOL ${RUN} EXPECT "dims.size\\(\\)" ARGS matrix-chain --dims 30)
llc_expect_bad_arguments(NP 2 TOOL ${RUN} EXPECT "--dims" ARGS matrix-chain --dims 30,x)
llc_expect_bad_arguments(NP 2 TOOL ${RUN} EXPECT "--r" ARGS matrix-chain --n 10 --r -2)
llc_expect_bad_arguments(NP 2 TOOL ${RUN} EXPECT "--r" ARGS optimal-bst --n 10 --r 0)
llc_expect_bad_arguments(NP 2 TOOL ${RUN} EXPECT "exactly one" ARGS matrix-chain --n 10 --dims 1,2)
llc_expect_bad_arguments(NP 2 TOOL ${RUN} EXPECT "freq\\[1\\]" ARGS optimal-bst --freq 1,-2)
llc_expect_bad_arguments(NP 2 TOOL ${RUN} EXPECT "--freq" ARGS optimal-bst --freq 1,,2)
