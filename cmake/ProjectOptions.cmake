# Options, warnings and sanitizers as INTERFACE targets linked into every target.
option(VEDETTE_BUILD_TESTS "Build the Catch2 tests" ON)
option(VEDETTE_BUILD_BENCHMARKS "Build the benchmarks (needs libbenchmark-dev)" OFF)
option(VEDETTE_SANITIZE "Build with -fsanitize=address,undefined" OFF)
option(VEDETTE_WERROR "Treat warnings as errors" OFF)
option(VEDETTE_TSAN "Build with -fsanitize=thread (the parallel harness tests)" OFF)
option(VEDETTE_MPI "Build the lab for MPI: mpirun -np R vedette sim|compare|sweep ... (needs libopenmpi-dev)" OFF)
option(VEDETTE_FUZZ "Build the libFuzzer targets in tests/fuzz (clang++ only; implies ASan+UBSan)" OFF)
# A unity build compiles each target's sources in batches of 8 files, one
# compiler run a batch: the headers every file includes (the standard
# library, yaml-cpp, CLI11, Catch2) are parsed and their templates
# instantiated once a batch instead of once a file, about half the CPU
# time of a cold build. The sanitizer and fuzz presets use it, and CI's
# release build (.ci/run sets VEDETTE_UNITY=ON); a developer's release
# build keeps one file a run, so an edit recompiles one file. It needs the
# files of one target to share no name at file scope, not even in an
# anonymous namespace: a helper two files need lives once in a header.
option(VEDETTE_UNITY "Unity build: compile each target's sources in batches (CI, sanitizers)" OFF)
set(CMAKE_UNITY_BUILD ${VEDETTE_UNITY})
set(CMAKE_UNITY_BUILD_BATCH_SIZE 8)
# A static library is only an archive: its files need the headers of the
# libraries it names, not their archives. Without this, make builds the
# libraries one after the other along engine/'s chain (core, decision, board,
# ...), and a cold build kept one of two cores idle for most of the
# libraries' part (a cold ASan build: 205 s of compiling in the first 233 s).
# With it, every library's files compile side by side; only the executables
# wait for the libraries they link.
set(CMAKE_OPTIMIZE_DEPENDENCIES ON)
if(VEDETTE_FUZZ AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "VEDETTE_FUZZ needs clang++ (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
endif()
if(VEDETTE_TSAN AND (VEDETTE_SANITIZE OR VEDETTE_FUZZ))
  message(FATAL_ERROR "VEDETTE_TSAN cannot be combined with AddressSanitizer (VEDETTE_SANITIZE, VEDETTE_FUZZ)")
endif()

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
if(VEDETTE_SANITIZE OR VEDETTE_FUZZ)
  target_compile_options(vedette_sanitizers INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(vedette_sanitizers INTERFACE -fsanitize=address,undefined)
endif()
if(VEDETTE_SANITIZE)
  # Executables linked without PIE: a sanitized PIE binary spends most of its
  # start (0.45 s of 0.5 s for `vedette --version`) applying 1.6 million
  # relative relocations, and the tests start the binary thousands of times.
  # The objects stay position-independent; only the link changes.
  target_link_options(vedette_sanitizers INTERFACE $<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:-no-pie>)
endif()
if(VEDETTE_FUZZ)
  # Coverage for libFuzzer in every library; the targets link -fsanitize=fuzzer.
  # The asan preset sets it with VEDETTE_SANITIZE: one clang build serves the
  # sanitized tests and the fuzz targets (scripts/fuzz builds only those in
  # build-asan/); in the tests, where no fuzzer is linked, the sanitizer
  # runtime answers the coverage hooks.
  target_compile_options(vedette_sanitizers INTERFACE -fsanitize=fuzzer-no-link)
endif()
if(VEDETTE_TSAN)
  target_compile_options(vedette_sanitizers INTERFACE -fsanitize=thread -fno-omit-frame-pointer)
  target_link_options(vedette_sanitizers INTERFACE -fsanitize=thread)
endif()
