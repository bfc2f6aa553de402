#include "engine/engagement/battle.hpp"
#include "engine/engagement/engagement_text.hpp"
#include "engine/procedures/reaction_rules.hpp"
#include "engine/procedures/table_rules.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace vedette {

Battle::Battle(const Scenario& s) : scenario_(&s), rules_(s.rules.get()), board_(s.board ? s.board.get() : static_cast<const Board*>(s.table.get())), hex_(s.hex.get()) {
  if (hex_) hex_size_ = hex_->hex_size();  // before any depth() or footprint() (gap_by_hexes_ below)
  units_.reserve(s.units.size());
  for (const UnitSpec& spec : s.units) {
    Unit u;
    u.name = spec.name;
    u.side = spec.side;
    u.profile = &rules_->profiles[spec.profile];
    if (u.profile->kind == UnitKind::cavalry) u.type = &rules_->unit_types[u.profile->unit_type];
    u.hero = spec.hero;
    u.raw = spec.raw;
    u.figures_start = spec.figures;
    u.figures = spec.figures;
    u.pos = spec.position;
    u.facing = spec.facing;
    u.formation = spec.formation;
    u.mounted = u.profile->kind == UnitKind::cavalry && spec.mounted;
    u.pace = u.mounted ? spec.pace : Pace::halt;
    units_.push_back(std::move(u));
  }
  initial_ = units_;
  reach_by_mount_.reserve(units_.size());
  for (std::size_t i = 0; i < units_.size(); ++i) reach_by_mount_.push_back({reach_of(i, false), reach_of(i, true)});
  memo_.resize(units_.size() * units_.size());
  sight_units_.reserve(units_.size());
  units_block_sight_ = board_->units_block_sight();
  world_key_.assign(units_.size() * 3, 2);  // 2: never a unit's on-table flag, so the first query fills it
  world_hex_.assign(units_.size(), Hex{});
  world_place_.assign(units_.size(), HexBoard::k_off_board);
  hex_memo_.assign(units_.size(), HexMemo{});
  nearest_.assign(units_.size(), NearestMemo{});
  sides01_ = std::all_of(units_.begin(), units_.end(), [](const Unit& u) { return u.side <= 1; });
  for (auto& l : epoch_units_) l.reserve(units_.size());
  if (hex_) {
    occupancy_.assign(static_cast<std::size_t>(hex_->cols()) * static_cast<std::size_t>(hex_->rows()), 0);
    occupancy_marks_.reserve(units_.size());
    occupancy_off_.reserve(units_.size());
  }
  hex_direct_ = hex_ && board_ == static_cast<const Board*>(hex_);
  if (hex_direct_ && occupancy_.size() <= k_sight_table_hexes) pair_hexes_ = occupancy_.size();
  if (hex_direct_ && occupancy_.size() <= 128) {
    neighbour_bits_.assign(occupancy_.size(), {});
    for (int r = 0; r < hex_->rows(); ++r)
      for (int c = 0; c < hex_->cols(); ++c) {
        const Hex h = HexBoard::from_offset(c, r);
        auto& bits = neighbour_bits_[hex_->hex_index(h)];
        for (const Hex n : hex_->neighbours(h)) {
          const std::size_t p = hex_->hex_index(n);
          bits[p >> 6] |= std::uint64_t{1} << (p & 63);
        }
      }
  }
  if (hex_direct_) {
    // gap_miss's expressions, for each hex distance on the board.
    const int widest = hex_->cols() + hex_->rows();
    gap_by_hexes_.reserve(static_cast<std::size_t>(widest) + 1);
    for (int n = 0; n <= widest; ++n) {
      const double d = hex_->hex_size().as_cm() * n;
      const double g = d - depth(0).as_cm() / 2.0 - depth(0).as_cm() / 2.0;
      gap_by_hexes_.push_back(Length::cm(std::max(0.0, g)));
    }
  }
  if (hex_) go_ways_.assign(k_go_ways, GoWay{});
  if (s.blocks && s.hex) blocks_ = s.blocks.get();
  fired_.assign(units_.size(), 0);
  situation_kept_ = units_.size() <= k_situation_units;  // situation(): the table of worlds
  if (situation_kept_) situation_key_.assign(3 * units_.size(), 0);
  occupied_.reserve(units_.size());
  block_units_.reserve(units_.size());
  if (blocks_ && hex_ && units_.size() <= 64) {
    // combined_arms_dice's kept answers (ArmsMemo in battle.hpp).
    arms_memo_.assign(units_.size() * units_.size(), ArmsMemo{});
    arms_scratch_.reserve(units_.size());
    for (std::size_t k = 0; k < units_.size(); ++k)
      if (arm_of(k) == Arm::artillery) artillery_bits_ |= std::uint64_t{1} << k;
  }
}

