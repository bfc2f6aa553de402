// Seed 003's cavalry charge (docs/seeds.md): range,
// minimum distance, arc, the defender's 2D6 morale table and modifiers, exact
// odds and a statistical check; loader errors; `vedette charge` as a user runs
// it. The optional rules of seeds 001 (Fear of Charge) and 004 (Infantry
// Square) are checked at the end.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "engine/decision/charge.hpp"
#include "engine/core/doc.hpp"
#include "engine/decision/ruleset.hpp"
#include "helpers.hpp"

namespace t_charge {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

const ChargeRules& rules() { return default_ruleset()->charge; }

ChargeGeometry geo(double move_in, double distance_in, double bearing = 0) {
  return charge_geometry(rules(), Length::in(move_in), Length::in(distance_in), bearing);
}

bool same_length(Length a, Length b) { return std::fabs(a.as_cm() - b.as_cm()) < 1e-9; }

MoraleTarget target_for(DefenderClass d, AttackerWeight a, ChargedOn side = ChargedOn::front, bool both = false,
                        bool pikes = false) {
  return morale_target(rules(), {d, a, side, both, pikes});
}

// The seed's table, copied here as the golden the YAML must reproduce.
// seed 003, cavalry charge: "Defending Unit: Attacking Unit Light / Medium / Heavy"
struct GoldenRow {
  DefenderClass cls;
  DefenderKind kind;
  int light, medium, heavy;
};
const GoldenRow k_golden[] = {
    {DefenderClass::peasants, DefenderKind::foot, 9, 10, 11},      // Peasants
    {DefenderClass::light_foot, DefenderKind::foot, 8, 9, 10},     // Light Foot, Levies
    {DefenderClass::heavy_foot, DefenderKind::foot, 7, 8, 9},      // Heavy Foot
    {DefenderClass::elite_foot, DefenderKind::foot, 6, 7, 8},      // Elite Heavy Foot, Armored Foot
    {DefenderClass::light_horse, DefenderKind::horse, 5, 6, 7},    // Light Horse
    {DefenderClass::medium_horse, DefenderKind::horse, 4, 5, 6},   // Medium Horse
    {DefenderClass::heavy_horse, DefenderKind::horse, 3, 4, 5},    // Heavy Horse
};

int golden_need(const GoldenRow& g, AttackerWeight a) {
  return a == AttackerWeight::light ? g.light : a == AttackerWeight::medium ? g.medium : g.heavy;
}

const AttackerWeight k_weights[] = {AttackerWeight::light, AttackerWeight::medium, AttackerWeight::heavy};

// Ways of 36 that two dice reach `target` or more, counted die by die.
int ways_at_least(int target) {
  int ways = 0;
  for (int a = 1; a <= 6; ++a)
    for (int b = 1; b <= 6; ++b) ways += a + b >= target;
  return ways;
}

// A ruleset file in a temporary folder, removed at the end of the test.
struct TempRuleset {
  std::filesystem::path path;
  explicit TempRuleset(const std::string& name, const std::string& text) {
    path = std::filesystem::temp_directory_path() / ("vedette_test_" + std::to_string(::getpid()) + "_" + name + ".yaml");
    std::ofstream(path) << text;
  }
  ~TempRuleset() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
  TempRuleset(const TempRuleset&) = delete;
  TempRuleset& operator=(const TempRuleset&) = delete;
};

RulesetPtr with_overlay(const std::string& name, const std::string& charge_overlay) {
  TempRuleset t(name, "extends: builtin:default\ncharge:\n" + charge_overlay);
  return load_ruleset(t.path.string());
}

// --------------------------------------------------------------- loader

std::string default_yaml() {
  std::ifstream in(std::string(VEDETTE_SOURCE_DIR) + "/tables/default.yaml");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Replaces `from` (which must occur once) by `to` in the default tables and
// loads only their `charge:` section, returning every diagnostic.
struct Edited {
  std::string text;
  std::vector<Diagnostic> diags;
  ChargeRules rules;
};
Edited load_edited(const std::string& from, const std::string& to) {
  Edited e;
  e.text = default_yaml();
  auto at = e.text.find(from);
  REQUIRE(at != std::string::npos);
  REQUIRE(e.text.find(from, at + 1) == std::string::npos);
  e.text.replace(at, from.size(), to);
  Doc root = parse_yaml(e.text, "edited.yaml");
  const Doc* charge = root.find("charge");
  REQUIRE(charge != nullptr);
  Diagnostics d;
  load_charge_rules(*charge, d, e.rules);
  e.diags = d.list();
  return e;
}

// "edited.yaml:LINE:COL" of the first occurrence of `marker` in `text`,
// moved `skip` characters along its line.
std::string where_of(const std::string& text, const std::string& marker, std::size_t skip = 0) {
  auto at = text.find(marker);
  REQUIRE(at != std::string::npos);
  at += skip;
  int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  auto line_start = text.rfind('\n', at);
  std::size_t col = at - (line_start == std::string::npos ? 0 : line_start + 1) + 1;
  return "edited.yaml:" + std::to_string(line) + ":" + std::to_string(col);
}

bool has_diag(const std::vector<Diagnostic>& ds, const std::string& where, const std::string& words) {
  for (const auto& d : ds) {
    const std::string s = d.str();
    if (s.rfind(where + ": ", 0) == 0 && s.find(words) != std::string::npos) return true;
  }
  return false;
}

std::string all_diags(const std::vector<Diagnostic>& ds) {
  std::string s;
  for (const auto& d : ds) s += d.str() + "\n";
  return s;
}

// ------------------------------------------------------------ commands

struct Run {
  int status = -1;
  std::string out;
};

// Runs the built `vedette` as a user would. stderr joins stdout unless
// `stdout_only`.
Run run_vedette(const std::string& args, bool stdout_only = false) {
  vtest::RunOptions o;
  o.merge_stderr = !stdout_only;
  vtest::RunResult r = vtest::run_vedette(vtest::words(args), o);
  return {r.status, r.out};
}

nlohmann::json vedette_json(const std::string& args) {
  Run r = run_vedette(args + " --json", true);
  INFO(args << "\n" << r.out);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.out);
}

}  // namespace

