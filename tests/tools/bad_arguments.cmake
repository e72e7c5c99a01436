# Bad arguments to every tool at NP ranks (run at P = 1, 2, 3): llc-run (each command, and the options they share),
# llc-compare and llc-validate (llc-probe's: tests/probe/bad_arguments.cmake, at the same P). Each must exit with status
# 2 — on every rank, within the harness's timeout — with a message naming the option and the value, and write no
# output file.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/../support/expect_bad_arguments.cmake)
function(bad tool expect)
    llc_expect_bad_arguments(NP ${NP} TOOL ${tool} EXPECT "${expect}" ARGS ${ARGN})
endfunction()
function(bad_output tool expect file)
    llc_expect_bad_arguments(NP ${NP} TOOL ${tool} EXPECT "${expect}" NO_FILE ${file} ARGS ${ARGN})
endfunction()

# A 2 × 2 image (all foreground) and a 2-byte successor map, for the commands that read files.
file(WRITE ${WORK}/img.pgm "P5\n2 2\n255\nAAAA")
file(WRITE ${WORK}/two.raw "AA")

# llc-run: the options every command shares, and an unknown command.
bad(${RUN} "unknown algorithm 'nope'" nope)
bad_output(${RUN} "--repeat.*0" ${WORK}/y.raw symv --n 8 --repeat 0 --output ${WORK}/y.raw)
bad(${RUN} "bogus" symv --n 8 --bogus)
bad_output(${RUN} "--profile.*missing.json" ${WORK}/y.raw symv --n 8 --profile ${WORK}/missing.json --output ${WORK}/y.raw)
bad(${RUN} "--output.*no-such-dir" symv --n 8 --output ${WORK}/no-such-dir/y.raw)

# contour-ranking
bad_output(${RUN} "--density.*2" ${WORK}/cr.raw contour-ranking --n 8 --density 2 --output ${WORK}/cr.raw)
bad_output(${RUN} "--pattern.*'quad'" ${WORK}/cr.raw contour-ranking --n 8 --density 1 --pattern quad --output ${WORK}/cr.raw)
bad_output(${RUN} "--output.*cr.txt.*\\.raw" ${WORK}/cr.txt contour-ranking --n 8 --density 1 --output ${WORK}/cr.txt)
bad_output(${RUN} "--output.*cr.raw.*\\.txt" ${WORK}/cr.raw contour-ranking --input ${WORK}/img.pgm --output ${WORK}/cr.raw)
bad_output(${RUN} "--connectivity.*6" ${WORK}/cr.txt contour-ranking --input ${WORK}/img.pgm --connectivity 6 --output ${WORK}/cr.txt)
bad(${RUN} "--succ.*two.raw.*2 bytes" contour-ranking --succ ${WORK}/two.raw --width 3 --height 2)

# distance-transform
bad_output(${RUN} "--metric.*'d9'" ${WORK}/dt.raw distance-transform --n 16 --metric d9 --output ${WORK}/dt.raw)
bad_output(${RUN} "--output.*dt.png.*\\.pgm, \\.raw" ${WORK}/dt.png distance-transform --n 16 --output ${WORK}/dt.png)
bad_output(${RUN} "--r.*0" ${WORK}/dt.raw distance-transform --n 16 --r 0 --output ${WORK}/dt.raw)
bad_output(${RUN} "missing.pgm" ${WORK}/dt.raw distance-transform --input ${WORK}/missing.pgm --output ${WORK}/dt.raw)

# fft
bad_output(${RUN} "--layout.*'diagonal'" ${WORK}/f.bin fft --n 16 --layout diagonal --output ${WORK}/f.bin)
bad_output(${RUN} "--output.*f.txt.*\\.raw, \\.bin" ${WORK}/f.txt fft --n 16 --output ${WORK}/f.txt)
bad_output(${RUN} "--input.*two.raw.*2 bytes" ${WORK}/f.bin fft --input ${WORK}/two.raw --output ${WORK}/f.bin)

# matrix-chain and optimal-bst
bad(${RUN} "dims\\[1\\]" matrix-chain --dims 30,0,5)
bad(${RUN} "--r.*-2" matrix-chain --n 10 --r -2)
bad(${RUN} "freq\\[1\\]" optimal-bst --freq 1,-2)

# path-planning
bad_output(${RUN} "--source.*'1'" ${WORK}/pp.raw path-planning --n 16 --source 1 --output ${WORK}/pp.raw)
bad_output(${RUN} "--output.*pp.pgm.*\\.raw" ${WORK}/pp.pgm path-planning --n 16 --source 0,0 --output ${WORK}/pp.pgm)
bad_output(${RUN} "two.raw.*2 bytes" ${WORK}/pp.raw path-planning --input ${WORK}/two.raw --width 4 --height 4
           --source 0,0 --output ${WORK}/pp.raw)

# symv
bad_output(${RUN} "--n" ${WORK}/y.raw symv --n 0 --output ${WORK}/y.raw)
bad_output(${RUN} "--mapping.*'diagonal'" ${WORK}/y.raw symv --n 8 --mapping diagonal --output ${WORK}/y.raw)
bad_output(${RUN} "--output.*y.dat.*\\.raw, \\.bin, \\.txt, \\.csv" ${WORK}/y.dat symv --n 8 --output ${WORK}/y.dat)
bad_output(${RUN} "--vector.*two.raw.*2 bytes" ${WORK}/y.raw symv --matrix ${WORK}/two.raw --vector ${WORK}/two.raw
           --output ${WORK}/y.raw)

# llc-compare
bad(${COMPARE} "NAME.*nope" nope)
bad(${COMPARE} "--repeat.*-1" par --repeat -1)
bad(${COMPARE} "--sizes.*abc" par --sizes abc)
bad(${COMPARE} "bogus" par --bogus)

# llc-validate (those that need a profile: tests/validate/run_quick.cmake, also at P = 1, 2, 3)
llc_expect_bad_arguments(NP ${NP} TOOL ${VALIDATE} EXPECT "--sizes.*huge" NO_FILE ${WORK}/report
                         ARGS --sizes huge --out ${WORK}/report --no-plots)
llc_expect_bad_arguments(NP ${NP} TOOL ${VALIDATE} EXPECT "bogus" NO_FILE ${WORK}/report
                         ARGS --bogus --out ${WORK}/report --no-plots)
