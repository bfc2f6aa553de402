// `vedette odds`: exact multi-turn probabilities for a unit whose situation
// stays as given (engine/decision/odds.hpp: the decision process as a Markov chain).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <ostream>
#include <sstream>

#include "engine/core/words.hpp"
#include "engine/decision/odds.hpp"
#include "engine/decision/risk_factor.hpp"
#include "sims/cli/cli.hpp"
#include "sims/cli/fact_flags.hpp"

namespace vedette::cli {

namespace {

constexpr int k_max_turns = 1000;
// Fractions in the text output while they stay short (denominators up to 6^3).
constexpr int k_text_fraction_turns = 3;

struct OddsOptions : FactFlags {
  std::string ruleset;
  std::optional<int> rf;
  int turns = 0;
  bool json = false;
};


std::string fixed2(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}


// A column: its header (an id broken at '_' into short lines) and its cells.
struct Column {
  std::vector<std::string> head;
  std::vector<std::string> cells;
};

std::vector<std::string> wrap_words(const std::string& id, std::size_t width) {
  std::vector<std::string> words;
  std::string w;
  for (char c : id) {
    if (c == '_' || c == ' ') {
      if (!w.empty()) words.push_back(w);
      w.clear();
    } else {
      w += c;
    }
  }
  if (!w.empty()) words.push_back(w);
  std::vector<std::string> lines;
  std::string cur;
  const char sep = id.find('_') != std::string::npos ? '_' : ' ';
  for (const auto& word : words) {
    if (cur.empty()) cur = word;
    else if (cur.size() + 1 + word.size() <= width) cur += sep + word;
    else { lines.push_back(cur); cur = word; }
  }
  if (!cur.empty()) lines.push_back(cur);
  return lines;
}

void print_table(std::ostream& out, const std::vector<Column>& cols) {
  std::size_t height = 0;
  std::vector<std::size_t> width;
  for (const auto& c : cols) {
    std::size_t w = 0;
    for (const auto& h : c.head) w = std::max(w, h.size());
    for (const auto& s : c.cells) w = std::max(w, s.size());
    width.push_back(w);
    height = std::max(height, c.head.size());
  }
  auto line = [&](auto cell_of) {
    std::string s;
    for (std::size_t k = 0; k < cols.size(); ++k) {
      std::string v = cell_of(k);
      s += (k ? "  " : "") + std::string(width[k] - std::min(width[k], v.size()), ' ') + v;
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    out << s << "\n";
  };
  for (std::size_t h = 0; h < height; ++h)
    line([&](std::size_t k) { return h < cols[k].head.size() ? cols[k].head[h] : std::string(); });
  std::size_t total = 0;
  for (std::size_t k = 0; k < cols.size(); ++k) total += width[k] + (k ? 2 : 0);
  out << std::string(total, '-') << "\n";
  const std::size_t rows = cols.empty() ? 0 : cols.front().cells.size();
  for (std::size_t r = 0; r < rows; ++r) line([&](std::size_t k) { return cols[k].cells[r]; });
}

// A column head at least this wide before an id is broken onto a new line.
constexpr std::size_t k_head_width = 8;

// The chain and its odds, for the JSON and the text alike.
struct OddsRun {
  const Ruleset& r;
  const UnitState& unit;
  const Situation& sit;
  const OddsChain& chain;
  const std::vector<TurnOdds>& odds;
  const std::vector<ExactTurnOdds>& exact;
};

void print_odds_json(const OddsOptions& o, const OddsRun& run, std::ostream& out) {
  const Ruleset& r = run.r;
  const OddsChain& chain = run.chain;
  const Band& start_band = chain.band(0);
  Json j;
  j["ruleset"] = r.name;
  j["horizon"] = o.turns;
  j["rf_given"] = o.rf.has_value();
  Json start;
  start["rf"] = chain.rf(0);
  start["band"] = start_band.label;
  start["band_id"] = start_band.id;
  start["pace"] = pace_name(run.sit.pace);
  start["galloped"] = run.unit.gallop_streak;
  start["ran_last_turn"] = run.sit.ran_last_turn;
  start["type"] = run.unit.type ? Json(run.unit.type->id) : Json(nullptr);
  j["start"] = start;
  j["running_modifier"] = chain.running_value();
  j["states"] = chain.size();
  j["behaviours"] = Json::object();
  for (const auto& b : r.behaviours)
    j["behaviours"][b.id] = {{"text", b.text}, {"running", b.running}, {"charge_possible", b.charge_possible}};
  j["turns"] = Json::array();
  for (std::size_t t = 0; t < run.odds.size(); ++t) {
    const TurnOdds& x = run.odds[t];
    Json jt;
    jt["turn"] = x.turn;
    jt["behaviours"] = Json::object();
    for (std::size_t b = 0; b < r.behaviours.size(); ++b) jt["behaviours"][r.behaviours[b].id] = x.behaviours[b];
    jt["has_run"] = x.has_run;
    jt["charge_offered"] = x.charge_offered;
    jt["expected_rf"] = x.expected_rf;
    jt["pace"] = Json::object();
    for (std::size_t k = 0; k < 4; ++k) jt["pace"][std::string(k_pace_names[k])] = x.pace[k];
    if (t < run.exact.size()) {
      const ExactTurnOdds& e = run.exact[t];
      Json je;
      je["behaviours"] = Json::object();
      for (std::size_t b = 0; b < r.behaviours.size(); ++b) je["behaviours"][r.behaviours[b].id] = e.behaviours[b].str();
      je["has_run"] = e.has_run.str();
      je["charge_offered"] = e.charge_offered.str();
      je["pace"] = Json::object();
      for (std::size_t k = 0; k < 4; ++k) je["pace"][std::string(k_pace_names[k])] = e.pace[k].str();
      jt["exact"] = je;
    }
    j["turns"].push_back(jt);
  }
  print_json(out, j);
}

// The heading: the horizon, the starting RF and what makes it up.
void print_odds_start(const OddsOptions& o, const OddsRun& run, std::ostream& out) {
  const Ruleset& r = run.r;
  const Situation& sit = run.sit;
  out << "Odds over " << o.turns << (o.turns == 1 ? " turn" : " turns") << " (" << r.name
      << "), the situation staying as given.\n";
  out << "Start: RF " << run.chain.rf(0) << " (" << run.chain.band(0).label << "); moved at " << pace_name(sit.pace) << " last turn";
  if (run.unit.gallop_streak > 0) out << " (" << run.unit.gallop_streak << " in a row)";
  out << (sit.ran_last_turn ? "; ran last turn" : "");
  if (run.unit.type) out << "; " << run.unit.type->name;
  out << ".\n";
  if (o.rf) {
    out << "  --rf " << *o.rf << " stands for every modifier but running; the chain adds " << signed_str(run.chain.running_value())
        << " the turn after a running behaviour.\n";
  } else {
    const RiskFactor rf = compute_rf(r, Facts(sit));
    for (const auto& t : rf.breakdown) out << "  " << signed_str(t.value) << "  " << t.reason << "\n";
    if (rf.breakdown.empty()) out << "  no modifier applies\n";
    out << "  From turn 2 the pace and running modifiers follow what the unit did.\n";
  }
}

// One table, a row per turn: percentages (with the mean RF), or exact
// fractions for the first turns.
void print_odds_table(const OddsRun& run, const std::vector<BehaviourIndex>& shown, bool fractions, std::ostream& out) {
  const auto& odds = run.odds;
  const auto& exact = run.exact;
  std::vector<Column> cols;
  Column turn{{"turn"}, {}};
  for (const auto& x : odds)
    if (!fractions || x.turn <= k_text_fraction_turns) turn.cells.push_back(std::to_string(x.turn));
  cols.push_back(turn);
  for (BehaviourIndex b : shown) {
    Column c{wrap_words(run.r.behaviours[b].id, k_head_width), {}};
    for (std::size_t t = 0; t < turn.cells.size(); ++t)
      c.cells.push_back(fractions ? exact[t].behaviours[b].str() : pct(odds[t].behaviours[b]));
    cols.push_back(c);
  }
  Column ran{{"has run"}, {}}, charge{{"charge", "offered"}, {}}, mean{{"mean", "RF"}, {}};
  for (std::size_t t = 0; t < turn.cells.size(); ++t) {
    ran.cells.push_back(fractions ? exact[t].has_run.str() : pct(odds[t].has_run));
    charge.cells.push_back(fractions ? exact[t].charge_offered.str() : pct(odds[t].charge_offered));
    mean.cells.push_back(fixed2(odds[t].expected_rf));
  }
  cols.push_back(ran);
  cols.push_back(charge);
  if (!fractions) cols.push_back(mean);
  print_table(out, cols);
}

void print_odds_text(const OddsOptions& o, const OddsRun& run, std::ostream& out) {
  const Ruleset& r = run.r;
  print_odds_start(o, run, out);
  out << "\nEach behaviour: the chance it is chosen on that turn. Has run / charge offered: a running /\n"
         "(Charge?) behaviour chosen at least once by the end of that turn. Mean RF: the RF rolled on.\n\n";

  std::vector<BehaviourIndex> shown;
  for (std::size_t b = 0; b < r.behaviours.size(); ++b)
    if (run.chain.possible_within(static_cast<BehaviourIndex>(b), o.turns)) shown.push_back(static_cast<BehaviourIndex>(b));

  print_odds_table(run, shown, false, out);
  if (o.turns <= k_text_fraction_turns) {
    out << "\nExact:\n";
    print_odds_table(run, shown, true, out);
  }
  out << "\nBehaviours:\n";
  std::size_t w = 0;
  for (BehaviourIndex b : shown) w = std::max(w, r.behaviours[b].id.size());
  for (BehaviourIndex b : shown) {
    const Behaviour& beh = r.behaviours[b];
    out << "  " << beh.id << std::string(w - beh.id.size() + 2, ' ') << beh.text << (beh.running ? "  [running]" : "") << "\n";
  }
  out << "(" << run.chain.size() << " chain states: last turn's pace, gallop streak, running, and the two events.)\n";
}

int run_odds(const OddsOptions& o, Io& io) {
  if (o.turns < 1 || o.turns > k_max_turns)
    throw UsageError("--turns: expected a number of turns from 1 to " + std::to_string(k_max_turns) + ", got " + std::to_string(o.turns));
  RulesetPtr rules = ruleset_from(o.ruleset);
  const Ruleset& r = *rules;
  const UnitState unit = unit_state_from(r, o);
  const Situation sit = situation_from(o);
  if (o.rf && any_rf_fact_flag(o, /*ran_is_state=*/true))
    throw UsageError("--rf gives the risk factor from every modifier but running: leave out the fact flags (--hero, --cover, "
                     "--enemy-in-range, --raw, --casualties, --enemy-flank-rear, --retreated-from-melee); --pace, --galloped, "
                     "--ran-last-turn and --type give the unit's state");

  OddsSetup setup;
  setup.situation = sit;
  setup.type = unit.type;
  setup.galloped = unit.gallop_streak;
  setup.rf = o.rf;
  const OddsChain chain(rules, setup);
  const std::vector<TurnOdds> odds = turn_odds(chain, o.turns);
  const std::vector<ExactTurnOdds> exact = exact_turn_odds(chain, std::min(o.turns, k_max_exact_turns));
  const OddsRun run{r, unit, sit, chain, odds, exact};
  if (o.json) print_odds_json(o, run, io.out);
  else print_odds_text(o, run, io.out);
  return 0;
}

}  // namespace

void add_odds(CLI::App& app, Runner& run) {
  auto o = std::make_shared<OddsOptions>();
  auto* c = app.add_subcommand("odds",
                               "Exact odds, turn by turn, of each behaviour and of 'has run' / 'charge offered' within K turns, "
                               "for a unit whose situation stays as given.");
  c->add_option("--ruleset", o->ruleset, "Ruleset YAML file (default: built-in seed 002 tables)");
  add_fact_flags(c, *o);
  c->add_option("--rf", o->rf,
                "Give the risk factor of every modifier but running (the chain adds it the turn after a running behaviour) "
                "instead of the fact flags")
      ->check(CLI::Range(-100, 100));
  c->add_option("--turns", o->turns, "How many turns ahead: 1 to " + std::to_string(k_max_turns))->required();
  c->add_flag("--json", o->json, "Print one JSON object");
  c->callback([o, &run] { run = [o](Io& io) { return run_odds(*o, io); }; });
}

}  // namespace vedette::cli
