#include "engine/procedures/charge_procedure.hpp"

#include <stdexcept>
#include <string>

namespace vedette {

ChargeProcedure::ChargeProcedure(const Ruleset& r, const ChargeFacts& f) : r_(&r), f_(f) {
  if (f.initiation_made) {
    res_.initiation.passed = true;
    stage_ = Stage::reach;
  }
}

ChargeProcedure::Need ChargeProcedure::next() const {
  Need n;
  auto roll = [&n](ChargeRoll s, int dice, std::string_view rule) {
    n.kind = Need::Kind::roll;
    n.roll = s;
    n.dice = dice;
    n.rule = rule;
    return n;
  };
  auto ask = [&n](ChargeAsk q, std::string_view rule) {
    n.kind = Need::Kind::ask;
    n.ask = q;
    n.rule = rule;
    return n;
  };
  switch (stage_) {
    case Stage::initiation: return roll(ChargeRoll::initiation, 2, f_.declared ? "003-L48-initiation-check" : "003-L100-undeclared-minus-2");
    case Stage::reach: return ask(ChargeAsk::reach, "003-L40-figure-in-range");
    case Stage::obstacle: return roll(ChargeRoll::obstacle_check, 2, "003-L68-obstacle-check");
    case Stage::counter: return ask(ChargeAsk::counter_charge, "003-L102-meet-halfway");
    case Stage::counter_initiation: return roll(ChargeRoll::counter_initiation, 2, "003-L100-opportunity-check");
    case Stage::contact: return ask(ChargeAsk::contact, "003-L3-contact-expected");
    case Stage::pike: return roll(ChargeRoll::pike_loss, r_->charge.pike_charge.loss_dice, "003-L5-pike-charge");
    case Stage::fear: return ask(ChargeAsk::fear, "001-L13-gut-check");
    case Stage::gut: return roll(ChargeRoll::gut_check, r_->charge.fear_of_charge.dice, "001-L13-gut-check");
    case Stage::refuge: return ask(ChargeAsk::refuge, "001-L13-flee-toward-cover");
    case Stage::square: return ask(ChargeAsk::square, "004-L26-form-square-choice");
    case Stage::defender_morale: return roll(ChargeRoll::defender_morale, 2, "003-L7-defender-checks");
    case Stage::charger_morale: return roll(ChargeRoll::charger_morale, 2, "003-L7-both-check");
    case Stage::done: break;
  }
  return n;
}

void ChargeProcedure::expect(Stage s, const char* what) const {
  if (stage_ != s)
    throw std::logic_error(std::string("ChargeProcedure: ") + what + " given when the charge does not ask for it");
}

void ChargeProcedure::roll(ChargeRoll slot, const int* faces, int n) {
  const Need want = next();
  if (want.kind != Need::Kind::roll || want.roll != slot)
    throw std::logic_error("ChargeProcedure: the " + std::string(k_charge_roll_names[static_cast<std::size_t>(slot)]) +
                           " dice given when the charge does not ask for them");
  if (n != want.dice)
    throw std::logic_error("ChargeProcedure: the " + std::string(k_charge_roll_names[static_cast<std::size_t>(slot)]) + " takes " +
                           std::to_string(want.dice) + " dice, got " + std::to_string(n));
  ChargeThrow& t = res_.thrown[static_cast<std::size_t>(slot)];
  t.n = n;
  for (int k = 0; k < n; ++k) {
    if (faces[k] < 1 || faces[k] > 6) throw std::out_of_range("ChargeProcedure: a die shows 1 to 6, got " + std::to_string(faces[k]));
    t.faces[static_cast<std::size_t>(k)] = faces[k];
  }
  const ChargeRules& cr = r_->charge;
  switch (slot) {
    case ChargeRoll::initiation:
      res_.initiation = initiation_check(*r_, f_.declared, faces[0], faces[1]);
      if (!res_.initiation.passed) {
        res_.end = ChargeEnd::no_charge;
        stage_ = Stage::done;
      } else {
        stage_ = Stage::reach;
      }
      return;
    case ChargeRoll::obstacle_check:
      // Seed 003 L68: the same check as the first (a declared charge's need
      // stays a declared charge's).
      res_.obstacle_check = initiation_check(*r_, f_.declared, faces[0], faces[1]);
      if (!res_.obstacle_check.passed) {
        res_.end = ChargeEnd::halted_at_obstacle;
        stage_ = Stage::done;
      } else {
        stage_ = Stage::counter;
      }
      return;
    case ChargeRoll::counter_initiation:
      // Seed 003 L100: the -2 applies "if no charge was declared for the
      // unit" in step 1, whatever target it was declared against (the
      // front says so in answer_counter).
      res_.counter_initiation = initiation_check(*r_, counter_.declared, faces[0], faces[1]);
      res_.counter = res_.counter_initiation.passed;
      res_.counter_barred = !res_.counter;
      stage_ = Stage::contact;
      return;
    case ChargeRoll::pike_loss:
      res_.pike_stands = pike_loss_stands(cr, t.total());
      if (res_.pike_stands) {
        foot_answers();
      } else {
        res_.end = ChargeEnd::pike_broke;
        stage_ = Stage::done;
      }
      return;
    case ChargeRoll::gut_check:
      res_.gut_total = t.total();
      res_.gut_passed = gut_check_passes(cr, res_.gut_total);
      if (res_.gut_passed) square_step();
      else stage_ = Stage::refuge;
      return;
    case ChargeRoll::defender_morale:
      res_.defender = resolve_morale(cr, res_.defender_target, faces[0], faces[1]);
      res_.defender_fails = !res_.defender.stands;
      charger_step();
      return;
    case ChargeRoll::charger_morale:
      res_.charger = resolve_morale(cr, res_.charger_target, faces[0], faces[1]);
      res_.charger_fails = !res_.charger.stands;
      finish();
      return;
  }
}

void ChargeProcedure::roll(Dice& dice) {
  const Need want = next();
  if (want.kind != Need::Kind::roll) throw std::logic_error("ChargeProcedure: dice thrown when the charge asks for none");
  std::array<int, 4> f{};
  for (int k = 0; k < want.dice; ++k) f[static_cast<std::size_t>(k)] = dice.d6();
  roll(want.roll, f.data(), want.dice);
}

void ChargeProcedure::answer_reach(const ChargeReach& a) {
  expect(Stage::reach, "where the charge goes");
  mark(ChargeAsk::reach);
  res_.reach = a;
  if (!a.reaches) {
    res_.end = ChargeEnd::falls_short;
    stage_ = Stage::done;
  } else if (a.obstacle) {
    stage_ = Stage::obstacle;
  } else {
    stage_ = Stage::counter;
  }
}

void ChargeProcedure::answer_counter(const ChargeCounter& a) {
  expect(Stage::counter, "the counter-charge");
  mark(ChargeAsk::counter_charge);
  counter_ = a;
  res_.counter_kind = a.kind;
  if (a.kind == CounterCharge::attempts) {
    stage_ = Stage::counter_initiation;
    return;
  }
  res_.counter = a.kind == CounterCharge::charging;
  stage_ = Stage::contact;
}

void ChargeProcedure::answer(ChargeAsk q, bool yes) {
  switch (q) {
    case ChargeAsk::contact:
      expect(Stage::contact, "contact");
      mark(q);
      if (!yes) {
        res_.end = ChargeEnd::blocked;
        stage_ = Stage::done;
      } else {
        after_contact();
      }
      return;
    case ChargeAsk::fear:
      expect(Stage::fear, "the Fear of Charge answer");
      mark(q);
      res_.fear_exposed = yes;
      if (yes) stage_ = Stage::gut;
      else square_step();
      return;
    case ChargeAsk::refuge:
      expect(Stage::refuge, "the cover to flee to");
      mark(q);
      res_.refuge = yes;
      if (yes) {
        res_.end = ChargeEnd::fled;
        stage_ = Stage::done;
      } else {
        square_step();
      }
      return;
    case ChargeAsk::square:
      expect(Stage::square, "the square");
      mark(q);
      res_.square_formed = yes;
      morale_step();
      return;
    case ChargeAsk::reach:
    case ChargeAsk::counter_charge:
      throw std::logic_error("ChargeProcedure: answer_reach / answer_counter take these");
  }
}

// Seed 003 L5: a pike charge forces the target's Loss Table roll; caught by
// pikes again before it rallied, it is eliminated.
void ChargeProcedure::after_contact() {
  if (res_.reach.target.pike_charge) {
    if (res_.reach.target.target_pike_routed) {
      res_.end = ChargeEnd::pike_destroyed;
      stage_ = Stage::done;
    } else {
      stage_ = Stage::pike;
    }
    return;
  }
  foot_answers();
}

// Foot charged by horse, not charging itself: seed 001's Fear of Charge,
// then seed 004's square (both optional rules).
void ChargeProcedure::foot_answers() {
  if (f_.charger_on_horse && !res_.reach.target.target_cavalry && !res_.counter) {
    if (r_->charge.fear_of_charge.enabled) {
      stage_ = Stage::fear;
      return;
    }
    square_step();
    return;
  }
  morale_step();
}

void ChargeProcedure::square_step() {
  if (!res_.reach.target.target_in_square && res_.reach.target.square_allowed) {
    res_.square_asked = true;
    stage_ = Stage::square;
    return;
  }
  morale_step();
}

// Seed 003 L7: "to withstand a charge by mounted men, the defending unit
// must check morale"; a square takes none (seed 004). A counter-charging
// defender has turned to face its charger: charged in front, both charging.
void ChargeProcedure::morale_step() {
  const bool in_square = res_.reach.target.target_in_square || res_.square_formed;
  MoraleSituation s = res_.reach.target.defender;
  if (res_.counter) {
    s.side = ChargedOn::front;
    s.both_charging = true;
  }
  res_.on = s.side;
  res_.defender_target = morale_target(r_->charge, s);
  res_.defender_checks = f_.charger_on_horse && !in_square && res_.reach.morale_check;
  if (res_.defender_checks) {
    if (res_.defender_target.automatic) {
      res_.defender.automatic = true;
      res_.defender.stands = true;
    } else {
      stage_ = Stage::defender_morale;
      return;
    }
  }
  charger_step();
}

// "If both units are charging, both must check morale": the charger checks
// whatever the defender rolled, against a target on horse.
void ChargeProcedure::charger_step() {
  res_.charger_checks = res_.counter && res_.reach.target.target_on_horse && counter_.morale_check;
  if (res_.charger_checks) {
    MoraleSituation s = res_.reach.target.charger;
    s.side = ChargedOn::front;
    s.both_charging = true;
    res_.charger_target = morale_target(r_->charge, s);
    if (res_.charger_target.automatic) {
      res_.charger.automatic = true;
      res_.charger.stands = true;
    } else {
      stage_ = Stage::charger_morale;
      return;
    }
  }
  finish();
}

void ChargeProcedure::finish() {
  res_.end = res_.defender_fails || res_.charger_fails ? ChargeEnd::morale_failed : ChargeEnd::melee;
  stage_ = Stage::done;
}

bool ChargeProcedure::same_future(const ChargeProcedure& o) const {
  const ChargeResult& a = res_;
  const ChargeResult& b = o.res_;
  return stage_ == o.stage_ && a.end == b.end && a.counter == b.counter && a.counter_barred == b.counter_barred &&
         a.fear_exposed == b.fear_exposed && a.gut_passed == b.gut_passed && a.refuge == b.refuge &&
         a.square_formed == b.square_formed && a.defender_checks == b.defender_checks && a.defender_fails == b.defender_fails &&
         a.charger_checks == b.charger_checks && a.charger_fails == b.charger_fails && a.pike_stands == b.pike_stands &&
         a.initiation.passed == b.initiation.passed && a.obstacle_check.passed == b.obstacle_check.passed &&
         a.counter_initiation.passed == b.counter_initiation.passed;
}

ChargeProcedure::Need drive_charge(ChargeProcedure& p, const ChargeAnswers& a, const std::array<ChargeThrow, 7>& given) {
  for (;;) {
    const ChargeProcedure::Need n = p.next();
    switch (n.kind) {
      case ChargeProcedure::Need::Kind::done: return n;
      case ChargeProcedure::Need::Kind::roll: {
        const ChargeThrow& t = given[static_cast<std::size_t>(n.roll)];
        if (t.n < n.dice) return n;
        p.roll(n.roll, t.faces.data(), n.dice);
        break;
      }
      case ChargeProcedure::Need::Kind::ask:
        switch (n.ask) {
          case ChargeAsk::reach: p.answer_reach(a.reach); break;
          case ChargeAsk::counter_charge: p.answer_counter(a.counter); break;
          case ChargeAsk::contact: p.answer(n.ask, a.contact); break;
          case ChargeAsk::fear: p.answer(n.ask, a.fear); break;
          case ChargeAsk::refuge: p.answer(n.ask, a.refuge); break;
          case ChargeAsk::square: p.answer(n.ask, a.square); break;
        }
        break;
    }
  }
}

}  // namespace vedette
