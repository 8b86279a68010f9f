#include "thermal/air_side.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/errors.h"
#include "core/units.h"
#include "thermal/catalog.h"

namespace dctwin::thermal {
namespace {

// Dry air at the room state: the coil is sensible-only (water above the dew point, B5), so a
// constant c_p and the density at 101.325 kPa are adequate.
constexpr double kAirCp = 1006.0;            // [J/(kg·K)]
constexpr double kAirGasConstant = 287.042;  // [J/(kg·K)]
constexpr double kAirPressure = 101325.0;    // [Pa]
constexpr double kEconomizerBand = 1.0;      // [K] damper closing band below the high limit

double airDensity(double T) { return kAirPressure / (kAirGasConstant * T); }

}  // namespace

AirCoilSpec AirCoilSpec::fromJson(const JsonView& v, std::string name) {
    checkEntryKeys(v, {"kind", "capacity_kW", "capacity_W", "rating_room_temp_C",
                       "rating_water_temp_C", "air_flow_m3s", "water_flow_Lpm", "water_flow_m3s",
                       "fan_power_kW", "fan_power_W", "coolant"});
    AirCoilSpec s;
    s.name = std::move(name);
    const std::string kind = v.choice("kind", {"rear_door_passive", "rear_door_active", "crah"});
    s.kind = kind == "crah"               ? Kind::Crah
             : kind == "rear_door_active" ? Kind::RearDoorActive
                                          : Kind::RearDoorPassive;
    s.capacity = v.quantity("capacity", {"W", "kW"});
    s.rating_room_temp = v.quantity("rating_room_temp", {"C"});
    s.rating_water_temp = v.quantity("rating_water_temp", {"C"});
    s.air_flow = v.quantity("air_flow", {"m3s"});
    s.water_flow = v.quantity("water_flow", {"Lpm", "m3s"});
    s.fan_power = v.quantity("fan_power", {"W", "kW"}, 0.0);
    s.coolant = v.string("coolant", s.coolant);
    v.requireRange("capacity", s.capacity, 100.0, 1e7, "kW");
    v.requireRange("rating_water_temp_C", s.rating_water_temp, 273.15, s.rating_room_temp - 0.5,
                   "C");
    v.requireRange("air_flow_m3s", s.air_flow, 1e-3, 1e3);
    v.requireRange("water_flow", s.water_flow, 1e-6, 10.0, "Lpm");
    v.requireRange("fan_power", s.fan_power, 0.0, 1e6, "kW");
    if (s.kind == Kind::RearDoorPassive && s.fan_power > 0.0) {
        v.fail("fan_power_kW", "a passive rear door has no fans; use kind rear_door_active");
    }
    return s;
}

AirCoilSpec AirCoilSpec::fromCatalog(std::string_view name, const Json& overrides,
                                     std::string_view user_path) {
    const Json e = loadCatalogEntry("air_side.json", name, overrides);
    return fromJson(recordView(e, "air_side.json", name, overrides, user_path), std::string(name));
}

AirCoil::AirCoil(AirCoilSpec spec, double units)
    : spec_(std::move(spec)), units_(units), coolant_(Coolant::byName(spec_.coolant)) {
    if (!(units_ > 0.0)) {
        throw InputError(fmt::format("air coil '{}': {} units; expected > 0", spec_.name, units_));
    }
    // Rating: the coil removes `capacity` + fan work with air entering at room + rise.
    const double Q = spec_.capacity + spec_.fan_power;
    const double mdot_a = spec_.air_flow * airDensity(spec_.rating_room_temp);
    const double mdot_w = coolant_.massFlow(spec_.water_flow);
    const double C_a = mdot_a * kAirCp,
                 C_w = mdot_w * coolant_.specificHeat(spec_.rating_water_temp);
    const double T_ai = spec_.rating_room_temp + Q / C_a;
    const double C_min = std::min(C_a, C_w), C_r = C_min / std::max(C_a, C_w);
    const double eps = Q / (C_min * (T_ai - spec_.rating_water_temp));
    if (!(eps > 0.0 && eps < 1.0)) {
        throw InputError(
            fmt::format("air coil '{}': the rating point needs effectiveness {:.3f}; "
                        "raise the air or water flow",
                        spec_.name, eps));
    }
    const double UA = ntuFromEffectiveness(HxArrangement::CrossflowUnmixed, eps, C_r) * C_min;
    air_mass_design_ = units_ * mdot_a;
    ua_ = UaScaling{units_ * UA, units_ * mdot_w, units_ * mdot_a, 0.25, 0.8, 0.6};
}

AirCoil::Outputs AirCoil::evaluate(double heat_air, double T_water, double water_flow,
                                   double T_room, double air_fraction) const {
    const bool ok = heat_air >= 0.0 && std::isfinite(heat_air) && water_flow >= 0.0 &&
                    std::isfinite(water_flow) && T_water >= coolant_.minTemperature() &&
                    T_water <= coolant_.maxTemperature() && T_room >= units::celsiusToKelvin(5.0) &&
                    T_room <= units::celsiusToKelvin(50.0) && air_fraction > 0.0 &&
                    air_fraction <= 1.2;
    if (!ok) {
        throw InputError(fmt::format(
            "air coil '{}': heat_air {} W, water {:.2f} °C at {} m3/s, room {:.2f} °C; expected "
            "heat ≥ 0, flow ≥ 0, water within the {} table and room 5..50 °C",
            spec_.name, heat_air, units::kelvinToCelsius(T_water), water_flow,
            units::kelvinToCelsius(T_room), coolant_.name()));
    }
    Outputs o;
    const double mdot_a = air_fraction * air_mass_design_;
    o.fan_power = units_ * spec_.fan_power * air_fraction * air_fraction * air_fraction;
    const double C_a = mdot_a * kAirCp;
    const double load = heat_air + o.fan_power;
    o.air_inlet_temp = T_room + load / C_a;
    const double mdot_w = coolant_.massFlow(water_flow);
    const double C_w = mdot_w * coolant_.specificHeat(T_water);
    const HxResult hx = heatExchange(HxArrangement::CrossflowUnmixed, ua_(mdot_w, mdot_a), C_a,
                                     o.air_inlet_temp, C_w, T_water);
    o.heat_to_water = hx.Q;
    o.water_return_temp = coolant_.heatedTemperature(T_water, mdot_w, hx.Q);
    o.air_outlet_temp = o.air_inlet_temp - hx.Q / C_a;
    o.heat_to_room = load - hx.Q;
    // Room-neutral water temperature: T_w = T_a,in − load/(ε·C_min), with ε and C_w taken at
    // that temperature (fixed point; c_p(T) changes them by < 0.1 %, so it settles at once).
    double T_req = T_water;
    for (int it = 0; it < 20 && mdot_w > 0.0; ++it) {
        const double Cw =
            mdot_w * coolant_.specificHeat(
                         std::clamp(T_req, coolant_.minTemperature(), coolant_.maxTemperature()));
        const double eps =
            effectiveness(HxArrangement::CrossflowUnmixed, ua_(mdot_w, mdot_a) / std::min(C_a, Cw),
                          std::min(C_a, Cw) / std::max(C_a, Cw));
        const double next = o.air_inlet_temp - load / (eps * std::min(C_a, Cw));
        const bool done = std::abs(next - T_req) < 1e-12;
        T_req = next;
        if (done) break;
    }
    o.required_water_temp = T_req;
    return o;
}

}  // namespace dctwin::thermal

