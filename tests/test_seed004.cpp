// Seed 004 (seeds/004_c27512f9ffc61979.txt) on the hex board: symbol battle
// dice as data, retreats toward the own edge, Retire and Reform (the seed's
// A/B/C/D example as a golden test), Infantry Square, Combined Arms, and the
// bots' policy for the two choices. Rules from tables/seed004.yaml.
#include "engine/modules/blocks/seed004.hpp"

#include "bots/seed004_policy.hpp"
#include "engine/core/dice.hpp"
#include "engine/core/doc.hpp"
#include "seed004_test_util.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace t_seed004 {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

using seed004test::at;
using seed004test::rules;
using seed004test::unit;
using seed004test::with_die;

TEST_CASE("seed004: the shipped table loads with the seed's numbers") {
  const auto& r = rules();
  CHECK(r.faces.size() == 6);
  CHECK(r.retire_hexes == 2);           // seed 004: "retire 2 hexes"
  CHECK(r.square_min_cards == 3);       // seed 004: not with "two or fewer Command cards"
  CHECK(r.square_max_dice == 1);        // seed 004: "maximum ... is 1 die"
  CHECK(r.square_cavalry_max_dice == 1);
  // Seed 004's example: a horse artillery unit "firing at a range of three
  // hexes" rolls one die.
  BlockUnit horse = unit(Arm::artillery, 0, 3, Hex{});
  horse.horse_artillery = true;
  CHECK(unit_dice(r, horse, 3, 0) == 1);
  // Seed 004's example: "four dice (for his four blocks)".
  CHECK(unit_dice(r, unit(Arm::infantry, 0, 4, Hex{}), 1, 0) == 4);
  CHECK(r.find_terrain("woods") != nullptr);
}

TEST_CASE("seed004: a bad table is refused with located errors") {
  const Doc d = parse_yaml("seed004: x\nbattle_die: {faces: [infantry, lance]}\n", "bad.yaml");
  Diagnostics diags;
  (void)read_seed004(d, diags);
  CHECK_THROWS_AS(diags.throw_if_any(), LoadError);
}

TEST_CASE("seed004: symbols hit by arm and combat, sabres only in melee for units that hit on them") {
  const auto& r = rules();
  const std::vector<Symbol> roll{Symbol::infantry, Symbol::cavalry, Symbol::sabre, Symbol::flag};
  const Score melee = score(r, roll, Arm::cavalry, CombatKind::melee, true);
  CHECK(melee.hits == 2);  // cavalry symbol and sabre
  CHECK(melee.flags == 1);
  CHECK(score(r, roll, Arm::cavalry, CombatKind::ranged, true).hits == 1);  // no sabres at range
  CHECK(score(r, roll, Arm::infantry, CombatKind::melee, true).hits == 2);
  // Seed 004: combined-arms artillery with "a unit that does not hit on
  // sabers in melee" does not hit on sabres either.
  CHECK(score(r, roll, Arm::infantry, CombatKind::melee, false).hits == 1);
  CHECK(r.sabres(Arm::infantry));
  CHECK(r.sabres(Arm::cavalry));
  CHECK_FALSE(r.sabres(Arm::artillery));
  CHECK(p_hit(r, Arm::infantry, CombatKind::melee, true) == Fraction(1, 2));
  CHECK(p_hit(r, Arm::cavalry, CombatKind::melee, true) == Fraction(1, 3));
  CHECK(p_hit(r, Arm::infantry, CombatKind::ranged, true) == Fraction(1, 3));
}

TEST_CASE("seed004: retire and reform: only cavalry symbols hit, sabres and flags are ignored", "[004-L8-cavalry-symbols-only]") {
  const auto& r = rules();
  const std::vector<Symbol> roll{Symbol::infantry, Symbol::cavalry, Symbol::sabre, Symbol::flag, Symbol::cavalry};
  const Score s = score_retiring(r, roll);
  CHECK(s.hits == 2);
  CHECK(s.flags == 0);
  CHECK(p_retire_hit(r) == Fraction(1, 6));
}

