# Every dependency comes from Debian's packages (scripts/setup installs them).
find_package(Boost 1.74 REQUIRED)            # Boost.Random is header-only
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(yaml-cpp 0.7 REQUIRED)
find_package(CLI11 2.1 REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)   # JSON output and session files
find_package(Threads REQUIRED)
# The web page's HTTP server and the terminal's QR code (vedette serve):
# Debian's cpp-httplib ships a library and a pkg-config file, no CMake file.
find_package(PkgConfig REQUIRED)
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
pkg_check_modules(QRENCODE REQUIRED IMPORTED_TARGET libqrencode)              # the Monte Carlo harness's workers
if(VEDETTE_BUILD_TESTS)
  find_package(Catch2 2 REQUIRED)
  include(Catch)
endif()
if(VEDETTE_MPI)
  find_package(MPI REQUIRED COMPONENTS CXX)  # Open MPI (libopenmpi-dev): sims/cluster only
endif()
if(VEDETTE_BUILD_BENCHMARKS)
  find_package(benchmark REQUIRED)
endif()
