# Installs the build tree into a scratch prefix, then builds tests/install/consumer against it with
# find_package(llc COMPONENTS <one>) once per component, each alone, and runs it. A component's build hides what it
# must not need (CMAKE_DISABLE_FIND_PACKAGE_…): llc and cost build without nlohmann_json and pkg-config (so without
# FFTW), algorithms without nlohmann_json. Variables: BUILD_DIR, SOURCE_DIR, WORK_DIR, MPIEXEC, LAUNCHER (the compiler
# launcher, e.g. ccache; may be empty), NATIVE (LLC_NATIVE).
file(REMOVE_RECURSE "${WORK_DIR}")
function(run)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT status EQUAL 0)
        message(FATAL_ERROR "failed (${status}): ${ARGN}\n${out}\n${err}")
    endif()
    set(last_output "${out}" PARENT_SCOPE)
endfunction()
run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix")

# Public headers per concern: matrix_chain.hpp shows no engine internals (they live in a detail header).
file(READ "${WORK_DIR}/prefix/include/llc/algorithms/matrix_chain.hpp" header)
foreach(internal "FreeDeleter" "column(" "aligned_alloc")
    string(FIND "${header}" "${internal}" at)
    if(NOT at EQUAL -1)
        message(FATAL_ERROR "matrix_chain.hpp shows the engine's ${internal}")
    endif()
endforeach()

# Portable unless asked: without LLC_NATIVE no source of the build is compiled with -march=native, and the installed
# llc::build_flags says which it was.
file(READ "${BUILD_DIR}/compile_commands.json" commands)
file(READ "${WORK_DIR}/prefix/include/llc/version.hpp" version)
# The value of build_flags only: the header's comment mentions -march=native whatever the build.
string(REGEX MATCH "build_flags = \"[^\"]*\"" build_flags "${version}")
if(NOT build_flags)
    message(FATAL_ERROR "the installed version.hpp defines no llc::build_flags:\n${version}")
endif()
string(FIND "${commands}" "-march=native" native_command)
string(FIND "${build_flags}" "-march=native" native_flags)
if(NOT NATIVE AND (NOT native_command EQUAL -1 OR NOT native_flags EQUAL -1))
    message(FATAL_ERROR "LLC_NATIVE is off, yet -march=native is in compile_commands.json or llc::build_flags")
endif()
if(NATIVE AND native_flags EQUAL -1)
    message(FATAL_ERROR "LLC_NATIVE is on, yet llc::build_flags does not say -march=native")
endif()

set(hidden_llc -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON)
set(hidden_cost ${hidden_llc})
set(hidden_algorithms -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON)
set(expected_llc "consumer ok on 2 processors")
set(expected_cost "consumer ok: llc::cost")
set(expected_algorithms "consumer ok on 2 processors: llc::algorithms")
foreach(component llc cost algorithms)
    set(build "${WORK_DIR}/build-${component}")
    run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/install/consumer" -B "${build}" "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix"
        -DCMAKE_BUILD_TYPE=Release -DLLC_COMPONENT=${component} ${hidden_${component}}
        "-DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}")
    run(${CMAKE_COMMAND} --build "${build}")
    if(component STREQUAL "cost")
        run("${build}/consumer")  # serial: no MPI call
    else()
        run(${MPIEXEC} --oversubscribe -np 2 "${build}/consumer")
    endif()
    if(NOT last_output MATCHES "${expected_${component}}")
        message(FATAL_ERROR "${component}: unexpected output: ${last_output}")
    endif()
    message("${component}: ${last_output}")
endforeach()