TEST_CASE("seed004: golden: the retire and reform example -- only hex D is legal", "[004-L5-two-hexes-needed][004-L17-example-hex-d]") {
  // Seed 004's example: "Hexes marked A are prohibited since each hex moved
  // must be closer to the friendly board edge. Hexes B and C are prohibited
  // since B is occupied and C is impassable terrain. The only legal
  // destination hex is D." A 5 x 5 board, the French cavalry X in row 3, its
  // own edge the bottom.
  const auto& r = rules();
  HexBoard b(5, 5, Length::cm(10));
  const auto river = b.add_terrain({.name = "river", .impassable = true});
  const Hex X = at(2, 3);
  const Hex A1 = neighbour(X, HexDir::w), A2 = neighbour(X, HexDir::e);  // not closer to the edge
  const Hex B = neighbour(X, HexDir::sw);                                  // occupied
  const Hex mid = neighbour(X, HexDir::se);
  const Hex C = neighbour(mid, HexDir::sw);                                // impassable
  const Hex D = neighbour(mid, HexDir::se);
  b.set_terrain(C, river);
  const Hex british = at(2, 4);  // the attacking infantry, above
  const std::vector<Hex> occupied{B, british};
  const auto dest = retire_destinations(r, b, X, Edge::bottom, occupied);
  REQUIRE(dest.size() == 1);
  CHECK(dest[0] == D);
  for (Hex a : {A1, A2}) CHECK(b.edge_distance(a, Edge::bottom) == b.edge_distance(X, Edge::bottom));
  const auto paths = retire_paths(r, b, X, Edge::bottom, occupied);
  REQUIRE(paths.size() == 1);
  CHECK(paths[0] == std::vector<Hex>{mid, D});
  BlockUnit cav = unit(Arm::cavalry, 0, 3, X);
  CHECK(may_retire_and_reform(r, b, cav, Arm::infantry, Edge::bottom, occupied, false) == RetireRefusal::none);

  // Terrain that halts movement does not prevent it (seed 004).
  const auto woods = b.add_terrain({.name = "woods", .halts_movement = true, .blocks_sight = true, .cover = 1});
  b.set_terrain(mid, woods);
  CHECK(retire_destinations(r, b, X, Edge::bottom, occupied) == std::vector<Hex>{D});
  // With D occupied too there is no legal retire.
  const std::vector<Hex> more{B, british, D};
  CHECK(may_retire_and_reform(r, b, cav, Arm::infantry, Edge::bottom, more, false) == RetireRefusal::no_retreat);
  // Without B and C in the way: three destinations, two rows nearer.
  HexBoard open(5, 5, Length::cm(10));
  CHECK(retire_destinations(r, open, X, Edge::bottom, std::vector<Hex>{british}).size() == 3);
}

TEST_CASE("seed004: retire and reform: the board edge, battle back, and who may ask", "[004-L3-retire-vs-infantry][004-L13-not-vs-battle-back]") {
  const auto& r = rules();
  const HexBoard b(5, 5, Length::cm(10));
  const std::vector<Hex> none;
  // One row from its own edge: it cannot retire 2 hexes.
  BlockUnit cav = unit(Arm::cavalry, 0, 3, at(2, 1));
  CHECK(may_retire_and_reform(r, b, cav, Arm::infantry, Edge::bottom, none, false) == RetireRefusal::no_retreat);
  cav.hex = at(2, 3);
  // Seed 004: "may not Retire and Reform when an infantry unit Battles Back".
  CHECK(may_retire_and_reform(r, b, cav, Arm::infantry, Edge::bottom, none, true) ==
        RetireRefusal::infantry_battling_back);
  // Only against an infantry melee.
  CHECK(may_retire_and_reform(r, b, cav, Arm::cavalry, Edge::bottom, none, false) ==
        RetireRefusal::not_cavalry_vs_infantry);
  // Toward the top edge instead.
  CHECK(retire_destinations(r, b, at(2, 1), Edge::top, none).size() == 3);
}

