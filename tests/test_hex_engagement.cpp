// Issue 8: hex scenarios and the engagement over seed 004 block units
// (engine/engagement/engagement_blocks.cpp), played by the same Engagement, Battle,
// bots and harness. Each rule test cites seed 004
// (seeds/004_c27512f9ffc61979.txt); the dice come from the engagement's own
// streams, so the tests play many seeds and check every occurrence against
// the live battle, and require that the rule did occur.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bots/registry.hpp"
#include "engine/engagement/engagement.hpp"
#include "helpers.hpp"

using namespace vedette;

namespace {

const std::string k_src = VEDETTE_SOURCE_DIR;

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// tables/seed004.yaml with the bots' policies set (always, never, ...).
std::string table_with(const vtest::TempDir& dir, const std::string& square, const std::string& retire) {
  std::string t = slurp(k_src + "/tables/seed004.yaml");
  auto set = [&](const std::string& key, const std::string& v) {
    const std::string from = "  " + key + ": by_expected_losses";
    const auto at = t.find(from);
    REQUIRE(at != std::string::npos);
    t.replace(at, from.size(), "  " + key + ": " + v);
  };
  set("form_square", square);
  set("retire_and_reform", retire);
  return dir.write("seed004-" + square + "-" + retire + ".yaml", t);
}

// A small hex scenario: `units` are YAML flow maps, one per line.
std::string scenario(const vtest::TempDir& dir, const std::string& name, const std::string& table, const std::string& ruleset,
                     const std::string& cavalry_bot, const std::string& units, const std::string& terrain = "") {
  std::string y = "scenario: " + name + "\nruleset: " + ruleset + "\nblocks: " + table +
                  "\nboard:\n  type: hex\n  cols: 13\n  rows: 9\n  size: 10cm\n" + (terrain.empty() ? "" : "  terrain: " + terrain + "\n") +
                  "sides:\n  cavalry:\n    edge: top\n    bot: " + cavalry_bot +
                  "\n  infantry:\n    edge: bottom\n    bot: hold_and_shoot\n    options: {form_square: true}\n"
                  "units:\n" + units + "turns: 6\nvictory:\n  - {winner: infantry, when: {side_losses: cavalry, at_least: 100}}\n"
                  "  - {winner: cavalry, when: {side_losses: infantry, at_least: 100}}\n";
  return dir.write(name + ".yaml", y);
}

const std::string k_squares = k_src + "/sims/scenarios/rules/squares.yaml";

struct Seen {
  const Event* e;
  Hex hex;           // the event's unit's hex when it was recorded
  bool in_square;    // ... and whether it was in square
  int blocks;        // ... and its blocks
};

// Keeps every event with the state of its unit as it was recorded.
class Watch final : public Recorder {
 public:
  explicit Watch(const Engagement& g) : g_(g) {}
  void record(Event e) override {
    events.push_back(std::make_unique<Event>(std::move(e)));
    const Event& ev = *events.back();
    Seen s{&ev, {}, false, 0};
    const Battle& b = g_.battle();
    for (const auto& u : b.units())
      if (u.name == ev.unit) {
        s.hex = b.hex()->hex_of(u.pos);
        s.in_square = u.in_square();
        s.blocks = u.figures;
      }
    seen.push_back(s);
  }
  std::vector<std::unique_ptr<Event>> events;
  std::vector<Seen> seen;

 private:
  const Engagement& g_;
};

long long num(const Event& e, const std::string& key) {
  for (const auto& [k, v] : e.data)
    if (k == key) return std::get<long long>(v);
  FAIL("no " << key << " in " << e.text);
  return 0;
}

bool flag(const Event& e, const std::string& key) {
  for (const auto& [k, v] : e.data)
    if (k == key) return std::get<bool>(v);
  FAIL("no " << key << " in " << e.text);
  return false;
}

std::string str(const Event& e, const std::string& key) {
  for (const auto& [k, v] : e.data)
    if (k == key) return std::get<std::string>(v);
  FAIL("no " << key << " in " << e.text);
  return {};
}

}  // namespace

TEST_CASE("hex scenario: the board, its terrain, units on hexes, home and edges (issue 8)", "[hex][scenario]") {
  const ScenarioPtr s = load_scenario_file(k_src + "/sims/scenarios/hex_line_squares.yaml");
  REQUIRE(s->hex);
  REQUIRE(s->blocks);
  CHECK_FALSE(s->table);
  CHECK(s->board.get() == s->hex.get());
  const HexBoard& hb = *s->hex;
  CHECK(hb.cols() == 13);
  CHECK(hb.rows() == 9);
  CHECK(hb.hex_size() == Length::cm(10));
  CHECK(hb.terrain(HexBoard::from_offset(1, 3)).name == "woods");
  CHECK(hb.terrain(HexBoard::from_offset(9, 1)).name == "town");
  CHECK(hb.terrain(HexBoard::from_offset(0, 6)).impassable);
  CHECK(hb.terrain(HexBoard::from_offset(5, 5)).name == "open");
  const Battle b(*s);
  REQUIRE(b.hex());
  // Units stand on their hexes' centres; a unit fills its hex.
  CHECK(b.unit(0).pos == hb.centre(HexBoard::from_offset(6, 5)));
  CHECK(b.depth(0) == Length::cm(10));
  // Home: the hex on the own edge straight back; at the edge by edge_distance.
  CHECK(hb.hex_of(b.home_point(0)) == HexBoard::from_offset(6, 8));  // cavalry: top edge
  CHECK(hb.hex_of(b.home_point(3)) == HexBoard::from_offset(4, 0));  // infantry: bottom edge
  CHECK_FALSE(b.at_edge(0, Edge::top));
  // Gap front to front: 0 when adjacent, a hex size per hex between.
  CHECK(b.gap(0, 4) == Length::cm(20));  // Cuirassiers [6,5] to 2nd Foot [6,2]: 3 hexes
  CHECK(b.arm_of(0) == Arm::cavalry);
  CHECK(b.arm_of(3) == Arm::infantry);
  CHECK(b.hand(1).hand.empty());  // the engagement deals the cards
}

