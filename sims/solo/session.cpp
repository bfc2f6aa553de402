// Solo sessions: the basics, and checking and replaying the history as
// events are appended or read (writing: session_write.cpp; reading:
// session_read.cpp).
#include "sims/solo/session.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>
#include <system_error>

#include "engine/decision/charge.hpp"
#include "engine/core/dice.hpp"
#include "engine/procedures/reaction_rules.hpp"
#include "engine/core/doc.hpp"
#include "sims/io/atomic_file.hpp"
#include "sims/solo/session_text.hpp"

namespace vedette::solo {

namespace fs = std::filesystem;
using detail::b;

// ------------------------------------------------------------------ basics

int solo_roll(std::uint64_t seed, std::uint64_t index) {
  Rng rng = make_stream(seed, index, Subsystem::solo);
  Dice dice(rng);
  return dice.d6();
}

std::array<int, 2> solo_roll_2d6(std::uint64_t seed, std::uint64_t index) {
  Rng rng = make_stream(seed, index, Subsystem::solo);
  Dice dice(rng);
  int a = dice.d6();
  int b = dice.d6();
  return {a, b};
}

std::array<int, 4> solo_roll_charge(std::uint64_t seed, std::uint64_t index) {
  Rng rng = make_stream(seed, index, Subsystem::solo);
  Dice dice(rng);
  std::array<int, 4> out{};
  for (int& d : out) d = dice.d6();
  return out;
}

std::vector<int> solo_roll_dice(std::uint64_t seed, std::uint64_t index, int n) {
  Rng rng = make_stream(seed, index, Subsystem::solo);
  Dice dice(rng);
  std::vector<int> out(static_cast<std::size_t>(std::max(0, n)));
  for (int& d : out) d = dice.d6();
  return out;
}

std::optional<TurnStep> turn_step_of(const EventBody& body) {
  if (std::holds_alternative<InitiativeEvent>(body)) return TurnStep::initiative;
  if (std::holds_alternative<ShootingEvent>(body)) return TurnStep::shooting;
  if (std::holds_alternative<MeleeEvent>(body)) return TurnStep::melee;
  if (std::holds_alternative<RallyEvent>(body)) return TurnStep::rally;
  if (std::holds_alternative<OpportunityEvent>(body)) return TurnStep::opportunity;
  if (std::holds_alternative<ChargedEvent>(body)) return TurnStep::charged;
  return std::nullopt;
}

const StepRecord* step_record(const EventBody& body) {
  if (const auto* e = std::get_if<InitiativeEvent>(&body)) return &e->s;
  if (const auto* e = std::get_if<ShootingEvent>(&body)) return &e->s;
  if (const auto* e = std::get_if<MeleeEvent>(&body)) return &e->s;
  if (const auto* e = std::get_if<RallyEvent>(&body)) return &e->s;
  if (const auto* e = std::get_if<OpportunityEvent>(&body)) return &e->s;
  if (const auto* e = std::get_if<ChargedEvent>(&body)) return &e->s;
  return nullptr;
}

// Version 6's marks (issue 28): the declaration's named target and sight, a
// switch of target (seed 003 L24, L34, L56).
bool needs_version_6(const Event& e) {
  if (const auto* a = std::get_if<ChargeAnswerEvent>(&e.body);
      a && (a->field == "target" || a->field == "visible" || a->field == "switch"))
    return true;
  if (const auto* c = std::get_if<ChargeEvent>(&e.body); c && c->c.needs_version_6()) return true;
  return false;
}
// Version 4's marks: mounted infantry that dismounted, or acts on foot.
bool needs_version_4(const Event& e) {
  if (const auto* a = std::get_if<ActivateEvent>(&e.body); a && a->a.on_foot) return true;
  if (const auto* sh = std::get_if<ShootingEvent>(&e.body); sh && sh->s.dismounted) return true;
  if (const auto* c = std::get_if<ChargeEvent>(&e.body); c && (c->c.fear || c->c.square)) return true;
  if (const auto* a = std::get_if<ChargeAnswerEvent>(&e.body);
      a && (a->field == "fear_exempt" || a->field == "refuge" || a->field == "square"))
    return true;
  if (const auto* me = std::get_if<MeleeEvent>(&e.body); me && me->s.given.count("bounce")) return true;
  return false;
}
// Version 3's marks: a turn step, a routed unit, a unit's weapon.
bool needs_version_3(const Header& h, const Event& e) {
  if (turn_step_of(e.body)) return true;
  if (const auto* c = std::get_if<ChargeEvent>(&e.body); c && (c->c.charger_dice || c->c.obstacle_dice || !c->c.path.empty()))
    return true;
  if (const auto* a = std::get_if<ChargeAnswerEvent>(&e.body); a && a->field == "path") return true;
  if (const auto* m = std::get_if<MoraleEvent>(&e.body); m && m->morale == Morale::routed) return true;
  (void)h;
  return false;
}

int needed_version(const Header& header, const std::vector<Event>& history) {
  int v = 1;
  for (const UnitSpec& u : header.units)
    if (!u.weapon.empty()) v = 3;
  for (const Event& e : history)
    if (std::holds_alternative<YourMoveEvent>(e.body)) return 7;
  for (const Event& e : history)
    if (needs_version_6(e)) return 6;
  for (const Event& e : history)
    if (std::holds_alternative<OpportunityEvent>(e.body) || std::holds_alternative<ChargedEvent>(e.body)) return 5;
  for (const Event& e : history) {
    if (needs_version_4(e)) return 4;
    if (needs_version_3(header, e)) v = 3;
    if (const auto* a = std::get_if<ActivateEvent>(&e.body); a && !a->a.charge_refused.empty()) v = std::max(v, 2);
    if (const auto* c = std::get_if<ChargeEvent>(&e.body); c && c->c.initiation_dice) v = std::max(v, 2);
  }
  return v;
}

int Session::version() const {
  if (held_pace_ && held_changed_) return 8;
  return needed_version(header_, history_);
}

fs::path session_path(const std::string& game) {
  fs::path p(game);
  if (p.has_filename() && p.extension().empty()) p += ".vedette.yaml";
  return p;
}

bool printable_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7F) return false;
      ++i;
      continue;
    }
    std::size_t len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || i + len > s.size() || c == 0xC0 || c == 0xC1 || c > 0xF4) return false;
    for (std::size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    // C1 controls (U+0080..U+009F) are not printable in YAML either.
    if (c == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0) return false;
    i += len;
  }
  return true;
}

