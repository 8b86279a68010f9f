#include "power/rack.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/errors.h"
#include "power/smooth.h"

namespace dctwin::power {

RackPowerModel::RackPowerModel(RackSpec spec) : spec_(std::move(spec)) {
    if (spec_.psu_curve.points().empty()) {
        throw ModelError(fmt::format("rack model '{}' has no PSU efficiency curve", spec_.name));
    }
}

RackPowerResult RackPowerModel::evaluate(double u, double T_die, double supply) const {
    const RackSpec& s = spec_;
    if (!std::isfinite(u) || !std::isfinite(T_die)) {
        throw ModelError(
            fmt::format("rack '{}': utilization {} or die temperature {} K is not "
                        "finite",
                        s.name, u, T_die));
    }
    u = std::clamp(u, 0.0, 1.0);
    RackPowerResult r;
    const double theta = smooth::step01((T_die - s.throttle_temp) / s.throttle_width);
    const double clock = 1.0 - theta * (1.0 - s.throttle_min_clock_fraction);
    // Thermal trip: above the shutdown temperature the compute and NVLink switch trays power
    // off (the rack cannot compute without either); NICs, DPUs and fans stay on, on air.
    // Throughput is then zero and no heat reaches the coolant.
    const double on = supply * (1.0 - smooth::step01((T_die - s.shutdown_temp) / s.shutdown_width));
    r.throughput_factor = clock * on;
    // Exponent capped so an absurd temperature from a diverging thermal model gives a large
    // but finite power (the solver then reports the failure) rather than inf.
    const double dT = std::min(T_die - s.die_ref_temp, 150.0);
    const double leak =
        s.leakage_fraction_at_ref * s.gpu_tdp * (std::exp2(dT / s.leakage_doubling) - 1.0);
    const double p_gpu =
        on * std::max(0.0, s.gpu_idle + u * (s.gpu_tdp - s.gpu_idle) * clock + leak);
    r.gpu_power = s.gpus * p_gpu;
    r.cpu_power = on * s.cpus * (s.cpu_idle + u * (s.cpu_max - s.cpu_idle));
    r.switch_power = on * s.switch_trays * s.switch_tray_max *
                     (s.switch_tray_idle_fraction + (1.0 - s.switch_tray_idle_fraction) * u);
    const double fans = s.fan_idle + u * (s.fan_max - s.fan_idle);
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
    return (fraction * spec_.gpu_tdp - spec_.gpu_idle) / (spec_.gpu_tdp - spec_.gpu_idle);
}

// ---------------------------------------------------------------------------------------------
RackPower::RackPower(std::string name, RackSpec spec, int count)
    : Component(std::move(name)), model_(std::move(spec)), count_(count) {
    if (count_ < 1) {
        throw ModelError(
            fmt::format("RackPower '{}': count must be at least 1, got {}", this->name(), count_));
    }
    const RackSpec& s = model_.spec();
    const double n = count_;
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
    addOutput(kThroughput, {"throughput", "1", 1.0, 1.0, "clock factor (1 = not throttled)"});
    addOutput(kPsuLoss, {"psu_loss", "W", n * 0.03 * s.tdp, 0.0, "PSU shelf conversion losses"});
}

void RackPower::computeOutputs(double, std::span<const double>, std::span<const double> u,
                               std::span<double> y) const {
    const RackPowerResult r = model_.evaluate(u[kUtilization], u[kJunctionTemp], u[kSupply]);
    const double n = count_;
    y[kItPower] = n * r.it_power;
    y[kHeatLiquid] = n * r.heat_to_liquid;
    y[kHeatAir] = n * r.heat_to_air;
    y[kGpuPower] = n * r.gpu_power;
    y[kThroughput] = r.throughput_factor;
    y[kPsuLoss] = n * r.psu_loss;
}

bool RackPower::outputDependsOnInput(std::size_t output, std::size_t input) const {
    // The clock factor is set by temperature (and the supply) alone; every power on all.
    if (output == kThroughput) return input == kJunctionTemp || input == kSupply;
    return true;
}

}  // namespace dctwin::power
