# A benchmark's answer to a bad command line (-DBENCH=path, -DOPTION=--x, -DVALUE=a value --x does not take): at P = 1
# and P = 2, exit status 2 on every rank (no hang) and "PROGRAM: --x must be …, got 'VALUE'"; an unknown argument and
# a missing value named too; --help exits 0 with the usage line and the option.
include(${CMAKE_CURRENT_LIST_DIR}/../support/expect_bad_arguments.cmake)
get_filename_component(program ${BENCH} NAME)
foreach(np 1 2)
    llc_expect_bad_arguments(NP ${np} TOOL ${BENCH} EXPECT "${program}: ${OPTION} must be [^\n]+, got '${VALUE}'\n"
                             ARGS ${OPTION} ${VALUE})
endforeach()
llc_expect_bad_arguments(NP 2 TOOL ${BENCH} EXPECT "${program}: unknown argument '--bogus' \\(use --help, [^\n]*${OPTION}"
                         ARGS --bogus 1)
llc_expect_bad_arguments(NP 2 TOOL ${BENCH} EXPECT "${program}: missing value after ${OPTION}\n" ARGS ${OPTION})
llc_expect_output(NP 1 TOOL ${BENCH} ARGS --help ROWS "usage: mpirun -np [P0-9]+ ${program} \\[options\\]" "\n  ${OPTION} arg")
