#pragma once
// The facility twin's entry points (DESIGN.md §3.4, §3.5, §5): a loaded scenario is built
// into one coupled model and run as the study it names. The CLI, the GUI, the sweep runner
// and the benchmark call only these.
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/results.h"
#include "core/solver/ode_solver.h"
#include "facility/scenario.h"

namespace dctwin::facility {

struct RunControl {
    /// fraction done [0, 1], simulated time [s]
    std::function<void(double fraction, double t)> progress;
    const std::atomic<bool>* cancel = nullptr;
};

struct RunOutcome {
    Report report;        // everything the HDF5 report holds
    Json summary;         // the summary JSON of DESIGN §5.2 (also in report.summary)
    SolverStats stats;    // integrator work
    std::string linear_solver;
    std::size_t state_count = 0;
    double wall_seconds = 0.0;  // [s]
};

/// Builds the coupled model and runs the scenario's study (annual, transient, contingency or
/// design point). Throws InputError/ModelError for scenarios that cannot be built,
/// SolverError when the integration fails, CancelledError when cancelled.
RunOutcome runScenario(const Scenario& scenario, const RunControl& control = {});

/// The design-point study alone: sizing tables at peak IT and design weather.
RunOutcome sizeScenario(const Scenario& scenario);

}  // namespace dctwin::facility
