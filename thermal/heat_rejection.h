#pragma once
// Heat rejection (DESIGN.md §3.3; domain-facts C1–C3, "Key formulas" C3–C5): dry cooler with
// optional adiabatic assist, cooling tower, chiller trim with water-side economizer logic,
// and the supply setpoint from the ASHRAE liquid-cooling class. Each is a steady algebraic
// model (evaluate(inputs) → outputs); the dry cooler also has a Component wrapper with SI ports
// (the facility wires the tower and the chiller through its own plant components, and the
// tests' trim-chiller wrapper is in tests/thermal/test_components.h). Heat rejection has no
// states: the facility loop's pipes carry the thermal mass (thermal/pipe.h).
//
// Ambient inputs: dry bulb T_db [K], wet bulb T_wb [K], station pressure p [Pa]; valid
// T_db −50…60 °C, T_wb ≤ T_db (+0.05 K rounding), p 50…110 kPa. Outside: InputError.
// Moist air from core/weather/psychrometrics.h: W from (T_db, T_wb, p) by the psychrometric
// equation; c_p,moist = 1006 + 1860·W [J/(kg_da·K)] (the slope of ASHRAE eq. 30).
//
// DRY COOLER BANK (n units in parallel, each a finned cross-flow coil with fans):
//   Q = ε_crossflow,unmixed(NTU, C_r)·C_min·(T_w,in − T_a,in)    (C3)
//   C_a = ṁ_da·c_p,moist with ṁ_da = f·V̇_air,design / v(T_a,in, W_a,in, p), f = air-flow
//   fraction; UA(ṁ_w, ṁ_a) series films, air side ∝ ṁ^0.6 holding 75 % of the design
//   resistance, water side ∝ ṁ^0.8; UA_design from the catalog rating point (capacity, water
//   in/out, ambient) by inverting ε(NTU) with the liquid of the rating (`coolant`, water).
//   Run with another liquid (a glycol against frost), the tube-side film is re-rated at equal
//   mass flow by Dittus–Boelter for a cooled liquid, Nu = 0.023·Re^0.8·Pr^0.3:
//     hA_w/hA_w,rated = (k/k_r)·(μ_r/μ)^n·(Pr/Pr_r)^0.3  (n = water_flow_exponent)
//   at the rating's mean liquid temperature (PG40 in place of water at 40 °C: ×0.39).
//   Control: f ∈ [0, 1] solved (inverse-Hermite and Newton steps on the heat and its slope,
//   safeguarded by the bracket, to round-off; dQ/df = ΔT·dC_a/df at f = 0) so that
//   T_w,out = setpoint (setpoint_unmet = 0 there, even where the outlet computed at the root
//   lies ulps above); f = 1 when the setpoint cannot be met (setpoint_unmet > 0); f = 0
//   (bypass) when the water is already at or below the setpoint or the air is not colder
//   than the water.
//   Fans: N = units·fans_per_unit, minimum speed s_min. f ≥ s_min: all fans at speed f;
//   f < s_min: n = ⌈f·N/s_min⌉ fans at speed f·N/n (staging). P_fan = Σ P_fan,rated·s³.
//   Adiabatic assist (optional): the pads cool the inlet air toward the wet bulb along its
//   constant-wet-bulb line:
//     T_a,in = T_db − a·η_sat·(T_db − T_wb),  W_a,in = W(T_a,in, T_wb, p)
//   Control saves water first: pads stay dry while the fans alone can meet the setpoint;
//   when the fans at full speed cannot, the wetted fraction a rises (pad sections staged) just
//   enough to meet it, up to a_max (the same search on the heat's slope along the wet-bulb line,
//   where T_a,in, W_a,in, the air's specific volume and heat capacity all move with a). a_max ramps
//   0 → 1 across a band of `switch_band` K centred on the switch-over dry bulb (no pads in cool
//   weather). Every step of this is continuous in the inputs (at the hand-over f = 1 and a = 0),
//   which the integrator needs. Water evaporated (mass balance of the air) E = ṁ_da·(W_a,in −
//   W_db); spray water = E·(1 + overhead) (overhead: bleed/overspray fraction, 0 by default). By
//   the psychrometric equation the air's enthalpy rises by exactly E·h_f(T_wb): the process is
//   adiabatic (checked in the tests).
//
// COOLING TOWER (open, counterflow, n cells) — effectiveness model of Braun, Klein & Mitchell
// (ASHRAE Trans. 1989) under Merkel's assumptions: air is a "fluid" with enthalpy h, the water
// side is expressed in saturated-air enthalpy with c_s = Δh_sat/ΔT_w over the water range:
//   Q = ε(NTU·ṁ_a, C_r)·C_min·(h_sat(T_w,in) − h_a,in),  C_air = ṁ_a,  C_water = ṁ_w·c_p,w/c_s
//   NTU = c·(ṁ_w/ṁ_a)^(1+n), n = −0.6 (Braun's typical exponent)
//   c is calibrated so the catalog rating point (CTI: 35 → 29.4 °C at 25.6 °C wet bulb, L/G
//   from the catalog) gives the rated 3.9 K approach. T_w,out is found by fixed-point
//   iteration on c_s. Fan control and staging as for the dry cooler.
//   Water: E = f_lat·Q/h_fg(T_w,mean), f_lat = ṁ_a·(W_sat(T_ao) − W_in)·h_fg/Q from the
//   exit air saturated at its enthalpy (Merkel), capped at the catalog's latent fraction,
//   D = d·ṁ_w, B = E/(COC−1) − D, M = E + D + B
//   (thermal/water.h).
//
// CHILLER: DOE-2 / EnergyPlus Chiller:Electric:EIR (C5) with inputs clamped to the curves'
// range (the clamp is reported), or a Carnot-fraction model COP = η_II·T_evap/(T_cond − T_evap).
//   Q_avail = Q_ref·CAPFT(T_chw,lvg, T_cw,ent); PLR = Q/Q_avail;
//   P = Q_avail/COP_ref·EIRFT·EIRFPLR(max(PLR, PLR_min))·(PLR/PLR_min if PLR < PLR_min: cycling)
//   Q_cond = Q + P.
// TRIM CHILLER with water-side economizer logic: the heat rejection unit upstream acts as the
// economizer; the chiller trims its leaving water to the setpoint:
//   mode 0 "economizer": heat rejection alone meets the setpoint, chiller off;
//   mode 1 "integrated": heat rejection pre-cools, chiller trims the rest;
//   mode 2 "mechanical": heat rejection cannot pre-cool (inlet ≥ loop return), chiller only.
#include <array>
#include <span>
#include <string>
#include <string_view>

