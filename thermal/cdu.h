#pragma once
// CDU: coolant distribution unit between the rack (TCS, secondary) loop and the facility water
// (FWS, primary) loop (DESIGN.md §3.3; domain-facts B4, "Key formulas" C2, C3).
//
// Plate heat exchanger, counterflow ε-NTU:
//   Q_hx = ε(NTU, C_r) · C_min · (T_hx,in − T_fs),  C_s = ṁ_s·c_p,s(T_hx,in), C_f = ṁ_f·c_p,f(T_fs)
//   UA(ṁ_s, ṁ_f): series film conductances, each ∝ (ṁ/ṁ_design)^0.8 (thermal/heat_exchanger.h)
//   UA_design is derived from the catalog record with the coolant it was rated with: at design
//   capacity Q_d, design flows and design approach ΔT_app = T_ss − T_fs, the counterflow ε-NTU
//   relation is inverted for NTU. Another secondary coolant re-rates the secondary film
//   conductance by the plate-channel correlation Nu = C·Re^n·Pr^(1/3) (Kakaç & Liu, Heat
//   Exchangers, 3rd ed., ch. 10), at equal mass flow and the design mean temperature:
//     hA/hA_rated = (k/k_r) · (μ_r/μ)^n · (Pr/Pr_r)^(1/3)
//   (water in place of PG25 at 40 °C: ×1.72; PG30: below 1, tests/thermal/cdu_test.cpp).
//   The facility side likewise when the facility loop carries another liquid than the one
//   the CDU was rated with (a glycol against freezing outdoor coils, facility/specs.h), at
//   the facility side's design mean temperature.
// Secondary pumps (N duty + standby, "N+1") on a variable-speed drive push the total flow Q
// through the CDU's own resistance and the rack branches (thermal/hydraulics.h RackManifold):
//   Δp_pump(Q/N, s) = k_int·Q² + Δp_header,   Q = Σ w_i·q_i(Δp_header, x_i)
// Their hydraulic work Q·Δp_pump becomes heat in the coolant before the HX:
//   h(T_hx,in) = h(T_ret) + Q·Δp_pump/ṁ_s.
// Electric input from the pump curve (affinity laws, wire-to-water efficiency at design from the
// catalog) plus the drive's fixed loss while a pump runs.
// Pump control: the drive speed s is a state that follows the PI command with the drive's ramp
// (first order, τ_drive), so no output depends on the measured variable algebraically:
//   e = (r − y)/r  (differential pressure, flow)  or  (ΔT − ΔT_set)/ΔT_set  (delta_t)
//   c = K_p·e + I,  s* = clamp(c, s_min, s_max),  dI/dt = K_p·e/T_i + (s* − c)/T_i,
//   ds/dt = (s* − s)/τ_drive
// with y the header differential pressure, the total secondary flow, or the TCS return −
// supply temperature difference ΔT. A differential-pressure setpoint may be reset on ΔT as
// ASHRAE 90.1-2019 §6.5.4.2 asks of variable-flow pumping (the setpoint falls when the racks
// need less flow, so the flow follows the load):
//   e_ΔT = (ΔT_r − ΔT_set)/ΔT_set,  R* = R + K_r·(Δp_max − Δp_min)·e_ΔT,
//   r = clamp(R*, Δp_min, Δp_max),  dR/dt = (Δp_max − Δp_min)/T_reset·e_ΔT + (r − R*)/T_reset
// The reset is suspended while the loop runs hot: with h = step((T_ss − T_set − 1 K)/1 K), a C¹
// step from 1 K to 2 K above the supply setpoint, the setpoint is r + h·(Δp_max − r) and
// dR/dt = (1 − h)·(the above) + h·(Δp_max − R)/T_reset. Without it a lost facility water
// supply, which collapses the racks' ΔT while the supply rises, slowed the pumps by half.
// Pumps on ΔT (delta_t) are overridden alike, toward the design secondary flow V̇_d:
//   e = (1 − h)·(ΔT − ΔT_set)/ΔT_set + h·(V̇_d − V̇_s)/V̇_d
// ΔT_r is the rise of the critical rack, T_ret,max − T_ss ("critical_rack", the catalog's
// choice), or of the mixed return, T_ret − T_ss ("delta_t"). §6.5.4.2 resets on the zone that
// needs the most pressure; the rack branches have no control valves to say which, so the
// hottest return does. On the mixed return, racks idling beside a training rack hide its rise:
// in a campus with one job per rack, 32 to 84 racks ran 30 K above their supply with ~60 L/min
// and throttled for their first 16 h while the mixed ΔT sat at its 10 K setpoint.
// "constant_speed" runs the pumps at the speed input (the behaviour before pump control).
// Hold-up nodes (why: they make the CDU's temperature outputs states, so racks → CDU → racks
// and CDU → facility loop → CDU have no algebraic loop; physically the HX channels, headers
// and buffer volume):
//   M_s·c_p,s · dT_ss/dt  = ṁ_s·(h_s(T_hx,in) − h_s(T_ss)) − Q_hx
//   M_f·c_p,f · dT_fr/dt  = ṁ_f·(h_f(T_fs) − h_f(T_fr)) + Q_hx
// Supply-temperature control: PI on the facility-side valve (flow fraction v of the facility
// flow available), with back-calculation anti-windup:
//   e = T_ss − T_set,  u = K_p·e + I,  v = clamp(u, v_min, 1),  dI/dt = K_i·e + (v − u)/T_i
//   ṁ_f = ρ_ref,f · v · V̇_f,available.
// In steady state T_ss equals the ε-NTU outlet and the states sit still; the energy
// balance ṁ_s·Δh_s + W_hyd = Q_hx = ṁ_f·Δh_f holds exactly.
//
// clang-format off
// | kind   | name                    | unit | feedthrough from                             |
// |--------|-------------------------|------|----------------------------------------------|
// | state  | secondary_supply_temp   | K    |                                              |
// | state  | facility_return_temp    | K    |                                              |
// | state  | valve_integral          | 1    | PI integral of the facility valve            |
// | state  | pump_speed              | 1    | drive speed, fraction of rated               |
// | state  | pump_integral           | 1    | PI integral of the pump controller           |
// | state  | dp_reset                | Pa   | reset differential-pressure setpoint         |
// | input  | secondary_return_temp   | K    | (derivatives only)                           |
// | input  | facility_supply_temp    | K    |                                              |
// | input  | facility_flow_available | m3/s | facility flow with the valve fully open      |
// | input  | supply_temp_setpoint    | K    |                                              |
// | input  | pump_speed              | 1    | speed (constant_speed) or maximum speed      |
// | input  | pumps_failed            | 1    | failed secondary pumps                       |
// | input  | dp_setpoint             | Pa   | header Δp setpoint (upper limit when reset)  |
// | input  | critical_return_temp    | K    | hottest rack return (derivatives only)       |
// | input  | valve_<i>               | 1    | balancing-valve opening of rack slot i       |
// | output | secondary_supply_temp   | K    | — (state)                                    |
// | output | facility_return_temp    | K    | — (state)                                    |
// | output | secondary_flow          | m3/s | pumps_failed, valve_*                        |
// | output | flow_per_rack           | m3/s | pumps_failed, valve_* (mean over the racks)  |
// | output | rack_flow_<i>           | m3/s | pumps_failed, valve_* (one rack of slot i)   |
// | output | facility_flow           | m3/s | facility_flow_available, supply_temp_setpoint|
// | output | valve_position          | 1    | supply_temp_setpoint                         |
// | output | heat_transferred        | W    | facility_supply_temp, facility_flow_available, supply_temp_setpoint |
// | output | pump_power              | W    | pumps_failed, valve_*                        |
// | output | approach                | K    | facility_supply_temp                         |
// | output | pump_heat               | W    | pumps_failed, valve_* (hydraulic work)       |
// | output | pump_speed              | 1    | — (state)                                    |
// | output | header_dp               | Pa   | pumps_failed, valve_*                        |
// | output | pump_dp                 | Pa   | pumps_failed, valve_*                        |
// clang-format on
// heat_transferred = ṁ_f·(h_f(T_fr) − h_f(T_fs)), the heat handed to the facility loop (equal to
// Q_hx in steady state). No output depends on secondary_return_temp, so racks and mixers may
// feed through from the CDU's outputs. In constant_speed mode the flows also depend on the
// pump_speed input.
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/component.h"
#include "core/json.h"
#include "thermal/coolant.h"
#include "thermal/heat_exchanger.h"
#include "thermal/hydraulics.h"

