#include "thermal/outdoor_loop.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/errors.h"
#include "core/units.h"

namespace dctwin::thermal {

OutdoorLoop::OutdoorLoop(OutdoorLoopSpec spec, const Coolant& inner, double design_flow,
                         double design_duty, double design_supply)
    : spec_(std::move(spec)), inner_(inner), outer_(Coolant::byName(spec_.coolant)) {
    if (!(design_flow > 0.0) || !(design_duty > 0.0) || !(spec_.approach > 0.0) ||
        !(spec_.pressure_drop > 0.0) || !(spec_.pump_efficiency > 0.0) ||
        !(spec_.pump_min_speed >= 0.0 && spec_.pump_min_speed <= 1.0)) {
        throw InputError(fmt::format(
            "outdoor loop: design flow {} m3/s, duty {} W, approach {} K, pressure drop {} Pa, "
            "pump efficiency {}, pump minimum speed {}; expected all > 0 (the minimum speed "
            "within 0..1)",
            design_flow, design_duty, spec_.approach, spec_.pressure_drop, spec_.pump_efficiency,
            spec_.pump_min_speed));
    }
    duty_ = design_duty;
    const double mdot_i = inner_.massFlow(design_flow);
    const double T_r = inner_.heatedTemperature(design_supply, mdot_i, design_duty);
    T_os_design_ = design_supply - spec_.approach;
    if (T_os_design_ < outer_.minTemperature()) {
        throw InputError(fmt::format(
            "outdoor loop: its design supply {:.1f} °C (facility supply {:.1f} °C less the {:.1f} "
            "K approach) is below the {} table ({:.1f} °C)",
            units::kelvinToCelsius(T_os_design_), units::kelvinToCelsius(design_supply),
            spec_.approach, outer_.name(), units::kelvinToCelsius(outer_.minTemperature())));
    }
    cp_i_ = inner_.specificHeat(0.5 * (design_supply + T_r));
    const double C = mdot_i * cp_i_;
    // Balanced: the outdoor stream carries the same capacity rate, so both streams change by
    // the same range at design (cp at the outdoor stream's mean, the approach below the
    // facility stream's).
    cp_o_ = outer_.specificHeat(0.5 * (design_supply + T_r) - spec_.approach);
    mdot_o_ = C / cp_o_;
    flow_ = mdot_o_ / outer_.referenceDensity();
    work_ = spec_.pressure_drop * flow_;
    const double eps = design_duty / (C * (T_r - T_os_design_));
    const double ntu = ntuCounterflow(eps, 1.0);
    ua_.UA_design = ntu * C;
    ua_.mdot_hot_design = mdot_i;
    ua_.mdot_cold_design = mdot_o_;
    T_or_design_ = outerReturn(T_os_design_, design_duty, work_, mdot_o_);
    if (spec_.pumps_duty < 1 || spec_.pumps_standby < 0) {
        throw InputError(fmt::format(
            "outdoor loop: {} duty and {} standby pumps; expected at least one duty pump and no "
            "negative standby",
            spec_.pumps_duty, spec_.pumps_standby));
    }
    // The top speed with n of the duty pumps left at rated speed against the loop (header).
    const PumpCurve curve = PumpCurve::fromDesignPoint(flow_ / spec_.pumps_duty,
                                                       spec_.pressure_drop, spec_.pump_efficiency);
    const SystemCurve loop = SystemCurve::throughPoint(flow_, spec_.pressure_drop);
    top_speed_.assign(static_cast<std::size_t>(spec_.pumps_duty) + 1, 1.0);
    top_speed_[0] = 0.0;
    for (int n = 1; n < spec_.pumps_duty; ++n) {
        top_speed_[static_cast<std::size_t>(n)] =
            pumpOperatingPoint(curve, n, 1.0, loop, "outdoor loop pumps").flow / flow_;
    }
}

double OutdoorLoop::maxSpeed(int pumps_failed) const {
    const int n = runningPumps(spec_.pumps_duty + spec_.pumps_standby, spec_.pumps_duty,
                               static_cast<double>(pumps_failed));
    return top_speed_[static_cast<std::size_t>(n)];
}

double OutdoorLoop::speed(double mdot_inner) const {
    if (!spec_.track_flow) return 1.0;
    return std::clamp(mdot_inner / ua_.mdot_hot_design, spec_.pump_min_speed, 1.0);
}

double OutdoorLoop::conductanceAt(double mdot_inner, double r, int plates) const {
    const double mdot_o = r * mdot_o_;
    const double C_i = mdot_inner * cp_i_, C_o = mdot_o * cp_o_;
    const double C_min = std::min(C_i, C_o), C_max = std::max(C_i, C_o);
    if (!(C_min > 0.0) || plates <= 0) return 0.0;
    // k of N plates, each taking ṁ/k: (k/N)·UA(ṁ·N/k). Both factors are 1 exactly at k = N.
    const double share = static_cast<double>(plates) / spec_.exchangers;
    const double UA = share * ua_(mdot_inner / share, mdot_o / share);
    return effectivenessCounterflow(UA / C_min, C_min / C_max) * C_min;
}

}  // namespace dctwin::thermal
