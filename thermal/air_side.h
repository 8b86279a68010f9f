#pragma once
// Air side (DESIGN.md §3.3; domain-facts B5): rear-door heat exchangers and CRAH units that
// take the air share of the IT heat (≈10 % of a GB300 rack, 10–17 kW) and electrical-room
// losses, and hand it to a water loop.
//
// One water coil in the air stream (cross-flow, both unmixed; thermal/heat_exchanger.h):
//   air enters the coil at T_a,in = T_room + (Q_air + P_fan)/(ṁ_a·c_p,a)
//     (the rack or room heat and the fan work raise the air from the room/cold-aisle
//      temperature; for a rear door ṁ_a is the servers' air flow, for a CRAH its own)
//   Q_coil = ε·C_min·(T_a,in − T_w,in),   T_w,out = h⁻¹(h(T_w,in) + Q_coil/ṁ_w)
//   heat_to_room = Q_air + P_fan − Q_coil   (> 0: the room must take the rest; < 0: the coil
//                                            also cools the room)
//   fan power P_fan = P_rated·(ṁ_a/ṁ_a,rated)³ (0 for a passive door)
//   UA(ṁ_w, ṁ_a) from the rating point (capacity at rating room and water temperatures),
//   air side ∝ ṁ^0.6 with 75 % of the resistance, water side ∝ ṁ^0.8.
// required_water_temp: the water supply temperature at which the coil removes all of Q_air +
// P_fan (room-neutral): T_w,in = T_a,in − (Q_air + P_fan)/(ε·C_min) — the "chilled/facility
// water temperature requirement" of the air side.
// Energy: Q_air + P_fan = Q_coil + heat_to_room exactly.
//
// | kind   | name                | unit | notes                                  |
// |--------|---------------------|------|----------------------------------------|
// | input  | heat_air            | W    | heat into the air (all units)          |
// | input  | water_supply_temp   | K    |                                        |
// | input  | water_flow          | m3/s | all units                              |
// | input  | room_temp           | K    | air entering the racks / the CRAH      |
// | output | heat_to_water       | W    | Q_coil                                 |
// | output | water_return_temp   | K    |                                        |
// | output | fan_power           | W    |                                        |
// | output | heat_to_room        | W    |                                        |
// | output | required_water_temp | K    | room-neutral water supply temperature  |
// | output | air_outlet_temp     | K    | air leaving the coil                   |
// All outputs depend directly on all inputs (algebraic, no states). The table is the
// AirCoil::evaluate contract; the facility wires the coil through its own plant components
// and the tests' Component wrapper is in tests/thermal/test_components.h.
#include <string>

#include "core/json.h"
#include "thermal/coolant.h"
#include "thermal/heat_exchanger.h"
#include "thermal/heat_rejection.h"

namespace dctwin::thermal {

struct AirCoilSpec {
    std::string name;
    enum class Kind { RearDoorPassive, RearDoorActive, Crah } kind = Kind::RearDoorPassive;
    double capacity = 30e3;             // [W] per unit at the rating point
    double rating_room_temp = 300.15;   // [K] air entering the rack/unit
    double rating_water_temp = 291.15;  // [K] water supply
    double air_flow = 1.5;              // [m³/s] per unit (server air flow for a rear door)
    double water_flow = 1.5e-3;         // [m³/s] per unit at rating
    double fan_power = 0.0;             // [W] per unit at rated air flow
    std::string coolant = "water";

    static AirCoilSpec fromJson(const JsonView& v, std::string name);
    static AirCoilSpec fromCatalog(std::string_view name, const Json& overrides = {},
                                   std::string_view user_path = "");
};

class AirCoil {
public:
    struct Outputs {
        double heat_to_water = 0.0;        // [W]
        double water_return_temp = 0.0;    // [K]
        double fan_power = 0.0;            // [W]
        double heat_to_room = 0.0;         // [W]
        double required_water_temp = 0.0;  // [K]
        double air_inlet_temp = 0.0;       // [K] entering the coil
        double air_outlet_temp = 0.0;      // [K]
    };
    AirCoil(AirCoilSpec spec, double units);
    /// heat_air [W], water supply [K], water flow [m³/s], room [K] (all units together).
    Outputs evaluate(double heat_air, double T_water, double water_flow, double T_room,
                     double air_fraction = 1.0) const;
    const AirCoilSpec& spec() const { return spec_; }
    double units() const { return units_; }
    double UAdesign() const { return ua_.UA_design; }  // [W/K] all units
    const Coolant& coolant() const { return coolant_; }

private:
    AirCoilSpec spec_;
    double units_;
    Coolant coolant_;
    UaScaling ua_;
    double air_mass_design_ = 0.0;  // [kg/s] all units
};

}  // namespace dctwin::thermal