// Copy-assigning units of the same names reuses the strings' memory.
void Battle::reset() {
  units_ = initial_;
  changed();
  turn_ = 0;
  std::fill(fired_.begin(), fired_.end(), std::uint8_t{0});
}

// footprint's rectangle size for unit i, computed and kept with its depth_key
// (what it reads of the unit besides the ruleset, which does not change).
const Battle::UnitSize& Battle::unit_size_miss(std::size_t i, std::uint32_t key) const {
  if (sizes_.size() != units_.size()) sizes_.assign(units_.size(), UnitSize{});
  const Unit& u = units_[i];
  UnitSize& z = sizes_[i];
  z.key = key;
  z.valid = true;
  const auto& f = rules_->combat.formations;
  const Base& base = u.on_horse() ? f.cavalry_base : f.infantry_base;
  const int n = std::max(u.figures, 1);
  int files = 1, ranks = 1;
  switch (u.formation) {
    case Formation::line:
      ranks = std::min(f.line_ranks, n);
      files = (n + ranks - 1) / ranks;
      break;
    case Formation::column:
      files = std::min(f.column_files, n);
      ranks = (n + files - 1) / files;
      break;
    case Formation::square: {
      // Figures on four faces, two deep at most: a hollow square.
      const int side = std::max(1, (n + 3) / 4);
      z.frontage = base.frontage * static_cast<double>(side);
      z.depth = base.frontage * static_cast<double>(side);
      return z;
    }
  }
  z.frontage = base.frontage * static_cast<double>(files);
  z.depth = base.depth * static_cast<double>(ranks);
  return z;
}

namespace {

void set_bits(std::uint64_t (&k)[4], Point a, Point b) {
  k[0] = std::bit_cast<std::uint64_t>(a.x);
  k[1] = std::bit_cast<std::uint64_t>(a.y);
  k[2] = std::bit_cast<std::uint64_t>(b.x);
  k[3] = std::bit_cast<std::uint64_t>(b.y);
}

}  // namespace

Length Battle::gap_miss(std::size_t a, std::size_t b) const {
  const Unit& ua = units_[a];
  const Unit& ub = units_[b];
  PairMemo& m = memo_[a * units_.size() + b];
  const std::uint32_t key_a = depth_key(ua), key_b = depth_key(ub);
  const std::uint64_t keys = static_cast<std::uint64_t>(key_a) << 32 | key_b;
  // A hex board: HexBoard::distance's own expression, on the kept hexes.
  // The scenario's tabletop: Tabletop::distance's own expression
  // (engine/board/tabletop.cpp), without the virtual call.
  // The positions as kept (only a depth changed): the distance kept with them.
  const double d = m.gap_valid && same_bits(m.gap_pos, ua.pos, ub.pos)                 ? m.dist
                   : hex_ && board_ == static_cast<const Board*>(hex_)                  ? hex_->hex_size().as_cm() * hex_distance(unit_hex(a), unit_hex(b))
                   : board_ == static_cast<const Board*>(scenario_->table.get())        ? euclid_cm(ua.pos, ub.pos)
                                                                                        : board_->distance(ua.pos, ub.pos).as_cm();
  // depth(a) and depth(b), their keys read once.
  const double depth_a = hex_ ? hex_->hex_size().as_cm() : unit_size(a, key_a).depth.as_cm();
  const double depth_b = hex_ ? hex_->hex_size().as_cm() : unit_size(b, key_b).depth.as_cm();
  const double g = d - depth_a / 2.0 - depth_b / 2.0;
  m.gap = Length::cm(std::max(0.0, g));
  m.dist = d;
  m.depth_keys = keys;
  set_bits(m.gap_pos, ua.pos, ub.pos);
  m.gap_valid = true;
  return m.gap;
}

