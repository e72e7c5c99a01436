# Precompiled headers for the project's own many small programs (tests, cards), which each parse the same heavy
# headers again: GoogleTest, Open MPI's C++ bindings, Boost.Serialization, nlohmann/json, the llc headers and the
# standard library (a test's compile was about a third parsing them). The libraries (llc_core, llc_cost,
# llc_algorithms) never use them: their sources are what users compile against, so they must show a missing #include.
# LLC_PRECOMPILED_HEADERS=OFF compiles everything as before.
option(LLC_PRECOMPILED_HEADERS "Precompile the headers shared by the tests and the cards (faster builds)" ON)

# The standard headers most tests and tools include.
set(LLC_PCH_STD_HEADERS <algorithm> <array> <cmath> <complex> <cstddef> <cstdint> <cstdio> <cstdlib> <functional>
    <limits> <map> <memory> <numeric> <optional> <random> <set> <span> <sstream> <string> <utility> <vector>)

# The settings of a target that makes or uses a precompiled header. GCC ignores a precompiled header whose flags
# differ from the compile's and parses the headers instead, silently: -Winvalid-pch says so (an error with
# LLC_WARNINGS_AS_ERRORS, so CI notices when a change of flags loses it). ccache caches such compiles only with
# CCACHE_SLOPPINESS=pch_defines,time_macros (otherwise it runs the compiler every time): a ccache launcher
# (-DCMAKE_CXX_COMPILER_LAUNCHER=ccache) gets it here, for these targets only.
function(llc_pch_target target)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
        target_compile_options(${target} PRIVATE -Winvalid-pch)
    endif()
    get_target_property(launcher ${target} CXX_COMPILER_LAUNCHER)
    if(launcher)
        list(GET launcher 0 program)
        get_filename_component(program ${program} NAME)
        if(program STREQUAL "ccache")
            set_target_properties(${target} PROPERTIES CXX_COMPILER_LAUNCHER
                "${CMAKE_COMMAND};-E;env;CCACHE_SLOPPINESS=pch_defines,time_macros;${launcher}")
        endif()
    endif()
endfunction()

# llc_precompile_headers(TARGET HEADER …) — TARGET precompiles the headers (when LLC_PRECOMPILED_HEADERS is on).
function(llc_precompile_headers target)
    if(LLC_PRECOMPILED_HEADERS)
        target_precompile_headers(${target} PRIVATE ${LLC_PCH_STD_HEADERS} ${ARGN})
        llc_pch_target(${target})
    endif()
endfunction()

# llc_reuse_precompiled_headers(TARGET FROM) — TARGET uses FROM's precompiled header instead of building its own. GCC
# takes it only where the flags match (position-independent code of the same kind, the same -march, sanitizers and
# macros): an executable's from an executable's, a library's from a library's; otherwise it silently parses the
# headers (correct, only slower; -Winvalid-pch above says so).
function(llc_reuse_precompiled_headers target from)
    if(LLC_PRECOMPILED_HEADERS)
        target_precompile_headers(${target} REUSE_FROM ${from})
        llc_pch_target(${target})
    endif()
endfunction()

# llc_skip_precompiled_headers(SOURCE …) — sources that check what a header brings in by itself (for instance, that a
# header does not include <mpi.h>): a precompiled header included before them would make the check pass or fail
# for the wrong reason. They stay out of unity builds (CMAKE_UNITY_BUILD) too, which would put other sources, and
# their headers, in front of them.
function(llc_skip_precompiled_headers)
    set_source_files_properties(${ARGN} PROPERTIES SKIP_PRECOMPILE_HEADERS ON SKIP_UNITY_BUILD_INCLUSION ON)
endfunction()
