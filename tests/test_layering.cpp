// The layering of the source tree (docs/architecture.md): each folder of
// engine/, bots/ and sims/ may include only the folders below it, as its
// CMake library links only them (engine/CMakeLists.txt, sims/CMakeLists.txt).
// This test reads every source file's #include "..." lines and fails on a
// back arrow, on a folder it does not know (a new folder must say where it
// sits, here and in CMake), on a folder of more than 20 source files, and on
// a folder without its README.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

namespace t_layering {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

namespace fs = std::filesystem;

namespace {

// Folder -> the folders it may include (itself included). Order: bottom up.
const std::map<std::string, std::set<std::string>>& layers() {
  static const std::map<std::string, std::set<std::string>> m = [] {
    std::map<std::string, std::set<std::string>> l;
    const std::string core = "engine/core", decision = "engine/decision", board = "engine/board",
                      blocks = "engine/modules/blocks", skirmish = "engine/modules/skirmish",
                      asl = "engine/modules/asl", procedures = "engine/procedures",
                      engagement = "engine/engagement";
    l[core] = {core};
    l[decision] = {core, decision};
    l[board] = {core, decision, board};
    l[blocks] = {core, decision, board, blocks};
    l[skirmish] = {core, decision, board, skirmish};
    l[asl] = {core, decision, asl};
    l[procedures] = {core, decision, procedures};
    l[engagement] = {core, decision, board, blocks, procedures, engagement};
    const std::set<std::string> engine = {core, decision, board, blocks, skirmish, asl, procedures, engagement};
    l["bots"] = engine;
    l["bots"].insert("bots");
    l["sims/io"] = {core, "sims/io"};
    l["sims/lab"] = engine;
    l["sims/cluster"] = {"sims/cluster"};
    l["sims/lab"].insert({"bots", "sims/io", "sims/cluster", "sims/lab"});
    l["sims/report"] = l["sims/lab"];
    l["sims/report"].insert("sims/report");
    l["sims/solo"] = engine;
    l["sims/solo"].insert({"bots", "sims/io", "sims/solo"});
    l["sims/web"] = l["sims/solo"];
    l["sims/web"].insert("sims/web");
    std::set<std::string> all = l["sims/report"];
    all.insert({"sims/solo", "sims/web", "sims/cli", "sims/cli/commands"});
    l["sims/cli"] = all;
    l["sims/cli/commands"] = all;
    return l;
  }();
  return m;
}

bool is_source(const fs::path& p) { return p.extension() == ".cpp" || p.extension() == ".hpp"; }

// "engine/decision/ruleset.hpp" -> "engine/decision".
std::string folder_of(const std::string& rel) { return fs::path(rel).parent_path().generic_string(); }

}  // namespace

TEST_CASE("layering: every include points down the layers", "[layering][long]") {
  const fs::path root = VEDETTE_SOURCE_DIR;
  const std::regex include_re(R"re(^\s*#\s*include\s*"([^"]+)")re");
  int files = 0;
  for (const char* top : {"engine", "bots", "sims"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / top)) {
      if (!e.is_regular_file() || !is_source(e.path())) continue;
      const std::string rel = fs::relative(e.path(), root).generic_string();
      const std::string folder = folder_of(rel);
      INFO(rel);
      const auto it = layers().find(folder);
      REQUIRE(it != layers().end());  // a new folder: give it its layer here and a library in CMake
      std::ifstream in(e.path());
      std::string line;
      int n = 0;
      while (std::getline(in, line)) {
        ++n;
        std::smatch m;
        if (!std::regex_search(line, m, include_re)) continue;
        const std::string target = m[1].str();
        INFO(rel << ":" << n << " includes " << target);
        CHECK(it->second.count(folder_of(target)) == 1);
      }
      ++files;
    }
  }
  CHECK(files > 100);
}

TEST_CASE("layering: a back arrow is caught", "[layering]") {
  // The table itself: the decision core may not reach a rules module, the
  // engagement engine, a bot or the command line; a module may not reach the
  // engagement engine; the lab may not reach the command line.
  const auto& l = layers();
  for (const char* up : {"engine/modules/skirmish", "engine/modules/blocks", "engine/modules/asl", "engine/engagement",
                         "bots", "sims/cli", "sims/lab"})
    CHECK(l.at("engine/decision").count(up) == 0);
  CHECK(l.at("engine/core").count("engine/decision") == 0);
  CHECK(l.at("engine/modules/skirmish").count("engine/engagement") == 0);
  CHECK(l.at("engine/modules/blocks").count("engine/engagement") == 0);
  CHECK(l.at("sims/lab").count("sims/cli") == 0);
  CHECK(l.at("sims/lab").count("sims/report") == 0);
  CHECK(l.at("sims/solo").count("sims/cli") == 0);
  CHECK(l.at("sims/web").count("sims/cli") == 0);
}

TEST_CASE("layering: no folder holds more than 20 source files, and each has a README", "[layering]") {
  const fs::path root = VEDETTE_SOURCE_DIR;
  for (const auto& [folder, allowed] : layers()) {
    INFO(folder);
    REQUIRE(fs::is_directory(root / folder));
    int n = 0;
    for (const auto& e : fs::directory_iterator(root / folder))
      if (e.is_regular_file() && is_source(e.path())) ++n;
    CHECK(n <= 20);
    if (folder != "sims/cli/commands") CHECK(fs::exists(root / folder / "README.md"));
  }
}

}  // namespace t_layering