bool Event::undoable() const {
  return std::holds_alternative<AnswerEvent>(body) || std::holds_alternative<CasualtiesEvent>(body) ||
         std::holds_alternative<ActivateEvent>(body) || std::holds_alternative<NextTurnEvent>(body) ||
         std::holds_alternative<MoraleEvent>(body) || std::holds_alternative<ChargeEvent>(body) ||
         std::holds_alternative<ChargeAnswerEvent>(body) || std::holds_alternative<YourMoveEvent>(body) ||
         turn_step_of(body).has_value();
}

const std::string* Event::unit() const {
  if (auto* a = std::get_if<AnswerEvent>(&body)) return &a->unit;
  if (auto* c = std::get_if<CasualtiesEvent>(&body)) return &c->unit;
  if (auto* v = std::get_if<ActivateEvent>(&body)) return &v->unit;
  if (auto* m = std::get_if<MoraleEvent>(&body)) return &m->unit;
  if (auto* c = std::get_if<ChargeEvent>(&body)) return &c->unit;
  if (auto* c = std::get_if<ChargeAnswerEvent>(&body)) return &c->unit;
  if (auto* c = std::get_if<ShootingEvent>(&body)) return &c->unit;
  if (auto* c = std::get_if<MeleeEvent>(&body)) return &c->unit;
  if (auto* c = std::get_if<RallyEvent>(&body)) return &c->unit;
  if (auto* c = std::get_if<OpportunityEvent>(&body)) return &c->unit;
  if (auto* c = std::get_if<ChargedEvent>(&body)) return &c->unit;
  return nullptr;
}

// ------------------------------------------------------------------ replay

Session::Session(fs::path path, Header header) : path_(std::move(path)), header_(std::move(header)) {
  state_.units.resize(header_.units.size());
}