namespace dctwin::thermal {

/// A CDU catalog record (data/catalog/thermal/cdus.json), SI.
struct CduSpec {
    std::string name;
    double capacity = 0.0;               // [W] design heat duty
    double approach = 0.0;               // [K] T_secondary,supply − T_facility,supply at design
    double secondary_flow = 0.0;         // [m³/s] design secondary (TCS) flow
    double facility_flow = 0.0;          // [m³/s] design facility (FWS) flow
    double secondary_supply_temp = 0.0;  // [K] design secondary supply temperature
    std::string secondary_coolant = "PG25";
    std::string facility_coolant = "water";
    double pump_pressure_rise = 0.0;        // [Pa] at design flow and rated speed
    double pump_efficiency = 0.6;           // [1] wire to water at design
    int pumps_installed = 2;                // [1]
    int pumps_duty = 1;                     // [1]
    double ua_flow_exponent = 0.8;          // [1] both sides
    double hot_resistance_fraction = 0.5;   // [1]
    double secondary_volume = 0.1;          // [m³] hold-up on the secondary side
    double facility_volume = 0.1;           // [m³] hold-up on the facility side
    double internal_pressure_drop = 100e3;  // [Pa] HX, strainer, piping at the design flow
    double drive_fixed_loss = 0.015;        // [1] of design electric power, per running drive
    // Pump control (secondary): see the header comment.
    std::string control_variable = "differential_pressure";  // | flow | delta_t | constant_speed
    std::string dp_reset = "critical_rack";                  // | delta_t | none
    double dp_setpoint = 100e3;      // [Pa] header Δp (upper limit of the reset)
    double dp_min = 10e3;            // [Pa] lower limit of the reset
    double flow_setpoint = 0.0;      // [m³/s] total secondary flow (flow mode); 0: design flow
    double delta_t_setpoint = 10.0;  // [K] TCS return − supply (delta_t mode and the reset)
    double min_speed = 0.15;         // [1] of rated
    double control_gain = 0.5;       // [1] speed per relative error
    double control_integral_time = 20.0;  // [s]
    double drive_time_constant = 5.0;     // [s] speed ramp of the drive
    double reset_time = 600.0;            // [s] integral time of the differential-pressure reset
    double reset_gain = 1.0;              // [1] setpoint range per relative ΔT error

