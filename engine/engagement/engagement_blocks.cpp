// Seed 004 block units in the engagement engine (issue 8), the `blocks`
// module: the same turn sequence (engine/engagement/engagement.cpp) on a hex
// board, its combat resolved by seed 004's functions
// (engine/modules/blocks/seed004.hpp) instead of the figure rules. The turn
// calls this module's hooks (k_block_hooks below) for the charge, squares,
// shooting, melee and morale when the scenario names `blocks:`; go()
// (engine/engagement/engagement_movement.cpp) moves hex by hex on any hex
// board (hex_go, engine/engagement/engagement_hex_move.cpp). Battle's questions about block units are at the end of this file. The choices the seed does not make are listed in docs/hex.md
// ("The engagement over block units") and beside the data in
// tables/seed004.yaml.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>

#include "engine/engagement/engagement.hpp"

namespace vedette {

// The `blocks` module (seed 004; the module seam: engine/engagement/engagement.hpp,
// EngagementHooks). Seed 004 has no morale check before contact and no
// separate rally: its hooks replace the figure rules' charge, shooting,
// melee and morale; infantry attack after the contacts' melees.
const EngagementHooks Engagement::k_block_hooks{&Engagement::block_start,
                                                  &Engagement::block_charge,
                                                  &Engagement::block_formation_hook,
                                                  &Engagement::block_shooting,
                                                  &Engagement::block_melee,
                                                  &Engagement::block_infantry_attacks,
                                                  &Engagement::block_morale};

void Engagement::block_formation_hook(std::size_t i, bool square, std::string& what) { what = block_formation(i, square); }

namespace {

std::string symbols_str(std::span<const Symbol> s) {
  std::string out;
  for (Symbol x : s) out += (out.empty() ? "" : " ") + std::string(k_symbol_names[static_cast<std::size_t>(x)]);
  return "[" + out + "]";
}

std::string plural(int n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

}  // namespace

std::string Engagement::hex_str(std::size_t i) const {
  const Hex h = b_.hex()->hex_of(b_.units_[i].pos);
  return "hex [" + std::to_string(HexBoard::col_of(h)) + ", " + std::to_string(h.r) + "]";
}

void Engagement::block_start() {
  const Scenario& s = b_.scenario();
  for (std::size_t k = 0; k < 2; ++k) {
    CommandHand& h = b_.hands_[k];
    h.hand.clear();
    h.square_track.clear();
    const int n = s.sides[k].command_cards >= 0 ? s.sides[k].command_cards : blocks_->command_cards;
    for (int c = 0; c < n; ++c) h.hand.push_back(c);
  }
  square_card_.assign(b_.units_.size(), -1);
  pending_flags_.assign(b_.units_.size(), 0);
  // The module's scratch, sized once beyond what a turn asks (a battery per
  // unit; a melee's dice and a retreat's hexes are a few), so that a rarer,
  // bigger melee later does not grow them (issue 32: nothing allocates once
  // warmed; tests/no_alloc/test_no_alloc.cpp). reserve does nothing when
  // the capacity is there already (every reset after the first).
  constexpr std::size_t k_scratch = 32;
  melee_arts_.reserve(b_.units_.size());
  shoot_arts_.reserve(b_.units_.size());
  rolled_back_.reserve(k_scratch);
  retreat_.path.reserve(k_scratch);
  square_melee_.square_rolled.reserve(k_scratch);
  square_melee_.cavalry_rolled.reserve(k_scratch);
  square_melee_.cavalry_retreat.path.reserve(k_scratch);
  square_melee_.square_retreat.path.reserve(k_scratch);
  retire_result_.rolled.reserve(k_scratch);
  retire_result_.path.reserve(k_scratch);
}

// A charge over block units: the Actions Table's "(Charge?)" and seed 003's
// reach (charge_prospect, the bot's question) decide that it goes; seed 004
// has no initiation or morale check, so it moves hex by hex up to its charge
// range and, adjacent to the target, melees it.
bool Engagement::block_charge(std::size_t i, std::size_t t, bool /*declared: no initiation check*/, Pace pace) {
  b_.units_[i].moved_this_turn = true;
  block_charge_move(i, t, pace);
  return true;
}

void Engagement::block_charge_move(std::size_t i, std::size_t t, Pace pace) {
  Unit& u = b_.units_[i];
  SideOutcome& so = out_.sides[u.side];
  if (u.order != Order::good || u.in_square() || !b_.units_[t].active()) {
    if (rec_) {
      Event e = event("movement", "charge_refused", i);
      e.text = name(i) + (u.in_square() ? " is in square and may not move (seed 004)" : " has no one to charge");
      emit(std::move(e));
    }
    return;
  }
  pace = u.on_horse() ? b_.pace_limit(i, pace) : Pace::walk;
  // Kept: an opportunity charge's test asked it (Engagement::prospect_kept,
  // engagement_charge.cpp); read before any other prospect is kept.
  const ChargeProspect& p = prospect_kept(i, t, pace);
  ++so.charges_launched;
  u.charged_this_turn = true;
  moved_pace_[i] = pace;
  const HexBoard& hb = *b_.hex();
  const int away = hex_distance(b_.unit_hex(i), b_.unit_hex(t));
  const double moved = b_.adjacent(i, t) ? 0.0 : hex_go(i, b_.units_[t].pos, p.max_range);
  moved_cm_[i] += moved;
  const bool contact = b_.adjacent(i, t);
  if (contact) u.facing = b_.pair_bearing(i, t);  // bearing_deg(u.pos, the target's), kept per pair of places
  if (rec_) {
    const int hexes = static_cast<int>(std::lround(moved / hb.hex_size().as_cm()));
    Event e = event("movement", "charge", i);
    e.text = name(i) + " charges " + name(t) + " at " + std::string(pace_name(pace)) + ": " + plural(away, "hex", "hexes") +
             " away, a charge move of " + len(p.max_range) + "; moves " + plural(hexes, "hex", "hexes") + " to " + hex_str(i) +
             (contact ? ", in contact" : ", and falls short");
    e.with("target", name(t))
        .with("hexes_away", static_cast<long long>(away))
        .with("hexes_moved", static_cast<long long>(hexes))
        .with("distance_cm", p.distance.as_cm())
        .with("range_cm", p.max_range.as_cm())
        .with("min_distance_cm", p.min_distance.as_cm())
        .with("bonus", false)  // seed 004 has no charge bonus
        .with("reaches", contact);
    emit(std::move(e));
  }
  if (!contact) {
    ++so.charges_short;
    return;
  }
  ++so.charges_stood;
  u.engaged = true;
  b_.units_[t].engaged = true;
  Contact c;
  c.attacker = static_cast<UnitIndex>(i);
  c.defender = static_cast<UnitIndex>(t);
  c.charge = true;
  c.bearing = u.facing;
  contacts_.push_back(c);
}

void Engagement::block_hits(std::size_t i, int hits, const char* phase) {
  Unit& u = b_.units_[i];
  if (hits <= 0 || !u.active()) return;
  SideOutcome& so = out_.sides[u.side];
  const int n = std::min(hits, u.figures);
  const std::uint64_t before = b_.changes_;  // for place_bits_follow
  const std::size_t place = b_.unit_place(i);
  u.figures -= n;
  b_.changed();
  so.figures_lost += n;
  if (rec_) {
    Event e = event(phase, "casualties", i);
    e.text = name(i) + " loses " + plural(n, "block", "blocks") + "; " + std::to_string(u.figures) + " left";
    e.with("hits", static_cast<long long>(n)).with("figures_left", static_cast<long long>(u.figures));
    emit(std::move(e));
  }
  if (u.figures == 0) {
    u.off_table = true;
    b_.changed();
    u.engaged = false;
    ++so.destroyed;
    // Seed 004: when a square's last block is removed its card returns to the hand.
    if (square_card_[i] >= 0) {
      return_square_card(b_.hands_[u.side], square_card_[i]);
      square_card_[i] = -1;
    }
    if (rec_) {
      Event e = event(phase, "destroyed", i);
      e.text = name(i) + " is eliminated";
      emit(std::move(e));
    }
  }
  place_bits_follow(i, place, true, before);
}

// Seed 004: a retreat of `hexes` toward the own edge; a block lost per hex
// it cannot complete (a square completes none). True if it moved.
bool Engagement::block_retreat(std::size_t i, int hexes, const char* why) {
  Unit& u = b_.units_[i];
  if (!u.active() || hexes <= 0) return false;
  const HexBoard& hb = *b_.hex();
  const Edge own = b_.scenario().sides[u.side].edge;
  Retreat& rt = retreat_;  // filled in place: no allocation once grown
  vedette::retreat(hb, b_.unit_hex(i), own, hexes, !u.in_square(), b_.occupied(), rt);
  if (!rt.path.empty()) {
    const std::uint64_t before = b_.changes_;  // for place_bits_follow
    const std::size_t place = b_.unit_place(i);
    b_.place_on_hex(i, rt.path.back());  // u.pos = hb.centre(...), its hex kept
    b_.changed();
    place_bits_follow(i, place, true, before);
    u.retreated_this_turn = true;
    u.engaged = false;
  }
  if (rec_) {
    Event e = event("melee", "retreat", i);
    e.text = name(i) + " " + why + ": retreats " + std::to_string(rt.path.size()) + " of " + plural(hexes, "hex", "hexes") +
             " toward its own edge to " + hex_str(i) +
             (rt.blocks_lost > 0 ? ", losing a block for each hex it cannot take (seed 004)" : std::string(" (seed 004)"));
    e.with("hexes", static_cast<long long>(rt.path.size())).with("blocks_lost", static_cast<long long>(rt.blocks_lost));
    emit(std::move(e));
  }
  block_hits(i, rt.blocks_lost, "melee");
  return !rt.path.empty();
}

// Ranged combat: infantry (a die per block, at most engagement.infantry_range
// hexes) and artillery (dice by range); none with an enemy adjacent (seed
// 004: a square "may engage in ranged combat when there are no enemy units in
// an adjacent hex"; choice: every unit so). Artillery that may add its dice
// to one of its side's melees this turn holds its fire for it (choice).
// Hits and flags land after every unit has fired.
void Engagement::block_shooting() {
  const Seed004Rules& r = *blocks_;
  const HexBoard& hb = *b_.hex();
  std::fill(pending_hits_.begin(), pending_hits_.end(), 0);
  std::fill(pending_flags_.begin(), pending_flags_.end(), 0);
  std::fill(b_.fired_.begin(), b_.fired_.end(), std::uint8_t{0});
  // Boards of at most 128 hexes with every active unit on the board and of
  // side 0 or 1: each side's active units' places as bits (place_bits, kept
  // per change of the battle), so that "an enemy is adjacent" is the unit's
  // neighbours (Battle::neighbour_bits_: hex distance 1 is being a
  // neighbour) against the other side's bits.
  const PlaceBits* bits = place_bits();
  const bool by_bits = bits != nullptr;
  // Elsewhere each active unit's hex (Battle::unit_hex), read once for the
  // search of an adjacent enemy: no unit moves or leaves until the hits and
  // flags land after the loop. Kept in hex_go's scratch (reserved for every
  // unit; hex_go is not called in the loop). With the bits only the
  // shooter's and its target's hexes are asked (the same answers: unit_hex
  // is a function of the position).
  go_others_.clear();
  if (!by_bits)
    for (std::size_t j = 0; j < b_.units_.size(); ++j)
      go_others_.push_back(GoOther{b_.units_[j].active() ? b_.unit_hex(j) : Hex{}, false});
  const auto hex_of_unit = [&](std::size_t j) { return by_bits ? b_.unit_hex(j) : go_others_[j].hex; };
  for (std::size_t i = 0; i < b_.units_.size(); ++i) {
    const Unit& u = b_.units_[i];
    if (!u.active() || u.engaged || u.charged_this_turn || u.order == Order::routed) continue;
    const Arm arm = b_.arm_of(i);
    const int range = arm == Arm::artillery ? artillery_range(r, b_.scenario().units[i].horse_artillery)
                                            : arm == Arm::infantry ? r.infantry_range : 0;
    if (range <= 0) continue;
    bool adjacent_enemy = false;
    const Hex hi = hex_of_unit(i);  // Battle::adjacent(i, j) on the hexes read above
    if (by_bits) {
      const auto& near = b_.neighbour_bits_[b_.unit_place(i)];
      const std::uint64_t(&theirs)[2] = bits->side[1 - u.side];
      adjacent_enemy = ((near[0] & theirs[0]) | (near[1] & theirs[1])) != 0;
    } else {
      for (std::size_t j = 0; j < b_.units_.size() && !adjacent_enemy; ++j)
        adjacent_enemy = b_.units_[j].active() && b_.enemies(i, j) && hex_distance(hi, go_others_[j].hex) == 1;
    }
    if (adjacent_enemy) continue;
    if (arm == Arm::artillery) {
      // The melees to come this turn: the charges' contacts, and its side's
      // infantry adjacent to an enemy (block_infantry_attacks).
      std::vector<UnitIndex>& arts = shoot_arts_;  // the engagement's scratch
      auto supports = [&](std::size_t att, std::size_t def) {
        return b_.units_[att].side == u.side && b_.combined_arms_dice(att, def, &arts) > 0 &&
               std::find(arts.begin(), arts.end(), static_cast<UnitIndex>(i)) != arts.end();
      };
      bool keep = false;
      for (const Contact& c : contacts_)
        keep = keep || supports(static_cast<std::size_t>(c.attacker), static_cast<std::size_t>(c.defender));
      for (std::size_t k = 0; k < b_.units_.size() && !keep; ++k) {
        const Unit& f = b_.units_[k];
        if (f.side != u.side || !f.active() || f.engaged || f.order != Order::good || b_.arm_of(k) != Arm::infantry) continue;
        for (std::size_t j = 0; j < b_.units_.size() && !keep; ++j)
          keep = b_.units_[j].active() && b_.enemies(k, j) && b_.adjacent(k, j) && supports(k, j);
      }
      if (keep) {
        if (rec_) {
          Event e = event("shooting", "hold_fire", i);
          e.text = name(i) + " holds its fire for a combined-arms melee (seed 004)";
          emit(std::move(e));
        }
        continue;
      }
    }
    const UnitIndex tt = b_.nearest_enemy(i, true);
    if (tt == k_no_unit) continue;
    const auto t = static_cast<std::size_t>(tt);
    const Hex th = hex_of_unit(t);  // t is active (nearest_enemy)
    const int dist = hex_distance(hi, th);
    if (dist > range) continue;
    const int n = unit_dice(r, b_.block_of(i), dist, hb.terrain(th).cover);
    b_.fired_[i] = 1;
    if (n <= 0) continue;
    roll_symbols(r, shooting_, n, rolled_);
    const std::vector<Symbol>& rolled = rolled_;
    const Score sc = score(r, rolled, b_.arm_of(t), CombatKind::ranged, false);
    pending_hits_[t] += sc.hits;
    pending_flags_[t] += sc.flags;
    out_.sides[u.side].shooting_hits += sc.hits;
    if (rec_) {
      Event e = event("shooting", "shoot", i);
      e.text = name(i) + " fires at " + name(t) + " (" + plural(dist, "hex", "hexes") + "): " + plural(n, "die", "dice") + " " +
               symbols_str(rolled) + " = " + plural(sc.hits, "hit", "hits") + ", " + plural(sc.flags, "flag", "flags") + " (seed 004 symbols)";
      e.with("target", name(t))
          .with("hexes", static_cast<long long>(dist))
          .with("dice", static_cast<long long>(n))
          .with("symbols", symbols_str(rolled))
          .with("hits", static_cast<long long>(sc.hits))
          .with("flags", static_cast<long long>(sc.flags));
      emit(std::move(e));
    }
  }
  for (std::size_t t = 0; t < b_.units_.size(); ++t) {
    if (pending_hits_[t] > 0) block_hits(t, pending_hits_[t], "shooting");
    if (pending_flags_[t] > 0 && b_.units_[t].active())
      block_retreat(t, retreat_hexes(r, b_.arm_of(t), pending_flags_[t], 0), "is driven back by fire");
  }
}

// Seed 004 (choice of when): infantry in good order with an enemy adjacent
// after the charges' melees melees it, cavalry first, a square too (with its
// single die). Cavalry only melees by charging (the Actions Table).
void Engagement::block_infantry_attacks() {
  // As in block_shooting: on boards of at most 128 hexes with every active
  // unit on the board and of side 0 or 1, each side's places as bits tell
  // at once whether any enemy is adjacent (Battle::neighbour_bits_); most
  // infantry has none, and skips the search. Only block_melee moves or
  // removes units here; the bits (place_bits) are asked again after each.
  const PlaceBits* bits = place_bits();
  for (std::size_t i = 0; i < b_.units_.size(); ++i) {
    Unit& u = b_.units_[i];
    if (!u.active() || u.engaged || u.order != Order::good || b_.arm_of(i) != Arm::infantry) continue;
    if (bits != nullptr) {
      const auto& near = b_.neighbour_bits_[b_.unit_place(i)];
      const std::uint64_t(&theirs)[2] = bits->side[1 - u.side];
      if (((near[0] & theirs[0]) | (near[1] & theirs[1])) == 0) continue;  // no enemy adjacent: no target
    }
    UnitIndex target = k_no_unit;
    const Hex hi = b_.unit_hex(i);  // Battle::adjacent(i, j), the unit's hex read once
    for (std::size_t j = 0; j < b_.units_.size(); ++j) {
      const Unit& v = b_.units_[j];
      if (!v.active() || !b_.enemies(i, j) || hex_distance(hi, b_.unit_hex(j)) != 1) continue;
      if (v.cavalry()) {
        target = static_cast<UnitIndex>(j);
        break;
      }
      if (target == k_no_unit) target = static_cast<UnitIndex>(j);
    }
    if (target == k_no_unit) continue;
    if (rec_) {
      Event e = event("melee", "attack", i);
      e.text = name(i) + " attacks the adjacent " + name(static_cast<std::size_t>(target)) + " in melee";
      emit(std::move(e));
    }
    u.engaged = true;
    b_.units_[static_cast<std::size_t>(target)].engaged = true;
    Contact c;
    c.attacker = static_cast<UnitIndex>(i);
    c.defender = target;
    block_melee(c);
    bits = place_bits();
  }
}

// Seed 004's melee between two adjacent block units, in the rule's order:
// the combined-arms dice are declared, the infantry may form square, the
// batteries join; cavalry against a square follows seed 004's square
// sequence; cavalry attacked by infantry may retire and reform; otherwise the
// attacker rolls and the defender battles back.
void Engagement::block_melee(const Contact& c) {
  const auto a = static_cast<std::size_t>(c.attacker);
  const auto d = static_cast<std::size_t>(c.defender);
  Unit& A = b_.units_[a];
  Unit& D = b_.units_[d];
  if (!A.active() || !D.active() || !b_.adjacent(a, d)) {
    if (rec_) {
      Event e = event("melee", "no_melee", a);
      e.text = "No melee between " + name(a) + " and " + name(d) + ": no longer adjacent";
      emit(std::move(e));
    }
    return;
  }
  const Seed004Rules& r = *blocks_;
  const HexBoard& hb = *b_.hex();
  const Arm arm_a = b_.arm_of(a), arm_d = b_.arm_of(d);
  // Seed 004, Combined Arms: an ordered artillery unit in range with a clear
  // line of sight adds its dice (declared before any dice are rolled).
  std::vector<UnitIndex>& arts = melee_arts_;  // the engagement's scratch (combined_arms_dice clears it)
  const int art_dice = b_.combined_arms_dice(a, d, &arts);
  block_offer_square(a, d);
  block_combine_arms(a, d, arts);
  if (arm_a == Arm::cavalry && arm_d == Arm::infantry && D.in_square()) {
    block_melee_square(a, d, art_dice, arts);
    return;
  }
  const int dice_a = melee_dice(r, b_.block_of(a), b_.block_of(d), hb.terrain(b_.unit_hex(d)).cover);
  // Seed 004, Retire and Reform: cavalry attacked in melee by infantry may
  // choose it before the dice.
  if (arm_a == Arm::infantry && arm_d == Arm::cavalry && block_retire_and_reform(a, d, dice_a, art_dice)) return;
  block_melee_exchange(c, dice_a, art_dice, arts);
}

// Seed 004, Infantry Square: the infantry's choice before a cavalry melee.
void Engagement::block_offer_square(std::size_t a, std::size_t d) {
  const Seed004Rules& r = *blocks_;
  const HexBoard& hb = *b_.hex();
  Unit& D = b_.units_[d];
  SideOutcome& sd = out_.sides[D.side];
  const Arm arm_a = b_.arm_of(a), arm_d = b_.arm_of(d);
  // Seed 004, Infantry Square: the infantry's choice before a cavalry melee.
  if (arm_a == Arm::cavalry && arm_d == Arm::infantry && !D.in_square() && r_.charge.infantry_square.enabled) {
    const SquareRefusal why =
        may_form_square(r, static_cast<int>(b_.hands_[D.side].hand.size()), hb.terrain(b_.unit_hex(d)), false, false);
    if (why == SquareRefusal::none && bots_[D.side]->form_square(b_, d, a)) {
      D.formation = Formation::square;
      b_.changed();
      ++sd.squares_formed;
      square_card_[d] = place_square_card(b_.hands_[D.side], melee_);
      if (rec_) {
        Event e = event("melee", "square", d);
        e.text = name(d) + " forms square against " + name(a) + " (seed 004): a command card drawn at random goes to the square track, " +
                 plural(static_cast<int>(b_.hands_[D.side].hand.size()), "card", "cards") + " left in hand";
        e.with("cards_in_hand", static_cast<long long>(b_.hands_[D.side].hand.size()));
        emit(std::move(e));
      }
    } else if (why != SquareRefusal::none && rec_) {
      Event e = event("melee", "no_square", d);
      e.text = name(d) + " may not form square: " + std::string(k_square_refusal_names[static_cast<std::size_t>(why)]) + " (seed 004)";
      emit(std::move(e));
    }
  }
}

// Seed 004: "one or more ordered artillery units may combine": each battery
// that adds its dice has fired.
void Engagement::block_combine_arms(std::size_t a, std::size_t d, const std::vector<UnitIndex>& arts) {
  const Seed004Rules& r = *blocks_;
  const HexBoard& hb = *b_.hex();
  const Unit& D = b_.units_[d];
  for (UnitIndex ai : arts) {
    const auto k = static_cast<std::size_t>(ai);
    b_.fired_[k] = 1;
    if (rec_) {
      const int dist = hex_distance(hb.hex_of(b_.units_[k].pos), hb.hex_of(D.pos));
      const int n = unit_dice(r, b_.block_of(k), dist, hb.terrain(hb.hex_of(D.pos)).cover);
      Event e = event("melee", "combined_arms", k);
      e.text = name(k) + " combines arms with " + name(a) + ": " + plural(n, "die", "dice") + " at " + plural(dist, "hex", "hexes") +
               ", clear line of sight (seed 004)";
      e.with("dice", static_cast<long long>(n)).with("with", name(a));
      emit(std::move(e));
    }
  }
}

// Cavalry against a square: seed 004's sequence (resolve_cavalry_vs_square):
// the square battles first; a bounce sends the cavalry back and loses the
// combined arms; else the cavalry attacks with at most 1 die.
void Engagement::block_melee_square(std::size_t a, std::size_t d, int art_dice, const std::vector<UnitIndex>& arts) {
  const Seed004Rules& r = *blocks_;
  const HexBoard& hb = *b_.hex();
  Unit& A = b_.units_[a];
  const Unit& D = b_.units_[d];
  SideOutcome& sa = out_.sides[A.side];
  SideOutcome& sd = out_.sides[D.side];
  const Edge edge_a = b_.scenario().sides[A.side].edge, edge_d = b_.scenario().sides[D.side].edge;
  BlockUnit cav = b_.block_of(a), sq = b_.block_of(d);
  const int cav_before = cav.blocks, sq_before = sq.blocks;
  SquareMelee& m = square_melee_;  // filled in place: no allocation once grown
  resolve_cavalry_vs_square(r, hb, cav, edge_a, sq, edge_d, art_dice, b_.occupied(), melee_, m);
  sd.melee_hits += m.cavalry_hits_taken;
  if (rec_) {
    Event e = event("melee", "square_first", d);
    e.text = name(d) + " in square battles first with " + plural(m.square_dice, "die", "dice") + " " + symbols_str(m.square_rolled) + " = " +
             plural(m.cavalry_hits_taken, "hit", "hits") +
             (m.bounced ? ": a bounce flag, " + name(a) + " must retreat " + std::to_string(m.cavalry_retreat.path.size()) + " hex" +
                              (m.cavalry_retreat.blocks_lost > 0 ? " and loses a block per hex it cannot take" : "")
                        : std::string(": no bounce")) +
             " (seed 004)";
    e.with("dice", static_cast<long long>(m.square_dice))
        .with("symbols", symbols_str(m.square_rolled))
        .with("hits", static_cast<long long>(m.cavalry_hits_taken))
        .with("bounce", m.bounced);
    emit(std::move(e));
  }
  if (!m.cavalry_retreat.path.empty()) {
    A.pos = hb.centre(cav.hex);
    b_.changed();
    A.retreated_this_turn = true;
  }
  block_hits(a, cav_before - cav.blocks, "melee");
  if (m.bounced) ++sa.charges_repulsed;
  if (m.combined_arms_lost && rec_)
    for (UnitIndex ai : arts) {
      Event e = event("melee", "combined_arms_lost", static_cast<std::size_t>(ai));
      e.text = name(static_cast<std::size_t>(ai)) + "'s combined-arms dice are lost: the cavalry was repulsed first (seed 004)";
      emit(std::move(e));
    }
  if (m.cavalry_attacks) {
    sa.melee_hits += m.square_hits_taken;
    if (rec_) {
      Event e = event("melee", "melee", a);
      e.text = name(a) + " attacks the square with " + plural(m.cavalry_dice, "die", "dice") +
               (m.artillery_dice > 0 ? " and " + plural(m.artillery_dice, "artillery die", "artillery dice") : std::string()) + " " +
               symbols_str(m.cavalry_rolled) + " = " + plural(m.square_hits_taken, "hit", "hits") +
               (m.square_retreat.blocks_lost > 0 ? "; the square cannot retreat and loses " + plural(m.square_retreat.blocks_lost, "block", "blocks")
                                                 : std::string()) +
               " (seed 004: at most 1 die against a square)";
      e.with("dice", static_cast<long long>(m.cavalry_dice))
          .with("artillery_dice", static_cast<long long>(m.artillery_dice))
          .with("symbols", symbols_str(m.cavalry_rolled))
          .with("hits", static_cast<long long>(m.square_hits_taken));
      emit(std::move(e));
    }
    block_hits(d, sq_before - sq.blocks, "melee");
  }
}

// Seed 004, Retire and Reform, offered to cavalry attacked in melee by
// infantry: true when it took it (the melee is over).
bool Engagement::block_retire_and_reform(std::size_t a, std::size_t d, int dice_a, int art_dice) {
  const Seed004Rules& r = *blocks_;
  const HexBoard& hb = *b_.hex();
  Unit& A = b_.units_[a];
  Unit& D = b_.units_[d];
  SideOutcome& sa = out_.sides[A.side];
  SideOutcome& sd = out_.sides[D.side];
  const Edge edge_d = b_.scenario().sides[D.side].edge;
  BlockUnit cav = b_.block_of(d);
  const RetireRefusal why = b_.retire_refusal(d);  // may_retire_and_reform, kept for the bot's same question
  if (why == RetireRefusal::none && bots_[D.side]->retire_and_reform(b_, d, a)) {
    const int before = cav.blocks;
    RetireResult& rr = retire_result_;  // filled in place: no allocation once grown
    resolve_retire_and_reform(r, hb, cav, dice_a, art_dice, edge_d, b_.occupied(), melee_, rr);
    ++sd.retire_and_reform;
    sa.melee_hits += rr.hits;
    if (rec_) {
      Event e = event("melee", "retire_and_reform", d);
      e.text = name(d) + " retires and reforms (seed 004): " + name(a) + " rolls " + plural(dice_a, "die", "dice") +
               (art_dice > 0 ? " and " + plural(art_dice, "artillery die", "artillery dice") : std::string()) +
               " hitting only on cavalry symbols " + symbols_str(rr.rolled) + " = " + plural(rr.hits, "hit", "hits");
      e.with("symbols", symbols_str(rr.rolled)).with("hits", static_cast<long long>(rr.hits));
      emit(std::move(e));
    }
    const Hex vacated = b_.unit_hex(d);
    block_hits(d, before - cav.blocks, "melee");
    if (D.active() && !rr.path.empty()) {
      D.pos = hb.centre(cav.hex);
      b_.changed();
      D.retreated_this_turn = true;
      D.engaged = false;
      if (rec_) {
        Event e = event("melee", "retire", d);
        e.text = name(d) + " retires " + plural(static_cast<int>(rr.path.size()), "hex", "hexes") + " toward its own edge to " + hex_str(d) +
                 " and may not battle back";
        e.with("hexes", static_cast<long long>(rr.path.size()));
        emit(std::move(e));
      }
    }
    if (b_.unit_hex(d) != vacated || !D.active()) {
      // Seed 004: the infantry may take ground (a switch); a square may not.
      if (r.infantry_takes_ground && may_take_ground(b_.block_of(a))) {
        A.pos = hb.centre(vacated);
        b_.changed();
        if (rec_) {
          Event e = event("melee", "take_ground", a);
          e.text = name(a) + " takes ground into " + hex_str(a) + " (seed 004)";
          emit(std::move(e));
        }
      }
    }
    return true;
  }
  if (why != RetireRefusal::none && rec_) {
    Event e = event("melee", "no_retire", d);
    e.text = name(d) + " may not retire and reform: " + std::string(k_retire_refusal_names[static_cast<std::size_t>(why)]) + " (seed 004)";
    emit(std::move(e));
  }
  return false;
}

// An ordinary melee: the attacker's dice with any combined arms, then the
// defender battles back if it is still there -- against the melee unit,
// never the artillery (seed 004).
void Engagement::block_melee_exchange(const Contact& c, int dice_a, int art_dice, const std::vector<UnitIndex>& arts) {
  const auto a = static_cast<std::size_t>(c.attacker);
  const auto d = static_cast<std::size_t>(c.defender);
  const Seed004Rules& r = *blocks_;
  const HexBoard& hb = *b_.hex();
  const Unit& D = b_.units_[d];
  SideOutcome& sa = out_.sides[b_.units_[a].side];
  SideOutcome& sd = out_.sides[D.side];
  const Arm arm_a = b_.arm_of(a), arm_d = b_.arm_of(d);
  const std::size_t art = arts.empty() ? static_cast<std::size_t>(-1) : static_cast<std::size_t>(arts.front());
  roll_symbols(r, melee_, dice_a + art_dice, rolled_);
  const std::vector<Symbol>& rolled = rolled_;
  const Score sc = score(r, rolled, arm_d, CombatKind::melee, r.sabres(arm_a));
  sa.melee_hits += sc.hits;
  if (rec_) {
    Event e = event("melee", "melee", a);
    e.text = name(a) + " melees " + name(d) + " with " + plural(dice_a, "die", "dice") +
             (art_dice > 0 ? " and " + plural(art_dice, "artillery die", "artillery dice") : std::string()) + " " + symbols_str(rolled) + " = " +
             plural(sc.hits, "hit", "hits") + ", " + plural(sc.flags, "flag", "flags");
    e.with("defender", name(d))
        .with("dice", static_cast<long long>(dice_a))
        .with("artillery_dice", static_cast<long long>(art_dice))
        .with("symbols", symbols_str(rolled))
        .with("hits", static_cast<long long>(sc.hits))
        .with("flags", static_cast<long long>(sc.flags));
    emit(std::move(e));
  }
  block_hits(d, sc.hits, "melee");
  bool driven_off = !D.active();
  if (D.active() && sc.flags > 0) driven_off = block_retreat(d, retreat_hexes(r, arm_d, sc.flags, 0), "gives ground");
  // (charges_broke stays 0 over blocks: it counts failed morale checks,
  // which seed 004 does not have; charges_stood counts every charge melee.)
  if (driven_off || !D.active()) return;
  const std::size_t back = battle_back_target(a, arts.empty() ? std::nullopt : std::optional<std::size_t>(art));
  if (!b_.units_[back].active() || !b_.adjacent(d, back)) return;
  // Seed 004: cavalry battling back against a square rolls at most 1 die.
  const int dice_d = melee_dice(r, b_.block_of(d), b_.block_of(back), hb.terrain(b_.unit_hex(back)).cover);
  roll_symbols(r, melee_, dice_d, rolled_back_);
  const std::vector<Symbol>& rolled_d = rolled_back_;
  const Score sb = score(r, rolled_d, b_.arm_of(back), CombatKind::melee, r.sabres(arm_d));
  sd.melee_hits += sb.hits;
  if (rec_) {
    Event e = event("melee", "battle_back", d);
    e.text = name(d) + " battles back against " + name(back) + " with " + plural(dice_d, "die", "dice") + " " + symbols_str(rolled_d) + " = " +
             plural(sb.hits, "hit", "hits") + ", " + plural(sb.flags, "flag", "flags");
    e.with("dice", static_cast<long long>(dice_d))
        .with("symbols", symbols_str(rolled_d))
        .with("hits", static_cast<long long>(sb.hits))
        .with("flags", static_cast<long long>(sb.flags));
    emit(std::move(e));
  }
  block_hits(back, sb.hits, "melee");
  if (b_.units_[back].active() && sb.flags > 0 && block_retreat(back, retreat_hexes(r, b_.arm_of(back), sb.flags, 0), "is thrown back") &&
      c.charge)
    ++sa.charges_repulsed;
}

// A bot's order to form square or to come out of it, over block units: by
// seed 004's rules (the ruleset switch, may_form_square with the hand, a card
// to the square track; out only with no enemy cavalry adjacent, the card
// back). Returns the account's words.
std::string Engagement::block_formation(std::size_t i, bool square) {
  Unit& u = b_.units_[i];
  const HexBoard& hb = *b_.hex();
  if (b_.arm_of(i) != Arm::infantry) return "holds";
  if (square) {
    if (u.in_square() || !r_.charge.infantry_square.enabled) return "holds";
    const SquareRefusal why =
        may_form_square(*blocks_, static_cast<int>(b_.hands_[u.side].hand.size()), hb.terrain(b_.unit_hex(i)), false, false);
    if (why != SquareRefusal::none) return "holds: may not form square, " + std::string(k_square_refusal_names[static_cast<std::size_t>(why)]) + " (seed 004)";
    u.formation = Formation::square;
    b_.changed();
    ++out_.sides[u.side].squares_formed;
    square_card_[i] = place_square_card(b_.hands_[u.side], decisions_);
    return "forms square (seed 004: a random command card to the square track)";
  }
  if (!u.in_square()) return "holds";
  for (std::size_t j = 0; j < b_.units_.size(); ++j)
    if (b_.units_[j].active() && b_.units_[j].cavalry() && b_.enemies(i, j) && b_.adjacent(i, j))
      return "stays in square: enemy cavalry is adjacent (seed 004)";
  u.formation = Formation::line;
  b_.changed();
  if (square_card_[i] >= 0) {
    return_square_card(b_.hands_[u.side], square_card_[i]);
    square_card_[i] = -1;
  }
  return "comes out of square; its command card returns to the hand (seed 004)";
}

// Seed 004: a square comes out of square (the owner's choice: as soon as it
// may) only with no enemy cavalry adjacent; its command card goes back to the
// hand. Block units have no rout or rally: they are eliminated block by block.
void Engagement::block_morale() {
  for (std::size_t i = 0; i < b_.units_.size(); ++i) {
    Unit& u = b_.units_[i];
    if (!u.active() || !u.in_square()) continue;
    bool cavalry_adjacent = false;
    for (std::size_t j = 0; j < b_.units_.size() && !cavalry_adjacent; ++j)
      cavalry_adjacent = b_.units_[j].active() && b_.units_[j].cavalry() && b_.enemies(i, j) && b_.adjacent(i, j);
    if (cavalry_adjacent) {
      if (rec_) {
        Event e = event("morale", "stays_in_square", i);
        e.text = name(i) + " stays in square: enemy cavalry is adjacent (seed 004)";
        emit(std::move(e));
      }
      continue;
    }
    u.formation = Formation::line;
    b_.changed();
    if (square_card_[i] >= 0) {
      return_square_card(b_.hands_[u.side], square_card_[i]);
      square_card_[i] = -1;
    }
    if (rec_) {
      Event e = event("morale", "leaves_square", i);
      e.text = name(i) + " comes out of square; its command card returns to the hand (seed 004)";
      emit(std::move(e));
    }
  }
}

// ----------------------------------------------- the battle's questions
// Battle's questions about seed 004 block units on a hex board
// (engine/engagement/battle.hpp, issue 8).

Arm Battle::arm_of(std::size_t i) const {
  if (units_[i].cavalry()) return Arm::cavalry;
  return scenario_->units[i].artillery ? Arm::artillery : Arm::infantry;
}

BlockUnit Battle::block_of(std::size_t i) const {
  const Unit& u = units_[i];
  BlockUnit b;
  b.arm = arm_of(i);
  b.side = u.side;
  b.blocks = u.active() ? u.figures : 0;
  b.hex = unit_hex(i);
  b.horse_artillery = scenario_->units[i].horse_artillery;
  b.in_square = u.in_square();
  b.ordered = fired_[i] == 0;
  return b;
}

RetireRefusal Battle::retire_refusal(std::size_t i) const {
  if (retire_memo_.at == changes_ && retire_memo_.unit == i) return retire_memo_.why;
  const BlockUnit cav = block_of(i);
  const RetireRefusal why =
      may_retire_and_reform(*blocks_, *hex_, cav, Arm::infantry, scenario_->sides[cav.side].edge, occupied(), false);
  retire_memo_ = RetireMemo{changes_, i, why};
  return why;
}

const std::vector<Hex>& Battle::occupied() const {
  if (occupied_at_ == changes_) return occupied_;  // nothing changed since: the same hexes
  occupied_at_ = changes_;
  occupied_.clear();
  for (std::size_t k = 0; k < units_.size(); ++k)
    if (units_[k].active()) occupied_.push_back(unit_hex(k));
  return occupied_;
}

int Battle::combined_arms_dice(std::size_t attacker, std::size_t target, std::vector<UnitIndex>* artillery) const {
  if (arms_memo_.empty()) return combined_arms_dice_fresh(attacker, target, artillery);
  // The bits the answer reads that the epoch does not see (ArmsMemo), and
  // the fresh computation's first test: without an active artillery unit
  // on the attacker's side the answer is 0 (neither kept nor the world
  // synced for it: most scenarios have no artillery).
  std::uint64_t fired = fired_[attacker] != 0 ? std::uint64_t{1} << attacker : 0, square = 0;
  bool any = false;
  for (std::uint64_t m = artillery_bits_; m != 0; m &= m - 1) {
    const auto k = static_cast<std::size_t>(std::countr_zero(m));
    if (fired_[k] != 0) fired |= std::uint64_t{1} << k;
    if (units_[k].in_square()) square |= std::uint64_t{1} << k;
    any = any || (units_[k].side == units_[attacker].side && units_[k].active());
  }
  if (!any) {
    if (artillery) artillery->clear();
    return 0;
  }
  if (world_synced_ != changes_) sync_world();
  ArmsMemo& e = arms_memo_[attacker * units_.size() + target];
  if (e.epoch == world_epoch_ && e.fired == fired && e.square == square) {
    if (artillery) {
      artillery->clear();
      for (std::uint64_t m = e.arts; m != 0; m &= m - 1) artillery->push_back(static_cast<UnitIndex>(std::countr_zero(m)));
    }
    return e.dice;
  }
  std::vector<UnitIndex>& list = artillery ? *artillery : arms_scratch_;
  e.dice = combined_arms_dice_fresh(attacker, target, &list);
  e.arts = 0;
  for (const UnitIndex k : list) e.arts |= std::uint64_t{1} << k;
  e.epoch = world_epoch_;
  e.fired = fired;
  e.square = square;
  return e.dice;
}

int Battle::combined_arms_dice_fresh(std::size_t attacker, std::size_t target, std::vector<UnitIndex>* artillery) const {
  if (artillery) artillery->clear();
  if (!blocks_ || !hex_) return 0;
  const Seed004Rules& r = *blocks_;
  // Only an artillery unit with blocks on the attacker's side adds (the
  // loop below); without one the answer is 0, unasked.
  bool any = false;
  for (std::size_t k = 0; k < units_.size() && !any; ++k)
    any = units_[k].side == units_[attacker].side && units_[k].active() && arm_of(k) == Arm::artillery;
  if (!any) return 0;
  block_units_.clear();
  for (std::size_t k = 0; k < units_.size(); ++k) block_units_.push_back(block_of(k));
  const BlockUnit& melee = block_units_[attacker];
  const BlockUnit& tgt = block_units_[target];
  if (melee.arm == Arm::artillery) return 0;
  // Seed 004: "one or more ordered artillery units may combine their battle
  // dice with the attacking unit": every battery that may, adds.
  int dice = 0;
  for (std::size_t k = 0; k < units_.size(); ++k) {
    const BlockUnit& a = block_units_[k];
    if (a.blocks == 0 || a.side != melee.side || a.arm != Arm::artillery) continue;
    if (combined_arms(r, *hex_, a, melee, tgt, block_units_) != CombinedArmsRefusal::none) continue;
    // The artillery's dice by range, less the target hex's terrain.
    const int n = unit_dice(r, a, hex_distance(a.hex, tgt.hex), hex_->terrain(tgt.hex).cover);
    if (n <= 0) continue;
    if (artillery) artillery->push_back(static_cast<UnitIndex>(k));
    dice += n;
  }
  return dice;
}

}  // namespace vedette
