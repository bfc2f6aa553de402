// PLACEHOLDER: being written (issue 3). Replaced wholesale by its author.
#include "sims/cli.hpp"
namespace vedette::cli {
void add_charge(CLI::App& app, Runner& run) {
  auto* c = app.add_subcommand("charge", "(not yet available)");
  c->callback([&run] { run = [](Io& io) { io.err << "vedette: 'charge' is not available yet\n"; return 2; }; });
}
}  // namespace vedette::cli
