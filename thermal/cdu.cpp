#include "thermal/cdu.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.h"
#include "core/units.h"
#include "thermal/catalog.h"

namespace dctwin::thermal {

CduSpec CduSpec::fromJson(const JsonView& v, std::string name) {
    checkEntryKeys(v, {"capacity_kW",
                       "capacity_W",
                       "capacity_MW",
                       "approach_K",
                       "secondary_flow_gpm",
                       "secondary_flow_Lpm",
                       "secondary_flow_m3s",
                       "facility_flow_gpm",
                       "facility_flow_Lpm",
                       "facility_flow_m3s",
                       "secondary_supply_temp_C",
                       "secondary_coolant",
                       "facility_coolant",
                       "pump_pressure_rise_psi",
                       "pump_pressure_rise_kPa",
                       "pump_pressure_rise_bar",
                       "pump_pressure_rise_Pa",
                       "pump_efficiency",
                       "pumps_installed",
                       "pumps_duty",
                       "ua_flow_exponent",
                       "hot_resistance_fraction",
                       "secondary_volume_L",
                       "facility_volume_L",
                       "internal_pressure_drop_kPa",
                       "drive_fixed_loss_pct",
                       "control_variable",
                       "dp_reset",
                       "dp_setpoint_kPa",
                       "dp_min_kPa",
                       "flow_setpoint_Lpm",
                       "delta_t_setpoint_K",
                       "min_speed_pct",
                       "control_gain",
                       "control_integral_time_s",
                       "drive_time_constant_s",
                       "reset_time_s",
                       "reset_gain"});
    CduSpec s;
    s.name = std::move(name);
    s.capacity = v.quantity("capacity", {"W", "kW", "MW"});
    s.approach = v.quantity("approach", {"K"});
    s.secondary_flow = v.quantity("secondary_flow", {"gpm", "Lpm", "m3s"});
    s.facility_flow = v.quantity("facility_flow", {"gpm", "Lpm", "m3s"});
    s.secondary_supply_temp = v.quantity("secondary_supply_temp", {"C"});
    s.secondary_coolant = v.string("secondary_coolant", s.secondary_coolant);
    s.facility_coolant = v.string("facility_coolant", s.facility_coolant);
    s.pump_pressure_rise = v.quantity("pump_pressure_rise", {"psi", "kPa", "bar", "Pa"});
    s.pump_efficiency = v.number("pump_efficiency", s.pump_efficiency);
    s.pumps_installed = v.count("pumps_installed", 1, 20, s.pumps_installed);
    s.pumps_duty = v.count("pumps_duty", 1, 20, s.pumps_duty);
    s.ua_flow_exponent = v.number("ua_flow_exponent", s.ua_flow_exponent);
    s.hot_resistance_fraction = v.number("hot_resistance_fraction", s.hot_resistance_fraction);
    s.secondary_volume = v.quantity("secondary_volume", {"L"}, s.secondary_volume);
    s.facility_volume = v.quantity("facility_volume", {"L"}, s.facility_volume);
    s.internal_pressure_drop =
        v.quantity("internal_pressure_drop", {"kPa"}, s.internal_pressure_drop);
    const double loss_pct = v.number("drive_fixed_loss_pct", s.drive_fixed_loss * 100.0);
    v.requireRange("drive_fixed_loss_pct", loss_pct, 0.0, 20.0);
    s.drive_fixed_loss = loss_pct / 100.0;
    s.control_variable =
        v.choice("control_variable", {"differential_pressure", "flow", "delta_t", "constant_speed"},
                 s.control_variable);
    s.dp_reset = v.choice("dp_reset", {"critical_rack", "delta_t", "none"}, s.dp_reset);
    s.dp_setpoint = v.quantity("dp_setpoint", {"kPa"}, s.dp_setpoint);
    s.dp_min = v.quantity("dp_min", {"kPa"}, s.dp_min);
    s.flow_setpoint = v.quantity("flow_setpoint", {"Lpm"}, s.flow_setpoint);
    s.delta_t_setpoint = v.quantity("delta_t_setpoint", {"K"}, s.delta_t_setpoint);
    const double min_speed_pct = v.number("min_speed_pct", s.min_speed * 100.0);
    v.requireRange("min_speed_pct", min_speed_pct, 0.0, 100.0);
    s.min_speed = min_speed_pct / 100.0;
    s.control_gain = v.number("control_gain", s.control_gain);
    s.control_integral_time = v.quantity("control_integral_time", {"s"}, s.control_integral_time);
    s.drive_time_constant = v.quantity("drive_time_constant", {"s"}, s.drive_time_constant);
    s.reset_time = v.quantity("reset_time", {"s"}, s.reset_time);
    s.reset_gain = v.number("reset_gain", s.reset_gain);
    v.requireRange("reset_gain", s.reset_gain, 0.0, 100.0);
    v.requireRange("internal_pressure_drop_kPa", s.internal_pressure_drop, 0.0, 1e6, "kPa");
    v.requireRange("dp_setpoint_kPa", s.dp_setpoint, 1e3, 2e6, "kPa");
    v.requireRange("dp_min_kPa", s.dp_min, 0.0, s.dp_setpoint, "kPa");
    v.requireRange("flow_setpoint_Lpm", s.flow_setpoint, 0.0, 10.0, "Lpm");
    v.requireRange("delta_t_setpoint_K", s.delta_t_setpoint, 0.5, 40.0, "K");
    v.requireRange("control_gain", s.control_gain, 1e-3, 100.0);
    v.requireRange("control_integral_time_s", s.control_integral_time, 0.1, 1e5, "s");
    v.requireRange("drive_time_constant_s", s.drive_time_constant, 0.01, 1e3, "s");
    v.requireRange("reset_time_s", s.reset_time, 1.0, 1e6, "s");
    v.requireRange("capacity", s.capacity, 1e3, 1e8, "kW");
    v.requireRange("approach_K", s.approach, 0.2, 30.0, "K");
    v.requireRange("secondary_flow", s.secondary_flow, 1e-5, 10.0, "Lpm");
    v.requireRange("facility_flow", s.facility_flow, 1e-5, 10.0, "Lpm");
    v.requireRange("secondary_supply_temp_C", s.secondary_supply_temp, 273.15 + 2.0, 273.15 + 70.0,
                   "C");
    v.requireRange("pump_pressure_rise", s.pump_pressure_rise, 1e3, 2e6, "kPa");
    v.requireRange("pump_efficiency", s.pump_efficiency, 0.05, 1.0);
    v.requireRange("pumps_installed", s.pumps_installed, 1, 20);
    v.requireRange("pumps_duty", s.pumps_duty, 1, s.pumps_installed);
    v.requireRange("ua_flow_exponent", s.ua_flow_exponent, 0.0, 1.5);
    v.requireRange("hot_resistance_fraction", s.hot_resistance_fraction, 0.05, 0.95);
    v.requireRange("secondary_volume_L", s.secondary_volume, 1e-4, 100.0, "L");
    v.requireRange("facility_volume_L", s.facility_volume, 1e-4, 100.0, "L");
    return s;
}

CduSpec CduSpec::fromCatalog(std::string_view name, const Json& overrides,
                             std::string_view user_path) {
    const Json entry = loadCatalogEntry("cdus.json", name, overrides);
    return fromJson(recordView(entry, "cdus.json", name, overrides, user_path), std::string(name));
}

CduModel::CduModel(CduSpec spec, std::string_view operating_coolant,
                   std::string_view operating_facility_coolant)
    : spec_(std::move(spec)),
      sec_(Coolant::byName(operating_coolant.empty() ? std::string_view(spec_.secondary_coolant)
                                                     : operating_coolant)),
      fac_(Coolant::byName(operating_facility_coolant.empty()
                               ? std::string_view(spec_.facility_coolant)
                               : operating_facility_coolant)),
      sec_rated_(Coolant::byName(spec_.secondary_coolant)),
      fac_rated_(Coolant::byName(spec_.facility_coolant)) {
    const double V_s = spec_.secondary_flow, V_f = spec_.facility_flow;
    const double dp = spec_.pump_pressure_rise;
    const double mdot_s = sec_rated_.massFlow(V_s), mdot_f = fac_rated_.massFlow(V_f);
    const double Q = spec_.capacity;
    const double W = V_s * dp;  // hydraulic work into the coolant at design
    CduDesignPoint& d = design_;
    d.secondary_supply_temp = spec_.secondary_supply_temp;
    d.facility_supply_temp = d.secondary_supply_temp - spec_.approach;
    d.secondary_hx_inlet_temp = sec_rated_.heatedTemperature(d.secondary_supply_temp, mdot_s, Q);
    d.secondary_return_temp = sec_rated_.heatedTemperature(d.secondary_hx_inlet_temp, mdot_s, -W);
    d.facility_return_temp = fac_rated_.heatedTemperature(d.facility_supply_temp, mdot_f, Q);
    const double C_s = mdot_s * sec_rated_.specificHeat(d.secondary_hx_inlet_temp);
    const double C_f = mdot_f * fac_rated_.specificHeat(d.facility_supply_temp);
    const double C_min = std::min(C_s, C_f), C_r = C_min / std::max(C_s, C_f);
    const double eps = Q / (C_min * (d.secondary_hx_inlet_temp - d.facility_supply_temp));
    if (!(eps > 0.0 && eps < 1.0)) {
        throw InputError(fmt::format(
            "CDU '{}': a {:.0f} kW duty at {:.2f} K approach with these flows needs an "
            "effectiveness of {:.3f}, which no heat exchanger reaches; raise the flows or the "
            "approach",
            spec_.name, Q / 1e3, spec_.approach, eps));
    }
    d.effectiveness = eps;
    d.UA = ntuCounterflow(eps, C_r) * C_min;
    // The pumps are rated on the rating coolant; a centrifugal pump's head in metres does not
    // depend on the liquid (below ~5 cSt, Hydraulic Institute 9.6.7), so its pressure rise and
    // power scale with density.
    const double T_mean = 0.5 * (d.secondary_supply_temp + d.secondary_hx_inlet_temp);
    const double rho_ratio = sec_.density(T_mean) / sec_rated_.density(T_mean);
    pump_ =
        PumpCurve::fromDesignPoint(V_s / spec_.pumps_duty, dp * rho_ratio, spec_.pump_efficiency);
    system_ = SystemCurve::throughPoint(V_s, dp * rho_ratio);
    d.pump_power = spec_.pumps_duty * pump_.electricPower(V_s / spec_.pumps_duty, 1.0);
    // Film conductance of the secondary side with the operating coolant, relative to the
    // rated one at equal mass flow (plate channels: Nu ∝ Re^n·Pr^(1/3)).
    // The facility side the same way at its own design mean temperature.
    const double n = spec_.ua_flow_exponent;
    const double film = filmFactorAtEqualMassFlow(FluidState::of(sec_, T_mean),
                                                  FluidState::of(sec_rated_, T_mean), n, 1.0 / 3.0);
    const double T_fac = 0.5 * (d.facility_supply_temp + d.facility_return_temp);
    const double fac_film = filmFactorAtEqualMassFlow(
        FluidState::of(fac_, T_fac), FluidState::of(fac_rated_, T_fac), n, 1.0 / 3.0);
    ua_ = UaScaling{d.UA,
                    mdot_s,
                    mdot_f,
                    spec_.hot_resistance_fraction,
                    spec_.ua_flow_exponent,
                    spec_.ua_flow_exponent,
                    film,
                    fac_film};
    // Operating points at rated speed for every number of running pumps on the design system
    // curve (the steady-state helpers below use it).
    for (int running = 0; running <= spec_.pumps_installed; ++running) {
        rated_.push_back(pumpOperatingPoint(pump_, running, 1.0, system_,
                                            fmt::format("CDU '{}' secondary pumps", spec_.name)));
    }
}

double CduModel::internalResistance() const {
    return spec_.internal_pressure_drop / (spec_.secondary_flow * spec_.secondary_flow);
}

double CduModel::UA(double mdot_secondary, double mdot_facility) const {
    return ua_(mdot_secondary, mdot_facility);
}

PumpOperatingPoint CduModel::pumps(double speed, double pumps_failed) const {
    const int running = runningPumps(spec_.pumps_installed, spec_.pumps_duty, pumps_failed);
    if (speed == 1.0 && running >= 0 && running < static_cast<int>(rated_.size())) {
        return rated_[static_cast<std::size_t>(running)];
    }
    return pumpOperatingPoint(pump_, running, speed, system_,
                              fmt::format("CDU '{}' secondary pumps", spec_.name));
}

HxResult CduModel::exchange(double T_hx_in, double T_fs, double secondary_flow,
                            double facility_flow) const {
    const double mdot_s = sec_.massFlow(secondary_flow), mdot_f = fac_.massFlow(facility_flow);
    const double UA = ua_(mdot_s, mdot_f);
    return heatExchange(HxArrangement::Counterflow, UA, mdot_s * sec_.specificHeat(T_hx_in),
                        T_hx_in, mdot_f * fac_.specificHeat(T_fs), T_fs);
}

CduOperatingPoint CduModel::steadyState(double T_return, double T_fs, double facility_flow,
                                        double pump_speed, double pumps_failed) const {
    CduOperatingPoint r;
    const PumpOperatingPoint op = pumps(pump_speed, pumps_failed);
    r.secondary_flow = op.flow;
    r.facility_flow = facility_flow;
    r.pump_power = op.power;
    r.pump_heat = op.flow * op.pressure_rise;
    const double mdot_s = sec_.massFlow(op.flow), mdot_f = fac_.massFlow(facility_flow);
    r.secondary_hx_inlet_temp = sec_.heatedTemperature(T_return, mdot_s, r.pump_heat);
    const HxResult hx = exchange(r.secondary_hx_inlet_temp, T_fs, op.flow, facility_flow);
    r.heat = hx.Q;
    r.effectiveness = hx.effectiveness;
    r.UA = ua_(mdot_s, mdot_f);
    r.secondary_supply_temp = sec_.heatedTemperature(r.secondary_hx_inlet_temp, mdot_s, -hx.Q);
    r.facility_return_temp = fac_.heatedTemperature(T_fs, mdot_f, hx.Q);
    r.approach = r.secondary_supply_temp - T_fs;
    return r;
}

CduOperatingPoint CduModel::steadyStateControlled(double T_return, double T_fs, double T_set,
                                                  double available, double pump_speed,
                                                  double pumps_failed, double valve_min) const {
    auto at = [&](double v) {
        return steadyState(T_return, T_fs, v * available, pump_speed, pumps_failed);
    };
    CduOperatingPoint hi = at(1.0);
    if (hi.secondary_supply_temp >= T_set) return hi;
    CduOperatingPoint lo = at(valve_min);
    if (lo.secondary_supply_temp <= T_set) return lo;
    double a = valve_min, b = 1.0;
    for (int i = 0; i < 100 && b - a > 1e-14; ++i) {
        const double m = 0.5 * (a + b);
        (at(m).secondary_supply_temp > T_set ? a : b) = m;
    }
    return at(0.5 * (a + b));
}

// ---------------------------------------------------------------------------------------------

namespace {
Cdu::Variable variableOf(const std::string& name) {
    if (name == "flow") return Cdu::Variable::Flow;
    if (name == "delta_t") return Cdu::Variable::DeltaT;
    if (name == "constant_speed") return Cdu::Variable::ConstantSpeed;
    return Cdu::Variable::DifferentialPressure;
}
Cdu::Reset resetOf(const std::string& name) {
    if (name == "delta_t") return Cdu::Reset::MixedDeltaT;
    if (name == "none") return Cdu::Reset::None;
    return Cdu::Reset::CriticalRack;
}

template <class T>
std::shared_ptr<const T> required(std::shared_ptr<const T> p, const std::string& cdu,
                                  const char* what) {
    if (!p) throw ModelError(fmt::format("CDU '{}': no {}", cdu, what));
    return p;
}
}  // namespace

Cdu::Cdu(std::string name, CduModel model, std::vector<RackBranch> branches,
         std::vector<RackManifold::Slot> rack_slots)
    : Cdu(std::move(name), std::move(model), std::move(branches), std::move(rack_slots),
          Control{}) {}

Cdu::Cdu(std::string name, CduModel model, std::vector<RackBranch> branches,
         std::vector<RackManifold::Slot> rack_slots, Control control)
    : Cdu(std::move(name), std::make_shared<const CduModel>(std::move(model)), std::move(branches),
          std::move(rack_slots), control) {}

Cdu::Cdu(std::string name, std::shared_ptr<const CduModel> model, std::vector<RackBranch> branches,
         std::vector<RackManifold::Slot> rack_slots, Control control)
    : Cdu(std::move(name), model,
          model ? makeManifold(*model, std::move(branches), std::move(rack_slots)) : nullptr,
          control) {}

std::shared_ptr<const RackManifold> Cdu::makeManifold(const CduModel& model,
                                                      std::vector<RackBranch> branches,
                                                      std::vector<RackManifold::Slot> rack_slots) {
    return std::make_shared<const RackManifold>(model.pumpCurve(), model.internalResistance(),
                                                std::move(branches), std::move(rack_slots),
                                                std::max(1, model.spec().pumps_installed));
}

Cdu::Cdu(std::string name, std::shared_ptr<const CduModel> model,
         std::shared_ptr<const RackManifold> manifold, Control control)
    : Component(std::move(name)),
      model_(required(std::move(model), this->name(), "CDU model")),
      manifold_(required(std::move(manifold), this->name(), "rack manifold")),
      racks_(0.0),
      control_(control),
      variable_(variableOf(model_->spec().control_variable)),
      reset_(resetOf(model_->spec().dp_reset)) {
    // A manifold shared between CDUs must be this model's: its pumps and its own resistance.
    const PumpCurve& p = model_->pumpCurve();
    const PumpCurve& q = manifold_->pump();
    if (p.H0 != q.H0 || p.H1 != q.H1 || p.H2 != q.H2 ||
        model_->internalResistance() != manifold_->internalResistance()) {
        throw ModelError(
            fmt::format("CDU '{}': its rack manifold was built for another pump curve or internal "
                        "resistance than its model '{}' has (build it with Cdu::makeManifold)",
                        this->name(), model_->spec().name));
    }
    for (const auto& s : manifold_->rackSlots()) racks_ += s.weight;
    if (!(control_.Kp > 0 && control_.Ti > 0 && control_.valve_min > 0 && control_.valve_min < 1 &&
          control_.valve_start >= 0 && control_.valve_start <= 1)) {
        throw InputError(fmt::format(
            "CDU '{}': control Kp = {}, Ti = {} s, valve_min = {}, "
            "valve_start = {}; expected Kp > 0, Ti > 0, 0 < valve_min "
            "< 1, 0 ≤ valve_start ≤ 1",
            this->name(), control_.Kp, control_.Ti, control_.valve_min, control_.valve_start));
    }
    const CduSpec& s = model_->spec();
    const CduDesignPoint& d = model_->design();
    M_s_ = model_->secondaryCoolant().referenceDensity() * s.secondary_volume;
    M_f_ = model_->facilityCoolant().referenceDensity() * s.facility_volume;
    addState(kSupply,
             {"secondary_supply_temp", "K", d.secondary_supply_temp, d.secondary_supply_temp,
              "secondary (TCS) supply temperature, HX outlet node"});
    addState(kFacReturn,
             {"facility_return_temp", "K", d.facility_return_temp, d.facility_return_temp,
              "facility (FWS) return temperature, HX outlet node"});
    addState(kIntegral,
             {"valve_integral", "1", 1.0, control_.valve_start, "PI integral of the valve"});
    // The pump controller integrates a temperature error: its states need be no more accurate
    // than the temperatures the solver holds to rel_tol (rel_tol · T on a ~308 K state moves
    // the ΔT error by rel_tol · T/ΔT_set), else they, not the physics, set the step size.
    const double t_scale = d.secondary_supply_temp / s.delta_t_setpoint;
    const double speed_scale = s.control_gain * t_scale;
    const double reset_scale =
        std::max(s.reset_gain, 1.0) * (s.dp_setpoint - std::min(s.dp_min, s.dp_setpoint)) * t_scale;
    addState(kSpeed, {"pump_speed", "1", 1.0, 0.8, "secondary pump drive speed, fraction of rated",
                      speed_scale});
    addState(kPumpIntegral, {"pump_integral", "1", 1.0, 0.8,
                             "PI integral of the pump speed controller", speed_scale});
    addState(kReset, {"dp_reset", "Pa", s.dp_setpoint, s.dp_setpoint,
                      "differential-pressure setpoint as reset on the TCS temperature difference",
                      reset_scale});
    addInput(kReturnTemp, {"secondary_return_temp", "K", d.secondary_return_temp,
                           d.secondary_return_temp, "secondary return temperature from the racks"});
    addInput(kFacSupplyTemp, {"facility_supply_temp", "K", d.facility_supply_temp,
                              d.facility_supply_temp, "facility water supply temperature"});
    addInput(kFacFlowAvail, {"facility_flow_available", "m3/s", s.facility_flow, s.facility_flow,
                             "facility flow with the valve fully open"});
    addInput(kSetpoint, {"supply_temp_setpoint", "K", d.secondary_supply_temp,
                         d.secondary_supply_temp, "secondary supply temperature setpoint"});
    addInput(kPumpSpeed, {"pump_speed", "1", 1.0, 1.0,
                          "pump speed (constant_speed) or its upper limit, fraction of rated"});
    addInput(kPumpsFailed, {"pumps_failed", "1", 1.0, 0.0, "failed secondary pumps"});
    addInput(kDpSetpoint, {"dp_setpoint", "Pa", s.dp_setpoint, s.dp_setpoint,
                           "header differential-pressure setpoint (upper limit of the reset)"});
    addInput(kCriticalReturnTemp,
             {"critical_return_temp", "K", d.secondary_return_temp,
              std::numeric_limits<double>::quiet_NaN(),
              "hottest rack return temperature (differential-pressure reset on critical_rack)"});
    for (std::size_t i = 0; i < manifold_->rackSlots().size(); ++i) {
        addInput(kFirstValve + i, {fmt::format("valve_{}", i + 1), "1", 1.0, 1.0,
                                   "balancing-valve opening of a rack branch"});
    }
    const double q_rack = s.secondary_flow / std::max(racks_, 1.0);
    addOutput(kOutSupplyTemp, {"secondary_supply_temp", "K", d.secondary_supply_temp, 0.0,
                               "secondary supply temperature"});
    addOutput(kOutFacReturnTemp, {"facility_return_temp", "K", d.facility_return_temp, 0.0,
                                  "facility return temperature"});
    addOutput(kOutSecondaryFlow,
              {"secondary_flow", "m3/s", s.secondary_flow, 0.0, "secondary flow"});
    addOutput(kOutFlowPerRack,
              {"flow_per_rack", "m3/s", q_rack, 0.0, "secondary flow per rack (mean)"});
    addOutput(kOutFacilityFlow,
              {"facility_flow", "m3/s", s.facility_flow, 0.0, "facility flow drawn"});
    addOutput(kOutValve, {"valve_position", "1", 1.0, 0.0, "facility valve position"});
    addOutput(kOutHeat,
              {"heat_transferred", "W", s.capacity, 0.0, "heat handed to the facility loop"});
    addOutput(kOutPumpPower, {"pump_power", "W", std::max(1.0, d.pump_power), 0.0,
                              "electric input of the secondary pumps"});
    addOutput(kOutApproach, {"approach", "K", std::max(0.5, s.approach), 0.0,
                             "secondary supply minus facility supply temperature"});
    addOutput(kOutPumpHeat,
              {"pump_heat", "W", std::max(1.0, s.secondary_flow * s.pump_pressure_rise), 0.0,
               "pump work dissipated in the secondary coolant"});
    addOutput(kOutSpeed, {"pump_speed", "1", 1.0, 0.0, "secondary pump speed, fraction of rated"});
    addOutput(kOutHeaderDp, {"header_dp", "Pa", s.dp_setpoint, 0.0,
                             "differential pressure across the rack branches"});
    addOutput(kOutPumpDp,
              {"pump_dp", "Pa", s.pump_pressure_rise, 0.0, "pressure rise of the pumps"});
    for (std::size_t i = 0; i < manifold_->rackSlots().size(); ++i) {
        addOutput(kFirstRackFlow + i, {fmt::format("rack_flow_{}", i + 1), "m3/s", q_rack, 0.0,
                                       "coolant flow of one rack of a branch slot"});
    }
}

void Cdu::initialState(std::span<double> x0) const {
    Component::initialState(x0);
    // Start the drive where the design flow would put it, so settling is short.
    const CduSpec& s = model_->spec();
    double speed = 1.0;
    if (variable_ == Variable::ConstantSpeed) {
        speed = 1.0;
    } else {
        const int n = std::max(1, s.pumps_duty);
        const double Q = 0.8 * s.secondary_flow;
        speed = std::clamp(model_->pumpCurve().speedFor(
                               Q / n, s.dp_setpoint + model_->internalResistance() * Q * Q),
                           s.min_speed, 1.0);
    }
    x0[kSpeed] = speed;
    x0[kPumpIntegral] = speed;
    x0[kReset] = s.dp_setpoint;
}

double Cdu::piOutput(std::span<const double> x, double setpoint) const {
    return control_.Kp * (x[kSupply] - setpoint) + x[kIntegral];
}

double Cdu::valvePosition(std::span<const double> x, double setpoint) const {
    return std::clamp(piOutput(x, setpoint), control_.valve_min, 1.0);
}

double Cdu::speedOf(std::span<const double> x, std::span<const double> u) const {
    if (variable_ == Variable::ConstantSpeed) return u[kPumpSpeed];
    return std::clamp(x[kSpeed], 0.0, 1.2);
}

Cdu::Hydraulics Cdu::hydraulics(std::span<const double> x, std::span<const double> u,
                                std::span<double> per_slot) const {
    const CduSpec& s = model_->spec();
    Hydraulics h;
    h.speed = speedOf(x, u);
    h.running = runningPumps(s.pumps_installed, s.pumps_duty, u[kPumpsFailed]);
    h.manifold = manifold_->solve(h.running, h.speed,
                                  u.subspan(kFirstValve, manifold_->rackSlots().size()), per_slot);
    if (h.running > 0 && h.speed > 0.0) {
        const double q = h.manifold.flow / h.running;
        h.pump_power = h.running * (model_->pumpCurve().electricPower(q, h.speed) +
                                    s.drive_fixed_loss * model_->design().pump_power /
                                        std::max(1, s.pumps_duty));
    }
    h.pump_heat = h.manifold.flow * h.manifold.pump_dp;
    return h;
}

double Cdu::storedEnergy(std::span<const double> x) const {
    return M_s_ * model_->secondaryCoolant().enthalpy(x[kSupply]) +
           M_f_ * model_->facilityCoolant().enthalpy(x[kFacReturn]);
}

void Cdu::checkInputs(std::span<const double> u, bool with_return) const {
    if (!(u[kFacFlowAvail] >= 0.0) || !std::isfinite(u[kFacFlowAvail])) {
        throw InputError(
            fmt::format("CDU '{}': facility_flow_available = {} m3/s; expected a "
                        "finite value ≥ 0",
                        name(), u[kFacFlowAvail]));
    }
    if (!(u[kPumpSpeed] >= 0.0 && u[kPumpSpeed] <= 1.2)) {
        throw InputError(fmt::format("CDU '{}': pump_speed = {}; expected 0..1.2 of rated", name(),
                                     u[kPumpSpeed]));
    }
    if (!(u[kPumpsFailed] >= 0.0) || !std::isfinite(u[kPumpsFailed])) {
        throw InputError(
            fmt::format("CDU '{}': pumps_failed = {}; expected ≥ 0", name(), u[kPumpsFailed]));
    }
    if (!(u[kDpSetpoint] > 0.0) || !std::isfinite(u[kDpSetpoint])) {
        throw InputError(fmt::format("CDU '{}': dp_setpoint = {} Pa; expected a finite value > 0",
                                     name(), u[kDpSetpoint]));
    }
    for (std::size_t i = 0; i < manifold_->rackSlots().size(); ++i) {
        const double v = u[valveInput(i)];
        if (!(v >= 0.0 && v <= 1.0)) {
            throw InputError(
                fmt::format("CDU '{}': valve_{} = {}; expected an opening 0..1", name(), i + 1, v));
        }
    }
    const Coolant& s = model_->secondaryCoolant();
    const Coolant& f = model_->facilityCoolant();
    auto temp = [&](std::size_t i, const char* port, const Coolant& c) {
        // A property outside its table is a ModelError (core/errors.h): a state the run
        // reached, so a persistent one ends it as a simulation failure with its time, not
        // as bad input.
        if (!(u[i] >= c.minTemperature() && u[i] <= c.maxTemperature())) {
            throw ModelError(fmt::format(
                "CDU '{}': {} = {:.2f} K ({:.2f} °C) is outside the {} table, {:.1f}..{:.1f} °C",
                name(), port, u[i], units::kelvinToCelsius(u[i]), c.name(),
                units::kelvinToCelsius(c.minTemperature()),
                units::kelvinToCelsius(c.maxTemperature())));
        }
    };
    // computeOutputs must not read secondary_return_temp: no output depends on it, so the
    // System may evaluate the CDU before the racks and hand it a stale value.
    if (with_return) temp(kReturnTemp, "secondary_return_temp", s);
    // Unconnected, critical_return_temp is NaN: a constant would freeze the reset silently.
    if (with_return && variable_ == Variable::DifferentialPressure &&
        reset_ == Reset::CriticalRack && !std::isfinite(u[kCriticalReturnTemp])) {
        throw InputError(fmt::format(
            "CDU '{}': critical_return_temp = {}; dp_reset 'critical_rack' needs the hottest "
            "rack's return temperature connected (a Mixer's temp_max); valid dp_reset choices: "
            "critical_rack, delta_t (the mixed return), none",
            name(), u[kCriticalReturnTemp]));
    }
    temp(kFacSupplyTemp, "facility_supply_temp", f);
    temp(kSetpoint, "supply_temp_setpoint", s);
}

void Cdu::computeOutputs(double, std::span<const double> x, std::span<const double> u,
                         std::span<double> y) const {
    checkInputs(u, false);
    const Hydraulics h = hydraulics(x, u, y.subspan(kFirstRackFlow, manifold_->rackSlots().size()));
    const double v = valvePosition(x, u[kSetpoint]);
    const double V_f = v * u[kFacFlowAvail];
    const Coolant& f = model_->facilityCoolant();
    y[kOutSupplyTemp] = x[kSupply];
    y[kOutFacReturnTemp] = x[kFacReturn];
    y[kOutSecondaryFlow] = h.manifold.flow;
    y[kOutFlowPerRack] = h.manifold.flow / racks_;
    y[kOutFacilityFlow] = V_f;
    y[kOutValve] = v;
    y[kOutHeat] = f.massFlow(V_f) * (f.enthalpy(x[kFacReturn]) - f.enthalpy(u[kFacSupplyTemp]));
    y[kOutPumpPower] = h.pump_power;
    y[kOutApproach] = x[kSupply] - u[kFacSupplyTemp];
    y[kOutPumpHeat] = h.pump_heat;
    y[kOutSpeed] = h.running > 0 ? h.speed : 0.0;
    y[kOutHeaderDp] = h.manifold.header_dp;
    y[kOutPumpDp] = h.manifold.pump_dp;
}

void Cdu::computeDerivatives(double, std::span<const double> x, std::span<const double> u,
                             std::span<double> dxdt) const {
    checkInputs(u, true);
    const Hydraulics h = hydraulics(x, u);
    derivatives(x, u, h.manifold.flow, h.pump_heat, h.manifold.header_dp, dxdt);
}

void Cdu::computeDerivativesGivenOutputs(double, std::span<const double> x,
                                         std::span<const double> u, std::span<const double> y,
                                         std::span<double> dxdt) const {
    checkInputs(u, true);
    derivatives(x, u, y[kOutSecondaryFlow], y[kOutPumpHeat], y[kOutHeaderDp], dxdt);
}

void Cdu::derivatives(std::span<const double> x, std::span<const double> u, double Q_s, double W,
                      double header_dp, std::span<double> dxdt) const {
    const CduSpec& spec = model_->spec();
    const Coolant& s = model_->secondaryCoolant();
    const Coolant& f = model_->facilityCoolant();
    const double mdot_s = s.massFlow(Q_s);
    const double v = valvePosition(x, u[kSetpoint]);
    const double V_f = v * u[kFacFlowAvail];
    const double mdot_f = f.massFlow(V_f);
    const double T_hx_in =
        mdot_s > 0.0 ? s.heatedTemperature(u[kReturnTemp], mdot_s, W) : u[kReturnTemp];
    const HxResult hx = model_->exchange(T_hx_in, u[kFacSupplyTemp], Q_s, V_f);
    const double in_s = mdot_s * (s.enthalpy(u[kReturnTemp]) - s.enthalpy(x[kSupply])) + W;
    dxdt[kSupply] = (in_s - hx.Q) / (M_s_ * s.specificHeat(x[kSupply]));
    const double in_f = mdot_f * (f.enthalpy(u[kFacSupplyTemp]) - f.enthalpy(x[kFacReturn]));
    dxdt[kFacReturn] = (in_f + hx.Q) / (M_f_ * f.specificHeat(x[kFacReturn]));
    const double pi = piOutput(x, u[kSetpoint]);
    dxdt[kIntegral] =
        control_.Kp / control_.Ti * (x[kSupply] - u[kSetpoint]) + (v - pi) / control_.Ti;

    // Pump controller and drive; the differential-pressure reset.
    const double dT = u[kReturnTemp] - x[kSupply];
    const double e_dT = (dT - spec.delta_t_setpoint) / spec.delta_t_setpoint;
    const double dT_reset =
        (reset_ == Reset::CriticalRack ? u[kCriticalReturnTemp] : u[kReturnTemp]) - x[kSupply];
    const double e_reset = (dT_reset - spec.delta_t_setpoint) / spec.delta_t_setpoint;
    const double dp_hi = u[kDpSetpoint];
    const double dp_lo = std::min(spec.dp_min, dp_hi);
    // The reset is a PI itself: proportional on the ΔT error over the setpoint range, so a
    // load step moves the setpoint at once and the integral trims the rest.
    const double range = dp_hi - dp_lo;
    const double R_cmd = x[kReset] + spec.reset_gain * range * e_reset;
    const double R_reset = std::clamp(R_cmd, dp_lo, dp_hi);
    // High-supply override: with the facility water lost the TCS supply rises toward the
    // return, the racks' ΔT collapses and the reset read it as "less flow needed": in the
    // utility loss the pumps on the UPS fell to 0.32 of speed for ~15 s while the supply rose
    // 12 K (physics audit). A supply above its setpoint by more than kOverrideStart suspends
    // the reset (full setpoint at kOverrideStart + kOverrideWidth), as a reset sequence holds
    // its pumps when the loop runs hot; the reset's state tracks the setpoint meanwhile.
    const double z = (x[kSupply] - u[kSetpoint] - kOverrideStart) / kOverrideWidth;
    const double hot = z <= 0.0 ? 0.0 : z >= 1.0 ? 1.0 : z * z * (3.0 - 2.0 * z);  // C¹ step
    const double R = R_reset + hot * (dp_hi - R_reset);
    const bool resets = reset_ != Reset::None;
    if (variable_ == Variable::DifferentialPressure && resets) {
        dxdt[kReset] = (1.0 - hot) * (range / spec.reset_time * e_reset +
                                      (R_reset - R_cmd) / spec.reset_time) +
                       hot * (dp_hi - x[kReset]) / spec.reset_time;
    } else {
        dxdt[kReset] = (dp_hi - x[kReset]) / spec.reset_time;  // tracks the setpoint, unused
    }
    double e = 0.0;
    switch (variable_) {
        case Variable::DifferentialPressure: {
            const double r = resets ? R : dp_hi;
            e = (r - header_dp) / r;
            break;
        }
        case Variable::Flow: {
            const double r = spec.flow_setpoint > 0.0 ? spec.flow_setpoint : spec.secondary_flow;
            e = (r - Q_s) / r;
            break;
        }
        case Variable::DeltaT: {
            // The same high-supply override: the racks' collapsing ΔT would slow the pumps
            // (0.61 to 0.28 of speed in the utility loss, the junction throttling); while the
            // loop runs hot they run for the design secondary flow instead, as the
            // differential-pressure reset goes to its design setpoint.
            const double r = spec.secondary_flow;
            e = (1.0 - hot) * e_dT + hot * (r - Q_s) / r;
            break;
        }
        case Variable::ConstantSpeed:
            break;
    }
    const double Kp = spec.control_gain, Ti = spec.control_integral_time;
    const double s_max = u[kPumpSpeed];
    const double cmd = Kp * e + x[kPumpIntegral];
    const double s_cmd = std::clamp(cmd, std::min(spec.min_speed, s_max), s_max);
    if (variable_ == Variable::ConstantSpeed) {
        dxdt[kPumpIntegral] = (s_max - x[kPumpIntegral]) / Ti;
        dxdt[kSpeed] = (s_max - x[kSpeed]) / spec.drive_time_constant;
    } else {
        dxdt[kPumpIntegral] = Kp * e / Ti + (s_cmd - cmd) / Ti;
        dxdt[kSpeed] = (s_cmd - x[kSpeed]) / spec.drive_time_constant;
    }
}

bool Cdu::outputDependsOnInput(std::size_t o, std::size_t i) const {
    const bool hydraulic_input = i == kPumpsFailed || i >= kFirstValve ||
                                 (i == kPumpSpeed && variable_ == Variable::ConstantSpeed);
    if (o >= kFirstRackFlow) return hydraulic_input;
    switch (o) {
        case kOutSupplyTemp:
        case kOutFacReturnTemp:
            return false;
        case kOutSecondaryFlow:
        case kOutFlowPerRack:
        case kOutPumpPower:
        case kOutPumpHeat:
        case kOutHeaderDp:
        case kOutPumpDp:
            return hydraulic_input;
        case kOutSpeed:
            return i == kPumpsFailed || (i == kPumpSpeed && variable_ == Variable::ConstantSpeed);
        case kOutFacilityFlow:
            return i == kFacFlowAvail || i == kSetpoint;
        case kOutValve:
            return i == kSetpoint;
        case kOutHeat:
            return i == kFacSupplyTemp || i == kFacFlowAvail || i == kSetpoint;
        case kOutApproach:
            return i == kFacSupplyTemp;
        default:
            return true;
    }
}

bool Cdu::outputDependsOnState(std::size_t o, std::size_t s) const {
    if (o >= kFirstRackFlow) return s == kSpeed;
    switch (o) {
        case kOutSupplyTemp:
        case kOutApproach:
            return s == kSupply;
        case kOutFacReturnTemp:
            return s == kFacReturn;
        case kOutSecondaryFlow:
        case kOutFlowPerRack:
        case kOutPumpPower:
        case kOutPumpHeat:
        case kOutHeaderDp:
        case kOutPumpDp:
        case kOutSpeed:
            return s == kSpeed;
        case kOutFacilityFlow:
        case kOutValve:
            return s == kSupply || s == kIntegral;
        default:
            return true;
    }
}

bool Cdu::derivativeDependsOnState(std::size_t row, std::size_t s) const {
    switch (row) {
        case kIntegral:
            return s == kSupply || s == kIntegral;
        case kSupply:
            return s == kSupply || s == kIntegral || s == kSpeed;
        case kFacReturn:
            return s == kSupply || s == kFacReturn || s == kIntegral || s == kSpeed;
        case kReset:
            return s == kReset || s == kSupply;
        case kSpeed:
        case kPumpIntegral:
            return s == kSpeed || s == kPumpIntegral || s == kReset || s == kSupply;
        default:
            return true;
    }
}

bool Cdu::derivativeDependsOnInput(std::size_t row, std::size_t i) const {
    switch (row) {
        case kIntegral:
            return i == kSetpoint;
        case kReset:
            return i == kReturnTemp || i == kDpSetpoint || i == kCriticalReturnTemp;
        case kSpeed:
        case kPumpIntegral:
            return i == kReturnTemp || i == kDpSetpoint || i == kCriticalReturnTemp ||
                   i == kPumpSpeed || i == kPumpsFailed || i >= kFirstValve;
        default:
            return true;
    }
}

}  // namespace dctwin::thermal