// =============================================================== geometry

TEST_CASE("charge: range is 1.5x the move, minimum distance half the move or 6in whichever is less", "[charge][003-L42-range-bonus][003-L42-min-distance]") {
  // seed 003, charge range: "a unit with a normal move of 12" could charge a
  // target as far as 18" away"; "a unit with a movement allowance of 6"
  // cannot charge a target that is 3" or less away ...; a unit with a move
  // of 12" or more cannot charge a target that is 6" or less distant".
  struct Case { double move, max, min; };
  for (Case c : {Case{12, 18, 6}, Case{6, 9, 3}, Case{10, 15, 5}, Case{16, 24, 6}, Case{8, 12, 4}}) {
    INFO("move " << c.move << "in");
    auto g = geo(c.move, 1);
    CHECK(same_length(g.max_range, Length::in(c.max)));
    CHECK(same_length(g.min_distance, Length::in(c.min)));
  }
  // Metric moves work the same: 30cm -> 45cm, min(15cm, 6in = 15.24cm) = 15cm.
  auto m = charge_geometry(rules(), Length::cm(30), Length::cm(20), 0);
  CHECK(same_length(m.max_range, Length::cm(45)));
  CHECK(same_length(m.min_distance, Length::cm(15)));
}

TEST_CASE("charge: at both limits -- exactly at the maximum range is in range, exactly at the minimum distance is inside it", "[charge][003-L42-at-the-limit]") {
  // seed 003, charge range: "could charge a target as far as 18" away"; "a
  // unit with a move of 12" or more cannot charge a target that is 6" or
  // less distant". Measures are compared with a tolerance of 1 micrometre
  // (engine/decision/charge.cpp k_length_eps_cm): within it of a limit is on
  // the limit (docs/conformance.md 003-L42-at-the-limit).
  auto at = geo(12, 18);
  CHECK(at.in_range);
  CHECK(at.reaches);
  CHECK(at.charge_bonus);
  CHECK(at.morale_check);
  CHECK_FALSE(at.out_of_reach);
  // 12in x 1.5 and "18in" parsed from text must agree despite rounding.
  auto parsed = charge_geometry(rules(), *parse_length("12in"), *parse_length("18in"), 0);
  CHECK(parsed.in_range);
  auto over = geo(12, 18.01);
  CHECK_FALSE(over.in_range);
  CHECK_FALSE(over.reaches);
  CHECK_FALSE(over.morale_check);
  const Length move = Length::in(12);
  auto g = [&](double mm) { return charge_geometry(rules(), move, Length::cm(mm / 10), 0); };
  // The maximum, 18in = 457.2mm: just inside, exactly on, within the
  // tolerance beyond it, just outside.
  CHECK(g(457.198).in_range);
  CHECK(g(457.2).in_range);
  CHECK(g(457.2009).in_range);  // 0.9 micrometres over: on the limit
  CHECK_FALSE(g(457.202).in_range);
  CHECK_FALSE(g(457.202).reaches);
  CHECK(g(457.202).out_of_reach);
  // The minimum, 6in = 152.4mm: "6" or less" is inside it (no charge
  // bonus, no morale check); just beyond it is a charge.
  for (double mm : {152.398, 152.4, 152.4009}) {
    INFO(mm << "mm");
    CHECK(g(mm).reaches);  // combat still takes place
    CHECK_FALSE(g(mm).charge_bonus);
    CHECK_FALSE(g(mm).morale_check);
  }
  CHECK(g(152.402).charge_bonus);
  CHECK(g(152.402).morale_check);
  // A 6in move: its minimum is half the move, 3in = 76.2mm.
  auto h = [&](double mm) { return charge_geometry(rules(), Length::in(6), Length::cm(mm / 10), 0); };
  CHECK_FALSE(h(76.2).charge_bonus);
  CHECK(h(76.202).charge_bonus);
}

TEST_CASE("charge: out of reach still moves the full 1.5x move and becomes shaken") {
  // seed 003, performing a charge: "his unit must still move forward 1 1/2
  // times its movement allowance - and ... automatically becomes shaken".
  auto g = geo(12, 20);
  CHECK(g.out_of_reach);
  CHECK(same_length(g.forced_move, Length::in(18)));
  CHECK(g.shaken);
  CHECK_FALSE(g.charge_bonus);
  CHECK_FALSE(g.morale_check);  // no contact, no morale check
  auto ok = geo(12, 10);
  CHECK_FALSE(ok.out_of_reach);
  CHECK_FALSE(ok.shaken);
}

TEST_CASE("charge: the target must lie within 45 degrees either side of the facing") {
  // seed 003, charge range: "extending 45 degrees to either side of the
  // direction the charging unit is facing".
  CHECK(geo(12, 10, 0).in_arc);
  CHECK(geo(12, 10, 45).in_arc);
  CHECK(geo(12, 10, -45).in_arc);
  CHECK_FALSE(geo(12, 10, 46).in_arc);
  CHECK_FALSE(geo(12, 10, -46).in_arc);
  CHECK_FALSE(geo(12, 10, 180).in_arc);
  CHECK(geo(12, 10, 360 + 30).in_arc);   // bearings wrap
  CHECK(geo(12, 10, 315).in_arc);        // = -45
  // Outside the arc is outside the charge range: it fails like a short charge.
  auto g = geo(12, 10, 46);
  CHECK(g.in_range);
  CHECK_FALSE(g.reaches);
  CHECK(g.out_of_reach);
  CHECK(g.shaken);
  CHECK_FALSE(g.morale_check);
}

