#pragma once
/// @file
/// @brief The facility twin's entry points (DESIGN.md §3.4, §3.5, §5): a scenario's specs are
/// sized, built into one coupled model and run as the study they name; the results become
/// metrics and a report. The CLI, the GUI, the sweep runner and the benchmark call only these.
#include <string>
#include <vector>

#include "core/json.h"
#include "core/results.h"
#include "core/solver/ode_solver.h"
#include "facility/scenario.h"
#include "facility/study.h"

namespace dctwin::facility {

struct RunOutcome {
    Report report;      ///< everything the HDF5 report holds; report.summary = the metrics
    Json summary;       ///< the summary JSON of DESIGN §5.2, made from the same metrics
    SolverStats stats;  ///< integrator work
    std::string linear_solver;
    std::size_t state_count = 0;
    double wall_seconds = 0.0;  ///< [s]
};

/// Sizes, builds and runs the scenario's study (annual, transient, contingency or design
/// point). Throws InputError/ModelError for scenarios that cannot be built, SolverError when
/// the integration fails, CancelledError when cancelled.
RunOutcome runScenario(const ScenarioSpec& scenario, const RunControl& control = {});

/// The design-point study alone: sizing tables at peak IT and design weather.
RunOutcome sizeScenario(const ScenarioSpec& scenario);

/// Sizes and builds every model a run would build, without running (dctwin validate).
void validateModel(const ScenarioSpec& scenario);

/// The time now in UTC as ISO 8601 ("2026-12-07T04:55:00Z"), for the reports' created_utc.
std::string isoNow();

/// Whether a run of the scenario models power smoothing: the scenario asks for it
/// (power.smoothing.enabled) and its study resolves the workload (study.workload_resolution
/// "resolved"; smoothing acts within seconds, and an averaged workload has no swing to smooth,
/// so the model has no smoothing then). The summary's `power_smoothing`.
bool smoothingModelled(const ScenarioSpec& scenario);

/// One line saying that the scenario asks for power smoothing that its study does not model
/// (asked for, not modelled, not a design point), or empty. The summary has it as
/// `power_smoothing_note`.
std::string smoothingNotModelledNote(const ScenarioSpec& scenario);

/// The summary JSON of a set of metrics and tables (flat metric values, a "units" map, the
/// sizing tables), as `--summary-json` writes it.
Json summaryJson(const ScenarioSpec& scenario, const std::vector<Metric>& metrics,
                 const std::vector<Table>& tables);

}  // namespace dctwin::facility
