// Seed 003's cavalry charge: loading `charge:` and applying it.
#include "engine/decision/charge.hpp"

#include <cctype>
#include <cmath>
#include <map>
#include <stdexcept>
#include <vector>

#include "engine/core/diagnostics.hpp"
#include "engine/core/doc.hpp"
#include "engine/core/schema_notes.hpp"
#include "engine/core/words.hpp"

namespace vedette {

std::string defender_word_key(const std::string& word) {
  std::string out;
  for (char ch : word) {
    const unsigned char u = static_cast<unsigned char>(ch);
    const char c = (ch == '-' || ch == '_' || std::isspace(u)) ? ' ' : static_cast<char>(std::tolower(u));
    if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
    out += c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::vector<std::string> defender_text_parts(const std::string& text) {
  std::vector<std::string> parts;
  std::string cur;
  auto flush = [&] {
    while (!cur.empty() && cur.front() == ' ') cur.erase(0, 1);
    while (!cur.empty() && cur.back() == ' ') cur.pop_back();
    if (!cur.empty()) parts.push_back(cur);
    cur.clear();
  };
  for (char ch : text) {
    if (ch == ',') flush();
    else cur += ch;
  }
  flush();
  return parts;
}

std::vector<std::string> defender_words(const DefenderRow& row, DefenderClass c) {
  std::vector<std::string> out = defender_text_parts(row.text);
  out.insert(out.end(), row.words.begin(), row.words.end());
  out.push_back(dashed(k_defender_class_names[static_cast<std::size_t>(c)]));
  return out;
}

namespace {

// Lengths are doubles in cm; 12in x 1.5 and "18in" may differ in the last
// bit. A thousandth of a millimetre is far below anything measured on a table.
constexpr double k_length_eps_cm = 1e-4;
constexpr double k_angle_eps_deg = 1e-9;

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

struct Loader {
  Diagnostics& d;
  ChargeRules& r;
  // Every word a defender class answers to so far (its key, its text's
  // parts, its words), lower-cased: no word may name two classes.
  std::map<std::string, DefenderClass> words_seen = {};

  void claim(const std::string& word, DefenderClass c, const Location& where, const std::string& what) {
    const std::string w = defender_word_key(word);
    if (w.empty()) return;
    auto [it, fresh] = words_seen.emplace(w, c);
    if (!fresh && it->second != c)
      d.error(where, "'" + word + "' in " + what + " already names the defender class '" +
                         std::string(k_defender_class_names[static_cast<std::size_t>(it->second)]) +
                         "': a word may name one class only");
  }

  void number(MapReader& m, const char* key, const std::string& path, double min, double max, double& out) {
    if (auto x = m.required(key))
      if (auto v = read_number(*x, d, path + "." + key, min, max)) out = *v;
  }
  void integer(MapReader& m, const char* key, const std::string& path, int min, int max, int& out) {
    if (auto x = m.required(key))
      if (auto v = read_int(*x, d, path + "." + key, min, max)) out = static_cast<int>(*v);
  }
  void boolean(MapReader& m, const char* key, const std::string& path, bool& out) {
    if (auto x = m.required(key))
      if (auto v = read_bool(*x, d, path + "." + key)) out = *v;
  }
  void length(MapReader& m, const char* key, const std::string& path, Length& out) {
    if (auto x = m.required(key))
      if (auto v = read_length(*x, d, path + "." + key)) out = *v;
  }

  // A list of whole numbers from lo to hi, each at most once.
  FaceSet faces(const Doc& n, const std::string& what, int lo, int hi) {
    if (!n.is_sequence()) {
      d.error(n.where, "expected a list of whole numbers from " + std::to_string(lo) + " to " + std::to_string(hi) + " for " +
                           what + " (e.g. [12], or [] for none), found " + n.kind_name());
      return 0;
    }
    FaceSet s = 0;
    for (const auto& item : n.items) {
      auto v = read_int(item, d, what, lo, hi);
      if (!v) continue;
      const int f = static_cast<int>(*v);
      if (has_face(s, f)) d.error(item.where, std::to_string(f) + " is given twice in " + what);
      s |= FaceSet{1} << f;
    }
    return s;
  }

  void range(const Doc& n) {
    const std::string p = "charge.range";
    MapReader m(n, d, p);
    number(m, "factor", p, 1, 10, r.range_factor);
    number(m, "min_distance_fraction", p, 0, 1, r.min_distance_fraction);
    length(m, "min_distance_cap", p, r.min_distance_cap);
    number(m, "arc_degrees", p, 0, 180, r.arc_degrees);
    number(m, "max_curve_degrees", p, 0, 180, r.max_curve_degrees);
    length(m, "preliminary_manoeuvre", p, r.preliminary_manoeuvre);
    m.finish();
  }

  void out_of_reach(const Doc& n) {
    const std::string p = "charge.out_of_reach";
    MapReader m(n, d, p);
    number(m, "move_factor", p, 0, 10, r.out_of_reach_move_factor);
    boolean(m, "shaken", p, r.out_of_reach_shaken);
    m.finish();
  }

  void declaring(const Doc& n) {
    const std::string p = "charge.declaring";
    MapReader m(n, d, p);
    integer(m, "initiative_modifier", p, -20, 20, r.declare_initiative_modifier);
    integer(m, "opportunity_undeclared_modifier", p, -20, 20, r.opportunity_undeclared_modifier);
    m.finish();
  }

  void row(const Doc& n, DefenderClass c) {
    const std::string p = "charge.morale.table." + std::string(k_defender_class_names[static_cast<std::size_t>(c)]);
    DefenderRow& out = r.table[static_cast<std::size_t>(c)];
    MapReader m(n, d, p);
    claim(std::string(k_defender_class_names[static_cast<std::size_t>(c)]), c, n.where, p);
    if (auto x = m.required("text"))
      if (auto v = read_string(*x, d, p + ".text")) {
        out.text = *v;
        for (const std::string& part : defender_text_parts(*v)) claim(part, c, x->where, p + ".text");
      }
    if (auto x = m.required("kind"))
      if (auto i = read_choice(*x, d, "kind for " + p + " (Foot or Horse)", names_of(k_defender_kind_names)))
        out.kind = static_cast<DefenderKind>(*i);
    out.words.clear();
    if (const Doc* x = m.optional("words"))
      for (auto& [word, where] : read_words(*x, d, p + ".words", "what a player may call the class, e.g. [line infantry]")) {
        claim(word, c, where, p + ".words");
        out.words.push_back(std::move(word));
      }
    if (const Doc* x = m.required("need")) {
      const std::string what = p + ".need";
      if (!x->is_sequence()) {
        d.error(x->where, "expected a list of 3 numbers for " + what + " (the 2D6 score to stand against light, medium and heavy cavalry), found " +
                              x->kind_name());
      } else if (x->items.size() != out.need.size()) {
        d.error(x->where, "expected exactly 3 numbers in " + what + " (the 2D6 score to stand against light, medium and heavy cavalry), found " +
                              std::to_string(x->items.size()));
      } else {
        for (std::size_t i = 0; i < out.need.size(); ++i)
          if (auto v = read_int(x->items[i], d, what + " (vs " + std::string(k_attacker_weight_names[i]) + " cavalry)", 2, 12))
            out.need[i] = static_cast<int>(*v);
      }
    }
    m.finish();
  }

  void table(const Doc& n) {
    const std::string p = "charge.morale.table";
    if (!n.is_map()) {
      d.error(n.where, "expected a map of defender classes for " + p + " (class: {text, kind, need: [light, medium, heavy]}), found " +
                           n.kind_name());
      return;
    }
    const auto names = names_of(k_defender_class_names);
    std::array<bool, 7> seen{};
    for (const auto& e : n.entries) {
      note_key_names(e.key_where, names);
      std::size_t i = 0;
      while (i < names.size() && names[i] != e.key) ++i;
      if (i == names.size()) {
        d.error(e.key_where, "unknown defender class '" + e.key + "' in " + p + did_you_mean(e.key, names) +
                                 " (seed 003's rows are: " + join(names) + ")");
        continue;
      }
      seen[i] = true;
      row(e.value, static_cast<DefenderClass>(i));
    }
    for (std::size_t i = 0; i < names.size(); ++i)
      if (!seen[i])
        d.error(n.where, "missing defender class '" + names[i] + "' in " + p + " (every row of seed 003's table is needed)");
  }

  void morale(const Doc& n) {
    const std::string p = "charge.morale";
    MapReader m(n, d, p);
    if (auto x = m.required("table")) table(*x);
    integer(m, "flank", p, -12, 12, r.flank_modifier);
    integer(m, "rear", p, -12, 12, r.rear_modifier);
    if (auto x = m.required("both_charging")) {
      MapReader b(*x, d, p + ".both_charging");
      integer(b, "foot", p + ".both_charging", -12, 12, r.both_charging_modifier[0]);
      integer(b, "horse", p + ".both_charging", -12, 12, r.both_charging_modifier[1]);
      b.finish();
    }
    boolean(m, "pikes_facing_stand", p, r.pikes_facing_stand);
    // `pikes_words` (issue 30): who carries them, in the period's words, for
    // the solo front's question; absent, seed 003 L18's own.
    r.pikes_words = "Swiss or Landsknechte with pikes or pole arms";
    if (const Doc* x = m.optional("pikes_words"))
      if (auto v = read_string(*x, d, p + ".pikes_words")) {
        if (v->empty())
          d.error(x->where, "expected words for " + p + ".pikes_words (e.g. \"Swiss or Landsknechte with pikes or pole arms\"), found an empty string");
        else r.pikes_words = *v;
      }
    // Switches: optional, the seed's reading when absent.
    if (auto x = m.optional("natural_stand")) r.natural_stand = faces(*x, p + ".natural_stand", 2, 12);
    const Doc* nat_fail = m.optional("natural_fail");
    if (nat_fail) r.natural_fail = faces(*nat_fail, p + ".natural_fail", 2, 12);
    if (auto x = m.optional("check_inside_min_distance"))
      if (auto v = read_bool(*x, d, p + ".check_inside_min_distance")) r.check_inside_min_distance = *v;
    if (auto x = m.required("failure")) {
      const std::string q = p + ".failure";
      MapReader f(*x, d, q);
      number(f, "retreat_moves", q, 0, 10, r.failure_retreat_moves);
      boolean(f, "backs_to_enemy", q, r.failure_backs_to_enemy);
      boolean(f, "must_rally", q, r.failure_must_rally);
      f.finish();
    }
    m.finish();
    if (FaceSet both = r.natural_stand & r.natural_fail) {
      for (int t = 2; t <= 12; ++t)
        if (has_face(both, t))
          d.error(nat_fail->where,
                  "a natural " + std::to_string(t) + " cannot both always stand (natural_stand) and always fail (natural_fail)");
    }
  }

  void fear_of_charge(const Doc& n) {
    const std::string p = "charge.fear_of_charge";
    auto& f = r.fear_of_charge;
    MapReader m(n, d, p);
    boolean(m, "enabled", p, f.enabled);
    length(m, "charge_min_move", p, f.charge_min_move);
    length(m, "range", p, f.range);
    integer(m, "exempt_cover", p, -50, 50, f.exempt_cover);
    length(m, "flee_distance", p, f.flee_distance);
    if (auto x = m.required("gut_check")) {
      const std::string q = p + ".gut_check";
      MapReader g(*x, d, q);
      if (auto y = g.required("dice"))
        if (auto i = read_choice(*y, d, q + ".dice", {"D6", "2D6"})) f.dice = static_cast<int>(*i) + 1;
      if (auto y = g.required("pass"))
        if (auto i = read_choice(*y, d, q + ".pass", {"at_least", "at_most"})) f.pass_at_most = *i == 1;
      const Doc* t = g.required("target");
      g.finish();
      if (t && f.dice > 0)
        if (auto v = read_int(*t, d, q + ".target (on " + (f.dice == 1 ? std::string("D6") : std::string("2D6")) + ")", f.dice, 6 * f.dice))
          f.target = static_cast<int>(*v);
      if (t) note_bounds(*t, 1, 12);  // (a score on a D6 or on 2D6)
    }
    m.finish();
  }

  void infantry_square(const Doc& n) {
    const std::string p = "charge.infantry_square";
    auto& s = r.infantry_square;
    MapReader m(n, d, p);
    boolean(m, "enabled", p, s.enabled);
    integer(m, "die", p, 2, 20, s.die);
    const Doc* bounce = m.required("bounce_on");
    integer(m, "max_battle_dice", p, 0, 20, s.max_battle_dice);
    number(m, "bounce_back_moves", p, 0, 10, s.bounce_back_moves);
    m.finish();
    if (bounce && s.die > 0) s.bounce_on = faces(*bounce, p + ".bounce_on (faces of a D" + std::to_string(s.die) + ")", 1, s.die);
    if (bounce && bounce->is_sequence())
      for (const Doc& item : bounce->items) note_bounds(item, 1, 20);  // (a face of the largest die a square may roll)
  }

  void pike_charge(const Doc& n) {
    const std::string p = "charge.pike_charge";
    auto& k = r.pike_charge;
    MapReader m(n, d, p);
    boolean(m, "enabled", p, k.enabled);
    integer(m, "min_files", p, 1, 100, k.min_files);
    integer(m, "min_ranks", p, 1, 100, k.min_ranks);
    integer(m, "loss_dice", p, 1, 4, k.loss_dice);
    integer(m, "stand_target", p, 1, 24, k.stand_target);
    number(m, "retreat_moves", p, 0, 10, k.retreat_moves);
    m.finish();
  }

  void load(const Doc& n) {
    MapReader m(n, d, "charge");
    if (!m.ok()) return;
    if (auto x = m.required("range")) range(*x);
    if (auto x = m.required("out_of_reach")) out_of_reach(*x);
    if (auto x = m.required("declaring")) declaring(*x);
    if (auto x = m.required("morale")) morale(*x);
    if (auto x = m.optional("fear_of_charge")) fear_of_charge(*x);
    if (auto x = m.optional("infantry_square")) infantry_square(*x);
    if (auto x = m.optional("pike_charge")) pike_charge(*x);
    m.finish();
  }
};

}  // namespace

void load_charge_rules(const Doc& node, Diagnostics& d, ChargeRules& out) { Loader{d, out}.load(node); }

// ------------------------------------------------------------- geometry

namespace {

// std::remainder(x, 360): x itself for |x| <= 180 (the quotient rounds to 0,
// ties to even at exactly 180), without the library call; NaN and larger
// angles still go to it. The same bits.
double remainder_360(double x) { return x >= -180.0 && x <= 180.0 ? x : std::remainder(x, 360.0); }

}  // namespace

ChargeGeometry charge_geometry(const ChargeRules& r, Length move, Length distance, double bearing_deg) {
  ChargeGeometry g;
  g.max_range = charge_max_range(r, move);
  const Length half = move * r.min_distance_fraction;
  g.min_distance = half < r.min_distance_cap ? half : r.min_distance_cap;

  // Exactly at the maximum is in range ("could charge a target as far as 18"
  // away"); exactly at the minimum is inside it ("cannot charge a target
  // that is 3" or less away").
  g.in_range = distance.as_cm() <= g.max_range.as_cm() + k_length_eps_cm;
  double b = remainder_360(bearing_deg);  // -180..180
  g.in_arc = std::fabs(b) <= r.arc_degrees + k_angle_eps_deg;
  g.reaches = g.in_range && g.in_arc;
  g.charge_bonus = g.reaches && distance.as_cm() > g.min_distance.as_cm() + k_length_eps_cm;
  g.morale_check = g.reaches && (g.charge_bonus || r.check_inside_min_distance);
  g.out_of_reach = !g.reaches;
  if (g.out_of_reach) {
    g.forced_move = move * r.out_of_reach_move_factor;
    g.shaken = r.out_of_reach_shaken;
  }
  return g;
}

ChargeGeometry charge_geometry(const ChargeRules& r, Length move, const ChargeTarget& t) {
  // The centre-line answer, then the seed's two measures of extent.
  const double mid = (t.bearing_lo_deg + t.bearing_hi_deg) / 2.0;
  ChargeGeometry g = charge_geometry(r, move, t.distance, mid);
  g.in_range = (t.distance + t.target_base).as_cm() <= g.max_range.as_cm() + k_length_eps_cm;
  // Partially within: the covered angle overlaps [-arc, +arc]. The angles
  // are relative to the facing and unwrapped around their middle.
  const double centre = remainder_360(mid);
  const double lo = centre - (mid - t.bearing_lo_deg), hi = centre + (t.bearing_hi_deg - mid);
  g.in_arc = hi >= -r.arc_degrees - k_angle_eps_deg && lo <= r.arc_degrees + k_angle_eps_deg;
  g.reaches = g.in_range && g.in_arc;
  g.charge_bonus = g.reaches && t.distance.as_cm() > g.min_distance.as_cm() + k_length_eps_cm;
  g.morale_check = g.reaches && (g.charge_bonus || r.check_inside_min_distance);
  g.out_of_reach = !g.reaches;
  g.forced_move = g.out_of_reach ? move * r.out_of_reach_move_factor : Length();
  g.shaken = g.out_of_reach && r.out_of_reach_shaken;
  return g;
}

ChargeGeometry with_path(const ChargeRules& r, Length move, ChargeGeometry g, ChargePath path) {
  if (!g.reaches || (path != ChargePath::uphill && path != ChargePath::into_terrain)) return g;
  g.reaches = false;
  g.charge_bonus = false;
  g.morale_check = false;
  g.out_of_reach = true;
  g.forced_move = move * r.out_of_reach_move_factor;
  g.shaken = r.out_of_reach_shaken;
  return g;
}

// ------------------------------------------------------------ the gates

ChargeGate charge_gate(const ChargeGateInput& in) {
  auto no = [](std::string_view rule, std::string_view why) { return ChargeGate{false, rule, why}; };
  if (in.when == ChargeWhen::declare && in.turn <= 1 && !in.first_turn_allowed)
    return no("003-L24-no-first-turn", "no charge may be declared on the first turn of a scenario (seed 003)");
  if (!in.good_order) return no("003-L34-good-order", "a unit must be in good order to charge (seed 003)");
  if (in.charged_last_turn)
    return no("003-L3-normal-speed", "a unit that charged last turn must move at normal speed this turn: no charge (seed 003)");
  if (in.barred_this_turn)
    return no(in.when == ChargeWhen::opportunity ? "003-L100-opportunity-failed" : "003-L48-initiation-failed",
              "it failed a charge initiation check this turn and cannot charge again this turn (seed 003)");
  if (in.when == ChargeWhen::opportunity && in.moved_this_turn)
    return no("003-L92-not-yet-moved", "only a unit that has not yet moved this turn may make an opportunity charge (seed 003)");
  if (in.when == ChargeWhen::opportunity && in.infantry_against_cavalry)
    return no("003-L96-no-foot-on-horse", "infantry may not make an opportunity charge against cavalry (seed 003)");
  if (!in.target_visible)
    return no("003-L34-target-visible", "the target must be visible to the front rank of the charging unit (seed 003)");
  return {};
}

// ---------------------------------------------------------------- morale

MoraleTarget morale_target(const ChargeRules& r, const MoraleSituation& s) {
  MoraleTarget t;
  const DefenderRow& row = r.row(s.defender);
  t.table = row.need[static_cast<std::size_t>(s.attacker)];
  if (s.pikes_facing && r.pikes_facing_stand) t.automatic = true;
  if (s.side == ChargedOn::flank) t.flank_rear = r.flank_modifier;
  if (s.side == ChargedOn::rear) t.flank_rear = r.rear_modifier;
  if (s.both_charging) t.both_charging = r.both_charging_modifier[static_cast<std::size_t>(row.kind)];
  t.modifier = t.flank_rear + t.both_charging;
  // The seed's modifiers change the DICE SCORE: the unit stands when
  // 2D6 + modifier >= table, that is when the natural 2D6 >= table - modifier.
  // So "deduct 1 from the dice score" (flank, -1) makes the dice need one
  // MORE (8+ becomes 9+), and "adding 1 to the dice score" (both charging,
  // Foot) makes them need one less (8+ becomes 7+).
  t.target = t.table - t.modifier;
  return t;
}

bool stands_on(const ChargeRules& r, const MoraleTarget& t, int total) {
  if (t.automatic) return true;
  if (has_face(r.natural_stand, total)) return true;
  if (has_face(r.natural_fail, total)) return false;
  return total >= t.target;
}

std::array<MoraleOutcome, 11> morale_outcomes(const ChargeRules& r, const MoraleTarget& t) {
  std::array<MoraleOutcome, 11> out{};
  for (int total = 2; total <= 12; ++total) {
    auto& o = out[static_cast<std::size_t>(total - 2)];
    o.total = total;
    o.ways = 6 - std::abs(total - 7);  // 1, 2, ..., 6, ..., 2, 1
    o.stands = stands_on(r, t, total);
  }
  return out;
}

int stand_ways(const ChargeRules& r, const MoraleTarget& t) {
  int ways = 0;
  for (const auto& o : morale_outcomes(r, t))
    if (o.stands) ways += o.ways;
  return ways;
}

Fraction p_stand(const ChargeRules& r, const MoraleTarget& t) { return Fraction(stand_ways(r, t), 36); }

MoraleResult resolve_morale(const ChargeRules& r, const MoraleTarget& t, int die1, int die2) {
  if (die1 < 1 || die1 > 6 || die2 < 1 || die2 > 6)
    throw std::out_of_range("resolve_morale: each die must be 1 to 6, got " + std::to_string(die1) + " and " + std::to_string(die2));
  MoraleResult m;
  m.dice = {die1, die2};
  m.total = die1 + die2;
  m.stands = stands_on(r, t, m.total);
  return m;
}

MoraleResult resolve_morale(const ChargeRules& r, const MoraleTarget& t, Dice& dice) {
  if (t.automatic) {
    MoraleResult m;
    m.automatic = true;
    m.stands = true;
    return m;
  }
  const int a = dice.d6();
  const int b = dice.d6();
  return resolve_morale(r, t, a, b);
}

Length morale_retreat(const ChargeRules& r, Length defender_move) { return defender_move * r.failure_retreat_moves; }

// ------------------------------------------- optional: Fear of Charge (001)

bool fear_of_charge_applies(const ChargeRules& r, Length cavalry_move, Length infantry_distance, int infantry_cover) {
  const auto& f = r.fear_of_charge;
  if (!f.enabled) return false;
  // "six or more inches" is a charge; "within four inches" checks; "+5 cover"
  // (or better) is exempt.
  return cavalry_move.as_cm() + k_length_eps_cm >= f.charge_min_move.as_cm() &&
         infantry_distance.as_cm() <= f.range.as_cm() + k_length_eps_cm && infantry_cover < f.exempt_cover;
}

bool gut_check_passes(const ChargeRules& r, int total) {
  const auto& f = r.fear_of_charge;
  return f.pass_at_most ? total <= f.target : total >= f.target;
}

Fraction p_gut_check_pass(const ChargeRules& r) {
  const auto& f = r.fear_of_charge;
  int ways = 0, all = 0;
  if (f.dice == 1) {
    for (int a = 1; a <= 6; ++a, ++all) ways += gut_check_passes(r, a);
  } else {
    for (int a = 1; a <= 6; ++a)
      for (int b = 1; b <= 6; ++b, ++all) ways += gut_check_passes(r, a + b);
  }
  return Fraction(ways, all);
}

GutCheck resolve_gut_check(const ChargeRules& r, Dice& dice) {
  GutCheck g;
  for (int i = 0; i < r.fear_of_charge.dice; ++i) g.total += dice.d6();
  g.passes = gut_check_passes(r, g.total);
  return g;
}

// -------------------------------- optional: pike charge (003, Loss Table ours)

bool pike_charge_applies(const ChargeRules& r, bool charger_pikes, int files, int ranks, bool target_pikes) {
  const auto& k = r.pike_charge;
  return k.enabled && charger_pikes && !target_pikes && files >= k.min_files && ranks >= k.min_ranks;
}

bool pike_loss_stands(const ChargeRules& r, int total) { return total >= r.pike_charge.stand_target; }

Fraction p_pike_loss_stand(const ChargeRules& r) {
  // loss_dice D6: count the totals by convolution (at most 4 dice).
  std::array<long long, 25> ways{};
  ways[0] = 1;
  long long all = 1;
  for (int k = 0; k < r.pike_charge.loss_dice; ++k) {
    std::array<long long, 25> next{};
    for (int t = 0; t < 25; ++t)
      for (int f = 1; f <= 6 && t + f < 25; ++f) next[static_cast<std::size_t>(t + f)] += ways[static_cast<std::size_t>(t)];
    ways = next;
    all *= 6;
  }
  long long stand = 0;
  for (int t = 0; t < 25; ++t)
    if (pike_loss_stands(r, t)) stand += ways[static_cast<std::size_t>(t)];
  return Fraction(stand, all);
}

// ------------------------------------------ optional: Infantry Square (004)

bool can_form_square(const ChargeRules& r, DefenderClass c) {
  return r.infantry_square.enabled && r.kind(c) == DefenderKind::foot;
}

bool square_bounces(const ChargeRules& r, int face) { return has_face(r.infantry_square.bounce_on, face); }

Fraction p_square_bounce(const ChargeRules& r) {
  const auto& s = r.infantry_square;
  int ways = 0;
  for (int f = 1; f <= s.die; ++f) ways += square_bounces(r, f);
  return Fraction(ways, s.die > 0 ? s.die : 1);
}

SquareRoll resolve_square(const ChargeRules& r, Dice& dice) {
  SquareRoll s;
  s.face = dice.d(r.infantry_square.die);
  s.bounce = square_bounces(r, s.face);
  return s;
}

}  // namespace vedette