TEST_CASE("charge: contact inside the minimum distance gets no charge bonus", "[charge][003-L42-inside-min-no-bonus]") {
  // seed 003, charge range: "If a charging unit contacts an enemy unit before
  // moving this minimum distance, combat still takes place - but the
  // attacking unit receives none of the combat benefits for charging."
  CHECK_FALSE(geo(12, 5).charge_bonus);
  CHECK_FALSE(geo(12, 6).charge_bonus);   // "6" or less distant"
  CHECK(geo(12, 6.1).charge_bonus);
  CHECK_FALSE(geo(6, 3).charge_bonus);    // "3" or less away"
  CHECK(geo(6, 3.5).charge_bonus);
  CHECK_FALSE(geo(12, 0).charge_bonus);   // already touching
  auto g = geo(12, 5);
  CHECK(g.reaches);  // combat still takes place
  CHECK_FALSE(g.out_of_reach);
  // Switch check_inside_min_distance (default false): no morale check for
  // a contact that is not a charge...
  CHECK_FALSE(g.morale_check);
  // ...unless the players agree it still calls for one.
  auto on = with_overlay("inside_min", "  morale:\n    check_inside_min_distance: true\n");
  auto g2 = charge_geometry(on->charge, Length::in(12), Length::in(5), 0);
  CHECK(g2.morale_check);
  CHECK_FALSE(g2.charge_bonus);
}

TEST_CASE("charge: the other seed 003 numbers are data") {
  // seed 003: "up to a maximum of a 45 deg. curve"; "this preliminary
  // manoeuvring can involve no more than 3""; "For every charge declaration,
  // the owning player receives a -2 modifier to his die roll for determining
  // initiative"; an undeclared opportunity charge's check at -2.
  const auto& r = rules();
  CHECK(r.max_curve_degrees == 45);
  CHECK(same_length(r.preliminary_manoeuvre, Length::in(3)));
  CHECK(r.declare_initiative_modifier == -2);
  CHECK(r.opportunity_undeclared_modifier == -2);
  // seed 003, cavalry charge: "retreat 1 1/2 moves, backs to the enemy, and must rally".
  CHECK(r.failure_backs_to_enemy);
  CHECK(r.failure_must_rally);
  CHECK(same_length(morale_retreat(r, Length::in(6)), Length::in(9)));
  CHECK(same_length(morale_retreat(r, Length::in(12)), Length::in(18)));
  // The optional rules are off unless a ruleset switches them on.
  CHECK_FALSE(r.fear_of_charge.enabled);
  CHECK_FALSE(r.infantry_square.enabled);
}

// ================================================================= morale

TEST_CASE("charge morale: every cell of the table", "[charge][003-L10-peasants-vs-light][003-L10-peasants-vs-medium][003-L10-peasants-vs-heavy][003-L11-light-foot-vs-light][003-L11-light-foot-vs-medium][003-L11-light-foot-vs-heavy][003-L12-heavy-foot-vs-light][003-L12-heavy-foot-vs-medium][003-L12-heavy-foot-vs-heavy][003-L13-elite-foot-vs-light][003-L13-elite-foot-vs-medium][003-L13-elite-foot-vs-heavy][003-L14-light-horse-vs-light][003-L14-light-horse-vs-medium][003-L14-light-horse-vs-heavy][003-L15-medium-horse-vs-light][003-L15-medium-horse-vs-medium][003-L15-medium-horse-vs-heavy][003-L16-heavy-horse-vs-light][003-L16-heavy-horse-vs-medium][003-L16-heavy-horse-vs-heavy][003-L9-table-columns]") {
  // seed 003, cavalry charge: the defending unit's table, 2D6 at least the number.
  for (const auto& g : k_golden) {
    CHECK(rules().kind(g.cls) == g.kind);
    for (AttackerWeight a : k_weights) {
      INFO(k_defender_class_names[static_cast<std::size_t>(g.cls)] << " vs " << k_attacker_weight_names[static_cast<std::size_t>(a)]);
      auto t = target_for(g.cls, a);
      CHECK(t.table == golden_need(g, a));
      CHECK(t.modifier == 0);
      CHECK(t.target == golden_need(g, a));
      CHECK_FALSE(t.automatic);
      CHECK(stand_ways(rules(), t) == ways_at_least(golden_need(g, a)));
    }
  }
  CHECK(rules().row(DefenderClass::light_foot).text == "Light Foot, Levies");
  CHECK(rules().row(DefenderClass::elite_foot).text == "Elite Heavy Foot, Armored Foot");
}

TEST_CASE("charge morale: flank deducts 1 and rear 2 from the dice score") {
  // seed 003: "Units charged in the flank deduct 1 from the dice score;
  // units charged in the rear deduct 2 from the dice score." A -1 on the
  // score means the dice must show one MORE.
  for (const auto& g : k_golden)
    for (AttackerWeight a : k_weights) {
      const int need = golden_need(g, a);
      auto flank = target_for(g.cls, a, ChargedOn::flank);
      auto rear = target_for(g.cls, a, ChargedOn::rear);
      CHECK(flank.modifier == -1);
      CHECK(flank.target == need + 1);
      CHECK(rear.modifier == -2);
      CHECK(rear.target == need + 2);
      CHECK(stand_ways(rules(), flank) == ways_at_least(need + 1));
      CHECK(stand_ways(rules(), rear) == ways_at_least(need + 2));
    }
  // Heavy Foot vs medium cavalry: 8+ (15/36); in the flank 9+ (10/36); rear 10+ (6/36).
  CHECK(p_stand(rules(), target_for(DefenderClass::heavy_foot, AttackerWeight::medium, ChargedOn::flank)) == Fraction(10, 36));
  CHECK(p_stand(rules(), target_for(DefenderClass::heavy_foot, AttackerWeight::medium, ChargedOn::rear)) == Fraction(6, 36));
  // Peasants charged in the rear by heavy cavalry need 13: no natural result
  // saves them (switch natural_stand is empty by default).
  auto hopeless = target_for(DefenderClass::peasants, AttackerWeight::heavy, ChargedOn::rear);
  CHECK(hopeless.target == 13);
  CHECK(p_stand(rules(), hopeless) == Fraction(0));
}

