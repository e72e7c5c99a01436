# scripts/scale-validate.sh under SimGrid SMPI itself (smpirun, no stand-in launcher), on platforms/cluster-16x4.xml at
# P = 4 and 8, small ladders: the tools built with smpicxx probe and validate on the simulated cluster. What only the
# SMPI build compiles and runs is checked here: the cores come from the platform (P = 8 on this 2-core host is not
# oversubscribed), the times are the simulation's clock on the platform's placement (a 64-byte bcast inside one node
# under, across two nodes over, the platform's 5 µs between nodes), the (a) and (b) tables,
# and the algorithms' path (kernel constants merged from a profile, one size a case, the traced run's superstep row).
file(REMOVE_RECURSE ${WORK})
function(run_scale_validate what timeout)
    execute_process(COMMAND ${SOURCE}/scripts/scale-validate.sh ${SOURCE}/platforms/cluster-16x4.xml
                    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT ${timeout})
    message("${out}")
    if(NOT status EQUAL 0)
        message(FATAL_ERROR "scale-validate.sh${what} under SMPI exited with ${status}: ${err}")
    endif()
endfunction()

unset(ENV{LLC_SCALE_RUN})
set(ENV{LLC_SCALE_PS} "4 8")
set(ENV{LLC_SCALE_BASE} "4")
set(ENV{LLC_SCALE_OUT} ${WORK})
set(ENV{LLC_SCALE_BIN} ${BIN})
set(ENV{LLC_SCALE_ALGORITHMS} bcast,allreduce,shift)
set(ENV{LLC_SCALE_PROBE} "--quick --max-bytes 4096 --sizes 4 --max-reps 5 --no-kernels --quiet")
set(ENV{LLC_SCALE_VALIDATE} "--quick --slices 1")
run_scale_validate("" 500)
foreach(f scale.md scale.csv wall-times.csv profile-P4.json profile-P8.json a-P8/results.csv b-P8/results.csv)
    if(NOT EXISTS ${WORK}/${f})
        message(FATAL_ERROR "scale-validate.sh under SMPI wrote no ${WORK}/${f}")
    endif()
endforeach()
file(READ ${WORK}/scale.md md)
foreach(c bcast allreduce shift)
    string(REGEX MATCHALL "\\| ${c} \\| [0-9]+ / [0-9—]+ / [0-9—]+ \\| [0-9]+ / [0-9—]+ / [0-9—]+ \\|" a_rows "${md}")
    list(LENGTH a_rows na)
    if(NOT na EQUAL 1)
        message(FATAL_ERROR "scale.md: ${na} (a) rows for ${c} at P = 4 and 8, expected one:\n${md}")
    endif()
endforeach()
# results.csv: algorithm,family,size_unit,n,p,oversubscribed,repetitions,measured_median_s,… A 64-byte bcast inside
# one node (P = 4: ranks 0 … 3 share node-0) pays the loopback's 0.2 µs a hop; across two nodes (P = 8) at least the 5 µs
# between nodes. A host clock would time the simulator running every rank's part in turn, at either P.
foreach(p 4 8)
    file(STRINGS ${WORK}/a-P${p}/results.csv rows REGEX "^bcast,[^,]*,\"[^\"]*\",64,${p},")
    if(NOT rows)
        message(FATAL_ERROR "a-P${p}/results.csv has no row of bcast at 64 bytes on ${p} processors")
    endif()
    foreach(row ${rows})
        if(NOT row MATCHES "^bcast,[^,]*,\"[^\"]*\",64,${p},0,[0-9]+,([0-9.e+-]+),")
            message(FATAL_ERROR "bcast at P = ${p} marked oversubscribed: the cores did not come from the platform: "
                                "${row}")
        endif()
        set(seconds ${CMAKE_MATCH_1})
        if(p EQUAL 4 AND NOT seconds LESS 5e-6)
            message(FATAL_ERROR "bcast of 64 bytes inside one node measured ${seconds} s, not under the 5 µs between "
                                "nodes: not the simulated clock, or not the platform's placement? ${row}")
        elseif(p EQUAL 8 AND seconds LESS 5e-6)
            message(FATAL_ERROR "bcast of 64 bytes across two nodes measured ${seconds} s, under the platform's 5 µs "
                                "between nodes: not the simulated clock? ${row}")
        endif()
    endforeach()
endforeach()

# The algorithms' path: the accuracy gate's kernel constants merged into the profile probed at P = 4, no kernel
# probed at P (LLC_SCALE_KERNELS_AT_P set and empty), the largest small size only. Only the report's rows are checked,
# not their errors: those constants were probed on -O3 code, and CI's SMPI build is -O1 (2026-11-28: the matrix chain's
# compute at P = 4 priced 0.56 against 3.69 ms).
set(ENV{LLC_SCALE_OUT} ${WORK}/algorithms)
set(ENV{LLC_SCALE_PS} "4")
set(ENV{LLC_SCALE_ALGORITHMS} matrix-chain)
set(ENV{LLC_SCALE_PROBE} "--quick --max-bytes 4096 --sizes 4 --max-reps 5 --quiet")
set(ENV{LLC_SCALE_KERNELS} ${SOURCE}/tests/data/accuracy/profile.json)
set(ENV{LLC_SCALE_KERNELS_AT_P} "")
run_scale_validate(" (matrix-chain, kernels from a profile)" 400)
file(READ ${WORK}/algorithms/scale.md md)
if(NOT md MATCHES "\\| matrix-chain \\| [0-9]+ / [0-9—]+ / [0-9—]+ \\|"
   OR NOT md MATCHES "\\| matrix-chain \\| 4 \\| 400 \\| [0-9]+ % \\|")
    message(FATAL_ERROR "scale.md: no (a) row or no superstep row for matrix-chain at P = 4:\n${md}")
endif()
