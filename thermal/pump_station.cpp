#include "thermal/pump_station.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/errors.h"

namespace dctwin::thermal {

PumpStation::PumpStation(const PumpStationSpec& spec, const std::string& where)
    : spec_(spec), where_(where) {
    const auto& s = spec_;
    auto bad = [&](const std::string& what) {
        throw InputError(fmt::format("{}: {}", where_, what));
    };
    if (!(s.design_flow > 0.0)) bad(fmt::format("design flow {} m3/s must be > 0", s.design_flow));
    if (!(s.design_head > 0.0)) bad(fmt::format("pressure drop {} Pa must be > 0", s.design_head));
    if (!(s.efficiency > 0.0 && s.efficiency <= 1.0)) {
        bad(fmt::format("pump efficiency {} must be in (0, 1]", s.efficiency));
    }
    if (s.duty < 1 || s.standby < 0) {
        bad(
            fmt::format("{} duty and {} standby pumps: expected at least one duty pump and no "
                        "negative standby",
                        s.duty, s.standby));
    }
    if (s.control != "valve_reset" && s.control != "differential_pressure" &&
        s.control != "constant_speed") {
        bad(
            fmt::format("pump control '{}': expected valve_reset, differential_pressure or "
                        "constant_speed",
                        s.control));
    }
    if (!(s.dp_setpoint > 0.0 && s.dp_setpoint < s.design_head)) {
        bad(
            fmt::format("differential-pressure setpoint {:.0f} kPa must be above 0 and below the "
                        "loop's design pressure drop {:.0f} kPa (the rest is distribution)",
                        s.dp_setpoint / 1e3, s.design_head / 1e3));
    }
    if (!(s.dp_min > 0.0 && s.dp_min <= s.dp_setpoint)) {
        bad(
            fmt::format("lowest reset setpoint {:.0f} kPa must be above 0 and at most the "
                        "setpoint {:.0f} kPa",
                        s.dp_min / 1e3, s.dp_setpoint / 1e3));
    }
    if (!(s.valve_target > 0.0 && s.valve_target <= 1.0)) {
        bad(fmt::format("valve target {} must be in (0, 1]", s.valve_target));
    }
    if (!(s.min_speed >= 0.0 && s.min_speed < 1.0)) {
        bad(fmt::format("minimum speed {} must be in [0, 1)", s.min_speed));
    }
    if (!(s.drive_fixed_loss >= 0.0 && s.drive_fixed_loss < 0.2)) {
        bad(fmt::format("drive fixed loss {} must be in [0, 0.2)", s.drive_fixed_loss));
    }
    curve_ = PumpCurve::fromDesignPoint(s.design_flow / s.duty, s.design_head, s.efficiency);
    open_ = SystemCurve::throughPoint(s.design_flow, s.design_head);
    k_ = (s.design_head - s.dp_setpoint) / (s.design_flow * s.design_flow);
    fixed_ = s.drive_fixed_loss * curve_.electricPower(s.design_flow / s.duty, 1.0);
}

int PumpStation::available(double failed) const {
    return runningPumps(spec_.duty + spec_.standby, spec_.duty, failed);
}

double PumpStation::designPower() const {
    return spec_.duty * (curve_.electricPower(spec_.design_flow / spec_.duty, 1.0) + fixed_);
}

double PumpStation::flowAvailable(double failed) const {
    const int n = available(failed);
    if (n >= spec_.duty) return 1.0;
    if (n <= 0) return 0.0;
    return pumpOperatingPoint(curve_, n, 1.0, open_, where_).flow / spec_.design_flow;
}

double PumpStation::remoteDp(double valve_max) const {
    const auto& s = spec_;
    if (s.control != "valve_reset") return s.dp_setpoint;
    const double r = std::max(0.0, valve_max) / s.valve_target;
    return std::clamp(s.dp_setpoint * r * r, s.dp_min, s.dp_setpoint);
}

PumpStation::Result PumpStation::operate(double Q, double failed, double valve_max) const {
    Result r;
    const int n_max = available(failed);
    if (n_max <= 0) return r;
    Q = std::max(0.0, Q);
    r.remote_dp = remoteDp(valve_max);
    auto at = [&](int n, double speed) {
        Result o = r;
        o.running = n;
        o.speed = speed;
        o.head = std::max(0.0, curve_.pressureRise(Q / n, speed));
        o.power = n * (curve_.electricPower(Q / n, speed) + fixed_);
        o.work = Q * o.head;
        return o;
    };
    if (spec_.control == "constant_speed") return at(n_max, 1.0);
    const double required = r.remote_dp + k_ * Q * Q;
    bool found = false;
    Result best;
    for (int n = 1; n <= n_max; ++n) {
        const double s = std::max(spec_.min_speed, curve_.speedFor(Q / n, required));
        if (s > 1.0 + 1e-12) continue;  // these n pumps cannot make the head
        const Result o = at(n, std::min(1.0, s));
        if (!found || o.power < best.power) {
            best = o;
            found = true;
        }
    }
    // Not enough pumps for the head (failures beyond the standby): all run flat out and the
    // remote Δp falls below its setpoint; the CDUs' available flow is cut by flowAvailable.
    return found ? best : at(n_max, 1.0);
}

}  // namespace dctwin::thermal