TEST_CASE("hex scenario: sight is blocked by a unit in between (seed 004 line of sight)", "[hex][scenario]") {
  vtest::TempDir dir;
  const std::string t = table_with(dir, "always", "always");
  const auto f = scenario(dir, "sight", t, "builtin:default", "hold_and_shoot",
                          "  - {name: Hussars, side: cavalry, profile: light_cavalry, figures: 3, hex: [6, 6]}\n"
                          "  - {name: Foot, side: infantry, profile: heavy_foot, figures: 4, hex: [6, 2]}\n"
                          "  - {name: Guard, side: infantry, profile: heavy_foot, figures: 4, hex: [6, 4]}\n");
  const ScenarioPtr s = load_scenario_file(f);
  const Battle b(*s);
  CHECK_FALSE(b.sees(0, 1));  // Guard stands between
  CHECK(b.sees(0, 2));
  CHECK(b.sees(1, 2));
}

TEST_CASE("engine, seed 004 infantry square: formed when charged, the square battles first, the cavalry then attacks with at most 1 die",
          "[hex][engagement][seed004][004-L26-form-square-choice][004-L54-square-ranged]") {
  vtest::TempDir dir;
  const std::string t = table_with(dir, "always", "never");
  const auto f = scenario(dir, "square", t, k_squares, "reaction_table",
                          "  - {name: Cuirassiers, side: cavalry, profile: heavy_cavalry, figures: 4, hex: [6, 5], pace: walk}\n"
                          "  - {name: Foot, side: infantry, profile: heavy_foot, figures: 4, hex: [6, 2]}\n");
  const ScenarioPtr s = load_scenario_file(f);
  const Players p = make_players(*s);
  int squares = 0, attacks = 0, bounces = 0, firsts = 0, cavalry_melees = 0;
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    Engagement g(*s, p.bots(), seed);
    Watch w(g);
    g.attach(&w);
    g.run();
    int square_events = 0;
    for (std::size_t k = 0; k < w.seen.size(); ++k) {
      const Event& e = *w.seen[k].e;
      INFO("seed " << seed << ": " << e.text);
      if (e.kind == "square") {
        ++square_events;
        CHECK(w.seen[k].in_square);
        // The charge that brought it: the cavalry was adjacent.
        CHECK(std::string(e.text).find("Cuirassiers") != std::string::npos);
      }
      if (e.kind == "square_first") {
        ++firsts;
        CHECK(w.seen[k].in_square);
        CHECK(num(e, "dice") <= 1);  // seed 004: at most 1 die in square
        if (flag(e, "bounce")) ++bounces;
      }
      if (e.kind == "melee" && k > 0 && e.unit == "Cuirassiers" && w.seen[k - 1].e->kind != "casualties" &&
          std::string(e.text).find("the square") != std::string::npos) {
        ++attacks;
        CHECK(num(e, "dice") <= 1);  // seed 004: cavalry against a square, at most 1 die
        CHECK(num(e, "artillery_dice") == 0);
      }
      // Never a full-dice cavalry melee against the battalion in this run:
      // every charge meets a square (policy always, 5 cards).
      if (e.kind == "melee" && e.unit == "Cuirassiers") {
        ++cavalry_melees;
        CHECK(std::string(e.text).find("the square") != std::string::npos);
      }
    }
    CHECK(g.outcome().sides[1].squares_formed == square_events);
    squares += square_events;
  }
  CHECK(squares > 10);
  CHECK(attacks > 5);
  CHECK(bounces > 0);
  CHECK(firsts >= attacks);  // every attack on the square came after the square's own roll
  CHECK(cavalry_melees >= attacks);
}

TEST_CASE("engine, seed 004: with squares off (the ruleset switch) the battalion takes the cavalry's full dice", "[hex][engagement][seed004][004-L38-no-square-normal]") {
  vtest::TempDir dir;
  const std::string t = table_with(dir, "always", "never");
  const auto f = scenario(dir, "nosquare", t, "builtin:default", "reaction_table",
                          "  - {name: Cuirassiers, side: cavalry, profile: heavy_cavalry, figures: 4, hex: [6, 5], pace: walk}\n"
                          "  - {name: Foot, side: infantry, profile: heavy_foot, figures: 4, hex: [6, 2]}\n");
  const ScenarioPtr s = load_scenario_file(f);
  const Players p = make_players(*s);
  int melees = 0;
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    Engagement g(*s, p.bots(), seed);
    Watch w(g);
    g.attach(&w);
    g.run();
    CHECK(g.outcome().sides[1].squares_formed == 0);
    for (const Seen& x : w.seen) {
      INFO("seed " << seed << ": " << x.e->text);
      CHECK(x.e->kind != "square");
      if (x.e->kind == "melee" && x.e->unit == "Cuirassiers") {
        ++melees;
        CHECK(num(*x.e, "dice") == x.blocks);  // a die per block, open ground (seed 004)
      }
    }
  }
  CHECK(melees > 10);
}

