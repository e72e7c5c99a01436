# Warnings and sanitizers go through PRIVATE interface targets so they never leak into users' builds.
add_library(llc_warnings INTERFACE)
target_compile_options(llc_warnings INTERFACE -Wall -Wextra -Wshadow -Wnon-virtual-dtor -Wpedantic)
# GCC's -Wpsabi says that a function passing a 32-byte vector (the kernels' GCC vector types) would pass it differently
# with and without AVX. Those functions are internal to one file and always inlined, so no call crosses builds with
# different flags; without -march=native (the sanitizer build) the note would otherwise fail -Werror.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(llc_warnings INTERFACE -Wno-psabi)
    # A unity build (CMAKE_UNITY_BUILD, scripts/test.sh's Release and sanitizer builds) compiles a generated file that
    # includes the sources: GCC then takes a struct of one source with a member of a type in that source's anonymous
    # namespace (fft.cpp's FftPlan::Impl) for a header's, which is what -Wsubobject-linkage is about.
    if(CMAKE_UNITY_BUILD)
        target_compile_options(llc_warnings INTERFACE -Wno-subobject-linkage)
    endif()
endif()
if(LLC_WARNINGS_AS_ERRORS)
    target_compile_options(llc_warnings INTERFACE -Werror)
endif()

# LLC_BUILD_FLAGS: the compiler and the flags every llc source is compiled with, for llc::build_flags
# (<llc/version.hpp>), which benchmarks print beside their timings.
string(TOUPPER "${CMAKE_BUILD_TYPE}" llc_config)
set(LLC_BUILD_FLAGS "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION} ${CMAKE_BUILD_TYPE}: ${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${llc_config}}")

if(LLC_NATIVE)
    include(CheckCXXCompilerFlag)
    check_cxx_compiler_flag(-march=native LLC_HAS_MARCH_NATIVE)
    if(LLC_HAS_MARCH_NATIVE)
        add_compile_options(-march=native)
        string(APPEND LLC_BUILD_FLAGS " -march=native")
    endif()
endif()

# LLC_SANITIZE_OPTIONS: compile options after the sanitizers' (a list), e.g. checks left out: scripts/test.sh passes
# -fno-sanitize=null,alignment for CI's time (see there).
set(LLC_SANITIZE_OPTIONS "" CACHE STRING "Compile options after -fsanitize=address,undefined (LLC_SANITIZE)")
if(LLC_SANITIZE)
    add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
                        ${LLC_SANITIZE_OPTIONS})
    add_link_options(-fsanitize=address,undefined)
    string(APPEND LLC_BUILD_FLAGS " -fsanitize=address,undefined ${LLC_SANITIZE_OPTIONS}")
endif()
string(REGEX REPLACE "  +" " " LLC_BUILD_FLAGS "${LLC_BUILD_FLAGS}")
string(STRIP "${LLC_BUILD_FLAGS}" LLC_BUILD_FLAGS)
string(REPLACE "\\" "\\\\" LLC_BUILD_FLAGS "${LLC_BUILD_FLAGS}")
string(REPLACE "\"" "\\\"" LLC_BUILD_FLAGS "${LLC_BUILD_FLAGS}")

# llc_add_library(NAME EXPORT_NAME DIR) — a compiled library whose headers live in DIR/include (installed as is), if
# it has any (the algorithms keep theirs in their own folders).
function(llc_add_library target export_name dir)
    add_library(${target} ${ARGN})
    add_library(llc::${export_name} ALIAS ${target})
    set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name} OUTPUT_NAME ${target})
    target_include_directories(${target} PUBLIC $<INSTALL_INTERFACE:include>)
    if(EXISTS ${dir}/include)
        target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${dir}/include>)
        install(DIRECTORY ${dir}/include/ DESTINATION include)
    endif()
    target_compile_features(${target} PUBLIC cxx_std_20)
    target_link_libraries(${target} PRIVATE $<BUILD_INTERFACE:llc_warnings>)
    install(TARGETS ${target} EXPORT llcTargets ARCHIVE DESTINATION lib LIBRARY DESTINATION lib RUNTIME DESTINATION bin)
endfunction()

# llc_add_subdirectories([DIR …]) — add_subdirectory for every folder below the current one (or each DIR given, which
# may lie elsewhere in the source tree) that has a CMakeLists.txt: the project finds its algorithms, cards, tools,
# tests, examples and benchmarks instead of listing them, so adding one edits no shared file.
function(llc_add_subdirectories)
    set(dirs ${ARGN})
    if(NOT dirs)
        file(GLOB dirs LIST_DIRECTORIES true ${CMAKE_CURRENT_SOURCE_DIR}/*)
    endif()
    foreach(dir IN LISTS dirs)
        if(IS_DIRECTORY ${dir} AND EXISTS ${dir}/CMakeLists.txt)
            file(RELATIVE_PATH where ${CMAKE_CURRENT_SOURCE_DIR} ${dir})
            if(where MATCHES "^\\.\\.")  # outside this folder: a build folder named after its source path
                file(RELATIVE_PATH where ${PROJECT_SOURCE_DIR} ${dir})
            endif()
            add_subdirectory(${dir} ${CMAKE_CURRENT_BINARY_DIR}/${where})
        endif()
    endforeach()
endfunction()