TEST_CASE("charge morale: both charging adds 1 for Foot and 2 for Horse", "[charge][003-L7-both-bonus]") {
  // seed 003: "If both units are charging, both must check morale, adding 1
  // to the dice score if Foot, and two to the dice score if Horse."
  for (const auto& g : k_golden)
    for (AttackerWeight a : k_weights) {
      auto t = target_for(g.cls, a, ChargedOn::front, true);
      const int bonus = g.kind == DefenderKind::foot ? 1 : 2;
      CHECK(t.both_charging == bonus);
      CHECK(t.target == golden_need(g, a) - bonus);
    }
  // Heavy Foot vs medium: 8+ becomes 7+ (21/36 = 7/12).
  auto foot = target_for(DefenderClass::heavy_foot, AttackerWeight::medium, ChargedOn::front, true);
  CHECK(foot.target == 7);
  CHECK(p_stand(rules(), foot) == Fraction(7, 12));
  // Heavy Horse vs heavy: 5+ becomes 3+ (35/36).
  auto horse = target_for(DefenderClass::heavy_horse, AttackerWeight::heavy, ChargedOn::front, true);
  CHECK(horse.target == 3);
  CHECK(p_stand(rules(), horse) == Fraction(35, 36));
  // Modifiers add up: flank -1 and both charging +1 cancel for Foot.
  auto both = target_for(DefenderClass::light_foot, AttackerWeight::light, ChargedOn::flank, true);
  CHECK(both.modifier == 0);
  CHECK(both.target == 8);
}

TEST_CASE("charge morale: pikes facing the enemy stand automatically") {
  // seed 003: "Swiss and Landsknechte armed with pikes or pole arms facing
  // the enemy automatically stand any charges."
  auto t = target_for(DefenderClass::peasants, AttackerWeight::heavy, ChargedOn::front, false, true);
  CHECK(t.automatic);
  CHECK(p_stand(rules(), t) == Fraction(1));
  for (int total = 2; total <= 12; ++total) CHECK(stands_on(rules(), t, total));
  Rng rng = make_stream(1, 0, Subsystem::morale);
  Dice dice(rng);
  auto m = resolve_morale(rules(), t, dice);
  CHECK(m.automatic);
  CHECK(m.stands);
  CHECK(dice.rolled() == 0);  // nothing to roll
  // Without the pikes the same unit checks as usual.
  CHECK_FALSE(target_for(DefenderClass::peasants, AttackerWeight::heavy).automatic);
  // A ruleset that switches the pike rule off.
  auto off = with_overlay("pikes_off", "  morale:\n    pikes_facing_stand: false\n");
  auto t2 = morale_target(off->charge, {DefenderClass::heavy_foot, AttackerWeight::heavy, ChargedOn::front, false, true});
  CHECK_FALSE(t2.automatic);
  CHECK(t2.target == 9);
}

TEST_CASE("charge morale: exact p_stand enumerated over the 36 outcomes of 2D6") {
  // seed 003, cavalry charge: stand on a 2D6 score of at least the number.
  const auto& r = rules();
  for (int target = 0; target <= 14; ++target) {
    MoraleTarget t;
    t.table = target;
    t.target = target;
    int stand = 0;
    for (int a = 1; a <= 6; ++a)
      for (int b = 1; b <= 6; ++b) {
        bool s = stands_on(r, t, a + b);
        CHECK(s == (a + b >= target));
        CHECK(resolve_morale(r, t, a, b).stands == s);
        stand += s;
      }
    CHECK(stand_ways(r, t) == stand);
    CHECK(p_stand(r, t) == Fraction(stand, 36));
    // The listed outcomes carry the same odds.
    auto outs = morale_outcomes(r, t);
    int all = 0, listed = 0;
    Fraction sum;
    for (const auto& o : outs) {
      all += o.ways;
      if (o.stands) listed += o.ways;
      sum = sum + o.probability();
    }
    CHECK(all == 36);
    CHECK(sum == Fraction(1));
    CHECK(listed == stand);
  }
  auto exact = [&](int target) {
    MoraleTarget t;
    t.target = target;
    return p_stand(r, t);
  };
  CHECK(exact(7) == Fraction(7, 12));   // 21/36
  CHECK(exact(8) == Fraction(5, 12));   // 15/36
  CHECK(exact(9) == Fraction(5, 18));   // 10/36
  CHECK(exact(11) == Fraction(1, 12));  // 3/36
  CHECK(exact(12) == Fraction(1, 36));
  CHECK(exact(2) == Fraction(1));
  CHECK(exact(13) == Fraction(0));
  CHECK(exact(3) == Fraction(35, 36));
}

TEST_CASE("charge morale: natural-result switches") {
  // The seed gives no automatic results (default: none). A house rule may
  // make a natural 12 always stand and a natural 2 always fail.
  auto house = with_overlay("naturals", "  morale:\n    natural_stand: [12]\n    natural_fail: [2]\n");
  const auto& r = house->charge;
  auto hopeless = morale_target(r, {DefenderClass::peasants, AttackerWeight::heavy, ChargedOn::rear, false, false});
  CHECK(hopeless.target == 13);
  CHECK(p_stand(r, hopeless) == Fraction(1, 36));
  CHECK(resolve_morale(r, hopeless, 6, 6).stands);
  CHECK_FALSE(resolve_morale(r, hopeless, 6, 5).stands);
  auto easy = morale_target(r, {DefenderClass::heavy_horse, AttackerWeight::light, ChargedOn::front, true, false});
  CHECK(easy.target == 1);
  CHECK(p_stand(r, easy) == Fraction(35, 36));
  CHECK_FALSE(resolve_morale(r, easy, 1, 1).stands);
  // With the default (no naturals) the same rolls follow the number.
  auto def_easy = target_for(DefenderClass::heavy_horse, AttackerWeight::light, ChargedOn::front, true);
  CHECK(resolve_morale(rules(), def_easy, 1, 1).stands);
}

