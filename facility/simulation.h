#pragma once
/// @file
/// @brief A study stepped from outside (issue 17): build the site once, advance to a time,
/// change the controls an operator or a controller would set, observe the state. The Python
/// module's `dctwin.Simulation` is this class.
///
/// Controls are model parameters, and a component is not changed by a run (DESIGN.md §2): a
/// control change therefore builds the site model again from specs with the new value and
/// carries the state vector over (the states and their order do not depend on a control), and
/// the integrator restarts there — as it does at every discontinuity of a study. Between
/// changes one model integrates, so `advance` in many short steps differs from one run only by
/// the integrator's restarts (within its tolerance).
///
/// The controls that exist as inputs of the model, and what they set:
/// | control                | unit | model input                                            |
/// |------------------------|------|--------------------------------------------------------|
/// | tcs_supply_setpoint    | K    | every CDU's supply_temp_setpoint (PI on the FWS valve) |
/// | fws_supply_setpoint    | K    | heat rejection plant's setpoint                        |
/// | gpu_power_cap          | W    | per GPU: the TGP the rack power model scales between   |
/// |                        |      | idle and (leakage included), every rack kind           |
/// | smoothing_floor_pct    | %    | GB300 power floor (resolved studies with smoothing)    |
/// | heat_rejection_units   | 1    | heat rejection units in service (plant input)          |
/// | cdu_dp_setpoint        | Pa   | every CDU's dp_setpoint: the header differential       |
/// |                        |      | pressure its pumps hold (the upper limit of the ΔT reset |
/// |                        |      | when the CDU record resets it, thermal/cdu.h)          |
/// | heat_rejection_fan_limit | 1  | the plant's fan_limit: the fans modulate up to it and  |
/// |                        |      | the pads (or a miss of the setpoint) take the rest     |
#include <memory>
#include <optional>
#include <vector>

#include "core/results.h"
#include "core/solver/ode_solver.h"
#include "facility/specs.h"

namespace dctwin::facility {

/// Control values; an absent one keeps its current value.
struct Controls {
    std::optional<double> tcs_supply_setpoint;       ///< [K]
    std::optional<double> fws_supply_setpoint;       ///< [K]
    std::optional<double> gpu_power_cap;             ///< [W] per GPU
    std::optional<double> smoothing_floor_pct;       ///< [%]
    std::optional<int> heat_rejection_units;         ///< [1]
    std::optional<double> cdu_dp_setpoint;           ///< [Pa]
    std::optional<double> heat_rejection_fan_limit;  ///< [1] of rated fan speed
};

/// One value of the site at the current time.
struct Observed {
    std::string name;  ///< "power/it_power" (the report's channel), "meters/facility_energy"
    double value = 0.0;
    std::string unit;
    std::string description;
};

class Simulation {
public:
    /// Sizes the site, finds the design point and settles the study's initial state (as
    /// runScenario does). Annual, transient and contingency studies; InputError otherwise.
    explicit Simulation(const ScenarioSpec& scenario);
    ~Simulation();
    Simulation(const Simulation&) = delete;
    Simulation& operator=(const Simulation&) = delete;

    double time() const;     ///< [s] since the study start
    double endTime() const;  ///< [s] the study's duration
    /// Applies `controls` now, then integrates to `to` [s] (time() < to ≤ endTime()).
    /// InputError for a time outside that range or a control out of its range (naming it);
    /// SolverError when the integration fails (the simulation stays at its last good time).
    void advance(double to, const Controls& controls = {});
    /// Every channel of the study's report at the current time, then the meters (energy in J,
    /// water in m³, totals since the study start).
    std::vector<Observed> observe() const;
    /// The control values in force (all set).
    Controls controls() const;
    /// Integrator work summed over every advance.
    const SolverStats& stats() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace dctwin::facility