#include "core/component.h"
#include "core/json.h"
#include "core/weather/psychrometrics.h"
#include "thermal/coolant.h"
#include "thermal/heat_exchanger.h"

namespace dctwin::thermal {

struct AmbientAir {
    double dry_bulb = 308.15;    // [K]
    double wet_bulb = 297.15;    // [K]
    double pressure = 101325.0;  // [Pa]
};
/// InputError naming `where` when the ambient state is outside the documented range; else the
/// humidity ratio it checked [kg/kg] (ambientHumidityRatio's, computed once for both).
double checkAmbient(const AmbientAir& air, std::string_view where);
/// Humidity ratio of the ambient air.                                               [kg/kg]
double ambientHumidityRatio(const AmbientAir& air);

struct FanStaging {
    int fans = 1;              // [1] fans in the bank
    double min_speed = 0.2;    // [1] lowest VFD speed
    double rated_power = 0.0;  // [W] per fan at full speed
};
struct FanState {
    int running = 0;     // [1]
    double speed = 0.0;  // [1]
    double power = 0.0;  // [W]
};
/// Fans that deliver air-flow fraction f of the bank's rated flow (see header comment).
FanState stageFans(const FanStaging& staging, double air_fraction);

// ------------------------------------------------------------------------------ dry cooler

struct DryCoolerSpec {
    std::string name;
    double capacity = 1e6;                  // [W] per unit at the rating point
    double rating_inlet_temp = 318.15;      // [K] water in
    double rating_outlet_temp = 308.15;     // [K] water out
    double rating_dry_bulb = 300.15;        // [K]
    double rating_wet_bulb = 292.15;        // [K]
    double air_flow = 70.0;                 // [m³/s] per unit at full fan speed
    double fan_power = 20e3;                // [W] per unit at full fan speed
    int fans_per_unit = 10;                 // [1]
    double min_fan_speed = 0.2;             // [1]
    double air_flow_exponent = 0.6;         // [1]
    double water_flow_exponent = 0.8;       // [1]
    double air_resistance_fraction = 0.75;  // [1]
    std::string coolant = "water";
    bool adiabatic = false;
    double saturation_effectiveness = 0.8;  // [1]
    double switch_over_temp = 301.15;       // [K] dry bulb above which the pads run
    double switch_band = 1.0;               // [K]
    double spray_overhead = 0.0;            // [1] bleed/overspray per unit evaporated