std::optional<std::size_t> Session::find_unit(std::string_view name) const {
  for (std::size_t k = 0; k < header_.units.size(); ++k)
    if (header_.units[k].name == name) return k;
  auto lower = [](std::string_view s) {
    std::string o(s);
    for (auto& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return o;
  };
  std::optional<std::size_t> found;
  for (std::size_t k = 0; k < header_.units.size(); ++k) {
    if (lower(header_.units[k].name) != lower(name)) continue;
    if (found) return std::nullopt;
    found = k;
  }
  return found;
}

std::size_t Session::unit_index(const std::string& name) const {
  for (std::size_t k = 0; k < header_.units.size(); ++k)
    if (header_.units[k].name == name) return k;
  throw SessionError("no unit named '" + name + "' in this session", "unit");
}

bool Session::in_effect(int n) const {
  const Event& e = event(n);
  if (!e.undoable()) return true;
  return static_cast<std::size_t>(n) < in_effect_.size() && in_effect_[static_cast<std::size_t>(n)];
}

void Session::set_in_effect(int n, bool on) {
  const auto k = static_cast<std::size_t>(n);
  if (k >= in_effect_.size()) in_effect_.resize(k + 1, false);
  in_effect_[k] = on;
}

void Session::push_done(int n, State before) {
  if (done_.size() % k_checkpoint_every == 0) checkpoints_.push_back(std::move(before));
  done_.push_back(n);
  set_in_effect(n, true);
}

State Session::state_before(std::size_t i) {
  // From the checkpoint at or before step i, replay the steps in effect up
  // to it: each does what it did then (the state and the history before it
  // are the same). apply_to_state works on state_, so lend it.
  const std::size_t from = i / k_checkpoint_every * k_checkpoint_every;
  State now = std::move(state_);
  state_ = checkpoints_[i / k_checkpoint_every];
  try {
    for (std::size_t k = from; k < i; ++k) apply_to_state(event(done_[k]));
  } catch (...) {
    state_ = std::move(now);
    throw;
  }
  State before = std::move(state_);
  state_ = std::move(now);
  return before;
}

std::optional<int> Session::die_for(std::size_t unit, int turn) const {
  auto it = first_die_.find({unit, turn});
  if (it == first_die_.end()) return std::nullopt;
  return it->second;
}

std::optional<int> Session::player_die_for(std::size_t unit, int turn) const {
  auto it = player_die_.find({unit, turn});
  if (it == player_die_.end()) return std::nullopt;
  return std::get<ActivateEvent>(event(it->second).body).a.roll;
}

std::optional<int> Session::charge_dice_for(std::size_t unit, int turn) const {
  auto it = first_charge_dice_.find({unit, turn});
  if (it == first_charge_dice_.end()) return std::nullopt;
  return it->second;
}

std::optional<int> Session::step_dice_for(TurnStep step, std::size_t unit, int turn) const {
  auto it = first_step_dice_.find({static_cast<int>(step), unit, turn});
  if (it == first_step_dice_.end()) return std::nullopt;
  return it->second;
}

void Session::check_step_dice(const Event& e, TurnStep step, std::size_t unit, const StepRecord& r) {
  for (int d : r.dice)
    if (d < 1 || d > 6) throw SessionError("dice must be 1 to 6", "dice");
  if (r.dice_source == DiceSource::player) {
    if (r.roll_index || r.same_dice_as) throw SessionError("a player's dice have no roll_index or same_dice_as", "roll_index");
    return;
  }
  if (r.dice.empty()) {
    if (r.roll_index || r.same_dice_as) throw SessionError("a step with no dice has no roll_index", "roll_index");
    return;
  }
  if (!r.roll_index) throw SessionError("rolled dice need their roll_index", "dice");
  auto first = first_step_dice_.find({static_cast<int>(step), unit, e.turn});
  if (r.same_dice_as) {
    if (first == first_step_dice_.end() || first->second != *r.same_dice_as)
      throw SessionError("same_dice_as: " + std::to_string(*r.same_dice_as) + " is not the " +
                             std::string(k_turn_step_names[static_cast<std::size_t>(step)]) + " first rolled in this turn",
                         "same_dice_as");
    const StepRecord* prior = step_record(event(*r.same_dice_as).body);
    if (!prior || prior->roll_index != r.roll_index)
      throw SessionError("reuses the dice of #" + std::to_string(*r.same_dice_as) + " but not its roll", "same_dice_as");
  } else {
    if (first != first_step_dice_.end())
      throw SessionError("dice were already rolled for this step in turn " + std::to_string(e.turn) + " (#" +
                             std::to_string(first->second) + "); the step after an undo reuses them (same_dice_as)",
                         "dice");
    if (*r.roll_index < next_roll_)
      throw SessionError("roll_index " + std::to_string(*r.roll_index) + " was already used (the next roll is " +
                             std::to_string(next_roll_) + ")",
                         "roll_index");
  }
  const std::vector<int> expect = solo_roll_dice(header_.seed, *r.roll_index, static_cast<int>(r.dice.size()));
  if (expect != r.dice) {
    std::string want;
    for (int d : expect) want += (want.empty() ? "" : ", ") + std::to_string(d);
    throw SessionError("dice are not what roll number " + std::to_string(*r.roll_index) + " of seed " +
                           std::to_string(header_.seed) + " gives ([" + want + "])",
                       "dice");
  }
}

bool Session::charge_pending(std::size_t unit) const {
  const UnitMemory& m = state_.units[unit];
  if (m.acted_in_turn != state_.turn || m.last_activation == 0 || m.charge_for == m.last_activation) return false;
  return std::get<ActivateEvent>(event(m.last_activation).body).a.charge_possible;
}

// Where a charge's dice came from. Whether they give what the record says,
// and whether the charge reaches each step it has dice for, is the charge's
// procedure's to say: replay_charges() (sims/solo/solo_turn.cpp) replays it
// with the session's ruleset.
void Session::check_charge_dice(const Event& e, const ChargeRecord& c) {
  if (c.obstacle_dice && c.path != "obstacle") throw SessionError("an obstacle check needs path: obstacle", "obstacle_check");
  if (c.fear && c.fear->exempt != c.fear->dice.empty())
    throw SessionError("a gut check has its dice unless the infantry is exempt by its cover", "fear");
  if (c.charger_dice && !c.rolled) throw SessionError("a charger's own morale check comes with the defender's (both charging)", "charger_check");
  if (c.charger_dice && c.charger_stands == c.charger_morale.has_value())
    throw SessionError("a charger that fails its check has a morale after it (and one that stands has none)", "charger_check");
  if (!c.has_dice()) {
    if (c.roll_index || c.same_dice_as) throw SessionError("a charge with no dice has no roll_index", "roll_index");
    return;
  }
  for (int d : c.dice)
    if (c.rolled && (d < 1 || d > 6)) throw SessionError("charge dice must be 1 to 6", "dice");
  if (c.dice_source == DiceSource::player) {
    if (c.roll_index || c.same_dice_as) throw SessionError("a player's dice have no roll_index or same_dice_as", "roll_index");
    return;
  }
  if (!c.roll_index) throw SessionError("rolled charge dice need their roll_index", "dice");
  std::size_t u = unit_index(std::get<ChargeEvent>(e.body).unit);
  auto first = first_charge_dice_.find({u, e.turn});
  if (c.same_dice_as) {
    if (first == first_charge_dice_.end() || first->second != *c.same_dice_as)
      throw SessionError("same_dice_as: " + std::to_string(*c.same_dice_as) +
                             " is not the charge first rolled for this unit in this turn",
                         "same_dice_as");
    const ChargeRecord& prior = std::get<ChargeEvent>(event(*c.same_dice_as).body).c;
    if (prior.roll_index != c.roll_index || (c.rolled && prior.rolled && prior.dice != c.dice) ||
        (c.initiation_dice && prior.initiation_dice && *prior.initiation_dice != *c.initiation_dice))
      throw SessionError("reuses the dice of #" + std::to_string(*c.same_dice_as) + " but records others", "dice");
  } else {
    if (first != first_charge_dice_.end())
      throw SessionError("charge dice were already rolled for this unit in turn " + std::to_string(e.turn) + " (#" +
                             std::to_string(first->second) + "); a charge after an undo reuses them (same_dice_as)",
                         "dice");
    if (*c.roll_index < next_roll_)
      throw SessionError("roll_index " + std::to_string(*c.roll_index) + " was already used (the next roll is " +
                             std::to_string(next_roll_) + ")",
                         "roll_index");
  }
  // Whether first rolled or reused, each named slot's dice are the roll's own.
  const auto ten = solo_roll_dice(header_.seed, *c.roll_index, k_charge_roll_dice);
  auto check = [&](ChargeRoll slot, const int* got, std::size_t n, const char* key) {
    const auto at = static_cast<std::size_t>(charge_roll_offset(slot));
    std::string want, have;
    bool same = true;
    for (std::size_t k = 0; k < n; ++k) {
      same = same && got[k] == ten[at + k];
      want += (k ? ", " : "") + std::to_string(ten[at + k]);
      have += (k ? ", " : "") + std::to_string(got[k]);
    }
    if (!same)
      throw SessionError(std::string(key) + " dice [" + have + "] are not what roll number " + std::to_string(*c.roll_index) +
                             " of seed " + std::to_string(header_.seed) + " gives (dice " + std::to_string(at + 1) + " to " +
                             std::to_string(at + n) + " of its stream: [" + want + "])",
                         key);
  };
  if (c.rolled) check(ChargeRoll::defender_morale, c.dice.data(), 2, "dice");
  if (c.obstacle_dice) check(ChargeRoll::obstacle_check, c.obstacle_dice->data(), 2, "obstacle_check");
  if (c.charger_dice) check(ChargeRoll::charger_morale, c.charger_dice->data(), 2, "charger_check");
  if (c.fear && !c.fear->dice.empty()) check(ChargeRoll::gut_check, c.fear->dice.data(), c.fear->dice.size(), "fear");
  if (c.initiation_dice) check(ChargeRoll::initiation, c.initiation_dice->data(), 2, "initiation");
}

const Event& Session::append(EventBody body) {
  Event e;
  e.n = static_cast<int>(history_.size()) + 1;
  e.turn = state_.turn;
  e.body = std::move(body);
  e.where = {path_.string(), 0, 0};
  apply(e);
  history_.push_back(std::move(e));
  return history_.back();
}

void Session::check_dice(const Event& e, const Activation& a) {
  if (a.roll < 1 || a.roll > 6) throw SessionError("roll " + std::to_string(a.roll) + " is not a D6 face (1-6)", "roll");
  if (a.dice == DiceSource::player) {
    if (a.roll_index || a.same_die_as) throw SessionError("a player's die has no roll_index or same_die_as");
    return;
  }
  if (!a.roll_index) throw SessionError("a rolled die needs its roll_index");
  std::size_t u = unit_index(std::get<ActivateEvent>(e.body).unit);
  auto first = first_die_.find({u, e.turn});
  if (a.same_die_as) {
    if (first == first_die_.end() || first->second != *a.same_die_as)
      throw SessionError("same_die_as: " + std::to_string(*a.same_die_as) +
                             " is not the die first rolled for this unit in this turn",
                         "same_die_as");
    const Activation& prior = std::get<ActivateEvent>(event(*a.same_die_as).body).a;
    if (prior.roll != a.roll || prior.roll_index != a.roll_index)
      throw SessionError("reuses the die of #" + std::to_string(*a.same_die_as) + " (" + std::to_string(prior.roll) +
                         ") but records " + std::to_string(a.roll));
    return;
  }
  if (first != first_die_.end())
    throw SessionError("a die was already rolled for this unit in turn " + std::to_string(e.turn) + " (#" +
                       std::to_string(first->second) + "); an activation after an undo reuses it (same_die_as)");
  if (*a.roll_index < next_roll_)
    throw SessionError("roll_index " + std::to_string(*a.roll_index) + " was already used (the next roll is " +
                           std::to_string(next_roll_) + "; the counter never goes back)",
                       "roll_index");
  int expect = solo_roll(header_.seed, *a.roll_index);
  if (a.roll != expect)
    throw SessionError("roll " + std::to_string(a.roll) + " is not what roll number " + std::to_string(*a.roll_index) +
                           " of seed " + std::to_string(header_.seed) + " gives (" + std::to_string(expect) + ")",
                       "roll");
}

std::string Session::why_cannot_act(std::size_t k) const {
  const std::string& name = header_.units[k].name;
  if (figures_left(k) <= 0) return name + " has no figures left";
  if (state_.units[k].morale == Morale::routed) return name + " has routed: it flees toward its own edge and no longer acts";
  if (state_.units[k].acted_in_turn == state_.turn) return name + " has already acted in turn " + std::to_string(state_.turn);
  return "";
}

void Session::apply_to_state(const Event& e) {
  auto unit_mem = [&](const std::string& name) -> std::pair<std::size_t, UnitMemory*> {
    std::size_t k = unit_index(name);
    return {k, &state_.units[k]};
  };
  auto check_can_act = [&](std::size_t k, const std::string&) {
    if (std::string why = why_cannot_act(k); !why.empty()) throw SessionError(why);
  };
  std::visit(
      [&](const auto& ev) {
        using T = std::decay_t<decltype(ev)>;
        if constexpr (std::is_same_v<T, AnswerEvent>) {
          auto [k, m] = unit_mem(ev.unit);
          check_can_act(k, ev.unit);
          if (ev.question == Question::new_casualties) {
            if (ev.value < 0 || ev.value > figures_left(k))
              throw SessionError("new casualties " + std::to_string(ev.value) + " for " + ev.unit + ": it has " +
                                     std::to_string(figures_left(k)) + " figures left",
                                 "value");
            m->casualties += ev.value;
          } else if (ev.value != 0 && ev.value != 1) {
            throw SessionError("a yes/no answer must be true or false");
          }
          m->pending[ev.question] = ev.value;
          m->answered[ev.question] = ev.value;
        } else if constexpr (std::is_same_v<T, CasualtiesEvent>) {
          auto [k, m] = unit_mem(ev.unit);
          long long total = static_cast<long long>(m->casualties) + ev.added;
          if (total < 0 || total > header_.units[k].figures)
            throw SessionError(ev.unit + " would have " + std::to_string(total) + " casualties; it has " +
                                   std::to_string(header_.units[k].figures) + " figures",
                               "added");
          m->casualties = static_cast<int>(total);
        } else if constexpr (std::is_same_v<T, ActivateEvent>) {
          auto [k, m] = unit_mem(ev.unit);
          check_can_act(k, ev.unit);
          const Activation& a = ev.a;
          if (a.new_casualties < 0 || a.new_casualties > figures_left(k))
            throw SessionError("new casualties " + std::to_string(a.new_casualties) + " for " + ev.unit + ": it has " +
                                   std::to_string(figures_left(k)) + " figures left",
                               "facts.new_casualties");
          const UnitSpec& spec = header_.units[k];
          auto mismatch = [&](const char* what, const std::string& recorded, const std::string& known) {
            throw SessionError("facts." + std::string(what) + " is " + recorded + " but the session knew " + known,
                               "facts." + std::string(what));
          };
          if (a.casualties != m->casualties + a.new_casualties)
            mismatch("casualties", std::to_string(a.casualties), std::to_string(m->casualties + a.new_casualties));
          if (a.figures != spec.figures) mismatch("figures", std::to_string(a.figures), std::to_string(spec.figures));
          if (a.pace_before != m->pace)
            mismatch("pace", std::string(pace_name(a.pace_before)), std::string(pace_name(m->pace)));
          if (a.gallop_streak_before != m->gallop_streak)
            mismatch("gallop_streak", std::to_string(a.gallop_streak_before), std::to_string(m->gallop_streak));
          if (a.ran_last_turn != m->ran_last_turn) mismatch("ran_last_turn", b(a.ran_last_turn), b(m->ran_last_turn));
          if (a.charged_last_turn && *a.charged_last_turn != m->charged_last_turn)
            mismatch("charged_last_turn", b(*a.charged_last_turn), b(m->charged_last_turn));
          if (a.on_foot != m->on_foot) mismatch("on_foot", b(a.on_foot), b(m->on_foot));
          if (a.on_foot && a.charge_possible)
            throw SessionError(ev.unit + " is on foot: it cannot charge (it mounts first, its whole move)", "charge_possible");
          if (a.hero != spec.hero) mismatch("hero", b(a.hero), b(spec.hero));
          if (a.raw != spec.raw) mismatch("raw", b(a.raw), b(spec.raw));
          m->casualties += a.new_casualties;
          if (a.on_foot) {
            // Seed 001: mounting takes its whole move (when the table moves
            // it); halted, it stays on foot. It does not move either way.
            m->gallop_streak = 0;
            m->pace = Pace::halt;
            m->ran_this_turn = false;
            m->on_foot = a.pace == Pace::halt;
          } else {
            m->gallop_streak = a.pace == Pace::gallop ? m->gallop_streak + 1 : 0;
            m->pace = a.pace;
            m->ran_this_turn = a.running;
          }
          m->retreated_from_melee = a.retreated_from_melee;
          m->acted_in_turn = state_.turn;
          m->last_activation = e.n;
          m->pending = {};
          m->answered = {};
          m->charge_draft.clear();
        } else if constexpr (std::is_same_v<T, NextTurnEvent>) {
          for (auto& m : state_.units) {
            // Seed 003 L54 (version 8): struck before its own move, it
            // made none: at halt, its gallop streak as the Actions Table's
            // after() gives for a halt, not having run (the engine's
            // step_end with a halt's moved pace). An older file keeps what
            // its activation said (held_pace_ false).
            if (m.held_in_turn == state_.turn) {
              Decision halt;
              halt.pace = Pace::halt;
              const UnitState s = after(UnitState{nullptr, m.pace, m.gallop_streak}, halt);
              if (s.pace != m.pace || s.gallop_streak != m.gallop_streak || m.ran_this_turn) {
                held_changed_ = true;
                if (held_pace_) {
                  m.pace = s.pace;
                  m.gallop_streak = s.gallop_streak;
                  m.ran_this_turn = false;
                }
              }
            }
            m.ran_last_turn = m.ran_this_turn;
            m.ran_this_turn = false;
            m.charged_last_turn = m.charged_this_turn;
            m.charged_this_turn = false;
            m.pending = {};
            m.answered = {};
            m.charge_draft.clear();
            // Seed 002 L53: a unit that fell back from a melee this turn is
            // "retreating as a result of melee" next turn: the session knows,
            // so play does not ask.
            if (m.fell_back_this_turn) m.pending[Question::retreated_from_melee] = 1;
            m.fell_back_this_turn = false;
            m.contact = false;
            m.square = false;
            m.charge_bonus = false;
            m.charge_event = 0;
          }
          if (state_.initiative_turn == state_.turn) state_.first_last_turn = state_.first_this_turn;
          state_.first_this_turn = -1;
          ++state_.turn;
        } else if constexpr (std::is_same_v<T, MoraleEvent>) {
          unit_mem(ev.unit).second->morale = ev.morale;
        } else if constexpr (std::is_same_v<T, ChargeEvent>) {
          auto [k, m] = unit_mem(ev.unit);
          if (!charge_pending(k))
            throw SessionError(ev.unit + " has no \"(Charge?)\" to answer in turn " + std::to_string(state_.turn), "activation");
          if (ev.c.activation != m->last_activation)
            throw SessionError("activation " + std::to_string(ev.c.activation) + " is not " + ev.unit +
                                   "'s activation this turn (#" + std::to_string(m->last_activation) + ")",
                               "activation");
          m->charge_for = ev.c.activation;
          m->charge_draft.clear();
          if (!ev.c.declined && ev.c.shaken) m->morale = Morale::shaken;
          // Melee follows a charge that reached and stood, or struck inside
          // the minimum distance (no morale check, no charge bonus).
          m->contact = !ev.c.declined && ev.c.initiation_passed && ev.c.reaches && (ev.c.stands || !ev.c.morale_check) &&
                       ev.c.charger_stands && ev.c.obstacle_passed && !(ev.c.fear && ev.c.fear->evaded());
          m->square = m->contact && ev.c.square;
          if (!ev.c.declined && ev.c.charger_morale) {  // both charging, it failed its own check: it falls back
            m->morale = *ev.c.charger_morale;
            m->fell_back_this_turn = true;
          }
          m->charge_bonus = m->contact && ev.c.charge_bonus;
          m->charge_event = ev.c.declined ? 0 : e.n;
          // Seed 003: a charge that reaches and one that falls short (it
          // "must still move forward") are both a charge move.
          // A failed initiation check is no charge (seed 003 L48).
          if (!ev.c.declined && ev.c.initiation_passed) m->charged_this_turn = true;
        } else if constexpr (std::is_same_v<T, ChargeAnswerEvent>) {
          auto [k, m] = unit_mem(ev.unit);
          if (!charge_pending(k))
            throw SessionError(ev.unit + " has no \"(Charge?)\" to answer in turn " + std::to_string(state_.turn), "unit");
          if (std::find(k_charge_fields.begin(), k_charge_fields.end(), ev.field) == k_charge_fields.end())
            throw SessionError("unknown charge field '" + ev.field + "'", "field");
          if (!printable_utf8(ev.value)) throw SessionError("a charge answer must be printable text", "value");
          if ((ev.field == "visible" || ev.field == "switch") && ev.value != "yes" && ev.value != "no")
            throw SessionError("the charge answer '" + ev.field + "' is yes or no, not '" + ev.value + "'", "value");
          if (ev.field == "switch" && ev.value == "yes") {
            // Seed 003 L56: the charge goes at another enemy within reach:
            // the declared target's answers give way to the new one's.
            if (!m->charge_draft.count("distance"))
              throw SessionError(ev.unit + "'s charge has no target measured yet to switch from", "field");
            // Named, not captured: clang before 16 refuses a lambda that
            // captures a structured binding (the CI fuzz build).
            const auto& draft = m->charge_draft;
            auto get = [&draft](const char* key) {
              auto it = draft.find(key);
              return it == draft.end() ? std::string() : it->second;
            };
            const std::string from = get("target"), distance = get("distance");
            for (std::string_view f : k_charge_target_fields) m->charge_draft.erase(std::string(f));
            m->charge_draft[std::string(k_switched_from)] = from;
            m->charge_draft[std::string(k_switched_from_distance)] = distance;
          }
          m->charge_draft[ev.field] = ev.value;
        } else if constexpr (std::is_same_v<T, InitiativeEvent>) {
          if (state_.initiative_turn == state_.turn)
            throw SessionError("the initiative of turn " + std::to_string(state_.turn) + " was already rolled");
          if (ev.s.result != "cavalry" && ev.s.result != "player")
            throw SessionError("an initiative's result is cavalry or player, not '" + ev.s.result + "'", "result");
          state_.initiative_turn = state_.turn;
          state_.first_this_turn = ev.s.result == "cavalry" ? 0 : 1;
        } else if constexpr (std::is_same_v<T, YourMoveEvent>) {
          if (state_.initiative_turn != state_.turn)
            throw SessionError("your move comes after the initiative, and turn " + std::to_string(state_.turn) + "'s is not rolled");
          if (state_.your_move_turn == state_.turn)
            throw SessionError("your move in turn " + std::to_string(state_.turn) + " is already over");
          state_.your_move_turn = state_.turn;
        } else if constexpr (std::is_same_v<T, ShootingEvent> || std::is_same_v<T, MeleeEvent> ||
                             std::is_same_v<T, RallyEvent>) {
          auto [k, m] = unit_mem(ev.unit);
          const StepRecord& r = ev.s;
          const char* kind = std::is_same_v<T, ShootingEvent> ? "shooting" : std::is_same_v<T, MeleeEvent> ? "melee" : "rally";
          int& done = std::is_same_v<T, ShootingEvent> ? m->shot_in_turn
                      : std::is_same_v<T, MeleeEvent>  ? m->melee_in_turn
                                                        : m->rally_in_turn;
          if (done == state_.turn)
            throw SessionError(ev.unit + " has had its " + kind + " step in turn " + std::to_string(state_.turn));
          if (!r.dice.empty() && (std::is_same_v<T, ShootingEvent> || std::is_same_v<T, MeleeEvent>)) {
            int hits = 0;
            for (int d : r.dice) hits += d >= r.need;
            if (hits != r.score)
              throw SessionError("the dice give " + std::to_string(hits) + " hits needing " + std::to_string(r.need) +
                                     ", but it records " + std::to_string(r.score),
                                 "score");
          }
          if (r.dismounted) {
            if (!std::is_same_v<T, ShootingEvent>) throw SessionError(std::string("only a shot dismounts, not a ") + kind, "dismounted");
            if (m->on_foot) throw SessionError(ev.unit + " is already on foot", "dismounted");
            m->on_foot = true;
          }
          if constexpr (std::is_same_v<T, MeleeEvent>) {
            if (!m->contact) throw SessionError(ev.unit + " is in no melee in turn " + std::to_string(state_.turn));
            if (r.casualties < 0 || r.casualties > figures_left(k))
              throw SessionError("casualties " + std::to_string(r.casualties) + " for " + ev.unit + ": it has " +
                                     std::to_string(figures_left(k)) + " figures left",
                                 "casualties");
            if (m->square) {
              if (r.result != "bounced" && r.result != "repulsed")
                throw SessionError("a melee against a square is bounced or repulsed, not '" + r.result + "'", "result");
              if ((r.result == "bounced") != (r.given.count("bounce") && r.given.at("bounce") == "yes"))
                throw SessionError("the square's die says bounce " + (r.given.count("bounce") ? r.given.at("bounce") : std::string("(not given)")) +
                                       " but the result is " + r.result,
                                   "result");
            } else if (r.result != "won" && r.result != "lost" && r.result != "tie") {
              throw SessionError("a melee's result is won, lost or tie, not '" + r.result + "'", "result");
            } else if (r.given.count("bounce")) {
              throw SessionError("only a square's die bounces (seed 004): " + ev.unit + " fights no square", "given");
            }
            m->casualties += r.casualties;
            if (r.fell_back) m->fell_back_this_turn = true;
          }
          if constexpr (std::is_same_v<T, RallyEvent>) {
            if (r.result != "rallied" && r.result != "failed" && r.result != "no_rally" && r.result != "routed")
              throw SessionError("a rally's result is rallied, failed, no_rally or routed, not '" + r.result + "'", "result");
            if (r.dice.size() == 2 && (r.dice[0] + r.dice[1] != r.score || (r.score >= r.need) != (r.result == "rallied")))
              throw SessionError("the dice " + std::to_string(r.dice[0]) + " + " + std::to_string(r.dice[1]) +
                                     " against " + std::to_string(r.need) + " do not give '" + r.result + "'",
                                 "result");
          }
          if (r.morale) m->morale = *r.morale;
          done = state_.turn;
        } else if constexpr (std::is_same_v<T, OpportunityEvent> || std::is_same_v<T, ChargedEvent>) {
          // Version 5's reactions (sims/solo/solo_react.cpp says what each result means).
          auto [k, m] = unit_mem(ev.unit);
          const StepRecord& r = ev.s;
          constexpr bool opportunity = std::is_same_v<T, OpportunityEvent>;
          if (std::find(k_charge_end_names.begin() + 1, k_charge_end_names.end(), r.result) == k_charge_end_names.end())
            throw SessionError("a reaction's result is a charge's end (no_charge, falls_short, melee, morale_failed, ...), not '" +
                                   r.result + "'",
                               "result");
          if (figures_left(k) <= 0 || m->morale == Morale::routed) throw SessionError(ev.unit + " is not on the table");
          if (opportunity) {
            if (m->reacted_in_turn == state_.turn || m->barred_in_turn == state_.turn)
              throw SessionError(ev.unit + " has already tried an opportunity charge in turn " + std::to_string(state_.turn));
            if (r.result == "no_charge") {
              m->barred_in_turn = state_.turn;  // seed 003 L100
            } else {
              m->reacted_in_turn = state_.turn;  // it has moved (L92)
              m->charged_this_turn = true;
            }
            if (r.result == "melee") {
              m->contact = true;
              m->charge_bonus = r.given.count("bonus") && r.given.at("bonus") == "yes";
            }
          } else {
            if (m->charged_by_in_turn == state_.turn)
              throw SessionError(ev.unit + " was already charged in turn " + std::to_string(state_.turn));
            m->charged_by_in_turn = state_.turn;
            if (r.counter == "met") {
              m->reacted_in_turn = state_.turn;
              m->charged_this_turn = true;
            } else if (r.counter == "barred") {
              m->barred_in_turn = state_.turn;
            }
            if (r.result == "melee") {
              m->contact = true;
              m->charge_bonus = r.counter == "met" && r.given.count("bonus") && r.given.at("bonus") == "yes";
            }
            // Seed 003 L54: struck by the charge, it cannot move, turn or
            // change frontage for the rest of the turn, whether it stood
            // (melee follows) or failed its check and fell back.
            const auto end = std::find(k_charge_end_names.begin(), k_charge_end_names.end(), r.result);
            if (contact_made(static_cast<ChargeEnd>(end - k_charge_end_names.begin()))) {
              m->struck_in_turn = state_.turn;
              // Struck before its own move (the player moves first; it had
              // not counter-charged nor made an opportunity charge, L92): it
              // never makes that move, and ends the turn at halt (version 8,
              // applied at the turn's end).
              if (state_.first_this_turn == 1 && m->reacted_in_turn != state_.turn) m->held_in_turn = state_.turn;
            }
          }
          if (r.morale) m->morale = *r.morale;
          if (r.fell_back) m->fell_back_this_turn = true;
        }
      },
      e.body);
}

void Session::apply(const Event& e) {
  if (e.turn != state_.turn)
    throw SessionError("turn " + std::to_string(e.turn) + " does not match the session's turn at this point (" +
                           std::to_string(state_.turn) + ")",
                       "turn");
  if (auto* u = e.unit()) (void)unit_index(*u);
  if (const auto* undo = std::get_if<UndoEvent>(&e.body)) {
    if (done_.empty()) throw SessionError("there is nothing to undo");
    if (undo->target != done_.back())
      throw SessionError("undoes #" + std::to_string(undo->target) + ", but the latest step in effect is #" +
                             std::to_string(done_.back()),
                         "undoes");
    state_ = state_before(done_.size() - 1);
    if ((done_.size() - 1) % k_checkpoint_every == 0) checkpoints_.pop_back();
    set_in_effect(done_.back(), false);
    done_.pop_back();
    redo_.push_back(undo->target);
    return;
  }
  if (const auto* redo = std::get_if<RedoEvent>(&e.body)) {
    if (redo_.empty()) throw SessionError("there is nothing to redo");
    if (redo->target != redo_.back())
      throw SessionError("redoes #" + std::to_string(redo->target) + ", but the step redo brings back is #" +
                             std::to_string(redo_.back()),
                         "redoes");
    const Event& again = event(redo->target);
    State saved = state_;
    Event replay = again;
    replay.turn = state_.turn;  // the same turn: the state is as it was before that step
    apply_to_state(replay);
    push_done(redo->target, std::move(saved));
    redo_.pop_back();
    return;
  }
  if (const auto* seed = std::get_if<SeedEvent>(&e.body)) {
    if (next_roll_ > 0 || !first_die_.empty())
      throw SessionError("the seed cannot change once a die has been rolled (it would let a player fish for rolls)");
    (void)seed;
    return;
  }
  if (std::holds_alternative<RulesetEvent>(e.body)) return;

  const auto* act = std::get_if<ActivateEvent>(&e.body);
  if (act) check_dice(e, act->a);
  const auto* charge = std::get_if<ChargeEvent>(&e.body);
  if (charge) check_charge_dice(e, charge->c);
  const std::optional<TurnStep> step = turn_step_of(e.body);
  const std::size_t step_unit = step && e.unit() ? unit_index(*e.unit()) : k_no_step_unit;
  if (step) check_step_dice(e, *step, step_unit, *step_record(e.body));
  State saved = state_;
  apply_to_state(e);
  push_done(e.n, std::move(saved));
  redo_.clear();
  if (act) {
    std::size_t u = unit_index(act->unit);
    if (act->a.dice == DiceSource::rolled) {
      if (!act->a.same_die_as) first_die_[{u, e.turn}] = e.n;
      next_roll_ = std::max(next_roll_, *act->a.roll_index + 1);
    } else {
      player_die_[{u, e.turn}] = e.n;
    }
  }
  if (charge && charge->c.has_dice() && charge->c.dice_source == DiceSource::rolled) {
    std::size_t u = unit_index(charge->unit);
    if (!charge->c.same_dice_as) first_charge_dice_[{u, e.turn}] = e.n;
    next_roll_ = std::max(next_roll_, *charge->c.roll_index + 1);
  }
  if (step) {
    const StepRecord& r = *step_record(e.body);
    if (r.dice_source == DiceSource::rolled && r.roll_index) {
      if (!r.same_dice_as) first_step_dice_[{static_cast<int>(*step), step_unit, e.turn}] = e.n;
      next_roll_ = std::max(next_roll_, *r.roll_index + 1);
    }
  }
}

}  // namespace vedette::solo
