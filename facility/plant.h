#pragma once
// Facility-level components that join the power and thermal layers into one site model
// (DESIGN.md §3.4). Each is algebraic (no states): the thermal masses live in the rack loops,
// CDUs and pipes, so these components sit between states and never close an algebraic loop.
//
// LinearCombination — y = Σ w_i·u_i + c. Sums powers over lumped groups (w = multiplicity),
//   turns a group total into a per-rack value (w = 1/count), adds burn power to rack heat.
//   | input  | <name_i>  | unit | |
//   | output | value     | unit | feedthrough from every input with w_i ≠ 0 |
//
// Schedule — piecewise-constant value that changes at given times (events: pumps failed,
//   units available, fans available). Declares its switching times as discontinuities.
//   | output | value | unit | no feedthrough |
//
// ConstantWeather — the design-point weather (outputs named like thermal::AmbientWeather:
//   dry_bulb [K], wet_bulb [K], dew_point [K], pressure [Pa]).
//
// HeatRejectionPlant — the facility water's heat rejection: a primary bank (dry coolers with or
//   without adiabatic pads, or cooling-tower cells; thermal/heat_rejection.h) controlled to the
//   facility supply setpoint, and an optional air-cooled trim chiller after it (water-side
//   economizer logic: the bank pre-cools, the chiller trims the rest to the setpoint):
//     primary      T_1 = bank(n_available units, T_in, V̇, T_set, ambient, fans on/off), or
//                  with an outdoor loop (thermal/outdoor_loop.h) the bank cools that loop's
//                  glycol and a plate heat exchanger cools the facility water: T_1 is the
//                  exchanger's facility outlet; the outdoor pumps run while the facility
//                  water flows, their power and losses counted with the facility pumps' and
//                  their work rejected by the bank with the exchanger's heat
//     chiller      L = ṁ·(h(T_1) − h(T_set))⁺, Q_ch = min(L, capacity(T_out)), P_ch from the
//                  chiller model at the leaving water T_out (the setpoint while it holds it)
//                  with its condenser at the dry bulb; T_out = h⁻¹(h(T_1) − Q_ch/ṁ)
//     heat         Q_water = ṁ·(h(T_in) − h(T_out)) + W + Q_extra  (= bank + chiller
//                  evaporator; Q_extra, the rear doors' heat, enters with the pump work W)
//     FWS pumps    a staged variable-speed pump station on a remote differential-pressure
//                  setpoint (thermal/pump_station.h): its hydraulic work W = V̇·H goes into
//                  the water ahead of the bank, P − W (motor, drive and pump losses) to the
//                  plant room air. With pumps lost beyond the standby the CDUs can draw only
//                  the share of their design flow the remaining pumps deliver; that share
//                  depends on the failure schedule alone, so the site model feeds it to the
//                  CDUs as a schedule (availableFlow) rather than through this component
//   Unit losses, fan outages (utility loss before the generators pick the fans up) and chiller
//   trips arrive as inputs, so one plant object covers every event of a contingency.
//   | input  | inlet_temp, flow, setpoint, dry_bulb, wet_bulb, pressure | K, m3/s, K, K, K, Pa |
//   | input  | units_available [1], fans_available [1], chiller_available [1],
//   |        | extra_heat [W] (rear doors: rack heat to air, added ahead of the bank),
//   |        | fan_limit [1], fws_pumps_failed [1], cdu_valve_max [1] (most-open CDU valve) |
//   |        | outdoor_hx_running [1] (the outdoor loop's duty plates in service),            |
//   |        | outdoor_pumps_failed [1] (the outdoor loop's pumps out of service)             |
//   | output | outlet_temp [K], heat_rejected [W] (from the water, pump work included),
//   |        | fan_power [W], chiller_power [W], evaporation_rate, drift_rate, blowdown_rate,
//   |        | spray_rate [m3/s], setpoint_unmet [K], chiller_cooling [W],
//   |        | fws_pump_power [W], fws_pump_loss [W], fws_pump_speed [1],
//   |        | fws_pumps_running [1], fws_pump_head [Pa], fws_remote_dp [Pa],
//   |        | extra_heat_taken [W] (the rear doors' heat the water took: 0 at zero flow),
//   |        | outdoor_supply_temp [K], hx_heat [W], outdoor_flow [m3/s] (outdoor loop: the
//   |        | glycol entering the exchanger, the heat it takes from the facility water, the
//   |        | glycol's flow; 0 without one), outdoor_pump_power [W] (the outdoor loop's
//   |        | pumps, electric: also in fws_pump_power, which carries every pump of the plant)
//   |        |                                                          all feedthrough |
//
// SitePower — everything electrical above the racks, and where the non-liquid heat goes:
//     air load     Q_air = rack heat to air + fabric + other + CDU pump losses (P − hydraulic
//                  work) + chain losses in the hall and electrical rooms
//     air side     P_air = thermal::CrahPlant (CRAH fans by the affinity law, air-side
//                  economizer, air-cooled chiller from its catalog curve at the dry bulb);
//                  with rear doors (kind RearDoor) the rack heat to air leaves through the
//                  facility water instead (the model adds it to the plant's load) and
//                  Q_air drops what the water took (rear_door_heat_to_water; standing water
//                  takes none, so in a utility loss the racks' air heat stays in the room);
//                  the doors' fans add P_door = n·P_r·(Q_rack,air/(n·Q_r))³
//     cooling      P_cool = P_cdu + P_plant + P_air  (P_plant: fans, chiller, FWS pumps)
//     chain        facility = chain(IT = racks + fabric, cooling, other): losses depend on
//                  P_air and P_air on the losses, so the pair is solved by fixed-point
//                  iteration to 1e-12 relative (contraction ≈ loss fraction / COP ≈ 0.01)
//     to ambient   Q_amb = Q_air + P_air + transformer/MV losses (air-side heat and the
//                  outdoor electrical losses)
//     utility loss (facility/utility_loss.h; inputs default to normal supply) the UPS draws
//                  the share g + (1 − g)·(1 − a) of its input from upstream and its battery
//                  delivers P_b = (1 − g)·a·P_ups,in; a charging battery adds P_ch upstream;
//                  the battery's losses P_b·(1/η − 1) + P_ch·(1 − η) are heat to ambient; the
//                  fabric draws s·P_fabric (s: UPS supply); the air side is off while
//                  air_side_available = 0 (the hall air is not a state: its heat still leaves)
//                  With the CDU pumps on the UPS (cdu_pumps_on_ups) the chain carries them on
//                  the UPS path with the IT load.
//     dead bus     bus_energised e [1] (UpsBattery's e(t): 0 from the loss until the
//                  generators are online) — no source feeds the MV bus, so nothing is drawn:
//                    other load served   P_other,s = e·P_other  [W] (lighting, offices and
//                                        security are not on the UPS: unserved, and no heat)
//                    transformers        de-energised, no no-load loss (power/chain.h)
//                    facility_power      0 W (the other loads above the UPS are already off:
//                                        UPS on battery, g = 0; generator-fed loads off by
//                                        the plan's schedules until their blocks)
//                  From the generators online on, the generators feed the MV bus:
//                  facility_power is then what the site draws from them (the utility stays
//                  lost), and the other load is served again.
//   | input  | rack_power [W] (grid side), rack_heat_air [W], cdu_pump_power [W],
//   |        | cdu_pump_heat [W], plant_power [W], dry_bulb [K], ups_mains [1] (g),
//   |        | ups_battery_available [1] (a), ups_supply [1] (s), ups_charge_power [W],
//   |        | air_side_available [1], rear_door_heat_to_water [W] (rear doors),
//   |        | bus_energised [1] (e; default 1: normal supply)                              |
//   | output | facility_power [W] (drawn at the MV incomer from the source feeding it: the
//   |        | utility, or the generators after a utility loss; the UPS battery's share is
//   |        | not in it; 0 on a dead bus), it_power, cooling_power, air_side_power, losses,
//   |        | heat_to_ambient [W]; ups_loading, transformer_loading, busway_loading,
//   |        | feed_loading [1]; economizer_share [1] (of the CRAH load carried by
//   |        | outdoor air); ups_battery_power [W] (P_b), ups_battery_loss [W];
//   |        | air_side_unmet [W] (room heat the CRAH plant cannot take: CrahPlant's Q_u
//   |        | while it runs, the whole air load while it is off), other_power [W] (the other
//   |        | load served, e·P_other)
//   |        |                                                          all feedthrough |
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/component.h"
#include "power/chain.h"
#include "thermal/air_side.h"
#include "thermal/coolant.h"
#include "thermal/heat_rejection.h"
#include "thermal/outdoor_loop.h"
#include "thermal/pump_station.h"

