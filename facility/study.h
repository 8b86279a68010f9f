#pragma once
/// @file
/// @brief Studies (DESIGN.md §3.5) as the engineering procedure reads: settle the site at a
/// steady operating point, size at the design point, run the study with its events, and collect
/// what it recorded. Metrics are computed from these results in facility/metrics.h.
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/results.h"
#include "core/simulator.h"
#include "core/solver/ode_solver.h"
#include "facility/model.h"
#include "facility/sizing.h"
#include "facility/specs.h"
#include "power/chain.h"
#include "power/sizing.h"

namespace dctwin::facility {

/// A settled operating point of a site model.
struct SteadyState {
    std::vector<double> x;  ///< states
    std::vector<double> y;  ///< all outputs at x
    double drift = 0.0;     ///< [K] largest temperature change over the last settling hour
};

/// Integrates a model with a constant boundary until it settles (8 h, the last hour measured).
SteadyState settle(const SiteModel& m, const SolverOptions& solver);

/// Integrator options of the facility's studies.
SolverOptions solverOptions(double rel_tol);

/// The design point: the site at full utilization and design weather, the electrical chain
/// sized for the cooling power the plant draws there, and the cooling and water tables.
struct DesignPoint {
    power::SizingResult electrical;
    power::ChainDesign chain;
    power::ChainResult chain_at_design;
    Table cooling, water;
    int battery_blocks = 1;
    double it_power = 0, cooling_power = 0, facility_power = 0;  ///< [W]
    double tcs_supply = 0, fws_supply = 0;                       ///< [K]
    double max_junction = 0, max_plate = 0;                      ///< [K] hottest GPU class
    double throttle_margin = 0, setpoint_unmet = 0;              ///< [K]
    double heat_rejected = 0;                                    ///< [W]
    double water_rate = 0;                                       ///< [m³/s] make-up + spray
    double steady_drift = 0;                                     ///< [K]
    double crah_units = 0;         ///< [1] CRAH units installed (N+1 on the design air load)
    double air_chiller_units = 0;  ///< [1] air-cooled chillers installed (N+1, sizing table)
    /// Design loads a utility loss's generator plan judges its blocks with.
    UtilityLossLoads utility_loads;
    /// Per hall (ScenarioSpec::halls) at the design point; the campus figures above are their
    /// sums (heat, water) or extremes (temperatures).
    struct Hall {
        double it_power = 0, cooling_power = 0;  ///< [W] racks (grid side); CDU + FWS pumps, plant
        double heat_rejected = 0, water_rate = 0;  ///< [W], [m³/s]
        double tcs_supply = 0, fws_supply = 0, max_junction = 0, setpoint_unmet = 0;  ///< [K]
    };
    std::vector<Hall> halls;
};
DesignPoint designPoint(const ScenarioSpec& spec, const SiteSizing& sizing);

struct RunControl {
    /// fraction done [0, 1], simulated time [s]
    std::function<void(double fraction, double t)> progress;
    const std::atomic<bool>* cancel = nullptr;
};

/// The compute lost to heat over the run, integrated over the integrator's step ends and the
/// output samples (so a trip or a throttle between two samples counts in full), from each rack
/// group's junction temperature and trip latch: the site's GPUs tripped and throttled
/// [GPU·s] and racks tripped [rack·s], the most racks tripped at any node [1], and per job
/// the integral over its own window [start, end) of its GPUs tripped, throttled and lost
/// [GPU·s]. Built by recordComputeChannels (facility/metrics.h); the formulas there.
struct ComputeSums {
    double gpu_tripped = 0.0, gpu_throttled = 0.0, rack_tripped = 0.0;
    double max_racks_tripped = 0.0;
    std::vector<double> tripped, throttled, lost;
};

/// Times read from the integrator's step ends, not from the output grid [s, study time]; NaN
/// where it did not happen: the first GPU junction peak at its throttle temperature and the
/// first rack tripped (half a rack's latch: Σ n·L ≥ 0.5, as the racks_tripped channel) at or
/// after the first event, each placed linearly between the step ends around it.
struct StepCrossings {
    double first_throttle = NAN, first_trip = NAN;
};

/// What a study run leaves for the metrics: the recorded channels, meter totals, the change of
/// stored heat, the events as analysed, and the integrator's work.
struct StudyResults {
    ResultSet channels;
    /// The compute lost to heat, site and per job (the study/jobs table and the compute-lost
    /// metrics), complete once the run has ended.
    std::shared_ptr<const ComputeSums> compute;
    /// Complete once the run has ended.
    std::shared_ptr<const StepCrossings> crossings;
    std::vector<std::pair<std::string, double>> meters;  ///< name → total [J or m³]
    /// Named halls: per hall, SiteModel::hallMeterNames() → total [J or m³].
    std::vector<std::vector<std::pair<std::string, double>>> hall_meters;
    double stored_start = 0, stored_end = 0;  ///< [J]
    /// Per event: its settings and, for a utility loss after the run, what it simulated.
    Json events = Json::array();
    /// A contingency's log in time order: the events as given, the first GPU at its throttle
    /// and the first rack tripped, a utility loss's switches (battery empty, generator blocks,
    /// loads back), each from the event, the plan or the simulation (table
    /// "contingency/event_log"; `log` the same as JSON, the summary's contingency.log).
    Table event_log;
    Json log = Json::array();
    SolverStats stats;
    std::string linear_solver;
    std::size_t state_count = 0;
    double meter(std::string_view name) const;
    /// A named hall's meter total (ModelError naming both if absent).
    double hallMeter(std::size_t hall, std::string_view name) const;
};

/// Runs an annual, transient or contingency study.
StudyResults runStudy(const ScenarioSpec& spec, const SiteSizing& sizing, const DesignPoint& d,
                      const RunControl& control);

/// What a study starts from, shared by runStudy and a study stepped from outside
/// (facility/simulation.h): the study model's boundary with the scenario's events applied, the
/// settled state at the study's first instant (meters at zero) and the integrator options.
struct PreparedStudy {
    Conditions conditions;
    std::vector<double> x0;
    SimulationOptions options;    ///< t_end = study duration, output interval of the study
    Json events = Json::array();  ///< per event: what happened (as StudyResults::events)
};
PreparedStudy prepareStudy(const ScenarioSpec& spec, const SiteSizing& sizing,
                           const DesignPoint& d);

/// Adds the study's channels (the report's names and units) to a recorder of `m`.
void recordStudyChannels(const SiteModel& m, const ScenarioSpec& spec, Recorder& rec);

/// Builds the design and the study models without running them (dctwin validate).
void buildModels(const ScenarioSpec& spec, const SiteSizing& sizing);

}  // namespace dctwin::facility
