#pragma once
// RackLoop: the liquid side of one rack (or `count` identical racks lumped into one
// representative, DESIGN.md §4) — GPU junctions, cold plates, rack manifold and the coolant in
// them (DESIGN.md §3.3; domain-facts B2, B3, "Key formulas" C1).
//
// Three lumped nodes, per rack; the junction node stands for each of the rack's N_gpu identical
// GPUs (one GPU class), so it is one state whatever N_gpu is:
//   junction  C_j · dT_j/dt     = q_gpu − (T_j − T_p)/R_jp                         (per GPU)
//   plate     C_metal · dT_p/dt = (Q_liquid − N_gpu·q_gpu) + N_gpu·(T_j − T_p)/R_jp
//                                 − (T_p − T_fluid)/R(V̇)
//   fluid     M_f·c_p(T_fluid) · dT_fluid/dt = (T_p − T_fluid)/R(V̇) − ṁ·(h(T_fluid) − h(T_sup))
// with ṁ = ρ_ref·V̇, M_f = ρ_ref·V_fluid, h the coolant enthalpy (thermal/coolant.h); the
// fluid node is well mixed, so the outlet temperature is T_fluid. In steady state
// Q_liquid = ṁ·(h(T_out) − h(T_sup)) ≈ ṁ·c_p·ΔT. q_gpu is the heat one GPU gives its cold
// plate (its own power, including a smoothing burn, times its liquid share); the rest of
// Q_liquid (CPUs, NVLink switches) enters the plate node directly.
//
// Why a junction node: a GPU's die, HBM and package are a few J/K above a cold plate of
// ~0.01 K/W, so the junction follows its own power within tens of milliseconds (τ_j = C_j·R_jp)
// while the plates and coolant (tens of kJ/K per rack) take seconds. Lumping both in one node
// (as before issue 19) hid the junction's swing with every training iteration: the peak that
// throttling and the thermal trip act on, and the thermal cycles of the package.
//
// The plate-to-coolant resistance is conduction through the plate and fins plus the film in
// the cold-plate channels, whose coefficient depends on the flow and on the coolant:
//   R(V̇) = R_cond + 1/(h(V̇)·A),  A = n_channels·π·D·L_plate (wetted area of the rack)
//   h(V̇) = Nu(Re, Pr, D/L_plate)·k/D, Hausen/Gnielinski (thermal/hydraulics.h), properties of
//   the coolant at the loop's design mean temperature.
// R_cond = R_design − 1/(h_rated·A) with h_rated the film coefficient of the coolant the
// resistance was given for (rated_coolant, PG25) at the design flow, so the catalog's
// R_design holds at its rating point and another coolant or flow moves only the film part.
// At zero flow the laminar Nu falls to 3.66 (fully developed), so R stays finite.
// R_design lumps the rack so that T_p is the temperature of a typical GPU's cold plate:
// R_design = (R_gpu − R_jp) · (GPU share of liquid heat) / GPUs per rack (rack_loops.json),
// R_gpu the junction-to-bulk-coolant resistance of one GPU. At design load the junction
// therefore sits q_gpu·R_gpu above the coolant, as the single node did.
// R_jp does not change with flow (conduction through die, TIM and lid).
//
// Why states: T_j is a state, so junction_temp has no direct feedthrough from gpu_heat; that
// breaks the loop leakage(T_j) → GPU power → gpu_heat → T_j for the power layer. T_fluid is a
// state, so outlet_temp can feed a CDU or mixer without an algebraic loop.
//
// | kind   | name                  | unit | per         | feedthrough from            |
// |--------|-----------------------|------|-------------|-----------------------------|
// | state  | plate_temp            | K    | rack        |                             |
// | state  | fluid_temp            | K    | rack        |                             |
// | state  | junction_temp         | K    | GPU         |                             |
// | input  | heat_liquid           | W    | rack        | (all heat to liquid)        |
// | input  | supply_temp           | K    |             |                             |
// | input  | flow                  | m3/s | rack        |                             |
// | input  | gpu_heat              | W    | GPU         | (0 when unconnected)        |
// | output | outlet_temp           | K    |             | — (state fluid_temp)        |
// | output | junction_temp         | K    | GPU         | — (state junction_temp)     |
// | output | heat_to_coolant       | W    | rack        | supply_temp, flow           |
// | output | heat_to_coolant_total | W    | all `count` | supply_temp, flow           |
// | output | flow_total            | m3/s | all `count` | flow                        |
// | output | plate_temp            | K    | rack        | — (state plate_temp)        |
// heat_to_coolant is ṁ·(h(T_out) − h(T_sup)), the heat the stream carries to the CDU.
// With gpu_heat unconnected (0) all heat enters the plate and the junction follows the plate.
// Valid inputs: heat_liquid ≥ 0, gpu_heat ≥ 0, flow ≥ 0, temperatures inside the coolant
// table; outside, InputError (inputs) or ModelError (states left the coolant table).
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/component.h"
#include "core/json.h"
#include "thermal/coolant.h"
#include "thermal/hydraulics.h"