TEST_CASE("charge morale: resolving with given dice") {
  // seed 003, cavalry charge: Heavy Foot vs medium cavalry stands on 8+.
  auto t = target_for(DefenderClass::heavy_foot, AttackerWeight::medium);
  auto fail = resolve_morale(rules(), t, 3, 4);
  CHECK(fail.total == 7);
  CHECK_FALSE(fail.stands);
  CHECK(fail.dice == std::array<int, 2>{3, 4});
  auto pass = resolve_morale(rules(), t, 4, 4);
  CHECK(pass.total == 8);
  CHECK(pass.stands);
  CHECK_THROWS_AS(resolve_morale(rules(), t, 0, 4), std::out_of_range);
  CHECK_THROWS_AS(resolve_morale(rules(), t, 3, 7), std::out_of_range);
}

TEST_CASE("charge morale: 200,000 simulated checks agree with the exact p_stand") {
  // seed 003, cavalry charge: the rolled check samples the same rule the
  // exact odds count. Fixed seed; tolerance 4 standard errors.
  struct Case { DefenderClass d; AttackerWeight a; ChargedOn side; bool both; };
  const Case cases[] = {
      {DefenderClass::heavy_foot, AttackerWeight::medium, ChargedOn::front, false},  // 8+: 5/12
      {DefenderClass::peasants, AttackerWeight::light, ChargedOn::flank, false},     // 10+: 1/6
      {DefenderClass::light_horse, AttackerWeight::heavy, ChargedOn::front, true},   // 5+: 5/6
  };
  std::uint64_t index = 0;
  for (const auto& c : cases) {
    auto t = target_for(c.d, c.a, c.side, c.both);
    const double p = p_stand(rules(), t).value();
    Rng rng = make_stream(20240603, index++, Subsystem::morale);
    Dice dice(rng);
    const int n = 200000;
    int stood = 0;
    for (int i = 0; i < n; ++i) stood += resolve_morale(rules(), t, dice).stands;
    CHECK(dice.rolled() == 2u * n);
    const double se = std::sqrt(p * (1 - p) / n);
    const double got = static_cast<double>(stood) / n;
    INFO("target " << t.target << ": exact " << p << ", simulated " << got << ", se " << se);
    CHECK(std::fabs(got - p) <= 4 * se);
  }
}

// ================================================================= loader

TEST_CASE("charge loader: the default section loads clean") {
  Edited e = load_edited("pikes_facing_stand: true", "pikes_facing_stand: true");
  INFO(all_diags(e.diags));
  CHECK(e.diags.empty());
  CHECK(e.rules.range_factor == 1.5);
  CHECK(e.rules.min_distance_fraction == 0.5);
  CHECK(same_length(e.rules.min_distance_cap, Length::in(6)));
  CHECK(e.rules.arc_degrees == 45);
}

TEST_CASE("charge loader: an unknown defender class is a located error") {
  Edited e = load_edited("      peasants:     {text: Peasants,",
                         "      militia: {text: Militia, kind: foot, need: [8, 9, 10]}\n"
                         "      peasants:     {text: Peasants,");
  INFO(all_diags(e.diags));
  CHECK(has_diag(e.diags, where_of(e.text, "militia:"), "unknown defender class 'militia'"));
  // A near miss gets a suggestion.
  Edited typo = load_edited("      heavy_horse:  {", "      heavy_hors:  {");
  INFO(all_diags(typo.diags));
  CHECK(has_diag(typo.diags, where_of(typo.text, "heavy_hors:"), "did you mean 'heavy_horse'"));
  // ...and the real class is then missing.
  bool missing = false;
  for (const auto& d : typo.diags) missing |= d.message.find("missing defender class 'heavy_horse'") != std::string::npos;
  CHECK(missing);
}

TEST_CASE("charge loader: a missing cell is a located error") {
  Edited e = load_edited("need: [7,  8,  9]", "need: [7,  ~,  9]");
  INFO(all_diags(e.diags));
  CHECK(has_diag(e.diags, where_of(e.text, "need: [7,  ~", 11), "charge.morale.table.heavy_foot.need (vs medium cavalry), found nothing"));
  Edited bad = load_edited("need: [5,  6,  7]", "need: [5,  six,  7]");
  INFO(all_diags(bad.diags));
  CHECK(has_diag(bad.diags, where_of(bad.text, "need: [5,  six", 11), "expected a whole number from 2 to 12"));
  Edited none = load_edited("kind: horse, need: [4,  5,  6]}", "kind: horse}");
  INFO(all_diags(none.diags));
  CHECK(has_diag(none.diags, where_of(none.text, "{text: Medium Horse"), "missing key 'need' in charge.morale.table.medium_horse"));
}

TEST_CASE("charge loader: a table row of the wrong length is a located error") {
  Edited e = load_edited("need: [8,  9, 10]", "need: [8,  9]");
  INFO(all_diags(e.diags));
  CHECK(has_diag(e.diags, where_of(e.text, "need: [8,  9]", 6), "expected exactly 3 numbers in charge.morale.table.light_foot.need"));
  Edited four = load_edited("need: [3,  4,  5]", "need: [3,  4,  5, 6]");
  CHECK(has_diag(four.diags, where_of(four.text, "need: [3,  4,  5, 6]", 6), "found 4"));
}

TEST_CASE("charge loader: other bad values are located, all reported at once") {
  Edited e = load_edited("    factor: 1.5 ", "    factr: 1.5 ");
  INFO(all_diags(e.diags));
  CHECK(has_diag(e.diags, where_of(e.text, "factr"), "unknown key 'factr' in charge.range, did you mean 'factor'?"));
  bool missing = false;
  for (const auto& d : e.diags) missing |= d.message == "missing key 'factor' in charge.range";
  CHECK(missing);

  Edited cap = load_edited("min_distance_cap: 6in", "min_distance_cap: 6");
  CHECK(has_diag(cap.diags, where_of(cap.text, "min_distance_cap: 6", 18), "a length with its unit"));

  Edited kind = load_edited("kind: horse, need: [5,", "kind: hoss, need: [5,");
  CHECK(has_diag(kind.diags, where_of(kind.text, "hoss"), "did you mean 'horse'"));

  Edited nat = load_edited("natural_fail: []", "natural_fail: [2, 2, 13]");
  INFO(all_diags(nat.diags));
  CHECK(nat.diags.size() == 2);  // the duplicate 2 and the impossible 13, both
  CHECK(has_diag(nat.diags, where_of(nat.text, "natural_fail: [2, 2, 13]", 21), "from 2 to 12"));
}

