// Session files across versions (docs/solo.md, "The session file"): a file
// is written at the lowest version that holds its history. Version 1 files
// (before the charge initiation check and the refused "(Charge?)" were
// recorded) still load and play on; they stay version 1 until an event needs
// version 2; a version 1 file holding a version 2 field is refused, located.
#include <catch2/catch.hpp>

#include "sims/solo/session.hpp"
#include "solo_test_util.hpp"

namespace t_solo_migration {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace solo_test;
using nlohmann::json;

namespace {

void ok(const TempDir& dir, const std::vector<std::string>& args) {
  Result r = run(args, dir.path);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
}

// Removes every line holding `key` (and the key's flow entry) from text.
std::string without_line(std::string text, const std::string& key) {
  for (auto at = text.find(key); at != std::string::npos; at = text.find(key)) {
    auto begin = text.rfind('\n', at) + 1;
    auto end = text.find('\n', at);
    text.erase(begin, end - begin + 1);
  }
  return text;
}

}  // namespace

TEST_CASE("solo files: version 1 sessions load and stay version 1 until a version 2 event is written", "[solo][files]") {
  TempDir dir;
  const fs::path file = dir.path / "game.vedette.yaml";
  ok(dir, {"solo", "new", "game", "--unit", "Lancers:shock,heavy", "--seed", "21"});
  // Nothing of version 2 yet: the file is version 1, as an older vedette wrote it.
  ok(dir, {"solo", "activate", "game", "Lancers", "--roll", "3"});
  CHECK(contains(slurp(file), "\nversion: 1\n"));
  ok(dir, {"solo", "next-turn", "game"});
  ok(dir, {"solo", "activate", "game", "Lancers", "--enemy-in-range", "--roll", "6"});
  ok(dir, {"solo", "charge", "game", "Lancers", "--distance", "40cm", "--defender", "light-horse"});
  const std::string v2 = slurp(file);
  CHECK(contains(v2, "\nversion: 2\n"));
  CHECK(contains(v2, "initiation: {dice: ["));

  // The same game as version 1 wrote it: no initiation check recorded.
  std::string v1 = without_line(v2, "initiation: {dice:");
  v1.replace(v1.find("\nversion: 2\n"), 12, "\nversion: 1\n");
  spit(file, v1);
  Result st = run({"solo", "status", "game", "--json"}, dir.path);
  INFO(st.err);
  REQUIRE(st.status == 0);
  CHECK(st.json()["units"][0]["charged_this_turn"] == true);
  // Playing on without a version 2 event keeps version 1, byte for byte the old history.
  ok(dir, {"solo", "next-turn", "game"});
  const std::string after = slurp(file);
  CHECK(contains(after, "\nversion: 1\n"));
  CHECK(after.find(v1.substr(v1.find("history:"))) != std::string::npos);
  vedette::solo::Session s = vedette::solo::Session::load(file);
  CHECK(s.text() == after);

  // A version 2 field in a file that says version 1 is refused, at the field.
  std::string wrong = v2;
  wrong.replace(wrong.find("\nversion: 2\n"), 12, "\nversion: 1\n");
  spit(file, wrong);
  Result bad = run({"solo", "status", "game"}, dir.path);
  CHECK(bad.status == 2);
  CHECK(contains(bad.err, "initiation is a field of session version 2, but this file says version 1"));
  // A version from the future is refused with one clear message.
  std::string future = v2;
  const int next = vedette::solo::k_version + 1;
  future.replace(future.find("\nversion: 2\n"), 12, "\nversion: " + std::to_string(next) + "\n");
  spit(file, future);
  Result newer = run({"solo", "status", "game"}, dir.path);
  CHECK(newer.status == 2);
  CHECK(contains(newer.err, "session version " + std::to_string(next) + " was written by a newer vedette; this one reads version " +
                                std::to_string(vedette::solo::k_version)));
}

// play reloads a session another command changed while it waited: the
// session notices the file is no longer what it read or wrote.
TEST_CASE("solo files: a session knows when another command changed its file", "[solo][files]") {
  TempDir dir;
  const fs::path file = dir.path / "game.vedette.yaml";
  ok(dir, {"solo", "new", "game", "--unit", "Lancers:shock,heavy", "--seed", "21"});
  vedette::solo::Session mine = vedette::solo::Session::load(file);
  CHECK_FALSE(mine.changed_on_disk());
  ok(dir, {"solo", "casualties", "game", "Lancers", "2"});  // another command, as from another window
  CHECK(mine.changed_on_disk());
  vedette::solo::Session again = vedette::solo::Session::load(file);
  CHECK_FALSE(again.changed_on_disk());
  CHECK(again.memory(0).casualties == 2);
}

// Version 3 (issue 16, the whole turn): the initiative, shooting, melee and
// rally events, a routed unit, a unit's weapon, a charger's own morale
// check. A version 2 session loads and plays on, written as version 2 until
// one of those is recorded; then version 3. A version 3 event or field in a
// file that says version 2 is refused where it stands.
TEST_CASE("solo files: version 2 sessions load and stay version 2 until a version 3 event is written", "[solo][files]") {
  TempDir dir;
  const fs::path file = dir.path / "game.vedette.yaml";
  ok(dir, {"solo", "new", "game", "--unit", "Lancers:shock,heavy", "--seed", "21"});
  ok(dir, {"solo", "activate", "game", "Lancers", "--enemy-in-range", "--roll", "6"});  // turn 1: a refused (Charge?): version 2
  const std::string v2 = slurp(file);
  REQUIRE(contains(v2, "\nversion: 2\n"));
  // An older vedette's version 2 file loads, reads back byte for byte, and plays on as version 2.
  CHECK(vedette::solo::Session::load(file).text() == v2);
  ok(dir, {"solo", "casualties", "game", "Lancers", "1"});
  CHECK(contains(slurp(file), "\nversion: 2\n"));
  // The initiative is a version 3 event.
  ok(dir, {"solo", "initiative", "game", "--total", "3"});
  const std::string v3 = slurp(file);
  CHECK(contains(v3, "\nversion: 3\n"));
  CHECK(contains(v3, "event: initiative"));
  // An undone event stays in the history (it is never rewritten), so the
  // file stays version 3.
  ok(dir, {"solo", "undo", "game"});
  CHECK(contains(slurp(file), "\nversion: 3\n"));
  // A version 3 event in a file that says version 2: refused, located.
  std::string wrong = v3;
  wrong.replace(wrong.find("\nversion: 3\n"), 12, "\nversion: 2\n");
  spit(file, wrong);
  Result bad = run({"solo", "status", "game"}, dir.path);
  CHECK(bad.status == 2);
  CHECK(contains(bad.err, "the initiative event is of session version 3, but this file says version 2"));
  // A weapon in a version 2 header: the same.
  std::string weapon = v2;
  weapon.replace(weapon.find("figures: 12, weight: heavy}"), 27, "figures: 12, weight: heavy, weapon: \"pistol\"}");
  spit(file, weapon);
  Result bad2 = run({"solo", "status", "game"}, dir.path);
  CHECK(bad2.status == 2);
  CHECK(contains(bad2.err, "weapon is a field of session version 3, but this file says version 2"));
}

// Version 4 (mounted infantry on foot): a version 3 file with mounted
// infantry loads and plays on as version 3 until its dragoons dismount;
// then version 4. A version 4 field in a file that says version 3 is
// refused where it stands.
TEST_CASE("solo files: version 3 sessions load and stay version 3 until a unit dismounts", "[solo][files]") {
  TempDir dir;
  const fs::path file = dir.path / "game.vedette.yaml";
  ok(dir, {"solo", "new", "game", "--unit", "Dragoons:mounted-infantry,weapon=musket,figures=8", "--seed", "3", "--physical-dice"});
  ok(dir, {"solo", "activate", "game", "Dragoons", "--enemy-in-range", "--roll", "3"});  // RF 1, D6 3: halt
  ok(dir, {"solo", "initiative", "game", "--total", "3", "--roll", "4"});
  const std::string v3 = slurp(file);
  REQUIRE(contains(v3, "\nversion: 3\n"));
  CHECK(vedette::solo::Session::load(file).text() == v3);
  // No enemy to shoot at: it stays mounted, and the file version 3.
  ok(dir, {"solo", "shoot", "game", "Dragoons", "--no-target"});
  CHECK(contains(slurp(file), "\nversion: 3\n"));
  ok(dir, {"solo", "undo", "game"});
  // It dismounts to shoot: version 4, and on foot next turn.
  ok(dir, {"solo", "shoot", "game", "Dragoons", "--distance", "15cm", "--hits", "1"});
  const std::string v4 = slurp(file);
  CHECK(contains(v4, "\nversion: 4\n"));
  CHECK(contains(v4, "dismounted: true"));
  ok(dir, {"solo", "next-turn", "game"});
  Result st = run({"solo", "status", "game", "--json"}, dir.path);
  REQUIRE(st.status == 0);
  CHECK(st.json()["units"][0]["on_foot"] == true);
  // The same file said to be version 3: refused at the field, nothing written.
  std::string wrong = slurp(file);
  wrong.replace(wrong.find("\nversion: 4\n"), 12, "\nversion: 3\n");
  spit(file, wrong);
  Result bad = run({"solo", "status", "game"}, dir.path);
  CHECK(bad.status == 2);
  CHECK(contains(bad.err, "dismounted is a field of session version 4, but this file says version 3"));
  CHECK(slurp(file) == wrong);
}

}  // namespace t_solo_migration
