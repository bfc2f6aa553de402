#include "engine/procedures/turn_procedures.hpp"

#include <stdexcept>
#include <string>

namespace vedette {

namespace {
void check_faces(const int* faces, int n, const char* who) {
  for (int k = 0; k < n; ++k)
    if (faces[k] < 1 || faces[k] > 6)
      throw std::out_of_range(std::string(who) + ": a die shows 1 to 6, got " + std::to_string(faces[k]));
}
}  // namespace

// ------------------------------------------------------------- initiative

InitiativeProcedure::InitiativeProcedure(const Ruleset& r, const InitiativeFacts& f) : r_(&r), f_(f) {}

InitiativeProcedure::Need InitiativeProcedure::next() const {
  Need n;
  if (res_.done) return n;
  n.kind = Need::Kind::roll;
  n.side = given_[0] ? 1 : 0;  // side 0 first
  n.dice = r_->combat.initiative.dice;
  n.rule = "003-L24-initiative-minus-2";
  return n;
}

void InitiativeProcedure::given(int side, int roll, int total) {
  if (side < 0 || side > 1 || given_[static_cast<std::size_t>(side)])
    throw std::logic_error("InitiativeProcedure: side " + std::to_string(side) + "'s roll given when it is not asked");
  const auto s = static_cast<std::size_t>(side);
  given_[s] = true;
  res_.roll[s] = roll;
  res_.total[s] = total;
  if (given_[0] && given_[1]) {
    res_.first = first_to_move(res_.total, f_.first_last_turn);
    res_.tie = res_.total[0] == res_.total[1];
    res_.done = true;
  }
}

void InitiativeProcedure::roll(int side, const int* faces, int n) {
  const Need want = next();
  if (want.kind != Need::Kind::roll || want.side != side || n != want.dice)
    throw std::logic_error("InitiativeProcedure: side " + std::to_string(side) + "'s " + std::to_string(n) +
                           " dice given when it asks for side " + std::to_string(want.side) + "'s " + std::to_string(want.dice));
  check_faces(faces, n, "InitiativeProcedure");
  int sum = 0;
  for (int k = 0; k < n; ++k) sum += faces[k];
  given(side, sum, initiative_total(*r_, sum, f_.declared[static_cast<std::size_t>(side)]));  // seed 003
}

void InitiativeProcedure::roll(Dice& dice, std::vector<int>* faces) {
  const Need want = next();
  if (want.kind != Need::Kind::roll) throw std::logic_error("InitiativeProcedure: dice thrown when it asks for none");
  int sum = 0;
  for (int k = 0; k < want.dice; ++k) {
    const int f = dice.d6();
    sum += f;
    if (faces) faces->push_back(f);
  }
  given(want.side, sum, initiative_total(*r_, sum, f_.declared[static_cast<std::size_t>(want.side)]));
}

void InitiativeProcedure::total(int side, int t) { given(side, t, t); }

// ------------------------------------------------------------------ rally

RallyProcedure::RallyProcedure(const Ruleset& r, const RallyFacts& f) : r_(&r) {
  if (routs(r, f.lost, f.figures_start)) end_ = RallyEnd::routs;  // before any rally
  else if (!f.must_rally) end_ = RallyEnd::steady;
}

RallyProcedure::Need RallyProcedure::next() const {
  Need n;
  if (done()) return n;
  if (!asked_) {
    n.kind = Need::Kind::enemy_near;
    n.rule = "combat.morale.rally_enemy_clear";
    return n;
  }
  n.kind = Need::Kind::roll;
  n.dice = 2;
  n.rule = "combat.morale.rally_target";
  return n;
}

void RallyProcedure::answer_enemy_near(bool near) {
  if (next().kind != Need::Kind::enemy_near) throw std::logic_error("RallyProcedure: enemy_near answered when it is not asked");
  asked_ = true;
  if (near) end_ = RallyEnd::enemy_near;
}

void RallyProcedure::roll(const int* faces, int n) {
  if (next().kind != Need::Kind::roll || n != 2) throw std::logic_error("RallyProcedure: rally dice given when they are not asked");
  check_faces(faces, n, "RallyProcedure");
  check_ = rally_check(*r_, faces[0], faces[1]);
  end_ = check_.rallied ? RallyEnd::rallied : RallyEnd::failed;
}

void RallyProcedure::roll(Dice& dice, std::vector<int>* faces) {
  if (next().kind != Need::Kind::roll) throw std::logic_error("RallyProcedure: dice thrown when it asks for none");
  const int f[2] = {dice.d6(), dice.d6()};
  if (faces) faces->insert(faces->end(), f, f + 2);
  roll(f, 2);
}

}  // namespace vedette
