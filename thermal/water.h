#pragma once
// Water use (DESIGN.md §3.3; domain-facts C3, "Key formulas" C4): evaporation, drift,
// blowdown from cycles of concentration, adiabatic spray and make-up, as rates and as
// accumulated totals; plus a generic accumulator for energy bookkeeping.
//
//   evaporation  E = f_lat · Q / h_fg               [kg/s]  (energy-based; f_lat ≈ 0.75–0.9)
//   drift        D = d · ṁ_circulating              (d = 1e-5 … 5e-5 with modern eliminators)
//   blowdown     B = E/(COC − 1) − D,  ≥ 0          (dissolved solids leave with B and D)
//   make-up      M = E + D + B = E · COC/(COC − 1)
// Volumes use the density of make-up water at 20 °C (998.2 kg/m³).
//
// WaterUseMeter component: integrates the rates a heat-rejection component reports.
// | kind   | name               | unit | feedthrough            |
// |--------|--------------------|------|------------------------|
// | state  | evaporated         | m3   |                        |
// | state  | drift              | m3   |                        |
// | state  | blowdown           | m3   |                        |
// | state  | spray              | m3   | adiabatic pad/spray water |
// | input  | evaporation_rate   | m3/s |                        |
// | input  | drift_rate         | m3/s |                        |
// | input  | blowdown_rate      | m3/s |                        |
// | input  | spray_rate         | m3/s |                        |
// | output | makeup_rate        | m3/s | all inputs             |
// | output | total              | m3   | — (sum of the states)  |
// | output | evaporated … spray | m3   | — (states)             |
#include <span>
#include <string>
#include <vector>

#include "core/component.h"

namespace dctwin::thermal {

inline constexpr double kMakeupWaterDensity = 998.2;  // [kg/m³] water at 20 °C

struct TowerWater {
    double evaporation = 0.0;  // [m³/s]
    double drift = 0.0;        // [m³/s]
    double blowdown = 0.0;     // [m³/s]
    double makeup = 0.0;       // [m³/s]
};

/// Water balance of an evaporative tower rejecting `heat` [W] with latent fraction f_lat [1],
/// latent heat h_fg [J/kg], circulating water mass flow [kg/s], drift fraction [1] and cycles
/// of concentration COC (> 1). InputError outside those ranges.
TowerWater towerWaterBalance(double heat, double f_lat, double h_fg, double circulating_mdot,
                             double drift_fraction, double cycles_of_concentration);

class WaterUseMeter : public Component {
public:
    // States 0..3 are the accumulated evaporation, drift, blowdown and spray: state i integrates
    // input i and is output kAccumulated + i.
    enum Input : std::size_t { kEvaporation, kDrift, kBlowdown, kSpray };
    enum Output : std::size_t { kMakeupRate, kTotal, kAccumulated };
    explicit WaterUseMeter(std::string name, double nominal_rate = 1e-3);
    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    void computeDerivatives(double t, std::span<const double> x, std::span<const double> u,
                            std::span<double> dxdt) const override;
    bool outputDependsOnInput(std::size_t output, std::size_t input) const override;
    bool outputDependsOnState(std::size_t output, std::size_t state) const override;
    bool derivativeDependsOnState(std::size_t, std::size_t) const override { return false; }
    bool derivativeDependsOnInput(std::size_t row, std::size_t input) const override {
        return row == input;
    }
};

/// Integrates named inputs: state i = ∫ input i dt, output i = state i (no feedthrough).
/// Used to close energy balances exactly (heat in, heat rejected, pump work) at the
/// integrator's accuracy instead of from sampled rates.
class Accumulator : public Component {
public:
    struct Channel {
        std::string name;        // input `name`; state and output `name`_total
        std::string unit;        // unit of the rate, e.g. "W"
        std::string total_unit;  // unit of the integral, e.g. "J"
        double nominal_rate = 1.0;
        double nominal_total = 1.0;
    };
    /// Nothing depends on these states, so a sparse solver integrates them as quadratures,
    /// outside its Newton iteration (core/solver/cvode_solver.cpp); their rows stay exact.
    Accumulator(std::string name, std::vector<Channel> channels);
    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    void computeDerivatives(double t, std::span<const double> x, std::span<const double> u,
                            std::span<double> dxdt) const override;
    bool outputDependsOnInput(std::size_t, std::size_t) const override { return false; }
    bool outputDependsOnState(std::size_t o, std::size_t s) const override { return o == s; }
    bool derivativeDependsOnState(std::size_t, std::size_t) const override { return false; }
    bool derivativeDependsOnInput(std::size_t row, std::size_t i) const override {
        return row == i;
    }
};

}  // namespace dctwin::thermal