// charge_prospect's board questions (engine/engagement/engagement_charge.cpp),
// asked here in its order and kept for the pair.
const ChargeWay& Battle::charge_way_miss(std::size_t a, std::size_t b, Length distance) const {
  const Point from = units_[a].pos, to = units_[b].pos;
  PairMemo& m = memo_[a * units_.size() + b];
  const double dist = distance.as_cm();
  // Hex boards: the answer for these two places and this distance, from an
  // earlier pair or engagement (a function of them and the board alone).
  HexPair* kept = hex_pair(a, b);
  if (kept && kept->way_valid && kept->distance == std::bit_cast<std::uint64_t>(dist)) {
    m.way = kept->way;
    set_bits(m.way_pos, from, to);
    m.way_distance = kept->distance;
    m.way_valid = true;
    return m.way;
  }
  ChargeWay& w = m.way;
  const Board& board = *board_;
  w.bearing_deg = bearing_deg(from, to);
  w.dir = engagement_detail::unit_vector(from, to);
  w.contact = from + w.dir * dist;
  if (hex_ && board_ == static_cast<const Board*>(hex_)) {
    // The hex board's own answers, on the kept hexes of the two units and
    // the contact point's hex computed once (HexBoard's Point forms take
    // hex_of of each point; distance: its own expression).
    const Hex ha = unit_hex(a), hb = unit_hex(b), hc = hex_->hex_of(w.contact);
    w.uphill = hex_->moves_uphill(ha, hc);
    const double into = hex_->hex_size().as_cm() * hex_distance(hc, hb);
    w.target_in_terrain = into > 0 && hex_->movement_cost(hc, hb).as_cm() > into * (1.0 + 1e-9);
    w.cost = hex_->movement_cost(ha, hc);
  } else {
    w.uphill = board.moves_uphill(from, w.contact);
    const double into = board.distance(w.contact, to).as_cm();
    w.target_in_terrain = into > 0 && board.movement_cost(w.contact, to).as_cm() > into * (1.0 + 1e-9);
    w.cost = board.movement_cost(from, w.contact);
  }
  w.emerges_back_cm.reset();
  // On the scenario's tabletop, a way whose points are all far from every
  // costly area (Tabletop::special_terrain_may_meet: the walk's points lie
  // on contact -> contact - dir * dist) finds none: the walk is skipped (a
  // way that costs more only for an obstacle, or beside the pond).
  const Tabletop* table = board_ == static_cast<const Board*>(scenario_->table.get()) ? scenario_->table.get() : nullptr;
  if (dist > 0 && w.cost.as_cm() > dist * (1.0 + 1e-9) && (!table || table->special_terrain_may_meet(w.contact, w.contact - w.dir * dist))) {
    // Where does the path leave special terrain? Walk back from contact in
    // half-centimetre steps (only paths that cost more than their length).
    constexpr double step = 0.5;
    for (double back = 0; back < dist; back += step) {
      if (board.special_terrain_at(w.contact - w.dir * back)) {
        w.emerges_back_cm = back;
        break;
      }
    }
  }
  w.obstacle = board.first_obstacle_crossing(from, w.contact);
  set_bits(m.way_pos, from, to);
  m.way_distance = std::bit_cast<std::uint64_t>(dist);
  m.way_valid = true;
  if (kept) {
    kept->way = w;
    kept->distance = m.way_distance;
    kept->way_valid = true;
  }
  return w;
}

Battle::HexPair* Battle::hex_pair(std::size_t a, std::size_t b) const {
  const std::size_t hexes = pair_hexes_;  // 0 unless the scenario's hex board, at most k_sight_table_hexes
  if (hexes == 0) return nullptr;
  // unit_place of each, the kept hex read directly when the bits match.
  const Point from = units_[a].pos, to = units_[b].pos;
  const HexMemo& ma = hex_memo_[a];
  const HexMemo& mb = hex_memo_[b];
  const std::size_t ia = ma.valid && ma.x == std::bit_cast<std::uint64_t>(from.x) && ma.y == std::bit_cast<std::uint64_t>(from.y) ? ma.place : unit_place(a);
  const std::size_t ib = mb.valid && mb.x == std::bit_cast<std::uint64_t>(to.x) && mb.y == std::bit_cast<std::uint64_t>(to.y) ? mb.place : unit_place(b);
  if (ia == HexBoard::k_off_board || ib == HexBoard::k_off_board) return nullptr;
  if (hex_pairs_.empty()) hex_pairs_.resize(hexes * hexes);
  HexPair* kept = &hex_pairs_[ia * hexes + ib];
  if (!same_bits(kept->pos, from, to)) {
    set_bits(kept->pos, from, to);  // another pair of places in these hexes: start the entry again
    kept->way_valid = false;
    kept->bearing_valid = false;
  }
  return kept;
}

double Battle::pair_bearing_miss(std::size_t a, std::size_t b) const {
  const Point from = units_[a].pos, to = units_[b].pos;
  PairMemo& m = memo_[a * units_.size() + b];
  if (pair_hexes_ != 0) {
    // Both on their hexes' centres (the usual case: moves and retreats end
    // on centres): the places' bearing, computed from these very bits once.
    unit_hex(a);
    unit_hex(b);
    const HexMemo& ma = hex_memo_[a];
    const HexMemo& mb = hex_memo_[b];
    if (ma.centre && mb.centre) {
      if (centre_bearings_.empty()) centre_bearings_.resize(pair_hexes_ * pair_hexes_);
      CentreBearing& c = centre_bearings_[ma.place * pair_hexes_ + mb.place];
      if (!c.valid) {
        c.bearing = bearing_deg(from, to);
        c.valid = true;
      }
      m.bearing = c.bearing;
      set_bits(m.bearing_pos, from, to);
      m.bearing_valid = true;
      return m.bearing;
    }
  }
  HexPair* kept = hex_pair(a, b);
  if (!kept) {
    m.bearing = bearing_deg(from, to);
  } else {
    if (!kept->bearing_valid) {
      kept->bearing = bearing_deg(from, to);
      kept->bearing_valid = true;
    }
    m.bearing = kept->bearing;
  }
  set_bits(m.bearing_pos, from, to);
  m.bearing_valid = true;
  return m.bearing;
}