// The cavalry's own bot, asked whether to retire and reform: it answers as
// told and writes down what it saw when asked (seed 004 L4: the question
// comes before the attacking infantry's dice).
class AskedBot final : public Bot {
 public:
  AskedBot(const Bot& inner, const Watch*& watch) : inner_(inner), watch_(watch) {}
  std::string_view name() const override { return inner_.name(); }
  void orders(const Battle& b, std::uint8_t side, Dice& d, std::span<Command> out) const override { inner_.orders(b, side, d, out); }
  bool form_square(const Battle& b, std::size_t u, std::size_t c) const override { return inner_.form_square(b, u, c); }
  bool opportunity_charge(const Battle& b, std::size_t u, std::size_t m, const Command& c) const override {
    return inner_.opportunity_charge(b, u, m, c);
  }
  bool retire_and_reform(const Battle& b, std::size_t unit, std::size_t) const override {
    ++asked;
    blocks_when_asked = b.unit(unit).figures;
    events_when_asked = watch_ ? watch_->seen.size() : 0;
    return retire;
  }
  bool retire = true;
  mutable int asked = 0;
  mutable int blocks_when_asked = -1;
  mutable std::size_t events_when_asked = 0;

 private:
  const Bot& inner_;
  const Watch*& watch_;
};

TEST_CASE("engine, seed 004 retire and reform: the cavalry retires 2 hexes, each closer to its own edge, and does not battle back",
          "[hex][engagement][seed004][004-L4-ask-before-dice][004-L12-no-battle-back]") {
  vtest::TempDir dir;
  const std::string t = table_with(dir, "never", "always");
  // The cavalry holds (hold_and_shoot) beside the battalion: the battalion
  // melees it, and the cavalry is asked before the dice.
  const auto f = scenario(dir, "retire", t, "builtin:default", "hold_and_shoot",
                          "  - {name: Hussars, side: cavalry, profile: light_cavalry, figures: 3, hex: [6, 3]}\n"
                          "  - {name: Foot, side: infantry, profile: heavy_foot, figures: 4, hex: [6, 2]}\n");
  const ScenarioPtr s = load_scenario_file(f);
  const Players p = make_players(*s);
  const HexBoard& hb = *s->hex;
  int retired = 0, hits = 0, declined = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const Watch* watching = nullptr;
    AskedBot cavalry(*p.bots()[0], watching);
    // Seed 004 L4: the cavalry "must then declare" before the roll; every
    // fourth game it declines, and the melee is fought (L6).
    cavalry.retire = seed % 4 != 0;
    Engagement g(*s, {&cavalry, p.bots()[1]}, seed);
    Watch w(g);
    watching = &w;
    g.attach(&w);
    g.play_turn();
    INFO("seed " << seed);
    // Asked once, before any dice of the melee: the Hussars had lost no
    // block, and no roll of the Foot's had been recorded.
    REQUIRE(cavalry.asked == 1);
    CHECK(cavalry.blocks_when_asked == 3);
    for (std::size_t k = 0; k < cavalry.events_when_asked; ++k) {
      const std::string kind = w.seen[k].e->kind;
      CHECK(kind != "melee");
      CHECK(kind != "retire_and_reform");
    }
    REQUIRE(cavalry.events_when_asked < w.seen.size());
    const Event& next = *w.seen[cavalry.events_when_asked].e;
    INFO(next.text);
    if (!cavalry.retire) {
      // Declined: the infantry then rolls its full dice (a die per block).
      ++declined;
      CHECK(next.kind == "melee");
      CHECK(next.unit == "Foot");
      CHECK(num(next, "dice") == 4);
      CHECK(g.outcome().sides[0].retire_and_reform == 0);
      continue;
    }
    // Retiring: the very next event is the retire's own roll of the full dice.
    CHECK(next.kind == "retire_and_reform");
    CHECK(next.text.find("Foot rolls 4 dice") != std::string::npos);
    std::optional<Hex> before;
    for (std::size_t k = 0; k < w.seen.size(); ++k) {
      const Event& e = *w.seen[k].e;
      INFO("seed " << seed << ": " << e.text);
      if (e.kind == "retire_and_reform") {
        before = w.seen[k].hex;
        CHECK(*before == HexBoard::from_offset(6, 3));
        // Only cavalry symbols hit (seed 004): the hits equal the cavalry faces rolled.
        const std::string sym = str(e, "symbols");
        long long cav = 0;
        for (std::size_t at = sym.find("cavalry"); at != std::string::npos; at = sym.find("cavalry", at + 1)) ++cav;
        CHECK(num(e, "hits") == cav);
        hits += static_cast<int>(cav);
      }
      if (e.kind == "retire") {
        REQUIRE(before);
        ++retired;
        const Hex after = w.seen[k].hex;
        CHECK(hex_distance(*before, after) == 2);
        CHECK(hb.edge_distance(*before, Edge::top) - hb.edge_distance(after, Edge::top) == 2);
      }
      // Seed 004 L12: no battle back after retiring, and no ordinary melee roll.
      CHECK(e.kind != "battle_back");
      CHECK(e.kind != "melee");
    }
    CHECK(g.outcome().sides[0].retire_and_reform == 1);
    // The Hussars scored nothing in melee, the Foot kept its 4 blocks.
    CHECK(g.outcome().sides[0].melee_hits == 0);
    CHECK(g.battle().unit(1).figures == 4);
  }
  CHECK(retired > 30);
  CHECK(hits > 0);
  CHECK(declined >= 10);
}

