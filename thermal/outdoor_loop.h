#pragma once
// Outdoor loop: a closed loop of glycol between the heat-rejection bank (dry or adiabatic
// coolers, or a tower's water) and a counterflow plate heat exchanger that isolates the
// facility loop. The facility loop then stays water indoors while only the outdoor loop's
// liquid stands in frost in the coils (a pump stopped on a winter night freezes water there).
//
// Design (sizing), at the facility loop's design flow ṁ_i, duty Q_d and supply T_s:
//   C_i = ṁ_i·c_p,i(T̄_i), the outdoor flow balanced to it: ṁ_o = C_i/c_p,o(T̄_o) (C_r = 1),
//   T_r = h_i⁻¹(h_i(T_s) + Q_d/ṁ_i),  T_o,s = T_s − approach,
//   ε_d = Q_d / (C_i·(T_r − T_o,s)),  NTU_d = ε_d/(1 − ε_d),  UA_d = NTU_d·C_i.
//   (T̄ the stream's mean temperature at design; c_p is held at it in operation, so ε depends
//   on the flows alone.)
// Operation at facility inflow ṁ_i, T_in, setpoint T_set. The outdoor pumps track the
// facility flow (variable speed, the flows kept balanced) down to their minimum speed, or
// run at rated speed (constant_speed):
//   r = clamp(ṁ_i/ṁ_i,d, s_min, 1) (tracking) or 1,  ṁ_o = r·ṁ_o,d,
//   W = W_d·r³, P = P_d·r³ (affinity laws in a loop of friction only; W_d = Δp_d·V̇_o,d),
//   UA = UaScaling(UA_d; ṁ_i, ṁ_o; n = 0.8 each side, half the resistance on each),
//   with k of the N duty plates in service (a plate lost, a standby not yet valved in), each
//   plate of UA_d/N takes ṁ/k of both streams: UA = (k/N)·UaScaling(UA_d; ṁ_i·N/k, ṁ_o·N/k)
//   (exactly the above at k = N). With none in service the loop is valved off and its pumps
//   stop: Q = 0, the facility water passes as it came, and the glycol's temperatures read the
//   facility water's (nothing flows to set them).
//   Pumps lost: a standby starts in place of a failed duty pump (lead/lag, as the facility
//   pumps'), so the flow is cut only when fewer than the duty pumps are left. Then the n left
//   run at rated speed against the loop, a system curve of friction only through the design
//   point (Δp = Δp_d·(V̇/V̇_o,d)²), each pump a quadratic through its design point (V̇_o,d/N_p,
//   Δp_d) with a shut-off head of 1.25·Δp_d (PumpCurve::fromDesignPoint):
//   r_max = V̇(n)/V̇_o,d with Δp_pump(V̇/n, 1) = Δp_d·(V̇/V̇_o,d)²; for n = 1 of 2,
//   1.25 − 0.25·x² = 0.25·x² with x = V̇/(V̇_o,d/2): r_max = √2.5/2 = 0.791. The speed r above
//   is then capped at r_max (W = W_d·r³ still: the loop's friction sets the work; the pumps'
//   efficiency is held at design, the loop's pump energy being small). With none left the
//   loop stops as with no plate in service.
//   k = ε(NTU = UA/C_min, C_r)·C_min   [W/K],   Q = k·(T_in − T_o,s)   (heat out of the
//   facility water; negative, into it, when the outdoor supply is the warmer),
//   h_o(T_o,r) = h_o(T_o,s) + (Q + W)/ṁ_o.
//   The bank's controller holds the outdoor supply at T*_o,s = T_in − max(Q*, 0)/k with
//   Q* = ṁ_i·(h_i(T_in) − h_i(T_set)): the facility water then leaves at T_set exactly.
//   Tracking pumps whose bank cannot reach T*_o,s at the tracked speed r_t speed up first
//   (more glycol: a larger k, a warmer T*_o,s, a better coil film), to the least r in
//   (r_t, r_max] at which the bank holds (bisection to 1e-9 of rated speed: P stays continuous
//   where the override starts), as the CDUs' ΔT control is overridden when hot. A bank that
//   cannot reach T*_o,s at the pumps' top speed runs at its limit, and the loop settles where it
//   rejects what the exchanger passes: F(T_o,s) = Q_bank(T_o,r) − Q − W = 0, F increasing in
//   T_o,s (Q falls, T_o,r and Q_bank rise), bracketed by T*_o,s (F < 0) and T_in + W/k
//   (Q + W = 0, F ≥ 0). Illinois on that bracket, to 1e-12 K.
//   Facility outlet: h_i(T_out) = h_i(T_in) − Q/ṁ_i.
// Electric input P = W/η; W ends as heat in the outdoor liquid, P − W in the air.
//
// | kind | name               | unit | |
// |------|--------------------|------|------------------------------------------------------|
// | in   | T_in, ṁ_i, T_set   | K, kg/s, K | facility water entering, its flow, its setpoint |
// | in   | plates, pumps lost | 1    | duty plates in service, outdoor pumps out of service  |
// | in   | bank(T, V̇, T_set,o) | —   | the bank at outdoor inflow T and flow V̇ [m³/s],
// |      |                    |      | asked for T_set,o                                     |
// | out  | inner_outlet       | K    | facility water leaving the exchanger                  |
// | out  | heat               | W    | from the facility water                               |
// | out  | outer_supply/return| K    | outdoor liquid into / out of the exchanger            |
// | out  | unmet              | K    | facility outlet above T_set (0 while the bank holds)  |
// | out  | flow, pump_power, pump_work | m³/s, W, W | outdoor loop                          |
// No states: the loop's liquid is algebraic (its hold-up is small beside the facility loop's).
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "thermal/coolant.h"
#include "thermal/heat_exchanger.h"
#include "thermal/hydraulics.h"
#include "thermal/illinois.h"

