#include "sims/lab/toy_engagement.hpp"

#include <algorithm>
#include <filesystem>

#include "engine/decision/actions_table.hpp"
#include "engine/decision/charge.hpp"
#include "engine/core/diagnostics.hpp"
#include "engine/core/dice.hpp"
#include "engine/decision/risk_factor.hpp"

namespace vedette::lab {

namespace fs = std::filesystem;

namespace {

enum class Kind { dice, duel };

struct DuelSpec {
  int turns = 8;
  int cavalry_figures = 12;
  AttackerWeight weight = AttackerWeight::heavy;
  bool hero = false;
  int infantry_figures = 24;
  DefenderClass defender = DefenderClass::heavy_foot;
  int shoot_dice = 3;
  int hit_on = 5;
};

struct ToySpec {
  Kind kind = Kind::dice;
  std::string name, description, file, ruleset_path;
  DuelSpec duel;
};

void add_bands(Schema& s, const Ruleset& r) {
  for (const auto& b : r.bands) {
    s.band_ids.push_back(b.id);
    s.band_labels.push_back(b.label);
  }
  for (const auto& b : r.behaviours) {
    s.behaviour_ids.push_back(b.id);
    s.behaviour_labels.push_back(b.text);
  }
}

std::size_t band_index(const Ruleset& r, const Band* b) { return static_cast<std::size_t>(b - r.bands.data()); }
std::size_t behaviour_index(const Ruleset& r, const Behaviour* b) { return static_cast<std::size_t>(b - r.behaviours.data()); }

// ------------------------------------------------------------------ dice

enum DiceMetric : std::size_t { d_turns, d_a_lost, d_b_lost, d_checks, d_passed, d_count };

Schema dice_schema(const Ruleset& r) {
  Schema s;
  s.title = "synthetic dice";
  s.outcome_ids = {"a", "b", "draw"};
  s.outcome_labels = {"Side a wins", "Side b wins", "Draw"};
  s.side_names = {"a", "b"};
  s.side_roles = {"automated", "other"};
  s.metrics = {{"turns", "Turns", MetricKind::turns, 12},
               {"a_figures_lost", "Side a: figures lost", MetricKind::losses, 18},
               {"b_figures_lost", "Side b: figures lost", MetricKind::losses, 18},
               {"morale_checks", "Morale checks", MetricKind::count, -1},
               {"morale_passed", "Morale checks passed", MetricKind::count, -1}};
  add_bands(s, r);
  s.funnels = {{"morale", "Morale checks", {{"checks", "taken", d_checks, -1}, {"passed", "passed", d_passed, 0}}}};
  s.rates = {{"morale_pass", "Morale checks passed (2D6 >= 8)", d_passed, d_checks}};
  return s;
}

class DicePlayer final : public Player {
 public:
  explicit DicePlayer(const Ruleset& r) : r_(r) {}
  void play(std::uint64_t seed, std::uint64_t index, OutcomeRow& row) override {
    Rng rd = make_stream(seed, index, Subsystem::decisions), rm = make_stream(seed, index, Subsystem::movement),
        rs = make_stream(seed, index, Subsystem::shooting), rl = make_stream(seed, index, Subsystem::melee),
        ro = make_stream(seed, index, Subsystem::morale);
    Dice dec(rd), mov(rm), sho(rs), mel(rl), mor(ro);
    const int w = dec.d6();
    row.outcome = w <= 2 ? 0 : w == 3 ? 2 : 1;
    const int turns = mov.two_d6();
    row.metrics[d_turns] = turns;
    row.metrics[d_a_lost] = mel.d6() + mel.d6() + mel.d6();
    row.metrics[d_b_lost] = turns + sho.d6();
    const int checks = mor.d6();
    int passed = 0;
    for (int c = 0; c < checks; ++c) passed += mor.two_d6() >= 8;
    row.metrics[d_checks] = checks;
    row.metrics[d_passed] = passed;
    const std::size_t H = r_.behaviours.size();
    for (std::size_t b = 0; b < r_.bands.size(); ++b) {
      const BehaviourIndex cell = r_.bands[b].cells[static_cast<std::size_t>(dec.d6() - 1)];
      row.chosen[b * H + cell] += 1;
    }
  }

