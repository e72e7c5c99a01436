# Installs the build tree into a scratch prefix, builds tests/install/consumer against it with find_package(llc),
# and runs it under mpirun. Variables: BUILD_DIR, SOURCE_DIR, WORK_DIR, MPIEXEC.
file(REMOVE_RECURSE "${WORK_DIR}")
function(run)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT status EQUAL 0)
        message(FATAL_ERROR "failed (${status}): ${ARGN}\n${out}\n${err}")
    endif()
    set(last_output "${out}" PARENT_SCOPE)
endfunction()
run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/install/consumer" -B "${WORK_DIR}/build"
    "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix" -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run(${MPIEXEC} --oversubscribe -np 2 "${WORK_DIR}/build/consumer")
if(NOT last_output MATCHES "consumer ok on 2 processors")
    message(FATAL_ERROR "unexpected output: ${last_output}")
endif()
message("${last_output}")