namespace dctwin::thermal {

/// /cooling/heat_rejection/outdoor_loop; SI.
struct OutdoorLoopSpec {
    std::string coolant = "PG40";  ///< liquid in the outdoor loop
    double approach = 2.0;         ///< [K] facility supply − outdoor supply at design duty
    double pressure_drop = 150e3;  ///< [Pa] loop (coils, exchanger, pipes) at design flow
    double pump_efficiency = 0.7;  ///< [1] wire to liquid at design
    bool track_flow = true;        ///< pumps follow the facility flow (else rated speed)
    double pump_min_speed = 0.3;   ///< [1] of rated, when tracking
    // Installed units. They change no physics here: duty units in parallel share the flow
    // equally (N plates of UA_d/N are one plate of UA_d; N pumps of V̇/N at Δp make the
    // loop's W), and spares stand by valved off. Sizing counts and loads them, as it does the
    // CDUs and the facility pumps (a Tier III site is concurrently maintainable: N+1 on the
    // cooling path, domain-facts D2).
    int exchangers = 1;          ///< [1] duty plate exchangers sharing the design heat
    int exchangers_standby = 1;  ///< [1] spare plates, valved off until one is taken out
    int pumps_duty = 2;          ///< [1] pumps sharing the outdoor design flow
    int pumps_standby = 1;       ///< [1] spare pumps
};

class OutdoorLoop {
public:
    /// Sized for the facility loop's liquid `inner` at its design volume flow [m³/s], duty [W]
    /// and supply [K]. InputError for a design the exchanger cannot take (no flow or duty, an
    /// approach ≤ 0, an outdoor supply outside the outdoor liquid's table).
    OutdoorLoop(OutdoorLoopSpec spec, const Coolant& inner, double design_flow, double design_duty,
                double design_supply);