TEST_CASE("seed004: retire and reform sequence: full dice, cavalry symbols only, then 2 hexes back", "[004-L8-full-dice][004-L8-artillery-still-rolled][004-L9-retire-after-roll]") {
  // Seed 004: "the attacking infantry unit determines and rolls the proper
  // number of melee battle dice ... Artillery battle dice in a Combined Arms
  // attack are still rolled"; then the retire of 2 hexes; the infantry may
  // take ground; the cavalry may not battle back.
  const auto& r = rules();
  const HexBoard b(5, 5, Length::cm(10));
  Rng rng = make_stream(4, 0, Subsystem::melee);
  Dice dice(rng);
  for (int trial = 0; trial < 50; ++trial) {
    BlockUnit cav = unit(Arm::cavalry, 0, 3, at(2, 3));
    const RetireResult res = resolve_retire_and_reform(r, b, cav, 4, 1, Edge::bottom, {}, dice);
    REQUIRE(res.rolled.size() == 5);
    const auto cav_symbols = std::count(res.rolled.begin(), res.rolled.end(), Symbol::cavalry);
    CHECK(res.hits == cav_symbols);
    CHECK(cav.blocks == std::max(0, 3 - res.hits));
    // (No battle back, seed 004 L12, and taking ground, L11, are the
    // engine's: tests/test_hex_engagement.cpp plays them.)
    if (res.eliminated) {
      CHECK(res.path.empty());
    } else {
      REQUIRE(res.path.size() == 2);
      CHECK(b.edge_distance(cav.hex, Edge::bottom) == 1);
    }
  }
}

TEST_CASE("seed004: retreats: a block lost per hex not completed, a square completes none") {
  const auto& r = rules();
  const HexBoard b(5, 5, Length::cm(10));
  // On its own edge row: 1 hex asked, none possible.
  const Retreat edge = retreat(b, at(2, 0), Edge::bottom, 1, true, {});
  CHECK(edge.path.empty());
  CHECK(edge.blocks_lost == 1);
  const Retreat two = retreat(b, at(2, 3), Edge::bottom, 2, true, {});
  CHECK(two.path.size() == 2);
  CHECK(two.blocks_lost == 0);
  // Seed 004: "An infantry unit in square, because it cannot move, will lose
  // one block for each retreat hex the unit cannot complete."
  const Retreat sq = retreat(b, at(2, 3), Edge::bottom, 2, false, {});
  CHECK(sq.path.empty());
  CHECK(sq.blocks_lost == 2);
  // Flags ignored (a leader) reduce the hexes.
  CHECK(retreat_hexes(r, Arm::infantry, 2, 1) == 1);
  CHECK(retreat_hexes(r, Arm::cavalry, 1, 0) == 1);
}

TEST_CASE("seed004: forming square: cards, terrain, battling back, first strike", "[004-L29-two-cards][004-L30-terrain][004-L31-cavalry-battling-back][004-L32-first-strike]") {
  const auto& r = rules();
  const HexTerrain open;
  // Seed 004: "When you hold two or fewer Command cards in your hand."
  CHECK(may_form_square(r, 2, open, false, false) == SquareRefusal::too_few_cards);
  CHECK(may_form_square(r, 3, open, false, false) == SquareRefusal::none);
  // "When the infantry unit is on certain terrain hexes" (data: town, woods).
  CHECK(may_form_square(r, 5, *r.find_terrain("town"), false, false) == SquareRefusal::terrain);
  // Issue 29's sweep: woods was not checked (forbidden_terrain [town] passed).
  CHECK(may_form_square(r, 5, *r.find_terrain("woods"), false, false) == SquareRefusal::terrain);
  CHECK(may_form_square(r, 5, *r.find_terrain("hill"), false, false) == SquareRefusal::none);
  // "When a cavalry unit is Battling Back."
  CHECK(may_form_square(r, 5, open, true, false) == SquareRefusal::cavalry_battling_back);
  CHECK(may_form_square(r, 5, open, false, true) == SquareRefusal::first_strike);
}

TEST_CASE("seed004: a random command card goes to the square track and comes back", "[004-L36-card-to-track][004-L39-random-card][004-L91-card-returns]") {
  Rng rng = make_stream(1, 0, Subsystem::decisions);
  Dice dice(rng);
  CommandHand h{{10, 11, 12, 13}, {}};
  const int card = place_square_card(h, dice);
  CHECK(h.hand.size() == 3);
  REQUIRE(h.square_track == std::vector<int>{card});
  CHECK(std::find(h.hand.begin(), h.hand.end(), card) == h.hand.end());
  return_square_card(h, card);
  CHECK(h.hand.size() == 4);
  CHECK(h.square_track.empty());
  // L39: "selects one card at random": over many draws every card of the
  // hand goes to the track (issue 29's sweep: always the first card passed).
  std::set<int> drawn;
  for (int k = 0; k < 60; ++k) {
    CommandHand g{{10, 11, 12, 13}, {}};
    drawn.insert(place_square_card(g, dice));
  }
  CHECK(drawn == std::set<int>{10, 11, 12, 13});
}

