// The Monte Carlo harness in-process: thread-count independence, ordered
// prefixes, precision stops, resuming from any point, stopping on a flag,
// common random numbers.
#include <catch2/catch.hpp>

#include <csignal>

#include "engine/core/dice.hpp"
#include "sims/lab/checkpoint.hpp"
#include "sims/lab/harness.hpp"
#include "sims/report/report.hpp"
#include "helpers.hpp"

namespace t_harness {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;
using namespace vedette::lab;

namespace {

std::string lab_data(const std::string& name) { return std::string(VEDETTE_TEST_DATA) + "/lab/" + name; }

HarnessResult run(std::span<const Model* const> models, std::uint64_t seed, std::uint64_t n, unsigned threads,
                  std::optional<double> precision = {}, Sums start = {}, std::uint64_t next = 0) {
  HarnessOptions o;
  o.seed = seed;
  o.n = n;
  o.threads = threads;
  o.precision = precision;
  if (start.tallies.empty()) start = Sums(models);
  return run_harness(models, o, std::move(start), next);
}

std::string dump(const Sums& s) {
  std::string o;
  for (const auto& t : s.tallies) o += to_json(t).dump();
  if (s.paired) o += to_json(*s.paired).dump();
  return o;
}

// A model whose engagement `trip` raises a stop flag while it plays, as a
// signal arriving mid-run would.
std::atomic<int> g_flag{0};
class TripModel final : public Model {
 public:
  TripModel(const Model& inner, std::uint64_t trip) : inner_(inner), trip_(trip) {}
  const Schema& schema() const override { return inner_.schema(); }
  std::unique_ptr<Player> player() const override {
    struct P : Player {
      std::unique_ptr<Player> in;
      std::uint64_t trip;
      void play(std::uint64_t seed, std::uint64_t index, OutcomeRow& row) override {
        if (index == trip) g_flag.store(SIGINT);
        in->play(seed, index, row);
      }
    };
    auto p = std::make_unique<P>();
    p->in = inner_.player();
    p->trip = trip_;
    return p;
  }