namespace dctwin::thermal {

namespace {
// One chiller plant; staging inside it is the curve's part-load ratio. The installed units
// when sizing has counted them, else as many as the CRAH coils' rating.
ChillerSpec sizedChiller(ChillerSpec s, double crah_capacity, double units, double chillers) {
    s.capacity = chillers > 0.0 ? chillers * s.capacity : std::max(1.0, units) * crah_capacity;
    return s;
}
}  // namespace

CrahPlant::CrahPlant(CrahPlantSpec spec, double units, double chiller_units)
    : spec_(std::move(spec)),
      units_(units),
      chiller_(sizedChiller(spec_.chiller, spec_.crah.capacity, units, chiller_units)) {
    const AirCoilSpec& c = spec_.crah;
    if (!(units_ > 0.0) || !std::isfinite(units_)) {
        throw InputError(fmt::format("CRAH plant '{}': {} units; expected > 0", c.name, units_));
    }
    if (!(chiller_units >= 0.0) || !std::isfinite(chiller_units)) {
        throw InputError(fmt::format("CRAH plant '{}': {} air-cooled chillers; expected ≥ 0",
                                     c.name, chiller_units));
    }
    // The record's rating: air heated by capacity + fan work at the rated air flow.
    air_rise_ = (c.capacity + c.fan_power) / (c.air_flow * airDensity(c.rating_room_temp) * kAirCp);
    approach_ = c.rating_room_temp - c.rating_water_temp;
}

CrahPlant::Outputs CrahPlant::evaluate(double heat_air, double dry_bulb) const {
    if (!(heat_air >= 0.0) || !std::isfinite(heat_air) || !(dry_bulb > 200.0 && dry_bulb < 340.0)) {
        throw InputError(
            fmt::format("CRAH plant '{}': heat {} W, outdoor {:.2f} °C; expected heat "
                        "≥ 0 and outdoor -73..67 °C",
                        spec_.crah.name, heat_air, units::kelvinToCelsius(dry_bulb)));
    }
    Outputs o;
    const AirCoilSpec& c = spec_.crah;
    // Rated air flow is the most the units move: heat beyond it stays in the room.
    const double rated = units_ * c.capacity;
    const double f = std::min(heat_air / rated, 1.0);
    const double carried = std::min(heat_air, rated);
    o.fan_power = units_ * c.fan_power * f * f * f;
    const double Ts = spec_.supply_air_temp, Tr = returnAirTemp();
    if (spec_.economizer) {
        const double s0 = std::clamp((Tr - dry_bulb) / (Tr - Ts), 0.0, 1.0);
        o.economizer_share =
            s0 * std::clamp((spec_.economizer_high_limit - dry_bulb) / kEconomizerBand, 0.0, 1.0);
    }
    o.chw_temp = chilledWaterTemp();
    const double load = (carried + o.fan_power) * (1.0 - o.economizer_share);
    o.coil_load = load;
    if (load > 0.0) {
        const Chiller::Outputs ch = chiller_.evaluate(load, o.chw_temp, dry_bulb);
        o.chiller_power = ch.power;
        o.chiller_cooling = ch.cooling;
        o.cop = ch.cop;
    }
    o.unmet = (heat_air - carried) + (load - o.chiller_cooling);
    return o;
}

}  // namespace dctwin::thermal
