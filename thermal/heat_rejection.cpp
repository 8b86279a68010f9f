#include "thermal/heat_rejection.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/errors.h"
#include "core/units.h"
#include "core/weather/psychrometrics.h"
#include "thermal/catalog.h"
#include "thermal/hydraulics.h"
#include "thermal/illinois.h"
#include "thermal/water.h"

namespace dctwin::thermal {
namespace {

double cpMoist(double W) { return 1006.0 + 1860.0 * W; }  // [J/(kg_da·K)]

double celsius(double K) { return units::kelvinToCelsius(K); }

/// The fraction f in (0, 1) (air flow or pad wetting) where g(f) = 0, g decreasing in f,
/// given g(0) > 0 > g(1) = g_at_1 (the caller has evaluated full air already). g is in kelvin
/// (the outlet's excess over the setpoint, or the heat still to reject over C_w).
/// Illinois (bracketed secant): superlinear, never leaves the bracket, and ends at round-off so
/// finite-difference Jacobians of the caller stay clean.
template <class G>
double solveFraction(G&& g, double g_at_1) {
    const double g_at_0 = g(0.0);  // > 0 > g_at_1
    return illinois(g, 0.0, 1.0, g_at_0, g_at_1, 1e-12, 1e-15);
}

/// One point of a fraction search: the fraction, g there and its slope dg/df (NaN where not
/// known).
struct FractionPoint {
    double f = 0.0;
    double g = 0.0;
    double dg = std::numeric_limits<double>::quiet_NaN();
};

/// Where the cubic Hermite interpolant of the inverse f(g) through two points (values and
/// slopes) takes g = 0. Through points at distances e₁, e₂ from the root it is off by
/// O(e₁²·e₂²), where a Newton step from the nearer one is off by O(e²). NaN where a slope is
/// unknown or not negative, or the points coincide in g.
double hermiteInverseRoot(const FractionPoint& p, const FractionPoint& q) {
    if (!(p.dg < 0.0) || !(q.dg < 0.0) || p.g == q.g) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    // f(g) on s = (g − g_p)/(g_q − g_p): f = f_p at s = 0, f_q at s = 1, df/ds = (g_q − g_p)/g'.
    const double h = q.g - p.g, s = -p.g / h;
    const double s2 = s * s, s3 = s2 * s;
    return (2.0 * s3 - 3.0 * s2 + 1.0) * p.f + (s3 - 2.0 * s2 + s) * (h / p.dg) +
           (3.0 * s2 - 2.0 * s3) * q.f + (s3 - s2) * (h / q.dg);
}

/// The fraction f in (0, 1) where g(f) = 0 for g decreasing, given the ends g(0) > 0 > g(1)
/// (with their slopes where the caller knows them), from `gs(f)` = {g, dg/df}. The first trial
/// is the inverse Hermite through the two ends, each later one the inverse Hermite through the
/// last two trials, else a Newton step from the last; a candidate outside the bracket the
/// signs keep gives way to the bracket's secant, then to its midpoint. Stops as
/// solveFraction() does, at |g| < 1e-12 (round-off of the caller's kelvin). The dry cooler's
/// fan search takes 3.9 trials a search in the reference year (5.2 from the chord with Newton
/// steps only, 9.4 as a bracketed secant), its pad search 2.0 in bench case 4 (3.1 and 6.0).
/// Issue 12.
template <class GS>
double solveFractionNewton(GS&& gs, FractionPoint lo, FractionPoint hi) {
    double a = 0.0, b = 1.0, ga = lo.g, gb = hi.g;  // ga > 0 > gb
    const auto inside = [&](double v) { return v > a && v < b; };
    double x = hermiteInverseRoot(lo, hi);
    if (!inside(x)) x = ga / (ga - gb);
    if (!inside(x)) x = 0.5;
    FractionPoint prev;  // the trial before the last: none yet (its slope NaN)
    for (int i = 0; i < 100; ++i) {
        const auto [g, dg] = gs(x);
        if (std::abs(g) < 1e-12) return x;
        if (g > 0.0) {
            a = x;
            ga = g;
        } else {
            b = x;
            gb = g;
        }
        if (b - a < 1e-15) return x;
        const FractionPoint here{x, g, dg};
        double next = hermiteInverseRoot(prev, here);
        prev = here;
        // A slope of the wrong sign (a kink) gives no Newton step: the bracket's secant.
        if (!inside(next)) next = dg < 0.0 ? x - g / dg : std::numeric_limits<double>::quiet_NaN();
        // A step below 1e-9 leaves an error of ~(g''/2g')·1e-18 at most: round-off, so its
        // landing point is returned without a trial to confirm it.
        if (inside(next) && std::abs(next - x) < 1e-9) return next;
        if (!inside(next)) next = (a * gb - b * ga) / (gb - ga);
        if (!inside(next)) next = 0.5 * (a + b);
        x = next;
    }
    return x;
}

/// Freeze protection of the water side: heat removed is limited so the outlet stays at or
/// above the coolant table's lowest temperature (the unit would be throttled or drained long
/// before; this keeps trial evaluations of the controllers defined in frost).
double capHeat(const Coolant& c, double T_in, double mdot, double Q) {
    if (!(mdot > 0.0) || Q <= 0.0) return Q;
    return std::min(Q, mdot * (c.enthalpy(T_in) - c.enthalpy(c.minTemperature())));
}

void checkWaterSide(std::string_view where, const Coolant& c, double T_in, double flow,
                    double setpoint) {
    auto inTable = [&](double T) { return T >= c.minTemperature() && T <= c.maxTemperature(); };
    if (!inTable(T_in) || !inTable(setpoint) || !(flow >= 0.0) || !std::isfinite(flow)) {
        throw InputError(fmt::format(
            "{}: inlet {:.2f} °C, setpoint {:.2f} °C, flow {} m3/s; expected temperatures "
            "within the {} table ({:.1f}..{:.1f} °C) and a finite flow ≥ 0",
            where, celsius(T_in), celsius(setpoint), flow, c.name(), celsius(c.minTemperature()),
            celsius(c.maxTemperature())));
    }
}

}  // namespace

namespace {
/// The wet-bulb line of the ambient air (the wet bulb capped at the dry bulb, as the weather
/// checks allow it 0.05 K above): its humidity ratio at the dry bulb is the ambient one, and
/// pads move the air along it.
psychro::WetBulbLine ambientLine(const AmbientAir& a) {
    return psychro::WetBulbLine(std::min(a.wet_bulb, a.dry_bulb), a.pressure);
}

/// checkAmbient(), with the ambient wet-bulb line it computed the humidity ratio on.
std::pair<psychro::WetBulbLine, double> checkedAmbient(const AmbientAir& a,
                                                       std::string_view where) {
    const bool ok = a.dry_bulb >= units::celsiusToKelvin(-50.0) &&
                    a.dry_bulb <= units::celsiusToKelvin(60.0) &&
                    a.wet_bulb >= units::celsiusToKelvin(-50.0) &&
                    a.wet_bulb <= a.dry_bulb + 0.05 && a.pressure >= 50e3 && a.pressure <= 110e3;
    if (!ok) {
        throw InputError(fmt::format(
            "{}: ambient dry bulb {:.2f} °C, wet bulb {:.2f} °C, pressure {:.0f} Pa; expected "
            "dry bulb -50..60 °C, wet bulb -50 °C..dry bulb, pressure 50..110 kPa",
            where, celsius(a.dry_bulb), celsius(a.wet_bulb), a.pressure));
    }
    // The psychrometric equation gives W < 0 when the wet bulb lies below that of perfectly
    // dry air at this dry bulb: no such air exists.
    const psychro::WetBulbLine line = ambientLine(a);
    const double W = line.humidityRatio(a.dry_bulb);
    if (W < 0.0) {
        throw InputError(fmt::format(
            "{}: ambient wet bulb {:.2f} °C is below the wet bulb of dry air at {:.2f} °C dry "
            "bulb and {:.0f} Pa (humidity ratio would be negative); check the weather data",
            where, celsius(a.wet_bulb), celsius(a.dry_bulb), a.pressure));
    }
    return {line, W};
}

/// A unit whose fans or pads modulate to the setpoint meets it by construction: its search
/// stops at the setting whose outlet is the setpoint, so nothing is unmet, even where the
/// outlet computed at that setting lies a few ulps above (1e-14 … 1e-12 K). Read as a miss,
/// that round-off made 11,331 of the 52,561 samples of the two-hall campus year "above the
/// setpoint". Only a unit at its limit (fans at their maximum, pads fully wet) reports a
/// shortfall.
template <class Outputs>
Outputs heldAtSetpoint(Outputs o) {
    o.setpoint_unmet = 0.0;
    return o;
}
}  // namespace

double checkAmbient(const AmbientAir& a, std::string_view where) {
    return checkedAmbient(a, where).second;
}

double ambientHumidityRatio(const AmbientAir& a) {
    return ambientLine(a).humidityRatio(a.dry_bulb);
}

FanState stageFans(const FanStaging& s, double f) {
    FanState st;
    if (!(f > 0.0)) return st;
    f = std::min(f, 1.0);
    if (f >= s.min_speed) {
        st.running = s.fans;
        st.speed = f;
    } else {
        st.running = std::max(1, static_cast<int>(std::ceil(f * s.fans / s.min_speed - 1e-12)));
        st.running = std::min(st.running, s.fans);
        st.speed = f * s.fans / st.running;
    }
    st.power = st.running * s.rated_power * st.speed * st.speed * st.speed;
    return st;
}

// ------------------------------------------------------------------------------ dry cooler

DryCoolerSpec DryCoolerSpec::fromJson(const JsonView& v, std::string name) {
    checkEntryKeys(v, {"capacity_kW",
                       "capacity_W",
                       "capacity_MW",
                       "rating_inlet_temp_C",
                       "rating_outlet_temp_C",
                       "rating_dry_bulb_C",
                       "rating_wet_bulb_C",
                       "air_flow_m3s",
                       "fan_power_kW",
                       "fan_power_W",
                       "fans_per_unit",
                       "min_fan_speed",
                       "air_flow_exponent",
                       "water_flow_exponent",
                       "air_resistance_fraction",
                       "coolant",
                       "adiabatic",
                       "saturation_effectiveness",
                       "switch_over_temp_C",
                       "switch_band_K",
                       "spray_overhead"});
    DryCoolerSpec s;
    s.name = std::move(name);
    s.capacity = v.quantity("capacity", {"W", "kW", "MW"});
    s.rating_inlet_temp = v.quantity("rating_inlet_temp", {"C"});
    s.rating_outlet_temp = v.quantity("rating_outlet_temp", {"C"});
    s.rating_dry_bulb = v.quantity("rating_dry_bulb", {"C"});
    s.rating_wet_bulb = v.quantity("rating_wet_bulb", {"C"});
    s.air_flow = v.quantity("air_flow", {"m3s"});
    s.fan_power = v.quantity("fan_power", {"W", "kW"});
    s.fans_per_unit = v.count("fans_per_unit", 1, 1000, s.fans_per_unit);
    s.min_fan_speed = v.number("min_fan_speed", s.min_fan_speed);
    s.air_flow_exponent = v.number("air_flow_exponent", s.air_flow_exponent);
    s.water_flow_exponent = v.number("water_flow_exponent", s.water_flow_exponent);
    s.air_resistance_fraction = v.number("air_resistance_fraction", s.air_resistance_fraction);
    s.coolant = v.string("coolant", s.coolant);
    s.adiabatic = v.boolean("adiabatic", false);
    s.saturation_effectiveness = v.number("saturation_effectiveness", s.saturation_effectiveness);
    s.switch_over_temp = v.quantity("switch_over_temp", {"C"}, s.switch_over_temp);
    s.switch_band = v.quantity("switch_band", {"K"}, s.switch_band);
    s.spray_overhead = v.number("spray_overhead", s.spray_overhead);
    v.requireRange("capacity", s.capacity, 1e3, 1e8, "kW");
    v.requireRange("rating_outlet_temp_C", s.rating_outlet_temp, s.rating_dry_bulb + 0.5,
                   s.rating_inlet_temp - 0.5, "C");
    v.requireRange("rating_wet_bulb_C", s.rating_wet_bulb, 223.15, s.rating_dry_bulb, "C");
    v.requireRange("air_flow_m3s", s.air_flow, 0.1, 1e4);
    v.requireRange("fan_power", s.fan_power, 0.0, 1e7, "kW");
    v.requireRange("fans_per_unit", s.fans_per_unit, 1, 1000);
    v.requireRange("min_fan_speed", s.min_fan_speed, 0.01, 1.0);
    v.requireRange("air_resistance_fraction", s.air_resistance_fraction, 0.05, 0.95);
    // Film coefficients rise with flow as velocity^0.5–0.8 (air over fins, water in tubes); the
    // CDU's exchanger admits the same 0–1.5 (thermal/cdu.cpp).
    v.requireRange("air_flow_exponent", s.air_flow_exponent, 0.0, 1.5);
    v.requireRange("water_flow_exponent", s.water_flow_exponent, 0.0, 1.5);
    v.requireRange("saturation_effectiveness", s.saturation_effectiveness, 0.0, 1.0);
    // The pads are switched on by the dry bulb: outside the EPW dry-bulb range (−70..70 °C)
    // a switch-over point would mean "always" or "never", which `adiabatic` already says.
    v.requireRange("switch_over_temp_C", s.switch_over_temp, 203.15, 343.15, "C");
    v.requireRange("switch_band_K", s.switch_band, 0.01, 20.0);
    v.requireRange("spray_overhead", s.spray_overhead, 0.0, 10.0);
    return s;
}

DryCoolerSpec DryCoolerSpec::fromCatalog(std::string_view name, const Json& overrides,
                                         std::string_view user_path) {
    const Json e = loadCatalogEntry("dry_coolers.json", name, overrides);
    return fromJson(recordView(e, "dry_coolers.json", name, overrides, user_path),
                    std::string(name));
}

DryCooler::DryCooler(DryCoolerSpec spec, int units, std::string_view operating_coolant)
    : spec_(std::move(spec)),
      units_(units),
      coolant_(Coolant::byName(operating_coolant.empty() ? std::string_view(spec_.coolant)
                                                         : operating_coolant)),
      where_(fmt::format("dry cooler '{}'", spec_.name)) {
    const Coolant rated = Coolant::byName(spec_.coolant);
    if (units_ < 1) {
        throw InputError(
            fmt::format("dry cooler '{}': {} units; expected ≥ 1", spec_.name, units_));
    }
    // Rating point of one unit → UA by inverting the cross-flow ε(NTU).
    const double Q = spec_.capacity;
    const double T_in = spec_.rating_inlet_temp, T_out = spec_.rating_outlet_temp;
    const double mdot_w = Q / (rated.enthalpy(T_in) - rated.enthalpy(T_out));
    const AmbientAir air{spec_.rating_dry_bulb, spec_.rating_wet_bulb, 101325.0};
    const double W = ambientHumidityRatio(air);
    const double mdot_a =
        spec_.air_flow / psychro::moistAirSpecificVolume(air.dry_bulb, W, air.pressure);
    const double C_w = mdot_w * rated.specificHeat(T_in), C_a = mdot_a * cpMoist(W);
    const double C_min = std::min(C_w, C_a), C_r = C_min / std::max(C_w, C_a);
    const double eps = Q / (C_min * (T_in - air.dry_bulb));
    if (!(eps > 0.0 && eps < 1.0)) {
        throw InputError(
            fmt::format("dry cooler '{}': the rating point needs effectiveness "
                        "{:.3f}; raise the air flow or the approach",
                        spec_.name, eps));
    }
    const double UA = ntuFromEffectiveness(HxArrangement::CrossflowUnmixed, eps, C_r) * C_min;
    water_flow_design_ = units_ * mdot_w / rated.referenceDensity();
    // Another liquid in the tubes than the rating's re-rates the tube-side film (Dittus–Boelter
    // for a liquid being cooled, Nu = 0.023·Re^0.8·Pr^0.3, Incropera & DeWitt eq. 8.60; the
    // flow exponent is the record's), at the rating's mean liquid temperature.
    const double T_mean = 0.5 * (T_in + T_out);
    const double film =
        filmFactorAtEqualMassFlow(FluidState::of(coolant_, T_mean), FluidState::of(rated, T_mean),
                                  spec_.water_flow_exponent, 0.3);
    ua_ = UaScaling{units_ * UA,
                    units_ * mdot_w,
                    units_ * mdot_a,
                    1.0 - spec_.air_resistance_fraction,
                    spec_.water_flow_exponent,
                    spec_.air_flow_exponent,
                    film,
                    1.0};
    fans_ = FanStaging{units_ * spec_.fans_per_unit, spec_.min_fan_speed,
                       spec_.fan_power / spec_.fans_per_unit};
}

double DryCooler::padsAllowed(double dry_bulb) const {
    if (!spec_.adiabatic) return 0.0;
    return std::clamp((dry_bulb - spec_.switch_over_temp) / spec_.switch_band + 0.5, 0.0, 1.0);
}

DryCooler::Fixed DryCooler::fixedParts(const Inputs& in, const psychro::WetBulbLine& line,
                                       double W_db) const {
    Fixed x;
    x.line = line;
    x.W_db = W_db;
    x.mdot_w = coolant_.massFlow(in.flow);
    x.C_w = x.mdot_w * coolant_.specificHeat(in.inlet_temp);
    if (x.mdot_w > 0.0) {
        x.hA_w = ua_.hotConductance(x.mdot_w);
        x.h_in = coolant_.enthalpy(in.inlet_temp);
        x.dh_frost = x.h_in - coolant_.enthalpy(coolant_.minTemperature());
    }
    return x;
}

DryCooler::AirInlet DryCooler::airInlet(const Inputs& in, const Fixed& x, double pads) const {
    // Pads cool the inlet air along its constant-wet-bulb line by the fraction `pads` of the
    // saturation effectiveness.
    const AmbientAir& a = in.air;
    AirInlet ai{a.dry_bulb, x.W_db};
    // Also at pads = 0 (T = the dry bulb, W = W_db): the derivatives there are the pad search's
    // slope at its dry end.
    if (a.wet_bulb < a.dry_bulb) {
        ai.T = a.dry_bulb - pads * spec_.saturation_effectiveness * (a.dry_bulb - a.wet_bulb);
        const double T_wb = std::min(a.wet_bulb, ai.T);
        const bool on_line = T_wb == x.line.wetBulb();
        ai.W = on_line ? x.line.humidityRatio(ai.T)
                       : psychro::humidityRatioFromWetBulb(ai.T, T_wb, a.pressure);
        if (on_line) {
            // Along the wet bulb: dT = −ε_sat·(T_db − T_wb)·d(pads), W and with it the specific
            // volume and the heat capacity follow T.
            const double dW_dT = x.line.humidityRatioSlope(ai.T, ai.W);
            ai.dT = -spec_.saturation_effectiveness * (a.dry_bulb - a.wet_bulb);
            ai.dv = psychro::moistAirSpecificVolumeSlope(ai.T, ai.W, a.pressure, dW_dT) * ai.dT;
            ai.dcp = 1860.0 * dW_dT * ai.dT;  // cpMoist's slope in W
        }
    }
    ai.v = psychro::moistAirSpecificVolume(ai.T, ai.W, a.pressure);
    ai.cp = cpMoist(ai.W);
    return ai;
}

DryCooler::Outputs DryCooler::trial(const Inputs& in, const Fixed& x, const AirInlet& ai, double f,
                                    double pads) const {
    return trialWith(in, x, ai, f, pads, coilAt(x, ai, in.inlet_temp, f));
}

DryCooler::Outputs DryCooler::trialWith(const Inputs& in, const Fixed& x, const AirInlet& ai,
                                        double f, double pads, const Coil& coil) const {
    Outputs o;
    o.adiabatic_fraction = pads;
    o.air_inlet_temp = ai.T;
    o.air_fraction = f;
    const double mdot_a = coil.air_mass_flow, C_a = mdot_a * ai.cp;
    o.air_mass_flow = mdot_a;
    o.effectiveness = coil.effectiveness;
    o.heat_rejected = coil.heat_rejected;
    // The outlet as Coolant::heatedTemperature(), from the enthalpy computed once.
    o.outlet_temp = x.mdot_w > 0.0
                        ? coolant_.temperatureFromEnthalpy(x.h_in + -o.heat_rejected / x.mdot_w)
                        : in.inlet_temp;
    o.air_outlet_temp = C_a > 0.0 ? ai.T + o.heat_rejected / C_a : ai.T;
    o.heat_to_air = C_a * (o.air_outlet_temp - ai.T);
    const double evaporated = mdot_a * (ai.W - x.W_db);  // [kg/s]
    o.evaporation_rate = std::max(0.0, evaporated) / kMakeupWaterDensity;
    o.spray_water_rate = o.evaporation_rate * (1.0 + spec_.spray_overhead);
    const FanState fs = stageFans(fans_, f);
    o.fans_running = fs.running;
    o.fan_power = fs.power;
    o.setpoint_unmet = std::max(0.0, o.outlet_temp - in.setpoint);
    return o;
}

DryCooler::Coil DryCooler::coilAt(const Fixed& x, const AirInlet& ai, double inlet_temp, double f,
                                  bool pad_slope) const {
    // heatExchange() for cross-flow, unmixed, water hot, air cold, written out so that the
    // heat's derivative in f comes with it (the fan search's Newton steps):
    //   Q = ε(NTU, C_r)·C_min·ΔT,  1/UA = 1/hA_w + 1/hA_a,  hA_a ∝ f^n
    // dUA/df = n·UA²/(hA_a·f) = n·UA·(1 − UA/hA_w)/f; with air the smaller stream (C_min = C_a
    // ∝ f): dNTU/df = (dUA/df)/C_a − NTU/f, dC_r/df = C_r/f, dQ/df = ΔT·C_a·(dε/df + ε/f);
    // with water the smaller: dNTU/df = (dUA/df)/C_w, dC_r/df = −C_r/f, dQ/df = ΔT·C_w·dε/df.
    Coil c;
    c.air_mass_flow = f * units_ * spec_.air_flow / ai.v;
    const double C_a = c.air_mass_flow * ai.cp, C_w = x.C_w;
    const double UA = ua_.conductance(x.mdot_w, x.hA_w, c.air_mass_flow);
    const double C_min = std::min(C_w, C_a), C_max = std::max(C_w, C_a);
    if (!(C_min > 0.0) || !(UA > 0.0)) return c;  // no air or no water: no heat
    const double cr = C_min / C_max;
    const double ntu = UA / C_min;
    const EffectivenessSlope e = effectivenessCrossflowUnmixedSlope(ntu, cr);
    const double dT = inlet_temp - ai.T;
    c.effectiveness = e.eps;
    c.heat_rejected = e.eps * C_min * dT;
    const double dUA = ua_.exponent_cold * UA * (1.0 - UA / x.hA_w) / f;
    if (C_a <= C_w) {
        const double d_eps = e.d_ntu * (dUA / C_a - ntu / f) + e.d_cr * (cr / f);
        c.slope = dT * C_a * (d_eps + e.eps / f);
    } else {
        const double d_eps = e.d_ntu * (dUA / C_w) - e.d_cr * (cr / f);
        c.slope = dT * C_w * d_eps;
    }
    if (pad_slope) {
        // The pads move the air inlet's T, v and c_p (AirInlet's derivatives): ṁ_a ∝ 1/v,
        // C_a = ṁ_a·c_p, UA through ṁ_a as through f (dUA/dṁ_a = dUA/df·f/ṁ_a), ΔT = T_in − T.
        const double dm = -c.air_mass_flow * ai.dv / ai.v;
        const double dC_a = dm * ai.cp + c.air_mass_flow * ai.dcp;
        const double dUA_p = dUA * f / c.air_mass_flow * dm;
        if (C_a <= C_w) {
            const double d_eps = e.d_ntu * (dUA_p / C_a - ntu * dC_a / C_a) + e.d_cr * (dC_a / C_w);
            c.pad_slope = dT * (d_eps * C_a + e.eps * dC_a) - e.eps * C_a * ai.dT;
        } else {
            const double d_eps = e.d_ntu * (dUA_p / C_w) - e.d_cr * (cr * dC_a / C_a);
            c.pad_slope = dT * C_w * d_eps - e.eps * C_w * ai.dT;
        }
    }
    // Freeze protection as capHeat(), from the enthalpies computed once: where it holds, more
    // air rejects no more heat.
    if (x.mdot_w > 0.0 && c.heat_rejected > 0.0 && x.mdot_w * x.dh_frost < c.heat_rejected) {
        c.heat_rejected = x.mdot_w * x.dh_frost;
        c.slope = 0.0;
        c.pad_slope = 0.0;
    }
    return c;
}

double DryCooler::noAirSlope(const AirInlet& ai, double inlet_temp) const {
    // As f → 0 the air is the smaller stream and NTU = UA/C_a ∝ f^(n−1) grows without bound
    // for an air-side exponent n < 1, so ε → 1 and Q → C_a·ΔT (C_a ∝ f): dQ/df = ΔT·dC_a/df.
    // With n ≥ 1 the limit ε stays below 1: the slope is not known.
    if (!(spec_.air_flow_exponent < 1.0)) return std::numeric_limits<double>::quiet_NaN();
    return (inlet_temp - ai.T) * units_ * spec_.air_flow / ai.v * ai.cp;
}

DryCooler::Outputs DryCooler::evaluateAt(const Inputs& in, double f, double pads) const {
    const psychro::WetBulbLine line = ambientLine(in.air);
    const Fixed x = fixedParts(in, line, line.humidityRatio(in.air.dry_bulb));
    return trial(in, x, airInlet(in, x, pads), f, pads);
}

double DryCooler::padHeatSlope(const Inputs& in, double f, double pads) const {
    const psychro::WetBulbLine line = ambientLine(in.air);
    const Fixed x = fixedParts(in, line, line.humidityRatio(in.air.dry_bulb));
    return coilAt(x, airInlet(in, x, pads), in.inlet_temp, f, true).pad_slope;
}

DryCooler::Outputs DryCooler::evaluate(const Inputs& in) const {
    const auto [line, W_db] = checkedAmbient(in.air, where_);
    checkWaterSide(where_, coolant_, in.inlet_temp, in.flow, in.setpoint);
    const Fixed x = fixedParts(in, line, W_db);
    const AirInlet dry = airInlet(in, x, 0.0);
    if (in.inlet_temp <= in.setpoint || in.flow <= 0.0) return trial(in, x, dry, 0.0, 0.0);
    // The fans modulate up to the operator's limit (1 = rated speed); the pads come in at it.
    const double f_max = std::clamp(in.max_fan_speed, 0.0, 1.0);
    const double allowed = padsAllowed(in.air.dry_bulb);
    // The searches find the heat that brings the outlet to the setpoint, Q* = ṁ·(h_in −
    // h(setpoint)): the outlet is above the setpoint exactly when less is rejected, so the
    // root is the outlet search's. Each trial then needs no enthalpy inversion (a third of
    // the plant's cost in the 64-rack annual run, issue 12); the residual is scaled by C_w
    // to kelvin, the units of the solver's tolerance. Only the root is evaluated in full.
    const double Q_set = x.mdot_w * (x.h_in - coolant_.enthalpy(in.setpoint));
    const double per_K = 1.0 / x.C_w;
    // Dry at full fans: compared by its heat (the outlet below the setpoint exactly when more
    // than Q* is rejected), and evaluated in full only where it is the answer.
    const Coil full = coilAt(x, dry, in.inlet_temp, f_max, allowed > 0.0);
    const double Q_dry_full = full.heat_rejected;
    if (Q_dry_full > Q_set) {
        // Dry operation meets the setpoint: fans modulate, pads stay dry (water first saved).
        // g(0) = Q_set/C_w: no air, no heat (coilAt's heat at f = 0 is exactly 0).
        double last_v = -1.0;
        Coil last;
        const double s = solveFractionNewton(
            [&](double v) {
                last_v = v;
                last = coilAt(x, dry, in.inlet_temp, f_max * v);
                return std::pair{(Q_set - last.heat_rejected) * per_K, -last.slope * f_max * per_K};
            },
            {0.0, Q_set * per_K, -noAirSlope(dry, in.inlet_temp) * f_max * per_K},
            {1.0, (Q_set - Q_dry_full) * per_K, -full.slope * f_max * per_K});
        // A search that ends on a trial (rather than on a step too small to try) has its coil.
        return heldAtSetpoint(s == last_v ? trialWith(in, x, dry, f_max * s, 0.0, last)
                                          : trial(in, x, dry, f_max * s, 0.0));
    }
    if (allowed <= 0.0) {
        // Air no colder than the water: bypass instead of heating the water.
        const Outputs dry_full = trialWith(in, x, dry, f_max, 0.0, full);
        return dry_full.heat_rejected > 0.0 ? dry_full : trial(in, x, dry, 0.0, 0.0);
    }
    // Fans at full speed and still short: wet the pads, as little as meets the setpoint.
    // Fully wet pads are compared by their heat, as full air is above, and evaluated in full
    // only where they are the answer (evaluating them in full on every call was ~9 % of the
    // dry cooler's cost in bench case 4, where the pads run all hour).
    const AirInlet wet = airInlet(in, x, allowed);
    const Coil wet_coil = coilAt(x, wet, in.inlet_temp, f_max, true);
    if (wet_coil.heat_rejected <= Q_set) {
        return wet_coil.heat_rejected > 0.0 ? trialWith(in, x, wet, f_max, allowed, wet_coil)
                                            : trial(in, x, dry, 0.0, 0.0);
    }
    // No pads (v = 0) is the dry run at full fans, found above, with its slope in the pads'
    // wetting along the wet bulb. A search that ends on a trial has its air and coil, which
    // the outputs reuse.
    double last_v = -1.0;
    AirInlet last_air;
    Coil last_coil;
    const double s = solveFractionNewton(
        [&](double v) {
            last_v = v;
            last_air = airInlet(in, x, allowed * v);
            last_coil = coilAt(x, last_air, in.inlet_temp, f_max, true);
            return std::pair{(Q_set - last_coil.heat_rejected) * per_K,
                             -last_coil.pad_slope * allowed * per_K};
        },
        {0.0, (Q_set - Q_dry_full) * per_K, -full.pad_slope * allowed * per_K},
        {1.0, (Q_set - wet_coil.heat_rejected) * per_K, -wet_coil.pad_slope * allowed * per_K});
    return heldAtSetpoint(s == last_v
                              ? trialWith(in, x, last_air, f_max, allowed * s, last_coil)
                              : trial(in, x, airInlet(in, x, allowed * s), f_max, allowed * s));
}

// --------------------------------------------------------------------------- cooling tower

CoolingTowerSpec CoolingTowerSpec::fromJson(const JsonView& v, std::string name) {
    checkEntryKeys(v, {"capacity_kW",          "capacity_W",
                       "capacity_MW",          "rating_inlet_temp_C",
                       "rating_outlet_temp_C", "rating_wet_bulb_C",
                       "rating_dry_bulb_C",    "rating_inlet_temp_F",
                       "rating_outlet_temp_F", "rating_wet_bulb_F",
                       "rating_dry_bulb_F",    "liquid_to_gas_ratio",
                       "ntu_exponent",         "fan_gpm_per_hp",
                       "fan_power_kW",         "fans_per_cell",
                       "min_fan_speed",        "latent_fraction",
                       "drift_fraction",       "cycles_of_concentration"});
    CoolingTowerSpec s;
    s.name = std::move(name);
    s.capacity = v.quantity("capacity", {"W", "kW", "MW"});
    s.rating_inlet_temp = v.quantity("rating_inlet_temp", {"C", "F"});
    s.rating_outlet_temp = v.quantity("rating_outlet_temp", {"C", "F"});
    s.rating_wet_bulb = v.quantity("rating_wet_bulb", {"C", "F"});
    s.rating_dry_bulb = v.quantity("rating_dry_bulb", {"C", "F"}, s.rating_inlet_temp);
    s.liquid_to_gas_ratio = v.number("liquid_to_gas_ratio", s.liquid_to_gas_ratio);
    s.ntu_exponent = v.number("ntu_exponent", s.ntu_exponent);
    s.fans_per_cell = v.count("fans_per_cell", 1, 1000, s.fans_per_cell);
    s.min_fan_speed = v.number("min_fan_speed", s.min_fan_speed);
    s.latent_fraction = v.number("latent_fraction", s.latent_fraction);
    s.drift_fraction = v.number("drift_fraction", s.drift_fraction);
    s.cycles_of_concentration = v.number("cycles_of_concentration", s.cycles_of_concentration);
    v.requireRange("capacity", s.capacity, 1e3, 1e8, "kW");
    v.requireRange("rating_outlet_temp", s.rating_outlet_temp, s.rating_wet_bulb + 0.5,
                   s.rating_inlet_temp - 0.5, "C");
    v.requireRange("liquid_to_gas_ratio", s.liquid_to_gas_ratio, 0.2, 5.0);
    v.requireRange("ntu_exponent", s.ntu_exponent, -1.5, 0.0);
    v.requireRange("latent_fraction", s.latent_fraction, 0.0, 1.0);
    v.requireRange("drift_fraction", s.drift_fraction, 0.0, 0.02);
    v.requireRange("cycles_of_concentration", s.cycles_of_concentration, 1.01, 50.0);
    v.requireRange("min_fan_speed", s.min_fan_speed, 0.01, 1.0);
    // Fan power from the rating-point water flow and the 90.1 gpm/hp figure, or given.
    const Coolant water = Coolant::byName("water");
    const double mdot_w =
        s.capacity / (water.enthalpy(s.rating_inlet_temp) - water.enthalpy(s.rating_outlet_temp));
    if (v.has("fan_gpm_per_hp")) {
        const double gpm_per_hp = v.number("fan_gpm_per_hp");
        v.requireRange("fan_gpm_per_hp", gpm_per_hp, 1.0, 1000.0);
        const double gpm = mdot_w / water.referenceDensity() / units::gpm;
        s.fan_power = gpm / gpm_per_hp * units::hp;
    } else {
        s.fan_power = v.quantity("fan_power", {"kW"});
    }
    return s;
}

CoolingTowerSpec CoolingTowerSpec::fromCatalog(std::string_view name, const Json& overrides,
                                               std::string_view user_path) {
    const Json e = loadCatalogEntry("cooling_towers.json", name, overrides);
    return fromJson(recordView(e, "cooling_towers.json", name, overrides, user_path),
                    std::string(name));
}

double CoolingTower::saturatedEnthalpy(double T, double p) const {
    const double W_s = psychro::humidityRatioFromVapourPressure(psychro::saturationPressure(T), p);
    return psychro::moistAirEnthalpy(T, W_s);
}

CoolingTower::CoolingTower(CoolingTowerSpec spec, int cells)
    : spec_(std::move(spec)),
      cells_(cells),
      water_(Coolant::byName("water")),
      where_(fmt::format("cooling tower '{}'", spec_.name)) {
    if (cells_ < 1) {
        throw InputError(
            fmt::format("cooling tower '{}': {} cells; expected ≥ 1", spec_.name, cells_));
    }
    // Rating point of one cell → the NTU coefficient c.
    const double T_wi = spec_.rating_inlet_temp, T_wo = spec_.rating_outlet_temp;
    const double p = spec_.rating_pressure;
    const double Q = spec_.capacity;
    const double mdot_w = Q / (water_.enthalpy(T_wi) - water_.enthalpy(T_wo));
    const double mdot_a = mdot_w / spec_.liquid_to_gas_ratio;
    const AmbientAir air{spec_.rating_dry_bulb, spec_.rating_wet_bulb, p};
    const double W = ambientHumidityRatio(air);
    const double h_ai = psychro::moistAirEnthalpy(air.dry_bulb, W);
    const double c_s = (saturatedEnthalpy(T_wi, p) - saturatedEnthalpy(T_wo, p)) / (T_wi - T_wo);
    const double C_w = mdot_w * water_.specificHeat(T_wi) / c_s;
    const double C_min = std::min(C_w, mdot_a), C_r = C_min / std::max(C_w, mdot_a);
    const double eps = Q / (C_min * (saturatedEnthalpy(T_wi, p) - h_ai));
    if (!(eps > 0.0 && eps < 1.0)) {
        throw InputError(
            fmt::format("cooling tower '{}': the rating point needs an air-side "
                        "effectiveness of {:.3f}; check the rating temperatures and "
                        "L/G",
                        spec_.name, eps));
    }
    const double ntu_air = ntuCounterflow(eps, C_r) * C_min / mdot_a;
    c_ = ntu_air / std::pow(mdot_w / mdot_a, 1.0 + spec_.ntu_exponent);
    water_flow_design_ = cells_ * mdot_w / water_.referenceDensity();
    air_volume_design_ =
        cells_ * mdot_a * psychro::moistAirSpecificVolume(air.dry_bulb, W, air.pressure);
    fans_ = FanStaging{cells_ * spec_.fans_per_cell, spec_.min_fan_speed,
                       spec_.fan_power / spec_.fans_per_cell};
}

CoolingTower::Streams CoolingTower::streams(const Inputs& in, double f) const {
    const AmbientAir& a = in.air;
    Streams s;
    s.W = ambientHumidityRatio(a);
    s.h_ai = psychro::moistAirEnthalpy(a.dry_bulb, s.W);
    s.mdot_w = water_.massFlow(in.flow);
    s.mdot_a =
        f * air_volume_design_ / psychro::moistAirSpecificVolume(a.dry_bulb, s.W, a.pressure);
    return s;
}

CoolingTower::WaterSide CoolingTower::waterSideAt(const Inputs& in, const Streams& s) const {
    const AmbientAir& a = in.air;
    const double h_ai = s.h_ai, mdot_w = s.mdot_w, mdot_a = s.mdot_a;
    const double T_wi = in.inlet_temp;
    if (!(mdot_a > 0.0 && mdot_w > 0.0)) return {0.0, T_wi};
    const double hs_in = saturatedEnthalpy(T_wi, a.pressure);
    const double ntu_air = c_ * std::pow(mdot_w / mdot_a, 1.0 + spec_.ntu_exponent);
    const double UA_h = ntu_air * mdot_a;  // [kg/s] enthalpy conductance
    const double cp_w = water_.specificHeat(T_wi);
    // The outlet g(T_wo) the Merkel effectiveness gives when the saturation line's slope c_s is
    // taken between T_wo and the inlet; its fixed point is the tower's outlet.
    double Q = 0.0;
    auto g = [&](double T_wo) {
        double c_s;
        if (T_wi - T_wo > 1e-6) {
            c_s = (hs_in - saturatedEnthalpy(T_wo, a.pressure)) / (T_wi - T_wo);
        } else {
            c_s = (hs_in - saturatedEnthalpy(T_wi - 1e-3, a.pressure)) / 1e-3;
        }
        const double C_w = mdot_w * cp_w / c_s;
        const HxResult hx =
            heatExchange(HxArrangement::Counterflow, UA_h, C_w, hs_in, mdot_a, h_ai);
        Q = capHeat(water_, T_wi, mdot_w, hx.Q);
        return water_.heatedTemperature(T_wi, mdot_w, -Q);
    };
    // c_s varies slowly, so plain iteration contracts, but by only ~0.15 a step (14 steps to
    // 1e-11 K, measured over a tower year). Secant steps on g(T) − T from the first two
    // iterates reach the same tolerance in ~5, each checked as the plain iteration was: the
    // answer is the g(T) whose change is below 1e-11 K, and Q is that evaluation's.
    double x0 = std::max({a.wet_bulb, T_wi - 5.0, water_.minTemperature()});
    double g0 = g(x0);
    double x1 = g0;
    double g1 = g(x1);
    for (int it = 0; it < 200 && std::abs(g1 - x1) >= 1e-11; ++it) {
        const double h0 = g0 - x0, h1 = g1 - x1;
        double x2 = h1 != h0 ? x1 - h1 * (x1 - x0) / (h1 - h0) : g1;
        // Stay where the plain iteration would go if the secant leaves the physical range.
        if (!(x2 > water_.minTemperature() && x2 < T_wi + 1e-9)) x2 = g1;
        x0 = x1;
        g0 = g1;
        x1 = x2;
        g1 = g(x1);
    }
    return {Q, g1};
}

CoolingTower::Outputs CoolingTower::evaluateAt(const Inputs& in, double f) const {
    Outputs o;
    const AmbientAir& a = in.air;
    const Streams s = streams(in, f);
    const double W = s.W, h_ai = s.h_ai, mdot_w = s.mdot_w, mdot_a = s.mdot_a;
    o.air_fraction = f;
    o.air_mass_flow = mdot_a;
    o.air_inlet_enthalpy = h_ai;
    const double T_wi = in.inlet_temp;
    const auto [Q, T_wo] = waterSideAt(in, s);
    o.heat_rejected = Q;
    o.outlet_temp = T_wo;
    o.air_outlet_enthalpy = mdot_a > 0.0 ? h_ai + Q / mdot_a : h_ai;
    o.approach = T_wo - a.wet_bulb;
    const FanState fs = stageFans(fans_, f);
    o.fans_running = fs.running;
    o.fan_power = fs.power;
    const double h_fg = psychro::latentHeatOfVaporisation(0.5 * (T_wi + T_wo));
    // Latent share of the heat from the air's state change (Merkel: the air leaves saturated
    // at its exit enthalpy): E = ṁ_a·(W_sat(T_ao) − W_in), f_lat = E·h_fg/Q. Cold, dry air
    // takes more of the heat as sensible heat, so a tower evaporates less per kWh in winter
    // than in a desert summer. The catalog's latent fraction (≈0.85, domain-facts C3) caps it:
    // in hot dry air the state change alone would call for more than 100 % latent heat, the
    // water then also cooling the air, which the energy-based balance does not book.
    double f_lat = spec_.latent_fraction;
    if (Q > 0.0 && mdot_a > 0.0) {
        const double h_ao = o.air_outlet_enthalpy;
        double lo = std::min(a.wet_bulb, T_wi) - 30.0, hi = T_wi + 5.0;
        for (int it = 0; it < 30; ++it) {  // 35 K / 2^30: well below a microkelvin
            const double mid = 0.5 * (lo + hi);
            (saturatedEnthalpy(mid, a.pressure) < h_ao ? lo : hi) = mid;
        }
        const double T_ao = 0.5 * (lo + hi);
        const double W_ao =
            psychro::humidityRatioFromVapourPressure(psychro::saturationPressure(T_ao), a.pressure);
        f_lat = std::clamp(mdot_a * std::max(0.0, W_ao - W) * h_fg / Q, 0.0, spec_.latent_fraction);
    }
    const TowerWater w = towerWaterBalance(std::max(0.0, Q), f_lat, h_fg, mdot_w,
                                           spec_.drift_fraction, spec_.cycles_of_concentration);
    o.evaporation_rate = w.evaporation;
    o.drift_rate = w.drift;
    o.blowdown_rate = w.blowdown;
    o.makeup_rate = w.makeup;
    o.setpoint_unmet = std::max(0.0, o.outlet_temp - in.setpoint);
    return o;
}

CoolingTower::Outputs CoolingTower::evaluate(const Inputs& in) const {
    checkAmbient(in.air, where_);
    checkWaterSide(where_, water_, in.inlet_temp, in.flow, in.setpoint);
    if (in.inlet_temp <= in.setpoint || in.flow <= 0.0) return evaluateAt(in, 0.0);
    const double f_max = std::clamp(in.max_fan_speed, 0.0, 1.0);
    const Outputs full = evaluateAt(in, f_max);
    if (full.heat_rejected <= 0.0) return evaluateAt(in, 0.0);
    if (full.outlet_temp >= in.setpoint) return full;
    // The fan search needs the outlet alone (the latent split and water balance once, after).
    const double f =
        f_max * solveFraction(
                    [&](double x) {
                        return waterSideAt(in, streams(in, f_max * x)).outlet_temp - in.setpoint;
                    },
                    full.outlet_temp - in.setpoint);
    return heldAtSetpoint(evaluateAt(in, f));
}

// -------------------------------------------------------------------------------- chiller

ChillerSpec ChillerSpec::fromJson(const JsonView& v, std::string name) {
    checkEntryKeys(v, {"kind", "capacity_kW", "capacity_W", "capacity_MW", "cop_ref", "capft",
                       "eirft", "eirfplr", "chw_leaving_min_C", "chw_leaving_max_C",
                       "cw_entering_min_C", "cw_entering_max_C", "plr_min", "second_law_efficiency",
                       "evaporator_offset_K", "condenser_offset_K"});
    ChillerSpec s;
    s.name = std::move(name);
    s.kind = v.choice("kind", {"eir", "carnot"}) == "eir" ? Kind::Eir : Kind::Carnot;
    s.capacity = v.quantity("capacity", {"W", "kW", "MW"});
    v.requireRange("capacity", s.capacity, 1e3, 1e8, "kW");
    if (s.kind == Kind::Eir) {
        s.cop_ref = v.number("cop_ref");
        auto arr = [&](std::string_view key, auto& out) {
            const auto e = v.at(key).elements();
            if (e.size() != out.size()) {
                v.fail(key, fmt::format("expected {} coefficients, got {}", out.size(), e.size()));
            }
            for (std::size_t i = 0; i < out.size(); ++i) out[i] = e[i].asNumber();
        };
        arr("capft", s.capft);
        arr("eirft", s.eirft);
        arr("eirfplr", s.eirfplr);
        s.chw_min = v.quantity("chw_leaving_min", {"C"});
        s.chw_max = v.quantity("chw_leaving_max", {"C"});
        s.cw_min = v.quantity("cw_entering_min", {"C"});
        s.cw_max = v.quantity("cw_entering_max", {"C"});
        s.plr_min = v.number("plr_min", s.plr_min);
        v.requireRange("cop_ref", s.cop_ref, 0.5, 30.0);
        v.requireRange("plr_min", s.plr_min, 0.0, 1.0);
        if (!(s.chw_min < s.chw_max) || !(s.cw_min < s.cw_max)) {
            v.fail("curve ranges must have min < max");
        }
    } else {
        s.second_law_efficiency = v.number("second_law_efficiency");
        s.evaporator_offset = v.quantity("evaporator_offset", {"K"}, s.evaporator_offset);
        s.condenser_offset = v.quantity("condenser_offset", {"K"}, s.condenser_offset);
        v.requireRange("second_law_efficiency", s.second_law_efficiency, 0.05, 1.0);
    }
    return s;
}

ChillerSpec ChillerSpec::fromCatalog(std::string_view name, const Json& overrides,
                                     std::string_view user_path) {
    const Json e = loadCatalogEntry("chillers.json", name, overrides);
    return fromJson(recordView(e, "chillers.json", name, overrides, user_path), std::string(name));
}

Chiller::Chiller(ChillerSpec spec) : spec_(std::move(spec)) {}

double Chiller::biquadratic(const std::array<double, 6>& c, double x, double y) {
    return c[0] + c[1] * x + c[2] * x * x + c[3] * y + c[4] * y * y + c[5] * x * y;
}

Chiller::Outputs Chiller::evaluate(double load, double T_chw, double T_cw) const {
    if (!(load >= 0.0) || !std::isfinite(load) || !(T_chw > 250.0 && T_chw < 340.0) ||
        !(T_cw > 230.0 && T_cw < 340.0)) {
        throw InputError(
            fmt::format("chiller '{}': load {} W, leaving chilled water {:.2f} °C, "
                        "entering condenser {:.2f} °C; expected load ≥ 0 and "
                        "temperatures -23..67 °C",
                        spec_.name, load, celsius(T_chw), celsius(T_cw)));
    }
    Outputs o;
    if (spec_.kind == ChillerSpec::Kind::Eir) {
        const double x = std::clamp(T_chw, spec_.chw_min, spec_.chw_max);
        const double y = std::clamp(T_cw, spec_.cw_min, spec_.cw_max);
        o.clamped = x != T_chw || y != T_cw;
        const double xc = celsius(x), yc = celsius(y);
        o.capacity = spec_.capacity * std::max(0.0, biquadratic(spec_.capft, xc, yc));
        o.cooling = std::min(load, o.capacity);
        o.plr = o.capacity > 0.0 ? o.cooling / o.capacity : 0.0;
        const auto& e = spec_.eirfplr;
        const double p = std::max(o.plr, spec_.plr_min);
        const double eirfplr = e[0] + e[1] * p + e[2] * p * p;
        const double cycling = o.plr < spec_.plr_min ? o.plr / spec_.plr_min : 1.0;
        o.power = o.capacity / spec_.cop_ref * std::max(0.0, biquadratic(spec_.eirft, xc, yc)) *
                  eirfplr * cycling;
    } else {
        const double T_evap = T_chw - spec_.evaporator_offset;
        // A minimum lift of 5 K keeps the Carnot COP finite when condenser water is cold.
        const double T_cond = std::max(T_cw + spec_.condenser_offset, T_evap + 5.0);
        const double cop = spec_.second_law_efficiency * T_evap / (T_cond - T_evap);
        o.capacity = spec_.capacity;
        o.cooling = std::min(load, o.capacity);
        o.plr = o.cooling / o.capacity;
        o.power = o.cooling / cop;
    }
    o.cop = o.power > 0.0 ? o.cooling / o.power : 0.0;
    o.heat_to_condenser = o.cooling + o.power;
    return o;
}

EconomizerMode economizerMode(double T_return, double T_after, double T_set) {
    if (T_after <= T_set) return EconomizerMode::Economizer;
    if (T_after < T_return) return EconomizerMode::Integrated;
    return EconomizerMode::Mechanical;
}

// -------------------------------------------------------------------------- ASHRAE classes

AshraeLiquidClass loadAshraeClass(std::string_view name) {
    const Json e = loadCatalogEntry("ashrae_liquid_classes.json", name);
    const JsonView v(e, fmt::format("ashrae_liquid_classes.json/{}", name));
    checkEntryKeys(v, {"max_supply_temp_C", "min_supply_temp_C", "typical_heat_rejection"});
    AshraeLiquidClass c;
    c.name = std::string(name);
    c.max_supply_temp = v.quantity("max_supply_temp", {"C"});
    c.min_supply_temp = v.quantity("min_supply_temp", {"C"});
    c.typical_heat_rejection = v.string("typical_heat_rejection", "");
    return c;
}

double facilitySupplySetpoint(const AshraeLiquidClass& cls, double margin) {
    if (!(margin >= 0.0) || cls.max_supply_temp - margin < cls.min_supply_temp) {
        throw InputError(
            fmt::format("ASHRAE class {}: margin {} K leaves the setpoint below the "
                        "class minimum {:.1f} °C",
                        cls.name, margin, celsius(cls.min_supply_temp)));
    }
    return cls.max_supply_temp - margin;
}

// ----------------------------------------------------------------------------- components

DryCoolerComponent::DryCoolerComponent(std::string name, DryCooler model)
    : Component(std::move(name)), model_(std::move(model)) {
    const auto& s = model_.spec();
    const double Qn = s.capacity * model_.units();
    addInput(kInletTemp, {"inlet_temp", "K", s.rating_inlet_temp, s.rating_inlet_temp, "water in"});
    addInput(kFlow,
             {"flow", "m3/s", model_.designWaterFlow(), model_.designWaterFlow(), "water flow"});
    addInput(kSetpoint, {"setpoint", "K", s.rating_outlet_temp, s.rating_outlet_temp,
                         "leaving water setpoint"});
    addInput(kDryBulb, {"dry_bulb", "K", 300.0, s.rating_dry_bulb, "ambient dry bulb"});
    addInput(kWetBulb, {"wet_bulb", "K", 300.0, s.rating_wet_bulb, "ambient wet bulb"});
    addInput(kPressure, {"pressure", "Pa", 101325.0, 101325.0, "station pressure"});
    addOutput(kOutletTemp, {"outlet_temp", "K", s.rating_outlet_temp, 0.0, "water out"});
    addOutput(kHeat, {"heat_rejected", "W", Qn, 0.0, "heat rejected to air"});
    addOutput(kFanPower,
              {"fan_power", "W", std::max(1.0, s.fan_power * model_.units()), 0.0, "fans"});
    addOutput(kAirFraction, {"air_fraction", "1", 1.0, 0.0, "air flow fraction of rated"});
    addOutput(kAirInletTemp,
              {"air_inlet_temp", "K", s.rating_dry_bulb, 0.0, "air after adiabatic pads"});
    addOutput(kSpray, {"spray_water_rate", "m3/s", 1e-4, 0.0, "adiabatic spray water"});
    addOutput(kEvaporation,
              {"evaporation_rate", "m3/s", 1e-4, 0.0, "water evaporated by the pads"});
    addOutput(kUnmet, {"setpoint_unmet", "K", 1.0, 0.0, "leaving water above setpoint"});
}

void DryCoolerComponent::computeOutputs(double, std::span<const double>, std::span<const double> u,
                                        std::span<double> y) const {
    const DryCooler::Outputs o =
        model_.evaluate({u[kInletTemp], u[kFlow], u[kSetpoint],
                         AmbientAir{u[kDryBulb], u[kWetBulb], u[kPressure]}});
    y[kOutletTemp] = o.outlet_temp;
    y[kHeat] = o.heat_rejected;
    y[kFanPower] = o.fan_power;
    y[kAirFraction] = o.air_fraction;
    y[kAirInletTemp] = o.air_inlet_temp;
    y[kSpray] = o.spray_water_rate;
    y[kEvaporation] = o.evaporation_rate;
    y[kUnmet] = o.setpoint_unmet;
}

}  // namespace dctwin::thermal