TEST_CASE("seed004: a square rolls at most 1 die, which terrain may still take away", "[004-L21-square-one-die][004-L22-terrain-reduces][004-L42-cap-not-increased]") {
  const auto& r = rules();
  BlockUnit sq = unit(Arm::infantry, 0, 4, Hex{});
  sq.in_square = true;
  CHECK(unit_dice(r, sq, 1, 0) == 1);  // "Nothing will increase the number"
  CHECK(unit_dice(r, sq, 1, 1) == 0);  // "may not have a die to roll"
  CHECK(capped_dice(4, 1, 0) == 1);
  CHECK(capped_dice(0, 1, 0) == 0);
  CHECK(capped_dice(3, 1, 2) == 0);
}

TEST_CASE("seed004: square: a bounce flag drives the cavalry off and loses the combined-arms dice", "[004-L41-square-first][004-L44-bounce-flag][004-L114-example-bounce]") {
  // Seed 004's example: "The British Line Infantry unit in square rolls
  // first and rolls a flag (Bounce Back). The cavalry unit is forced to
  // retreat and the combined arms attack is lost."
  const Seed004Rules r = with_die({Symbol::flag});
  const HexBoard b(5, 5, Length::cm(10));
  Rng rng = make_stream(2, 0, Subsystem::melee);
  Dice dice(rng);
  BlockUnit cav = unit(Arm::cavalry, 0, 3, at(2, 2));
  BlockUnit sq = unit(Arm::infantry, 1, 4, at(2, 1));
  sq.in_square = true;
  const SquareMelee m = resolve_cavalry_vs_square(r, b, cav, Edge::top, sq, Edge::bottom, 1, {}, dice);
  CHECK(m.square_dice == 1);
  CHECK(m.bounced);
  CHECK(m.combined_arms_lost);
  CHECK_FALSE(m.cavalry_attacks);
  CHECK(cav.hex.r == 3);  // one hex toward its own (top) edge
  CHECK(cav.blocks == 3);
  CHECK(sq.blocks == 4);
}

TEST_CASE("seed004: square: a bounced cavalry that cannot retreat loses a block per hex", "[seed004][004-L44-bounce-no-retreat][004-L46-stuck-attacks]") {
  // Seed 004: "If the cavalry unit cannot retreat, one block is lost for each
  // retreat hex the cavalry unit cannot complete."
  const Seed004Rules r = with_die({Symbol::flag});
  const HexBoard b(5, 5, Length::cm(10));
  Rng rng = make_stream(3, 0, Subsystem::melee);
  Dice dice(rng);
  BlockUnit cav = unit(Arm::cavalry, 0, 3, at(2, 4));  // on its own (top) edge row
  BlockUnit sq = unit(Arm::infantry, 1, 4, at(2, 3));
  sq.in_square = true;
  const SquareMelee m = resolve_cavalry_vs_square(r, b, cav, Edge::top, sq, Edge::bottom, 0, {}, dice);
  CHECK(m.bounced);
  CHECK(m.cavalry_retreat.blocks_lost == 1);
  CHECK(cav.blocks == 2);
  CHECK(cav.hex == at(2, 4));
  // Reading (the switch's default): it was not "forced to retreat from its
  // hex", so it still attacks with its 1 die.
  REQUIRE(r.bounced_but_stuck_attacks);
  CHECK(m.cavalry_attacks);
  CHECK(m.cavalry_dice + m.artillery_dice == static_cast<int>(m.cavalry_rolled.size()));
  Seed004Rules repulsed = r;
  repulsed.bounced_but_stuck_attacks = false;
  BlockUnit cav2 = unit(Arm::cavalry, 0, 3, at(2, 4));
  BlockUnit sq2 = sq;
  const SquareMelee m2 = resolve_cavalry_vs_square(repulsed, b, cav2, Edge::top, sq2, Edge::bottom, 2, {}, dice);
  CHECK_FALSE(m2.cavalry_attacks);
  CHECK(m2.combined_arms_lost);
}

