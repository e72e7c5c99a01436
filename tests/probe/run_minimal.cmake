# A minimal llc-probe run at NP ranks (tiny sizes), then the profile checker, a --check of the profile, and --inspect of
# it and of a copy without shift (what a profile of an older build looks like). With -DKERNELS=OFF the run skips the
# algorithms' kernel probes (--no-kernels: most of the run's time; the runs at other NP cover them), and the checker
# and --inspect (which calls a profile without them incomplete) are told so.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(profile ${WORK}/profile.json)
set(tiny --max-bytes 4096 --sizes 4 --max-reps 5 --quiet)
set(kernels --quick)
if(DEFINED KERNELS AND NOT KERNELS)
    set(kernels --quick --no-kernels)
    set(ENV{LLC_PROBE_TEST_KERNELS} 0)
endif()
execute_process(COMMAND ${MPIEXEC} --oversubscribe --bind-to none -np ${NP} ${PROBE} ${kernels} ${tiny} --verbose
                        --out ${profile}
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
message("${out}${err}")
if(NOT status EQUAL 0)
    message(FATAL_ERROR "llc-probe exited with ${status}")
endif()
# --verbose: where the time went, by phase (the collectives at every p) and, with the kernel probes, by probe.
if(NOT out MATCHES "time by phase" OR NOT out MATCHES "collectives and division at p = ${NP}")
    message(FATAL_ERROR "llc-probe --verbose printed no time by phase")
endif()
# ... and by measured operation and p (its cells' visits), the point-to-point paths among them.
if(NOT out MATCHES "time by operation[^\n]*\n[^\n]*\n[^\n]*" OR NOT out MATCHES "\nallreduce p=${NP} +[0-9]+ "
   OR NOT out MATCHES "\np2p[.]send[.]cc p=[12] " OR NOT out MATCHES "\nfits ")
    message(FATAL_ERROR "llc-probe --verbose printed no time by operation (or no fits phase)")
endif()
if((NOT DEFINED KERNELS OR KERNELS) AND NOT out MATCHES "time by kernel probe[^\n]*\n[^\n]*\n[a-z]+[.]")
    message(FATAL_ERROR "llc-probe --verbose printed no time by kernel probe")
endif()
if(NOT EXISTS ${profile} OR NOT EXISTS ${WORK}/profile.samples.csv)
    message(FATAL_ERROR "llc-probe did not write ${profile} and ${WORK}/profile.samples.csv")
endif()
file(GLOB leftovers ${WORK}/*.tmp*)
if(leftovers)
    message(FATAL_ERROR "temporary files left behind: ${leftovers}")
endif()

set(ENV{LLC_PROBE_TEST_PROFILE} ${profile})
set(ENV{LLC_PROBE_TEST_P} ${NP})
execute_process(COMMAND ${CHECKER} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
message("${out}${err}")
if(NOT status EQUAL 0)
    message(FATAL_ERROR "the profile checker failed")
endif()

execute_process(COMMAND ${MPIEXEC} --oversubscribe --bind-to none -np ${NP} ${PROBE} --check ${profile} --json ${tiny}
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
message("${out}${err}")
if(NOT status EQUAL 0)
    message(FATAL_ERROR "llc-probe --check exited with ${status}")
endif()
foreach(f bcast reduce allreduce gather allgather scatter alltoall barrier swap shift division)
    if(NOT out MATCHES "\"function\": \"${f}\"")
        message(FATAL_ERROR "llc-probe --check printed no row for ${f}")
    endif()
endforeach()
if(NP GREATER 1 AND NOT out MATCHES "\"function\": \"p2p.full.cc\"")
    message(FATAL_ERROR "llc-probe --check printed no point-to-point row")
endif()

# The collectives' ladder: with --collective-max-bytes past --max-bytes every collective (reduce here) goes on to it,
# on the grid continued in its own ratio; without it (the run above) a quick profile's reduce stops at max-bytes.
function(reduce_top file out)
    file(READ ${file} text)
    string(JSON n LENGTH "${text}" collectives reduce ${NP} segments)
    math(EXPR last "${n} - 1")
    string(JSON to GET "${text}" collectives reduce ${NP} segments ${last} to)
    set(${out} ${to} PARENT_SCOPE)
endfunction()
reduce_top(${profile} top)
if(NOT top EQUAL 4096)
    message(FATAL_ERROR "a quick profile's reduce reaches ${top} bytes, not --max-bytes 4096")
endif()

# The swap between far partners (cost/partners.hpp): measured at every p >= 3, not at p = 2 (its pairs would be
# swap's) nor at p = 1; and the node of every rank recorded (one node here: all 0).
file(READ ${profile} text)
string(JSON far_at ERROR_VARIABLE no_far GET "${text}" collectives swap.far ${NP})
string(JSON far_at_2 ERROR_VARIABLE no_far_at_2 GET "${text}" collectives swap.far 2)
if(NP GREATER 2 AND no_far)
    message(FATAL_ERROR "no swap.far measured at p = ${NP}: ${no_far}")
endif()
if(NOT no_far_at_2 OR (NP LESS 3 AND NOT no_far))
    message(FATAL_ERROR "swap.far measured at p <= 2")
endif()
string(JSON placement GET "${text}" meta node_of_rank)
string(REGEX REPLACE "[ \n]" "" placement "${placement}")
string(REPEAT ",0" ${NP} zeros)
string(SUBSTRING "${zeros}" 1 -1 zeros)
if(NOT placement STREQUAL "[${zeros}]")
    message(FATAL_ERROR "meta.node_of_rank is ${placement}, not ${NP} ranks on node 0")
endif()
execute_process(COMMAND ${MPIEXEC} --oversubscribe --bind-to none -np ${NP} ${PROBE} --quick --no-kernels ${tiny}
                        --collective-max-bytes 16384 --out ${WORK}/ladder.json
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "llc-probe --collective-max-bytes 16384 exited with ${status}: ${out}${err}")
endif()
reduce_top(${WORK}/ladder.json top)
if(NOT top EQUAL 16384)
    message(FATAL_ERROR "with --collective-max-bytes 16384 the profile's reduce reaches ${top} bytes, not 16384")
endif()
# shift's h counts both directions (a case's shift of n bytes is h = 2n): its ladder goes to twice the others'.
file(READ ${WORK}/ladder.json ladder_text)
string(JSON n LENGTH "${ladder_text}" collectives shift ${NP} segments)
math(EXPR last "${n} - 1")
string(JSON shift_top GET "${ladder_text}" collectives shift ${NP} segments ${last} to)
if(NOT shift_top EQUAL 32768)
    message(FATAL_ERROR "with --collective-max-bytes 16384 the profile's shift reaches ${shift_top} bytes, not 32768")
endif()
# The division's result exchange goes on with the ladder (a division's results are as large as its tasks return;
# cut at max-bytes, the replicated FFT's 256 MiB exchange was priced along the in-cache line): at p = NP ≥ 2 its fit
# reaches the ladder's top. (At p = 1 a division moves nothing: one size.)
if(NP GREATER 1)
    string(JSON n LENGTH "${ladder_text}" division ${NP} exchange segments)
    math(EXPR last "${n} - 1")
    string(JSON division_top GET "${ladder_text}" division ${NP} exchange segments ${last} to)
    if(division_top LESS 8192)
        message(FATAL_ERROR "with --collective-max-bytes 16384 the division's exchange reaches ${division_top} bytes, "
                            "not the ladder's top")
    endif()
endif()

if(DEFINED KERNELS AND NOT KERNELS)
    return()
endif()
# --inspect: complete (exit 0, or 4 when this run's processors came out uneven: a noisy host, not a defect); without
# shift, as an older build wrote it (exit 3, naming it); with the processors' ratio set even and uneven (0 and 4).
execute_process(COMMAND ${PROBE} --inspect ${profile} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT 60)
message("${out}${err}")
if(NOT out MATCHES "complete for this build" OR NOT (status EQUAL 0 OR (status EQUAL 4 AND out MATCHES "UNEVEN")))
    message(FATAL_ERROR "llc-probe --inspect of a fresh profile exited with ${status}")
endif()
file(READ ${profile} text)
foreach(case "1.02;0;processors: even" "0.83;4;processors: UNEVEN.*x0.830.*calibrate again"
        "1.27;4;processors: UNEVEN.*x1.270")
    list(GET case 0 ratio)
    list(GET case 1 want)
    list(GET case 2 said)
    string(JSON ratioed SET "${text}" meta kernel_rank_ratio ${ratio})
    file(WRITE ${WORK}/ratio.json "${ratioed}")
    execute_process(COMMAND ${PROBE} --inspect ${WORK}/ratio.json RESULT_VARIABLE status OUTPUT_VARIABLE out
                    ERROR_VARIABLE err TIMEOUT 60)
    if(NOT status EQUAL ${want} OR NOT out MATCHES "${said}")
        message(FATAL_ERROR "llc-probe --inspect of a profile with kernel_rank_ratio ${ratio} exited with ${status}, "
                            "not ${want}: ${out}${err}")
    endif()
endforeach()
string(JSON older REMOVE "${text}" collectives shift)
file(WRITE ${WORK}/older.json "${older}")
execute_process(COMMAND ${PROBE} --inspect ${WORK}/older.json RESULT_VARIABLE status OUTPUT_VARIABLE out
                ERROR_VARIABLE err TIMEOUT 60)
message("${out}${err}")
if(NOT status EQUAL 3 OR NOT out MATCHES "lacks what this build measures: shift")
    message(FATAL_ERROR "llc-probe --inspect of a profile without shift exited with ${status}")
endif()
# Past 1 MiB every collective runs on buffers of its own size (operations.hpp, own_buffers_from), the written shift
# too: its message is written into the buffer the shift then sends. A ladder across that line runs every collective
# there (shift.written once had no benchmark on own buffers and stopped the quick calibration).
execute_process(COMMAND ${MPIEXEC} --oversubscribe --bind-to none -np ${NP} ${PROBE} --quick --no-kernels --max-bytes 4096
                        --sizes 4 --max-reps 3 --quiet --collective-max-bytes 2097152 --out ${WORK}/own.json
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "llc-probe --collective-max-bytes 2097152 exited with ${status}: ${out}${err}")
endif()
file(READ ${WORK}/own.json own_text)
string(JSON n LENGTH "${own_text}" collectives shift.written ${NP} segments)
math(EXPR last "${n} - 1")
string(JSON written_top GET "${own_text}" collectives shift.written ${NP} segments ${last} to)
if(written_top LESS 1048576)
    message(FATAL_ERROR "with --collective-max-bytes 2097152 the profile's shift.written reaches ${written_top} bytes")
endif()