TEST_CASE("engine, seed 004: infantry melees a square normally, and the square battles back with 1 die", "[hex][engagement][seed004][004-L49-foot-vs-square]") {
  // Seed 004 L49: "An infantry or artillery unit will also melee normally
  // against an enemy infantry unit in square. The infantry unit in square
  // may then Battle Back in melee with 1 die." The infantry part: the Foot
  // (4 blocks) attacks the Guard in square with its full dice, then the
  // square battles back with one. (Artillery never melees on the hex board:
  // row 004-L49-artillery-vs-square.) Enemy Lancers two hexes off keep the
  // Guard in square.
  vtest::TempDir dir;
  const std::string t = table_with(dir, "never", "never");
  const auto f = scenario(dir, "foot_vs_square", t, k_squares, "hold_and_shoot",
                          "  - {name: Foot, side: infantry, profile: heavy_foot, figures: 4, hex: [6, 2]}\n"
                          "  - {name: Guard, side: cavalry, profile: heavy_foot, figures: 4, hex: [6, 3], formation: square}\n"
                          "  - {name: Lancers, side: infantry, profile: light_cavalry, figures: 3, hex: [6, 5]}\n");
  const ScenarioPtr s = load_scenario_file(f);
  const Players p = make_players(*s);
  int attacks = 0, battle_backs = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    Engagement g(*s, p.bots(), seed);
    Watch w(g);
    g.attach(&w);
    g.play_turn();
    INFO("seed " << seed);
    // The Foot's attack on the square: the first melee event of the turn.
    std::size_t k = 0;
    while (k < w.seen.size() && w.seen[k].e->kind != "melee") ++k;
    REQUIRE(k < w.seen.size());
    const Event& m = *w.seen[k].e;
    INFO(m.text);
    REQUIRE(m.unit == "Foot");
    CHECK(str(m, "defender") == "Guard");
    CHECK(num(m, "dice") == w.seen[k].blocks);  // "normally": a die per block, open ground
    CHECK(num(m, "dice") == 4);
    ++attacks;
    // Then, if the square is still there and not driven off, it battles back with 1 die.
    for (std::size_t j = k + 1; j < w.seen.size(); ++j) {
      const Event& e = *w.seen[j].e;
      if (e.kind == "melee") break;
      if (e.kind == "battle_back") {
        INFO(e.text);
        CHECK(e.unit == "Guard");
        CHECK(w.seen[j].in_square);
        CHECK(num(e, "dice") == 1);
        ++battle_backs;
        break;
      }
    }
  }
  CHECK(attacks == 30);
  CHECK(battle_backs > 5);
}

// Every unit's hex and formation at each event.
class Snapshots final : public Recorder {
 public:
  explicit Snapshots(const Engagement& g) : g_(g) {}
  struct Snap {
    std::string kind, unit, text;
    int turn = 0;
    std::map<std::string, Hex> hex;
    std::map<std::string, bool> square;
    std::map<std::string, long long> dice;  // the event's "dice", if any
  };
  void record(Event e) override {
    Snap s;
    s.kind = e.kind;
    s.unit = e.unit;
    s.text = e.text;
    s.turn = g_.battle().turn();
    for (const auto& u : g_.battle().units())
      if (u.active()) {
        s.hex[u.name] = g_.battle().hex()->hex_of(u.pos);
        s.square[u.name] = u.in_square();
      }
    for (const auto& [k, v] : e.data)
      if (k == "dice" && std::holds_alternative<long long>(v)) s.dice[k] = std::get<long long>(v);
    snaps.push_back(std::move(s));
  }
  std::vector<Snap> snaps;

 private:
  const Engagement& g_;
};

TEST_CASE("engine, seed 004 coming out of square: only with no enemy cavalry adjacent, a change of formation, then it battles normally",
          "[hex][engagement][seed004][004-L90-out-of-square-order][004-L92-battle-normally][004-L93-formation-not-movement]") {
  // Seed 004 L89-L93: "may not be ordered out of square when there is an
  // enemy cavalry unit on any adjacent hex"; "If there are no enemy cavalry
  // units on an adjacent hex, an infantry unit in square may be given an
  // order and come out of square"; "The infantry unit may move and/or battle
  // normally. An infantry unit coming out of square that does not move may
  // conduct ranged combat without any movement battle dice reduction";
  // "Coming out of square is considered changing formation and not movement."
  vtest::TempDir dir;
  const std::string t = table_with(dir, "never", "never");
  for (const bool adjacent : {false, true}) {
    INFO((adjacent ? "cavalry adjacent" : "cavalry two hexes off"));
    const auto f = scenario(dir, adjacent ? "sq_adj" : "sq_far", t, k_squares, "hold_and_shoot",
                            std::string("  - {name: Foot, side: infantry, profile: heavy_foot, figures: 4, hex: [6, 2], formation: square}\n"
                                        "  - {name: Hussars, side: cavalry, profile: light_cavalry, figures: 3, hex: [6, ") +
                                (adjacent ? "3" : "4") + "]}\n");
    const ScenarioPtr s = load_scenario_file(f);
    const Players p = make_players(*s);
    int left = 0, stayed = 0, full_shots_after = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      Engagement g(*s, p.bots(), seed);
      Snapshots w(g);
      g.attach(&w);
      g.play_turn();
      g.play_turn();
      INFO("seed " << seed);
      bool out = false;
      for (const auto& x : w.snaps) {
        INFO(x.text);
        const bool foot_here = x.hex.count("Foot") > 0;
        const bool cavalry_adjacent = foot_here && x.hex.count("Hussars") && hex_distance(x.hex.at("Foot"), x.hex.at("Hussars")) == 1;
        if (x.kind == "stays_in_square") {
          ++stayed;
          CHECK(cavalry_adjacent);  // L89
          CHECK(x.square.at("Foot"));
        }
        if (x.kind == "leaves_square") {
          ++left;
          CHECK_FALSE(cavalry_adjacent);  // L90: only with no enemy cavalry adjacent
          CHECK_FALSE(x.square.at("Foot"));
          // L93: a change of formation, not movement: still on its hex.
          CHECK(x.hex.at("Foot") == HexBoard::from_offset(6, 2));
          out = true;
        }
        if (x.kind == "shoot" && x.unit == "Foot") {
          // In square at most 1 die; out of it, normally: a die per block (L92).
          if (x.square.at("Foot")) {
            CHECK(x.dice.at("dice") <= 1);
          } else {
            ++full_shots_after;
            CHECK(out);
            CHECK(x.dice.at("dice") == 4);
          }
        }
      }
      CHECK((adjacent || out));  // far off, nothing kept it in square
    }
    if (adjacent) {
      CHECK(stayed > 10);
    } else {
      CHECK(left == 20);
      CHECK(full_shots_after > 10);
    }
  }
}