TEST_CASE("seed004: square: otherwise the cavalry attacks with 1 die plus the artillery's", "[004-L46-artillery-adds][004-L109-sabres-follow]") {
  // Seed 004: "the cavalry unit may melee against the infantry square with a
  // maximum of 1 battle die ... A Combined Arms melee attack may add to the
  // total". Sabres: the square hits the cavalry, then the cavalry's die and
  // the horse artillery's both hit the square.
  const Seed004Rules r = with_die({Symbol::sabre});
  const HexBoard b(5, 5, Length::cm(10));
  Rng rng = make_stream(5, 0, Subsystem::melee);
  Dice dice(rng);
  BlockUnit cav = unit(Arm::cavalry, 0, 4, at(2, 2));
  BlockUnit sq = unit(Arm::infantry, 1, 4, at(2, 1));
  sq.in_square = true;
  const SquareMelee m = resolve_cavalry_vs_square(r, b, cav, Edge::top, sq, Edge::bottom, 1, {}, dice);
  CHECK(m.cavalry_hits_taken == 1);
  CHECK(cav.blocks == 3);
  CHECK_FALSE(m.bounced);
  REQUIRE(m.cavalry_attacks);
  CHECK(m.cavalry_dice == 1);
  CHECK(m.artillery_dice == 1);
  CHECK(m.cavalry_rolled.size() == 2);
  CHECK(m.square_hits_taken == 2);
  CHECK(sq.blocks == 2);
}

TEST_CASE("seed004: square: flags against a square cost a block per retreat hex", "[004-L50-square-retreat]") {
  // A die of cavalry symbols: the square's die hits the cavalry (no bounce),
  // the cavalry's does not hit infantry. Then the square's retreat for two
  // flags (seed 004: "will lose one block for each retreat hex the unit
  // cannot complete").
  const Seed004Rules r = with_die({Symbol::cavalry});
  const HexBoard b(5, 5, Length::cm(10));
  Rng rng = make_stream(6, 0, Subsystem::melee);
  Dice dice(rng);
  BlockUnit cav = unit(Arm::cavalry, 0, 2, at(2, 2));
  BlockUnit sq = unit(Arm::infantry, 1, 4, at(2, 1));
  sq.in_square = true;
  const SquareMelee m = resolve_cavalry_vs_square(r, b, cav, Edge::top, sq, Edge::bottom, 0, {}, dice);
  CHECK(cav.blocks == 1);
  CHECK(m.square_hits_taken == 0);  // a cavalry symbol does not hit infantry
  const Retreat lost = retreat(b, sq.hex, Edge::bottom, retreat_hexes(r, Arm::infantry, 2, 0), may_move(sq), {});
  CHECK(lost.blocks_lost == 2);
  // In the melee itself: the square's flag does not bounce here (no bounce
  // symbol), the cavalry's flag drives the square a hex it cannot move: a
  // block lost, the square stays (issue 29's sweep: the melee's own retreat
  // moving the square passed).
  Seed004Rules nb = with_die({Symbol::flag});
  nb.square_bounce_on = 0;
  BlockUnit cav2 = unit(Arm::cavalry, 0, 2, at(2, 2));
  BlockUnit sq2 = unit(Arm::infantry, 1, 4, at(2, 1));
  sq2.in_square = true;
  const SquareMelee f = resolve_cavalry_vs_square(nb, b, cav2, Edge::top, sq2, Edge::bottom, 0, {}, dice);
  REQUIRE(f.cavalry_attacks);
  CHECK(f.square_retreat.path.empty());
  CHECK(f.square_retreat.blocks_lost == 1);
  CHECK(sq2.blocks == 3);
  CHECK(sq2.hex == at(2, 1));
}

TEST_CASE("seed004: a square cannot move, take ground or receive support, it gives support", "[004-L21-square-no-move][004-L51-support][004-L89-out-of-square]") {
  BlockUnit sq = unit(Arm::infantry, 1, 4, at(2, 1));
  sq.in_square = true;
  CHECK_FALSE(may_move(sq));
  CHECK_FALSE(may_take_ground(sq));
  CHECK_FALSE(may_receive_support(sq));
  CHECK(may_give_support(sq));
  // Coming out of square: not with enemy cavalry adjacent.
  const HexBoard b(5, 5, Length::cm(10));
  std::vector<BlockUnit> units{sq, unit(Arm::cavalry, 0, 2, at(2, 2))};
  CHECK_FALSE(may_leave_square(b, sq, units));
  units[1].hex = at(2, 3);  // two hexes away
  CHECK(may_leave_square(b, sq, units));
  units[1] = unit(Arm::cavalry, 1, 2, at(2, 2));  // friendly cavalry adjacent
  CHECK(may_leave_square(b, sq, units));
}

