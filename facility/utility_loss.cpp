// A utility loss simulated in the site model (equations in utility_loss.h).
#include "facility/utility_loss.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/errors.h"
#include "power/smooth.h"

namespace dctwin::facility {

UtilityLossPlan planUtilityLoss(const UtilityLossOptions& o, const GeneratorFleet& g,
                                const UtilityLossLoads& L) {
    UtilityLossPlan p;
    p.options = o;
    p.generators = g.count;
    p.online = std::max(0, g.count - o.generators_failing);
    p.unit_rating = g.unit_rating;
    if (p.online == 0) return p;  // nothing starts: the UPS runs until its battery is empty
    p.generators_online = o.at + g.start_delay;
    const double capacity = p.online * g.unit_rating;
    const double limit = g.step_load_limit * capacity;
    double total = 0.0, t = p.generators_online;
    // One block per interval; a block the sets cannot take stays off and the next one is tried
    // at the next interval.
    auto block = [&](std::string what, double step, double adds) {
        GeneratorBlock b{std::move(what), t, step, limit, total + adds, false};
        b.applied = step <= limit && total + adds <= capacity;
        if (b.applied) total += adds;
        b.total = total;
        p.blocks.push_back(b);
        t += g.step_interval;
        return b.applied ? b.time : UtilityLossPlan::kNever;
    };
    const double water = L.fans + (o.fws_pumps_on_ups ? 0.0 : L.fws_pumps) +
                         (o.cdu_pumps_on_ups ? 0.0 : L.cdu_pumps);
    const double t_water =
        block("cooling water: facility pumps, heat-rejection fans", water, water);
    if (!o.fws_pumps_on_ups) p.fws_pumps_on = t_water + o.fws_pumps_restart;
    if (!o.cdu_pumps_on_ups) p.cdu_pumps_on = t_water + o.cdu_pumps_restart;
    p.fans_on = t_water + o.fans_restart;
    const double air = L.air_side + L.chillers;
    const double t_air =
        block(L.trim_chillers ? "air side and trim chillers" : "air side", air, air);
    p.air_side_on = t_air + o.air_side_restart;
    if (L.trim_chillers) p.chillers_on = t_air + o.chillers_restart;
    // The walk-in is judged by what it adds within one second (a step for walk_in < 1 s).
    const double per_second = L.ups_input * std::min(1.0, o.walk_in > 0 ? 1.0 / o.walk_in : 1.0);
    const double t_ups =
        block(fmt::format("UPS walk-in over {:g} s", o.walk_in), per_second, L.ups_input);
    if (std::isfinite(t_ups)) {
        p.walk_in_start = t_ups;
        p.walk_in_end = t_ups + o.walk_in;
        p.it_restart_at = p.walk_in_end + o.it_restart;
    }
    return p;
}

// -------------------------------------------------------------------------------- UpsBattery
UpsBattery::UpsBattery(std::string name, UpsBatteryParams p) : Component(std::move(name)), p_(p) {
    if (!(p_.energy_full > 0.0) || !(p_.soe_initial >= 0.0 && p_.soe_initial <= 1.0) ||
        !(p_.efficiency > 0.0 && p_.efficiency <= 1.0) || !(p_.charge_max >= 0.0) ||
        !(p_.latch_tau > 0.0)) {
        throw ModelError(
            fmt::format("UpsBattery '{}': energy > 0, state of energy in [0, 1], "
                        "efficiency in (0, 1], charge ≥ 0 and τ > 0 expected",
                        this->name()));
    }
    // The UPS can walk onto the generators only once they feed the bus.
    if (!(p_.generators_online >= p_.t_loss) ||
        (std::isfinite(p_.walk_in_start) && !(p_.generators_online <= p_.walk_in_start))) {
        throw ModelError(
            fmt::format("UpsBattery '{}': generators online at {} s expected between the loss "
                        "({} s) and the UPS walk-in ({} s)",
                        this->name(), p_.generators_online, p_.t_loss, p_.walk_in_start));
    }
    addState(kEnergy, {"energy", "J", p_.energy_full, p_.soe_initial * p_.energy_full,
                       "UPS battery energy (all systems)", 1e-3 * p_.energy_full});
    addState(kDropped, {"it_dropped", "1", 1.0, 0.0, "IT supply lost (latch)", 1e-3});
    addInput(kBatteryPower,
             {"battery_power", "W", p_.energy_full / 300.0, 0.0, "delivered to the UPS DC bus"});
    addOutput(kMains, {"mains", "1", 1.0, 1.0, "UPS input share from upstream"});
    addOutput(kAvailable, {"available", "1", 1.0, 1.0, "battery can deliver (0: empty)"});
    addOutput(kSupply, {"supply", "1", 1.0, 1.0, "UPS output supply to its loads"});
    addOutput(kCharge, {"charge_power", "W", p_.energy_full / 3000.0, 0.0, "charger draw"});
    addOutput(kSoe, {"soe", "1", 1.0, 1.0, "battery state of energy"});
    addOutput(kBus, {"bus_energised", "1", 1.0, 1.0,
                     "a source (utility or generators) feeds the bus upstream of the UPS"});
}

double UpsBattery::bus(double t) const {
    return t < p_.t_loss || t >= p_.generators_online ? 1.0 : 0.0;
}

double UpsBattery::mains(double t) const {
    if (t < p_.t_loss) return 1.0;
    if (t < p_.walk_in_start) return 0.0;
    if (t >= p_.walk_in_end) return 1.0;
    return (t - p_.walk_in_start) / (p_.walk_in_end - p_.walk_in_start);
}

double UpsBattery::available(double E) const {
    return power::smooth::step01(E / (1e-4 * p_.energy_full));
}

double UpsBattery::charge(double t, double E) const {
    if (t < p_.t_loss) return 0.0;
    return mains(t) * p_.charge_max *
           power::smooth::step01((p_.energy_full - E) / (0.01 * p_.energy_full));
}

void UpsBattery::computeDerivatives(double t, std::span<const double> x, std::span<const double> u,
                                    std::span<double> dxdt) const {
    const double g = mains(t), a = available(x[kEnergy]);
    dxdt[kEnergy] = -u[kBatteryPower] / p_.efficiency + p_.efficiency * charge(t, x[kEnergy]);
    const double reset = t >= p_.it_restart ? 1.0 : 0.0;
    dxdt[kDropped] =
        power::smooth::latchRate(x[kDropped], (1.0 - g) * (1.0 - a), reset, p_.latch_tau);
}

void UpsBattery::computeOutputs(double t, std::span<const double> x, std::span<const double>,
                                std::span<double> y) const {
    y[kMains] = mains(t);
    y[kAvailable] = available(x[kEnergy]);
    y[kSupply] = std::clamp(1.0 - x[kDropped], 0.0, 1.0);
    y[kCharge] = charge(t, x[kEnergy]);
    y[kSoe] = x[kEnergy] / p_.energy_full;
    y[kBus] = bus(t);
}

void UpsBattery::discontinuities(double t0, double t1, std::vector<double>& times) const {
    for (double s :
         {p_.t_loss, p_.generators_online, p_.walk_in_start, p_.walk_in_end, p_.it_restart}) {
        if (std::isfinite(s) && s > t0 && s <= t1) times.push_back(s);
    }
}

}  // namespace dctwin::facility
