// libFuzzer entry point: the scenario loader (the body and what it checks:
// tests/fuzz/targets.hpp).
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  vfuzz::scenario_one({reinterpret_cast<const char*>(data), size});
  return 0;
}