TEST_CASE("seed004: combined arms: ordered artillery in range with a clear line of sight", "[004-L99-in-range-clear]") {
  const auto& r = rules();
  HexBoard b(7, 5, Length::cm(10));
  const auto hill = b.add_terrain({.name = "hill", .blocks_sight = true, .cover = 1, .height = 1});
  const auto woods = b.add_terrain({.name = "woods", .halts_movement = true, .blocks_sight = true, .cover = 1});
  BlockUnit art = unit(Arm::artillery, 0, 3, at(1, 2));
  art.horse_artillery = true;
  b.set_terrain(art.hex, hill);
  BlockUnit cav = unit(Arm::cavalry, 0, 3, at(2, 2));     // on lower ground, adjacent, meleeing B
  BlockUnit target_b = unit(Arm::infantry, 1, 4, at(3, 2));
  BlockUnit target_a = unit(Arm::infantry, 1, 4, at(1, 4));  // 2 hexes up from the artillery
  BlockUnit inf = unit(Arm::infantry, 0, 4, at(0, 4));       // meleeing A from beside it, off the line
  std::vector<BlockUnit> all{art, cav, target_b, inf, target_a};
  // Seed 004's example: fire at A (clear path), not at B "because it cannot
  // fire over the friendly unit meleeing the target unit B".
  CHECK(combined_arms(r, b, art, inf, target_a, all) == CombinedArmsRefusal::none);
  CHECK(combined_arms(r, b, art, cav, target_b, all) == CombinedArmsRefusal::over_friendly_lower);
  // Not ordered, not in range, not for an artillery melee.
  BlockUnit idle = art;
  idle.ordered = false;
  CHECK(combined_arms(r, b, idle, inf, target_a, all) == CombinedArmsRefusal::not_ordered);
  BlockUnit far = unit(Arm::infantry, 1, 4, at(6, 4));
  REQUIRE(hex_distance(art.hex, far.hex) > artillery_range(r, true));
  CHECK(combined_arms(r, b, art, inf, far, all) == CombinedArmsRefusal::out_of_range);
  CHECK(combined_arms(r, b, art, art, target_a, all) == CombinedArmsRefusal::melee_unit);
  // Terrain or any unit on the path blocks: "No units or terrain may occupy
  // the line of sight path".
  BlockUnit t2 = unit(Arm::infantry, 1, 4, at(4, 2));
  std::vector<BlockUnit> row{art, t2, unit(Arm::infantry, 1, 2, at(3, 2))};
  CHECK(combined_arms(r, b, art, inf, t2, row) == CombinedArmsRefusal::no_line_of_sight);
  row.pop_back();
  CHECK(combined_arms(r, b, art, inf, t2, row) == CombinedArmsRefusal::none);
  b.set_terrain(at(3, 2), woods);
  CHECK(combined_arms(r, b, art, inf, t2, row) == CombinedArmsRefusal::no_line_of_sight);
}

TEST_CASE("seed004: combined arms: dice lost when the attacker is eliminated or bounced, battle back hits the melee unit", "[004-L110-battle-back-target][004-L111-dice-lost]") {
  CHECK(combined_arms_dice_after(2, false, false) == 2);
  CHECK(combined_arms_dice_after(2, true, false) == 0);
  CHECK(combined_arms_dice_after(2, false, true) == 0);
  // ...and the melee against a square loses them: a bounced cavalry's
  // artillery rolls nothing (issue 29's sweep: resolve_cavalry_vs_square
  // keeping them passed the checks above).
  {
    const Seed004Rules r = with_die({Symbol::flag});
    const HexBoard b(5, 5, Length::cm(10));
    Rng rng = make_stream(2, 0, Subsystem::melee);
    Dice dice(rng);
    BlockUnit cav = unit(Arm::cavalry, 0, 3, at(2, 2));
    BlockUnit sq = unit(Arm::infantry, 1, 4, at(2, 1));
    sq.in_square = true;
    const SquareMelee m = resolve_cavalry_vs_square(r, b, cav, Edge::top, sq, Edge::bottom, 2, {}, dice);
    CHECK(m.bounced);
    CHECK(m.artillery_dice == 0);
    CHECK(sq.blocks == 4);
  }
  // Seed 004: "if the enemy unit Battles Back it must fight against the
  // infantry or cavalry unit, not against the artillery".
  CHECK(battle_back_target(3, 5) == 3);
}

