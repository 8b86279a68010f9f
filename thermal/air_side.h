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