const Battle::GoWay& Battle::go_way(Point from, Point dest, Length allowance) const {
  const std::uint64_t k[4] = {std::bit_cast<std::uint64_t>(from.x), std::bit_cast<std::uint64_t>(from.y),
                              std::bit_cast<std::uint64_t>(dest.x), std::bit_cast<std::uint64_t>(dest.y)};
  const std::uint64_t al = std::bit_cast<std::uint64_t>(allowance.as_cm());
  std::uint64_t h = k[0] * 0x9E3779B97F4A7C15ULL;
  h = (h ^ (h >> 29) ^ k[1]) * 0xBF58476D1CE4E5B9ULL;
  h = (h ^ (h >> 31) ^ k[2]) * 0x94D049BB133111EBULL;
  h = (h ^ (h >> 29) ^ k[3]) * 0x9E3779B97F4A7C15ULL;
  h = (h ^ (h >> 31) ^ al) * 0xBF58476D1CE4E5B9ULL;
  GoWay& w = go_ways_[(h >> 40) & (k_go_ways - 1)];
  if (w.valid && w.allowance == al && same_bits(w.pos, from, dest)) return w;
  // hex_go's own steps before it looks at the other units.
  const HexBoard& hb = *hex_;
  const double s = hb.hex_size().as_cm();
  w.n = hb.hexes_in(allowance);
  const Point d = dest - from;
  const double dl = norm(d);
  w.moves = !(w.n <= 0 || dl == 0);
  if (w.moves) {
    const int n = w.n;
    if (dl > (n + 1) * s) dest = from + d * ((n + 1) * s / dl);  // a far point: only as far as the move goes
    w.bearing = bearing_deg(from, dest);
    const Hex start = hb.hex_of(from);
    if (hb.on_board(start)) {
      // HexBoard::move_toward's walk on the start's hex (on the board, so
      // clamp_onto keeps it), giving its hex (the hex of the centre it
      // returns, or `start` when it stays).
      const Hex target = hb.hex_of(dest);
      w.goal = hb.walk_toward(start, target, n, hex_line(start, target));
    } else {
      w.goal = hb.hex_of(hb.move_toward(from, dest, allowance));
    }
  }
  set_bits(w.pos, from, Point{std::bit_cast<double>(k[2]), std::bit_cast<double>(k[3])});
  w.allowance = al;
  w.valid = true;
  return w;
}

// aspect_continuous (engine/board/geometry.hpp), its bearing kept: the
// scenario's hex board and tabletop both use Board's continuous aspect
// (neither overrides it), whose relative bearing is
// wrap_deg(bearing_deg(target, attacker) - facing); pair_bearing is
// bearing_deg of the very same positions' bits.
Aspect Battle::aspect_at(std::size_t target, std::size_t attacker) const {
  const Unit& t = units_[target];
  const Point a = units_[attacker].pos;
  if (!hex_direct_ && !table_direct()) return board_->aspect(t.pos, t.facing, a, k_front_half_deg, k_rear_half_deg);
  if (t.pos == a) return Aspect::front;
  double bearing = 0;
  if (hex_direct_) {
    bearing = pair_bearing(target, attacker);
  } else {
    // The tabletop: the pair memo's bearing (pair_bearing_miss's own answer
    // off hex boards, bearing_deg of the two positions), read and kept here
    // without its hex-board lookups.
    PairMemo& m = memo_[target * units_.size() + attacker];
    if (!m.bearing_valid || !same_bits(m.bearing_pos, t.pos, a)) {
      m.bearing = bearing_deg(t.pos, a);
      set_bits(m.bearing_pos, t.pos, a);
      m.bearing_valid = true;
    }
    bearing = m.bearing;
  }
  const double rel = std::abs(wrap_deg(bearing - t.facing));
  if (rel <= k_front_half_deg + kAngleTolDeg) return Aspect::front;
  if (rel >= 180.0 - k_rear_half_deg - kAngleTolDeg) return Aspect::rear;
  return Aspect::flank;
}

bool Battle::sees_miss(std::size_t a, std::size_t b) const {
  const Point pa = units_[a].pos, pb = units_[b].pos;
  PairMemo& m = memo_[a * units_.size() + b];
  m.sees = board_->line_of_sight(pa, pb);
  set_bits(m.sees_pos, pa, pb);
  m.sees_valid = true;
  return m.sees;
}