namespace dctwin::facility {

class LinearCombination : public Component {
public:
    struct Term {
        std::string name;
        double weight;
    };
    LinearCombination(std::string name, std::vector<Term> terms, std::string unit, double nominal,
                      double constant = 0.0);
    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    bool outputDependsOnInput(std::size_t, std::size_t input) const override {
        return weights_[input] != 0.0;
    }
    bool outputDependsOnState(std::size_t, std::size_t) const override { return false; }

private:
    std::vector<double> weights_;
    double constant_;
};

// Maximum — y = max_i u_i (the most-open CDU valve for the facility pumps' reset).
//   | input  | <name_i> | unit | |
//   | output | value    | unit | feedthrough from every input |
class Maximum : public Component {
public:
    Maximum(std::string name, std::vector<std::string> inputs, std::string unit, double nominal);
    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    bool outputDependsOnState(std::size_t, std::size_t) const override { return false; }
};

/// The value a list of changes (time [s], new value), in any order, holds at t: the latest
/// change at or before t, of two at the same time the one listed later; `initial` before any.
/// One rule for the plant's Schedule and for the event walk that builds its changes.
double scheduledValue(std::span<const std::pair<double, double>> changes, double t, double initial);

class Schedule : public Component {
public:
    /// Value `initial` until the first change; changes = (time [s], new value), any order.
    Schedule(std::string name, std::string unit, double nominal, double initial,
             std::vector<std::pair<double, double>> changes);
    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    void discontinuities(double t0, double t1, std::vector<double>& times) const override;
    bool outputDependsOnInput(std::size_t, std::size_t) const override { return false; }
    bool outputDependsOnState(std::size_t, std::size_t) const override { return false; }
    double valueAt(double t) const;

private:
    double initial_;
    std::vector<std::pair<double, double>> changes_;  // sorted by time
};

class ConstantWeather : public Component {
public:
    enum Output : std::size_t { kDryBulb, kWetBulb, kDewPoint, kPressure };
    ConstantWeather(std::string name, double dry_bulb, double wet_bulb, double dew_point,
                    double pressure);
    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    bool outputDependsOnInput(std::size_t, std::size_t) const override { return false; }
    bool outputDependsOnState(std::size_t, std::size_t) const override { return false; }

private:
    double values_[4];  // [K, K, K, Pa]
};

enum class PrimaryKind { DryCooler, CoolingTower };

struct PlantDesign {
    PrimaryKind kind = PrimaryKind::DryCooler;
    thermal::DryCoolerSpec dry_cooler;            // when kind == DryCooler
    thermal::CoolingTowerSpec tower;              // when kind == CoolingTower
    int units = 1;                                // [1] installed (all run; fans share the duty)
    double fan_limit = 1.0;                       // [1] operator's cap on fan speed (0..1]
    std::vector<int> unit_counts_needed;          // other counts events will ask for
    std::optional<thermal::ChillerSpec> chiller;  // air-cooled trim chiller
    int chiller_units = 0;                        // [1]
    std::string coolant = "water";                // facility loop's liquid
    thermal::PumpStationSpec fws_pumps;           // facility water pumps
    /// Glycol loop between the bank and a plate heat exchanger (the bank then runs on its
    /// liquid); none: the facility water runs through the bank.
    std::optional<thermal::OutdoorLoop> outdoor;
    /// The liquid in the bank's coils or cells.
    const std::string& bankCoolant() const { return outdoor ? outdoor->spec().coolant : coolant; }
};

class HeatRejectionPlant : public Component {
public:
    HeatRejectionPlant(std::string name, const PlantDesign& design);
    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    bool outputDependsOnState(std::size_t, std::size_t) const override { return false; }