TEST_CASE("engine, seed 004 retire and reform: the infantry may take ground (a switch), a square may not", "[hex][engagement][seed004][004-L11-take-ground][004-L57-no-take-ground]") {
  vtest::TempDir dir;
  std::string t = slurp(table_with(dir, "never", "always"));
  const std::string from = "infantry_takes_ground: false";
  REQUIRE(t.find(from) != std::string::npos);
  const std::string keep = dir.write("keep.yaml", t);
  const std::string take = dir.write("take.yaml", t.replace(t.find(from), from.size(), "infantry_takes_ground: true"));
  for (const bool takes : {false, true}) {
    for (const bool square : {false, true}) {
      INFO("takes ground " << takes << ", in square " << square);
      const auto f = scenario(dir, std::string("tg") + (takes ? "1" : "0") + (square ? "1" : "0"), takes ? take : keep,
                              square ? k_squares : "builtin:default", "hold_and_shoot",
                              std::string("  - {name: Hussars, side: cavalry, profile: light_cavalry, figures: 3, hex: [6, 3]}\n"
                                          "  - {name: Foot, side: infantry, profile: heavy_foot, figures: 4, hex: [6, 2]") +
                                  (square ? ", formation: square" : "") + "}\n");
      const ScenarioPtr s = load_scenario_file(f);
      const Players p = make_players(*s);
      int retired = 0;
      for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        Engagement g(*s, p.bots(), seed);
        EventLog log;
        g.attach(&log);
        g.play_turn();
        if (g.outcome().sides[0].retire_and_reform == 0) continue;
        ++retired;
        const Hex foot = s->hex->hex_of(g.battle().unit(1).pos);
        CHECK(foot == HexBoard::from_offset(6, (takes && !square) ? 3 : 2));
      }
      CHECK(retired > 5);
    }
  }
}

TEST_CASE("engine, seed 004 retire and reform: refused on the own edge, the melee is fought and the cavalry battles back",
          "[hex][engagement][seed004][004-L6-else-normal-melee]") {
  vtest::TempDir dir;
  const std::string t = table_with(dir, "never", "always");
  const auto f = scenario(dir, "noretire", t, "builtin:default", "hold_and_shoot",
                          "  - {name: Hussars, side: cavalry, profile: light_cavalry, figures: 3, hex: [6, 8]}\n"
                          "  - {name: Foot, side: infantry, profile: heavy_foot, figures: 4, hex: [6, 7]}\n");
  const ScenarioPtr s = load_scenario_file(f);
  const Players p = make_players(*s);
  int refused = 0, battle_backs = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    Engagement g(*s, p.bots(), seed);
    Watch w(g);
    g.attach(&w);
    g.play_turn();
    for (const Seen& x : w.seen) {
      INFO("seed " << seed << ": " << x.e->text);
      CHECK(x.e->kind != "retire_and_reform");
      if (x.e->kind == "no_retire") {
        ++refused;
        CHECK(x.e->text.find("no 2-hex retreat toward the own edge") != std::string::npos);
      }
      if (x.e->kind == "battle_back") ++battle_backs;
    }
    CHECK(g.outcome().sides[0].retire_and_reform == 0);
  }
  CHECK(refused == 30);
  CHECK(battle_backs > 0);
}

TEST_CASE("engine, seed 004 combined arms: ordered artillery in range with a clear line of sight adds its dice, else none",
          "[hex][engagement][seed004][004-L108-dice-together]") {
  vtest::TempDir dir;
  const std::string t = table_with(dir, "never", "never");
  const Seed004Ptr rules = load_seed004(t);
  // The battalion melees the hussars beside it; its foot battery stands
  // 3 hexes from the hussars (in range, clear), or 7 (out of range: foot
  // artillery reaches 6), or 3 with a unit in the way.
  struct Case {
    const char* name;
    const char* battery;
    const char* extra;
    bool combines;
  };
  const std::vector<Case> cases{
      {"in_range", "[9, 4]", "", true},
      {"out_of_range", "[12, 0]", "", false},
      {"blocked", "[6, 0]", "", false},  // the battalion itself stands between
  };
  for (const auto& c : cases) {
    INFO(c.name);
    const auto f = scenario(dir, c.name, t, "builtin:default", "hold_and_shoot",
                            "  - {name: Hussars, side: cavalry, profile: light_cavalry, figures: 3, hex: [6, 3]}\n"
                            "  - {name: Foot, side: infantry, profile: heavy_foot, figures: 4, hex: [6, 2]}\n"
                            "  - {name: Battery, side: infantry, profile: heavy_foot, artillery: foot, figures: 3, hex: " +
                                std::string(c.battery) + "}\n" + c.extra);
    const ScenarioPtr s = load_scenario_file(f);
    const Players p = make_players(*s);
    const int range = hex_distance(s->units[2].hex.value(), s->units[0].hex.value());
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      Engagement g(*s, p.bots(), seed);
      Watch w(g);
      g.attach(&w);
      g.play_turn();
      long long added = 0;
      bool melee = false, fired = false;
      for (const Seen& x : w.seen) {
        INFO("seed " << seed << ": " << x.e->text);
        if (x.e->kind == "combined_arms") added = num(*x.e, "dice");
        if (x.e->kind == "shoot" && x.e->unit == "Battery") fired = true;
        if (x.e->kind == "melee" && x.e->unit == "Foot") {
          melee = true;
          CHECK(num(*x.e, "artillery_dice") == added);
          CHECK(num(*x.e, "dice") == 4);
        }
      }
      CHECK(melee);
      if (c.combines) {
        // Seed 004: the artillery's dice by range (the table), declared with the melee; it holds its fire for it.
        CHECK(added == rules->foot_artillery_dice[static_cast<std::size_t>(range - 1)]);
        CHECK(added > 0);
        CHECK_FALSE(fired);
      } else {
        CHECK(added == 0);
      }
    }
  }
}