 private:
  const Ruleset& r_;
};

// ------------------------------------------------------------------ duel

enum DuelMetric : std::size_t {
  m_turns,
  c_lost, c_horses, c_riders, c_declared, c_launched, c_stood, c_broke, c_repulsed,
  i_lost, i_routs, i_squares, i_bounces, i_checks, i_passed,
  m_count
};

Schema duel_schema(const Ruleset& r, const DuelSpec& d) {
  Schema s;
  s.title = "synthetic duel";
  s.outcome_ids = {"cavalry", "infantry", "draw"};
  s.outcome_labels = {"Cavalry wins", "Infantry wins", "Draw"};
  s.side_names = {"cavalry", "infantry"};
  s.side_roles = {"automated", "other"};
  s.metrics = {{"turns", "Turns", MetricKind::turns, d.turns},
               {"cavalry_figures_lost", "Cavalry: figures lost", MetricKind::losses, d.cavalry_figures},
               {"cavalry_horses_lost", "Cavalry: horses lost", MetricKind::count, -1},
               {"cavalry_riders_lost", "Cavalry: riders lost", MetricKind::count, -1},
               {"cavalry_charges_declared", "Cavalry: charges declared", MetricKind::count, -1},
               {"cavalry_charges_launched", "Cavalry: charges launched", MetricKind::count, -1},
               {"cavalry_charges_stood", "Cavalry: charges the defender stood", MetricKind::count, -1},
               {"cavalry_charges_broke", "Cavalry: charges that broke the defender", MetricKind::count, -1},
               {"cavalry_charges_repulsed", "Cavalry: charges repulsed", MetricKind::count, -1},
               {"infantry_figures_lost", "Infantry: figures lost", MetricKind::losses, d.infantry_figures},
               {"infantry_routs", "Infantry: routs", MetricKind::count, -1},
               {"infantry_squares_formed", "Infantry: squares formed", MetricKind::count, -1},
               {"infantry_square_bounces", "Infantry: charges bounced by a square", MetricKind::count, -1},
               {"infantry_morale_checks", "Infantry: morale checks against a charge", MetricKind::count, -1},
               {"infantry_morale_passed", "Infantry: morale checks passed", MetricKind::count, -1}};
  add_bands(s, r);
  s.funnels = {{"cavalry_charges",
                "Cavalry charges",
                {{"declared", "declared", c_declared, -1},
                 {"launched", "launched", c_launched, 0},
                 {"stood", "stood (melee)", c_stood, 1},
                 {"broke", "broke the defender", c_broke, 1},
                 {"repulsed", "repulsed", c_repulsed, 1}}}};
  s.rates = {{"launch", "Charges launched (D6 >= 3)", c_launched, c_declared},
             {"morale_pass", "Morale checks against a charge passed (seed 003)", i_passed, i_checks},
             {"square_bounce", "Squares that bounced the charge (seed 004)", i_bounces, i_squares}};
  return s;
}

class DuelPlayer final : public Player {
 public:
  DuelPlayer(const Ruleset& r, const DuelSpec& d) : r_(r), d_(d), shock_(r.find_unit_type("shock")) {
    MoraleSituation ms;
    ms.defender = d.defender;
    ms.attacker = d.weight;
    target_ = morale_target(r.charge, ms);
  }

