# vedette_library(NAME DIR [PUBLIC deps...] [PRIVATE deps...])
# One static library per source folder: the folder's own *.cpp (not its
# subfolders'), the project root on the include path, warnings and
# sanitizers, and the namespaced alias vedette::NAME. A folder's
# target_link_libraries is its layering: it names the folders below it, and
# tests/test_layering.cpp fails when an #include reaches anywhere else.
function(vedette_library name dir)
  cmake_parse_arguments(ARG "" "" "PUBLIC;PRIVATE;EXCLUDE" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${dir}/*.cpp)
  foreach(x IN LISTS ARG_EXCLUDE)
    list(REMOVE_ITEM sources ${dir}/${x})
  endforeach()
  add_library(vedette_${name} STATIC ${sources})
  add_library(vedette::${name} ALIAS vedette_${name})
  target_include_directories(vedette_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(vedette_${name}
    PUBLIC ${ARG_PUBLIC} vedette::warnings vedette::sanitizers
    PRIVATE ${ARG_PRIVATE})
endfunction()
