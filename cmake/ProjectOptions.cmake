# Options, warnings and sanitizers as INTERFACE targets linked into every target.
option(VEDETTE_BUILD_TESTS "Build the Catch2 tests" ON)
option(VEDETTE_BUILD_BENCHMARKS "Build the benchmarks (needs libbenchmark-dev)" OFF)
option(VEDETTE_SANITIZE "Build with -fsanitize=address,undefined" OFF)
option(VEDETTE_WERROR "Treat warnings as errors" OFF)

add_library(vedette_warnings INTERFACE)
add_library(vedette::warnings ALIAS vedette_warnings)
target_compile_options(vedette_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)
# GCC 12 reports a false -Wrestrict on `"literal" + std::string` (GCC bug 105329).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(vedette_warnings INTERFACE -Wno-restrict)
endif()
if(VEDETTE_WERROR)
  target_compile_options(vedette_warnings INTERFACE -Werror)
endif()

add_library(vedette_sanitizers INTERFACE)
add_library(vedette::sanitizers ALIAS vedette_sanitizers)
if(VEDETTE_SANITIZE)
  target_compile_options(vedette_sanitizers INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(vedette_sanitizers INTERFACE -fsanitize=address,undefined)
endif()