    static CduSpec fromJson(const JsonView& v, std::string name);
    /// "google_deschutes", "vertiv_xdu1350"; `overrides` merge over the record.
    static CduSpec fromCatalog(std::string_view name, const Json& overrides = {},
                               std::string_view user_path = "");
};

/// Steady-state result of the CDU at given inputs.
struct CduOperatingPoint {
    double secondary_supply_temp = 0.0;    // [K]
    double secondary_hx_inlet_temp = 0.0;  // [K] after the pumps
    double facility_return_temp = 0.0;     // [K]
    double heat = 0.0;                     // [W] Q_hx
    double secondary_flow = 0.0;           // [m³/s]
    double facility_flow = 0.0;            // [m³/s]
    double pump_power = 0.0;               // [W] electric
    double pump_heat = 0.0;                // [W] hydraulic work into the coolant
    double approach = 0.0;                 // [K]
    double effectiveness = 0.0;            // [1]
    double UA = 0.0;                       // [W/K]
};

/// The design point the catalog record implies.
struct CduDesignPoint {
    double secondary_supply_temp = 0.0;    // [K]
    double secondary_return_temp = 0.0;    // [K] at the racks (before the pumps)
    double secondary_hx_inlet_temp = 0.0;  // [K]
    double facility_supply_temp = 0.0;     // [K]
    double facility_return_temp = 0.0;     // [K]
    double UA = 0.0;                       // [W/K]
    double effectiveness = 0.0;            // [1]
    double pump_power = 0.0;               // [W]
};

/// Algebraic CDU model: derived UA, pumps, and steady solutions.
class CduModel {
public:
    /// `spec` as rated (its secondary_coolant and facility_coolant are the rating coolants);
    /// the unit runs with `operating_coolant` on the secondary side and
    /// `operating_facility_coolant` on the facility side ("" = the rated one), whose film
    /// conductances re-rate the UA.
    explicit CduModel(CduSpec spec, std::string_view operating_coolant = "",
                      std::string_view operating_facility_coolant = "");
    const CduSpec& spec() const { return spec_; }
    const Coolant& secondaryCoolant() const { return sec_; }
    const Coolant& ratedSecondaryCoolant() const { return sec_rated_; }
    /// Secondary hA with the operating coolant relative to the rated one (equal ṁ).     [1]
    double secondaryFilmFactor() const { return ua_.hot_factor; }
    /// Facility-side hA with the operating facility coolant relative to the rated one.  [1]
    double facilityFilmFactor() const { return ua_.cold_factor; }