    static DryCoolerSpec fromJson(const JsonView& v, std::string name);
    static DryCoolerSpec fromCatalog(std::string_view name, const Json& overrides = {},
                                     std::string_view user_path = "");
};

class DryCooler {
public:
    struct Inputs {
        double inlet_temp = 318.15;  // [K]
        double flow = 0.0;           // [m³/s] total to the bank
        double setpoint = 308.15;    // [K] leaving water
        AmbientAir air;
        double max_fan_speed = 1.0;  // [1] operator's limit on the fans (0..1)
    };
    struct Outputs {
        double outlet_temp = 0.0;         // [K]
        double heat_rejected = 0.0;       // [W] from the water
        double fan_power = 0.0;           // [W]
        double air_fraction = 0.0;        // [1]
        int fans_running = 0;             // [1]
        double air_inlet_temp = 0.0;      // [K] after the pads
        double air_outlet_temp = 0.0;     // [K]
        double air_mass_flow = 0.0;       // [kg/s] dry air
        double heat_to_air = 0.0;         // [W] C_a·(T_a,out − T_a,in)
        double adiabatic_fraction = 0.0;  // [1] a
        double evaporation_rate = 0.0;    // [m³/s]
        double spray_water_rate = 0.0;    // [m³/s]
        double setpoint_unmet = 0.0;      // [K] max(0, T_out − setpoint) at the limit, else 0
        double effectiveness = 0.0;       // [1]
    };
    /// `spec` as rated: its `coolant` is the liquid of the rating point. The bank runs with
    /// `operating_coolant` ("" = the rated one); another liquid re-rates the tube-side film
    /// (see the header comment) and keeps the rated volume flow as the design flow.
    DryCooler(DryCoolerSpec spec, int units, std::string_view operating_coolant = "");
    Outputs evaluate(const Inputs& in) const;
    /// At a fixed air-flow fraction f and pad wetting fraction `pads` (no control).
    Outputs evaluateAt(const Inputs& in, double f, double pads) const;
    /// Largest pad wetting fraction the switch-over allows at this dry bulb (0 without pads).
    double padsAllowed(double dry_bulb) const;
    /// ∂heat_rejected/∂pads of evaluateAt(in, f, pads) [W]: the slope the pad search steps on
    /// (0 where the freeze cap holds or the pads cannot cool the air).
    double padHeatSlope(const Inputs& in, double f, double pads) const;
    const DryCoolerSpec& spec() const { return spec_; }
    int units() const { return units_; }
    double designWaterFlow() const { return water_flow_design_; }  // [m³/s] bank
    double UAdesign() const { return ua_.UA_design; }              // [W/K] bank
    const Coolant& coolant() const { return coolant_; }
    /// Tube-side hA with the operating liquid relative to the rated one (equal ṁ).      [1]
    double liquidFilmFactor() const { return ua_.hot_factor; }

private:
    /// What the trials of one evaluate() share: the water side and the ambient air do not
    /// change with the fans or the pads. Computed once per call with the expressions a lone
    /// evaluateAt() uses, so that every trial is evaluateAt()'s result bit for bit (the annual
    /// figures are sensitive to round-off through the integrator's step choices).
    struct Fixed {
        psychro::WetBulbLine line;  // the ambient air's wet bulb, along which the pads cool it
        double W_db = 0.0;          // [kg/kg] ambient humidity ratio
        double mdot_w = 0.0;        // [kg/s] water
        double C_w = 0.0;           // [W/K] water capacity rate
        double hA_w = 0.0;          // [W/K] water-side film conductance (with water flowing)
        double h_in = 0.0;          // [J/kg] inlet enthalpy (with water flowing)
        double dh_frost = 0.0;      // [J/kg] inlet enthalpy above the table's lowest temperature
    };
    /// The air entering the coil at pad wetting `pads`, with the derivatives of its state in
    /// `pads` along the wet-bulb line (0 where the pads cannot cool it).
    struct AirInlet {
        double T = 0.0;    // [K]
        double W = 0.0;    // [kg/kg]
        double v = 0.0;    // [m³/kg dry air]
        double cp = 0.0;   // [J/(kg_da K)]
        double dT = 0.0;   // [K] ∂T/∂pads
        double dv = 0.0;   // [m³/kg] ∂v/∂pads
        double dcp = 0.0;  // [J/(kg_da K)] ∂cp/∂pads
    };
    /// `W_db` [kg/kg]: the ambient humidity ratio (checkAmbient's), on `line`.
    Fixed fixedParts(const Inputs& in, const psychro::WetBulbLine& line, double W_db) const;
    AirInlet airInlet(const Inputs& in, const Fixed& x, double pads) const;
    Outputs trial(const Inputs& in, const Fixed& x, const AirInlet& a, double f, double pads) const;
    /// The coil at air-flow fraction f: what trial() builds its outputs on, and all the fan
    /// and pad searches compare with the heat that meets the setpoint (so their trials skip
    /// the outlet's enthalpy inversion); the heat's slope in f gives the fan search its
    /// Newton steps.
    struct Coil {
        double air_mass_flow = 0.0;  // [kg/s] dry air
        double effectiveness = 0.0;  // [1]
        double heat_rejected = 0.0;  // [W] from the water, after the freeze cap
        double slope = 0.0;          // [W] ∂heat_rejected/∂f (0 where the freeze cap holds)
        double pad_slope = 0.0;      // [W] ∂heat_rejected/∂pads at f (with `pad_slope` only)
    };
    /// With `pad_slope`, also the heat's derivative in the pad wetting (the pad search's Newton
    /// steps), from the air inlet's derivatives; the other fields do not depend on it.
    Coil coilAt(const Fixed& x, const AirInlet& a, double inlet_temp, double f,
                bool pad_slope = false) const;
    /// [W] dQ/df at f = 0 (no air; NaN where not known): the fan search's slope at its
    /// bracket's lower end.
    double noAirSlope(const AirInlet& a, double inlet_temp) const;
    /// trial() given coilAt(x, a, in.inlet_temp, f), computed by a search already.
    Outputs trialWith(const Inputs& in, const Fixed& x, const AirInlet& a, double f, double pads,
                      const Coil& coil) const;