    const OutdoorLoopSpec& spec() const { return spec_; }
    const Coolant& liquid() const { return outer_; }
    double flow() const { return flow_; }        ///< [m³/s] outdoor, design
    double massFlow() const { return mdot_o_; }  ///< [kg/s] design
    double pumpWork() const { return work_; }    ///< [W] into the liquid, design
    double pumpPower() const { return work_ / spec_.pump_efficiency; }  ///< [W] electric, design
    /// The pumps' speed (= outdoor flow) as a fraction of design at facility inflow ṁ_i.
    double speed(double mdot_inner) const;
    double designUa() const { return ua_.UA_design; }     ///< [W/K]
    double designDuty() const { return duty_; }           ///< [W]
    double designSupply() const { return T_os_design_; }  ///< [K] outdoor supply
    double designReturn() const { return T_or_design_; }  ///< [K] outdoor return
    /// k = ε·C_min of the exchanger at facility inflow ṁ_i [kg/s] (the outdoor flow as the
    /// pumps run at it).                                                   [W/K]
    double conductance(double mdot_inner) const {
        return conductanceAt(mdot_inner, speed(mdot_inner));
    }
    /// The same with the pumps at speed r (fraction of rated), every duty plate in service.
    double conductanceAt(double mdot_inner, double r) const {
        return conductanceAt(mdot_inner, r, spec_.exchangers);
    }
    /// The same with `plates` of the duty plates in service (0 ≤ plates ≤ exchangers).
    double conductanceAt(double mdot_inner, double r, int plates) const;
    /// The pumps' top speed (= flow) as a fraction of design with `pumps_failed` of the
    /// installed pumps out of service: 1 while the duty pumps are left, r_max(n) for n fewer,
    /// 0 with none.                                                                     [1]
    double maxSpeed(int pumps_failed) const;

