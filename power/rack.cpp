#include "power/rack.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/errors.h"
#include "power/smooth.h"

namespace dctwin::power {

RackPowerModel::RackPowerModel(RackSpec spec)
    : RackPowerModel(std::make_shared<const RackSpec>(std::move(spec))) {}

RackPowerModel::RackPowerModel(std::shared_ptr<const RackSpec> spec) : spec_(std::move(spec)) {
    if (!spec_) throw ModelError("rack model without a rack spec");
    if (spec_->psu_curve.points().empty()) {
        throw ModelError(fmt::format("rack model '{}' has no PSU efficiency curve", spec_->name));
    }
}

double RackPowerModel::clockFactor(double T_die) const {
    const RackSpec& s = *spec_;
    const double theta = smooth::step01((T_die - s.throttle_temp) / s.throttle_width);
    return 1.0 - theta * (1.0 - s.throttle_min_clock_fraction);
}

RackPowerResult RackPowerModel::evaluate(double u, double T_die, double trip, TripStandby standby,
                                         double supply) const {
    const RackSpec& s = *spec_;
    if (!std::isfinite(u) || !std::isfinite(T_die) || !std::isfinite(trip)) {
        throw ModelError(
            fmt::format("rack '{}': utilization {}, die temperature {} K or trip latch {} is not "
                        "finite",
                        s.name, u, T_die, trip));
    }
    u = std::clamp(u, 0.0, 1.0);
    const double L = std::clamp(trip, 0.0, 1.0);
    RackPowerResult r;
    const double clock = clockFactor(T_die);
    // Tripped (L = 1): "off" powers the compute and NVLink switch trays down (the rack cannot
    // compute without either; NICs, DPUs, BMC and fans stay on, on air); "idle" keeps them
    // powered with no work. Either way a tripped rack computes nothing. Without supply
    // (utility lost, UPS battery empty) nothing of the rack draws power or computes.
    const double on = supply * (standby == TripStandby::Off ? 1.0 - L : 1.0);
    const double ue = standby == TripStandby::Idle ? (1.0 - L) * u : u;
    r.clock_factor = clock;
    r.throughput_factor = clock * (1.0 - L) * supply;
    // Exponent capped so an absurd temperature from a diverging thermal model gives a large
    // but finite power (the solver then reports the failure) rather than inf.
    const double dT = std::min(T_die - s.die_ref_temp, 150.0);
    const double leak =
        s.leakage_fraction_at_ref * s.gpu_tdp * (std::exp2(dT / s.leakage_doubling) - 1.0);
    const double p_gpu =
        on * std::max(0.0, s.gpu_idle + ue * (s.gpu_tdp - s.gpu_idle) * clock + leak);
    r.gpu_power = s.gpus * p_gpu;
    r.cpu_power = on * s.cpus * (s.cpu_idle + ue * (s.cpu_max - s.cpu_idle));
    r.switch_power = on * s.switch_trays * s.switch_tray_max *
                     (s.switch_tray_idle_fraction + (1.0 - s.switch_tray_idle_fraction) * ue);
    const double fans = s.fan_idle + ue * (s.fan_max - s.fan_idle);
    // Without supply nothing of the rack draws power (the trip leaves these on, on air).
    r.other_power = supply * (s.nics * s.nic_power + s.compute_trays * s.tray_other + fans);
    r.dc_power = r.gpu_power + r.cpu_power + r.switch_power + r.other_power;
    r.shelf_load = r.dc_power / installedShelfPower();
    r.psu_efficiency = s.psu_curve(r.shelf_load);
    r.it_power = r.dc_power / r.psu_efficiency;
    r.psu_loss = r.it_power - r.dc_power;
    r.heat_to_liquid = s.gpu_liquid_fraction * r.gpu_power + s.cpu_liquid_fraction * r.cpu_power +
                       s.switch_liquid_fraction * r.switch_power;
    r.heat_to_air = r.it_power - r.heat_to_liquid;
    return r;
}

double RackPowerModel::utilizationForGpuFraction(double fraction) const {
    return (fraction * spec_->gpu_tdp - spec_->gpu_idle) / (spec_->gpu_tdp - spec_->gpu_idle);
}

// ---------------------------------------------------------------------------------------------
RackPower::RackPower(std::string name, RackSpec spec, int count, TripPolicy trip)
    : RackPower(std::move(name), std::make_shared<const RackSpec>(std::move(spec)), count, trip) {}

RackPower::RackPower(std::string name, std::shared_ptr<const RackSpec> spec, int count,
                     TripPolicy trip)
    : Component(std::move(name)), model_(std::move(spec)), count_(count), trip_(trip) {
    if (count_ < 1) {
        throw ModelError(
            fmt::format("RackPower '{}': count must be at least 1, got {}", this->name(), count_));
    }
    const RackSpec& s = model_.spec();
    if (trip_.restart == TripRestart::AfterCooling && !(trip_.restart_temp < s.shutdown_temp)) {
        throw ModelError(fmt::format(
            "RackPower '{}': restart temperature {} K must lie below the shutdown temperature {} K",
            this->name(), trip_.restart_temp, s.shutdown_temp));
    }
    if (trip_.restart == TripRestart::AfterDelay && !(trip_.restart_delay > 0.0)) {
        throw ModelError(fmt::format("RackPower '{}': restart delay must be positive, got {} s",
                                     this->name(), trip_.restart_delay));
    }
    const double n = count_;
    addState(kTrip, {"trip", "1", 1.0, 0.0, "thermal-trip latch (1 = tripped)"});
    if (trip_.restart == TripRestart::AfterCooling) {
        addState(kRestartState, {"trip_cooled", "1", 1.0, 0.0,
                                 "latch: the die has read the restart temperature since the "
                                 "last trip"});
    } else if (trip_.restart == TripRestart::AfterDelay) {
        addState(kRestartState, {"trip_timer", "s", trip_.restart_delay, 0.0,
                                 "seconds since the die fell below the shutdown temperature"});
    }
    addInput(kUtilization,
             {"utilization", "1", 1.0, 0.0, "GPU utilization (idle 0 → power cap 1)"});
    addInput(kJunctionTemp,
             {"junction_temp", "K", s.die_ref_temp, s.die_ref_temp, "GPU junction temperature"});
    addInput(kSupply, {"supply", "1", 1.0, 1.0, "power at the rack feeds (0: lost)"});
    addOutput(kItPower,
              {"it_power", "W", n * s.tdp, 0.0, "AC power at the shelf inputs, all racks"});
    addOutput(kHeatLiquid, {"heat_liquid", "W", n * s.tdp, 0.0, "heat to the coolant"});
    addOutput(kHeatAir, {"heat_air", "W", n * 0.1 * s.tdp, 0.0, "heat to air incl. PSU losses"});
    addOutput(kGpuPower, {"gpu_power", "W", n * s.gpus * s.gpu_tdp, 0.0, "power of all GPUs"});
    addOutput(kThroughput,
              {"throughput", "1", 1.0, 1.0, "compute delivered: clock factor, 0 when tripped"});
    addOutput(kPsuLoss, {"psu_loss", "W", n * 0.03 * s.tdp, 0.0, "PSU shelf conversion losses"});
    addOutput(kTripped, {"tripped", "1", 1.0, 0.0, "thermal-trip latch (1 = tripped)"});
    addOutput(kClock, {"clock", "1", 1.0, 1.0, "clock factor the throttle leaves (1 = full)"});
}

namespace {
/// Drives (S, R) of a latch at L with set and reset demands s, r that snaps: past L ≈ 0.028 it
/// drives itself to 1 unless reset, below it falls back to 0 unless set (header comment).
std::pair<double, double> snapDrives(double s, double r, double L) {
    const double g = smooth::step01((L - 0.02) / 0.08);
    return {s + (1.0 - s) * g * (1.0 - r), r + (1.0 - r) * (1.0 - s) * (1.0 - g)};
}
}  // namespace

double RackPower::shutdownDrive(double T) const {
    const RackSpec& s = model_.spec();
    return smooth::step01((T - s.shutdown_temp) / s.shutdown_width);
}

std::pair<double, double> RackPower::latchDrives(double T, double L, double memory) const {
    const double s_T = shutdownDrive(T);
    double r = 0.0;
    switch (trip_.restart) {
        case TripRestart::Never:
            break;
        case TripRestart::AfterCooling:
            r = std::clamp(memory, 0.0, 1.0) * (1.0 - s_T);
            break;
        case TripRestart::AfterDelay:
            r = smooth::step01(memory - trip_.restart_delay) * (1.0 - s_T);  // band 1 s
            break;
    }
    return snapDrives(s_T, r, L);
}

void RackPower::computeOutputs(double, std::span<const double> x, std::span<const double> u,
                               std::span<double> y) const {
    const RackPowerResult r =
        model_.evaluate(u[kUtilization], u[kJunctionTemp], x[kTrip], trip_.standby, u[kSupply]);
    const double n = count_;
    y[kItPower] = n * r.it_power;
    y[kHeatLiquid] = n * r.heat_to_liquid;
    y[kHeatAir] = n * r.heat_to_air;
    y[kGpuPower] = n * r.gpu_power;
    y[kThroughput] = r.throughput_factor;
    y[kPsuLoss] = n * r.psu_loss;
    // The latch below the integrator's absolute tolerance on it (1e-6: abs_tol_factor × its
    // nominal 1) is no state the run resolves, but the residue of Newton corrections on a
    // latch decaying to 0: reported as such it made "most racks tripped at once" 1.1e-21 in
    // a run where none tripped. Only the metrics read this output; the rack's power keeps L.
    y[kTripped] = trippedReading(x[kTrip]);
    y[kClock] = r.clock_factor;
}

void RackPower::computeDerivatives(double, std::span<const double> x, std::span<const double> u,
                                   std::span<double> dxdt) const {
    const double T = u[kJunctionTemp];
    const double memory = trip_.restart == TripRestart::Never ? 0.0 : x[kRestartState];
    const auto [set, reset] = latchDrives(T, x[kTrip], memory);
    dxdt[kTrip] = smooth::latchRate(x[kTrip], set, reset, kLatchTime);
    const double s_T = shutdownDrive(T);
    if (trip_.restart == TripRestart::AfterCooling) {
        // Set when the die reads the restart temperature (band 1 K above it), reset by the
        // next trip: the restart, once begun, completes although the restarted GPUs' own
        // power lifts the die back above the restart temperature within milliseconds.
        // It snaps as L does: a restart begun at the edge of the 1 K band completes.
        const double cooled = 1.0 - smooth::step01(T - trip_.restart_temp);
        const auto [c_set, c_reset] = snapDrives(cooled, s_T, memory);
        dxdt[kRestartState] = smooth::latchRate(memory, c_set, c_reset, kLatchTime);
    } else if (trip_.restart == TripRestart::AfterDelay) {
        dxdt[kRestartState] = 1.0 - s_T * memory / kLatchTime;
    }
}

bool RackPower::outputDependsOnInput(std::size_t output, std::size_t input) const {
    // The clock factor is set by temperature alone; the latch is a state; throughput also
    // follows the supply; every power depends on all inputs.
    if (output == kTripped) return false;
    if (output == kClock) return input == kJunctionTemp;
    if (output == kThroughput) return input == kJunctionTemp || input == kSupply;
    return true;
}

bool RackPower::outputDependsOnState(std::size_t output, std::size_t state) const {
    if (state != kTrip) return false;  // the restart state acts through the latch only
    return output != kClock;
}

bool RackPower::derivativeDependsOnState(std::size_t row, std::size_t state) const {
    if (row == kTrip) return true;  // L, and the restart state through the restart drive
    return state == kRestartState;  // the restart state: only itself
}

bool RackPower::derivativeDependsOnInput(std::size_t, std::size_t input) const {
    return input == kJunctionTemp;
}

}  // namespace dctwin::power
