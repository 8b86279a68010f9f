#pragma once
// Hydraulics (DESIGN.md §3.3; domain-facts "Key formulas" C2): pumps with the affinity laws,
// system curves, duct friction and heat transfer that depend on the coolant, and the rack
// branches of a CDU's secondary loop.
//
// Pump (one pump, speed s = N/N_rated, flow Q through that pump):
//   pressure rise   Δp(Q, s) = H0·s² + H1·s·Q + H2·Q²                 [Pa]
//   electric input  P(Q, s)  = P0·s³ + P1·s²·Q                         [W]
// Both forms obey the affinity laws exactly: Δp(s·Q, s) = s²·Δp(Q, 1), P(s·Q, s) = s³·P(Q, 1),
// so Q ∝ N, Δp ∝ N², P ∝ N³ along any system parabola through the origin. P is the electric
// input ("wire to water"): it matches Q_d·Δp_d/η_d at the design point and a shut-off power
// fraction (default 35 % of design, typical of centrifugal pumps) at zero flow; the
// wire-to-water efficiency η = Q·Δp/P follows from them, so it falls away from the design flow.
// A variable-speed drive adds a fixed loss (control electronics, cooling fans) while it runs.
//
// Ducts (Darcy–Weisbach):  Δp = f(Re, ε/D)·(L/D)·ρ·v²/2,  v = Q/(n·π·D²/4),  Re = ρ·v·D/μ
//   f from Churchill (1977), one expression valid in laminar flow (64/Re), through the
//   transition and in rough turbulent flow (within ~1 % of Colebrook):
//   f = 8·[(8/Re)¹² + (A + B)^(−3/2)]^(1/12),  A = [−2.457·ln((7/Re)^0.9 + 0.27·ε/D)]¹⁶,
//   B = (37530/Re)¹⁶.  (S. W. Churchill, Chem. Eng. 84(24):91–92, 1977.)
// Minor losses (quick disconnects, tees, elbows): Δp = K·ρ·v²/2 at the hose velocity.
// Balancing valve with a linear characteristic: Q = K_v·x·√(Δp/1 bar · ρ_w/ρ), K_v in m³/h at
// opening x = 1 (IEC 60534 flow coefficient), ρ_w = 1000 kg/m³.
//
// Film coefficient in a duct, h = Nu·k/D (mean over the heated length L):
//   laminar  Re ≤ 2300: Hausen, thermal entry at constant wall temperature,
//            Nu = 3.66 + 0.0668·Gz/(1 + 0.04·Gz^(2/3)),  Gz = Re·Pr·D/L
//            (Incropera & DeWitt, Fundamentals of Heat and Mass Transfer, 6th ed., eq. 8.57)
//   turbulent Re ≥ 10⁴: Gnielinski, Nu = (f/8)(Re − 1000)Pr / (1 + 12.7·√(f/8)·(Pr^(2/3) − 1))
//            with f = (0.790·ln Re − 1.64)⁻² (Incropera eq. 8.62, 8.21), times the entry
//            factor 1 + (D/L)^(2/3) (VDI Heat Atlas, 2nd ed., G1 eq. 27)
//   between: linear in Re from the laminar value at 2300 to the turbulent one at 10⁴
//            (VDI Heat Atlas G1 §4.2, Gnielinski's interpolation).
// Properties are taken at one temperature per branch (the loop's design mean): the supply is
// held within about a kelvin by the CDU and the branch mean moves by a few kelvin with load,
// while the coolant (water against PG25: viscosity ×0.4, conductivity ×1.3) changes them by
// tens of percent. The flow law is then fixed per branch and is tabulated once (monotone
// cubic against √(Q/Q_max), and its inverse with the valve open), which keeps a
// right-hand-side evaluation cheap at campus scale.
//
// Rack manifold (one CDU's secondary loop): N running pumps in parallel at speed s push the
// total flow Q through the CDU's own resistance (plate heat exchanger, strainer, piping,
// k_int·Q²) and into the row headers; every rack branch sees the same header differential
// pressure Δp_m and draws the flow its law gives:
//   Δp_pump(Q/N, s) − k_int·Q² = Δp_m,   Q = Σ_i w_i·q_i(Δp_m, x_i)
// with w_i the racks a branch stands for and x_i its valve opening. Solved for Δp_m by
// Newton's method inside the bracket [0, H0·s²] to machine precision (the finite-difference
// Jacobian of the solver needs it).
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "thermal/coolant.h"

