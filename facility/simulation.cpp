// A study stepped from outside: one model per set of control values, the state carried over.
#include "facility/simulation.h"

#include <fmt/format.h>

#include <cmath>

#include "core/errors.h"
#include "core/simulator.h"
#include "core/units.h"
#include "facility/model.h"
#include "facility/sizing.h"
#include "facility/study.h"

namespace dctwin::facility {

struct Simulation::Impl {
    ScenarioSpec spec;  // with the controls in force (the model refers to it)
    SiteSizing sizing;  // likewise (the facility supply setpoint lives here)
    DesignPoint design;
    PreparedStudy study;
    Conditions conditions;
    std::vector<double> original_tdp;  // [W] per rack entry: the cap cannot exceed the TGP
    std::unique_ptr<SiteModel> model;
    std::vector<double> x;
    double t = 0.0;
    SolverStats stats;

    void rebuild() {
        model.reset();  // it refers to spec and sizing, which the caller is about to change
        model = std::make_unique<SiteModel>(spec, sizing, conditions);
        if (model->system().stateCount() != x.size()) {
            throw ModelError("internal: a control changed the model's states");
        }
    }
};

namespace {

void requireRange(const char* name, double v, double lo, double hi, const char* unit) {
    if (!std::isfinite(v) || v < lo || v > hi) {
        throw InputError(fmt::format("control {}: {} {} is out of range; expected {} to {} {}",
                                     name, v, unit, lo, hi, unit));
    }
}

}  // namespace

Simulation::Simulation(const ScenarioSpec& scenario) : impl_(std::make_unique<Impl>()) {
    Impl& s = *impl_;
    if (scenario.study.kind == "design_point") {
        throw InputError(
            "/study/kind: a design-point study has no time to step through; use size() or a "
            "study of kind annual, transient or contingency");
    }
    s.spec = scenario;
    s.sizing = sizeSite(s.spec);
    s.design = designPoint(s.spec, s.sizing);
    s.study = prepareStudy(s.spec, s.sizing, s.design);
    s.conditions = s.study.conditions;
    for (const auto& e : s.spec.it.racks) s.original_tdp.push_back(e.rack.gpu_tdp);
    s.x = s.study.x0;
    s.rebuild();
}

Simulation::~Simulation() = default;

double Simulation::time() const { return impl_->t; }
double Simulation::endTime() const { return impl_->study.options.t_end; }
const SolverStats& Simulation::stats() const { return impl_->stats; }

Controls Simulation::controls() const {
    const Impl& s = *impl_;
    Controls c;
    // On a campus the controls act on every hall; they read the first hall's values.
    const CoolingSpec& cool = s.spec.halls.front().cooling;
    const HallSizing& hall = s.sizing.halls.front();
    c.tcs_supply_setpoint = cool.tcs_supply_setpoint;
    c.fws_supply_setpoint = hall.fws_supply_setpoint;
    c.gpu_power_cap = s.spec.it.racks.front().rack.gpu_tdp;
    c.smoothing_floor_pct = s.spec.power.smoothing_settings.floor_pct;
    c.cdu_dp_setpoint = cool.cdu.dp_setpoint;
    c.heat_rejection_fan_limit = hall.plant.fan_limit;
    const auto& units = s.conditions.hall(0).units_available;
    c.heat_rejection_units =
        units.empty() ? hall.plant.units : static_cast<int>(std::lround(units.back().second));
    return c;
}

void Simulation::advance(double to, const Controls& c) {
    Impl& s = *impl_;
    if (!std::isfinite(to) || to <= s.t || to > endTime() * (1 + 1e-12)) {
        throw InputError(fmt::format(
            "advance to {} s: expected a time after the current {} s and at most the study's "
            "end, {} s",
            to, s.t, endTime()));
    }
    // Check every control before changing any, so a bad one leaves the simulation as it was.
    // Ranges are those of the scenario keys (facility/scenario.cpp) in SI.
    using units::celsiusToKelvin;
    if (c.tcs_supply_setpoint) {
        requireRange("tcs_supply_setpoint", *c.tcs_supply_setpoint, celsiusToKelvin(15.0),
                     celsiusToKelvin(50.0), "K");
    }
    if (c.fws_supply_setpoint) {
        requireRange("fws_supply_setpoint", *c.fws_supply_setpoint, celsiusToKelvin(5.0),
                     celsiusToKelvin(50.0), "K");
    }
    if (c.gpu_power_cap) {
        for (std::size_t i = 0; i < s.spec.it.racks.size(); ++i) {
            requireRange("gpu_power_cap", *c.gpu_power_cap, s.spec.it.racks[i].rack.gpu_idle,
                         s.original_tdp[i], "W");
        }
    }
    if (c.smoothing_floor_pct) {
        if (!s.model->racks().front().smoothing) {
            throw InputError(
                "control smoothing_floor_pct: this study has no power smoothing in its model "
                "(it needs /power/smoothing enabled and /study/workload_resolution 'resolved')");
        }
        requireRange("smoothing_floor_pct", *c.smoothing_floor_pct, 0.0, 90.0, "%");
    }
    if (c.cdu_dp_setpoint) {
        // The catalog key's range (thermal/cdu.cpp), not below the reset's floor.
        for (const HallSpec& h : s.spec.halls) {
            requireRange("cdu_dp_setpoint", *c.cdu_dp_setpoint, std::max(1e3, h.cooling.cdu.dp_min),
                         2e6, "Pa");
        }
    }
    if (c.heat_rejection_fan_limit) {
        requireRange("heat_rejection_fan_limit", *c.heat_rejection_fan_limit, 0.0, 1.0, "1");
    }
    if (c.heat_rejection_units) {
        for (const HallSizing& h : s.sizing.halls) {
            requireRange("heat_rejection_units", *c.heat_rejection_units, 0.0, h.plant.units,
                         "units");
        }
    }

    bool changed = false;
    auto set = [&](double& target, std::optional<double> v) {
        if (v && *v != target) {
            target = *v;
            changed = true;
        }
    };
    for (HallSpec& h : s.spec.halls) set(h.cooling.tcs_supply_setpoint, c.tcs_supply_setpoint);
    for (HallSizing& h : s.sizing.halls) set(h.fws_supply_setpoint, c.fws_supply_setpoint);
    for (auto& e : s.spec.it.racks) set(e.rack.gpu_tdp, c.gpu_power_cap);
    set(s.spec.power.smoothing_settings.floor_pct, c.smoothing_floor_pct);
    for (HallSpec& h : s.spec.halls) set(h.cooling.cdu.dp_setpoint, c.cdu_dp_setpoint);
    for (HallSizing& h : s.sizing.halls) set(h.plant.fan_limit, c.heat_rejection_fan_limit);
    if (c.heat_rejection_units && *c.heat_rejection_units != controls().heat_rejection_units) {
        // From now on (a Schedule switches at t ≥ its time); the plant builds a bank for each
        // count it will be asked to run with.
        for (std::size_t h = 0; h < s.sizing.halls.size(); ++h) {
            s.conditions.hall(h).units_available.emplace_back(s.t, *c.heat_rejection_units);
            s.sizing.halls[h].plant.unit_counts_needed.push_back(*c.heat_rejection_units);
        }
        changed = true;
    }
    if (changed) s.rebuild();

    SimulationOptions o = s.study.options;
    o.t_start = s.t;
    o.t_end = to;
    o.output_interval = to - s.t;  // nothing is recorded: observe() reads the state
    Simulator sim(s.model->system(), o);
    Recorder none(s.model->system());
    sim.run(none, {}, nullptr, s.x);
    s.x = sim.finalState();
    s.t = to;
    const SolverStats& st = sim.stats();
    s.stats.steps += st.steps;
    s.stats.rhs_evals += st.rhs_evals;
    s.stats.jacobian_evals += st.jacobian_evals;
    s.stats.factorizations += st.factorizations;
    s.stats.error_test_failures += st.error_test_failures;
    s.stats.convergence_failures += st.convergence_failures;
    s.stats.reinits += st.reinits;
    s.stats.jacobian_rhs_evals += st.jacobian_rhs_evals;
    s.stats.quadratures_reused += st.quadratures_reused;
    s.stats.jacobian_colours = st.jacobian_colours;
    s.stats.quadratures = st.quadratures;
}

std::vector<Observed> Simulation::observe() const {
    const Impl& s = *impl_;
    const System& sys = s.model->system();
    Recorder rec(sys);
    recordStudyChannels(*s.model, s.spec, rec);
    System::Workspace ws = sys.makeWorkspace();
    sys.evaluateOutputs(s.t, s.x, ws);
    rec.sample(s.t, s.x, ws.y);
    std::vector<Observed> out;
    for (const Channel& ch : rec.results().channels) {
        out.push_back({ch.group + "/" + ch.name, ch.values.back(), ch.unit, ch.description});
    }
    for (const auto& name : SiteModel::meterNames()) {
        const bool water =
            name == "evaporation" || name == "drift" || name == "blowdown" || name == "spray";
        const char* unit = water ? "m3" : name == "economizer_time" ? "s" : "J";
        out.push_back({"meters/" + name, s.model->meterTotal(s.x, name), unit,
                       "total since the study start"});
    }
    return out;
}

}  // namespace dctwin::facility
