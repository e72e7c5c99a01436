# scripts/scale-validate.sh with mpirun in place of smpirun, P = 2 and 4, the (b) profile probed at P = 2: the report
# has a table row per case for (a) and (b) at both P, (b) at P = 4 prices by extrapolation in P (its CCM share of
# extrapolated prices is 100 %; at P = 2 only sizes beyond the tiny profile's 4 KiB are) while (a) and (b) at P = 2 use
# the same profile (the same errors), the wall and CPU times and the plot are written; the algorithms' path (kernel
# constants merged from a profile), a kernel probed at P (LLC_SCALE_KERNELS_AT_P), LLC_SCALE_RESUME keeping the kernel
# profile; bad arguments exit 2.
file(REMOVE_RECURSE ${WORK})
# Runs scale-validate.sh with the environment set before the call and fails unless it exits 0; `what` follows the
# script's name in the failure.
function(run_scale_validate what timeout)
    execute_process(COMMAND ${SOURCE}/scripts/scale-validate.sh RESULT_VARIABLE status OUTPUT_VARIABLE out
                    ERROR_VARIABLE err TIMEOUT ${timeout})
    message("${out}")
    if(NOT status EQUAL 0)
        message(FATAL_ERROR "scale-validate.sh${what} exited with ${status}: ${err}")
    endif()
endfunction()
set(cases bcast,allreduce,shift)
set(ENV{LLC_SCALE_RUN} "${MPIEXEC} --oversubscribe --bind-to none -np")
set(ENV{LLC_SCALE_PS} "2 4")
set(ENV{LLC_SCALE_BASE} "2")
set(ENV{LLC_SCALE_OUT} ${WORK})
set(ENV{LLC_SCALE_BIN} ${BIN})
set(ENV{LLC_SCALE_ALGORITHMS} ${cases})
set(ENV{LLC_SCALE_PROBE} "--quick --max-bytes 4096 --sizes 4 --max-reps 5 --no-kernels --quiet")
set(ENV{LLC_SCALE_VALIDATE} "--quick")
run_scale_validate("" 380)
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
if(NOT times MATCHES "probe,4,[0-9.]+,[0-9.]+")  # the wall and the CPU seconds of each step
    message(FATAL_ERROR "wall-times.csv: no wall and CPU time of the probe at P = 4: ${times}")
endif()

# The algorithms' path at small P: kernel constants from one profile (here the accuracy gate's recorded one) merged
# into the profile probed at P without kernels, one size a case (--largest), the traced run's supersteps in scale.md.
set(ENV{LLC_SCALE_OUT} ${WORK}/algorithms)
set(ENV{LLC_SCALE_PS} "2")
set(ENV{LLC_SCALE_ALGORITHMS} matrix-chain)
set(ENV{LLC_SCALE_PROBE} "--quick --max-bytes 4096 --sizes 4 --max-reps 5 --quiet")
set(ENV{LLC_SCALE_KERNELS} ${SOURCE}/tests/data/accuracy/profile.json)
run_scale_validate(" (matrix-chain, kernels from a profile)" 300)
file(READ ${WORK}/algorithms/profile-P2.json profile)
if(NOT profile MATCHES "\"mc\\.update\\.2\\^4\"" OR NOT profile MATCHES "\"lockstep\\.excess\\.p2\\.2\\^11\"")
    message(FATAL_ERROR "profile-P2.json lacks the merged kernel constant mc.update.2^4 or its own lockstep table")
endif()
file(STRINGS ${WORK}/algorithms/a-P2/results.csv rows REGEX "^matrix-chain,")
foreach(row ${rows})
    if(NOT row MATCHES "^matrix-chain,[^,]*,[^,]*,400,")
        message(FATAL_ERROR "--largest: a size other than small's largest (400) was measured: ${row}")
    endif()
endforeach()
file(READ ${WORK}/algorithms/scale.md md)
if(NOT md MATCHES "\\| matrix-chain \\| [0-9]+ / [0-9—]+ / [0-9—]+ \\|"
   OR NOT md MATCHES "\\| matrix-chain \\| 2 \\| 400 \\| [0-9]+ % \\|")
    message(FATAL_ERROR "scale.md: no (a) row or no superstep row for matrix-chain at P = 2:\n${md}")
endif()
# LLC_SCALE_KERNELS_AT_P: the probe at P runs those kernel probes itself (its samples have them, side by side and
# alone) and no other, and the given profile's constants fill in the rest.
set(ENV{LLC_SCALE_OUT} ${WORK}/at-p)
set(ENV{LLC_SCALE_ALGORITHMS} bcast)
set(ENV{LLC_SCALE_KERNELS_AT_P} "symv.entry_share.2^3")
run_scale_validate(" (a kernel probed at P)" 300)
file(READ ${WORK}/at-p/profile-P2.json profile)
file(READ ${WORK}/at-p/profile-P2.samples.csv samples)
if(NOT samples MATCHES "\nkernel,symv\\.entry_share\\.2\\^3,1,"
   OR NOT samples MATCHES "\nkernel,symv\\.entry_share_solo\\.2\\^3,0,"
   OR samples MATCHES "\nkernel,(mc|fft|symv\\.row)")
    message(FATAL_ERROR "profile-P2.samples.csv: not symv.entry_share.2^3 alone and side by side, or other kernels")
endif()
if(NOT profile MATCHES "\"symv\\.entry_share\\.2\\^3\"" OR NOT profile MATCHES "\"mc\\.update\\.2\\^4\"")
    message(FATAL_ERROR "profile-P2.json lacks its own symv.entry_share.2^3 or the merged mc.update.2^4")
endif()
# LLC_SCALE_RESUME keeps OUT's kernel profile (it was probed again, 1125 s under SMPI, before): with everything kept
# only the re-pricing runs.
file(COPY_FILE ${SOURCE}/tests/data/accuracy/profile.json ${WORK}/at-p/profile-kernels.json)
unset(ENV{LLC_SCALE_KERNELS})
set(ENV{LLC_SCALE_RESUME} 1)
execute_process(COMMAND ${SOURCE}/scripts/scale-validate.sh RESULT_VARIABLE status OUTPUT_VARIABLE out
                ERROR_VARIABLE err TIMEOUT 120)
message("${out}")
file(STRINGS ${WORK}/at-p/wall-times.csv steps)
if(NOT status EQUAL 0 OR NOT out MATCHES "kept [^\n]*/profile-kernels.json" OR steps MATCHES "kernels,")
    message(FATAL_ERROR "scale-validate.sh with LLC_SCALE_RESUME=1: status ${status}, a kernel probe run again?\n"
                        "${out}${err}${steps}")
endif()
unset(ENV{LLC_SCALE_RESUME})
unset(ENV{LLC_SCALE_KERNELS_AT_P})
set(ENV{LLC_SCALE_KERNELS} ${WORK}/no-such-profile.json)
execute_process(COMMAND ${SOURCE}/scripts/scale-validate.sh RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 2 OR NOT err MATCHES "LLC_SCALE_KERNELS '.*no-such-profile.json': no such profile")
    message(FATAL_ERROR "scale-validate.sh with a missing kernel profile: status ${status}, '${err}'")
endif()
unset(ENV{LLC_SCALE_KERNELS})

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
