# The accuracy gate (docs/validation.md): the measurements recorded in tests/data/accuracy (scripts/
# record-accuracy-data.sh) priced again by today's cost functions with the recorded profile; a case that met at
# recording time and would miss today fails the gate (llc-validate --reprice --gate exits 3). Nothing is timed.
# Then the gate's own check: with every price of the profile made 1.5 times larger, the gate must fail.
set(data ${SOURCE}/tests/data/accuracy)
foreach(f profile.json results.csv verdicts.csv)
    if(NOT EXISTS ${data}/${f})
        message(FATAL_ERROR "${data}/${f} is missing: record it with scripts/record-accuracy-data.sh")
    endif()
endforeach()
file(READ ${data}/verdicts.csv recorded)
if(NOT recorded MATCHES ",meets,")
    message(FATAL_ERROR "the recorded verdicts hold no case that met: the gate would hold nothing. Re-record on a quiet "
                        "machine (scripts/record-accuracy-data.sh)")
endif()
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${MPIEXEC} -np 1 ${VALIDATE} --reprice ${data} --profile ${data}/profile.json --out ${WORK}/today
                        --no-plots --gate
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
message("${err}")
string(REGEX MATCH "llc-validate --gate: [^\n]*" line "${out}")
message("${line}")
if(NOT status EQUAL 0)
    message(FATAL_ERROR "the accuracy gate failed (exit ${status}): a case that met when ${data} was recorded misses "
                        "with today's cost functions (above). Fix the regression, or, when the change is meant, "
                        "re-record with scripts/record-accuracy-data.sh.\n${out}")
endif()

execute_process(COMMAND ${PYTHON} ${CMAKE_CURRENT_LIST_DIR}/scale_profile.py ${data}/profile.json ${WORK}/scaled.json 1.5
                RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "scale_profile.py failed: ${err}")
endif()
execute_process(COMMAND ${MPIEXEC} -np 1 ${VALIDATE} --reprice ${data} --profile ${WORK}/scaled.json --out ${WORK}/scaled
                        --no-plots --gate
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
if(NOT status EQUAL 3)
    message(FATAL_ERROR "with every price 1.5 × larger the gate exited ${status}, not 3: it cannot fail.\n${out}${err}")
endif()

# A profile without a cost function's keys: the points it cannot price are named on stderr, case by case, never
# dropped from a case unnoticed.
execute_process(COMMAND ${PYTHON} -c "import json, sys; d = json.load(open(sys.argv[1])); \
d['kernels'] = {k: v for k, v in d['kernels'].items() if not k.startswith('symv.')}; json.dump(d, open(sys.argv[2], 'w'))"
                        ${data}/profile.json ${WORK}/no-symv.json
                RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "could not write a profile without symv's keys: ${err}")
endif()
execute_process(COMMAND ${MPIEXEC} -np 1 ${VALIDATE} --reprice ${data} --profile ${WORK}/no-symv.json
                        --out ${WORK}/no-symv --no-plots
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
if(NOT status EQUAL 0 OR NOT err MATCHES "note: symv: [0-9]+ point\\(s\\) not priced by the CCM[^\n]*symv\\.")
    message(FATAL_ERROR "re-priced without symv's keys (exit ${status}): stderr does not name symv's unpriced points "
                        "and the missing key.\n${out}${err}")
endif()
