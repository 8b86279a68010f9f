#pragma once
// Facility water (FWS) pump station: identical variable-speed pumps in parallel, staged, on a
// differential-pressure setpoint at the hydraulically remote CDU (DESIGN.md §3.3).
//
// The flow is set by the CDUs' two-way primary valves (thermal/cdu.h); the pumps supply the
// pressure that lets the valves draw it. The loop's requirement at total flow Q:
//   H_req(Q) = Δp_r + k·Q²,   k = (H_d − Δp_set)/Q_d²                 (a SystemCurve)
// Δp_r is the differential pressure held across the remote CDU branch (HX + control valve):
//   differential_pressure  Δp_r = Δp_set (fixed)
//   valve_reset            Δp_r = clamp(Δp_set·(v_max/v_target)², Δp_min, Δp_set)
//                          the setpoint is lowered until the most-open CDU valve sits at
//                          v_target (ASHRAE 90.1-2019 §6.5.4.2: reset "based on valve
//                          position until one valve is nearly wide open"). v is the valve's
//                          flow fraction at the design Δp; a branch at fixed opening passes
//                          Q ∝ √Δp, so holding v_max/v_target of design flow through the
//                          most-open valve at opening v_target needs Δp_set·(v_max/v_target)².
//   constant_speed         duty pumps at rated speed; the excess head is throttled away by the
//                          CDU valves (the behaviour of a constant-speed primary)
// Staging: n running pumps (1 ≤ n ≤ min(duty, installed − failed)), each at speed
//   s_n = max(s_min, s: Δp_pump(Q/n, s) = H_req(Q))     (PumpCurve::speedFor)
// feasible when s_n ≤ 1; the controller runs the feasible n with the least electric input
//   P_n = n·(P_pump(Q/n, s_n) + f_drive·P_d)
// (min over continuous branches, so P(Q) is continuous: no jump when a pump stages). Below
// s_min the pumps deliver more head than needed and the valves throttle it.
// The head actually delivered is H = Δp_pump(Q/n, s_n); its hydraulic work W = Q·H ends as heat
// in the water (pipe friction, valves); P − W (motor, drive and pump losses) goes to the plant
// room air.
// Available flow: with fewer pumps than duty (failures beyond the standby) the pumps at rated
// speed meet the loop with every valve open (the SystemCurve through the design point, no
// static part) at Q_max < Q_d (pumpOperatingPoint); the CDUs then share Q_max/Q_d of their
// design flow.
//
// | kind | name                | unit | |
// |------|---------------------|------|----------------------------------------------|
// | in   | flow Q              | m3/s | drawn by the CDU valves                      |
// | in   | failed              | 1    | pumps out of service                         |
// | in   | valve_max           | 1    | most-open CDU valve (valve_reset only)       |
// | out  | running, speed      | 1    | staged pumps, drive speed fraction of rated  |
// | out  | head, remote_dp     | Pa   | pump pressure rise, remote setpoint in force |
// | out  | power, work         | W    | electric input, hydraulic work into the water|
// | out  | flow_available      | 1    | fraction of design flow the CDUs can draw    |
#include <string>

#include "thermal/hydraulics.h"

namespace dctwin::thermal {

/// Design and control of a facility pump station; SI.
struct PumpStationSpec {
    double design_flow = 0.1;             ///< [m³/s] total at design
    double design_head = 250e3;           ///< [Pa] pump pressure rise at design flow
    double efficiency = 0.7;              ///< [1] wire to water at design, per pump
    int duty = 2;                         ///< [1] pumps that carry the design flow
    int standby = 1;                      ///< [1] installed spares
    std::string control = "valve_reset";  ///< | differential_pressure | constant_speed
    double dp_setpoint = 100e3;           ///< [Pa] remote CDU branch Δp at design
    double dp_min = 30e3;                 ///< [Pa] lowest setpoint of the reset
    double valve_target = 0.9;            ///< [1] most-open valve the reset aims at
    double min_speed = 0.3;               ///< [1] of rated
    double drive_fixed_loss = 0.015;      ///< [1] of a pump's design electric input, per drive
};

class PumpStation {
public:
    /// Throws InputError (naming `where`) when the spec is inconsistent.
    PumpStation(const PumpStationSpec& spec, const std::string& where);

    struct Result {
        int running = 0;         ///< [1]
        double speed = 0.0;      ///< [1]
        double head = 0.0;       ///< [Pa]
        double remote_dp = 0.0;  ///< [Pa]
        double power = 0.0;      ///< [W] electric
        double work = 0.0;       ///< [W] hydraulic, into the water
    };
    /// The station at total flow Q [m³/s] with `failed` pumps out and the most-open valve at
    /// `valve_max` (flow fraction at design Δp).
    Result operate(double Q, double failed, double valve_max) const;
    /// Fraction of the design flow the pumps can deliver at rated speed with every valve open.
    double flowAvailable(double failed) const;
    /// Pumps available to run: min(duty, installed − failed).
    int available(double failed) const;

    const PumpStationSpec& spec() const { return spec_; }
    const PumpCurve& curve() const { return curve_; }
    const SystemCurve& openLoop() const { return open_; }
    /// Electric input of the station at design (duty pumps, design flow and head).  [W]
    double designPower() const;

private:
    double remoteDp(double valve_max) const;

    PumpStationSpec spec_;
    std::string where_;
    PumpCurve curve_;
    SystemCurve open_;    // every valve open: through (Q_d, H_d), no static part
    double k_ = 0.0;      // [Pa/(m³/s)²] distribution and plant resistance
    double fixed_ = 0.0;  // [W] per running drive
};

}  // namespace dctwin::thermal