namespace dctwin::thermal {

/// @brief Which plant takes the air side's heat (`/cooling/air_side/kind`).
enum class AirSideKind {
    CrahAirCooledChiller,  ///< CRAH units on chilled water from air-cooled chillers
    RearDoor,              ///< rear doors on the facility water; CRAH plant for the rest
};

/// @brief Design of the CRAH plant: units, supply air, economizer and chiller curve.
struct CrahPlantSpec {
    AirCoilSpec crah;                       ///< one CRAH unit (air_side.json, kind crah)
    ChillerSpec chiller;                    ///< air-cooled chiller curve (chillers.json)
    double supply_air_temp = 291.15;        ///< [K] CRAH leaving air (cold aisle)
    bool economizer = true;                 ///< air-side economizer
    double economizer_high_limit = 294.26;  ///< [K] outdoor dry bulb above which it closes
};

/**
 * @brief CRAH units on chilled water from an air-cooled chiller, with an air-side economizer.
 *
 * Algebraic (no states). Equations (Q_air [W] heat into the room air, n CRAH units of rated
 * capacity Q_r, rated fan power P_r and rated air flow V̇_r from the catalog record):
 * - Air flow follows load at the design air temperature rise (variable-speed EC fans), up to
 *   the units' rated flow: f = min(Q_air/(n·Q_r), 1), P_fan = n·P_r·f³ (fan affinity law:
 *   power ∝ flow³); the units carry Q_c = f·n·Q_r of the air heat.
 * - Return air T_r = T_s + ΔT_a, ΔT_a = (Q_r + P_r)/(ρ·V̇_r·c_p) from the record's rating
 *   (constant because flow follows load).
 * - Economizer (ASHRAE 90.1-2016 §6.5.1.1.3, fixed dry-bulb high limit, the control the
 *   table allows in every climate zone): outdoor air replaces return air while
 *   T_db < min(T_hl, T_r), T_hl the high limit (default 21.1 °C = 70 °F, the table's value for
 *   humid zones 5A/6A; 75 °F elsewhere). The share of the load it carries is
 *     s₀ = 1 for T_db ≤ T_s (outdoor and return air mixed to T_s, chiller off),
 *     s₀ = (T_r − T_db)/(T_r − T_s) for T_s < T_db < T_r (100 % outdoor air, the coil cools it
 *          from T_db to T_s: partial economizer), s₀ = 0 above T_r;
 *     s = s₀·clamp((T_hl − T_db)/1 K, 0, 1): the damper closes over the last kelvin below the
 *          high limit (a 1 K band, assumed, keeps s continuous for the integrator).
 *   Latent loads, humidification and dehumidification are not modelled (the high limit is
 *   what keeps humid summer air out).
 * - Coil and chiller: Q_coil = (Q_c + P_fan)·(1 − s). The chilled water leaves the chiller
 *   at T_chw = T_s − ΔT_app, with ΔT_app = T_room,rating − T_water,rating of the CRAH record
 *   (the record's coil delivers its rated capacity with air leaving at the rating room
 *   temperature on water at the rating water temperature; with air and water flow following
 *   load the approach stays close to it, and shrinks at part load, so this is conservative).
 * - Chiller power from its catalog curve (Chiller::evaluate, DOE-2 / EnergyPlus EIR model)
 *   with the outdoor dry bulb as entering condenser air: P_ch = f(Q_coil, T_chw, T_db). The
 *   chillers are the installed ones (n_ch units of the record's rated capacity, all
 *   available), or, before sizing has counted them, as many as the CRAH coils' rating
 *   (n·Q_r); they deliver Q_ch = min(Q_coil, n_ch·Q_rated·CAPFT).
 * - Unmet: Q_u = (Q_air − Q_c) + (Q_coil − Q_ch) ≥ 0, the room heat the plant cannot take at
 *   its limits (fans at rated flow, chillers at capacity). The room air is not a state, so it
 *   is reported, not integrated into a room temperature.
 * - Air-side electric power P = P_fan + P_ch; heat to outdoors Q_air + P.
 *
 * | kind   | name              | unit | notes                                         |
 * |--------|-------------------|------|-----------------------------------------------|
 * | input  | heat_air          | W    | Q_air, heat into the room air                 |
 * | input  | dry_bulb          | K    | outdoor                                       |
 * | output | fan_power         | W    | P_fan                                         |
 * | output | chiller_power     | W    | P_ch (compressors and condenser fans)         |
 * | output | chiller_cooling   | W    | Q_ch, delivered                               |
 * | output | coil_load         | W    | Q_coil, asked of the chillers                 |
 * | output | unmet             | W    | Q_u                                           |
 * | output | economizer_share  | 1    | s                                             |
 * | output | chw_temp          | K    | T_chw                                         |
 */
class CrahPlant {
public:
    /// @brief Outputs of one evaluation (see the class equations).
    struct Outputs {
        double fan_power = 0.0;         ///< [W]
        double chiller_power = 0.0;     ///< [W]
        double chiller_cooling = 0.0;   ///< [W]
        double economizer_share = 0.0;  ///< [1]
        double chw_temp = 0.0;          ///< [K]
        double cop = 0.0;               ///< [1] chiller, 0 when off
        double coil_load = 0.0;         ///< [W] Q_coil, asked of the chillers
        double unmet = 0.0;             ///< [W] Q_u, room heat the plant cannot take
    };
    /// @param spec  units, supply air, economizer and chiller curve.
    /// @param units CRAH units installed (> 0; fractional allowed for a design estimate).
    /// @param chiller_units air-cooled chillers installed (each of the curve's rated
    ///        capacity); 0: the CRAH coils' rated capacity in chillers (before sizing).
    CrahPlant(CrahPlantSpec spec, double units, double chiller_units = 0.0);
    /// @param heat_air [W] heat into the room air, ≥ 0.
    /// @param dry_bulb [K] outdoor dry bulb.
    Outputs evaluate(double heat_air, double dry_bulb) const;
    /// [K] return air temperature T_r = T_s + ΔT_a.
    double returnAirTemp() const { return spec_.supply_air_temp + air_rise_; }
    /// [K] chilled water leaving the chiller.
    double chilledWaterTemp() const { return spec_.supply_air_temp - approach_; }
    double units() const { return units_; }
    const CrahPlantSpec& spec() const { return spec_; }

private:
    CrahPlantSpec spec_;
    double units_;
    double air_rise_ = 0.0;  // [K] ΔT_a
    double approach_ = 0.0;  // [K] ΔT_app
    Chiller chiller_;
};

}  // namespace dctwin::thermal
