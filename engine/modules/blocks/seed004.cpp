// Seed 004's rules over a hex board (engine/modules/blocks/seed004.hpp) and the loader of
// tables/seed004.yaml.
#include "engine/modules/blocks/seed004.hpp"

#include <algorithm>
#include <numeric>
#include <type_traits>

#include "engine/core/builtin_tables.hpp"
#include "engine/core/diagnostics.hpp"
#include "engine/core/doc.hpp"
#include "engine/core/words.hpp"

namespace vedette {

namespace {

template <class E>
std::uint8_t bit(E e) {
  return static_cast<std::uint8_t>(1u << static_cast<unsigned>(e));
}

// A list of names from `names`, as a bit set.
std::optional<std::uint8_t> read_set(const Doc& n, Diagnostics& d, const std::string& what,
                                     const std::vector<std::string>& names) {
  if (!n.is_sequence()) {
    d.error(n.where, "expected a list for " + what + ", found " + n.kind_name());
    return std::nullopt;
  }
  std::uint8_t out = 0;
  bool ok = true;
  for (const Doc& it : n.items) {
    if (auto i = read_choice(it, d, what, names)) out = static_cast<std::uint8_t>(out | (1u << *i));
    else ok = false;
  }
  if (!ok) return std::nullopt;
  return out;
}

std::vector<int> read_ints(const Doc& n, Diagnostics& d, const std::string& what, long long min, long long max) {
  std::vector<int> out;
  if (!n.is_sequence() || n.items.empty()) {
    d.error(n.where, "expected a non-empty list of numbers for " + what + ", found " + n.kind_name());
    return out;
  }
  for (const Doc& it : n.items) out.push_back(static_cast<int>(read_int(it, d, what, min, max).value_or(0)));
  return out;
}

}  // namespace

const HexTerrain* Seed004Rules::find_terrain(std::string_view n) const {
  for (const auto& t : terrain)
    if (t.name == n) return &t;
  return nullptr;
}

namespace {

// The sections of seed 004's table, one reader each.
void read_battle_die(const Doc& x, Diagnostics& d, Seed004Rules& r) {
  const auto symbols = names_of(k_symbol_names);
  MapReader bm(x, d, "battle_die");
  if (auto f = bm.required("faces")) {
    if (!f->is_sequence() || f->items.empty())
      d.error(f->where, std::string("expected a list of die faces (symbols), found ") + f->kind_name());
    else
      for (const Doc& it : f->items)
        if (auto i = read_choice(it, d, "die face", symbols)) r.faces.push_back(static_cast<Symbol>(*i));
  }
  bm.finish();
}

void read_hits(const Doc& x, Diagnostics& d, Seed004Rules& r) {
  const auto symbols = names_of(k_symbol_names);
  const auto arms = names_of(k_arm_names);
  MapReader hm(x, d, "hits");
  const char* kinds[] = {"ranged", "melee"};
  for (std::size_t c = 0; c < 2; ++c) {
    if (auto y = hm.required(kinds[c])) {
      MapReader sm(*y, d, std::string("hits.") + kinds[c]);
      for (std::size_t s = 0; s < symbols.size(); ++s)
        if (auto z = sm.required(symbols[s]))
          r.hit_table[c][s] = read_set(*z, d, "the arms a " + symbols[s] + " hits", arms).value_or(0);
      sm.finish();
    }
  }
  hm.finish();
}

void read_retreat_hexes_per_flag(const Doc& x, Diagnostics& d, Seed004Rules& r) {
  const auto arms = names_of(k_arm_names);
  MapReader rm(x, d, "retreat_hexes_per_flag");
  for (std::size_t a = 0; a < arms.size(); ++a)
    if (auto y = rm.required(arms[a]))
      r.retreat_hexes_per_flag[a] = static_cast<int>(read_int(*y, d, "retreat hexes per flag", 0, 10).value_or(1));
  rm.finish();
}

void read_artillery(const Doc& x, Diagnostics& d, Seed004Rules& r) {
  MapReader am(x, d, "artillery");
  const char* kinds[] = {"foot", "horse"};
  for (int k = 0; k < 2; ++k)
    if (auto y = am.required(kinds[k])) {
      MapReader km(*y, d, std::string("artillery.") + kinds[k]);
      if (auto z = km.required("dice_by_range"))
        (k == 0 ? r.foot_artillery_dice : r.horse_artillery_dice) = read_ints(*z, d, "dice by range", 0, 12);
      km.finish();
    }
  am.finish();
}

void read_retire_and_reform(const Doc& x, Diagnostics& d, Seed004Rules& r) {
  const auto symbols = names_of(k_symbol_names);
  MapReader rm(x, d, "retire_and_reform");
  if (auto y = rm.required("hexes")) r.retire_hexes = static_cast<int>(read_int(*y, d, "retire hexes", 1, 10).value_or(2));
  if (auto y = rm.required("hits_on")) r.retire_hits_on = read_set(*y, d, "retire_and_reform.hits_on", symbols).value_or(0);
  rm.finish();
}

void read_square(const Doc& x, Diagnostics& d, Seed004Rules& r) {
  const auto symbols = names_of(k_symbol_names);
  MapReader sm(x, d, "square");
  if (auto y = sm.required("min_cards")) r.square_min_cards = static_cast<int>(read_int(*y, d, "min_cards", 0, 100).value_or(3));
  if (auto y = sm.required("max_dice")) r.square_max_dice = static_cast<int>(read_int(*y, d, "max_dice", 0, 12).value_or(1));
  if (auto y = sm.required("cavalry_max_dice"))
    r.square_cavalry_max_dice = static_cast<int>(read_int(*y, d, "cavalry_max_dice", 0, 12).value_or(1));
  if (auto y = sm.required("bounce_on")) r.square_bounce_on = read_set(*y, d, "square.bounce_on", symbols).value_or(0);
  if (auto y = sm.required("bounced_but_stuck_attacks"))
    r.bounced_but_stuck_attacks = read_bool(*y, d, "bounced_but_stuck_attacks").value_or(false);
  if (auto y = sm.required("forbidden_terrain")) {
    if (!y->is_sequence()) d.error(y->where, std::string("expected a list of terrain names, found ") + y->kind_name());
    else
      for (const Doc& it : y->items)
        if (auto s = read_string(it, d, "a terrain name")) r.square_forbidden_terrain.push_back(*s);
  }
  sm.finish();
}

void read_terrain(const Doc& x, Diagnostics& d, Seed004Rules& r) {
  if (!x.is_map()) d.error(x.where, std::string("expected a map of terrain types, found ") + x.kind_name());
  else
    for (const auto& e : x.entries) {
      HexTerrain t;
      t.name = e.key;
      const std::string what = "terrain '" + e.key + "'";
      if (!e.value.is_null()) {
        MapReader tm(e.value, d, what);
        if (auto y = tm.optional("impassable")) t.impassable = read_bool(*y, d, "impassable").value_or(false);
        if (auto y = tm.optional("halts_movement")) t.halts_movement = read_bool(*y, d, "halts_movement").value_or(false);
        if (auto y = tm.optional("blocks_sight")) t.blocks_sight = read_bool(*y, d, "blocks_sight").value_or(false);
        if (auto y = tm.optional("cover")) t.cover = static_cast<int>(read_int(*y, d, "cover", 0, 10).value_or(0));
        if (auto y = tm.optional("height")) t.height = static_cast<int>(read_int(*y, d, "height", 0, 10).value_or(0));
        tm.finish();
      }
      r.terrain.push_back(std::move(t));
    }
}

void read_combined_arms(const Doc& x, Diagnostics& d, Seed004Rules& r) {
  MapReader cm(x, d, "combined_arms");
  if (auto y = cm.required("terrain_on_path")) {
    static const std::vector<std::string> k{"any", "sight"};
    if (auto i = read_choice(*y, d, "combined_arms.terrain_on_path", k)) r.combined_arms_any_terrain_blocks = *i == 0;
  }
  cm.finish();
}

void read_policy(const Doc& x, Diagnostics& d, Seed004Rules& r) {
  MapReader pm(x, d, "policy");
  const auto pol = names_of(k_choice_policy_names);
  if (auto y = pm.required("form_square"))
    if (auto i = read_choice(*y, d, "policy.form_square", pol)) r.form_square_policy = static_cast<ChoicePolicy>(*i);
  if (auto y = pm.required("retire_and_reform"))
    if (auto i = read_choice(*y, d, "policy.retire_and_reform", pol)) r.retire_policy = static_cast<ChoicePolicy>(*i);
  if (auto y = pm.required("card_value_blocks"))
    r.card_value_blocks = read_number(*y, d, "card_value_blocks", 0, 100).value_or(0.25);
  pm.finish();
}

void read_engagement_keys(const Doc& x, Diagnostics& d, Seed004Rules& r) {
  MapReader em(x, d, "engagement");
  if (auto y = em.optional("infantry_range"))
    r.infantry_range = static_cast<int>(read_int(*y, d, "engagement.infantry_range", 0, 20).value_or(2));
  if (auto y = em.optional("command_cards"))
    r.command_cards = static_cast<int>(read_int(*y, d, "engagement.command_cards", 0, 20).value_or(5));
  if (auto y = em.optional("infantry_takes_ground"))
    r.infantry_takes_ground = read_bool(*y, d, "engagement.infantry_takes_ground").value_or(false);
  em.finish();
}

}  // namespace

// Seed 004's table (tables/seed004.yaml), section by section in the file's
// order.
Seed004Ptr read_seed004(const Doc& root, Diagnostics& d) {
  auto r = std::make_shared<Seed004Rules>();
  const auto arms = names_of(k_arm_names);
  MapReader m(root, d, "seed 004 rules");
  if (auto x = m.required("seed004")) r->name = read_string(*x, d, "seed004 (a name)").value_or("");
  if (auto x = m.required("battle_die")) read_battle_die(*x, d, *r);
  if (auto x = m.required("hits")) read_hits(*x, d, *r);
  if (auto x = m.required("hits_on_sabre")) r->hits_on_sabre = read_set(*x, d, "hits_on_sabre", arms).value_or(0);
  if (auto x = m.required("retreat_hexes_per_flag")) read_retreat_hexes_per_flag(*x, d, *r);
  if (auto x = m.required("artillery")) read_artillery(*x, d, *r);
  if (auto x = m.required("retire_and_reform")) read_retire_and_reform(*x, d, *r);
  if (auto x = m.required("square")) read_square(*x, d, *r);
  if (auto x = m.required("terrain")) read_terrain(*x, d, *r);
  if (auto x = m.optional("combined_arms")) read_combined_arms(*x, d, *r);
  if (auto x = m.required("policy")) read_policy(*x, d, *r);
  if (auto x = m.optional("engagement")) read_engagement_keys(*x, d, *r);
  m.finish();
  for (const auto& n : r->square_forbidden_terrain)
    if (!r->find_terrain(n)) {
      const Doc* sq = root.find("square");
      d.error(sq ? sq->where : root.where, "square.forbidden_terrain names '" + n + "', which is not in terrain");
    }
  return r;
}

Seed004Ptr load_seed004(const std::string& path) {
  Doc root;
  if (path.rfind("builtin:", 0) == 0) {
    const auto text = builtin_table(std::string_view(path).substr(8));
    if (!text || path != "builtin:seed004") throw LoadError({path, 0, 0}, "no built-in seed 004 table of that name (built in: builtin:seed004)");
    root = parse_yaml(*text, path);
  } else {
    root = parse_yaml_file(path);
  }
  Diagnostics d;
  auto r = read_seed004(root, d);
  d.throw_if_any();
  return r;
}

// ------------------------------------------------------------------ dice

Symbol roll_symbol(const Seed004Rules& r, Dice& dice) {
  return r.faces[static_cast<std::size_t>(dice.d(static_cast<int>(r.faces.size())) - 1)];
}

void roll_symbols(const Seed004Rules& r, Dice& dice, int n, std::vector<Symbol>& out) {
  out.clear();
  for (int i = 0; i < n; ++i) out.push_back(roll_symbol(r, dice));
}

std::vector<Symbol> roll_symbols(const Seed004Rules& r, Dice& dice, int n) {
  std::vector<Symbol> out;
  roll_symbols(r, dice, n, out);
  return out;
}

Score score(const Seed004Rules& r, std::span<const Symbol> rolled, Arm target, CombatKind c, bool sabres) {
  Score s;
  for (Symbol x : rolled) {
    if (x == Symbol::flag) ++s.flags;
    if (x == Symbol::sabre && (c != CombatKind::melee || !sabres)) continue;
    if (r.hits(c, x, target)) ++s.hits;
  }
  return s;
}

Score score_retiring(const Seed004Rules& r, std::span<const Symbol> rolled) {
  Score s;
  for (Symbol x : rolled)
    if ((r.retire_hits_on >> static_cast<int>(x)) & 1u) ++s.hits;
  return s;
}

namespace {

// gcd(a, b) for 0 <= a, b <= 64, made at compile time (p_symbols' dice have
// a few faces).
constexpr std::size_t k_gcd_max = 64;
constexpr auto k_gcd_table = [] {
  std::array<std::array<std::uint8_t, k_gcd_max + 1>, k_gcd_max + 1> t{};
  for (std::size_t a = 0; a <= k_gcd_max; ++a)
    for (std::size_t b = 0; b <= k_gcd_max; ++b) t[a][b] = static_cast<std::uint8_t>(std::gcd(a, b));
  return t;
}();

}  // namespace

// Asked by the bots' expectations at every choice (bots/seed004_policy.cpp),
// from the rules as they are (they may be edited after loading, so nothing
// is kept). The count of faces showing a symbol in `bits`, over the faces:
// Fraction(n, d) for 0 <= n <= d <= 64 is (n / g, d / g) with g = gcd(n, d)
// (engine/core/fraction.hpp, normalise: d > 0, and g = 1 divides nothing;
// for n = 0, g = d gives 0/1 as it does), so the gcd is read from a table.
Fraction p_symbols(const Seed004Rules& r, std::uint8_t bits) {
  std::size_t n = 0;
  for (Symbol x : r.faces) n += (bits >> static_cast<int>(x)) & 1u;
  const std::size_t d = r.faces.size();
  if (d == 0 || d > k_gcd_max) return Fraction(static_cast<std::int64_t>(n), static_cast<std::int64_t>(d));
  const std::size_t g = k_gcd_table[n][d];
  Fraction f;
  f.num = static_cast<std::int64_t>(n / g);
  f.den = static_cast<std::int64_t>(d / g);
  return f;
}

std::uint8_t hit_symbols(const Seed004Rules& r, Arm target, CombatKind c, bool sabres) {
  std::uint8_t bits = 0;
  for (std::size_t s = 0; s < k_symbol_names.size(); ++s) {
    const auto x = static_cast<Symbol>(s);
    if (x == Symbol::sabre && (c != CombatKind::melee || !sabres)) continue;
    if (r.hits(c, x, target)) bits = static_cast<std::uint8_t>(bits | bit(x));
  }
  return bits;
}

Fraction p_hit(const Seed004Rules& r, Arm target, CombatKind c, bool sabres) { return p_symbols(r, hit_symbols(r, target, c, sabres)); }

Fraction p_retire_hit(const Seed004Rules& r) { return p_symbols(r, r.retire_hits_on); }

int artillery_range(const Seed004Rules& r, bool horse) {
  return static_cast<int>((horse ? r.horse_artillery_dice : r.foot_artillery_dice).size());
}

int unit_dice(const Seed004Rules& r, const BlockUnit& u, int range, int terrain_reduction) {
  int d = 0;
  if (u.arm == Arm::artillery) {
    const auto& t = u.horse_artillery ? r.horse_artillery_dice : r.foot_artillery_dice;
    if (range >= 1 && static_cast<std::size_t>(range) <= t.size()) d = t[static_cast<std::size_t>(range - 1)];
  } else {
    d = u.blocks;
  }
  if (u.in_square) return capped_dice(d, r.square_max_dice, terrain_reduction);
  return std::max(0, d - terrain_reduction);
}

int melee_dice(const Seed004Rules& r, const BlockUnit& u, const BlockUnit& target, int terrain_reduction) {
  if (u.arm == Arm::cavalry && target.arm == Arm::infantry && target.in_square)
    return capped_dice(u.blocks, r.square_cavalry_max_dice, terrain_reduction);
  return unit_dice(r, u, 1, terrain_reduction);
}

// -------------------------------------------------------------- retreats

namespace {

bool is_occupied(std::span<const Hex> occupied, Hex h) {
  return std::find(occupied.begin(), occupied.end(), h) != occupied.end();
}

// Hexes one step nearer the own edge that a retreating unit may enter.
// (Every test is a pure read: the cheap "nearer" one goes first, as most
// of the six neighbours fail it.) An f that answers bool stops the steps
// at its first true (any_path: the rest would not be asked).
template <class F>
void each_retreat_step(const HexBoard& b, Hex from, Edge own, std::span<const Hex> occupied, F&& f) {
  for (HexDir d : k_hex_dirs) {
    const Hex n = neighbour(from, d);
    if (!HexBoard::nearer_edge(n, from, own) || !b.on_board(n)) continue;
    if (b.terrain(n).impassable || is_occupied(occupied, n)) continue;
    if constexpr (std::is_same_v<decltype(f(n)), bool>) {
      if (f(n)) return;
    } else {
      f(n);
    }
  }
}

void longest(const HexBoard& b, Hex from, Edge own, int left, std::span<const Hex> occupied, std::vector<Hex>& cur,
             std::vector<Hex>& best) {
  if (cur.size() > best.size()) best = cur;
  if (left == 0) return;
  each_retreat_step(b, from, own, occupied, [&](Hex n) {
    if (best.size() == cur.size() + static_cast<std::size_t>(left)) return;  // already complete
    cur.push_back(n);
    longest(b, n, own, left - 1, occupied, cur, best);
    cur.pop_back();
  });
}

void all_paths(const HexBoard& b, Hex from, Edge own, int left, std::span<const Hex> occupied, std::vector<Hex>& cur,
               std::vector<std::vector<Hex>>& out) {
  if (left == 0) {
    out.push_back(cur);
    return;
  }
  each_retreat_step(b, from, own, occupied, [&](Hex n) {
    cur.push_back(n);
    all_paths(b, n, own, left - 1, occupied, cur, out);
    cur.pop_back();
  });
}

// The path all_paths would list at index `choice`, or the last it lists when
// it lists fewer (into out; listed counts them): the same search, stopping
// there, with no list built. True once the chosen one is reached.
bool pick_path(const HexBoard& b, Hex from, Edge own, int left, std::span<const Hex> occupied, std::vector<Hex>& cur,
               std::size_t choice, std::size_t& listed, std::vector<Hex>& out) {
  if (left == 0) {
    out = cur;
    return listed++ == choice;
  }
  bool done = false;
  each_retreat_step(b, from, own, occupied, [&](Hex n) {
    if (done) return;
    cur.push_back(n);
    done = pick_path(b, n, own, left - 1, occupied, cur, choice, listed, out);
    cur.pop_back();
  });
  return done;
}

// Is there one path all_paths would list? (The same search, stopping at
// the first, with nothing built.)
bool any_path(const HexBoard& b, Hex from, Edge own, int left, std::span<const Hex> occupied) {
  if (left == 0) return true;
  bool found = false;
  each_retreat_step(b, from, own, occupied, [&](Hex n) { return found = any_path(b, n, own, left - 1, occupied); });
  return found;
}

}  // namespace

Retreat retreat(const HexBoard& b, Hex from, Edge own, int hexes, bool can_move, std::span<const Hex> occupied) {
  Retreat out;
  retreat(b, from, own, hexes, can_move, occupied, out);
  return out;
}

void retreat(const HexBoard& b, Hex from, Edge own, int hexes, bool can_move, std::span<const Hex> occupied, Retreat& out) {
  out.path.clear();
  out.blocks_lost = 0;
  if (hexes <= 0) return;
  if (can_move) {
    // The search's current path: this thread's scratch (no allocation once
    // grown; `longest` copies it into out.path, whose capacity is kept).
    thread_local std::vector<Hex> cur;
    cur.clear();
    if (cur.capacity() < 32) cur.reserve(32);  // once per thread: a deeper search later does not grow it
    longest(b, from, own, hexes, occupied, cur, out.path);
  }
  out.blocks_lost = hexes - static_cast<int>(out.path.size());
}

int retreat_hexes(const Seed004Rules& r, Arm a, int flags, int ignored) {
  return std::max(0, flags - ignored) * r.retreat_hexes_per_flag[static_cast<std::size_t>(a)];
}

// ----------------------------------------------------- retire and reform

std::vector<std::vector<Hex>> retire_paths(const Seed004Rules& r, const HexBoard& b, Hex from, Edge own,
                                           std::span<const Hex> occupied) {
  std::vector<std::vector<Hex>> out;
  std::vector<Hex> cur;
  all_paths(b, from, own, r.retire_hexes, occupied, cur, out);
  return out;
}

std::vector<Hex> retire_destinations(const Seed004Rules& r, const HexBoard& b, Hex from, Edge own,
                                     std::span<const Hex> occupied) {
  std::vector<Hex> out;
  for (const auto& p : retire_paths(r, b, from, own, occupied))
    if (std::find(out.begin(), out.end(), p.back()) == out.end()) out.push_back(p.back());
  return out;
}

RetireRefusal may_retire_and_reform(const Seed004Rules& r, const HexBoard& b, const BlockUnit& cavalry, Arm attacker,
                                    Edge own, std::span<const Hex> occupied, bool infantry_battling_back) {
  if (cavalry.arm != Arm::cavalry || attacker != Arm::infantry) return RetireRefusal::not_cavalry_vs_infantry;
  if (infantry_battling_back) return RetireRefusal::infantry_battling_back;
  if (!any_path(b, cavalry.hex, own, r.retire_hexes, occupied)) return RetireRefusal::no_retreat;
  return RetireRefusal::none;
}

RetireResult resolve_retire_and_reform(const Seed004Rules& r, const HexBoard& b, BlockUnit& cavalry, int infantry_dice,
                                       int artillery_dice, Edge own, std::span<const Hex> occupied, Dice& dice,
                                       std::size_t path_choice) {
  RetireResult out;
  resolve_retire_and_reform(r, b, cavalry, infantry_dice, artillery_dice, own, occupied, dice, out, path_choice);
  return out;
}

void resolve_retire_and_reform(const Seed004Rules& r, const HexBoard& b, BlockUnit& cavalry, int infantry_dice,
                               int artillery_dice, Edge own, std::span<const Hex> occupied, Dice& dice, RetireResult& out,
                               std::size_t path_choice) {
  // Every field as a fresh RetireResult has it (the vectors keep their capacity).
  out.path.clear();
  out.attacker_may_take_ground = true;
  out.cavalry_battles_back = false;
  roll_symbols(r, dice, infantry_dice + artillery_dice, out.rolled);
  out.hits = score_retiring(r, out.rolled).hits;
  cavalry.blocks = std::max(0, cavalry.blocks - out.hits);
  out.eliminated = cavalry.blocks == 0;
  if (out.eliminated) return;
  // retire_paths' paths[min(path_choice, size - 1)], without the list.
  thread_local std::vector<Hex> cur;
  cur.clear();
  if (cur.capacity() < 32) cur.reserve(32);  // once per thread: a deeper search later does not grow it
  std::size_t listed = 0;
  pick_path(b, cavalry.hex, own, r.retire_hexes, occupied, cur, path_choice, listed, out.path);
  if (listed > 0) cavalry.hex = out.path.back();
}

// -------------------------------------------------------- infantry square

SquareRefusal may_form_square(const Seed004Rules& r, int cards_in_hand, const HexTerrain& terrain,
                              bool cavalry_battling_back, bool first_strike) {
  if (cards_in_hand < r.square_min_cards) return SquareRefusal::too_few_cards;
  if (std::find(r.square_forbidden_terrain.begin(), r.square_forbidden_terrain.end(), terrain.name) !=
      r.square_forbidden_terrain.end())
    return SquareRefusal::terrain;
  if (cavalry_battling_back) return SquareRefusal::cavalry_battling_back;
  if (first_strike) return SquareRefusal::first_strike;
  return SquareRefusal::none;
}

int place_square_card(CommandHand& h, Dice& dice) {
  if (h.hand.empty()) return -1;
  const auto i = static_cast<std::size_t>(dice.d(static_cast<int>(h.hand.size())) - 1);
  const int card = h.hand[i];
  h.hand.erase(h.hand.begin() + static_cast<std::ptrdiff_t>(i));
  h.square_track.push_back(card);
  return card;
}

void return_square_card(CommandHand& h, int card) {
  auto it = std::find(h.square_track.begin(), h.square_track.end(), card);
  if (it == h.square_track.end()) return;
  h.square_track.erase(it);
  h.hand.push_back(card);
}

int capped_dice(int dice, int cap, int terrain_reduction) {
  return std::max(0, std::min(dice, cap) - terrain_reduction);
}

bool may_leave_square(const HexBoard& /*b*/, const BlockUnit& square, std::span<const BlockUnit> units) {
  for (const auto& u : units)
    if (u.side != square.side && u.arm == Arm::cavalry && u.blocks > 0 && hex_distance(u.hex, square.hex) == 1)
      return false;
  return true;
}

SquareMelee resolve_cavalry_vs_square(const Seed004Rules& r, const HexBoard& b, BlockUnit& cavalry, Edge cavalry_edge,
                                      BlockUnit& square, Edge square_edge, int artillery_dice,
                                      std::span<const Hex> occupied, Dice& dice) {
  SquareMelee out;
  resolve_cavalry_vs_square(r, b, cavalry, cavalry_edge, square, square_edge, artillery_dice, occupied, dice, out);
  return out;
}

void resolve_cavalry_vs_square(const Seed004Rules& r, const HexBoard& b, BlockUnit& cavalry, Edge cavalry_edge,
                               BlockUnit& square, Edge square_edge, int artillery_dice, std::span<const Hex> occupied,
                               Dice& dice, SquareMelee& out) {
  // Every field as a fresh SquareMelee has it (the vectors keep their capacity).
  out.square_dice = 0;
  out.cavalry_hits_taken = 0;
  out.bounced = false;
  out.cavalry_retreat.path.clear();
  out.cavalry_retreat.blocks_lost = 0;
  out.cavalry_eliminated = false;
  out.combined_arms_lost = false;
  out.cavalry_attacks = false;
  out.cavalry_dice = 0;
  out.artillery_dice = 0;
  out.cavalry_rolled.clear();
  out.square_hits_taken = 0;
  out.square_retreat.path.clear();
  out.square_retreat.blocks_lost = 0;
  out.square_eliminated = false;
  // 1. The square battles first, at most 1 die, less the cavalry hex's terrain.
  out.square_dice = capped_dice(square.blocks, r.square_max_dice, b.terrain(cavalry.hex).cover);
  roll_symbols(r, dice, out.square_dice, out.square_rolled);
  const Score s = score(r, out.square_rolled, Arm::cavalry, CombatKind::melee, r.sabres(Arm::infantry));
  out.cavalry_hits_taken = s.hits;
  cavalry.blocks = std::max(0, cavalry.blocks - s.hits);
  int bounce = 0;
  for (Symbol x : out.square_rolled)
    if ((r.square_bounce_on >> static_cast<int>(x)) & 1u) ++bounce;
  if (cavalry.blocks > 0 && bounce > 0) {
    // A bounce flag may not be ignored for any reason.
    out.bounced = true;
    retreat(b, cavalry.hex, cavalry_edge, retreat_hexes(r, Arm::cavalry, bounce, 0), true, occupied, out.cavalry_retreat);
    cavalry.blocks = std::max(0, cavalry.blocks - out.cavalry_retreat.blocks_lost);
    if (!out.cavalry_retreat.path.empty()) cavalry.hex = out.cavalry_retreat.path.back();
  }
  out.cavalry_eliminated = cavalry.blocks == 0;
  const bool repulsed = out.cavalry_eliminated ||
                        (out.bounced && !(r.bounced_but_stuck_attacks && out.cavalry_retreat.path.empty()));
  out.artillery_dice = combined_arms_dice_after(artillery_dice, out.cavalry_eliminated, repulsed);
  out.combined_arms_lost = artillery_dice > 0 && out.artillery_dice == 0;
  if (repulsed) return;
  // 2. The cavalry attacks with at most 1 die, less the square hex's terrain,
  // plus the combined-arms artillery (hitting on sabres as the cavalry does).
  out.cavalry_attacks = true;
  out.cavalry_dice = capped_dice(cavalry.blocks, r.square_cavalry_max_dice, b.terrain(square.hex).cover);
  roll_symbols(r, dice, out.cavalry_dice + out.artillery_dice, out.cavalry_rolled);
  const Score c = score(r, out.cavalry_rolled, Arm::infantry, CombatKind::melee, r.sabres(Arm::cavalry));
  out.square_hits_taken = c.hits;
  square.blocks = std::max(0, square.blocks - c.hits);
  if (square.blocks > 0 && c.flags > 0) {
    retreat(b, square.hex, square_edge, retreat_hexes(r, Arm::infantry, c.flags, square.ignore_flags), false, occupied,
            out.square_retreat);
    square.blocks = std::max(0, square.blocks - out.square_retreat.blocks_lost);
  }
  out.square_eliminated = square.blocks == 0;
}

// ---------------------------------------------------------- combined arms

CombinedArmsRefusal combined_arms(const Seed004Rules& r, const HexBoard& b, const BlockUnit& artillery,
                                  const BlockUnit& melee_unit, const BlockUnit& target, std::span<const BlockUnit> units) {
  if (artillery.arm != Arm::artillery) return CombinedArmsRefusal::not_artillery;
  if (!artillery.ordered) return CombinedArmsRefusal::not_ordered;
  if (melee_unit.arm == Arm::artillery || !melee_unit.ordered) return CombinedArmsRefusal::melee_unit;
  const int range = hex_distance(artillery.hex, target.hex);
  if (range < 1 || range > artillery_range(r, artillery.horse_artillery)) return CombinedArmsRefusal::out_of_range;
  // Over a friendly unit on a lower adjacent hex: the first hex of the line
  // of fire holds one. Where the line leaves along a hexside, only when both
  // hexes beside it do (as for line of sight).
  const int own_height = b.terrain(artillery.hex).height;
  auto friendly_lower = [&](Hex h) {
    if (b.terrain(h).height >= own_height) return false;
    for (const auto& u : units)
      if (u.side == artillery.side && u.blocks > 0 && u.hex == h) return true;
    return false;
  };
  // (The line's hexes are pure functions of the two ends: line(a, b)[k] is
  // HexBoard::line_at(a, b, k, n), the same expression without building the
  // line, and the other side's line is built only when its hexes are asked:
  // each `&&` below asks its right side only when the left holds, as before.)
  //
  // The other side's line without allocating (issue 32: the turn loop
  // allocates nothing): HexBoard::line(a, b, true)[k] for 0 < k < n is
  // lerp_hex(a, b, double(k) / n, -1.0), and HexBoard::sight_path's step
  // k - 1 has h2 = sight_step(a, b, k, n).h2, the same expression on the
  // same arguments (engine/board/hexboard.cpp): the same bits. Every k
  // asked below is strictly between the ends (range >= 2, 1 <= k < range).
  // This thread's scratch, its capacity kept.
  thread_local std::vector<SightStep> other_side;
  other_side.clear();
  auto other_line = [&](int k) {
    if (other_side.empty()) b.sight_path(artillery.hex, target.hex, other_side);
    return other_side[static_cast<std::size_t>(k - 1)].h2;
  };
  if (range >= 2) {
    if (friendly_lower(HexBoard::line_at(artillery.hex, target.hex, 1, range)) && friendly_lower(other_line(1)))
      return CombinedArmsRefusal::over_friendly_lower;
  }
  thread_local std::vector<Hex> occupied;  // this thread's scratch, its capacity kept
  occupied.clear();
  for (const auto& u : units)
    if (u.blocks > 0) occupied.push_back(u.hex);
  if (!b.line_of_sight_hex(artillery.hex, target.hex, occupied)) return CombinedArmsRefusal::no_line_of_sight;
  if (r.combined_arms_any_terrain_blocks && range >= 2) {
    // Seed 004: "No units or terrain may occupy the line of sight path": any
    // terrain but open between the two blocks it (where the line runs along
    // a hexside, when both hexes beside it hold some: as for sight).
    auto terrain = [&](Hex h) {
      const HexTerrain& t = b.terrain(h);
      return t.impassable || t.halts_movement || t.blocks_sight || t.cover > 0 || t.height > 0 || t.name != "open";
    };
    // A step blocks only where its first hex has terrain (same ? t1 : t1 && t2):
    // the other side's line is built at the first such step, if any.
    for (int k = 1; k + 1 <= range; ++k) {
      const Hex h1 = HexBoard::line_at(artillery.hex, target.hex, k, range);
      if (!terrain(h1)) continue;
      const Hex h2 = other_line(k);
      if (h1 == h2 || terrain(h2)) return CombinedArmsRefusal::no_line_of_sight;
    }
  }
  return CombinedArmsRefusal::none;
}

}  // namespace vedette