TEST_CASE("seed004 policy: always, never, by expected losses") {
  const auto& r = rules();
  SquareQuestion q;  // 4 cavalry blocks against 4 infantry blocks, open ground
  // Not in square: 4 dice x 1/2. In square: card 0.25 + 5/6 (no bounce) x 1
  // die x (1/2 hit + 1/6 flag = a block, the square cannot retreat).
  CHECK(expected_loss_not_in_square(r, q) == Approx(2.0));
  CHECK(expected_loss_in_square(r, q) == Approx(0.25 + 5.0 / 6.0 * 2.0 / 3.0));
  CHECK(choose_form_square(r, ChoicePolicy::by_expected_losses, q));
  CHECK(choose_form_square(r, ChoicePolicy::always, q));
  CHECK_FALSE(choose_form_square(r, ChoicePolicy::never, q));
  // A one-block cavalry unit is not worth a card.
  q.cavalry_blocks = 1;
  CHECK_FALSE(choose_form_square(r, ChoicePolicy::by_expected_losses, q));
  // Too few cards: never, whatever the policy.
  q.cavalry_blocks = 4;
  q.cards_in_hand = 2;
  CHECK_FALSE(choose_form_square(r, ChoicePolicy::always, q));

  RetireQuestion rq;  // 4 infantry dice against 4 cavalry blocks
  CHECK(expected_loss_retiring(r, rq) == Approx(4.0 / 6.0));
  CHECK(choose_retire_and_reform(r, ChoicePolicy::by_expected_losses, rq));
  // Seed 004's example: "With only one die to be rolled by the square, the
  // cavalry unit chooses to stay and melee."
  rq.infantry_dice = 1;
  CHECK_FALSE(choose_retire_and_reform(r, ChoicePolicy::by_expected_losses, rq));
  CHECK(choose_retire_and_reform(r, ChoicePolicy::always, rq));
  rq.allowed = false;
  CHECK_FALSE(choose_retire_and_reform(r, ChoicePolicy::always, rq));
}

TEST_CASE("seed004: the engagement section (infantry range, command cards) loads, is optional and checked") {
  const auto& r = rules();
  CHECK(r.infantry_range == 2);
  CHECK(r.command_cards == 5);
  {
    // Without the section: the defaults.
    std::string text;
    {
      std::ifstream f(std::string(VEDETTE_SOURCE_DIR) + "/tables/seed004.yaml");
      std::stringstream ss;
      ss << f.rdbuf();
      text = ss.str();
    }
    const auto at = text.find("\nengagement:");
    REQUIRE(at != std::string::npos);
    const Doc d = parse_yaml(text.substr(0, at + 1), "no-engagement.yaml");
    Diagnostics diags;
    const auto t = read_seed004(d, diags);
    CHECK_NOTHROW(diags.throw_if_any());
    CHECK(t->infantry_range == 2);
    CHECK(t->command_cards == 5);
    // A bad value is located.
    const Doc bad = parse_yaml(text.substr(0, at + 1) + "engagement: {infantry_range: 30}\n", "bad-engagement.yaml");
    Diagnostics bd;
    (void)read_seed004(bad, bd);
    try {
      bd.throw_if_any();
      FAIL("accepted infantry_range 30");
    } catch (const LoadError& e) {
      REQUIRE_FALSE(e.diagnostics().empty());
      CHECK(e.diagnostics()[0].where.file == "bad-engagement.yaml");
      CHECK(e.diagnostics()[0].message.find("engagement.infantry_range") != std::string::npos);
    }
  }
}

// ---------------------------------------------------------------- issue 15

