#pragma once
// CDU: coolant distribution unit between the rack (TCS, secondary) loop and the facility water
// (FWS, primary) loop (DESIGN.md §3.3; domain-facts B4, "Key formulas" C2, C3).
//
// Plate heat exchanger, counterflow ε-NTU:
//   Q_hx = ε(NTU, C_r) · C_min · (T_hx,in − T_fs),  C_s = ṁ_s·c_p,s(T_hx,in), C_f = ṁ_f·c_p,f(T_fs)
//   UA(ṁ_s, ṁ_f): series film conductances, each ∝ (ṁ/ṁ_design)^0.8 (thermal/heat_exchanger.h)
//   UA_design is derived from the catalog record: at design capacity Q_d, design flows and
//   design approach ΔT_app = T_ss − T_fs, the counterflow ε-NTU relation is inverted for NTU.
// Pumps on the secondary return, upstream of the HX (N duty + standby, "N+1"): the group's
// operating point on the secondary system curve (through the design flow at the design
// pressure rise) by thermal/hydraulics.h; their hydraulic work V̇·Δp becomes heat in the
// coolant before the HX:  h(T_hx,in) = h(T_ret) + V̇·Δp/ṁ_s.  Electric input from the pump
// curve (affinity laws, wire-to-water efficiency at design from the catalog).
// Hold-up nodes (why: they make the CDU's temperature outputs states, so racks → CDU → racks
// and CDU → facility loop → CDU have no algebraic loop; physically the HX channels, headers
// and buffer volume):
//   M_s·c_p,s · dT_ss/dt  = ṁ_s·(h_s(T_hx,in) − h_s(T_ss)) − Q_hx
//   M_f·c_p,f · dT_fr/dt  = ṁ_f·(h_f(T_fs) − h_f(T_fr)) + Q_hx
// Supply-temperature control: PI on the facility-side valve (flow fraction v of the facility
// flow available), with back-calculation anti-windup:
//   e = T_ss − T_set,  u = K_p·e + I,  v = clamp(u, v_min, 1),  dI/dt = K_i·e + (v − u)/T_i
//   ṁ_f = ρ_ref,f · v · V̇_f,available.
// In steady state T_ss equals the ε-NTU outlet and the three states sit still; the energy
// balance ṁ_s·Δh_s + W_hyd = Q_hx = ṁ_f·Δh_f holds exactly.
//
// | kind   | name                  | unit | feedthrough from                               |
// |--------|-----------------------|------|------------------------------------------------|
// | state  | secondary_supply_temp | K    |                                                |
// | state  | facility_return_temp  | K    |                                                |
// | state  | valve_integral        | 1    | PI integral                                    |
// | input  | secondary_return_temp | K    | (derivatives only)                             |
// | input  | facility_supply_temp  | K    |                                                |
// | input  | facility_flow_available | m3/s | facility flow with the valve fully open      |
// | input  | supply_temp_setpoint  | K    |                                                |
// | input  | pump_speed            | 1    | fraction of rated speed (0..1.2)               |
// | input  | pumps_failed          | 1    | failed secondary pumps                         |
// | output | secondary_supply_temp | K    | — (state)                                      |
// | output | facility_return_temp  | K    | — (state)                                      |
// | output | secondary_flow        | m3/s | pump_speed, pumps_failed                       |
// | output | flow_per_rack         | m3/s | pump_speed, pumps_failed (identical branches)  |
// | output | facility_flow         | m3/s | facility_flow_available, supply_temp_setpoint  |
// | output | valve_position        | 1    | supply_temp_setpoint                           |
// | output | heat_transferred      | W    | facility_supply_temp, facility_flow_available,
// supply_temp_setpoint | | output | pump_power            | W    | pump_speed, pumps_failed | |
// output | approach              | K    | facility_supply_temp                           | | output
// | pump_heat             | W    | pump_speed, pumps_failed (hydraulic work V̇·Δp) |
// heat_transferred = ṁ_f·(h_f(T_fr) − h_f(T_fs)), the heat handed to the facility loop (equal
// to Q_hx in steady state). No output depends on secondary_return_temp, so racks and mixers
// may feed through from the CDU's outputs.
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
    double pump_pressure_rise = 0.0;       // [Pa] at design flow and rated speed
    double pump_efficiency = 0.6;          // [1] wire to water at design
    int pumps_installed = 2;               // [1]
    int pumps_duty = 1;                    // [1]
    double ua_flow_exponent = 0.8;         // [1] both sides
    double hot_resistance_fraction = 0.5;  // [1]
    double secondary_volume = 0.1;         // [m³] hold-up on the secondary side
    double facility_volume = 0.1;          // [m³] hold-up on the facility side

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
    explicit CduModel(CduSpec spec);
    const CduSpec& spec() const { return spec_; }
    const Coolant& secondaryCoolant() const { return sec_; }
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
    Coolant sec_, fac_;
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
    enum State : std::size_t { kSupply, kFacReturn, kIntegral };
    enum Input : std::size_t {
        kReturnTemp,
        kFacSupplyTemp,
        kFacFlowAvail,
        kSetpoint,
        kPumpSpeed,
        kPumpsFailed
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
        kOutPumpHeat
    };

    /// `racks_served` divides the secondary flow into flow_per_rack (identical branches).
    Cdu(std::string name, CduModel model, double racks_served, Control control);
    Cdu(std::string name, CduModel model, double racks_served);

    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    void computeDerivatives(double t, std::span<const double> x, std::span<const double> u,
                            std::span<double> dxdt) const override;
    bool outputDependsOnInput(std::size_t output, std::size_t input) const override;
    bool outputDependsOnState(std::size_t output, std::size_t state) const override;
    bool derivativeDependsOnState(std::size_t row, std::size_t state) const override;
    bool derivativeDependsOnInput(std::size_t row, std::size_t input) const override;

    const CduModel& model() const { return model_; }
    const Control& control() const { return control_; }
    /// Heat stored in the two hold-up nodes relative to T_ref of each coolant.           [J]
    double storedEnergy(std::span<const double> x) const;
    /// Valve position from the PI state and the current supply temperature.             [1]
    double valvePosition(std::span<const double> x, double setpoint) const;
    /// Pump hydraulic work into the coolant at given pump inputs.                       [W]
    double pumpHeat(double pump_speed, double pumps_failed) const;

private:
    double piOutput(std::span<const double> x, double setpoint) const;
    void checkInputs(std::span<const double> u, bool with_return) const;
    CduModel model_;
    double racks_;
    Control control_;
    double M_s_, M_f_;  // [kg] hold-up masses
};

}  // namespace dctwin::thermal