  void play(std::uint64_t seed, std::uint64_t index, OutcomeRow& row) override {
    Rng rd = make_stream(seed, index, Subsystem::decisions), rm = make_stream(seed, index, Subsystem::movement),
        rs = make_stream(seed, index, Subsystem::shooting), rl = make_stream(seed, index, Subsystem::melee),
        ro = make_stream(seed, index, Subsystem::morale);
    Dice dec(rd), mov(rm), sho(rs), mel(rl), mor(ro);
    std::int64_t* m = row.metrics.data();
    const std::size_t H = r_.behaviours.size();
    UnitState unit;
    unit.type = shock_;
    unit.pace = Pace::canter;
    bool ran = false;
    int cav = d_.cavalry_figures, inf = d_.infantry_figures;

    auto cavalry_loses = [&](int k, Dice& dice) {
      k = std::min(k, cav);
      for (int i = 0; i < k; ++i) {
        if (r_.supplement.hit_on_horse[static_cast<std::size_t>(dice.d6() - 1)]) ++m[c_horses];
        else ++m[c_riders];
      }
      cav -= k;
      m[c_lost] += k;
    };
    auto infantry_loses = [&](int k) {
      k = std::min(k, inf);
      inf -= k;
      m[i_lost] += k;
    };

    row.outcome = 2;  // draw unless a side breaks
    for (int t = 1; t <= d_.turns; ++t) {
      m[m_turns] = t;
      // Orders: the Actions Table (seed 002).
      Situation sit;
      sit.hero = d_.hero;
      sit.pace = unit.pace;
      sit.enemy_in_sight = true;
      sit.enemy_in_range = t >= 2;
      sit.casualties_hundredths = casualty_hundredths(d_.cavalry_figures - cav, d_.cavalry_figures);
      sit.ran_last_turn = ran;
      const int rf = rf_total(r_, Facts(sit));
      const Decision dn = decide(r_, rf, dec.d6(), unit);
      row.chosen[band_index(r_, dn.band) * H + behaviour_index(r_, dn.behaviour)] += 1;
      unit = after(unit, dn);
      ran = dn.behaviour->running;

      // A charge (seed 003), or the square (seed 004).
      if (dn.behaviour->charge_possible) {
        ++m[c_declared];
        if (mov.d6() >= 3) {
          ++m[c_launched];
          bool melee = false;
          if (can_form_square(r_.charge, d_.defender)) {
            ++m[i_squares];
            if (resolve_square(r_.charge, mor).bounce) {
              ++m[i_bounces];
              ++m[c_repulsed];
            } else {
              melee = true;
            }
          } else {
            ++m[i_checks];
            if (resolve_morale(r_.charge, target_, mor).stands) {
              ++m[i_passed];
              ++m[c_stood];
              melee = true;
            } else {
              ++m[c_broke];
              ++m[i_routs];
              infantry_loses(mel.d(3));
            }
          }
          if (melee) {
            const int bonus = shock_ ? shock_->melee + shock_->melee_charging : 0;
            const int c = mel.d6() + bonus, i = mel.d6();
            if (c > i) {
              infantry_loses(c - i);
            } else {
              ++m[c_repulsed];
              cavalry_loses(std::max(1, i - c), mel);
            }
          }
        }
      }

      // The battalion shoots.
      int hits = 0;
      for (int k = 0; k < d_.shoot_dice; ++k) hits += sho.d6() >= d_.hit_on;
      cavalry_loses(hits, sho);

      if (2 * (d_.cavalry_figures - cav) >= d_.cavalry_figures) {
        row.outcome = 1;
        break;
      }
      if (2 * (d_.infantry_figures - inf) >= d_.infantry_figures || m[i_routs] >= 2) {
        row.outcome = 0;
        break;
      }
    }
  }

 private:
  const Ruleset& r_;
  DuelSpec d_;
  const UnitType* shock_;
  MoraleTarget target_;
};

// ------------------------------------------------------------- models

class ToyModel final : public Model {
 public:
  ToyModel(const ToySpec& spec, RulesetPtr rules) : spec_(spec), rules_(std::move(rules)) {
    schema_ = spec_.kind == Kind::dice ? dice_schema(*rules_) : duel_schema(*rules_, spec_.duel);
  }
  const Schema& schema() const override { return schema_; }
  std::unique_ptr<Player> player() const override {
    if (spec_.kind == Kind::dice) return std::make_unique<DicePlayer>(*rules_);
    return std::make_unique<DuelPlayer>(*rules_, spec_.duel);
  }

 private:
  ToySpec spec_;
  RulesetPtr rules_;
  Schema schema_;
};

class ToyScenario final : public LabScenario {
 public:
  ToyScenario(ToySpec spec, RulesetPtr rules) : spec_(std::move(spec)), rules_(std::move(rules)) {}
  const std::string& name() const override { return spec_.name; }
  const std::string& description() const override { return spec_.description; }
  const std::string& file() const override { return spec_.file; }
  const std::string& ruleset_path() const override { return spec_.ruleset_path; }
  RulesetPtr rules() const override { return rules_; }
  std::unique_ptr<Model> model(RulesetPtr rules) const override {
    return std::make_unique<ToyModel>(spec_, rules ? std::move(rules) : rules_);
  }