TEST_CASE("engine, seed 004: block losses, eliminations and counters add up over the shipped hex scenarios", "[hex][engagement]") {
  for (const char* file : {"hex_line_squares.yaml", "hex_line_no_squares.yaml", "hex_horse_artillery.yaml"}) {
    INFO(file);
    const ScenarioPtr s = load_scenario_file(k_src + "/sims/scenarios/" + file);
    const Players p = make_players(*s);
    std::array<int, 2> squares{}, retires{}, combined{};
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      Engagement g(*s, p.bots(), seed);
      EventLog log;
      g.attach(&log);
      g.run();
      const Battle& b = g.battle();
      std::array<int, 2> lost{};
      for (const auto& u : b.units()) {
        CHECK(u.figures >= 0);
        CHECK((u.figures == 0) == u.off_table);
        lost[u.side] += u.lost();
        // One unit per hex, always on the board.
        CHECK(b.board().on_board(u.pos));
      }
      for (std::size_t i = 0; i < b.units().size(); ++i)
        for (std::size_t j = i + 1; j < b.units().size(); ++j)
          if (b.unit(i).active() && b.unit(j).active()) CHECK(b.hex()->hex_of(b.unit(i).pos) != b.hex()->hex_of(b.unit(j).pos));
      for (std::size_t k = 0; k < 2; ++k) {
        CHECK(g.outcome().sides[k].figures_lost == lost[k]);
        squares[k] += g.outcome().sides[k].squares_formed;
        retires[k] += g.outcome().sides[k].retire_and_reform;
      }
      for (const auto& e : log.events) combined[0] += e.kind == "combined_arms";
    }
    const std::string f = file;
    if (f == "hex_line_no_squares.yaml") CHECK(squares[1] == 0);
    else CHECK(squares[1] > 0);
    CHECK(squares[0] == 0);
    if (f == "hex_horse_artillery.yaml") CHECK(combined[0] > 0);
    else CHECK(combined[0] == 0);
    (void)retires;
  }
}

TEST_CASE("engine, a hex board without blocks: the figure rules (seeds 002 and 003) play hex by hex", "[hex][engagement]") {
  // A scenario may put figure units on a hex board and leave out `blocks:`:
  // then the charge, shooting, melee and morale are the tabletop's (figures,
  // horse or rider hits, charge morale), distances and moves are in hexes,
  // contact is adjacency, and units in between block sight (issue 8).
  vtest::TempDir dir;
  const std::string head = "ruleset: builtin:default\nboard: {type: hex, cols: 13, rows: 9, size: 10cm}\n";
  auto tail = [](const std::string& a, const std::string& b) {
    return "turns: 10\nvictory:\n  - {winner: " + b + ", when: {side_losses: " + a + ", at_least: 50}}\n  - {winner: " + a +
           ", when: {side_losses: " + b + ", at_least: 50}}\nat_turn_limit: draw\n";
  };
  // Horse against foot, and horse against horse (counter-charges).
  const std::string foot = dir.write(
      "horse-and-foot.yaml",
      "scenario: horse-and-foot\n" + head + "sides:\n  cavalry: {edge: top, bot: reaction_table}\n  infantry: {edge: bottom, bot: hold_and_shoot}\n"
      "units:\n"
      "  - {name: Cuirassiers, side: cavalry, profile: heavy_cavalry, figures: 12, hex: [6, 5], pace: walk}\n"
      "  - {name: Hussars, side: cavalry, profile: light_cavalry, figures: 9, hex: [8, 5], pace: walk}\n"
      "  - {name: 1st Foot, side: infantry, profile: heavy_foot, figures: 12, hex: [4, 2]}\n"
      "  - {name: 2nd Foot, side: infantry, profile: heavy_foot, figures: 12, hex: [6, 2]}\n" + tail("cavalry", "infantry"));
  const std::string horse = dir.write(
      "horse-and-horse.yaml",
      "scenario: horse-and-horse\n" + head + "sides:\n  red: {edge: top, bot: reaction_table}\n  blue: {edge: bottom, bot: reaction_table}\n"
      "units:\n"
      "  - {name: Cuirassiers, side: red, profile: heavy_cavalry, figures: 12, hex: [6, 6], pace: walk}\n"
      "  - {name: Dragoons, side: blue, profile: heavy_cavalry, figures: 12, hex: [6, 1], pace: walk}\n" + tail("red", "blue"));
  std::map<std::string, int> kinds;
  int horse_or_rider = 0;
  for (const std::string& f : {foot, horse}) {
    const ScenarioPtr s = load_scenario_file(f);
    REQUIRE(s->hex);
    REQUIRE_FALSE(s->blocks);
    const Players p = make_players(*s);
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
      Engagement g(*s, p.bots(), seed);
      EventLog log;
      g.attach(&log);
      g.run();
      const Battle& b = g.battle();
      CHECK(b.blocks() == nullptr);
      for (const auto& e : log.events) {
        ++kinds[e.kind];
        if (e.kind == "shoot") CHECK(num(e, "band") >= 1);  // a weapon band: figure shooting, not seed 004's dice
      }
      for (const auto& u : b.units()) {
        if (!u.active()) continue;
        INFO(f << ", seed " << seed << ": " << u.name << " at " << u.pos.x << ", " << u.pos.y);
        CHECK(b.board().on_board(u.pos));
        CHECK(u.pos == b.hex()->snap(u.pos));  // every move, charges included, ends on a hex centre
      }
      for (std::size_t k = 0; k < 2; ++k) {
        const SideOutcome& so = g.outcome().sides[k];
        horse_or_rider += so.horses_lost + so.riders_lost;
        CHECK(so.squares_formed == 0);
        CHECK(so.retire_and_reform == 0);
      }
    }
  }
  // Seed 003's charges, counter-charges and morale, and seed 002's hits on
  // horse or rider happened ...
  CHECK(kinds["contact"] > 0);
  CHECK(kinds["charge_morale"] > 0);
  CHECK(kinds["meet_halfway"] > 0);
  CHECK(kinds["shoot"] > 0);
  CHECK(horse_or_rider > 0);
  // ... and none of seed 004's block rules did.
  for (const char* k : {"attack", "battle_back", "combined_arms", "square", "retire_and_reform", "leaves_square"}) {
    INFO(k);
    CHECK(kinds[k] == 0);
  }
}