namespace dctwin::thermal {

struct PumpCurve {
    double H0 = 0.0;        // [Pa] shut-off pressure rise at rated speed
    double H1 = 0.0;        // [Pa·s/m³]
    double H2 = 0.0;        // [Pa·s²/m⁶] (< 0)
    double P0 = 0.0;        // [W] electric input at zero flow, rated speed
    double P1 = 0.0;        // [W·s/m³] slope of electric input with flow at rated speed
    double Q_design = 0.0;  // [m³/s] design flow per pump at rated speed

    /// Quadratic curve through the design point (Q_d, Δp_d) with shut-off Δp = ratio·Δp_d and
    /// H1 = 0; power from the design wire-to-water efficiency and shut-off power fraction.
    static PumpCurve fromDesignPoint(double Q_design, double dp_design, double eta_design,
                                     double shutoff_ratio = 1.25,
                                     double shutoff_power_fraction = 0.35);

    double pressureRise(double Q, double speed) const;   // [Pa]
    double electricPower(double Q, double speed) const;  // [W]
    /// Q·Δp/P, 0 when P = 0.                                                         [1]
    double wireToWaterEfficiency(double Q, double speed) const;
    /// Flow at which the pressure rise falls to zero.                              [m³/s]
    double runoutFlow(double speed) const;
    /// Speed at which the pump delivers Q at pressure rise Δp (the positive root of
    /// H0·s² + H1·Q·s + H2·Q² = Δp); 0 when Δp ≤ 0 and Q = 0.                        [1]
    double speedFor(double Q, double dp) const;
};

/// Δp = Δp_static + k·Q|Q|^{n−1}.
struct SystemCurve {
    double k = 0.0;          // [Pa/(m³/s)^n]
    double n = 2.0;          // [1]
    double dp_static = 0.0;  // [Pa]
    double operator()(double Q) const;
    /// The curve through (Q_design, Δp_design) with the given static part.
    static SystemCurve throughPoint(double Q_design, double dp_design, double dp_static = 0.0,
                                    double n = 2.0);
};

struct PumpOperatingPoint {
    double flow = 0.0;           // [m³/s] total of the running pumps
    double pressure_rise = 0.0;  // [Pa]
    double power = 0.0;          // [W] electric, all running pumps
    double flow_per_pump = 0.0;  // [m³/s]
    int running = 0;             // [1]
};

/// `running` identical pumps in parallel at `speed` on a system curve. Zero pumps or zero
/// speed give zero flow and power. ModelError (naming `where`) when the shut-off head is at
/// or below the static requirement while pumps run.
PumpOperatingPoint pumpOperatingPoint(const PumpCurve& curve, int running, double speed,
                                      const SystemCurve& system, const std::string& where);

/// Running pumps of an N+1 set: min(duty, installed − failed), never negative. `failed` is
/// rounded to the nearest integer (it arrives as a double input).
int runningPumps(int installed, int duty, double failed);

/// Coolant properties at one temperature.
struct FluidState {
    double density = 0.0;        ///< [kg/m³]
    double viscosity = 0.0;      ///< [Pa·s] dynamic
    double conductivity = 0.0;   ///< [W/(m·K)]
    double specific_heat = 0.0;  ///< [J/(kg·K)]
    double prandtl() const { return viscosity * specific_heat / conductivity; }
    static FluidState of(const Coolant& c, double T);
};

/// Film conductance of fluid `op` relative to fluid `rated` in the same channels at equal mass
/// flow, for a correlation Nu = C·Re^n·Pr^m (Re = 4ṁ/(π·D·μ), so at equal ṁ only the
/// properties change):  hA/hA_rated = (k/k_r)·(μ_r/μ)^n·(Pr/Pr_r)^m.   [1]
/// How a unit rated on one liquid (a dry cooler on water, a CDU on PG25) runs on another.
double filmFactorAtEqualMassFlow(const FluidState& op, const FluidState& rated, double n, double m);

/// Pressure drop of fluid `op` relative to `rated` through the same pipes at equal volume
/// flow, turbulent and hydraulically smooth (Blasius, f = 0.316·Re^(−1/4)):
///   Δp/Δp_rated = (ρ/ρ_r)^(3/4)·(μ/μ_r)^(1/4).   [1]
/// 40 % propylene glycol against water at 30 °C: 1.38 (tests/thermal/hydraulics_test.cpp).
double turbulentPressureDropFactor(const FluidState& op, const FluidState& rated);

/// @brief Darcy friction factor by Churchill (1977), laminar to rough turbulent.
/// @param Re Reynolds number [1] (> 0)
/// @param relative_roughness ε/D [1]
double frictionFactor(double Re, double relative_roughness);

/// @brief Mean Nusselt number of a duct: Hausen (laminar), Gnielinski (turbulent), linear
/// between Re 2300 and 10⁴.
/// @param Re Reynolds number [1]; @param Pr Prandtl number [1]; @param d_over_L D/L [1]
double nusseltNumber(double Re, double Pr, double d_over_L);

/// `count` identical straight ducts in parallel.
struct Duct {
    double diameter = 0.0;                                     ///< [m] hydraulic diameter
    double length = 0.0;                                       ///< [m]
    double roughness = 0.0;                                    ///< [m] absolute
    double count = 1.0;                                        ///< [1] in parallel
    double area() const;                                       ///< [m²] flow area of all ducts
    double reynolds(double Q, const FluidState& f) const;      ///< [1] at total flow Q [m³/s]
    double pressureDrop(double Q, const FluidState& f) const;  ///< [Pa] Darcy–Weisbach
    /// Film coefficient on the duct wall over a heated length L_heat.           [W/(m²·K)]
    double filmCoefficient(double Q, const FluidState& f, double L_heat) const;
};

/// One rack's coolant branch between the row supply and return headers (catalog units SI).
struct RackBranchSpec {
    Duct hose;                  ///< supply and return hoses in series (length = both)
    double minor_loss_K = 0.0;  ///< [1] Σ K of quick disconnects, tees, elbows (hose velocity)
    Duct channels;              ///< the rack's cold-plate channels, all in parallel
    double plate_length = 0.0;  ///< [m] heated length of one cold plate (thermal entry)
    double valve_kvs = 0.0;     ///< [m³/h] balancing valve fully open at 1 bar; 0: no valve
};

/// The pressure–flow law of one rack branch for one coolant at one temperature.
class RackBranch {
public:
    /// `flow_max` bounds the tabulated range (beyond it the law is evaluated directly).
    RackBranch(RackBranchSpec spec, FluidState fluid, double flow_max);
    /// Δp(Q) with the valve at `opening` (0, 1].                                       [Pa]
    double pressureDrop(double Q, double opening = 1.0) const;
    /// dΔp/dQ.                                                                  [Pa·s/m³]
    double pressureDropSlope(double Q, double opening = 1.0) const;
    /// Flow at differential pressure Δp (inverse of pressureDrop; 0 for Δp ≤ 0 or a
    /// closed valve).                                                               [m³/s]
    double flow(double dp, double opening = 1.0) const;
    /// The same with dQ/dΔp [m³/(s·Pa)].
    double flow(double dp, double opening, double& slope) const;
    /// Δp of the fixed parts (hoses, fittings, plates) computed directly, untabulated. [Pa]
    double pressureDropDirect(double Q) const;
    /// Valve Δp at opening x.                                                          [Pa]
    double valvePressureDrop(double Q, double opening) const;
    const RackBranchSpec& spec() const { return spec_; }
    const FluidState& fluid() const { return fluid_; }

private:
    /// Newton inversion of pressureDrop.
    double solveFlow(double dp, double opening) const;
    RackBranchSpec spec_;
    FluidState fluid_;
    double q_max_;
    MonotoneTable table_;       // Δp of the fixed parts against Q on an even grid
    MonotoneTable open_flow_;   // Q against √Δp with the valve open
    double sqrt_dp_max_ = 0.0;  // [√Pa] end of open_flow_
};

/// One CDU's secondary loop: its pumps, its own resistance and its rack branches.
class RackManifold {
public:
    static constexpr int kStartPumps = 8;          // running pumps tabulated at most; more
                                                   // start from half the head
    static constexpr int kStartKnots = 24;         // intervals over 0..kStartMaxSpeed
    static constexpr double kStartMaxSpeed = 1.2;  // the CDU's largest speed (thermal/cdu.h)
    struct Slot {
        std::size_t branch = 0;  ///< index into the branch types
        double weight = 1.0;     ///< [1] racks it stands for
    };
    struct Solution {
        double flow = 0.0;       ///< [m³/s] total
        double header_dp = 0.0;  ///< [Pa] supply − return header, across every branch
        double pump_dp = 0.0;    ///< [Pa] pressure rise of the pumps
    };
    /// `k_internal` [Pa/(m³/s)²] is the CDU's own resistance; `max_running` (1 …
    /// kStartPumps) the most pumps that can run, for which solve() keeps its start table.
    RackManifold(PumpCurve pump, double k_internal, std::vector<RackBranch> branches,
                 std::vector<Slot> rack_slots, int max_running = kStartPumps);
    /// Operating point with `running` pumps at `speed`, valve openings per slot; the flow per
    /// rack of each slot [m³/s] into `per_slot` when it is not empty (one entry per slot).
    /// The flows go to the caller's storage: a vector in the solution was a heap allocation
    /// per CDU evaluation (issue 12).
    Solution solve(int running, double speed, std::span<const double> openings,
                   std::span<double> per_slot = {}) const;
    const std::vector<RackBranch>& branches() const { return branches_; }
    const std::vector<Slot>& rackSlots() const { return slots_; }
    const PumpCurve& pump() const { return pump_; }
    double internalResistance() const { return k_int_; }

