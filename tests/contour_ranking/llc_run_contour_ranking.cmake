# llc-run contour-ranking end to end at P = 2 (cmake -P; MPIEXEC, RUN and WORK set): the paper's diagonal image at
# 100 % density (the digest's T4 pattern) ranked by every pattern, the int32 (head, rank) output checked pixel by
# pixel where the answer is known, a map read back from a file, and exit status 2 naming the argument for bad input.
include(${CMAKE_CURRENT_LIST_DIR}/../support/expect_bad_arguments.cmake)

function(run_ok regex)
    execute_process(COMMAND ${MPIEXEC} --oversubscribe --bind-to none -np 2 ${RUN} ${ARGN}
                    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
    message("llc-run ${ARGN} -> ${status}: ${out}")
    if(NOT status EQUAL 0 OR NOT out MATCHES "${regex}")
        message(FATAL_ERROR "llc-run ${ARGN}: expected status 0 and output matching '${regex}', got ${status}: ${err}")
    endif()
endfunction()

# The int32 pair of pixel `index` of FILE as "head,rank" (little-endian, read as hex).
function(pair_at file index out)
    math(EXPR offset "${index} * 8")
    file(READ ${file} hex OFFSET ${offset} LIMIT 8 HEX)
    foreach(part 0 1)
        math(EXPR start "${part} * 8")
        string(SUBSTRING ${hex} ${start} 8 word)
        # Little-endian bytes: reverse them into one hex number.
        string(SUBSTRING ${word} 0 2 b0)
        string(SUBSTRING ${word} 2 2 b1)
        string(SUBSTRING ${word} 4 2 b2)
        string(SUBSTRING ${word} 6 2 b3)
        math(EXPR value "0x${b3}${b2}${b1}${b0}")
        if(value GREATER 2147483647)
            math(EXPR value "${value} - 4294967296")
        endif()
        list(APPEND values ${value})
    endforeach()
    list(JOIN values "," joined)
    set(${out} ${joined} PARENT_SCOPE)
endfunction()

# 16 × 16 diagonal lines at 100 %: pixel (r, c) has rank min(15 − r, 15 − c) and head (r + rank, c + rank).
foreach(pattern 1-lev-dir 2-lev-rc logp-lev-quad logp-lev-bal auto)
    set(out ${WORK}/cr_${pattern}.raw)
    file(REMOVE ${out})
    run_ok("\"contours\":31,\"edge_pixels\":256," contour-ranking --n 16 --density 1 --pattern ${pattern}
           --output ${out} --json --repeat 1)
    file(SIZE ${out} bytes)
    if(NOT bytes EQUAL 2048)
        message(FATAL_ERROR "${pattern}: ${out} has ${bytes} bytes, expected 16 × 16 × 8 = 2048")
    endif()
    foreach(check "0;255,15" "17;255,14" "15;15,0" "240;240,0" "33;254,13" "100;253,9")
        list(GET check 0 index)
        list(GET check 1 want)
        pair_at(${out} ${index} got)
        if(NOT got STREQUAL want)
            message(FATAL_ERROR "${pattern}: pixel ${index} is (${got}), expected (${want})")
        endif()
    endforeach()
endforeach()

# Vertical lines at 50 % spaced 2 apart: 8 contours of 16; a non-edge pixel is (−1, −1).
run_ok("pattern logp-lev-bal, 128 edge pixels, 8 contours" contour-ranking --n 16 --density 0.5 --lines vertical
       --pattern logp-lev-bal --output ${WORK}/cr_vertical.raw --repeat 1)
pair_at(${WORK}/cr_vertical.raw 1 got)
if(NOT got STREQUAL "-1,-1")
    message(FATAL_ERROR "vertical: pixel 1 is (${got}), expected (-1,-1)")
endif()

# A map from a file: 1 × 5 "0000H" (T1) as int8 codes 0 0 0 0 8, and the same file with a wrong size.
execute_process(COMMAND printf "\\000\\000\\000\\000\\010" OUTPUT_FILE ${WORK}/cr_t1.raw)
run_ok("\"contours\":1,\"edge_pixels\":5," contour-ranking --succ ${WORK}/cr_t1.raw --width 5 --height 1 --json
       --repeat 1)
llc_expect_bad_arguments(NP 2 TOOL ${RUN} EXPECT "--succ.*5 bytes"
                         ARGS contour-ranking --succ ${WORK}/cr_t1.raw --width 3 --height 2)
# "0000H" read as 5 × 1 rows: every successor E off the image but the head's: named by the library, exit status 2.
llc_expect_bad_arguments(NP 2 TOOL ${RUN} EXPECT "pixel \\(0, 0\\).*off the image"
                         ARGS contour-ranking --succ ${WORK}/cr_t1.raw --width 1 --height 5)
llc_expect_bad_arguments(NP 2 TOOL ${RUN} EXPECT "--pattern.*quad" ARGS contour-ranking --n 8 --density 1 --pattern quad)
llc_expect_bad_arguments(NP 2 TOOL ${RUN} EXPECT "--density" ARGS contour-ranking --n 8 --density 0)
llc_expect_bad_arguments(NP 2 TOOL ${RUN} EXPECT "--lines" ARGS contour-ranking --n 8 --density 1 --lines spiral)
llc_expect_bad_arguments(NP 2 TOOL ${RUN} EXPECT "exactly one" ARGS contour-ranking --density 1)

# --input: a binary image traced and ranked (8- and 4-connectivity), the contours written one a line.
# A 3 × 3 ring (255 on 0): an outer border of 8 points and a hole of 4 (8-connectivity) or 8 (4-connectivity).
execute_process(COMMAND printf "P5\\n3 3\\n255\\n\\377\\377\\377\\377\\000\\377\\377\\377\\377"
                OUTPUT_FILE ${WORK}/cr_ring.pgm)
# A 1-pixel line of 3 in a 5 × 3 image: one border of 4 points, out and back.
execute_process(COMMAND printf "P5\\n5 3\\n255\\n\\000\\000\\000\\000\\000\\000\\001\\001\\001\\000\\000\\000\\000\\000\\000"
                OUTPUT_FILE ${WORK}/cr_line.pgm)
function(expect_contours file want)
    file(READ ${file} got)
    if(NOT got STREQUAL want)
        message(FATAL_ERROR "${file}: got\n${got}\nexpected\n${want}")
    endif()
endfunction()
foreach(pattern 1-lev-dir logp-lev-bal)
    file(REMOVE ${WORK}/cr_ring.txt ${WORK}/cr_ring4.txt ${WORK}/cr_line.txt)
    run_ok("8-connectivity.*12 border states, 2 contours \\(1 outer, 1 holes\\)" contour-ranking
           --input ${WORK}/cr_ring.pgm --pattern ${pattern} --output ${WORK}/cr_ring.txt --repeat 1)
    expect_contours(${WORK}/cr_ring.txt "0 outer 8 0,0 1,0 2,0 2,1 2,2 1,2 0,2 0,1\n13 hole 4 0,1 1,2 2,1 1,0\n")
    run_ok("\"border_states\":16,\"connectivity\":4,\"contours\":2," contour-ranking --input ${WORK}/cr_ring.pgm
           --connectivity 4 --pattern ${pattern} --output ${WORK}/cr_ring4.txt --json --repeat 1)
    expect_contours(${WORK}/cr_ring4.txt "0 outer 8 0,0 1,0 2,0 2,1 2,2 1,2 0,2 0,1\n6 hole 8 0,0 0,1 0,2 1,2 2,2 2,1 2,0 1,0\n")
    run_ok("1 contours \\(1 outer, 0 holes\\)" contour-ranking --input ${WORK}/cr_line.pgm --pattern ${pattern}
           --output ${WORK}/cr_line.txt --repeat 1)
    expect_contours(${WORK}/cr_line.txt "48 outer 4 1,1 1,2 1,3 1,2\n")
endforeach()
llc_expect_bad_arguments(NP 2 TOOL ${RUN} EXPECT "--connectivity.*6"
                         ARGS contour-ranking --input ${WORK}/cr_ring.pgm --connectivity 6)
llc_expect_bad_arguments(NP 2 TOOL ${RUN} EXPECT "cr_none.pgm" ARGS contour-ranking --input ${WORK}/cr_none.pgm)
llc_expect_bad_arguments(NP 2 TOOL ${RUN} EXPECT "exactly one"
                         ARGS contour-ranking --input ${WORK}/cr_ring.pgm --n 8 --density 1)
