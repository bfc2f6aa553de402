// The hot loop allocates nothing (issue 6): this binary replaces the global
// operator new with one that counts, plays engagements of every shipped
// scenario with one reused Engagement (as the Monte Carlo does), and requires
// zero allocations after a warm-up. A behaviour test, not a timed one. It is
// a binary of its own so that the counting allocator is not imposed on the
// other tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include "bots/registry.hpp"
#include "engine/engagement/engagement.hpp"
#include "sims/lab/bench.hpp"
#include "sims/lab/lab_model.hpp"
#include "sims/lab/stats.hpp"

namespace {

std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};

void* counted(std::size_t n) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}

// Counts the operator new calls made while `f` runs.
template <class F>
long allocations_during(F&& f) {
  g_allocations = 0;
  g_counting = true;
  f();
  g_counting = false;
  return g_allocations.load();
}

}  // namespace

// Every replaceable form that pairs with the operator delete below (the
// aligned forms are left alone and pair with their own deletes).
void* operator new(std::size_t n) { return counted(n); }
void* operator new[](std::size_t n) { return counted(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted(n);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

using namespace vedette;

TEST_CASE("alloc: the counting allocator sees an allocation", "[alloc]") {
  const long n = allocations_during([] {
    std::string* s = new std::string(100, 'x');
    delete s;
  });
  REQUIRE(n == 2);  // the string object and its buffer
}

TEST_CASE("alloc: engagements allocate nothing once warmed up", "[alloc][engagement]") {
  const std::string dir = std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios";
  for (std::string_view file : bench::k_signature_files) {
    const ScenarioPtr s = load_scenario_file(dir + "/" + std::string(file));
    // Seed 004 block units (issue 8) included since issue 32's fifteenth
    // pass: engine/modules/blocks/seed004.hpp's rules fill the engagement's
    // scratch (out-parameters, spans) instead of returning vectors.
    const Players players = make_players(*s);
    Engagement game(*s, players.bots(), 1, 0);
    // The warm-up: the engine's scratch grows to its size (Battle's tables
    // learned per pair of board hexes reserve their bound at their first
    // line, engine/engagement/battle_sight.cpp's line_cells_bound).
    for (std::uint64_t i = 0; i < 100; ++i) {
      game.reset(1, i);
      game.run();
    }
    std::uint64_t turns = 0;
    const long n = allocations_during([&] {
      for (std::uint64_t i = 0; i < 3000; ++i) {
        game.reset(20260101, i);
        turns += static_cast<std::uint64_t>(game.run().turns);
      }
    });
    INFO(file << ": " << turns << " turns played");
    CHECK(turns > 3000);
    CHECK(n == 0);
  }
}

TEST_CASE("alloc: a lab worker's engagement and tally allocate nothing once warmed up", "[alloc][lab]") {
  // What a harness worker does per engagement: play into a row, tally it.
  // Seed 001's skirmish games too (sims/lab/skirmish_model.cpp: one game
  // per worker, reset per game), as issue 32 asks of every engine.
  const std::string dir = std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios";
  std::vector<std::string_view> files(bench::k_signature_files.begin(), bench::k_signature_files.end());
  files.insert(files.end(), bench::k_signature_skirmish_files.begin(), bench::k_signature_skirmish_files.end());
  for (std::string_view file : files) {
    const auto scenario = lab::open_lab_scenario(dir + "/" + std::string(file));
    const auto model = scenario->model(nullptr);
    const auto player = model->player();
    lab::OutcomeRow row(model->schema());
    lab::Tally tally(model->schema());
    for (std::uint64_t i = 0; i < 100; ++i) {  // warm-up
      row.reset();
      player->play(1, i, row);
      tally.add(row);
    }
    const long n = allocations_during([&] {
      for (std::uint64_t i = 0; i < 3000; ++i) {
        row.reset();
        player->play(20260101, i, row);
        tally.add(row);
      }
    });
    INFO(file);
    CHECK(tally.n == 3100);
    CHECK(n == 0);
  }
}
