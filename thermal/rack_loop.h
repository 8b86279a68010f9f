#pragma once
// RackLoop: the liquid side of one rack (or `count` identical racks lumped into one
// representative, DESIGN.md §4) — cold plates, rack manifold and the coolant in them
// (DESIGN.md §3.3; domain-facts B2, B3, "Key formulas" C1).
//
// Two lumped nodes:
//   die/metal   C_metal · dT_die/dt   = Q_liquid − (T_die − T_fluid)/R(V̇)
//   fluid       M_f·c_p(T_fluid) · dT_fluid/dt = (T_die − T_fluid)/R(V̇) − ṁ·(h(T_fluid) − h(T_sup))
// with ṁ = ρ_ref·V̇, M_f = ρ_ref·V_fluid, h the coolant enthalpy (thermal/coolant.h); the
// fluid node is well mixed, so the outlet temperature is T_fluid. In steady state
// Q_liquid = ṁ·(h(T_out) − h(T_sup)) ≈ ṁ·c_p·ΔT. The case-to-coolant resistance falls with
// flow as a turbulent film coefficient does (Dittus–Boelter h ∝ Re^0.8):
//   R(V̇) = R_design · (max(V̇/V̇_design, r_min))^(−0.8)
// r_min = 0.05 stands for conduction and natural convection keeping R finite when the pumps
// stop. R_design lumps the rack so that T_die is the temperature of a typical GPU die:
// R_design = R_gpu · (GPU share of liquid heat) / GPUs per rack (see rack_loops.json).
//
// Why two states: T_die is a state, so die_temp has no direct feedthrough from heat_liquid;
// that breaks the loop leakage(T_die) → rack power → heat_liquid → T_die for the power layer.
// T_fluid is a state, so outlet_temp can feed a CDU or mixer without an algebraic loop.
//
// | kind   | name                  | unit | per         | feedthrough from            |
// |--------|-----------------------|------|-------------|-----------------------------|
// | state  | die_temp              | K    | rack        |                             |
// | state  | fluid_temp            | K    | rack        |                             |
// | input  | heat_liquid           | W    | rack        |                             |
// | input  | supply_temp           | K    |             |                             |
// | input  | flow                  | m3/s | rack        |                             |
// | output | outlet_temp           | K    |             | — (state fluid_temp)        |
// | output | die_temp              | K    |             | — (state die_temp)          |
// | output | heat_to_coolant       | W    | rack        | supply_temp, flow           |
// | output | heat_to_coolant_total | W    | all `count` | supply_temp, flow           |
// | output | flow_total            | m3/s | all `count` | flow                        |
// heat_to_coolant is ṁ·(h(T_out) − h(T_sup)), the heat the stream carries to the CDU.
// Valid inputs: heat_liquid ≥ 0, flow ≥ 0, temperatures inside the coolant table; outside,
// InputError (inputs) or ModelError (states left the coolant table).
#include <span>
#include <string>

#include "core/component.h"
#include "core/json.h"
#include "thermal/coolant.h"

namespace dctwin::thermal {

struct RackLoopParams {
    double count = 1.0;           // [1] identical racks represented
    double C_metal = 30e3;        // [J/K] per rack: dies, packages, cold plates, manifolds
    double fluid_volume = 0.020;  // [m³] per rack: coolant in cold plates, hoses, manifold
    double R_design = 2.54e-4;    // [K/W] per rack, die to coolant at design flow
    double flow_design = 200.0 / 60000.0;  // [m³/s] per rack
    double flow_exponent = 0.8;            // [1]
    double min_flow_ratio = 0.05;          // [1] floor of V̇/V̇_design in R(V̇)
    double heat_design = 121.5e3;          // [W] per rack to liquid (nominal values only)
    double initial_temp = 308.15;          // [K] start of both nodes

    /// From a data/catalog/thermal/rack_loops.json entry (keys with unit suffixes).
    static RackLoopParams fromJson(const JsonView& v);
    /// Catalog entry by name, e.g. "gb300_nvl72".
    static RackLoopParams fromCatalog(std::string_view name);
};

class RackLoop : public Component {
public:
    enum State : std::size_t { kDie, kFluid };
    enum Input : std::size_t { kHeat, kSupplyTemp, kFlow };
    enum Output : std::size_t { kOutletTemp, kDieTemp, kHeatToCoolant, kHeatTotal, kFlowTotal };

    RackLoop(std::string name, Coolant coolant, RackLoopParams params);

    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    void computeDerivatives(double t, std::span<const double> x, std::span<const double> u,
                            std::span<double> dxdt) const override;
    bool outputDependsOnInput(std::size_t output, std::size_t input) const override;
    bool outputDependsOnState(std::size_t output, std::size_t state) const override;
    bool derivativeDependsOnState(std::size_t row, std::size_t state) const override;
    bool derivativeDependsOnInput(std::size_t row, std::size_t input) const override;

    /// Case-to-coolant resistance at per-rack flow V̇.                        [m³/s] → [K/W]
    double resistance(double flow) const;
    /// Heat stored in all `count` racks relative to 0 K metal / T_ref fluid.            [J]
    double storedEnergy(std::span<const double> x) const;
    /// Heat capacity of one rack's fluid node at T.                                  [J/K]
    double fluidCapacity(double T) const;
    const RackLoopParams& params() const { return p_; }
    const Coolant& coolant() const { return coolant_; }

private:
    void checkInputs(std::span<const double> u, bool with_heat) const;
    Coolant coolant_;
    RackLoopParams p_;
    double fluid_mass_;  // [kg] per rack
};

}  // namespace dctwin::thermal