    /// The CDU's own resistance k_int = Δp_internal/Q_design².               [Pa/(m³/s)²]
    double internalResistance() const;
    const Coolant& facilityCoolant() const { return fac_; }
    const PumpCurve& pumpCurve() const { return pump_; }
    const SystemCurve& secondarySystem() const { return system_; }
    const CduDesignPoint& design() const { return design_; }
    double UA(double mdot_secondary, double mdot_facility) const;  // [W/K]

    PumpOperatingPoint pumps(double speed, double pumps_failed) const;
    /// Q_hx for given HX inlet temperatures and flows.                                 [W]
    HxResult exchange(double T_hx_in, double T_fs, double secondary_flow,
                      double facility_flow) const;
    /// Steady state for a given facility flow (valve already set).
    CduOperatingPoint steadyState(double T_return, double T_fs, double facility_flow,
                                  double pump_speed = 1.0, double pumps_failed = 0.0) const;
    /// Steady state with the valve at the position that meets `T_set` (or fully open / at its
    /// minimum when it cannot), as the PI controller settles.
    CduOperatingPoint steadyStateControlled(double T_return, double T_fs, double T_set,
                                            double facility_flow_available, double pump_speed = 1.0,
                                            double pumps_failed = 0.0,
                                            double valve_min = 0.05) const;

private:
    CduSpec spec_;
    Coolant sec_, fac_, sec_rated_, fac_rated_;
    PumpCurve pump_;
    SystemCurve system_;
    UaScaling ua_;
    CduDesignPoint design_;
    std::vector<PumpOperatingPoint> rated_;  // at rated speed, by number of running pumps
};

class Cdu : public Component {
public:
    struct Control {
        double Kp = 0.3;           // [1/K] valve fraction per kelvin of error
        double Ti = 60.0;          // [s] integral time; K_i = K_p/T_i
        double valve_min = 0.05;   // [1] minimum facility flow fraction
        double valve_start = 0.8;  // [1] initial valve position (integral state)
    };
    enum State : std::size_t { kSupply, kFacReturn, kIntegral, kSpeed, kPumpIntegral, kReset };
    /// [K] TCS supply above its setpoint where the high-supply override (of the
    /// differential-pressure reset, or of ΔT control) starts, and the width over which it
    /// takes over fully.
    static constexpr double kOverrideStart = 1.0;
    static constexpr double kOverrideWidth = 1.0;
    enum Input : std::size_t {
        kReturnTemp,
        kFacSupplyTemp,
        kFacFlowAvail,
        kSetpoint,
        kPumpSpeed,
        kPumpsFailed,
        kDpSetpoint,
        kCriticalReturnTemp,
        kFirstValve  // valve_<i> of slot i follow
    };
    enum Output : std::size_t {
        kOutSupplyTemp,
        kOutFacReturnTemp,
        kOutSecondaryFlow,
        kOutFlowPerRack,
        kOutFacilityFlow,
        kOutValve,
        kOutHeat,
        kOutPumpPower,
        kOutApproach,
        kOutPumpHeat,
        kOutSpeed,
        kOutHeaderDp,
        kOutPumpDp,
        kFirstRackFlow  // rack_flow_<i> of slot i follow
    };
    enum class Variable { DifferentialPressure, Flow, DeltaT, ConstantSpeed };
    /// What the differential-pressure setpoint is reset on (CduSpec::dp_reset).
    enum class Reset { None, MixedDeltaT, CriticalRack };