TEST_CASE("charge loader: a bad overlay file names the file, line and column") {
  // tests/data/charge_bad.yaml: line 7 'militia', line 8 a two-number row.
  const std::string path = std::string(VEDETTE_TEST_DATA) + "/charge_bad.yaml";
  try {
    load_ruleset(path);
    FAIL("expected a LoadError");
  } catch (const LoadError& e) {
    std::string all = e.what();
    INFO(all);
    CHECK(all.find(path + ":7:7: unknown defender class 'militia'") != std::string::npos);
    CHECK(all.find(path + ":8:26: expected exactly 3 numbers in charge.morale.table.heavy_foot.need") != std::string::npos);
  }
  Run r = run_vedette("charge --move 12in --distance 9in --attacker heavy --defender peasants --ruleset " + path);
  CHECK(r.status == 2);
  CHECK(r.out.find(path + ":7:7:") != std::string::npos);
}

// =============================================================== command

TEST_CASE("charge command: JSON carries the range, the number and the exact chance") {
  // seed 003: 12in move charges 18in, minimum 6in; Heavy Foot vs medium 8+.
  auto j = vedette_json("charge --move 12in --distance 15in --attacker medium --defender heavy-foot --roll 3 5");
  CHECK(j["in_range"] == true);
  CHECK(j["in_arc"] == true);
  CHECK(j["charge_bonus"] == true);
  CHECK(j["max_range"] == "18in");
  CHECK(j["min_distance"] == "6in");
  CHECK(j["target_number"] == 8);
  CHECK(j["p_stand_fraction"] == "5/12");
  CHECK(std::fabs(j["p_stand"].get<double>() - 5.0 / 12) < 1e-12);
  CHECK(j["roll"] == nlohmann::json::array({3, 5}));
  CHECK(j["stands"] == true);
  CHECK(j["morale_check"] == true);

  // Flank: needs 9+; a 7 fails; the retreat distance from --defender-move.
  auto f = vedette_json("charge --move 12in --distance 15in --attacker medium --defender heavy-foot --flank --roll 3 4 --defender-move 6in");
  CHECK(f["target_number"] == 9);
  CHECK(f["stands"] == false);
  CHECK(f["failure"]["retreat_distance"] == "9in");
  CHECK(f["failure"]["backs_to_enemy"] == true);
  CHECK(f["failure"]["must_rally"] == true);

  // Metric and min distance: 10in move -> min 5in; a 4in contact, no bonus, no check.
  auto m = vedette_json("charge --move 10in --distance 4in --attacker light --defender peasants");
  CHECK(m["min_distance"] == "5in");
  CHECK(m["charge_bonus"] == false);
  CHECK(m["morale_check"] == false);
  CHECK_FALSE(m.contains("stands"));
  CHECK_FALSE(m.contains("roll"));

  // Pikes: automatic, no dice.
  auto p = vedette_json("charge --move 12in --distance 10in --attacker heavy --defender heavy-foot --pikes-facing");
  CHECK(p["automatic"] == true);
  CHECK(p["stands"] == true);
  CHECK(p["p_stand_fraction"] == "1");
  CHECK_FALSE(p.contains("roll"));
}

TEST_CASE("charge command: at both limits, as the player measures them (seed 003 L42)", "[charge][commands][003-L42-at-the-limit]") {
  // `vedette charge`: a 12in move, minimum distance 6in (152.4mm), range
  // 18in (457.2mm) to the far edge of the nearest figure's base (peasants:
  // the ruleset's 20mm infantry base). Within 1 micrometre of a limit is on
  // it (docs/conformance.md 003-L42-at-the-limit).
  auto at = [](const std::string& mm) {
    return vedette_json("charge --move 12in --distance " + mm + "mm --attacker heavy --defender peasants --roll 6 6");
  };
  for (const char* mm : {"152.398", "152.4", "152.4009"}) {
    INFO(mm);
    auto j = at(mm);
    CHECK(j["reaches"] == true);
    CHECK(j["charge_bonus"] == false);  // "6" or less": no charge
    CHECK(j["morale_check"] == false);
  }
  auto beyond = at("152.402");
  CHECK(beyond["charge_bonus"] == true);
  CHECK(beyond["morale_check"] == true);
  for (const char* mm : {"437.198", "437.2", "437.2009"}) {
    INFO(mm);
    auto j = at(mm);
    CHECK(j["in_range"] == true);
    CHECK(j["reaches"] == true);
  }
  auto out = at("437.202");
  CHECK(out["in_range"] == false);
  CHECK(out["morale_check"] == false);
}

TEST_CASE("charge command: a charge that does not reach causes no morale check") {
  // seed 003, performing a charge: out of range -> full 1.5x move, shaken.
  auto j = vedette_json("charge --move 12in --distance 19in --attacker heavy --defender peasants --seed 7");
  CHECK(j["in_range"] == false);
  CHECK(j["reaches"] == false);
  CHECK(j["morale_check"] == false);
  CHECK(j["out_of_reach"]["forced_move"] == "18in");
  CHECK(j["out_of_reach"]["shaken"] == true);
  CHECK_FALSE(j.contains("stands"));
  CHECK_FALSE(j.contains("roll"));
  CHECK(j["target_number"] == 11);  // what it would have needed, for planning
  Run t = run_vedette("charge --move 12in --distance 19in --attacker heavy --defender peasants");
  CHECK(t.status == 0);
  CHECK(t.out.find("No morale check") != std::string::npos);
  CHECK(t.out.find("shaken") != std::string::npos);
  CHECK(t.out.find("Roll:") == std::string::npos);
  // Bearing 46: outside the arc, same consequence.
  auto a = vedette_json("charge --move 12in --distance 10in --bearing 46 --attacker heavy --defender peasants");
  CHECK(a["in_range"] == true);
  CHECK(a["in_arc"] == false);
  CHECK(a["reaches"] == false);
  auto a45 = vedette_json("charge --move 12in --distance 10in --bearing -45 --attacker heavy --defender peasants --roll 6 6");
  CHECK(a45["in_arc"] == true);
  CHECK(a45["stands"] == true);
}

