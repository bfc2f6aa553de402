#include "engine/procedures/melee_procedure.hpp"

#include <stdexcept>
#include <string>

#include "engine/decision/charge.hpp"
#include "engine/procedures/combat.hpp"

namespace vedette {

MeleeDice melee_dice(const Ruleset& r, MeleeForm form, const MeleeSideFacts& side, bool is_square) {
  MeleeDice d;
  // Seed 004: a square, and cavalry against one, at most max_battle_dice.
  d.dice = form == MeleeForm::square ? square_melee_dice(r, side.figures) : dice_for(side.figures, r.combat.melee.figures_per_die);
  if (!is_square) d.modifier = melee_modifier(side.type, side.on_horse, side.charge_bonus);  // seed 002
  d.need = melee_need(r, d.modifier);
  return d;
}

MeleeProcedure::MeleeProcedure(const Ruleset& r, const MeleeFacts& f)
    : r_(&r),
      f_(f),
      stage_(f.form == MeleeForm::square ? Stage::square_first : f.form == MeleeForm::exchange ? Stage::exchange : Stage::attacker) {
  res_.attacker = melee_dice(r, f.form, f.attacker, false);
  res_.defender = melee_dice(r, f.form, f.defender, f.form == MeleeForm::square);
}

MeleeProcedure::Need MeleeProcedure::next() const {
  Need n;
  auto roll = [&n](MeleeRoll s, int dice, int die, int need, std::string_view rule) {
    n.kind = Need::Kind::roll;
    n.roll = s;
    n.dice = dice;
    n.die = die;
    n.need = need;
    n.rule = rule;
    return n;
  };
  switch (stage_) {
    case Stage::square_first:
      return roll(MeleeRoll::square_first, res_.defender.dice, r_->charge.infantry_square.die, res_.defender.need, "004-L41-square-first");
    case Stage::fights:
      n.kind = Need::Kind::fights;
      n.rule = "004-L46-stuck-attacks";
      return n;
    case Stage::exchange:
      // Both at once: the attacker's dice first unless given already.
      if (!attacker_given_)
        return roll(MeleeRoll::attacker, res_.attacker.dice, 6, res_.attacker.need, "002-L33-shock-charging");
      return roll(MeleeRoll::defender, res_.defender.dice, 6, res_.defender.need, "002-L33-shock-charging");
    case Stage::attacker:
      if (f_.form == MeleeForm::retire) return roll(MeleeRoll::attacker, res_.attacker.dice, 6, 0, "004-L8-full-dice");
      return roll(MeleeRoll::attacker, res_.attacker.dice, 6, res_.attacker.need,
                  f_.form == MeleeForm::square ? "004-L46-cavalry-one-die" : "002-L33-shock-charging");
    case Stage::done: break;
  }
  return n;
}

MeleeProcedure::Need MeleeProcedure::asks(MeleeRoll slot) const {
  Need want = next();
  // Both sides roll at once: either may be given first.
  if (stage_ == Stage::exchange && slot == MeleeRoll::defender && !defender_given_) {
    want.roll = MeleeRoll::defender;
    want.dice = res_.defender.dice;
    want.need = res_.defender.need;
  }
  if (want.kind != Need::Kind::roll || want.roll != slot)
    throw std::logic_error("MeleeProcedure: the " + std::string(k_melee_roll_names[static_cast<std::size_t>(slot)]) +
                           " dice given when the melee does not ask for them");
  return want;
}

void MeleeProcedure::roll(MeleeRoll slot, const int* faces, int n) {
  const Need want = asks(slot);
  if (n != want.dice)
    throw std::logic_error("MeleeProcedure: the " + std::string(k_melee_roll_names[static_cast<std::size_t>(slot)]) + " takes " +
                           std::to_string(want.dice) + " dice, got " + std::to_string(n));
  int h = 0;
  bool bounce = false;
  for (int k = 0; k < n; ++k) {
    const int f = faces[k];
    if (f < 1 || f > want.die)
      throw std::out_of_range("MeleeProcedure: a die shows 1 to " + std::to_string(want.die) + ", got " + std::to_string(f));
    if (slot == MeleeRoll::square_first && square_bounces(r_->charge, f)) bounce = true;  // seed 004: no hit on a bounce face
    else if (f_.form == MeleeForm::retire) h += retire_hit(*r_, f);  // seed 004: only the cavalry face
    else h += d6_meets(f, want.need);
  }
  hits(slot, h, bounce);
}

void MeleeProcedure::roll(Dice& dice, std::vector<int>* faces) {
  const Need want = next();
  if (want.kind != Need::Kind::roll) throw std::logic_error("MeleeProcedure: dice thrown when the melee asks for none");
  // The faces are counted as they come (no buffer on the engine's path).
  int h = 0;
  bool bounce = false;
  if (!faces && want.roll != MeleeRoll::square_first && f_.form != MeleeForm::retire) {
    // The usual roll (no recorder, neither a square's first roll nor a
    // retire): the loop below's third branch for every die, its tests read
    // once (neither changes in the loop). The same dice in the same order,
    // each counted by d6_meets (issue 32, sixteenth pass).
    for (int k = 0; k < want.dice; ++k) h += d6_meets(dice.d(want.die), want.need);
    hits(want.roll, h, bounce);
    return;
  }
  for (int k = 0; k < want.dice; ++k) {
    const int f = dice.d(want.die);
    if (faces) faces->push_back(f);
    if (want.roll == MeleeRoll::square_first && square_bounces(r_->charge, f)) bounce = true;
    else if (f_.form == MeleeForm::retire) h += retire_hit(*r_, f);
    else h += d6_meets(f, want.need);
  }
  hits(want.roll, h, bounce);
}

void MeleeProcedure::hits(MeleeRoll slot, int h, bool bounce) {
  asks(slot);
  if (h < 0) throw std::out_of_range("MeleeProcedure: hits cannot be negative");
  switch (slot) {
    case MeleeRoll::square_first:
      res_.defender_hits = h;
      res_.bounced = bounce;
      if (bounce) {  // seed 004: the cavalry is driven back before it strikes
        res_.square = square_melee(*r_, true, 0, h, f_.attacker_move);
        res_.end = MeleeEnd::bounced;
        stage_ = Stage::done;
      } else {
        stage_ = Stage::fights;
      }
      return;
    case MeleeRoll::attacker:
      res_.attacker_hits = h;
      attacker_given_ = true;
      break;
    case MeleeRoll::defender:
      res_.defender_hits = h;
      defender_given_ = true;
      break;
  }
  if (f_.form != MeleeForm::exchange || (attacker_given_ && defender_given_)) finish();
}

SquareFaces read_square_faces(const Ruleset& r, const std::vector<int>& faces) {
  const auto& sq = r.charge.infantry_square;
  const std::string most = std::to_string(sq.max_battle_dice) + (sq.max_battle_dice == 1 ? " die" : " dice");
  if (faces.empty()) throw std::out_of_range("the square rolls first (seed 004): give the face its die showed, at most " + most);
  if (static_cast<int>(faces.size()) > sq.max_battle_dice)
    throw std::out_of_range("the square rolls at most " + most + " (charge.infantry_square.max_battle_dice), not " +
                            std::to_string(faces.size()));
  SquareFaces read;
  for (int f : faces) {
    if (f < 1 || f > sq.die)
      throw std::out_of_range("a face of the square's D" + std::to_string(sq.die) + " is 1 to " + std::to_string(sq.die) + ", not " +
                              std::to_string(f));
    if (square_bounces(r.charge, f)) read.bounce = true;  // seed 004: a bounce face scores no hit
    else ++read.may_hit;
  }
  return read;
}

void MeleeProcedure::square_faces(const SquareFaces& read, int h) {
  if (h > read.may_hit)
    throw std::out_of_range(std::to_string(h) + " hits from " + std::to_string(read.may_hit) +
                            (read.may_hit == 1 ? " die" : " dice") + " that did not show the bounce face");
  hits(MeleeRoll::square_first, h, read.bounce);
}

void MeleeProcedure::answer_fights(int figures_left) {
  if (stage_ != Stage::fights)
    throw std::logic_error("MeleeProcedure: the cavalry's figures given when the melee does not ask for them");
  if (figures_left <= 0) {
    res_.end = MeleeEnd::attacker_destroyed;
    stage_ = Stage::done;
    return;
  }
  // Its dice are counted from the figures the square's hits left it.
  MeleeSideFacts a = f_.attacker;
  a.figures = figures_left;
  res_.attacker = melee_dice(*r_, f_.form, a, false);
  stage_ = Stage::attacker;
}

void MeleeProcedure::finish() {
  stage_ = Stage::done;
  switch (f_.form) {
    case MeleeForm::exchange:
      res_.after = melee_aftermath(*r_, res_.attacker_hits, res_.defender_hits, f_.attacker_move, f_.defender_move, f_.charge,
                                   f_.balance, f_.defender_charge, f_.defender_balance);
      res_.end = MeleeEnd::decided;
      return;
    case MeleeForm::square:
      // Choice: cavalry cannot break into a square: it falls back whatever
      // the result; a square that scored fewer hits is shaken.
      res_.square = square_melee(*r_, false, res_.attacker_hits, res_.defender_hits, f_.attacker_move);
      res_.end = MeleeEnd::square_repulsed;
      return;
    case MeleeForm::retire: res_.end = MeleeEnd::retired; return;
  }
}

}  // namespace vedette
