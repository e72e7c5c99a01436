# The installed llcConfig.cmake records which MPI llc was built with (llc_MPI) and, for an SMPI build, asks for SMPI's
# compiler instead of looking for a system MPI. Without an SMPI build at hand, the build's generated llcConfig.cmake is
# installed into a scratch prefix with llc_MPI set to smpi, beside a stand-in llcTargets.cmake (the targets of an SMPI
# build name MPI::MPI_CXX, which must exist without FindMPI: the stand-in checks that). Then tests/install/consumer is
# configured: with the default compiler, find_package must fail with a message that names SMPI and smpicxx; with
# smpicxx (when installed), it must succeed, and llc::llc must carry LLC_SMPI. Variables: BUILD_DIR, SOURCE_DIR,
# WORK_DIR.
file(REMOVE_RECURSE "${WORK_DIR}")
set(config_dir "${WORK_DIR}/prefix/lib/cmake/llc")
file(READ "${BUILD_DIR}/llcConfig.cmake" config)
string(REGEX REPLACE "set\\(llc_MPI \"[a-z]*\"\\)" "set(llc_MPI \"smpi\")" smpi_config "${config}")
if(smpi_config STREQUAL config)
    message(FATAL_ERROR "llcConfig.cmake records no llc_MPI (set(llc_MPI \"…\")): which MPI llc was built with is lost")
endif()
file(WRITE "${config_dir}/llcConfig.cmake" "${smpi_config}")
file(COPY "${BUILD_DIR}/llcConfigVersion.cmake" DESTINATION "${config_dir}")
file(WRITE "${config_dir}/llcTargets.cmake" [=[
# Stand-in for an SMPI build's exported targets: llc::llc links MPI::MPI_CXX, which llcConfig.cmake must have made.
if(NOT TARGET MPI::MPI_CXX)
    message(FATAL_ERROR "llcConfig.cmake (smpi): MPI::MPI_CXX is not defined before the targets that name it")
endif()
if(MPI_FOUND OR MPI_CXX_FOUND)
    message(FATAL_ERROR "llcConfig.cmake (smpi): FindMPI ran, so a system MPI would be linked beside SMPI")
endif()
foreach(name llc cost algorithms)
    add_library(llc::${name} INTERFACE IMPORTED)
endforeach()
set_property(TARGET llc::llc PROPERTY INTERFACE_LINK_LIBRARIES MPI::MPI_CXX)
]=])

# Configures tests/install/consumer against the scratch prefix in build-<name> (ARGN: more -D options); sets status,
# out and err in the caller.
function(configure_consumer name)
    execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/install/consumer" -B "${WORK_DIR}/build-${name}"
                            "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix" -DLLC_COMPONENT=llc ${ARGN}
                    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
    set(status "${status}" PARENT_SCOPE)
    set(out "${out}" PARENT_SCOPE)
    set(err "${err}" PARENT_SCOPE)
endfunction()

# The default compiler: a clear refusal that names SMPI and smpicxx.
configure_consumer(default)
if(status EQUAL 0)
    message(FATAL_ERROR "an SMPI install was accepted with the default compiler:\n${out}\n${err}")
endif()
foreach(fragment "built for SimGrid SMPI" "-DLLC_MPI=smpi" "CMAKE_CXX_COMPILER=" "smpicxx" "smpirun")
    string(FIND "${err}" "${fragment}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "the refusal does not say '${fragment}':\n${err}")
    endif()
endforeach()
message("default compiler refused:\n${err}")

# smpicxx: accepted, no FindMPI, and the consumer's code compiled with LLC_SMPI.
find_program(smpicxx smpicxx)
if(NOT smpicxx)
    message("smpicxx not installed: the accepting half is not run")
    return()
endif()
configure_consumer(smpicxx -DCMAKE_CXX_COMPILER=${smpicxx})
if(NOT status EQUAL 0)
    message(FATAL_ERROR "an SMPI install was refused with smpicxx:\n${out}\n${err}")
endif()
if(NOT out MATCHES "llc_MPI: smpi; llc::llc compile definitions: [^\n]*LLC_SMPI")
    message(FATAL_ERROR "with smpicxx, llc::llc does not carry LLC_SMPI:\n${out}")
endif()
message("smpicxx accepted")