// Seed 003 L40 as the player measures it: --distance is to the near edge of
// the target's nearest figure, whose base (the ruleset's infantry base is
// 20mm deep, cavalry 50mm) must lie entirely within range; --bearing is to
// the part of the target nearest the facing line, so a target partly inside
// the 45-degree arc may be charged.
TEST_CASE("charge command: in range means the nearest figure's base entirely within range (seed 003, charge range)",
          "[charge][003-L40-figure-in-range]") {
  // 12in move: 18in range. Foot 17in away: far edge 17in + 2cm = 17.79in, in.
  auto in = vedette_json("charge --move 12in --distance 17in --attacker medium --defender heavy-foot --roll 6 6");
  CHECK(in["in_range"] == true);
  CHECK(in["target_base"] == "0.79in");  // 20mm
  // 17.5in: its base reaches 18.29in, not entirely within 18in.
  auto out = vedette_json("charge --move 12in --distance 17.5in --attacker medium --defender heavy-foot");
  CHECK(out["in_range"] == false);
  CHECK(out["reaches"] == false);
  // Horse have deeper bases (50mm): 16.5in + 1.97in is out, 16in in.
  CHECK(vedette_json("charge --move 12in --distance 16.5in --attacker medium --defender light-horse")["in_range"] == false);
  CHECK(vedette_json("charge --move 12in --distance 16in --attacker medium --defender light-horse --roll 6 6")["in_range"] == true);
  Run t = run_vedette("charge --move 12in --distance 17.5in --attacker medium --defender heavy-foot");
  INFO(t.out);
  CHECK(t.status == 0);
  CHECK(t.out.find("The base of the target's nearest figure reaches to") != std::string::npos);
}

TEST_CASE("charge command: a target partly inside the arc may be charged (seed 003, charge range)",
          "[charge][003-L40-partial-arc]") {
  // The bearing is to the target's nearest part: 45 is in, 46 out.
  CHECK(vedette_json("charge --move 12in --distance 10in --bearing 45 --attacker heavy --defender peasants --roll 6 6")["in_arc"] == true);
  CHECK(vedette_json("charge --move 12in --distance 10in --bearing -46 --attacker heavy --defender peasants")["in_arc"] == false);
  Run h = run_vedette("charge --help");
  CHECK(h.out.find("nearest part of the target") != std::string::npos);
  CHECK(h.out.find("near edge of the target's nearest figure") != std::string::npos);
}

TEST_CASE("charge command: text shows the chance before the roll, then what to do") {
  Run r = run_vedette("charge --move 12in --distance 15in --attacker medium --defender heavy-foot --roll 3 4 --defender-move 6in");
  INFO(r.out);
  REQUIRE(r.status == 0);
  auto chance = r.out.find("needs 8+ on 2D6 to stand: 15/36 = 41.7%");
  if (chance == std::string::npos) chance = r.out.find("Needs 8+ on 2D6 to stand: 15/36 = 41.7%");
  auto roll = r.out.find("Roll: 3 + 4 = 7");
  REQUIRE(chance != std::string::npos);
  REQUIRE(roll != std::string::npos);
  CHECK(chance < roll);
  CHECK(r.out.find("18in") != std::string::npos);
  CHECK(r.out.find("Charge bonus: yes") != std::string::npos);
  CHECK(r.out.find("FAILS") != std::string::npos);
  CHECK(r.out.find("(9in)") != std::string::npos);
  CHECK(r.out.find("backs to the enemy") != std::string::npos);
  CHECK(r.out.find("must rally") != std::string::npos);
}

TEST_CASE("charge command: an unseeded roll prints its seed, and the seed repeats it") {
  Run r = run_vedette("charge --move 12in --distance 15in --attacker light --defender light-horse");
  REQUIRE(r.status == 0);
  auto at = r.out.find("--seed ");
  REQUIRE(at != std::string::npos);
  std::string seed = r.out.substr(at + 7, r.out.find(' ', at + 7) - at - 7);
  auto first = vedette_json("charge --move 12in --distance 15in --attacker light --defender light-horse --seed " + seed);
  auto again = vedette_json("charge --move 12in --distance 15in --attacker light --defender light-horse --seed " + seed);
  CHECK(first["roll"] == again["roll"]);
  CHECK(std::to_string(first["seed"].get<std::uint64_t>()) == seed);
  auto roll_at = r.out.find("Roll: ");
  REQUIRE(roll_at != std::string::npos);
  CHECK(r.out.substr(roll_at + 6, 5) ==
        std::to_string(first["roll"][0].get<int>()) + " + " + std::to_string(first["roll"][1].get<int>()));
}

