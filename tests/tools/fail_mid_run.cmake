# A failure on one rank in the middle of a run, for every tool at NP ranks (2 and 3): LLC_TEST_FAIL_RANK=1 makes rank 1
# throw on its second timed sample (tools/common/src/timing.cpp), while the other ranks go on into the sample's barrier.
# The job must end — not hang: the harness's 60 s timeout, far above the seconds these runs take, fails it — with a
# non-zero exit and the message on stderr, and write no output file.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
function(expect_abort what no_file)
    file(REMOVE ${no_file})
    execute_process(COMMAND ${CMAKE_COMMAND} -E env LLC_TEST_FAIL_RANK=1
                            ${MPIEXEC} --oversubscribe --bind-to none -np ${NP} ${ARGN}
                    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
    message("${what} -> ${status}")
    if(status MATCHES "timeout")
        message(FATAL_ERROR "${what}: a failure on rank 1 left the job hanging (${status})")
    endif()
    if(status EQUAL 0)
        message(FATAL_ERROR "${what}: exit status 0 after a failure on rank 1")
    endif()
    if(NOT err MATCHES "rank 1.*injected failure on rank 1")
        message(FATAL_ERROR "${what}: the failure's message is missing from stderr: ${err}")
    endif()
    if(EXISTS ${no_file})
        message(FATAL_ERROR "${what}: a failed run wrote ${no_file}")
    endif()
endfunction()

# llc-run: every command (the failure strikes in the timed executions, before the outputs are written).
expect_abort("llc-run contour-ranking" ${WORK}/cr.raw
             ${RUN} contour-ranking --n 32 --density 0.5 --output ${WORK}/cr.raw --repeat 3)
expect_abort("llc-run distance-transform" ${WORK}/dt.raw
             ${RUN} distance-transform --n 64 --output ${WORK}/dt.raw --repeat 3)
expect_abort("llc-run fft" ${WORK}/f.bin ${RUN} fft --n 1024 --output ${WORK}/f.bin --repeat 3)
expect_abort("llc-run matrix-chain" ${WORK}/none ${RUN} matrix-chain --n 32 --repeat 3)
expect_abort("llc-run optimal-bst" ${WORK}/none ${RUN} optimal-bst --n 32 --repeat 3)
expect_abort("llc-run path-planning" ${WORK}/pp.raw
             ${RUN} path-planning --n 32 --source 0,0 --output ${WORK}/pp.raw --repeat 3)
expect_abort("llc-run symv" ${WORK}/y.raw ${RUN} symv --n 64 --output ${WORK}/y.raw --repeat 3)

# llc-compare, llc-probe (a tiny calibration of the collectives), llc-validate on a profile made without a failure.
expect_abort("llc-compare" ${WORK}/none ${COMPARE} par --sizes 64 --repeat 3)
set(profile ${WORK}/profile.json)
expect_abort("llc-probe" ${profile} ${PROBE} --quick --max-bytes 4096 --sizes 4 --max-reps 5 --no-kernels --quiet
             --out ${profile})
execute_process(COMMAND ${MPIEXEC} --oversubscribe --bind-to none -np ${NP} ${PROBE} --quick --max-bytes 4096 --sizes 4
                        --max-reps 5 --no-kernels --quiet --out ${profile}
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 150)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "llc-probe (no failure) exited with ${status}: ${err}")
endif()
expect_abort("llc-validate" ${WORK}/report/results.csv ${VALIDATE} --profile ${profile} --quick --algorithms bcast
             --out ${WORK}/report --no-plots)