namespace dctwin::thermal {

struct RackLoopParams {
    double count = 1.0;           // [1] identical racks represented
    double C_metal = 30e3;        // [J/K] per rack: cold plates, manifolds, package substrates
    double fluid_volume = 0.020;  // [m³] per rack: coolant in cold plates, hoses, manifold
    double R_design = 1.15e-4;    // [K/W] per rack, plate to coolant at design flow
    double gpus = 72.0;           // [1] GPUs per rack (the junction node's multiplicity)
    double C_junction = 4.0;      // [J/K] per GPU: dies, HBM stacks, interposer
    double R_junction = 0.012;    // [K/W] per GPU, junction to cold plate
    double flow_design = 200.0 / 60000.0;  // [m³/s] per rack
    /// The rack's coolant branch (hoses, fittings, cold-plate channels); its channels also
    /// give the film coefficient.
    RackBranchSpec branch;
    std::string rated_coolant = "PG25";  // coolant R_design is given for
    double film_temp = 313.15;           // [K] design mean coolant temperature in the rack
    double heat_design = 121.5e3;        // [W] per rack to liquid (nominal values only)
    double gpu_heat_design = 1400.6;     // [W] per GPU to liquid at design (share·heat/gpus)
    double initial_temp = 308.15;        // [K] start of all three nodes

    /// From a data/catalog/thermal/rack_loops.json entry (keys with unit suffixes).
    static RackLoopParams fromJson(const JsonView& v);
    /// Catalog entry by name, e.g. "gb300_nvl72".
    static RackLoopParams fromCatalog(std::string_view name);
};

class RackLoop : public Component {
public:
    enum State : std::size_t { kPlate, kFluid, kJunction };
    enum Input : std::size_t { kHeat, kSupplyTemp, kFlow, kGpuHeat };
    enum Output : std::size_t {
        kOutletTemp,
        kJunctionTemp,
        kHeatToCoolant,
        kHeatTotal,
        kFlowTotal,
        kPlateTemp
    };

    /// What every rack loop with the same coolant and parameters shares: the parameters and
    /// the constants derived from them. A campus model holds a rack loop per distinct rack;
    /// each with its own copy was 464 bytes read on every evaluation (issue 12: memory-bound
    /// at 5,560 racks), so a model builds one Kind per rack kind and hands it to its racks.
    struct Kind {
        Coolant coolant;
        RackLoopParams p;
        double fluid_mass = 0.0;  // [kg] per rack
        double area = 0.0;        // [m²] wetted channel area per rack
        double R_cond = 0.0;      // [K/W] per rack
        FluidState film_fluid;
        /// Identifies everything resistance() depends on but the flow: equal for kinds whose
        /// plates and coolant match bit for bit, for its memo (rack_loop.cpp).
        std::uint64_t film_id = 0;
    };
    /// Checks the parameters (InputError naming `who`, the rack loop) and derives the
    /// constants.
    static std::shared_ptr<const Kind> makeKind(Coolant coolant, RackLoopParams params,
                                                std::string_view who);

    RackLoop(std::string name, Coolant coolant, RackLoopParams params);
    /// A rack loop of a kind shared with others (not null).
    RackLoop(std::string name, std::shared_ptr<const Kind> kind);

    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    void computeDerivatives(double t, std::span<const double> x, std::span<const double> u,
                            std::span<double> dxdt) const override;
    /// Takes the heat the stream carries from the outputs (two enthalpy integrals fewer).
    void computeDerivativesGivenOutputs(double t, std::span<const double> x,
                                        std::span<const double> u, std::span<const double> y,
                                        std::span<double> dxdt) const override;
    bool outputDependsOnInput(std::size_t output, std::size_t input) const override;
    bool outputDependsOnState(std::size_t output, std::size_t state) const override;
    bool derivativeDependsOnState(std::size_t row, std::size_t state) const override;
    bool derivativeDependsOnInput(std::size_t row, std::size_t input) const override;

    /// Plate-to-coolant resistance of one rack at per-rack flow V̇.          [m³/s] → [K/W]
    double resistance(double flow) const;
    /// Film coefficient in the cold-plate channels at per-rack flow V̇.   [m³/s] → [W/(m²·K)]
    double filmCoefficient(double flow) const;
    /// The conduction part of the resistance (independent of flow and coolant).        [K/W]
    double conductionResistance() const { return k_->R_cond; }
    /// Junction time constant C_j·R_jp.                                                 [s]
    double junctionTimeConstant() const { return k_->p.C_junction * k_->p.R_junction; }
    /// Heat stored in all `count` racks relative to 0 K metal / T_ref fluid.            [J]
    double storedEnergy(std::span<const double> x) const;
    /// Heat capacity of one rack's fluid node at T.                                  [J/K]
    double fluidCapacity(double T) const;
    const RackLoopParams& params() const { return k_->p; }
    const Coolant& coolant() const { return k_->coolant; }

private:
    void checkInputs(std::span<const double> u, bool with_heat) const;
    std::shared_ptr<const Kind> k_;
};

/// @brief Periodic response of a first-order node (resistance R [K/W], time constant τ [s]) to
/// a square wave of heat that is ΔP [W] higher for a fraction D of each period T [s] than for
/// the rest. With a = e^{−D·T/τ} and b = e^{−(1−D)·T/τ}, the steady periodic solution of
/// τ·θ' = R·P − θ has
///   peak to peak   θ_max − θ_min = R·ΔP·(1 − a)(1 − b)/(1 − a·b)
///   peak − mean    θ_max − R·P_mean = R·ΔP·((1 − a)/(1 − a·b) − D)
/// (τ ≪ T: R·ΔP and R·ΔP·(1 − D); τ ≫ T: both → 0). The junction node of RackLoop with the
/// plate held steady is such a node (R = R_jp, τ = C_j·R_jp).
double junctionSquareWaveSwing(double R, double tau, double dP, double period, double duty);
/// See junctionSquareWaveSwing(): the peak above the response to the mean heat [K].
double junctionSquareWaveExcess(double R, double tau, double dP, double period, double duty);

}  // namespace dctwin::thermal
