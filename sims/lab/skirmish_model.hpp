#pragma once
// Seed 001's skirmish scenarios (engine/modules/skirmish/skirmish.hpp) in the
// balance lab (`sim`, `compare`, `sweep`): the scenario adapter and the
// counters that the lab's schema and `vedette play --json` share.
#include <memory>
#include <string>

#include "engine/modules/skirmish/skirmish.hpp"
#include "sims/lab/lab_adapter.hpp"
#include "sims/lab/lab_model.hpp"

namespace vedette::lab {

// Every counter of SkSideOutcome, as the lab and `play --json` name them.
inline constexpr Counter<SkSideOutcome> k_skirmish_counters[] = {
    {"figures_out", "figures out of action", &SkSideOutcome::figures_out, MetricKind::losses},
    {"light_wounds", "light wounds", &SkSideOutcome::light_wounds, MetricKind::count},
    {"shots", "shots fired", &SkSideOutcome::shots, MetricKind::count},
    {"hits", "hits scored", &SkSideOutcome::hits, MetricKind::count},
    {"horses_lost", "horses lost (mortally wounded)", &SkSideOutcome::horses_lost, MetricKind::count},
    {"horses_bolted", "unattended horses bolted", &SkSideOutcome::horses_bolted, MetricKind::count},
    {"riders_spilled", "riders spilled or fallen", &SkSideOutcome::riders_spilled, MetricKind::count},
    {"light_wound_falls", "light-wounded riders who fell", &SkSideOutcome::light_wound_falls, MetricKind::count},
    {"mounts", "mountings", &SkSideOutcome::mounts, MetricKind::count},
    {"dismounts", "dismountings", &SkSideOutcome::dismounts, MetricKind::count},
    {"riding_double_moves", "moves riding double", &SkSideOutcome::riding_double_moves, MetricKind::count},
    {"charges", "charges (6in or more into contact)", &SkSideOutcome::charges, MetricKind::count},
    {"fear_checks", "fear of charge checks taken", &SkSideOutcome::fear_checks, MetricKind::count},
    {"fear_failed", "fear of charge checks failed", &SkSideOutcome::fear_failed, MetricKind::count},
    {"caught_in_open", "caught in the open", &SkSideOutcome::caught_in_open, MetricKind::count},
    {"close_combats", "riders' close combats", &SkSideOutcome::close_combats, MetricKind::count},
    {"contact_checks_failed", "ridden-down skill checks failed", &SkSideOutcome::contact_checks_failed, MetricKind::count},
    {"final_charges", "final charges of dying horses", &SkSideOutcome::final_charges, MetricKind::count},
};

// A skirmish scenario file for the lab. Throws LoadError.
std::unique_ptr<LabScenario> open_skirmish_scenario(const std::string& path);

}  // namespace vedette::lab
