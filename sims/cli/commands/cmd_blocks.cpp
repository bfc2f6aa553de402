// `vedette blocks`: seed 004 (a Napoleonic hex-and-block game) at the table,
// for a solo player whose enemy cavalry vedette plays.
//   retire   your infantry is about to melee the automated cavalry: does it
//            Retire and Reform? The rule's conditions, the exact odds of
//            both choices, the table's policy's answer, what to do.
// The numbers come from tables/seed004.yaml (builtin:seed004) or --table
// FILE; engine/modules/blocks/seed004.hpp and bots/seed004_policy.hpp hold the mechanisms,
// the same ones the engagement engine's bots use.
#include <cstdio>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "bots/seed004_policy.hpp"
#include "engine/modules/blocks/seed004.hpp"
#include "sims/cli/cli.hpp"

namespace vedette::cli {

namespace {

struct RetireOptions {
  int cavalry_blocks = 0;
  int infantry_dice = 0;
  int artillery_dice = 0;
  bool battling_back = false;
  bool no_retreat = false;
  bool square = false;
  std::string policy;
  std::string table;
  bool json = false;
};

// A chance with more decimals when it is under 0.1%.
std::string pct_fine(double p) {
  char b[32];
  std::snprintf(b, sizeof b, p > 0 && p < 0.001 ? "%.4f%%" : "%.1f%%", 100.0 * p);
  return b;
}

std::string num3(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f", x);
  return b;
}

// "cavalry, sabre": the symbols of the die in `bits` (bit per Symbol).
std::string symbols_text(std::uint8_t bits) {
  std::string s;
  for (std::size_t k = 0; k < k_symbol_names.size(); ++k)
    if ((bits >> k) & 1u) s += (s.empty() ? "" : ", ") + std::string(k_symbol_names[k]);
  return s.empty() ? "none" : s;
}

// The chance of losing the whole unit: `dice` dice, each hitting with `p`,
// at least `blocks` hits. Exact when the fraction fits.
struct Elimination {
  std::optional<Fraction> exact;
  double value = 0;
  std::string text() const { return exact ? exact->str() + " (" + pct_fine(value) + ")" : pct_fine(value); }
};
Elimination eliminated(Fraction p, int dice, int blocks) {
  Elimination e;
  e.exact = binomial_at_least(p, dice, blocks);
  e.value = e.exact ? e.exact->value() : binomial_at_least_value(p.value(), dice, blocks);
  return e;
}

Json elimination_json(const Elimination& e) {
  Json j;
  j["p_eliminated"] = e.exact ? Json(e.exact->str()) : Json(nullptr);
  j["p_eliminated_value"] = e.value;
  return j;
}

ChoicePolicy policy_or_throw(const std::string& text) {
  for (std::size_t k = 0; k < k_choice_policy_names.size(); ++k)
    if (k_choice_policy_names[k] == text || dashed(k_choice_policy_names[k]) == text) return static_cast<ChoicePolicy>(k);
  throw UsageError("--policy '" + text + "': expected always, never or by-expected-losses");
}

int run_retire(const RetireOptions& o, Io& io) {
  const std::string table = o.table.empty() ? "builtin:seed004" : o.table;
  const Seed004Ptr rules = load_seed004(table);
  const Seed004Rules& r = *rules;
  const ChoicePolicy policy = o.policy.empty() ? r.retire_policy : policy_or_throw(o.policy);
  if (o.square && o.infantry_dice > r.square_max_dice)
    throw UsageError("--infantry-dice " + std::to_string(o.infantry_dice) + " with --square: an infantry square rolls at most " +
                     std::to_string(r.square_max_dice) + " die (seed 004)");

  // Seed 004: cavalry attacked in melee by infantry, the infantry not
  // battling back, and room to retire (the player has looked at the board).
  const RetireRefusal refusal = o.battling_back ? RetireRefusal::infantry_battling_back
                                : o.no_retreat  ? RetireRefusal::no_retreat
                                                : RetireRefusal::none;
  RetireQuestion q;
  q.infantry_dice = o.infantry_dice;
  q.artillery_dice = o.artillery_dice;
  q.cavalry_blocks = o.cavalry_blocks;
  q.allowed = refusal == RetireRefusal::none;
  // Seed 004: the cavalry battles back against a square with at most 1 die.
  if (o.square) q.battle_back_max_dice = r.square_cavalry_max_dice;
  const int dice = o.infantry_dice + o.artillery_dice;
  const Fraction p_retire = p_retire_hit(r);
  const std::uint8_t stay_hits = hit_symbols(r, Arm::cavalry, CombatKind::melee, r.sabres(Arm::infantry));
  const Fraction p_stay = p_symbols(r, stay_hits);
  const Fraction p_flag = p_symbols(r, static_cast<std::uint8_t>(1u << static_cast<unsigned>(Symbol::flag)));
  const double lost_retiring = expected_loss_retiring(r, q);
  const double lost_staying = dice * p_stay.value();
  const double net_staying = expected_net_loss_staying(r, q);
  const Elimination dead_retiring = eliminated(p_retire, dice, o.cavalry_blocks);
  const Elimination dead_staying = eliminated(p_stay, dice, o.cavalry_blocks);
  const bool retires = choose_retire_and_reform(r, policy, q);
  const std::string policy_name = dashed(k_choice_policy_names[static_cast<std::size_t>(policy)]);

  if (o.json) {
    Json j;
    j["table"] = table;
    j["policy"] = policy_name;
    j["cavalry_blocks"] = o.cavalry_blocks;
    j["infantry_dice"] = o.infantry_dice;
    j["artillery_dice"] = o.artillery_dice;
    j["allowed"] = q.allowed;
    j["square"] = o.square;
    j["battle_back_max_dice"] = q.battle_back_max_dice >= 0 ? Json(q.battle_back_max_dice) : Json(nullptr);
    j["refusal"] = q.allowed ? Json(nullptr) : Json(std::string(k_retire_refusal_names[static_cast<std::size_t>(refusal)]));
    Json ret = {{"hits_on", symbols_text(r.retire_hits_on)}, {"p_hit", p_retire.str()}, {"expected_blocks_lost", lost_retiring}};
    ret.update(elimination_json(dead_retiring));
    j["retire"] = std::move(ret);
    Json stay = {{"hits_on", symbols_text(stay_hits)},
                 {"p_hit", p_stay.str()},
                 {"p_flag", p_flag.str()},
                 {"expected_blocks_lost", lost_staying},
                 {"expected_net_loss", net_staying}};
    stay.update(elimination_json(dead_staying));
    j["stay"] = std::move(stay);
    j["decision"] = retires ? "retire" : "stay";
    print_json(io.out, j);
    return 0;
  }

  auto& out = io.out;
  out << "Seed 004, Retire and Reform: your infantry " << (o.battling_back ? "battles back against" : "attacks")
      << " the automated cavalry (" << o.cavalry_blocks << " block"
      << (o.cavalry_blocks == 1 ? "" : "s") << ") in melee with " << o.infantry_dice << " dice";
  if (o.artillery_dice) out << " and " << o.artillery_dice << " combined-arms artillery " << (o.artillery_dice == 1 ? "die" : "dice");
  out << ".\n";
  if (q.allowed)
    out << "Allowed: yes (cavalry attacked in melee by infantry, the infantry not battling back, " << r.retire_hexes
        << " hexes to retire toward its own edge)\n";
  else
    out << "Allowed: no: " << k_retire_refusal_names[static_cast<std::size_t>(refusal)] << " (seed 004)\n";
  if (q.allowed)
    out << "If it retires: " << dice << " dice, each hits on " << symbols_text(r.retire_hits_on) << " only (" << p_retire.str()
        << "); expected blocks lost " << num3(lost_retiring) << ", eliminated " << dead_retiring.text() << "; it does not battle back\n";
  out << (q.allowed ? "If it stays:   " : "It stays: ") << dice << " dice, each hits on " << symbols_text(stay_hits) << " ("
      << p_stay.str() << "), a flag (" << p_flag.str() << ") drives it back; expected blocks lost " << num3(lost_staying) << ", eliminated "
      << dead_staying.text();
  if (!o.battling_back)
    out << "; less what it takes back battling back"
        << (o.square ? " with at most " + std::to_string(r.square_cavalry_max_dice) + " die against your square" : std::string())
        << ": expected net loss " << num3(net_staying);
  out << "\n";
  if (q.allowed)
    out << "Decision (policy " << policy_name << ", " << table << "): " << (retires ? "RETIRE AND REFORM" : "STAYS AND FIGHTS") << "\n";
  else
    out << "Decision: STAYS AND FIGHTS (it may not Retire and Reform)\n";
  if (retires)
    out << "Do: roll your " << dice << " dice; only " << symbols_text(r.retire_hits_on)
        << " symbols hit, all others (sabres and flags too) are ignored. Then the cavalry retires " << r.retire_hexes
        << " hexes toward its own edge, each closer to it, and does not battle back"
        << (r.infantry_takes_ground ? "; your infantry may take ground" : "") << ".\n";
  else if (refusal == RetireRefusal::infantry_battling_back)
    out << "Do: your infantry battles back as usual (seed 004: the melee is resolved normally): roll its dice, every symbol counts.\n";
  else
    out << "Do: the melee is resolved normally (seed 004): roll your dice, every symbol counts; the cavalry battles back if it is "
           "still there and no flag drove it off.\n";
  return 0;
}

}  // namespace

void add_blocks(CLI::App& app, Runner& run) {
  auto* blocks = app.add_subcommand("blocks", "Seed 004 at the table: the automated cavalry's choices in a hex-and-block game.");
  blocks->require_subcommand(1);
  blocks->footer("Numbers come from tables/seed004.yaml (built in), each beside the rule it cites.");
  auto o = std::make_shared<RetireOptions>();
  auto* c = blocks->add_subcommand("retire", "Your infantry is about to melee the automated cavalry: does it Retire and Reform (seed 004)?");
  c->add_option("--cavalry-blocks", o->cavalry_blocks, "Blocks the cavalry unit has, 1 to 100")->required()->check(CLI::Range(1, 100));
  c->add_option("--infantry-dice", o->infantry_dice, "Battle dice your infantry rolls in this melee (after terrain), 0 to 100")
      ->required()
      ->check(CLI::Range(0, 100));
  c->add_option("--artillery-dice", o->artillery_dice, "Dice your ordered artillery adds by Combined Arms, 0 to 100 (default 0)")
      ->check(CLI::Range(0, 100));
  c->add_flag("--battling-back", o->battling_back, "Your infantry is battling back (seed 004: no Retire and Reform then)");
  c->add_flag("--square", o->square,
              "Your infantry is in square (seed 004: the cavalry battles back against it with at most 1 die; give --infantry-dice 1 or 0)");
  c->add_flag("--no-retreat", o->no_retreat,
              "The cavalry has no 2 hexes to retire, each closer to its own edge (occupied, impassable or the board edge)");
  c->add_option("--policy", o->policy, "always, never or by-expected-losses (default: the table's policy.retire_and_reform)");
  c->add_option("--table", o->table, "Seed 004 table (default: builtin:seed004, i.e. tables/seed004.yaml)");
  c->add_flag("--json", o->json, "Print one JSON object: allowed, refusal, retire and stay (p_hit, expected_blocks_lost, p_eliminated), decision");
  c->footer("Example: vedette blocks retire --cavalry-blocks 3 --infantry-dice 4");
  c->callback([o, &run] { run = [o](Io& io) { return run_retire(*o, io); }; });
}

}  // namespace vedette::cli
