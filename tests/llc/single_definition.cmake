# cmake -DROOT=<source tree> -P single_definition.cmake: floor_log2, ceil_log2 and is_power_of_two are defined once, in
# llc/include/llc/log2.hpp; any other definition in the tree (an `int floor_log2(`, `int ceil_log2(`,
# `bool is_power_of_two(` outside it, or the FFT's former `int log2_exact(`) fails.
file(GLOB_RECURSE sources RELATIVE ${ROOT}
     ${ROOT}/llc/*.hpp ${ROOT}/llc/*.cpp ${ROOT}/cost/*.hpp ${ROOT}/cost/*.cpp ${ROOT}/algorithms/*.hpp
     ${ROOT}/algorithms/*.cpp ${ROOT}/tools/*.hpp ${ROOT}/tools/*.cpp ${ROOT}/benchmarks/*.cpp ${ROOT}/examples/*.cpp)
set(found "")
foreach(source IN LISTS sources)
    file(STRINGS ${ROOT}/${source} lines
         REGEX "(int[ \t]+(floor_log2|ceil_log2|log2_exact)|bool[ \t]+is_power_of_two)[ \t]*\\(")
    if(lines AND NOT source STREQUAL "llc/include/llc/log2.hpp")
        list(APPEND found "${source}: ${lines}")
    endif()
endforeach()
if(found)
    list(JOIN found "\n  " shown)
    message(FATAL_ERROR "floor_log2 / ceil_log2 / is_power_of_two defined outside llc/include/llc/log2.hpp:\n  ${shown}")
endif()
message(STATUS "floor_log2 / ceil_log2 / is_power_of_two: one definition (llc/include/llc/log2.hpp)")
