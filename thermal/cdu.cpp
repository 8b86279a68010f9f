#include "thermal/cdu.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

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
                       "facility_volume_L"});
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

CduModel::CduModel(CduSpec spec)
    : spec_(std::move(spec)),
      sec_(Coolant::byName(spec_.secondary_coolant)),
      fac_(Coolant::byName(spec_.facility_coolant)) {
    const double V_s = spec_.secondary_flow, V_f = spec_.facility_flow;
    const double dp = spec_.pump_pressure_rise;
    pump_ = PumpCurve::fromDesignPoint(V_s / spec_.pumps_duty, dp, spec_.pump_efficiency);
    system_ = SystemCurve::throughPoint(V_s, dp);

    const double mdot_s = sec_.massFlow(V_s), mdot_f = fac_.massFlow(V_f);
    const double Q = spec_.capacity;
    const double W = V_s * dp;  // hydraulic work into the coolant at design
    CduDesignPoint& d = design_;
    d.secondary_supply_temp = spec_.secondary_supply_temp;
    d.facility_supply_temp = d.secondary_supply_temp - spec_.approach;
    d.secondary_hx_inlet_temp = sec_.heatedTemperature(d.secondary_supply_temp, mdot_s, Q);
    d.secondary_return_temp = sec_.heatedTemperature(d.secondary_hx_inlet_temp, mdot_s, -W);
    d.facility_return_temp = fac_.heatedTemperature(d.facility_supply_temp, mdot_f, Q);
    const double C_s = mdot_s * sec_.specificHeat(d.secondary_hx_inlet_temp);
    const double C_f = mdot_f * fac_.specificHeat(d.facility_supply_temp);
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
    d.pump_power = spec_.pumps_duty * pump_.electricPower(V_s / spec_.pumps_duty, 1.0);
    ua_ = UaScaling{d.UA,
                    mdot_s,
                    mdot_f,
                    spec_.hot_resistance_fraction,
                    spec_.ua_flow_exponent,
                    spec_.ua_flow_exponent};
    // Operating points at rated speed for every number of running pumps: the pumps run at
    // rated speed in every study, and solving the pump/system intersection in each
    // right-hand-side evaluation cost a tenth of an annual run.
    for (int running = 0; running <= spec_.pumps_installed; ++running) {
        rated_.push_back(pumpOperatingPoint(pump_, running, 1.0, system_,
                                            fmt::format("CDU '{}' secondary pumps", spec_.name)));
    }
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

Cdu::Cdu(std::string name, CduModel model, double racks_served)
    : Cdu(std::move(name), std::move(model), racks_served, Control{}) {}

Cdu::Cdu(std::string name, CduModel model, double racks_served, Control control)
    : Component(std::move(name)),
      model_(std::move(model)),
      racks_(racks_served),
      control_(control) {
    if (!(racks_ >= 1.0)) {
        throw InputError(
            fmt::format("CDU '{}': racks_served = {}; expected ≥ 1", this->name(), racks_));
    }
    if (!(control_.Kp > 0 && control_.Ti > 0 && control_.valve_min > 0 && control_.valve_min < 1 &&
          control_.valve_start >= 0 && control_.valve_start <= 1)) {
        throw InputError(fmt::format(
            "CDU '{}': control Kp = {}, Ti = {} s, valve_min = {}, "
            "valve_start = {}; expected Kp > 0, Ti > 0, 0 < valve_min "
            "< 1, 0 ≤ valve_start ≤ 1",
            this->name(), control_.Kp, control_.Ti, control_.valve_min, control_.valve_start));
    }
    const CduSpec& s = model_.spec();
    const CduDesignPoint& d = model_.design();
    M_s_ = model_.secondaryCoolant().referenceDensity() * s.secondary_volume;
    M_f_ = model_.facilityCoolant().referenceDensity() * s.facility_volume;
    addState({"secondary_supply_temp", "K", d.secondary_supply_temp, d.secondary_supply_temp,
              "secondary (TCS) supply temperature, HX outlet node"});
    addState({"facility_return_temp", "K", d.facility_return_temp, d.facility_return_temp,
              "facility (FWS) return temperature, HX outlet node"});
    addState({"valve_integral", "1", 1.0, control_.valve_start, "PI integral of the valve"});
    addInput({"secondary_return_temp", "K", d.secondary_return_temp, d.secondary_return_temp,
              "secondary return temperature from the racks"});
    addInput({"facility_supply_temp", "K", d.facility_supply_temp, d.facility_supply_temp,
              "facility water supply temperature"});
    addInput({"facility_flow_available", "m3/s", s.facility_flow, s.facility_flow,
              "facility flow with the valve fully open"});
    addInput({"supply_temp_setpoint", "K", d.secondary_supply_temp, d.secondary_supply_temp,
              "secondary supply temperature setpoint"});
    addInput({"pump_speed", "1", 1.0, 1.0, "secondary pump speed, fraction of rated"});
    addInput({"pumps_failed", "1", 1.0, 0.0, "failed secondary pumps"});
    addOutput({"secondary_supply_temp", "K", d.secondary_supply_temp, 0.0,
               "secondary supply temperature"});
    addOutput(
        {"facility_return_temp", "K", d.facility_return_temp, 0.0, "facility return temperature"});
    addOutput({"secondary_flow", "m3/s", s.secondary_flow, 0.0, "secondary flow"});
    addOutput({"flow_per_rack", "m3/s", s.secondary_flow / racks_, 0.0, "secondary flow per rack"});
    addOutput({"facility_flow", "m3/s", s.facility_flow, 0.0, "facility flow drawn"});
    addOutput({"valve_position", "1", 1.0, 0.0, "facility valve position"});
    addOutput({"heat_transferred", "W", s.capacity, 0.0, "heat handed to the facility loop"});
    addOutput({"pump_power", "W", std::max(1.0, d.pump_power), 0.0,
               "electric input of the secondary pumps"});
    addOutput({"approach", "K", std::max(0.5, s.approach), 0.0,
               "secondary supply minus facility supply temperature"});
    addOutput({"pump_heat", "W", std::max(1.0, s.secondary_flow * s.pump_pressure_rise), 0.0,
               "pump work dissipated in the secondary coolant"});
}

double Cdu::piOutput(std::span<const double> x, double setpoint) const {
    return control_.Kp * (x[kSupply] - setpoint) + x[kIntegral];
}

double Cdu::valvePosition(std::span<const double> x, double setpoint) const {
    return std::clamp(piOutput(x, setpoint), control_.valve_min, 1.0);
}

double Cdu::pumpHeat(double pump_speed, double pumps_failed) const {
    const PumpOperatingPoint op = model_.pumps(pump_speed, pumps_failed);
    return op.flow * op.pressure_rise;
}

double Cdu::storedEnergy(std::span<const double> x) const {
    return M_s_ * model_.secondaryCoolant().enthalpy(x[kSupply]) +
           M_f_ * model_.facilityCoolant().enthalpy(x[kFacReturn]);
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
    const Coolant& s = model_.secondaryCoolant();
    const Coolant& f = model_.facilityCoolant();
    auto temp = [&](std::size_t i, const char* port, const Coolant& c) {
        if (!(u[i] >= c.minTemperature() && u[i] <= c.maxTemperature())) {
            throw InputError(fmt::format(
                "CDU '{}': {} = {:.2f} K ({:.2f} °C) is outside the {} table, {:.1f}..{:.1f} °C",
                name(), port, u[i], units::kelvinToCelsius(u[i]), c.name(),
                units::kelvinToCelsius(c.minTemperature()),
                units::kelvinToCelsius(c.maxTemperature())));
        }
    };
    // computeOutputs must not read secondary_return_temp: no output depends on it, so the
    // System may evaluate the CDU before the racks and hand it a stale value.
    if (with_return) temp(kReturnTemp, "secondary_return_temp", s);
    temp(kFacSupplyTemp, "facility_supply_temp", f);
    temp(kSetpoint, "supply_temp_setpoint", s);
}

void Cdu::computeOutputs(double, std::span<const double> x, std::span<const double> u,
                         std::span<double> y) const {
    checkInputs(u, false);
    const PumpOperatingPoint op = model_.pumps(u[kPumpSpeed], u[kPumpsFailed]);
    const double v = valvePosition(x, u[kSetpoint]);
    const double V_f = v * u[kFacFlowAvail];
    const Coolant& f = model_.facilityCoolant();
    y[kOutSupplyTemp] = x[kSupply];
    y[kOutFacReturnTemp] = x[kFacReturn];
    y[kOutSecondaryFlow] = op.flow;
    y[kOutFlowPerRack] = op.flow / racks_;
    y[kOutFacilityFlow] = V_f;
    y[kOutValve] = v;
    y[kOutHeat] = f.massFlow(V_f) * (f.enthalpy(x[kFacReturn]) - f.enthalpy(u[kFacSupplyTemp]));
    y[kOutPumpPower] = op.power;
    y[kOutApproach] = x[kSupply] - u[kFacSupplyTemp];
    y[kOutPumpHeat] = op.flow * op.pressure_rise;
}

void Cdu::computeDerivatives(double, std::span<const double> x, std::span<const double> u,
                             std::span<double> dxdt) const {
    checkInputs(u, true);
    const Coolant& s = model_.secondaryCoolant();
    const Coolant& f = model_.facilityCoolant();
    const PumpOperatingPoint op = model_.pumps(u[kPumpSpeed], u[kPumpsFailed]);
    const double W = op.flow * op.pressure_rise;
    const double mdot_s = s.massFlow(op.flow);
    const double v = valvePosition(x, u[kSetpoint]);
    const double V_f = v * u[kFacFlowAvail];
    const double mdot_f = f.massFlow(V_f);
    const double T_hx_in = s.heatedTemperature(u[kReturnTemp], mdot_s, W);
    const HxResult hx = model_.exchange(T_hx_in, u[kFacSupplyTemp], op.flow, V_f);
    const double in_s = mdot_s * (s.enthalpy(u[kReturnTemp]) - s.enthalpy(x[kSupply])) + W;
    dxdt[kSupply] = (in_s - hx.Q) / (M_s_ * s.specificHeat(x[kSupply]));
    const double in_f = mdot_f * (f.enthalpy(u[kFacSupplyTemp]) - f.enthalpy(x[kFacReturn]));
    dxdt[kFacReturn] = (in_f + hx.Q) / (M_f_ * f.specificHeat(x[kFacReturn]));
    const double pi = piOutput(x, u[kSetpoint]);
    dxdt[kIntegral] =
        control_.Kp / control_.Ti * (x[kSupply] - u[kSetpoint]) + (v - pi) / control_.Ti;
}

bool Cdu::outputDependsOnInput(std::size_t o, std::size_t i) const {
    switch (o) {
        case kOutSupplyTemp:
        case kOutFacReturnTemp:
            return false;
        case kOutSecondaryFlow:
        case kOutFlowPerRack:
        case kOutPumpPower:
        case kOutPumpHeat:
            return i == kPumpSpeed || i == kPumpsFailed;
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
            return false;
        case kOutFacilityFlow:
        case kOutValve:
            return s == kSupply || s == kIntegral;
        default:
            return true;
    }
}

bool Cdu::derivativeDependsOnState(std::size_t row, std::size_t s) const {
    if (row == kIntegral) return s == kSupply || s == kIntegral;
    if (row == kSupply) return s == kSupply || s == kIntegral;
    return true;
}

bool Cdu::derivativeDependsOnInput(std::size_t row, std::size_t i) const {
    if (row == kIntegral) return i == kSetpoint;
    return true;
}

}  // namespace dctwin::thermal
