# llc-bench-fft-level: a small run prints every row with finite times; bad arguments and P ≠ 2 exit with status 2
# and a message naming what is wrong.
include(${CMAKE_CURRENT_LIST_DIR}/../support/expect_bad_arguments.cmake)
llc_expect_output(NP 2 TOOL ${BENCH} ARGS --n 1024 --repeat 3
                  ROWS "n = 1024, P = 2, medians of 3" "FftPlan::execute +[0-9.]+"
                       "phase by phase +[0-9.]+: leaf [0-9.]+, exchange after it -?[0-9.]+, combine [0-9.]+"
                       "combine again at once +[0-9.]+" "exchange, hot / written +[0-9.]+ / [0-9.]+")
llc_expect_bad_arguments(NP 2 TOOL ${BENCH} EXPECT "--n must be a power of two.*'1000'" ARGS --n 1000)
llc_expect_bad_arguments(NP 2 TOOL ${BENCH} EXPECT "--n must be a power of two.*'2'" ARGS --n 2)
llc_expect_bad_arguments(NP 2 TOOL ${BENCH} EXPECT "--repeat must be in.*'0'" ARGS --repeat 0)
llc_expect_bad_arguments(NP 2 TOOL ${BENCH} EXPECT "unknown argument '--bogus'" ARGS --bogus 1)
llc_expect_bad_arguments(NP 2 TOOL ${BENCH} EXPECT "missing value after --n" ARGS --n)
llc_expect_bad_arguments(NP 3 TOOL ${BENCH} EXPECT "needs P = 2.*got P = 3" ARGS)