    enum Input : std::size_t {
        kInletTemp,
        kFlow,
        kSetpoint,
        kDryBulb,
        kWetBulb,
        kPressure,
        kUnits,
        kFans,
        kChiller,
        kExtraHeat,
        kFanLimit,
        kFwsPumpsFailed,
        kValveMax,
        kOutdoorHxRunning,
        kOutdoorPumpsFailed
    };
    enum Output : std::size_t {
        kOutletTemp,
        kHeat,
        kFanPower,
        kChillerPower,
        kEvaporation,
        kDrift,
        kBlowdown,
        kSpray,
        kUnmet,
        kChillerCooling,
        kFwsPumpPower,
        kFwsPumpLoss,
        kFwsPumpSpeed,
        kFwsPumpsRunning,
        kFwsPumpHead,
        kFwsRemoteDp,
        kExtraHeatTaken,
        kOutdoorSupplyTemp,
        kHxHeat,
        kOutdoorFlow,
        kOutdoorPumpPower
    };
    const PlantDesign& design() const { return design_; }
    /// Steady plant outputs for given inputs (the design-point sizing uses it directly).
    void evaluate(std::span<const double> u, std::span<double> y) const;

private:
    PlantDesign design_;
    thermal::Coolant water_;
    thermal::PumpStation pumps_;
    std::map<int, thermal::DryCooler> dry_;
    std::map<int, thermal::CoolingTower> tower_;
    std::optional<thermal::Chiller> chiller_;
};

struct SitePowerDesign {
    power::ChainDesign chain;
    power::UpsMode ups_mode = power::UpsMode::DoubleConversion;
    double fabric_power = 0.0;        // [W] switches and optics outside the racks
    double other_power = 0.0;         // [W] lighting, offices, security (no UPS): served
                                      // while the bus is energised
    thermal::CrahPlantSpec air_side;  // CRAH units, economizer, air-cooled chiller curve
    double crah_units = 0.0;          // [1] installed; 0: Q_air/Q_r + 1 at the load at hand
    double air_chiller_units = 0.0;   // [1] installed; 0: the CRAH coils' rating in chillers
    thermal::AirSideKind air_kind = thermal::AirSideKind::CrahAirCooledChiller;
    thermal::AirCoilSpec rear_door;   // per rack (kind RearDoor)
    double rear_doors = 0.0;          // [1] doors (one per rack)
    double nominal_power = 1e7;       // [W]
    bool cdu_pumps_on_ups = false;    // utility loss: CDU pumps on the UPS path
    double battery_efficiency = 1.0;  // [1] UPS battery (utility loss)
};

class SitePower : public Component {
public:
    SitePower(std::string name, SitePowerDesign design);
    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    bool outputDependsOnState(std::size_t, std::size_t) const override { return false; }
    const power::ChainModel& chain() const { return chain_; }
    const SitePowerDesign& design() const { return design_; }
    /// Full chain result at given inputs (for the sizing report's loading column).
    power::ChainResult chainAt(std::span<const double> u) const;

