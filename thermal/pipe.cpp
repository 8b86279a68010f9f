#include "thermal/pipe.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.h"
#include "core/shared_value.h"
#include "core/units.h"

namespace dctwin::thermal {

Pipe::Pipe(std::string name, Coolant coolant, PipeParams params)
    : Component(std::move(name)), coolant_(std::move(coolant)), p_(params) {
    if (!(p_.volume > 0) || p_.segments < 1 || p_.segments > 1000 || !(p_.wall_capacity >= 0) ||
        !(p_.UA_ambient >= 0) || !(p_.nominal_flow > 0)) {
        throw InputError(
            fmt::format("pipe '{}': volume {} m3, {} segments, wall capacity {} J/K, "
                        "UA_ambient {} W/K; expected volume > 0, 1..1000 segments, "
                        "capacity ≥ 0, UA ≥ 0",
                        this->name(), p_.volume, p_.segments, p_.wall_capacity, p_.UA_ambient));
    }
    segment_mass_ = coolant_.referenceDensity() * p_.volume / p_.segments;
    for (int i = 1; i <= p_.segments; ++i) {
        addState({fmt::format("T{}", i), "K", p_.initial_temp, p_.initial_temp,
                  fmt::format("temperature of segment {} of {}", i, p_.segments)});
    }
    addInput(kInletTemp,
             {"inlet_temp", "K", p_.initial_temp, p_.initial_temp, "inlet temperature"});
    addInput(kFlow, {"flow", "m3/s", p_.nominal_flow, p_.nominal_flow, "volume flow (≥ 0)"});
    addInput(kAmbient, {"ambient_temp", "K", 300.0, 293.15, "temperature around the pipe"});
    addOutput(kOutletTemp, {"outlet_temp", "K", p_.initial_temp, 0.0, "outlet temperature"});
}

void Pipe::computeOutputs(double, std::span<const double> x, std::span<const double>,
                          std::span<double> y) const {
    y[kOutletTemp] = x[x.size() - 1];
}

void Pipe::computeDerivatives(double, std::span<const double> x, std::span<const double> u,
                              std::span<double> dxdt) const {
    const double flow = u[kFlow];
    if (!(flow >= 0.0) || !std::isfinite(flow)) {
        throw InputError(
            fmt::format("pipe '{}': flow = {} m3/s; expected a finite value ≥ 0 "
                        "(flow runs from inlet to outlet)",
                        name(), flow));
    }
    const double mdot = coolant_.massFlow(flow);
    const double n = p_.segments;
    const double C_wall = p_.wall_capacity / n, UA = p_.UA_ambient / n;
    double h_prev = coolant_.enthalpy(u[kInletTemp]);
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double h = coolant_.enthalpy(x[i]);
        const double q = mdot * (h_prev - h) - UA * (x[i] - u[kAmbient]);
        dxdt[i] = q / (segment_mass_ * coolant_.specificHeat(x[i]) + C_wall);
        h_prev = h;
    }
}

bool Pipe::outputDependsOnState(std::size_t, std::size_t s) const {
    return s + 1 == states().size();
}

bool Pipe::derivativeDependsOnState(std::size_t row, std::size_t s) const {
    return s == row || s + 1 == row;
}

bool Pipe::derivativeDependsOnInput(std::size_t row, std::size_t i) const {
    if (i == kInletTemp) return row == 0;
    if (i == kAmbient) return p_.UA_ambient > 0.0;
    return true;
}

double Pipe::storedEnergy(std::span<const double> x) const {
    double e = 0.0;
    for (double T : x) {
        e += segment_mass_ * coolant_.enthalpy(T) + p_.wall_capacity / p_.segments * T;
    }
    return e;
}

double Pipe::heatLoss(std::span<const double> x, double T_amb) const {
    double q = 0.0;
    for (double T : x) q += p_.UA_ambient / p_.segments * (T - T_amb);
    return q;
}