    /// The racks it serves as branch types and slots (thermal/hydraulics.h); slot i has the
    /// input valve_<i+1> and the output rack_flow_<i+1>.
    Cdu(std::string name, CduModel model, std::vector<RackBranch> branches,
        std::vector<RackManifold::Slot> rack_slots, Control control);
    Cdu(std::string name, CduModel model, std::vector<RackBranch> branches,
        std::vector<RackManifold::Slot> rack_slots);
    /// With a model and a manifold shared by other CDUs (identical CDUs serving identical
    /// racks, as on a campus): both are read at every evaluation and never change, and a copy
    /// per CDU (~1.5 kB and the manifold's start tables) was read from memory at each
    /// evaluation of a 5,560-rack campus (issue 12). ModelError unless the manifold has the
    /// model's pump curve and internal resistance (makeManifold()).
    Cdu(std::string name, std::shared_ptr<const CduModel> model,
        std::shared_ptr<const RackManifold> manifold, Control control);
    /// The secondary loop of a CDU of `model` serving the given branch types and slots.
    static std::shared_ptr<const RackManifold> makeManifold(
        const CduModel& model, std::vector<RackBranch> branches,
        std::vector<RackManifold::Slot> rack_slots);

    void initialState(std::span<double> x0) const override;
    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    void computeDerivatives(double t, std::span<const double> x, std::span<const double> u,
                            std::span<double> dxdt) const override;
    /// Reads the secondary flow, pump heat and header Δp from the outputs: the manifold's
    /// Newton solve, ~1/5 of a campus right-hand side, then runs once per evaluation.
    void computeDerivativesGivenOutputs(double t, std::span<const double> x,
                                        std::span<const double> u, std::span<const double> y,
                                        std::span<double> dxdt) const override;
    bool outputDependsOnInput(std::size_t output, std::size_t input) const override;
    bool outputDependsOnState(std::size_t output, std::size_t state) const override;
    bool derivativeDependsOnState(std::size_t row, std::size_t state) const override;
    bool derivativeDependsOnInput(std::size_t row, std::size_t input) const override;

    const CduModel& model() const { return *model_; }
    const Control& control() const { return control_; }
    const RackManifold& manifold() const { return *manifold_; }
    Variable variable() const { return variable_; }
    Reset reset() const { return reset_; }
    double racksServed() const { return racks_; }
    /// Heat stored in the two hold-up nodes relative to T_ref of each coolant.           [J]
    double storedEnergy(std::span<const double> x) const;
    /// Valve position from the PI state and the current supply temperature.             [1]
    double valvePosition(std::span<const double> x, double setpoint) const;

    /// The secondary operating point at given states and inputs.
    struct Hydraulics {
        RackManifold::Solution manifold;
        double speed = 0.0;       ///< [1]
        double pump_power = 0.0;  ///< [W] electric
        double pump_heat = 0.0;   ///< [W] hydraulic work Q·Δp_pump
        int running = 0;          ///< [1]
    };
    /// The flow per rack of each slot goes into `per_slot` when it is not empty.
    Hydraulics hydraulics(std::span<const double> x, std::span<const double> u,
                          std::span<double> per_slot = {}) const;

private:
    /// The by-value constructors' step between the model and its manifold: the manifold is
    /// built from the model once it is in its shared place.
    Cdu(std::string name, std::shared_ptr<const CduModel> model, std::vector<RackBranch> branches,
        std::vector<RackManifold::Slot> rack_slots, Control control);
    double piOutput(std::span<const double> x, double setpoint) const;
    /// dx/dt at the secondary flow Q_s [m³/s], pump heat W [W] and header Δp [Pa].
    void derivatives(std::span<const double> x, std::span<const double> u, double Q_s, double W,
                     double header_dp, std::span<double> dxdt) const;
    void checkInputs(std::span<const double> u, bool with_return) const;
    double speedOf(std::span<const double> x, std::span<const double> u) const;
    std::size_t valveInput(std::size_t slot) const { return kFirstValve + slot; }
    std::shared_ptr<const CduModel> model_;
    std::shared_ptr<const RackManifold> manifold_;
    double racks_;
    Control control_;
    Variable variable_;
    Reset reset_;       // what the differential-pressure setpoint is reset on
    double M_s_, M_f_;  // [kg] hold-up masses
};

}  // namespace dctwin::thermal
