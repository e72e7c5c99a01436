# scripts/scale-validate.sh with mpirun in place of smpirun, P = 2 and 4, the (b) profile probed at P = 2: the report
# has a table row per case for (a) and (b) at both P, (b) at P = 4 prices by extrapolation in P (its CCM share of
# extrapolated prices is 100 %; at P = 2 only sizes beyond the tiny profile's 4 KiB are) while (a) and (b) at P = 2 use the same profile (the same errors), the wall times and
# the plot are written; bad arguments exit 2.
file(REMOVE_RECURSE ${WORK})
set(cases bcast,allreduce,shift)
set(ENV{LLC_SCALE_RUN} "${MPIEXEC} --oversubscribe --bind-to none -np")
set(ENV{LLC_SCALE_PS} "2 4")
set(ENV{LLC_SCALE_BASE} "2")
set(ENV{LLC_SCALE_OUT} ${WORK})
set(ENV{LLC_SCALE_BIN} ${BIN})
set(ENV{LLC_SCALE_ALGORITHMS} ${cases})
set(ENV{LLC_SCALE_PROBE} "--quick --max-bytes 4096 --sizes 4 --max-reps 5 --no-kernels --quiet")
set(ENV{LLC_SCALE_VALIDATE} "--quick")
execute_process(COMMAND ${SOURCE}/scripts/scale-validate.sh RESULT_VARIABLE status OUTPUT_VARIABLE out
                ERROR_VARIABLE err TIMEOUT 380)
message("${out}")
if(NOT status EQUAL 0)
    message(FATAL_ERROR "scale-validate.sh exited with ${status}: ${err}")
endif()
foreach(f scale.md scale.csv strong_scaling.png wall-times.csv profile-P2.json profile-P4.json a-P4/results.csv
          b-P4/results.csv)
    if(NOT EXISTS ${WORK}/${f})
        message(FATAL_ERROR "scale-validate.sh wrote no ${WORK}/${f}")
    endif()
endforeach()
file(READ ${WORK}/scale.md md)
foreach(c bcast allreduce shift)
    # (a) and (b): a row each with a cell "CCM / BSP / Hockney" at P = 2 and 4, (b)'s with its extrapolated share.
    string(REGEX MATCHALL "\\| ${c} \\| [0-9]+ / [0-9—]+ / [0-9—]+ \\| [0-9]+ / [0-9—]+ / [0-9—]+ \\|" a_rows "${md}")
    string(REGEX MATCHALL "\\| ${c} \\| [0-9]+ / [0-9—]+ / [0-9—]+ \\([0-9]+\\) \\| [0-9]+ / [0-9—]+ / [0-9—]+ \\(100\\) \\|"
           b_rows "${md}")
    list(LENGTH a_rows na)
    list(LENGTH b_rows nb)
    if(NOT na EQUAL 1 OR NOT nb EQUAL 1)
        message(FATAL_ERROR "scale.md: ${na} (a) rows and ${nb} (b) rows for ${c}, expected one each:\n${md}")
    endif()
endforeach()
# At P = 2 (a) and (b) price with the same profile: the same errors in scale.csv.
file(STRINGS ${WORK}/scale.csv rows)
foreach(c bcast allreduce shift)
    set(a "")
    set(b "")
    foreach(row ${rows})
        if(row MATCHES "^a,${c},2,(.*),[0-9.]+$")
            set(a ${CMAKE_MATCH_1})
        elseif(row MATCHES "^b,${c},2,(.*),[0-9.]+$")
            set(b ${CMAKE_MATCH_1})
        endif()
    endforeach()
    if(a STREQUAL "" OR NOT a STREQUAL b)
        message(FATAL_ERROR "scale.csv: ${c} at P = 2 priced '${a}' in (a), '${b}' in (b): the same profile")
    endif()
endforeach()
file(STRINGS ${WORK}/wall-times.csv times)
list(LENGTH times n)
if(NOT n EQUAL 7)  # header, probe at 2 and 4, validate and reprice at 2 and 4
    message(FATAL_ERROR "wall-times.csv has ${n} lines, expected 7: ${times}")
endif()

unset(ENV{LLC_SCALE_RUN})
execute_process(COMMAND ${SOURCE}/scripts/scale-validate.sh ${WORK}/no-such-platform.xml RESULT_VARIABLE status
                ERROR_VARIABLE err)
if(NOT status EQUAL 2 OR NOT err MATCHES "PLATFORM '.*no-such-platform.xml': no such platform file")
    message(FATAL_ERROR "scale-validate.sh on a missing platform: status ${status}, '${err}'")
endif()

# llc-validate --p: an entry outside 1 … P is a bad argument (exit 2 on every rank, the option named, no report).
include(${CMAKE_CURRENT_LIST_DIR}/../support/expect_bad_arguments.cmake)
llc_expect_bad_arguments(NP 2 TOOL ${BIN}/llc-validate EXPECT "--p.*entries must be 1"
                         ARGS --profile ${WORK}/profile-P2.json --p 3 --out ${WORK}/bad --no-plots)
llc_expect_bad_arguments(NP 2 TOOL ${BIN}/llc-validate EXPECT "--p.*entries must be 1"
                         ARGS --profile ${WORK}/profile-P2.json --p 2,x --out ${WORK}/bad --no-plots)
if(EXISTS ${WORK}/bad)
    message(FATAL_ERROR "a rejected --p wrote a report")
endif()