TEST_CASE("seed 004: cavalry against a square rolls at most 1 die, attacking and battling back", "[seed004][004-L46-cavalry-one-die][004-L74-battle-back-one-die]") {
  const auto& r = rules();
  BlockUnit cav = unit(Arm::cavalry, 0, 4, at(2, 2));
  BlockUnit sq = unit(Arm::infantry, 1, 4, at(2, 3));
  sq.in_square = true;
  BlockUnit line = sq;
  line.in_square = false;
  // "the cavalry unit may melee against the infantry square with a maximum of
  // 1 battle die. Combat cards and unit type will not increase the number".
  CHECK(melee_dice(r, cav, sq, 0) == 1);
  // "Terrain modifiers, however, may reduce a cavalry unit's battle dice."
  CHECK(melee_dice(r, cav, sq, 1) == 0);
  // Against infantry not in square: a die per block.
  CHECK(melee_dice(r, cav, line, 0) == 4);
  // Infantry melee a square "normally"; the square itself rolls 1.
  BlockUnit foot = unit(Arm::infantry, 0, 4, at(2, 2));
  CHECK(melee_dice(r, foot, sq, 0) == 4);
  CHECK(melee_dice(r, sq, cav, 0) == 1);
}

TEST_CASE("seed 004: golden: the square's 1 die against the cavalry -- it stays and melees, battling back with 1 die", "[seed004][004-L72-stays-against-one-die]") {
  // Seed 004's second turn: "With only one die to be rolled by the square,
  // the cavalry unit chooses to stay and melee." The square rolls 1 die; the
  // cavalry (4 blocks) battles back with 1. Faces: 2 infantry, cavalry,
  // artillery, sabre, flag. Staying: lost 1 x 2/6 = 1/3; no flag 5/6; blocks
  // left 11/3 but 1 die back, hitting infantry on 3/6: 5/6 x 1 x 1/2 = 5/12;
  // net 1/3 - 5/12 = -1/12. Retiring: 1 x 1/6. Stay.
  const auto& r = rules();
  RetireQuestion q;
  q.infantry_dice = 1;
  q.cavalry_blocks = 4;
  q.battle_back_max_dice = r.square_cavalry_max_dice;
  CHECK(expected_net_loss_staying(r, q) == Approx(-1.0 / 12));
  CHECK(expected_loss_retiring(r, q) == Approx(1.0 / 6));
  CHECK_FALSE(choose_retire_and_reform(r, ChoicePolicy::by_expected_losses, q));
  // With full dice back (the old mistake) the take-back would be 55/36.
  q.battle_back_max_dice = -1;
  CHECK(expected_net_loss_staying(r, q) == Approx(1.0 / 3 - 55.0 / 36));
}

TEST_CASE("seed 004: combined arms: no terrain may occupy the line of sight path, a switch for sight only", "[seed004][004-L99-no-units-or-terrain]") {
  Seed004Rules r = rules();
  REQUIRE(r.combined_arms_any_terrain_blocks);
  HexBoard b(7, 5, Length::cm(10));
  const auto marsh = b.add_terrain({.name = "marsh", .halts_movement = true});
  BlockUnit art = unit(Arm::artillery, 0, 3, at(1, 2));
  BlockUnit inf = unit(Arm::infantry, 0, 4, at(4, 1));
  BlockUnit t = unit(Arm::infantry, 1, 4, at(4, 2));
  std::vector<BlockUnit> all{art, inf, t};
  CHECK(combined_arms(r, b, art, inf, t, all) == CombinedArmsRefusal::none);
  // A marsh hex between: it does not block sight, but "No units or terrain
  // may occupy the line of sight path".
  b.set_terrain(at(2, 2), marsh);
  CHECK(b.line_of_sight_hex(art.hex, t.hex, {}));
  CHECK(combined_arms(r, b, art, inf, t, all) == CombinedArmsRefusal::no_line_of_sight);
  r.combined_arms_any_terrain_blocks = false;  // combined_arms.terrain_on_path: sight
  CHECK(combined_arms(r, b, art, inf, t, all) == CombinedArmsRefusal::none);
  // A unit on the path blocks either way.
  all.push_back(unit(Arm::infantry, 1, 2, at(3, 2)));
  CHECK(combined_arms(r, b, art, inf, t, all) == CombinedArmsRefusal::no_line_of_sight);
}

}  // namespace t_seed004