 private:
  ToySpec spec_;
  RulesetPtr rules_;
};

template <std::size_t N>
std::vector<std::string> names_of(const std::array<std::string_view, N>& a) {
  return {a.begin(), a.end()};
}

}  // namespace

bool is_synthetic(const Doc& root) { return root.is_map() && !root.entries.empty() && root.entries.front().key == "synthetic"; }

std::unique_ptr<LabScenario> load_synthetic(const Doc& root, const std::string& path) {
  Diagnostics d;
  ToySpec spec;
  spec.file = path;
  spec.name = fs::path(path).stem().string();
  spec.ruleset_path = "builtin:default";
  MapReader top(root, d, "the synthetic scenario");
  if (auto x = top.required("synthetic"))
    if (auto i = read_choice(*x, d, "synthetic", {"dice", "duel"})) spec.kind = *i == 0 ? Kind::dice : Kind::duel;
  if (auto x = top.optional("name")) spec.name = read_string(*x, d, "name").value_or(spec.name);
  if (auto x = top.optional("description")) spec.description = read_string(*x, d, "description").value_or("");
  const Doc* ruleset_node = top.optional("ruleset");
  if (ruleset_node) {
    if (auto s = read_string(*ruleset_node, d, "ruleset")) {
      spec.ruleset_path = *s;
      if (s->rfind("builtin:", 0) != 0 && !fs::path(*s).is_absolute())
        spec.ruleset_path = (fs::path(path).parent_path() / *s).lexically_normal().string();
    }
  }
  DuelSpec& duel = spec.duel;
  if (auto x = top.optional("turns"))
    if (auto v = read_int(*x, d, "turns", 1, 1000)) duel.turns = static_cast<int>(*v);
  if (auto x = top.optional("cavalry")) {
    MapReader c(*x, d, "cavalry");
    if (auto y = c.optional("figures"))
      if (auto v = read_int(*y, d, "cavalry.figures", 1, 10000)) duel.cavalry_figures = static_cast<int>(*v);
    if (auto y = c.optional("weight"))
      if (auto v = read_choice(*y, d, "cavalry.weight", names_of(k_attacker_weight_names))) duel.weight = static_cast<AttackerWeight>(*v);
    if (auto y = c.optional("hero"))
      if (auto v = read_bool(*y, d, "cavalry.hero")) duel.hero = *v;
    c.finish();
  }
  if (auto x = top.optional("infantry")) {
    MapReader c(*x, d, "infantry");
    if (auto y = c.optional("figures"))
      if (auto v = read_int(*y, d, "infantry.figures", 1, 10000)) duel.infantry_figures = static_cast<int>(*v);
    if (auto y = c.optional("class"))
      if (auto v = read_choice(*y, d, "infantry.class", names_of(k_defender_class_names))) duel.defender = static_cast<DefenderClass>(*v);
    if (auto y = c.optional("shoot_dice"))
      if (auto v = read_int(*y, d, "infantry.shoot_dice", 0, 100)) duel.shoot_dice = static_cast<int>(*v);
    if (auto y = c.optional("hit_on"))
      if (auto v = read_int(*y, d, "infantry.hit_on", 1, 7)) duel.hit_on = static_cast<int>(*v);
    c.finish();
  }
  top.finish();
  d.throw_if_any();
  RulesetPtr rules;
  try {
    rules = load_ruleset(spec.ruleset_path);
  } catch (const LoadError& e) {
    // Say which scenario named the ruleset, then what is wrong with it.
    std::vector<Diagnostic> all;
    all.push_back({ruleset_node ? ruleset_node->where : Location{path, 0, 0}, "the ruleset this scenario names does not load:"});
    all.insert(all.end(), e.diagnostics().begin(), e.diagnostics().end());
    throw LoadError(std::move(all));
  }
  return std::make_unique<ToyScenario>(std::move(spec), std::move(rules));
}

}  // namespace vedette::lab