// ---------------------------------------------------------------------------------------------

namespace {
/// The multiplicities as given, once each is finite and ≥ 0 (before they are shared: a NaN
/// has no place in sharedValue()'s ordered pool).
std::vector<double> checkedMultiplicities(const std::string& mixer, std::vector<double> w) {
    if (w.empty()) throw InputError(fmt::format("mixer '{}' needs at least one stream", mixer));
    for (std::size_t j = 0; j < w.size(); ++j) {
        if (!(w[j] >= 0.0) || !std::isfinite(w[j])) {
            throw InputError(
                fmt::format("mixer '{}': multiplicity of stream {} is {}; expected "
                            "a finite value ≥ 0",
                            mixer, j + 1, w[j]));
        }
    }
    return w;
}
}  // namespace

Mixer::Mixer(std::string name, Coolant coolant, std::vector<double> multiplicities,
             double nominal_temp, double nominal_flow)
    : Component(std::move(name)),
      coolant_(std::move(coolant)),
      w_(sharedValue(checkedMultiplicities(this->name(), std::move(multiplicities)))) {
    const std::vector<double>& w = *w_;
    double total = 0.0;
    for (std::size_t j = 0; j < w.size(); ++j) {
        total += w[j];
        addInput({fmt::format("temp_{}", j + 1), "K", nominal_temp, nominal_temp,
                  fmt::format("temperature of stream {}", j + 1)});
        addInput({fmt::format("flow_{}", j + 1), "m3/s", nominal_flow, nominal_flow,
                  fmt::format("flow of stream {} (one of its multiplicity)", j + 1)});
    }
    addOutput(kTemp, {"temp", "K", nominal_temp, 0.0, "mixed temperature"});
    addOutput(kFlow,
              {"flow", "m3/s", std::max(nominal_flow, nominal_flow * total), 0.0, "total flow"});
    addOutput(kTempMax, {"temp_max", "K", nominal_temp, 0.0,
                         "smooth maximum of the stream temperatures (s = 0.3 K, at most "
                         "s·ln(Σw/w*) below the hottest)"});
}

void Mixer::computeOutputs(double, std::span<const double>, std::span<const double> u,
                           std::span<double> y) const {
    const std::vector<double>& w = *w_;
    double m = 0.0, H = 0.0, V = 0.0, Tw = 0.0, W = 0.0;
    double T_max = -std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < w.size(); ++j) {
        const double T = u[2 * j], flow = u[2 * j + 1];
        if (!(flow >= 0.0) || !std::isfinite(flow)) {
            throw InputError(
                fmt::format("mixer '{}': flow_{} = {} m3/s; expected a finite value "
                            "≥ 0",
                            name(), j + 1, flow));
        }
        const double mj = w[j] * coolant_.massFlow(flow);
        m += mj;
        H += mj * coolant_.enthalpy(T);
        V += w[j] * flow;
        Tw += w[j] * T;
        W += w[j];
        if (w[j] > 0.0) T_max = std::max(T_max, T);
    }
    y[kTemp] = m > 0.0 ? coolant_.temperatureFromEnthalpy(H / m) : (W > 0.0 ? Tw / W : u[0]);
    y[kFlow] = V;
    if (W > 0.0) {
        double sum = 0.0;
        for (std::size_t j = 0; j < w.size(); ++j) {
            if (w[j] > 0.0) sum += w[j] * std::exp((u[2 * j] - T_max) / kMaxSmoothing);
        }
        y[kTempMax] = T_max + kMaxSmoothing * std::log(sum / W);
    } else {
        y[kTempMax] = u[0];
    }
}

bool Mixer::outputDependsOnInput(std::size_t o, std::size_t i) const {
    if (o == kTemp) return true;
    return o == kFlow ? i % 2 == 1 : i % 2 == 0;  // total flow sees the flows, temp_max temps
}

}  // namespace dctwin::thermal