    DryCoolerSpec spec_;
    int units_;
    Coolant coolant_;
    /// "dry cooler 'NAME'" for error messages, made once: formatting it on every evaluate()
    /// was a heap string per plant evaluation (issue 12, the 64-rack annual run).
    std::string where_;
    UaScaling ua_;
    FanStaging fans_;
    double water_flow_design_ = 0.0;  // [m³/s]
};

// --------------------------------------------------------------------------- cooling tower

struct CoolingTowerSpec {
    std::string name;
    double capacity = 3.5e6;             // [W] per cell at the rating point
    double rating_inlet_temp = 308.15;   // [K] 95 °F
    double rating_outlet_temp = 302.59;  // [K] 85 °F
    double rating_wet_bulb = 298.71;     // [K] 78 °F
    double rating_dry_bulb = 308.15;     // [K]
    double rating_pressure = 101325.0;   // [Pa]
    double liquid_to_gas_ratio = 1.2;    // [1] ṁ_w/ṁ_da at rating
    double ntu_exponent = -0.6;          // [1] n in NTU = c·(ṁ_w/ṁ_a)^(1+n)
    double fan_power = 0.0;              // [W] per cell at full speed
    int fans_per_cell = 1;               // [1]
    double min_fan_speed = 0.2;          // [1]
    double latent_fraction = 0.85;       // [1] f_lat
    double drift_fraction = 2e-5;        // [1] of circulating flow
    double cycles_of_concentration = 4;  // [1]

