// `vedette`: a thin executable over vedette::sims.
#include <iostream>

#include "sims/cli/cli.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  vedette::cli::Io io{std::cout, std::cerr};
  return vedette::cli::run(args, io);
}
