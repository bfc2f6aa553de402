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
  vedette_unity_groups(vedette_${name})
endfunction()

# vedette_unity_groups(TARGET): with VEDETTE_UNITY, the target's sources
# are batched by what they open at file scope: a `using namespace X;` outside
# a function reaches every file after it in the same batch, so files are
# batched only with files that open the same namespaces, 8 at most a batch.
function(vedette_unity_groups target)
  if(NOT VEDETTE_UNITY)
    return()
  endif()
  get_target_property(sources ${target} SOURCES)
  foreach(src IN LISTS sources)
    get_source_file_property(skip "${src}" TARGET_DIRECTORY ${target} SKIP_UNITY_BUILD_INCLUSION)
    if(skip OR NOT src MATCHES "\\.cpp$" OR NOT EXISTS "${src}")
      continue()
    endif()
    file(STRINGS "${src}" opened REGEX "^using namespace [A-Za-z_:]+;")
    string(MAKE_C_IDENTIFIER "ns_${opened}" key)
    if(NOT DEFINED count_${key})
      set(count_${key} 0)
    endif()
    math(EXPR batch "${count_${key}} / 8")
    math(EXPR count_${key} "${count_${key}} + 1")
    set_source_files_properties("${src}" TARGET_DIRECTORY ${target} PROPERTIES UNITY_GROUP "${key}_${batch}")
  endforeach()
  set_target_properties(${target} PROPERTIES UNITY_BUILD_MODE GROUP)
endfunction()
