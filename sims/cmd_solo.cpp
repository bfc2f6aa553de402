// PLACEHOLDER: being written (issue 3). Replaced wholesale by its author.
#include "sims/cli.hpp"
namespace vedette::cli {
void add_solo(CLI::App& app, Runner& run) {
  auto* c = app.add_subcommand("solo", "(not yet available)");
  c->callback([&run] { run = [](Io& io) { io.err << "vedette: 'solo' is not available yet\n"; return 2; }; });
}
}  // namespace vedette::cli
