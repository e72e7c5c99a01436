# llc-bench-fft-level: a small run prints every row with finite times; bad arguments and P ≠ 2 exit with status 2
# and a message naming what is wrong.
include(${CMAKE_CURRENT_LIST_DIR}/../support/expect_bad_arguments.cmake)
execute_process(COMMAND ${MPIEXEC} --oversubscribe --bind-to none -np 2 ${BENCH} --n 1024 --repeat 3
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
message("${out}${err}")
if(NOT status EQUAL 0)
    message(FATAL_ERROR "llc-bench-fft-level --n 1024 exited with ${status}")
endif()
foreach(row "n = 1024, P = 2, medians of 3" "FftPlan::execute +[0-9.]+" "phase by phase +[0-9.]+: leaf [0-9.]+, exchange after it -?[0-9.]+, combine [0-9.]+"
            "combine again at once +[0-9.]+" "exchange, hot / written +[0-9.]+ / [0-9.]+")
    if(NOT out MATCHES "${row}")
        message(FATAL_ERROR "llc-bench-fft-level printed no row matching '${row}'")
    endif()
endforeach()
if(out MATCHES "nan|inf")
    message(FATAL_ERROR "llc-bench-fft-level printed a time that is not finite")
endif()
llc_expect_bad_arguments(NP 2 TOOL ${BENCH} EXPECT "--n must be a power of two.*'1000'" ARGS --n 1000)
llc_expect_bad_arguments(NP 2 TOOL ${BENCH} EXPECT "--n must be a power of two.*'2'" ARGS --n 2)
llc_expect_bad_arguments(NP 2 TOOL ${BENCH} EXPECT "--repeat must be in.*'0'" ARGS --repeat 0)
llc_expect_bad_arguments(NP 2 TOOL ${BENCH} EXPECT "unknown argument '--bogus'" ARGS --bogus 1)
llc_expect_bad_arguments(NP 2 TOOL ${BENCH} EXPECT "missing value after --n" ARGS --n)
llc_expect_bad_arguments(NP 3 TOOL ${BENCH} EXPECT "needs P = 2.*got P = 3" ARGS)
