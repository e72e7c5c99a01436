# cmake -DROOT=<source tree> -P single_definition.cmake: floor_log2 and ceil_log2 are defined once, in
# llc/include/llc/log2.hpp; any other definition in the tree (an `int floor_log2(` or `int ceil_log2(` outside it) fails.
file(GLOB_RECURSE sources RELATIVE ${ROOT}
     ${ROOT}/llc/*.hpp ${ROOT}/llc/*.cpp ${ROOT}/cost/*.hpp ${ROOT}/cost/*.cpp ${ROOT}/algorithms/*.hpp
     ${ROOT}/algorithms/*.cpp ${ROOT}/tools/*.hpp ${ROOT}/tools/*.cpp ${ROOT}/benchmarks/*.cpp ${ROOT}/examples/*.cpp)
set(found "")
foreach(source IN LISTS sources)
    file(STRINGS ${ROOT}/${source} lines REGEX "int[ \t]+(floor|ceil)_log2[ \t]*\\(")
    if(lines AND NOT source STREQUAL "llc/include/llc/log2.hpp")
        list(APPEND found "${source}: ${lines}")
    endif()
endforeach()
if(found)
    list(JOIN found "\n  " shown)
    message(FATAL_ERROR "floor_log2 / ceil_log2 defined outside llc/include/llc/log2.hpp:\n  ${shown}")
endif()
message(STATUS "floor_log2 / ceil_log2: one definition (llc/include/llc/log2.hpp)")