void Battle::sync_world() const {
  world_synced_ = changes_;
  // Has any unit moved, left or come back since the epoch began? Only the
  // units whose keys changed are looked up again (their hexes); on a hex
  // board the epoch's bits are made in the same pass (an OR over every
  // active unit's place: cheap, and two units may share a place, so a bit
  // is not cleared one unit at a time).
  bool moved = false, on_changed = false;
  const bool hex = hex_ != nullptr;
  std::uint64_t occ[2]{};
  for (std::size_t k = 0; k < units_.size(); ++k) {
    const Unit& u = units_[k];
    const std::uint64_t x = std::bit_cast<std::uint64_t>(u.pos.x), y = std::bit_cast<std::uint64_t>(u.pos.y);
    const std::uint64_t on = u.active() ? 1 : 0;
    std::uint64_t* key = &world_key_[3 * k];
    if (key[0] != x || key[1] != y || key[2] != on) {
      moved = true;
      on_changed = on_changed || key[2] != on;
      key[0] = x;
      key[1] = y;
      key[2] = on;
      if (hex) {
        world_hex_[k] = unit_hex(k);
        world_place_[k] = hex_memo_[k].place;  // hex_index(world_hex_[k]), kept with it
      }
    }
    if (!hex || on == 0) continue;
    const std::size_t i = world_place_[k];
    if (i < 128) occ[i >> 6] |= std::uint64_t{1} << (i & 63);
  }
  // Nothing moved, left or came back: the epoch's lists and bits are those
  // of the same keys (epochs start at 1, so the first call makes them).
  if (!moved && world_epoch_ != 0) return;
  ++world_epoch_;
  if (!hex) return;
  occ_bits_[0] = occ[0];
  occ_bits_[1] = occ[1];
  // The epoch's active units of each side in index order: when no unit
  // left or came back since the lists were made, the same units in the same
  // order (only hexes changed: world_hex_ holds every unit's, kept above);
  // else made again from the on-table flags just kept.
  if (!on_changed) {
    for (auto& list : epoch_units_)
      for (EpochUnit& e : list) e.hex = world_hex_[e.index];
    return;
  }
  epoch_units_[0].clear();
  epoch_units_[1].clear();
  for (std::size_t k = 0; k < units_.size(); ++k) {
    const std::uint8_t side = units_[k].side;
    if (world_key_[3 * k + 2] != 0 && side <= 1) epoch_units_[side].push_back(EpochUnit{k, world_hex_[k]});
  }
}

bool Battle::world_matches_fresh() const {
  if (world_synced_ != changes_) sync_world();
  std::vector<EpochUnit> fresh[2];
  std::uint64_t occ[2]{};
  for (std::size_t k = 0; k < units_.size(); ++k) {
    const Unit& u = units_[k];
    const std::uint64_t on = u.active() ? 1 : 0;
    if (world_key_[3 * k] != std::bit_cast<std::uint64_t>(u.pos.x) || world_key_[3 * k + 1] != std::bit_cast<std::uint64_t>(u.pos.y) ||
        world_key_[3 * k + 2] != on)
      return false;
    if (!hex_) continue;
    const Hex h = hex_->hex_of(u.pos);
    if (!(world_hex_[k] == h) || world_place_[k] != hex_->hex_index(h)) return false;
    if (on == 0) continue;
    if (u.side <= 1) fresh[u.side].push_back(EpochUnit{k, h});
    const std::size_t i = hex_->hex_index(h);
    if (i < 128) occ[i >> 6] |= std::uint64_t{1} << (i & 63);
  }
  if (!hex_) return true;
  if (occ[0] != occ_bits_[0] || occ[1] != occ_bits_[1]) return false;
  for (int s = 0; s < 2; ++s) {
    if (fresh[s].size() != epoch_units_[s].size()) return false;
    for (std::size_t n = 0; n < fresh[s].size(); ++n)
      if (fresh[s][n].index != epoch_units_[s][n].index || !(fresh[s][n].hex == epoch_units_[s][n].hex)) return false;
  }
  return true;
}

void Battle::place_on_hex(std::size_t i, Hex h) {
  const Point p = hex_->centre(h);
  units_[i].pos = p;
  HexMemo& m = hex_memo_[i];
  m.hex = h;
  m.place = hex_->hex_index(h);
  m.centre = m.place != HexBoard::k_off_board;
  m.x = std::bit_cast<std::uint64_t>(p.x);
  m.y = std::bit_cast<std::uint64_t>(p.y);
  m.valid = true;
}

Hex Battle::unit_hex_miss(std::size_t i) const {
  const Point p = units_[i].pos;
  HexMemo& m = hex_memo_[i];
  m.hex = hex_->hex_of(p);
  m.place = hex_->hex_index(m.hex);
  if (m.place != HexBoard::k_off_board) {
    const Point c = hex_->centre(m.hex);
    m.centre = std::bit_cast<std::uint64_t>(c.x) == std::bit_cast<std::uint64_t>(p.x) && std::bit_cast<std::uint64_t>(c.y) == std::bit_cast<std::uint64_t>(p.y);
  } else {
    m.centre = false;
  }
  m.x = std::bit_cast<std::uint64_t>(p.x);
  m.y = std::bit_cast<std::uint64_t>(p.y);
  m.valid = true;
  return m.hex;
}