    struct State {
        double inner_outlet = 0.0;  ///< [K]
        double heat = 0.0;          ///< [W] from the facility water
        double outer_supply = 0.0;  ///< [K]
        double outer_return = 0.0;  ///< [K]
        double unmet = 0.0;         ///< [K]
        double flow = 0.0;          ///< [m³/s] outdoor liquid
        double pump_power = 0.0;    ///< [W] electric
        double pump_work = 0.0;     ///< [W] into the outdoor liquid
    };
    /// The loop with the bank `bank(T_in_outdoor, flow_outdoor, setpoint_outdoor)` (returning its
    /// outputs with .heat_rejected [W] and .setpoint_unmet [K]) at facility inflow T_in [K], ṁ_i >
    /// 0 [kg/s] and setpoint T_set [K], with `plates` of the duty plates in service (< 0: all)
    /// and `pumps_failed` of the installed pumps out of service. Returns the loop's state and
    /// the bank's outputs where it runs.
    template <class Bank>
    auto operate(double T_in, double mdot_in, double T_set, Bank&& bank, int plates = -1,
                 int pumps_failed = 0) const -> std::pair<State, decltype(bank(0.0, 0.0, 0.0))>;

private:
    OutdoorLoopSpec spec_;
    Coolant inner_, outer_;
    UaScaling ua_;
    double cp_i_ = 0.0, cp_o_ = 0.0;  // [J/(kg·K)] at the design mean temperatures
    double flow_ = 0.0, mdot_o_ = 0.0, work_ = 0.0, duty_ = 0.0;
    double T_os_design_ = 0.0, T_or_design_ = 0.0;
    std::vector<double> top_speed_;  // [1] r_max with n = 0..pumps_duty pumps left
    /// The outdoor return [K] when the exchanger passes Q [W] from an outdoor supply T [K]
    /// and the pumps add W [W] to ṁ [kg/s].
    double outerReturn(double T, double Q, double W, double mdot) const {
        return outer_.temperatureFromEnthalpy(outer_.enthalpy(T) + (Q + W) / mdot);
    }
};

template <class Bank>
auto OutdoorLoop::operate(double T_in, double mdot_in, double T_set, Bank&& bank, int plates,
                          int pumps_failed) const
    -> std::pair<State, decltype(bank(0.0, 0.0, 0.0))> {
    using Out = decltype(bank(0.0, 0.0, 0.0));
    plates = plates < 0 ? spec_.exchangers : std::min(plates, spec_.exchangers);
    const double r_max = maxSpeed(pumps_failed);
    if (plates == 0 || r_max <= 0.0) {
        // Valved off or no pump left: the bank sees no flow (and rejects nothing).
        State s;
        s.inner_outlet = s.outer_supply = s.outer_return = T_in;
        s.unmet = std::max(0.0, T_in - T_set);
        return {s, bank(T_in, 0.0, T_set)};
    }
    const double h_in = inner_.enthalpy(T_in);
    const double Q_set = std::max(0.0, mdot_in * (h_in - inner_.enthalpy(T_set)));
    // The loop at pump speed r: its flow, work, conductance and the outdoor supply the bank
    // is asked for (no colder than the outdoor liquid's table).
    struct AtSpeed {
        double r, mdot_o, q, work, k, T_lo;
    };
    auto atSpeed = [&](double r) {
        AtSpeed a{r,  r * mdot_o_, r * flow_, work_ * r * r * r, conductanceAt(mdot_in, r, plates),
                  0.0};
        a.T_lo = std::max(T_in - Q_set / a.k, outer_.minTemperature());
        return a;
    };
    auto state = [&](const AtSpeed& a, double T_os, double Q) {
        State s;
        s.flow = a.q;
        s.pump_work = a.work;
        s.pump_power = a.work / spec_.pump_efficiency;
        s.outer_supply = T_os;
        s.heat = Q;
        s.outer_return = outerReturn(T_os, Q, a.work, a.mdot_o);
        s.inner_outlet = inner_.temperatureFromEnthalpy(h_in - Q / mdot_in);
        return s;
    };
    // Held at speed r: the bank reaches T*_o,s and the water leaves at its setpoint (or as it
    // came, below it).
    auto held = [&](const AtSpeed& a) -> std::optional<std::pair<State, Out>> {
        const double Q = a.k * (T_in - a.T_lo);
        auto out = bank(outerReturn(a.T_lo, Q, a.work, a.mdot_o), a.q, a.T_lo);
        if (out.setpoint_unmet > 0.0) return std::nullopt;
        return std::pair{state(a, a.T_lo, Q), out};
    };
    const AtSpeed tracked = atSpeed(std::min(speed(mdot_in), r_max));
    if (auto h = held(tracked)) return *h;
    AtSpeed a = tracked;
    if (tracked.r < r_max) {
        a = atSpeed(r_max);
        if (auto best = held(a)) {
            double lo = tracked.r, hi = r_max;
            while (hi - lo > 1e-9) {
                const double mid = 0.5 * (lo + hi);
                if (auto h = held(atSpeed(mid))) {
                    hi = mid;
                    best = std::move(h);
                } else {
                    lo = mid;
                }
            }
            return *best;
        }
    }
    // The bank at its limit (at the pumps' top speed where they track): the supply where it
    // rejects what the exchanger passes and the pumps' work.
    auto finish = [&](double T, double Q, Out o) {
        State s = state(a, T, Q);
        s.unmet = std::max(0.0, s.inner_outlet - T_set);
        return std::pair{s, o};
    };
    const double per_K = 1.0 / (a.mdot_o * cp_o_);  // [K/W] a residual in kelvin
    // F at a trial in kelvin (the bank still asked for T*_o,s, which it cannot reach), keeping
    // the trial's bank outputs: the trial that ends the search is the answer.
    double last_T = std::numeric_limits<double>::quiet_NaN(), last_Q = 0.0;
    Out last_o{};
    auto residual = [&](double T) {
        last_T = T;
        last_Q = a.k * (T_in - T);
        last_o = bank(outerReturn(T, last_Q, a.work, a.mdot_o), a.q, a.T_lo);
        return (last_o.heat_rejected - last_Q - a.work) * per_K;
    };
    double hi = T_in + a.work / a.k;
    double f_hi = residual(hi);  // F(T*_o,s) < 0 ≤ F(hi)
    // A bank that rejects nothing (air warmer than the liquid) is still ≥ 0 there; guard
    // against a bank that takes heat back by widening the bracket.
    for (int i = 0; i < 20 && f_hi < 0.0; ++i) f_hi = residual(hi += 10.0);
    const double lo = a.T_lo;
    const double f_lo = residual(lo);
    if (!(f_lo < 0.0)) return finish(lo, last_Q, last_o);
    // A search that runs out of trials ends on the bracket's midpoint, evaluated once more.
    const double T = illinois(residual, lo, hi, f_lo, f_hi, 1e-12, 1e-12);
    if (T != last_T) residual(T);
    return finish(T, last_Q, last_o);
}

}  // namespace dctwin::thermal
