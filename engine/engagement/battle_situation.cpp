// A unit's situation for the risk factors (seed 002's facts: cover, enemy
// in sight, in range, to flank or rear), and the table of worlds that keeps
// its battlefield part across engagements (engine/engagement/battle.hpp, the
// block on the situation kept by world). Split from battle.cpp.
#include "engine/engagement/battle.hpp"

#include <algorithm>
#include <bit>

namespace vedette {

// The unit's own facts, read from it; the battlefield's are situation_world's.
static Situation own_situation(const Unit& u) {
  Situation s;
  s.hero = u.hero;
  s.raw = u.raw;
  s.pace = u.on_horse() ? u.pace : Pace::halt;
  s.casualties_hundredths = casualty_hundredths(u.lost(), u.figures_start);
  s.ran_last_turn = u.ran_last_turn;
  s.retreated_from_melee = u.retreated_from_melee;
  return s;
}

Situation Battle::situation_fresh(std::size_t i) const {
  Situation s = own_situation(units_[i]);
  situation_world(i, s);
  return s;
}

std::size_t Battle::situation_entry() const {
  if (situation_at_ == changes_) return situation_entry_;
  // The key: what situation_world reads that changes in a battle (battle.hpp,
  // the block on the situation kept by world). Depths matter on a tabletop
  // only (on hexes every depth is the hex size: depth(), footprint()).
  const std::size_t n = units_.size(), stride = 3 * n;
  std::uint64_t* key = situation_key_.data();
  std::uint64_t h = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const Unit& v = units_[k];
    std::uint64_t* w = key + 3 * k;
    w[0] = std::bit_cast<std::uint64_t>(v.pos.x);
    w[1] = std::bit_cast<std::uint64_t>(v.pos.y);
    w[2] = (v.active() ? 1U : 0U) | (v.on_horse() ? 2U : 0U) | (hex_ ? 0U : static_cast<std::uint64_t>(depth_key(v)) << 2);
    h = (h ^ w[0]) * 0x9E3779B97F4A7C15ULL;
    h = (h ^ w[1]) * 0x9E3779B97F4A7C15ULL;
    h = (h ^ w[2]) * 0x9E3779B97F4A7C15ULL;
  }
  if (situation_worlds_.empty()) {
    situation_worlds_.assign(k_situation_entries * stride, 0);
    situation_held_.assign(k_situation_entries, 0);
    situation_answers_.assign(k_situation_entries * n, SituationKept{});
  }
  constexpr int bits = std::countr_zero(k_situation_entries);
  const auto e = static_cast<std::size_t>(h >> (64 - bits));  // the hash's top bits
  std::uint64_t* kept = situation_worlds_.data() + e * stride;
  if (situation_held_[e] == 0 || !std::equal(key, key + stride, kept)) {
    // Another world (or none): this one takes the entry, with no answers yet.
    std::copy(key, key + stride, kept);
    situation_held_[e] = 1;
    std::fill_n(situation_answers_.begin() + static_cast<std::ptrdiff_t>(e * n), n, SituationKept{});
  }
  situation_at_ = changes_;
  situation_entry_ = e;
  return e;
}

int Battle::rf_total(const Facts& f) const {
  if (!rf_table_made_) {
    rf_table_ = RfTable(*rules_);
    rf_table_made_ = true;
  }
  return rf_table_.usable() ? rf_table_.total(f) : vedette::rf_total(*rules_, f);
}

Situation Battle::situation(std::size_t i) const {
  Situation s = own_situation(units_[i]);
  if (!situation_kept_) {
    situation_world(i, s);
    return s;
  }
  SituationKept& a = situation_answers_[situation_entry() * units_.size() + i];
  const std::uint64_t facing = std::bit_cast<std::uint64_t>(units_[i].facing);
  if ((a.val & 0x80) != 0 && a.facing == facing) {
    s.in_cover = (a.val & 1) != 0;
    s.enemy_in_sight = (a.val & 2) != 0;
    s.enemy_in_range = (a.val & 4) != 0;
    s.in_enemy_range = (a.val & 8) != 0;
    s.enemy_flank_rear = (a.val & 16) != 0;
    return s;
  }
  situation_world(i, s);
  a.facing = facing;
  a.val = static_cast<std::uint8_t>(0x80 | (s.in_cover ? 1 : 0) | (s.enemy_in_sight ? 2 : 0) | (s.enemy_in_range ? 4 : 0) |
                                    (s.in_enemy_range.value_or(false) ? 8 : 0) | (s.enemy_flank_rear ? 16 : 0));
  return s;
}

void Battle::situation_world(std::size_t i, Situation& s) const {
  const Unit& u = units_[i];
  if (hex_direct_) {
    // HexBoard::cover_of: the cover of the centre's hex, whoever looks
    // (entirely_in_cover: above 0), on the kept hex.
    s.in_cover = hex_->terrain(unit_hex(i)).cover > 0;
  } else {
    const UnitIndex viewer = nearest_enemy(i, true);
    s.in_cover = board_->entirely_in_cover(footprint(i), viewer == k_no_unit ? std::nullopt : std::optional<Point>(units_[viewer].pos));
  }
  const WeaponsRange wr = rules_->switches.weapons_range;
  s.in_enemy_range = false;
  const Length mine = reach(i);
  if (units_block_sight_ && world_synced_ != changes_) sync_world();  // once for the loop (nothing moves in it)
  // Each visible enemy can only set flags; once all are set the rest of the
  // loop would change nothing, and a flag already set needs no question
  // (gap, reaches, aspect are pure: asking them less changes no answer).
  // `visit` takes one active enemy j; false once every flag is set.
  auto visit = [&](std::size_t j, Length g_of_j) {
    s.enemy_in_sight = true;
    if (!s.in_enemy_range || !s.enemy_in_range) {
      const Length g = g_of_j;
      const Length theirs = reach(j);
      const bool theirs_reach = g <= theirs && theirs.as_cm() > 0;
      const bool mine_reach = g <= mine && mine.as_cm() > 0;
      if (theirs_reach) s.in_enemy_range = true;
      if ((wr == WeaponsRange::enemy && theirs_reach) || (wr == WeaponsRange::unit && mine_reach) ||
          (wr == WeaponsRange::either && (theirs_reach || mine_reach)))
        s.enemy_in_range = true;
    }
    if (!s.enemy_flank_rear && aspect_at(i, j) != Aspect::front)
      s.enemy_flank_rear = true;
    return !(s.in_enemy_range && s.enemy_in_range && s.enemy_flank_rear);
  };
  if (hex_direct_ && sides01_ && units_block_sight_) {
    // The scenario's hex board: the epoch's active units of the other side
    // (sync_world above: the same units in the same order as the loop
    // below), their gaps by the hex distance on the epoch's hexes (gap()'s
    // own table; the unit's world hex is its unit_hex while nothing moved).
    const Hex hi = world_hex_[i];
    for (const EpochUnit& e : epoch_units_[1 - u.side]) {
      if (!sees_in_epoch(i, e.index)) continue;
      const auto n = static_cast<std::size_t>(hex_distance(hi, e.hex));
      if (!visit(e.index, n < gap_by_hexes_.size() ? gap_by_hexes_[n] : gap(i, e.index))) break;
    }
    return;
  }
  for (std::size_t j = 0; j < units_.size(); ++j) {
    if (!units_[j].active() || !enemies(i, j) || !(units_block_sight_ ? sees_in_epoch(i, j) : sees(i, j))) continue;
    if (!visit(j, (!s.in_enemy_range || !s.enemy_in_range) ? gap(i, j) : Length())) break;
  }
}

}  // namespace vedette