// nearest_enemy_miss on hexes takes at most this many enemies by distance
// (its key keeps the list position in 8 bits: at most 256).
constexpr std::size_t k_nearest_sorted = 32;

UnitIndex Battle::nearest_enemy_miss(std::size_t i, bool visible_only) const {
  UnitIndex best = k_no_unit;
  Length best_gap;
  if (hex_direct_) {
    // gap_miss's hex expression on the epoch's hexes (the same bits as gap()).
    if (world_synced_ != changes_) sync_world();
    NearestMemo& m = nearest_[i];
    if (m.epoch[visible_only] == world_epoch_) {  // the same world: the same answer
      m.at[visible_only] = changes_;
      return m.unit[visible_only];
    }
    // The gap of n hexes, max(0, s * n - s / 2 - s / 2) for the hex size s,
    // is 0 for n <= 1 and grows strictly with n (on a board's few dozen hexes
    // s * n and s * (n + 1) are some s apart, far above their rounding):
    // comparing max(n, 1) is comparing the gaps, without the arithmetic.
    int best_n = 0;
    const Hex hi = world_hex_[i];
    auto consider = [&](std::size_t j, Hex hj) {
      const int dq = hj.q - hi.q, dr = hj.r - hi.r;
      const int n = std::max(1, (std::abs(dq) + std::abs(dr) + std::abs(dq + dr)) / 2);  // hex_distance
      if (best != k_no_unit && !(n < best_n)) return;
      if (visible_only && !sees_in_epoch(i, j)) return;
      best = static_cast<UnitIndex>(j);
      best_n = n;
    };
    const std::vector<EpochUnit>* list = sides01_ ? &epoch_units_[1 - units_[i].side] : nullptr;
    if (list && visible_only && list->size() <= k_nearest_sorted) {
      // The search below keeps the first unit in index order among those
      // in sight at the least max(n, 1): the same unit is the first in
      // sight when the units are taken by (max(n, 1), index), which asks
      // sight only until that unit (sight is a pure answer of the epoch,
      // sees_in_epoch, so asking it of fewer units changes nothing). Most
      // searches start in a new epoch, where each question of sight is a
      // miss (issue 32, fifteenth pass). The list is in index order, so its
      // position stands for the index in the key.
      std::uint32_t keys[k_nearest_sorted];
      std::size_t count = 0;
      for (std::size_t p = 0; p < list->size(); ++p) {
        const Hex hj = (*list)[p].hex;
        const int dq = hj.q - hi.q, dr = hj.r - hi.r;
        const int n = std::max(1, (std::abs(dq) + std::abs(dr) + std::abs(dq + dr)) / 2);  // hex_distance
        // Kept in order as it goes (an insertion: a handful of enemies).
        const std::uint32_t key = static_cast<std::uint32_t>(n) << 8 | static_cast<std::uint32_t>(p);
        std::size_t at = count++;
        for (; at > 0 && keys[at - 1] > key; --at) keys[at] = keys[at - 1];
        keys[at] = key;
      }
      for (std::size_t k = 0; k < count; ++k) {
        const std::size_t j = (*list)[keys[k] & 0xFF].index;
        if (!sees_in_epoch(i, j)) continue;
        best = static_cast<UnitIndex>(j);
        break;
      }
    } else if (list) {
      // The same search over the epoch's active units of the other side (in
      // index order; sync_world has just read every unit's being on the
      // table into the epoch).
      for (const EpochUnit& e : *list) consider(e.index, e.hex);
    } else {
      for (std::size_t j = 0; j < units_.size(); ++j)
        if (units_[j].active() && enemies(i, j)) consider(j, world_hex_[j]);
    }
    m.at[visible_only] = changes_;
    m.epoch[visible_only] = world_epoch_;
    m.unit[visible_only] = best;
    return best;
  }
  // Where units block sight, the world is checked once for the whole search.
  const bool epoch = visible_only && units_block_sight_;
  if (epoch && world_synced_ != changes_) sync_world();
  // gap()'s and sees()'s memo checks with unit i's side, position and depth
  // key read once for the whole search (the loop asks them of every enemy).
  const std::size_t n = units_.size();
  const Unit& ui = units_[i];
  const Point pi = ui.pos;
  const std::uint64_t key_i = static_cast<std::uint64_t>(depth_key(ui)) << 32;
  const bool table = table_direct();
  double half_i = -1;  // depth(i) / 2.0, read at the search's first miss (a depth is never negative)
  PairMemo* row = &memo_[i * n];
  for (std::size_t j = 0; j < n; ++j) {
    const Unit& uj = units_[j];
    if (!uj.active() || uj.side == ui.side) continue;  // enemies(i, j)
    PairMemo& m = row[j];
    const std::uint32_t key_j = depth_key(uj);
    Length g;
    if (m.gap_valid && m.depth_keys == (key_i | key_j) && same_bits(m.gap_pos, pi, uj.pos)) {
      g = m.gap;
    } else if (table) {
      // A proved lower bound first, when a nearer enemy is already found: on
      // the scenario's tabletop gap_miss's distance is std::hypot(dx, dy)
      // (euclid_cm), whose true value is at least m = max(|dx|, |dy|), a
      // double. The bound is m * (1 - 1e-12), below m by far more than
      // hypot's error (glibc's is within an ulp, some 1e-16 of the value),
      // so it is at most the hypot returned, whatever its last bit. Its gap
      // expression, d - depth(i) / 2.0 - depth(j) / 2.0 then max(0, .), is
      // the same steps in the same order on this bound, and rounding keeps
      // order, so the bound's gap is at most the gap: at or past the best
      // found, the gap is too, and the unit cannot be the answer (skipped
      // as the `!(g < best_gap)` test below would; its gap is not kept).
      if (half_i < 0) half_i = unit_size(i).depth.as_cm() / 2.0;
      const double half_j = unit_size(j, key_j).depth.as_cm() / 2.0;
      double d;
      if (m.gap_valid && same_bits(m.gap_pos, pi, uj.pos)) {
        // Only a depth changed: the distance kept for these positions (the
        // exact gap, then compared below as the bound's would be; a unit the
        // bound skips has a gap at or past the best, skipped there too).
        d = m.dist;
      } else {
        if (best != k_no_unit) {
          const Point dxy = uj.pos - pi;
          const double lb = std::max(std::abs(dxy.x), std::abs(dxy.y)) * (1 - 1e-12);
          if (!(std::max(0.0, lb - half_i - half_j) < best_gap.as_cm())) continue;
        }
        d = euclid_cm(pi, uj.pos);
      }
      // gap_miss's tabletop expression, kept as it keeps it.
      const double gg = d - half_i - half_j;
      g = Length::cm(std::max(0.0, gg));
      m.gap = g;
      m.dist = d;
      m.depth_keys = key_i | key_j;
      set_bits(m.gap_pos, pi, uj.pos);
      m.gap_valid = true;
    } else {
      g = gap_miss(i, j);
    }
    if (best != k_no_unit && !(g < best_gap)) continue;
    if (visible_only && !(epoch ? sees_in_epoch(i, j) : (m.sees_valid && same_bits(m.sees_pos, pi, uj.pos) ? m.sees : sees_miss(i, j)))) continue;
    best = static_cast<UnitIndex>(j);
    best_gap = g;
  }
  // The answer is a function of the units' places, sides, being on the
  // table and depths (figures, formation, mount): it holds until changed().
  NearestMemo& m = nearest_[i];
  m.at[visible_only] = changes_;
  m.unit[visible_only] = best;
  return best;
}

