#pragma once
// Facility water loop pieces (DESIGN.md §3.3): pipes with thermal mass and transport delay,
// and mixing of streams. Pumps of the loop are PumpGroup (thermal/hydraulics.h).
//
// Pipe: a chain of N well-mixed segments (tanks in series) of equal volume V/N:
//   (M_i·c_p(T_i) + C_wall/N) · dT_i/dt = ṁ·(h(T_{i−1}) − h(T_i)) − (UA_amb/N)·(T_i − T_amb)
// with T_0 the inlet temperature, ṁ = ρ_ref·V̇ (V̇ ≥ 0: flow runs inlet → outlet). The outlet
// is T_N. Why a chain: a plug-flow delay τ = V/V̇ cannot be a finite ODE; N tanks give the
// right mean delay τ (plus wall capacity) and a spread of the front with variance τ²/N, so N
// sets how sharp a temperature front stays (N = 1: a single mixed volume; N ≈ 10–20 for a
// long header whose delay matters in contingency studies). The pipe's temperature output is
// a state: pipes break algebraic loops around the facility loop.
//
// | kind   | name         | unit | feedthrough |
// |--------|--------------|------|-------------|
// | state  | T1 … TN      | K    |             |
// | input  | inlet_temp   | K    |             |
// | input  | flow         | m3/s |             |
// | input  | ambient_temp | K    |             |
// | output | outlet_temp  | K    | — (state TN) |
//
// Mixer: M streams join adiabatically, no hold-up:
//   V̇ = Σ w_j·V̇_j,   h(T_mix) = Σ w_j·ṁ_j·h(T_j) / Σ w_j·ṁ_j
// with w_j the multiplicity of stream j (lumped identical racks). With no flow at all the
// output is the weighted mean of the inlet temperatures (any value would do; this one is
// continuous as the flow returns).
// | input  | temp_<j>, flow_<j> | K, m3/s | j = 1..M               |
// | output | temp               | K       | feedthrough: all inputs |
// | output | flow               | m3/s    | feedthrough: flows      |
// | output | temp_max           | K       | feedthrough: temps      |
// temp_max is a smooth maximum over the streams of non-zero multiplicity, whatever their flow:
// the rack a CDU's pumps must serve first (its differential-pressure reset, thermal/cdu.h),
//   T_max = T* + s·ln(Σ w_j·e^((T_j − T*)/s) / Σ w_j),  T* = max_j T_j,  s = 0.3 K.
// It equals T* when all streams agree (lumping w identical racks into one stream changes
// nothing) and lies at most s·ln(Σ w_j / w*) below it, w* the multiplicity of the hottest
// stream (0.62 K for 8 racks, one of them much hotter; 0 when the hottest are all of them).
// Why smooth: the finite-difference Jacobian moves one rack at a time and one way, so of 8
// equal racks under a hard max each would be "the" maximum, with a partial of 1; moved together
// they would move the max 8×. Those partials stalled the steady design-point solve (0.5 → 5.5 s
// at 1,390 distinct racks). Here the partials are weights that sum to 1.
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/component.h"
#include "thermal/coolant.h"

namespace dctwin::thermal {

struct PipeParams {
    double volume = 1.0;           // [m³] fluid in the pipe
    int segments = 4;              // [1] well-mixed segments
    double wall_capacity = 0.0;    // [J/K] pipe wall metal, total
    double UA_ambient = 0.0;       // [W/K] heat loss to the surroundings, total
    double initial_temp = 303.15;  // [K]
    double nominal_flow = 0.03;    // [m³/s] typical flow (scaling only)
};

class Pipe : public Component {
public:
    enum Input : std::size_t { kInletTemp, kFlow, kAmbient };
    enum Output : std::size_t { kOutletTemp };
    Pipe(std::string name, Coolant coolant, PipeParams params);
    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    void computeDerivatives(double t, std::span<const double> x, std::span<const double> u,
                            std::span<double> dxdt) const override;
    bool outputDependsOnInput(std::size_t, std::size_t) const override { return false; }
    bool outputDependsOnState(std::size_t, std::size_t s) const override;
    bool derivativeDependsOnState(std::size_t row, std::size_t s) const override;
    bool derivativeDependsOnInput(std::size_t row, std::size_t i) const override;

    /// Heat stored in fluid and wall relative to T_ref (wall: relative to 0 K).         [J]
    double storedEnergy(std::span<const double> x) const;
    /// Heat lost to the surroundings at state x and ambient T_amb.                       [W]
    double heatLoss(std::span<const double> x, double T_amb) const;
    /// Mean transport delay V/V̇ (fluid only).                                  [m³/s] → [s]
    double transportDelay(double flow) const { return p_.volume / flow; }
    const PipeParams& params() const { return p_; }

private:
    Coolant coolant_;
    PipeParams p_;
    double segment_mass_;  // [kg]
};

class Mixer : public Component {
public:
    // Inputs come in pairs made in a loop, temp_j at 2(j−1) and flow_j at 2(j−1)+1, indexed
    // arithmetically (unchecked overload); the outputs have constants.
    enum Output : std::size_t { kTemp, kFlow, kTempMax };
    static constexpr double kMaxSmoothing = 0.3;  // [K] s of temp_max
    /// One multiplicity per stream (≥ 0).
    Mixer(std::string name, Coolant coolant, std::vector<double> multiplicities,
          double nominal_temp = 313.15, double nominal_flow = 0.003);
    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    bool outputDependsOnInput(std::size_t output, std::size_t input) const override;
    bool outputDependsOnState(std::size_t, std::size_t) const override { return false; }
    std::size_t streams() const { return w_->size(); }

private:
    Coolant coolant_;
    /// Multiplicities, shared by every mixer with the same (core/shared_value.h): a campus's
    /// CDU mixers all have eight streams of one rack, and a copy each was a cache miss per
    /// mixer and evaluation (~3 % of a year of 5,560 distinct racks).
    std::shared_ptr<const std::vector<double>> w_;
};

}  // namespace dctwin::thermal