TEST_CASE("engine, seed 004 squares and the hand: not with two or fewer cards, a card per square on the track, back when it ends",
          "[hex][engagement][seed004][004-L94-eliminated-card-returns]") {
  vtest::TempDir dir;
  const std::string t = table_with(dir, "always", "never");
  // square_when_charged also orders squares itself (Move::form_square):
  // over blocks these follow seed 004's rules too.
  const std::string f = dir.write("hand.yaml", "scenario: hand\nruleset: " + k_squares + "\nblocks: " + t +
                                                   "\nboard: {type: hex, cols: 13, rows: 9, size: 10cm}\n"
                                                   "sides:\n  cavalry: {edge: top, bot: reaction_table}\n"
                                                   "  infantry: {edge: bottom, bot: square_when_charged, command_cards: 3}\n"
                                                   "units:\n"
                                                   "  - {name: Cuirassiers, side: cavalry, profile: heavy_cavalry, figures: 4, hex: [6, 5], pace: walk}\n"
                                                   "  - {name: Lancers, side: cavalry, profile: lancers, figures: 4, hex: [4, 5], pace: walk}\n"
                                                   "  - {name: Hussars, side: cavalry, profile: light_cavalry, figures: 3, hex: [8, 5], pace: walk}\n"
                                                   "  - {name: 1st Foot, side: infantry, profile: heavy_foot, figures: 4, hex: [4, 2]}\n"
                                                   "  - {name: 2nd Foot, side: infantry, profile: heavy_foot, figures: 4, hex: [6, 2]}\n"
                                                   "  - {name: 3rd Foot, side: infantry, profile: heavy_foot, figures: 4, hex: [8, 2]}\n"
                                                   "turns: 8\nvictory:\n  - {winner: infantry, when: {side_losses: cavalry, at_least: 100}}\n");
  const ScenarioPtr s = load_scenario_file(f);
  const Players p = make_players(*s);
  int squares = 0, refused = 0;
  for (std::uint64_t seed = 1; seed <= 80; ++seed) {
    Engagement g(*s, p.bots(), seed);
    EventLog log;
    g.attach(&log);
    while (g.play_turn()) {
      const Battle& b = g.battle();
      const CommandHand& h = b.hand(1);
      std::size_t in_square = 0;
      for (const auto& u : b.units()) in_square += u.active() && u.in_square();
      INFO("seed " << seed << " turn " << b.turn());
      CHECK(h.hand.size() + h.square_track.size() == 3);  // every card in the hand or under a square
      CHECK(h.square_track.size() == in_square);
      CHECK(in_square <= 1);  // seed 004: with 2 cards left, no square may form
    }
    squares += g.outcome().sides[1].squares_formed;
    for (const auto& e : log.events)
      refused += e.text.find("two or fewer command cards in hand") != std::string::npos;
  }
  CHECK(squares > 10);
  CHECK(refused > 0);
}

// ------------------------------------------------------------- commands