TEST_CASE("charge command: bad input exits 2 with a message") {
  struct Bad { std::string args, says; };
  const Bad bad[] = {
      {"--move 12 --distance 9in --attacker heavy --defender peasants", "--move: expected a length with its unit"},
      {"--move 12in --distance 9 --attacker heavy --defender peasants", "--distance: expected a length with its unit"},
      {"--move 12in --distance=-3in --attacker heavy --defender peasants", "cannot be negative"},
      {"--move 0in --distance 3in --attacker heavy --defender peasants", "more than zero"},
      {"--move 12in --distance 9in --attacker heavy --defender peasants --flank --rear", "excludes"},
      {"--move 12in --distance 9in --attacker heavy --defender militia", "--defender: unknown 'militia'"},
      {"--move 12in --distance 9in --attacker heavy --defender light-fot", "did you mean 'light-foot'"},
      {"--move 12in --distance 9in --attacker huge --defender peasants", "--attacker: unknown 'huge'"},
      {"--move 12in --distance 9in --attacker heavy --defender peasants --roll 3 7", "--roll"},
      {"--move 12in --distance 9in --attacker heavy --defender peasants --roll 3", "--roll"},
      {"--move 12in --distance 9in --attacker heavy --defender peasants --roll 3 3 --seed 1", "excludes"},
      {"--move 12in --distance 9in --attacker heavy --defender light-horse --pikes-facing", "only foot carry pikes"},
      {"--move 12in --distance 9in --attacker heavy --defender heavy-foot --pikes-facing --rear", "--pikes-facing with --rear"},
      {"--distance 9in --attacker heavy --defender peasants", "--move"},
  };
  for (const auto& b : bad) {
    Run r = run_vedette("charge " + b.args);
    INFO(b.args << "\n" << r.out);
    CHECK(r.status == 2);
    CHECK(r.out.find(b.says) != std::string::npos);
  }
  // Underscores name the same class as hyphens.
  CHECK(run_vedette("charge --move 12in --distance 9in --attacker heavy --defender light_foot --roll 1 1").status == 0);
}

// ====================================================== optional rules

TEST_CASE("charge optional: Fear of Charge (seed 001) when switched on") {
  // seed 001: "If mounted troops move six or more inches to get to close
  // combat it is considered a charge. When charging cavalry comes within four
  // inches of infantry the infantry must take a gut check unless they are in
  // +5 cover".
  CHECK_FALSE(fear_of_charge_applies(rules(), Length::in(10), Length::in(2), 0));  // off by default
  auto on = load_ruleset(std::string(VEDETTE_TEST_DATA) + "/charge_optional_on.yaml");
  const auto& r = on->charge;
  CHECK(fear_of_charge_applies(r, Length::in(6), Length::in(4), 0));
  CHECK_FALSE(fear_of_charge_applies(r, Length::in(5.9), Length::in(4), 0));   // not a charge
  CHECK_FALSE(fear_of_charge_applies(r, Length::in(8), Length::in(4.1), 0));   // too far
  CHECK_FALSE(fear_of_charge_applies(r, Length::in(8), Length::in(1), 5));     // +5 cover
  CHECK(fear_of_charge_applies(r, Length::in(8), Length::in(1), 4));
  CHECK(same_length(r.fear_of_charge.flee_distance, Length::in(4)));
  // The gut check's numbers are the example values in the YAML (2D6, 7+).
  CHECK(p_gut_check_pass(r) == Fraction(7, 12));
  auto d6 = with_overlay("gut_d6", "  fear_of_charge:\n    gut_check: {dice: D6, pass: at_most, target: 4}\n");
  CHECK(p_gut_check_pass(d6->charge) == Fraction(2, 3));
  Rng rng = make_stream(3, 0, Subsystem::morale);
  Dice dice(rng);
  for (int i = 0; i < 100; ++i) {
    auto g = resolve_gut_check(d6->charge, dice);
    CHECK(g.total >= 1);
    CHECK(g.total <= 6);
    CHECK(g.passes == (g.total <= 4));
  }
  // A target the dice cannot make is refused where it is written.
  Edited e = load_edited("      target: 7 ", "      target: 13 ");
  CHECK(has_diag(e.diags, where_of(e.text, "      target: 13", 14), "charge.fear_of_charge.gut_check.target (on 2D6)"));

  Run t = run_vedette("charge --move 12in --distance 10in --attacker heavy --defender heavy-foot --roll 6 6 --ruleset " +
                  std::string(VEDETTE_TEST_DATA) + "/charge_optional_on.yaml");
  CHECK(t.status == 0);
  CHECK(t.out.find("Fear of Charge") != std::string::npos);
  CHECK(t.out.find("7+ on 2D6 passes, 7/12") != std::string::npos);
}

TEST_CASE("charge optional: Infantry Square (seed 004) when switched on") {
  // seed 004: "the infantry unit in square will battle first with 1 die";
  // "If the British infantry rolls a flag ... the French cavalry unit must
  // retreat" - a flag is 1 face in 6: bounce_on [6] on a D6.
  CHECK_FALSE(can_form_square(rules(), DefenderClass::heavy_foot));  // off by default
  auto on = load_ruleset(std::string(VEDETTE_TEST_DATA) + "/charge_optional_on.yaml");
  const auto& r = on->charge;
  CHECK(can_form_square(r, DefenderClass::heavy_foot));
  CHECK(can_form_square(r, DefenderClass::peasants));
  CHECK_FALSE(can_form_square(r, DefenderClass::heavy_horse));
  CHECK(p_square_bounce(r) == Fraction(1, 6));
  CHECK(r.infantry_square.max_battle_dice == 1);
  for (int f = 1; f <= 6; ++f) CHECK(square_bounces(r, f) == (f == 6));
  Rng rng = make_stream(11, 0, Subsystem::melee);
  Dice dice(rng);
  const int n = 60000;
  int bounced = 0;
  for (int i = 0; i < n; ++i) bounced += resolve_square(r, dice).bounce;
  const double p = 1.0 / 6, se = std::sqrt(p * (1 - p) / n);
  CHECK(std::fabs(static_cast<double>(bounced) / n - p) <= 4 * se);
  // A face the die does not have is a located error.
  Edited e = load_edited("bounce_on: [6]", "bounce_on: [7]");
  CHECK(has_diag(e.diags, where_of(e.text, "bounce_on: [7]", 12), "from 1 to 6"));

  Run t = run_vedette("charge --move 12in --distance 10in --attacker heavy --defender heavy-foot --roll 6 6 --ruleset " +
                  std::string(VEDETTE_TEST_DATA) + "/charge_optional_on.yaml");
  CHECK(t.out.find("Infantry Square") != std::string::npos);
  CHECK(t.out.find("1/6") != std::string::npos);
}

}  // namespace t_charge