Aspect Battle::aspect_of(std::size_t target, std::size_t attacker) const {
  const Unit& t = units_[target];
  if (t.in_square()) return Aspect::front;
  return aspect_at(target, attacker);
}

DefenderClass Battle::defender_class(std::size_t i) const {
  const Unit& u = units_[i];
  if (u.on_horse()) return static_cast<DefenderClass>(static_cast<std::size_t>(DefenderClass::light_horse) + static_cast<std::size_t>(u.profile->weight));
  switch (u.profile->foot) {
    case FootClass::peasants: return DefenderClass::peasants;
    case FootClass::light_foot: return DefenderClass::light_foot;
    case FootClass::heavy_foot: return DefenderClass::heavy_foot;
    case FootClass::elite_foot: return DefenderClass::elite_foot;
  }
  return DefenderClass::heavy_foot;
}

AttackerWeight Battle::attacker_weight(std::size_t i) const {
  switch (units_[i].profile->weight) {
    case Weight::light: return AttackerWeight::light;
    case Weight::medium: return AttackerWeight::medium;
    case Weight::heavy: return AttackerWeight::heavy;
  }
  return AttackerWeight::medium;
}

ChargedOn Battle::charged_on(std::size_t target, std::size_t attacker) const {
  switch (aspect_of(target, attacker)) {
    case Aspect::front: return ChargedOn::front;
    case Aspect::flank: return ChargedOn::flank;
    case Aspect::rear: return ChargedOn::rear;
  }
  return ChargedOn::front;
}

Length Battle::allowance(std::size_t i, Pace p) const {
  const Unit& u = units_[i];
  if (p == Pace::halt || u.in_square()) return Length();
  if (u.on_horse()) return rules_->pace_range(p).max;
  return u.profile->move;
}