 private:
  const Model& inner_;
  std::uint64_t trip_;
};

}  // namespace

TEST_CASE("harness: the same sums, bit for bit, on 1, 2 and 8 threads") {
  auto sc = open_lab_scenario(lab_data("duel.yaml"));
  auto m = sc->model(nullptr);
  const Model* models[] = {m.get()};
  // Not a whole number of chunks, and fewer chunks than 8 threads' window.
  const std::uint64_t n = 10 * k_chunk + 77;
  const std::string one = dump(run(models, 42, n, 1).sums);
  CHECK(dump(run(models, 42, n, 2).sums) == one);
  CHECK(dump(run(models, 42, n, 8).sums) == one);
  CHECK(dump(run(models, 42, 3, 8).sums) == dump(run(models, 42, 3, 1).sums));
  // Another seed, other numbers.
  CHECK(dump(run(models, 43, n, 2).sums) != one);
}

TEST_CASE("harness: engagement i depends on (seed, i) only") {
  auto sc = open_lab_scenario(lab_data("duel.yaml"));
  auto m = sc->model(nullptr);
  auto p = m->player();
  OutcomeRow a(m->schema()), b(m->schema());
  p->play(7, 1234, a);
  for (std::uint64_t i = 0; i < 50; ++i) {  // other engagements in between
    b.reset();
    p->play(7, i, b);
  }
  b.reset();
  m->player()->play(7, 1234, b);
  CHECK(a.outcome == b.outcome);
  CHECK(a.metrics == b.metrics);
  CHECK(a.chosen == b.chosen);
}

TEST_CASE("harness: a run resumed from any point ends on the same sums") {
  auto sc = open_lab_scenario(lab_data("duel.yaml"));
  auto m = sc->model(nullptr);
  const Model* models[] = {m.get()};
  const std::uint64_t n = 5000;
  const std::string whole = dump(run(models, 9, n, 2).sums);
  for (std::uint64_t cut : {std::uint64_t{1}, k_chunk, std::uint64_t{1234}, n - 1, n}) {
    HarnessResult first = run(models, 9, cut, 2);
    REQUIRE(first.next == cut);
    HarnessResult rest = run(models, 9, n, 8, {}, first.sums, cut);
    INFO("cut at " << cut);
    CHECK(rest.next == n);
    CHECK(dump(rest.sums) == whole);
  }
}

TEST_CASE("harness: a checkpoint file carries the sums exactly") {
  auto sc = open_lab_scenario(lab_data("dice.yaml"));
  auto m = sc->model(nullptr);
  const Model* models[] = {m.get()};
  HarnessResult r = run(models, 3, 700, 2);
  vtest::TempDir dir;
  const std::string file = dir.path() + "/ck.json";
  RunIdentity id{"sim", "abc", 3, 1000, 0.005};
  write_checkpoint(file, id, r.sums, r.next);
  Sums back(models);
  Checkpoint c = read_checkpoint(file, "sim", back);
  CHECK(c.next == 700);
  CHECK(c.id.command == "sim");
  CHECK(c.id.fingerprint == "abc");
  CHECK(c.id.seed == 3);
  CHECK(c.id.n == 1000);
  CHECK(c.id.precision == 0.005);
  CHECK(dump(back) == dump(r.sums));
}

TEST_CASE("harness: a precision target stops at the same engagement on any thread count") {
  auto sc = open_lab_scenario(lab_data("dice.yaml"));
  auto m = sc->model(nullptr);
  const Model* models[] = {m.get()};
  const double target = 0.01;  // +/- 1 percentage point on P(a), P(b), P(draw)
  HarnessResult a = run(models, 5, 1000000, 1, target);
  CHECK(a.stop == StopReason::precision);
  CHECK(a.next % k_chunk == 0);
  CHECK(a.next >= k_precision_min);
  CHECK(widest_outcome_half_width(a.sums.tallies.front()) <= target);
  // The chunk before did not meet it: the run stopped at the first boundary that did.
  HarnessResult before = run(models, 5, a.next - k_chunk, 1);
  CHECK(widest_outcome_half_width(before.sums.tallies.front()) > target);
  for (unsigned threads : {2u, 8u}) {
    HarnessResult b = run(models, 5, 1000000, threads, target);
    CHECK(b.next == a.next);
    CHECK(dump(b.sums) == dump(a.sums));
  }
  // P(b) = 1/2 is the widest: about z^2/4/0.01^2 = 9604 engagements.
  CHECK(a.next > 9000);
  CHECK(a.next < 10500);
  // Resumed from a point before the stop, it stops at the same engagement.
  HarnessResult part = run(models, 5, 3333, 2);
  HarnessResult resumed = run(models, 5, 1000000, 2, target, part.sums, part.next);
  CHECK(resumed.next == a.next);
  CHECK(dump(resumed.sums) == dump(a.sums));
}

TEST_CASE("harness: a stop flag ends the run on an engagement boundary with a prefix of the run") {
  auto sc = open_lab_scenario(lab_data("duel.yaml"));
  auto inner = sc->model(nullptr);
  for (unsigned threads : {1u, 2u, 8u}) {
    TripModel trip(*inner, 3000);
    const Model* models[] = {&trip};
    g_flag.store(0);
    HarnessOptions o;
    o.seed = 11;
    o.n = 1000000;
    o.threads = threads;
    o.stop = &g_flag;
    std::uint64_t checkpointed = 0;
    o.checkpoint = [&](const Sums& s, std::uint64_t next) {
      CHECK(static_cast<std::uint64_t>(s.n()) == next);
      checkpointed = next;
    };
    HarnessResult r = run_harness(models, o, Sums(models), 0);
    INFO(threads << " threads: stopped after " << r.next);
    CHECK(r.stop == StopReason::interrupted);
    // It stops within the chunk that engagement 3000 is in (other threads'
    // chunks before it may stop earlier: the prefix ends at the first gap).
    CHECK(r.next < 3000 + k_chunk);
    CHECK(r.next + (2 * threads + 2) * k_chunk > 3000);
    CHECK(checkpointed == r.next);  // the last checkpoint holds what was done
    if (threads == 1) CHECK(r.next == 3001);
    // What it holds is exactly engagements [0, next).
    const Model* plain[] = {inner.get()};
    CHECK(dump(r.sums) == dump(run(plain, 11, r.next, 2).sums));
  }
  g_flag.store(0);
}

TEST_CASE("harness: common random numbers - a ruleset compared with itself differs nowhere") {
  auto sc = open_lab_scenario(lab_data("duel.yaml"));
  auto a = sc->model(nullptr);
  auto b = sc->model(load_ruleset("builtin:default"));
  const Model* models[] = {a.get(), b.get()};
  HarnessResult r = run(models, 21, 4000, 2);
  REQUIRE(r.sums.paired);
  CHECK(r.sums.paired->n == 4000);
  CHECK(r.sums.paired->differ.isZero());
  CHECK(to_json(r.sums.tallies[0]) == to_json(r.sums.tallies[1]));
  Comparison c = compare_figures(a->schema(), r.sums.tallies[0], r.sums.tallies[1], *r.sums.paired, "a", "b");
  for (const auto& row : c.rows) {
    CHECK_FALSE(row.real);
    CHECK(row.diff.mean == 0.0);
  }
}

TEST_CASE("harness: a variant changes only what it changes, engagement by engagement") {
  // Raising the heavy foot's morale need against heavy cavalry (seed 003
  // table, 9 -> 12) can only turn stands into breaks: the paired difference
  // in breaks is positive and real, and no engagement where no charge was
  // launched differs at all.
  auto sc = open_lab_scenario(lab_data("duel.yaml"));
  auto a = sc->model(nullptr);
  auto b = sc->model(load_ruleset("builtin:default", {{"charge.morale.table.heavy_foot.need.3", "12"}}));
  const Model* models[] = {a.get(), b.get()};
  HarnessResult r = run(models, 8, 20000, 2);
  Comparison c = compare_figures(a->schema(), r.sums.tallies[0], r.sums.tallies[1], *r.sums.paired, "a", "b");
  const auto broke = a->schema().outcomes() + a->schema().metric_index("cavalry_charges_broke");
  CHECK(c.rows[broke].real);
  CHECK(c.rows[broke].diff.mean > 0);
  // Engagements without a launched charge (so without a morale check) are
  // identical in both: at most the others can differ, in any figure.
  const auto launched = r.sums.tallies[0].nonzero(static_cast<Eigen::Index>(a->schema().metric_index("cavalry_charges_launched")));
  for (Eigen::Index i = 0; i < r.sums.paired->differ.size(); ++i) CHECK(r.sums.paired->differ(i) <= launched);
  CHECK(r.sums.paired->differ.maxCoeff() > 0);
}

}  // namespace t_harness
