// A period's vocabulary (issue 30): the defender classes of seed 003's
// morale table in the words of the ruleset (tables/vocabulary/napoleonic.yaml:
// "line infantry" for Heavy Foot), in every question and answer of solo play,
// with seed 003's numbers unchanged.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "engine/decision/ruleset.hpp"
#include "sims/solo/solo_turn.hpp"
#include "solo_test_util.hpp"

namespace t_vocabulary {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace solo_test;

namespace {
const std::string k_napoleonic = std::string(VEDETTE_SOURCE_DIR) + "/tables/vocabulary/napoleonic.yaml";
}

TEST_CASE("vocabulary: the Napoleonic words name seed 003's classes, whose numbers stay the seed's", "[vocabulary][003-L9-vocabulary]") {
  const vedette::RulesetPtr nap = vedette::load_ruleset(k_napoleonic);
  const vedette::RulesetPtr def = vedette::default_ruleset();
  using vedette::DefenderClass;
  CHECK(nap->charge.row(DefenderClass::heavy_foot).text == "Line infantry");
  for (std::size_t c = 0; c < nap->charge.table.size(); ++c) {
    CHECK(nap->charge.table[c].need == def->charge.table[c].need);
    CHECK(nap->charge.table[c].kind == def->charge.table[c].kind);
  }
  std::string why;
  auto as = [&](const vedette::Ruleset& r, const std::string& t) { return vedette::solo::parse_defender(r, t, why); };
  CHECK(as(*nap, "line infantry") == DefenderClass::heavy_foot);
  CHECK(as(*nap, "Line-Infantry") == DefenderClass::heavy_foot);
  CHECK(as(*nap, "grenadiers") == DefenderClass::elite_foot);  // a part of the text
  CHECK(as(*nap, "old guard") == DefenderClass::elite_foot);   // a word
  CHECK(as(*nap, "cuir") == DefenderClass::heavy_horse);       // an unambiguous beginning
  CHECK(as(*nap, "heavy-foot") == DefenderClass::heavy_foot);  // the class's key always works
  CHECK_FALSE(as(*nap, "light"));                              // light infantry or light cavalry
  CHECK_THAT(why, Catch::Contains("could be 'Light infantry, Skirmishers' or 'Light cavalry'"));
  CHECK_FALSE(as(*nap, "redcoats"));
  CHECK_THAT(why, Catch::Contains("'redcoats' is not a class of the unit charged: say Militia, Landwehr; Light infantry"));
  CHECK_THAT(why, Catch::Contains("(or: national guard, rabble"));
  // The default ruleset keeps the seed's own words, "Levies" among them.
  CHECK(as(*def, "levies") == DefenderClass::light_foot);
  CHECK(as(*def, "armored foot") == DefenderClass::elite_foot);
  CHECK_FALSE(as(*def, "line infantry"));
}

TEST_CASE("vocabulary: a word that names two classes is refused, located", "[vocabulary][bad]") {
  TempDir dir;
  const std::string file = (dir.path / "twice.yaml").string();
  spit(file, "extends: " + std::string(VEDETTE_SOURCE_DIR) +
                 "/tables/default.yaml\nname: twice\ncharge:\n  morale:\n    table:\n"
                 "      heavy_foot: {words: [line]}\n      light_foot: {words: [skirmishers, line]}\n");
  Result r = run({"check", file}, dir.path);
  CHECK(r.status == 2);
  // The classes are read in the base table's order (light_foot first), so
  // the second claim on the word is heavy_foot's, at its line and column.
  CHECK(contains(r.err, "twice.yaml:6:28: 'line' in charge.morale.table.heavy_foot.words already names the defender class "
                        "'light_foot': a word may name one class only"));
}

// The user's path: a solo session on the Napoleonic ruleset asks in its words
// and takes "line infantry" where the seed says Heavy Foot.
TEST_CASE("vocabulary: solo play asks and answers in the ruleset's words", "[vocabulary][solo][003-L9-vocabulary][003-L18-solo-pikes-words]") {
  TempDir dir;
  Result made = run({"solo", "new", "game", "--ruleset", k_napoleonic, "--unit", "Lancers:shock,hero,figures=12,heavy", "--unit",
                     "Dragoons:mounted-infantry,raw,weapon=musket", "--seed", "3"},
                    dir.path);
  INFO(made.out << made.err);
  REQUIRE(made.status == 0);
  // README's game: turn 2, Lancers charges (the same dice: only words differ).
  // Your move in turn 2 names a unit of yours in the same words ("1st Foot
  // line infantry": its name, then its class), which ends near none.
  const std::string script =
      "n\ny\nn\n0\ny\ny\nn\n1\n3\n\ny\n30\nn\ny\nn\ny\ny\n0\ny\n1st Foot\n\ny\ny\nn\n0\n4\n1st Foot line infantry\n\n\n30\nline infantry\n\nn\nn\n\n";
  Result r = run({"solo", "play", "game"}, dir.path, script);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(contains(r.out, "The unit charged: Militia, Landwehr; Light infantry, Skirmishers; Line infantry; Grenadiers, Guard infantry; "
                        "Light cavalry; Medium cavalry, Lancers or Heavy cavalry, Cuirassiers? line infantry"));
  CHECK(contains(r.out, "Morale check: Line infantry charged by heavy cavalry in the front: needs 9+ on 2D6 to stand"));
  CHECK_FALSE(contains(r.out, "Heavy Foot"));
  // Seed 003 L18's pikes in these words (charge.morale.pikes_words).
  CHECK(contains(r.out, "Are they infantry formed in square facing the charge? [y/N] n"));
  CHECK_FALSE(contains(r.out, "Swiss"));
  CHECK(contains(r.out, "Where does 1st Foot end?"));  // its class taken in the ruleset's words
  CHECK_FALSE(contains(r.out, "give its name and its class"));
  // The single command takes the words too, and an unknown one lists them.
  Result bad = run({"solo", "charged", "game", "Lancers", "--as", "redcoats", "--distance", "30cm"}, dir.path);
  CHECK(bad.status == 2);
  CHECK(contains(bad.err, "--as: 'redcoats' is not a class of the unit charged: say Militia, Landwehr;"));
}

TEST_CASE("vocabulary: solo charged takes your unit's class in the ruleset's words", "[vocabulary][solo][reaction]") {
  TempDir dir;
  auto ok = [&](const std::vector<std::string>& args) {
    Result r = run(args, dir.path);
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    return r;
  };
  ok({"solo", "new", "game", "--ruleset", k_napoleonic, "--unit", "Hussars:shock,light", "--seed", "5", "--physical-dice"});
  ok({"solo", "activate", "game", "Hussars", "--roll", "3"});
  ok({"solo", "next-turn", "game"});
  ok({"solo", "activate", "game", "Hussars", "--enemy-in-range", "--roll", "3"});
  ok({"solo", "initiative", "game", "--total", "6", "--roll", "1"});
  // Your dragoons (medium cavalry in these words) charge the Hussars in the rear: 6 (light v medium), -2: needs 8.
  Result r = ok({"solo", "charged", "game", "Hussars", "--mover", "2nd Dragoons", "--as", "dragoons", "--distance", "30cm", "--side",
                 "rear", "--roll", "3", "4"});
  CHECK(contains(r.out, "Light cavalry charged by medium horse in the rear"));
  CHECK(contains(r.out, "needs 8 on 2D6 [3 4] = 7: fails"));
}

// Issue 30, beyond the classes: the cavalry's own unit types (seed 002's
// Shock Cavalry, Shooting Cavalry and Mounted Infantry) answer to their
// name's parts, their `words` and their id, in the ruleset's vocabulary.
TEST_CASE("vocabulary: unit types answer to the ruleset's words, their numbers unchanged", "[vocabulary][unit-types][002-L17-solo-type-words]") {
  const vedette::RulesetPtr nap = vedette::load_ruleset(k_napoleonic);
  const vedette::RulesetPtr def = vedette::default_ruleset();
  REQUIRE(nap->unit_types.size() == def->unit_types.size());
  for (std::size_t k = 0; k < def->unit_types.size(); ++k) {
    CHECK(nap->unit_types[k].id == def->unit_types[k].id);
    CHECK(nap->unit_types[k].can_gallop == def->unit_types[k].can_gallop);
    CHECK(nap->unit_types[k].shoots_mounted == def->unit_types[k].shoots_mounted);
    CHECK(nap->unit_types[k].melee == def->unit_types[k].melee);
    CHECK(nap->unit_types[k].melee_charging == def->unit_types[k].melee_charging);
  }
  std::string why;
  auto as = [&](const vedette::Ruleset& r, const std::string& t) { return vedette::solo::parse_unit_type(r, t, why); };
  CHECK(as(*nap, "heavy cavalry") == std::optional<std::string>("shock"));    // its name
  CHECK(as(*nap, "Cuirassiers") == std::optional<std::string>("shock"));      // a word
  CHECK(as(*nap, "hussars") == std::optional<std::string>("shooting"));
  CHECK(as(*nap, "dragoons") == std::optional<std::string>("mounted_infantry"));
  CHECK(as(*nap, "mounted-infantry") == std::optional<std::string>("mounted_infantry"));  // the id always works
  CHECK(as(*nap, "drag") == std::optional<std::string>("mounted_infantry"));  // an unambiguous beginning
  CHECK_FALSE(as(*nap, "c"));  // cuirassiers, carabiniers or chasseurs
  CHECK_THAT(why, Catch::Contains("could be 'Heavy cavalry' or 'Light cavalry'"));
  CHECK_FALSE(as(*nap, "cossaks"));
  CHECK_THAT(why, Catch::Contains("unknown unit type 'cossaks'"));
  CHECK_THAT(why, Catch::Contains("say Heavy cavalry, cuirassiers, carabiniers, lancers"));
  CHECK_THAT(why, Catch::Contains("; Dragoons, mounted infantry, mounted-infantry"));
  CHECK_FALSE(as(*nap, "husars"));
  CHECK_THAT(why, Catch::Contains("(did you mean 'hussars'?)"));
  // The seed's own words by default: its names and ids.
  CHECK(as(*def, "shock cavalry") == std::optional<std::string>("shock"));
  CHECK(as(*def, "Mounted Infantry") == std::optional<std::string>("mounted_infantry"));
  CHECK_FALSE(as(*def, "dragoons"));
  CHECK_THAT(why, Catch::Contains("say Shock cavalry, shock; Shooting cavalry, shooting; Mounted infantry, mounted-infantry"));
  // Seed 003 L18's pikes, in the ruleset's words.
  CHECK(vedette::solo::pikes_words(*def) == "Swiss or Landsknechte with pikes or pole arms");
  CHECK(vedette::solo::pikes_words(*nap) == "infantry formed in square");
  // A house rule that extends the preset keeps its words (the top file
  // gives none of its own), and its own words win where it gives them.
  TempDir dir;
  const auto house = dir.path / "house.yaml";
  std::ofstream(house) << "extends: " << std::filesystem::absolute(k_napoleonic).string()
                       << "\nname: house\nunit_types:\n  shooting:\n    words: [cossacks]\n";
  const vedette::RulesetPtr over = vedette::load_ruleset(house.string());
  CHECK(as(*over, "Cuirassiers") == std::optional<std::string>("shock"));     // the preset's word
  CHECK(as(*over, "cossacks") == std::optional<std::string>("shooting"));     // the house rule's
  CHECK(vedette::solo::pikes_words(*over) == "infantry formed in square");  // the preset's
}

// The user's path: `solo new` takes the type in the ruleset's words, and an
// unknown word lists the accepted ones; `solo status` shows the type's name.
TEST_CASE("vocabulary: solo new takes a unit type in the ruleset's words", "[vocabulary][unit-types][solo]") {
  TempDir dir;
  Result made = run({"solo", "new", "game", "--ruleset", k_napoleonic, "--unit", "Cuirassiers:heavy cavalry,heavy", "--unit",
                     "Dragoons:dragoons,weapon=musket", "--seed", "3"},
                    dir.path);
  INFO(made.out << made.err);
  REQUIRE(made.status == 0);
  const vedette::solo::Session s = vedette::solo::Session::load(dir.path / "game.vedette.yaml");
  CHECK(s.header().units[0].type == "shock");
  CHECK(s.header().units[1].type == "mounted_infantry");
  Result status = run({"solo", "status", "game"}, dir.path);
  CHECK(contains(status.out, "Cuirassiers: Heavy cavalry (heavy)"));
  CHECK(contains(status.out, "Dragoons: Dragoons, Musket"));
  Result bad = run({"solo", "new", "other", "--ruleset", k_napoleonic, "--unit", "Don:cossacks"}, dir.path);
  CHECK(bad.status == 2);
  CHECK(contains(bad.err, "--unit 'Don:cossacks': unknown unit type 'cossacks'"));
  CHECK(contains(bad.err, "say Heavy cavalry, cuirassiers"));
  CHECK_FALSE(std::filesystem::exists(dir.path / "other.vedette.yaml"));
  // The default ruleset: the seed's words, and not the Napoleonic ones.
  Result seed = run({"solo", "new", "third", "--unit", "Lancers:shock cavalry"}, dir.path);
  CHECK(seed.status == 0);
  Result nap = run({"solo", "new", "fourth", "--unit", "Lancers:heavy cavalry"}, dir.path);
  CHECK(nap.status == 2);
  CHECK(contains(nap.err, "unknown unit type 'heavy cavalry'"));
}

TEST_CASE("vocabulary: a word that names two unit types is refused, located, and the words are checked", "[vocabulary][unit-types][bad]") {
  TempDir dir;
  const std::string file = (dir.path / "twice.yaml").string();
  spit(file, "extends: " + std::string(VEDETTE_SOURCE_DIR) +
                 "/tables/default.yaml\nname: twice\nunit_types:\n  shock: {words: [horse]}\n  shooting: {words: [horse]}\n");
  Result r = run({"check", file}, dir.path);
  CHECK(r.status == 2);
  CHECK(contains(r.err, "twice.yaml:5:22: 'horse' in unit type 'shooting' words already names the unit type 'shock': a word may name one type only"));
  const std::string notlist = (dir.path / "notlist.yaml").string();
  spit(notlist, "extends: " + std::string(VEDETTE_SOURCE_DIR) + "/tables/default.yaml\nname: n\nunit_types:\n  shock: {words: horse}\n"
                "charge:\n  morale:\n    pikes_words: ''\n");
  Result n = run({"check", notlist}, dir.path);
  CHECK(n.status == 2);
  CHECK(contains(n.err, "notlist.yaml:4:18: expected a list of words for unit type 'shock' words"));
  CHECK(contains(n.err, "notlist.yaml:7:18: expected words for charge.morale.pikes_words"));
  Result ok = run({"check", k_napoleonic}, dir.path);
  INFO(ok.out << ok.err);
  CHECK(ok.status == 0);
}

}  // namespace t_vocabulary