    enum Input : std::size_t {
        kRackPower,
        kRackHeatAir,
        kCduPumpPower,
        kCduPumpHeat,
        kPlantPower,
        kDryBulb,
        kUpsMains,
        kUpsAvailable,
        kUpsSupply,
        kUpsCharge,
        kAirSideAvailable,
        kDoorHeatToWater,
        kBusEnergised
    };
    enum Output : std::size_t {
        kFacilityPower,
        kItPower,
        kCoolingPower,
        kAirSidePower,
        kLosses,
        kHeatToAmbient,
        kUpsLoading,
        kTransformerLoading,
        kBuswayLoading,
        kFeedLoading,
        kEconomizerShare,
        kUpsBatteryPower,
        kUpsBatteryLoss,
        kAirSideUnmet,
        kOtherPower
    };

private:
    struct Solution {
        power::ChainFlows chain;
        // The chain's arguments at the solution (chainAt() names the stages from them).
        double chain_it = 0, chain_cooling = 0, chain_upstream = 1, chain_charge = 0;
        double chain_other = 0, chain_energised = 1;
        double air_side = 0, cooling = 0, air_load = 0, economizer_share = 0, door_fans = 0;
        double air_unmet = 0;                  // [W] room heat the CRAH plant cannot take
        double battery = 0, battery_loss = 0;  // [W] UPS battery (utility loss)
    };
    Solution solve(std::span<const double> u) const;
    SitePowerDesign design_;
    power::ChainModel chain_;
    std::optional<thermal::CrahPlant> crah_;  // when crah_units > 0
};

}  // namespace dctwin::facility