    /// The header Δp where pump and branches meet with `running` pumps at `speed` and every
    /// valve open, from a cubic Hermite table in speed (knots every kStartMaxSpeed/kStartKnots
    /// of rated, with their exact slopes), NaN outside it: solve() starts its Newton iteration
    /// there. In the reference year the start is within 1e-7 of the root (72 % within 1e-9), and
    /// the iteration stops after two residuals instead of four from the affinity law's rated
    /// Δp·speed² (issue 12). A finer table does not start closer: the branch law's table is
    /// C¹, and its second derivative jumps at its knots.
    double openStart(int running, double speed) const;

private:
    /// Σ w·q(Δp) and its derivative in Δp.
    void branchFlows(double dp, std::span<const double> openings, double& Q, double& dQ,
                     std::span<double> per_slot) const;
    /// The header Δp where pump and branches meet, by safeguarded Newton from `start`.
    double headerDp(double running, double speed, std::span<const double> openings,
                    double start) const;
    PumpCurve pump_;
    double k_int_;
    std::vector<RackBranch> branches_;
    std::vector<Slot> slots_;
    int start_pumps_ = 0;  // running pumps the start table covers
    /// [Pa], [Pa] per unit speed: header Δp and its slope in speed at knot j of n running
    /// pumps, at [(n − 1)·(kStartKnots + 1) + j].
    std::vector<double> start_dp_, start_slope_;
    /// [Pa] header Δp at rated speed, valves open, with 1 … kStartPumps pumps running: scaled
    /// by speed² (the affinity law of a quadratic system) it starts the iteration where a
    /// valve is throttled. From half the shut-off head it took 11 iterations a solve.
    std::vector<double> rated_dp_;
    /// Every slot is of branch type 0 (a campus CDU's racks): with every valve open, one
    /// inversion serves all and the slot loop only sums. Otherwise each slot inverts its own
    /// branch law (a contingency's throttled valve, or lumped slots of several types: few).
    bool one_type_ = false;
};

}  // namespace dctwin::thermal
