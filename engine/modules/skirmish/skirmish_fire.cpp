// Seed 001's skirmish: the dice rules, hits on riders and horses, and fire
// (engine/modules/skirmish/skirmish.hpp; the turn: skirmish.cpp).
#include "engine/modules/skirmish/skirmish.hpp"
#include "engine/modules/skirmish/skirmish_detail.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <variant>

namespace vedette {

using namespace skirmish_detail;

// ------------------------------------------------------------ dice rules

bool SkirmishGame::skill_check(std::size_t f, int modifier, Roller& dice, const char* why) {
  const int roll = dice.d(rules().die);
  const int need = figs_[f].spec->skill + modifier;
  const bool ok = roll <= need;
  SK_EMIT("check", "skill", f, name(f) + " skill check (" + why + "): rolls " + std::to_string(roll) + " against " + std::to_string(need) + ": " + (ok ? "passes" : "fails"));
  return ok;
}

Wound SkirmishGame::roll_column(std::string_view column, int modifier, Roller& dice, const char* why) {
  const WoundColumn* c = rules().find_column(column);
  const int roll = dice.d(rules().die);
  const Wound w = c ? c->result(roll + modifier) : Wound::none;
  if (rec_) {
    char mod[16] = "";
    if (modifier) std::snprintf(mod, sizeof mod, "%+d", modifier);
    emit("wound", "column", static_cast<std::size_t>(-1), std::string("  ") + why + ": column " + std::string(column) + mod + ", rolls " + std::to_string(roll) + ": " + std::string(wound_name(w)));
  }
  return w;
}

// Called right after each change of a figure's health to out or dead.
void SkirmishGame::mark_out(std::size_t f) {
  SkFigure& x = figs_[f];
  ++moved_;
  x.holder = false;
  x.op_fire = false;
  ++out_.sides[x.side].figures_out;
}

// A figure hit (on foot, or the rider of a horse).
void SkirmishGame::hit_figure(std::size_t t, Wound w, Roller& dice, const char* why) {
  SkFigure& x = figs_[t];
  if (!x.active() || w == Wound::none) return;
  const SkirmishRules& r = rules();
  if (x.mounted()) {
    // Seed 001: riders ignore suppression; a light wound: skill check or fall.
    if (w == Wound::suppressed && r.riders_ignore_suppression) {
      SK_EMIT("wound", "ignored", t, name(t) + " is a rider: suppression ignored");
      return;
    }
    if (w == Wound::light) {
      ++x.light_wounds;
      ++out_.sides[x.side].light_wounds;
      SK_EMIT("wound", "light", t, name(t) + " is light-wounded (" + why + ")");
      if (!skill_check(t, 0, dice, "light-wounded rider stays on")) {
        ++out_.sides[x.side].light_wound_falls;
        // The wound stands whatever the fall does (seed 001: light-wounded, then the fall).
        if (x.light_wounds >= 2) {
          x.health = Health::out;
          mark_out(t);
          SK_EMIT("wound", "out", t, name(t) + " has a second light wound: out of action (base game, EXAMPLE)");
          unhorse(t);
          return;
        }
        x.health = Health::light;
        const bool moving = horses_[static_cast<std::size_t>(x.horse)].moved_cm > 0;
        knocked_off(t, moving, dice);
      } else if (x.light_wounds >= 2) {
        x.health = Health::out;
        mark_out(t);
        SK_EMIT("wound", "out", t, name(t) + " has a second light wound: out of action (base game, EXAMPLE)");
        unhorse(t);
      } else {
        x.health = Health::light;
      }
      return;
    }
    if (w >= Wound::heavy) {
      x.health = w == Wound::kia ? Health::dead : Health::out;
      mark_out(t);
      SK_EMIT("wound", w == Wound::kia ? "kia" : "heavy", t, name(t) + (w == Wound::kia ? " is killed" : " is heavily wounded: out of action") + " (" + why + ")");
      unhorse(t);
      return;
    }
    return;
  }
  switch (w) {
    case Wound::none: return;
    case Wound::suppressed:
      x.suppressed = true;
      x.op_fire = false;
      SK_EMIT("wound", "suppressed", t, name(t) + " is suppressed (" + why + "): loses his next action");
      return;
    case Wound::light:
      ++x.light_wounds;
      ++out_.sides[x.side].light_wounds;
      if (x.light_wounds >= 2) {
        x.health = Health::out;
        mark_out(t);
        SK_EMIT("wound", "out", t, name(t) + " has a second light wound: out of action (" + why + ")");
      } else {
        x.health = Health::light;
        SK_EMIT("wound", "light", t, name(t) + " is light-wounded (" + why + ")");
      }
      return;
    case Wound::heavy:
    case Wound::kia:
      x.health = w == Wound::kia ? Health::dead : Health::out;
      mark_out(t);
      SK_EMIT("wound", w == Wound::kia ? "kia" : "heavy", t, name(t) + (w == Wound::kia ? " is killed" : " is heavily wounded: out of action") + " (" + why + ")");
      return;
  }
}

// The rider leaves the saddle where the horse stands (the horse stays, unattended).
void SkirmishGame::unhorse(std::size_t rider) {
  SkFigure& x = figs_[rider];
  if (x.horse < 0) return;
  ++moved_;
  SkHorse& h = horses_[static_cast<std::size_t>(x.horse)];
  if (h.riders[0] == static_cast<int>(rider)) {
    h.riders[0] = h.riders[1];
    h.riders[1] = -1;
  } else if (h.riders[1] == static_cast<int>(rider)) {
    h.riders[1] = -1;
  }
  x.pos = h.pos;
  x.horse = -1;
}

// Seed 001, knocked off horse: E column +3 from a standing horse, E column from a moving one.
void SkirmishGame::knocked_off(std::size_t rider, bool moving, Roller& dice) {
  SkFigure& x = figs_[rider];
  ++out_.sides[x.side].riders_spilled;
  SK_EMIT("wound", "fall", rider, name(rider) + " falls from " + (moving ? "a moving" : "a standing") + " horse");
  unhorse(rider);
  const SkirmishRules& r = rules();
  const Wound w = roll_column(r.fall_column, moving ? r.fall_moving_modifier : r.fall_standing_modifier, dice, "the fall");
  hit_figure(rider, w, dice, "the fall");
}

// Seed 001: horses ignore all but heavy wounds and kills, which are mortal.
void SkirmishGame::hit_horse(std::size_t hi, Wound w, Roller& dice) {
  SkHorse& h = horses_[hi];
  const SkirmishRules& r = rules();
  const std::size_t owner = static_cast<std::size_t>(h.owner);
  if (!h.in_play()) return;
  if (!h.ridden()) {
    // Seed 001: unattended horses bolt on suppression or better.
    if (w >= r.bolt_at && !attended(hi)) {
      h.bolted = true;
      ++out_.sides[figs_[owner].side].horses_bolted;
      SK_EMIT("wound", "bolt", owner, name(owner) + "'s horse is unattended and bolts (" + std::string(wound_name(w)) + "): out of play");
      return;
    }
    if (w >= r.horse_mortal_at) {
      h.alive = false;
      ++out_.sides[figs_[owner].side].horses_lost;
      SK_EMIT("wound", "horse", owner, name(owner) + "'s horse is mortally wounded");
    }
    return;
  }
  if (w < r.horse_mortal_at) {
    if (w != Wound::none) SK_EMIT("wound", "ignored", owner, name(owner) + "'s horse ignores the " + std::string(wound_name(w)) + " result (seed 001)");
    return;
  }
  h.alive = false;
  ++out_.sides[figs_[owner].side].horses_lost;
  const bool moving = h.moved_cm > 0;
  const std::array<int, 2> riders = h.riders;
  Point at = h.pos;
  if (moving) {
    // Seed 001: it spills its rider D4in from where it is hit, in line with its last movement.
    const int d4 = dice.d(r.spill_die);
    const double dir = r.spill == SpillDirection::onward ? h.move_dir : h.move_dir + 180.0;
    const Point want = h.pos + direction(dir) * (d4 * k_in);
    at = s_->horse->move_toward(h.pos, want, Length::cm(d4 * k_in));
    SK_EMIT("wound", "horse", owner, name(owner) + "'s horse is mortally wounded while moving: it carries on " + std::to_string(d4) + "in (D4) and spills its rider at " + in(euclid_cm(h.pos, at)) + " from where it was hit");
    // Seed 001, "final charge": the dying horse reaching an infantryman.
    const Point from = h.pos;
    for (std::size_t j = 0; j < figs_.size(); ++j) {
      SkFigure& e = figs_[j];
      if (e.side == figs_[owner].side || !is_foot(e)) continue;
      if (seg_dist(e.pos, from, at) > r.contact.as_cm()) continue;
      ++out_.sides[figs_[owner].side].final_charges;
      SK_EMIT("wound", "final charge", j, "final charge: the dying horse reaches " + name(j));
      if (!skill_check(j, 0, dice, "final charge"))
        hit_figure(j, roll_column(r.final_charge_column, 0, dice, "final charge"), dice, "final charge");
    }
    h.pos = at;
  } else {
    SK_EMIT("wound", "horse", owner, name(owner) + "'s horse is mortally wounded standing: it spills its rider where it was hit");
  }
  for (int rd : riders)
    if (rd >= 0 && figs_[static_cast<std::size_t>(rd)].active()) knocked_off(static_cast<std::size_t>(rd), moving, dice);
}

// ------------------------------------------------------------ fire

void SkirmishGame::fire(std::size_t sh, std::size_t tg, Roller& dice, std::optional<double> intended_cm) {
  const SkirmishRules& r = rules();
  SkFigure& s = figs_[sh];
  if (fire_bar(sh) != FireBar::none) {
    SK_EMIT("fire", "refused", sh, name(sh) + " may not fire: " + *may_fire(sh));
    return;
  }
  const SkirmishWeapon& w = r.weapons[s.spec->weapon];
  const double d = pair_dist(sh, tg);  // dist_cm(s.pos, figs_[tg].pos), kept with the pair's sight
  const SkirmishWeapon::Band* band = nullptr;
  for (const auto& b : w.bands)
    if (d <= b.to.as_cm()) {
      band = &b;
      break;
    }
  if (!band || !sees(sh, tg)) {
    SK_EMIT("fire", "refused", sh, name(sh) + " cannot fire at " + name(tg) + (band ? ": no line of sight" : ": out of range"));
    return;
  }
  s.prone = s.mounted() ? false : s.prone;
  ++out_.sides[s.side].shots;
  const long long mod = to_hit_sum(sh, tg, intended_cm);
  const int roll = dice.d(r.die);
  const bool hit = roll + mod <= band->hit;
  if (rec_) {
    std::string mods;
    for (const auto& [k, v] : to_hit_terms(sh, tg, intended_cm)) mods += ", " + k + " " + (v >= 0 ? "+" : "") + std::to_string(v);
    emit("fire", "fire", sh, name(sh) + " fires his " + w.name + " at " + name(tg) + " (" + in(d) + "): needs " + std::to_string(band->hit) + " or less" + mods + "; rolls " + std::to_string(roll) + ": " + (hit ? "hit" : "miss"));
  }
  // Seed 001: "any HE hit within 12in": a hit, not a miss.
  if (!hit) return;
  if (w.he) he_burst(figs_[tg].pos, dice);
  ++out_.sides[s.side].hits;
  SkFigure& t = figs_[tg];
  if (t.mounted()) {
    // Seed 001: D6 1-4 the horse, 5-6 the rider.
    const int loc = dice.d(6);
    const std::size_t hi = static_cast<std::size_t>(t.horse);
    if (r.hit_horse[static_cast<std::size_t>(loc - 1)]) {
      SK_EMIT("fire", "location", tg, "  D6 " + std::to_string(loc) + ": the horse is hit");
      hit_horse(hi, roll_column(w.column, 0, dice, "hit on the horse"), dice);
    } else {
      SK_EMIT("fire", "location", tg, "  D6 " + std::to_string(loc) + ": the rider is hit");
      hit_figure(tg, roll_column(w.column, 0, dice, "hit on the rider"), dice, "fire");
    }
    return;
  }
  hit_figure(tg, roll_column(w.column, 0, dice, "hit"), dice, "fire");
}

void SkirmishGame::fire_at_horse(std::size_t sh, std::size_t hi, Roller& dice) {
  const SkirmishRules& r = rules();
  SkFigure& s = figs_[sh];
  SkHorse& h = horses_[hi];
  if (fire_bar(sh) != FireBar::none) {
    SK_EMIT("fire", "refused", sh, name(sh) + " may not fire: " + *may_fire(sh));
    return;
  }
  const SkirmishWeapon& w = r.weapons[s.spec->weapon];
  const double d = dist_cm(s.pos, h.pos);
  const SkirmishWeapon::Band* band = nullptr;
  for (const auto& b : w.bands)
    if (d <= b.to.as_cm()) {
      band = &b;
      break;
    }
  if (!band || !h.in_play() || !sees_point(s.pos, h.pos)) {
    SK_EMIT("fire", "refused", sh, name(sh) + " cannot fire at the horse");
    return;
  }
  ++out_.sides[s.side].shots;
  long long mod = s.mounted() ? r.horseback_fire : 0;
  mod += r.mounted_target;  // a horse is the mounted target's size (choice)
  const int roll = dice.d(r.die);
  const bool hit = roll + mod <= band->hit;
  SK_EMIT("fire", "fire", sh, name(sh) + " fires his " + w.name + " at " + name(static_cast<std::size_t>(h.owner)) + "'s horse (" + in(d) + "): needs " + std::to_string(band->hit) + " or less, modifier " + std::to_string(mod) + "; rolls " + std::to_string(roll) + ": " + (hit ? "hit" : "miss"));
  if (!hit) return;
  if (w.he) he_burst(h.pos, dice);
  ++out_.sides[s.side].hits;
  hit_horse(hi, roll_column(w.column, 0, dice, "hit on the horse"), dice);
}

// Seed 001: any HE hit within 12in and in line of sight bolts unattended horses.
void SkirmishGame::he_burst(Point at, Roller&) {
  const double reach = rules().he_bolt_radius.as_cm();
  for (std::size_t j = 0; j < horses_.size(); ++j) {
    SkHorse& h = horses_[j];
    if (!h.in_play() || h.ridden() || attended(j)) continue;
    if (dist_cm(at, h.pos) > reach || !sees_point(at, h.pos)) continue;
    h.bolted = true;
    const std::size_t owner = static_cast<std::size_t>(h.owner);
    ++out_.sides[figs_[owner].side].horses_bolted;
    SK_EMIT("fire", "bolt", owner, name(owner) + "'s unattended horse bolts at the HE burst " + in(euclid_cm(at, h.pos)) + " away: out of play");
  }
}

// Enemies waiting on opportunity fire shoot at a figure about to move.
// (The mover's enemies in figure order: side_figs_, which no fire changes.)
bool SkirmishGame::opportunity_fire(std::size_t mover, double intended_cm, double dir, Roller& dice) {
  for (const std::size_t j : side_figs_[1 - figs_[mover].side]) {
    SkFigure& e = figs_[j];
    if (!e.op_fire || !e.active() || !figs_[mover].active()) continue;
    if (!sees(j, mover)) continue;
    const auto& bands = rules().weapons[e.spec->weapon].bands;
    if (bands.empty() || pair_dist(j, mover) > bands.back().to.as_cm()) continue;
    e.op_fire = false;
    SK_EMIT("fire", "opportunity", j, name(j) + " fires on opportunity at " + name(mover) + " as he moves (" + in(intended_cm) + " intended)");
    const bool was_mounted = figs_[mover].mounted();
    if (was_mounted) {
      SkHorse& h = horses_[static_cast<std::size_t>(figs_[mover].horse)];
      h.moved_cm = intended_cm;  // a horse hit now is a moving horse, along its intended line
      h.move_dir = dir;
    }
    fire(j, mover, dice, intended_cm);
    if (!figs_[mover].active() || (was_mounted && !figs_[mover].mounted())) return false;
  }
  return true;
}

}  // namespace vedette