    static CoolingTowerSpec fromJson(const JsonView& v, std::string name);
    static CoolingTowerSpec fromCatalog(std::string_view name, const Json& overrides = {},
                                        std::string_view user_path = "");
};

class CoolingTower {
public:
    struct Inputs {
        double inlet_temp = 308.15;  // [K]
        double flow = 0.0;           // [m³/s] water to all cells
        double setpoint = 302.59;    // [K]
        AmbientAir air;
        double max_fan_speed = 1.0;  // [1] operator's limit on the fans (0..1)
    };
    struct Outputs {
        double outlet_temp = 0.0;          // [K]
        double heat_rejected = 0.0;        // [W]
        double fan_power = 0.0;            // [W]
        double air_fraction = 0.0;         // [1]
        int fans_running = 0;              // [1]
        double air_mass_flow = 0.0;        // [kg/s] dry air
        double air_outlet_enthalpy = 0.0;  // [J/kg_da]
        double air_inlet_enthalpy = 0.0;   // [J/kg_da]
        double approach = 0.0;             // [K] T_out − T_wb
        double evaporation_rate = 0.0;     // [m³/s]
        double drift_rate = 0.0;           // [m³/s]
        double blowdown_rate = 0.0;        // [m³/s]
        double makeup_rate = 0.0;          // [m³/s]
        double setpoint_unmet = 0.0;       // [K] max(0, T_out − setpoint) at the limit, else 0
    };
    CoolingTower(CoolingTowerSpec spec, int cells);
    Outputs evaluate(const Inputs& in) const;
    Outputs evaluateAt(const Inputs& in, double f) const;
    const CoolingTowerSpec& spec() const { return spec_; }
    double designWaterFlow() const { return water_flow_design_; }  // [m³/s] all cells
    double designAirFlow() const { return air_volume_design_; }    // [m³/s] all cells
    double ntuCoefficient() const { return c_; }
    int cells() const { return cells_; }
    const Coolant& water() const { return water_; }

private:
    double saturatedEnthalpy(double T, double p) const;  // [J/kg_da]
    /// The water side at fan fraction f: heat rejected [W] and outlet temperature [K] (the
    /// Merkel fixed point alone; evaluate's fan search needs only these).
    struct WaterSide {
        double heat = 0.0, outlet_temp = 0.0;
    };
    /// The air and water streams at fan fraction f: inlet humidity ratio [kg/kg_da] and
    /// enthalpy [J/kg_da], water and dry-air mass flows [kg/s].
    struct Streams {
        double W = 0.0, h_ai = 0.0, mdot_w = 0.0, mdot_a = 0.0;
    };
    Streams streams(const Inputs& in, double f) const;
    WaterSide waterSideAt(const Inputs& in, const Streams& s) const;
    CoolingTowerSpec spec_;
    int cells_;
    Coolant water_;
    std::string where_;  ///< "cooling tower 'NAME'" for error messages (as DryCooler's)
    FanStaging fans_;
    double water_flow_design_ = 0.0;  // [m³/s]
    double air_volume_design_ = 0.0;  // [m³/s]
    double c_ = 0.0;                  // [1] NTU coefficient
};

// -------------------------------------------------------------------------------- chiller

struct ChillerSpec {
    std::string name;
    enum class Kind { Eir, Carnot } kind = Kind::Eir;
    double capacity = 1e6;  // [W] reference evaporator capacity
    double cop_ref = 5.5;   // [1]
    std::array<double, 6> capft{}, eirft{};
    std::array<double, 3> eirfplr{};
    double chw_min = 278.15, chw_max = 283.15;  // [K] leaving chilled water range of curves
    double cw_min = 297.15, cw_max = 308.15;    // [K] entering condenser water range
    double plr_min = 0.1;                       // [1]
    double second_law_efficiency = 0.55;        // [1] Carnot model
    double evaporator_offset = 2.0;             // [K] T_evap = T_chw,lvg − offset
    double condenser_offset = 6.0;              // [K] T_cond = T_cw,ent + offset

