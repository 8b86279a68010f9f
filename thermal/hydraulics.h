#pragma once
// Hydraulics (DESIGN.md §3.3; domain-facts "Key formulas" C2): pump curves with the affinity
// laws, system curves, the operating point of parallel pumps on a system curve, a general
// pressure–flow network solved by Newton (Eigen), and a PumpGroup component.
//
// Pump (one pump, speed s = N/N_rated, flow Q through that pump):
//   pressure rise   Δp(Q, s) = H0·s² + H1·s·Q + H2·Q²                 [Pa]
//   shaft/electric  P(Q, s)  = P0·s³ + P1·s²·Q                         [W]
// Both forms obey the affinity laws exactly: Δp(s·Q, s) = s²·Δp(Q, 1), P(s·Q, s) = s³·P(Q, 1),
// so Q ∝ N, Δp ∝ N², P ∝ N³ along any system parabola through the origin. P is the electric
// input ("wire to water"): it matches Q_d·Δp_d/η_d at the design point and a shut-off power
// fraction (default 35 % of design, typical of centrifugal pumps) at zero flow; the
// wire-to-water efficiency η = Q·Δp/P follows from them.
//
// Network: nodes (node 0 is the pressure reference, 0 Pa gauge) and branches:
//   resistance  p_from − p_to = Δp_static + k·Q·|Q|^{n−1}   (sign-preserving; n = 2 turbulent)
//   valve       a resistance with k = k_open / opening²     (flow coefficient ∝ opening)
//   pump group  p_to − p_from = n_series · Δp(Q/n_parallel, s)
// Unknowns are the branch flows and node pressures; the equations are the branch laws and
// mass conservation at every node but the reference. Newton's method with a backtracking
// line search on the scaled residual, started from the solution of the same network with
// every law linearised (which gets the flow directions right), converges in a handful of
// iterations. Near Q = 0 the resistance law uses k·Q·(Q² + q_ε²)^{(n−1)/2} with q_ε a
// millionth of the flow scale so the Jacobian stays regular. A pump group with no running
// pump or zero speed acts as a closed check valve (Q = 0).
// Failure modes are ModelErrors naming the network and branch: Newton not converging, a
// running pump pushed into reverse flow (its shut-off head is below what the network needs,
// e.g. a static lift), or a pump beyond run-out (zero head).
#include <cstddef>
#include <string>
#include <vector>

#include "core/component.h"

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

struct HydraulicSolution {
    std::vector<double> flow;      // [m³/s] per branch, positive from → to
    std::vector<double> pressure;  // [Pa] per node, gauge relative to node 0
    int iterations = 0;
    double residual = 0.0;  // [1] scaled residual norm at the end
};

class HydraulicNetwork {
public:
    explicit HydraulicNetwork(std::string name);

    /// Node 0 (the first added) is the pressure reference.
    std::size_t addNode(std::string name);
    std::size_t addResistance(std::string name, std::size_t from, std::size_t to, double k,
                              double n = 2.0, double dp_static = 0.0);
    std::size_t addValve(std::string name, std::size_t from, std::size_t to, double k_open,
                         double opening = 1.0, double n = 2.0);
    /// `parallel` identical pumps side by side, `series` such stages in a row.
    std::size_t addPump(std::string name, std::size_t suction, std::size_t discharge,
                        PumpCurve curve, int parallel = 1, int series = 1, double speed = 1.0);

    void setSpeed(std::size_t branch, double speed);            // pump branches
    void setRunning(std::size_t branch, int parallel_running);  // pump branches
    void setOpening(std::size_t branch, double opening);        // valve branches, (0, 1]

    std::size_t nodeCount() const { return nodes_.size(); }
    std::size_t branchCount() const { return branches_.size(); }
    const std::string& branchName(std::size_t b) const { return branches_.at(b).name; }
    const std::string& name() const { return name_; }

    /// Solves for flows and pressures. `guess` (a previous solution of the same topology)
    /// replaces the linearised start.
    HydraulicSolution solve(const HydraulicSolution* guess = nullptr) const;

    /// Electric power of a pump branch at a solution.                                 [W]
    double pumpPower(const HydraulicSolution& s, std::size_t branch) const;
    /// Pressure rise of a pump branch at a solution.                                  [Pa]
    double pumpPressureRise(const HydraulicSolution& s, std::size_t branch) const;

private:
    enum class Kind { Resistance, Valve, Pump };
    struct Branch {
        std::string name;
        Kind kind;
        std::size_t from, to;
        double k = 0.0, n = 2.0, dp_static = 0.0;  // [Pa/(m³/s)^n], [1], [Pa]
        double k_open = 0.0, opening = 1.0;        // valves
        PumpCurve curve;                           // pumps
        int parallel = 1, series = 1, running = 1;
        double speed = 1.0;  // [1]
    };
    std::size_t addBranch(Branch b);
    const Branch& pumpBranch(std::size_t b, const char* what) const;
    bool closed(const Branch& b) const;
    /// Δp(Q) = p_from − p_to demanded by the branch law, and its derivative.
    void law(const Branch& b, double Q, double q_eps, double& dp, double& ddp) const;
    double flowScale() const;
    double pressureScale() const;

    std::string name_;
    std::vector<std::string> nodes_;
    std::vector<Branch> branches_;
};

/// N identical pumps (N duty + standby) on a system curve, as a component.
///
/// | kind   | name           | unit | meaning                                               |
/// |--------|----------------|------|-------------------------------------------------------|
/// | input  | speed          | 1    | speed command, fraction of rated (0..1.2)             |
/// | input  | pumps_failed   | 1    | failed pumps; running = min(duty, installed − failed) |
/// | output | flow           | m3/s | total flow on the system curve                        |
/// | output | pressure_rise  | Pa   |                                                       |
/// | output | power          | W    | electric input of the running pumps                   |
/// | output | pumps_running  | 1    |                                                       |
/// Every output depends directly on both inputs (algebraic, no states).
class PumpGroup : public Component {
public:
    struct Params {
        PumpCurve curve;
        int installed = 2;   // [1] pumps fitted (N+1 → duty + 1)
        int duty = 1;        // [1] pumps that run when none has failed
        SystemCurve system;  // loop served
    };
    PumpGroup(std::string name, Params params);
    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    bool outputDependsOnState(std::size_t, std::size_t) const override { return false; }
    const Params& params() const { return p_; }

private:
    Params p_;
};

/// Running pumps of an N+1 set: min(duty, installed − failed), never negative. `failed` is
/// rounded to the nearest integer (it arrives as a double input).
int runningPumps(int installed, int duty, double failed);

}  // namespace dctwin::thermal