PaceFacts Battle::pace_facts(std::size_t i) const {
  const Unit& u = units_[i];
  return PaceFacts{u.on_horse(), u.type, u.gallop_streak, u.charged_last_turn};
}

Pace Battle::pace_limit(std::size_t i, Pace wanted) const { return vedette::pace_limit(*rules_, pace_facts(i), wanted); }

// The rule is the solo table's too (engine/procedures/reaction_rules.hpp).
Length Battle::charge_allowance(std::size_t i, Pace p) const {
  const Unit& u = units_[i];
  return reaction_allowance(*rules_, u.on_horse(), u.profile->move, p);
}

// reach(i) of unit i when active, on foot or on horse (u.on_horse() is
// cavalry() && mounted: the profile's kind and the mount alone).
Length Battle::reach_of(std::size_t i, bool on_horse) const {
  const Unit& u = units_[i];
  if (!u.profile->weapon) return Length();
  if (on_horse && u.type && !u.type->shoots_mounted) return Length();  // seed 002: mounted infantry
  const Weapon& w = rules_->weapons[*u.profile->weapon];
  return w.reach(on_horse ? rules_->supplement.mounted_range_band_shift : 0);
}

Point Battle::home_point(std::size_t i) const {
  const Unit& u = units_[i];
  const Edge e = scenario_->sides[u.side].edge;
  if (hex_) {
    // The hex on the own edge straight back (same column, or same row).
    const Hex h = unit_hex(i);  // hex_of(u.pos), kept
    const int col = HexBoard::col_of(h);
    switch (e) {
      case Edge::bottom: return hex_->centre(HexBoard::from_offset(col, 0));
      case Edge::top: return hex_->centre(HexBoard::from_offset(col, hex_->rows() - 1));
      case Edge::left: return hex_->centre(HexBoard::from_offset(0, h.r));
      case Edge::right: return hex_->centre(HexBoard::from_offset(hex_->cols() - 1, h.r));
    }
    return u.pos;
  }
  const auto& t = *scenario_->table;
  const double w = t.width().as_cm(), d = t.depth().as_cm();
  switch (e) {
    case Edge::bottom: return {u.pos.x, -d};
    case Edge::top: return {u.pos.x, 2 * d};
    case Edge::left: return {-w, u.pos.y};
    case Edge::right: return {2 * w, u.pos.y};
  }
  return u.pos;
}

bool Battle::at_edge(std::size_t i, Edge e) const {
  if (hex_) return hex_->edge_distance(unit_hex(i), e) == 0;  // unit_hex: hex_of(its position), kept
  const auto& t = *scenario_->table;
  const double w = t.width().as_cm(), d = t.depth().as_cm();
  constexpr double tol = 1e-6;
  // A unit whose corners cannot reach the edge is not at it, without the
  // corners' sincos (check_victory asks every turn of every unit of a side
  // that wins at an edge). corners() gives each coordinate as
  // (c + s * D) + r * F (signs aside) with c the centre's, D and F half the
  // depth and frontage, s and r a sine or cosine. libm's sin and cos are
  // within an ulp of values in [-1, 1], so |s|, |r| <= 1 + 2^-52, and once
  // rounded |s * D| <= |D| * (1 + 2^-51), below the bound's
  // |D| * (1 + 1e-12) as rounded (likewise F). Rounding is monotone, so
  // each rounded sum is monotone in each term, and each corner's coordinate
  // lies within [(c - D') - F', (c + D') + F'] for those bounds D', F', with
  // these very roundings: past tol of the edge, no corner is within it (and
  // a NaN centre fails the test, to the loop, as the loop's does).
  {
    const Unit& u = units_[i];
    const UnitSize& z = unit_size(i);  // footprint(i)'s frontage and depth
    const double half_d = std::abs(z.depth.as_cm() / 2.0) * (1 + 1e-12), half_f = std::abs(z.frontage.as_cm() / 2.0) * (1 + 1e-12);
    switch (e) {
      case Edge::bottom: if ((u.pos.y - half_d) - half_f > tol) return false; break;
      case Edge::top: if ((u.pos.y + half_d) + half_f < d - tol) return false; break;
      case Edge::left: if ((u.pos.x - half_d) - half_f > tol) return false; break;
      case Edge::right: if ((u.pos.x + half_d) + half_f < w - tol) return false; break;
    }
  }
  const Footprint f = footprint(i);
  for (const Point& c : corners(f)) {
    switch (e) {
      case Edge::bottom: if (c.y <= tol) return true; break;
      case Edge::top: if (c.y >= d - tol) return true; break;
      case Edge::left: if (c.x <= tol) return true; break;
      case Edge::right: if (c.x >= w - tol) return true; break;
    }
  }
  return false;
}

}  // namespace vedette