TEST_CASE("commands: vedette play, sim, compare and sweep run a hex scenario", "[hex][commands]") {
  const std::string sc = k_src + "/sims/scenarios/hex_line_squares.yaml";
  const auto play = vtest::run_vedette({"play", sc, "--seed", "2"});
  REQUIRE(play.status == 0);
  CHECK_THAT(play.out, Catch::Contains("(now on hex ["));
  CHECK_THAT(play.out, Catch::Contains("Outcome:"));
  const auto play_json = vtest::run_vedette({"play", sc, "--seed", "2", "--json"});
  REQUIRE(play_json.status == 0);
  CHECK_NOTHROW(nlohmann::json::parse(play_json.out));

  const auto sim = vtest::run_vedette({"sim", sc, "-n", "400", "--seed", "1", "--json"});
  REQUIRE(sim.status == 0);
  const auto j = nlohmann::json::parse(sim.out);
  CHECK(j.dump().find("squares") != std::string::npos);

  const auto cmp = vtest::run_vedette({"compare", k_src + "/sims/scenarios/hex_line_no_squares.yaml", "--baseline", k_src + "/tables/default.yaml",
                                       "--variant", k_squares, "-n", "2000", "--seed", "1", "--json"});
  REQUIRE(cmp.status == 0);
  const auto c = nlohmann::json::parse(cmp.out);
  std::map<std::string, nlohmann::json> by_id;
  for (const auto& fig : c["figures"]) by_id[fig["id"]] = fig;
  REQUIRE(by_id.count("infantry_squares_formed"));
  CHECK(by_id["infantry_squares_formed"]["baseline"]["mean"] == 0.0);
  CHECK(by_id["infantry_squares_formed"]["variant"]["mean"].get<double>() > 0.0);

  const auto sweep = vtest::run_vedette({"sweep", sc, "--set", "charge.infantry_square.enabled=false,true", "-n", "300", "--seed", "1"});
  REQUIRE(sweep.status == 0);
  // One of the two is the scenario's own value, marked "(current)".
  CHECK_THAT(sweep.out, Catch::Contains("| false"));
  CHECK_THAT(sweep.out, Catch::Contains("| true"));
  CHECK_THAT(sweep.out, Catch::Contains(" (current) |"));
}

TEST_CASE("commands: vedette sim on a hex scenario gives the same results on 1 and 2 threads", "[hex][commands][lab]") {
  for (const char* file : {"hex_line_squares.yaml", "hex_horse_artillery.yaml"}) {
    INFO(file);
    const std::string sc = k_src + "/sims/scenarios/" + file;
    const auto one = vtest::run_vedette({"sim", sc, "-n", "3000", "--seed", "7", "--threads", "1", "--json"});
    const auto two = vtest::run_vedette({"sim", sc, "-n", "3000", "--seed", "7", "--threads", "2", "--json"});
    REQUIRE(one.status == 0);
    REQUIRE(two.status == 0);
    auto a = nlohmann::json::parse(one.out);
    auto b = nlohmann::json::parse(two.out);
    // Everything but the run's own timing and thread count.
    for (auto* x : {&a, &b}) {
      x->erase("threads");
      x->erase("seconds");
      x->erase("elapsed_seconds");
      x->erase("engagements_per_second");
    }
    CHECK(a == b);
  }
}

TEST_CASE("engine, seed 004 combined arms: one or more ordered artillery units combine, each adding its dice",
          "[hex][engagement][seed004][004-L98-one-or-more-batteries]") {
  vtest::TempDir dir;
  const std::string t = table_with(dir, "never", "never");
  const Seed004Ptr rules = load_seed004(t);
  // Two foot batteries, each 3 hexes from the hussars with a clear path.
  const auto f = scenario(dir, "two_batteries", t, "builtin:default", "hold_and_shoot",
                          "  - {name: Hussars, side: cavalry, profile: light_cavalry, figures: 3, hex: [6, 3]}\n"
                          "  - {name: Foot, side: infantry, profile: heavy_foot, figures: 4, hex: [6, 2]}\n"
                          "  - {name: Battery, side: infantry, profile: heavy_foot, artillery: foot, figures: 3, hex: [9, 4]}\n"
                          "  - {name: Battery2, side: infantry, profile: heavy_foot, artillery: foot, figures: 3, hex: [3, 4]}\n");
  const ScenarioPtr s = load_scenario_file(f);
  const Players p = make_players(*s);
  const int r1 = hex_distance(s->units[2].hex.value(), s->units[0].hex.value());
  const int r2 = hex_distance(s->units[3].hex.value(), s->units[0].hex.value());
  const long long want = rules->foot_artillery_dice[static_cast<std::size_t>(r1 - 1)] + rules->foot_artillery_dice[static_cast<std::size_t>(r2 - 1)];
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    Engagement g(*s, p.bots(), seed);
    Watch w(g);
    g.attach(&w);
    g.play_turn();
    long long added = 0;
    int batteries = 0;
    bool melee = false;
    for (const Seen& x : w.seen) {
      INFO("seed " << seed << ": " << x.e->text);
      if (x.e->kind == "combined_arms") {
        added += num(*x.e, "dice");
        ++batteries;
      }
      if (x.e->kind == "melee" && x.e->unit == "Foot") {
        melee = true;
        CHECK(num(*x.e, "artillery_dice") == added);
      }
    }
    CHECK(melee);
    CHECK(batteries == 2);
    CHECK(added == want);
  }
}

TEST_CASE("commands: vedette play hex_line_squares: cavalry never rolls more than 1 die against a square", "[hex][commands][004-L46-cavalry-one-die-play]") {
  // Seed 004: "the French cavalry unit will battle back with 1 die against
  // the British infantry unit in square", and attacks it with 1 die.
  int against_square = 0;
  for (const char* seed : {"1", "2", "3", "4", "5", "6"}) {
    const auto r = vtest::run_vedette({"play", k_src + "/sims/scenarios/hex_line_squares.yaml", "--seed", seed, "--json"});
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    std::set<std::string> squares;
    for (const auto& e : j.at("events")) {
      const std::string kind = e.value("kind", "");
      const std::string text = e.value("text", "");
      if (kind == "square") squares.insert(e.value("unit", ""));
      if (kind == "leaves_square") squares.erase(e.value("unit", ""));
      if (kind == "battle_back" || kind == "melee") {
        for (const auto& sq : squares)
          if (text.find("against " + sq + " ") != std::string::npos || text.find("attacks the square") != std::string::npos) {
            INFO(text);
            CHECK(e.at("dice").get<long long>() <= 1);
            ++against_square;
            break;
          }
      }
    }
  }
  CHECK(against_square > 0);
}
