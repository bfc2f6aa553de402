// libFuzzer entry point: the command line, one argument per input line (the
// body and what it checks: tests/fuzz/targets.hpp).
#include "targets.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // `solo play` reads standard input: give it an empty one.
  if (!std::freopen("/dev/null", "r", stdin)) std::abort();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // -1: an input reaching outside the scratch folder, not kept in the corpus.
  return vfuzz::cli_one({reinterpret_cast<const char*>(data), size}) ? 0 : -1;
}