    static ChillerSpec fromJson(const JsonView& v, std::string name);
    static ChillerSpec fromCatalog(std::string_view name, const Json& overrides = {},
                                   std::string_view user_path = "");
};

class Chiller {
public:
    struct Outputs {
        double cooling = 0.0;            // [W] delivered (≤ capacity available)
        double power = 0.0;              // [W]
        double heat_to_condenser = 0.0;  // [W]
        double cop = 0.0;                // [1]
        double plr = 0.0;                // [1]
        double capacity = 0.0;           // [W] available at these temperatures
        bool clamped = false;            // curve inputs were clamped to their range
    };
    explicit Chiller(ChillerSpec spec);
    /// `load` [W] ≥ 0 asked of the evaporator, leaving chilled water and entering condenser
    /// water (or air) temperatures [K].
    Outputs evaluate(double load, double T_chw_leaving, double T_cw_entering) const;
    const ChillerSpec& spec() const { return spec_; }
    static double biquadratic(const std::array<double, 6>& c, double x, double y);

private:
    ChillerSpec spec_;
};

enum class EconomizerMode { Economizer = 0, Integrated = 1, Mechanical = 2 };
/// Water-side economizer decision from the loop return temperature, the temperature the heat
/// rejection unit delivers, and the supply setpoint [K].
EconomizerMode economizerMode(double T_loop_return, double T_after_heat_rejection,
                              double T_setpoint);

// -------------------------------------------------------------------------- ASHRAE classes

struct AshraeLiquidClass {
    std::string name;              // "W32"
    double max_supply_temp = 0.0;  // [K]
    double min_supply_temp = 0.0;  // [K]
    std::string typical_heat_rejection;
};
/// From data/catalog/thermal/ashrae_liquid_classes.json ("W17" … "W45").
AshraeLiquidClass loadAshraeClass(std::string_view name);
/// Facility water supply setpoint: the class maximum minus a control margin [K].     [K]
double facilitySupplySetpoint(const AshraeLiquidClass& cls, double margin = 0.0);

// ----------------------------------------------------------------------------- components

/// | kind   | name              | unit | notes                                       |
/// |--------|-------------------|------|---------------------------------------------|
/// | input  | inlet_temp        | K    | water entering the bank                     |
/// | input  | flow              | m3/s | water to the bank                           |
/// | input  | setpoint          | K    | leaving-water setpoint                      |
/// | input  | dry_bulb          | K    |                                             |
/// | input  | wet_bulb          | K    |                                             |
/// | input  | pressure          | Pa   |                                             |
/// | output | outlet_temp       | K    |                                             |
/// | output | heat_rejected     | W    |                                             |
/// | output | fan_power         | W    |                                             |
/// | output | air_fraction      | 1    |                                             |
/// | output | air_inlet_temp    | K    | after adiabatic pads                        |
/// | output | spray_water_rate  | m3/s |                                             |
/// | output | evaporation_rate  | m3/s |                                             |
/// | output | setpoint_unmet    | K    |                                             |
/// Every output depends directly on every input (algebraic, no states).
class DryCoolerComponent : public Component {
public:
    enum Input : std::size_t { kInletTemp, kFlow, kSetpoint, kDryBulb, kWetBulb, kPressure };
    enum Output : std::size_t {
        kOutletTemp,
        kHeat,
        kFanPower,
        kAirFraction,
        kAirInletTemp,
        kSpray,
        kEvaporation,
        kUnmet
    };
    DryCoolerComponent(std::string name, DryCooler model);
    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    bool outputDependsOnState(std::size_t, std::size_t) const override { return false; }
    const DryCooler& model() const { return model_; }

private:
    DryCooler model_;
};

}  // namespace dctwin::thermal
