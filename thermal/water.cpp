#include "thermal/water.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/errors.h"

namespace dctwin::thermal {

TowerWater towerWaterBalance(double heat, double f_lat, double h_fg, double circulating_mdot,
                             double drift_fraction, double coc) {
    if (!(heat >= 0.0) || !(f_lat >= 0.0 && f_lat <= 1.0) || !(h_fg > 1e6 && h_fg < 3e6) ||
        !(circulating_mdot >= 0.0) || !(drift_fraction >= 0.0 && drift_fraction <= 0.02) ||
        !(coc > 1.0 && coc <= 50.0)) {
        throw InputError(fmt::format(
            "tower water balance: heat {} W, latent fraction {}, h_fg {} J/kg, circulating {} "
            "kg/s, drift fraction {}, cycles of concentration {}; expected heat ≥ 0, 0 ≤ f_lat ≤ "
            "1, 1e6 < h_fg < 3e6, flow ≥ 0, 0 ≤ drift ≤ 0.02 and 1 < COC ≤ 50",
            heat, f_lat, h_fg, circulating_mdot, drift_fraction, coc));
    }
    TowerWater w;
    w.evaporation = f_lat * heat / h_fg / kMakeupWaterDensity;
    w.drift = drift_fraction * circulating_mdot / kMakeupWaterDensity;
    w.blowdown = std::max(0.0, w.evaporation / (coc - 1.0) - w.drift);
    w.makeup = w.evaporation + w.drift + w.blowdown;
    return w;
}

WaterUseMeter::WaterUseMeter(std::string name, double nominal_rate) : Component(std::move(name)) {
    const double total = std::max(1e-3, nominal_rate * 86400.0);
    for (const char* s : {"evaporated", "drift", "blowdown", "spray"}) {
        addState({s, "m3", total, 0.0, fmt::format("accumulated {} water", s)});
    }
    addInput(kEvaporation, {"evaporation_rate", "m3/s", nominal_rate, 0.0, "evaporation"});
    addInput(kDrift, {"drift_rate", "m3/s", nominal_rate, 0.0, "drift"});
    addInput(kBlowdown, {"blowdown_rate", "m3/s", nominal_rate, 0.0, "blowdown"});
    addInput(kSpray, {"spray_rate", "m3/s", nominal_rate, 0.0, "adiabatic spray water"});
    addOutput(kMakeupRate, {"makeup_rate", "m3/s", nominal_rate, 0.0, "make-up water rate"});
    addOutput(kTotal, {"total", "m3", total, 0.0, "accumulated make-up water"});
    for (std::size_t i = 0; i < states().size(); ++i) {
        const std::string& s = states()[i].name;
        addOutput(kAccumulated + i, {s, "m3", total, 0.0, fmt::format("accumulated {} water", s)});
    }
}

void WaterUseMeter::computeOutputs(double, std::span<const double> x, std::span<const double> u,
                                   std::span<double> y) const {
    y[kMakeupRate] = u[kEvaporation] + u[kDrift] + u[kBlowdown] + u[kSpray];
    y[kTotal] = x[0] + x[1] + x[2] + x[3];
    for (std::size_t i = 0; i < 4; ++i) y[kAccumulated + i] = x[i];
}

void WaterUseMeter::computeDerivatives(double, std::span<const double>, std::span<const double> u,
                                       std::span<double> dxdt) const {
    for (std::size_t i = 0; i < 4; ++i) {
        if (!(u[i] >= 0.0) || !std::isfinite(u[i])) {
            throw InputError(fmt::format("water meter '{}': {} = {} m3/s; expected ≥ 0", name(),
                                         inputs()[i].name, u[i]));
        }
        dxdt[i] = u[i];
    }
}

bool WaterUseMeter::outputDependsOnInput(std::size_t o, std::size_t) const {
    return o == kMakeupRate;
}

bool WaterUseMeter::outputDependsOnState(std::size_t o, std::size_t s) const {
    if (o == kMakeupRate) return false;
    if (o == kTotal) return true;
    return o - kAccumulated == s;
}

Accumulator::Accumulator(std::string name, std::vector<Channel> channels)
    : Component(std::move(name)) {
    for (const auto& c : channels) {
        addState({c.name + "_total", c.total_unit, c.nominal_total, 0.0,
                  fmt::format("integral of {}", c.name)});
        addInput({c.name, c.unit, c.nominal_rate, 0.0, fmt::format("rate {}", c.name)});
        addOutput({c.name + "_total", c.total_unit, c.nominal_total, 0.0,
                   fmt::format("integral of {}", c.name)});
    }
}

void Accumulator::computeOutputs(double, std::span<const double> x, std::span<const double>,
                                 std::span<double> y) const {
    for (std::size_t i = 0; i < x.size(); ++i) y[i] = x[i];
}

void Accumulator::computeDerivatives(double, std::span<const double>, std::span<const double> u,
                                     std::span<double> dxdt) const {
    for (std::size_t i = 0; i < u.size(); ++i) dxdt[i] = u[i];
}

}  // namespace dctwin::thermal
