// Facility-level components: sums, schedules, design weather, the heat-rejection plant and the
// site's electrical and air-side power (equations in plant.h).
#include "facility/plant.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.h"

namespace dctwin::facility {

// ------------------------------------------------------------------------ LinearCombination
LinearCombination::LinearCombination(std::string name, std::vector<Term> terms, std::string unit,
                                     double nominal, double constant)
    : Component(std::move(name)), constant_(constant) {
    for (const auto& term : terms) {
        if (!std::isfinite(term.weight)) {
            throw ModelError(
                fmt::format("{}: weight of '{}' is not finite", this->name(), term.name));
        }
        addInput({term.name, unit, nominal, 0.0, ""});
        weights_.push_back(term.weight);
    }
    addOutput({"value", unit, nominal, 0.0, "weighted sum"});
}

void LinearCombination::computeOutputs(double, std::span<const double>, std::span<const double> u,
                                       std::span<double> y) const {
    double s = constant_;
    for (std::size_t i = 0; i < weights_.size(); ++i) s += weights_[i] * u[i];
    y[0] = s;
}

// ----------------------------------------------------------------------------------- Maximum
Maximum::Maximum(std::string name, std::vector<std::string> inputs, std::string unit,
                 double nominal)
    : Component(std::move(name)) {
    if (inputs.empty()) throw ModelError(fmt::format("{}: needs at least one input", this->name()));
    for (auto& in : inputs) addInput({std::move(in), unit, nominal, 0.0, ""});
    addOutput({"value", std::move(unit), nominal, 0.0, "largest input"});
}

void Maximum::computeOutputs(double, std::span<const double>, std::span<const double> u,
                             std::span<double> y) const {
    y[0] = *std::max_element(u.begin(), u.end());
}

// ---------------------------------------------------------------------------------- Schedule
Schedule::Schedule(std::string name, std::string unit, double nominal, double initial,
                   std::vector<std::pair<double, double>> changes)
    : Component(std::move(name)), initial_(initial), changes_(std::move(changes)) {
    std::stable_sort(changes_.begin(), changes_.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    addOutput({"value", std::move(unit), nominal, initial, "scheduled value"});
}

double scheduledValue(std::span<const std::pair<double, double>> changes, double t,
                      double initial) {
    double v = initial, last = -std::numeric_limits<double>::infinity();
    for (const auto& [time, value] : changes) {
        if (time <= t && time >= last) {
            last = time;
            v = value;
        }
    }
    return v;
}

double Schedule::valueAt(double t) const { return scheduledValue(changes_, t, initial_); }

void Schedule::computeOutputs(double t, std::span<const double>, std::span<const double>,
                              std::span<double> y) const {
    y[0] = valueAt(t);
}

void Schedule::discontinuities(double t0, double t1, std::vector<double>& times) const {
    for (const auto& [time, value] : changes_) {
        if (time > t0 && time <= t1) times.push_back(time);
    }
}

// --------------------------------------------------------------------------- ConstantWeather
ConstantWeather::ConstantWeather(std::string name, double dry_bulb, double wet_bulb,
                                 double dew_point, double pressure)
    : Component(std::move(name)), values_{dry_bulb, wet_bulb, dew_point, pressure} {
    addOutput(kDryBulb, {"dry_bulb", "K", 300.0, 0.0, "outdoor dry bulb (design)"});
    addOutput(kWetBulb, {"wet_bulb", "K", 290.0, 0.0, "outdoor wet bulb (design)"});
    addOutput(kDewPoint, {"dew_point", "K", 285.0, 0.0, "outdoor dew point (design)"});
    addOutput(kPressure, {"pressure", "Pa", 1e5, 0.0, "station pressure"});
}

void ConstantWeather::computeOutputs(double, std::span<const double>, std::span<const double>,
                                     std::span<double> y) const {
    y[kDryBulb] = values_[0];
    y[kWetBulb] = values_[1];
    y[kDewPoint] = values_[2];
    y[kPressure] = values_[3];
}

// ------------------------------------------------------------------------ HeatRejectionPlant
HeatRejectionPlant::HeatRejectionPlant(std::string name, const PlantDesign& design)
    : Component(std::move(name)),
      design_(design),
      water_(thermal::Coolant::byName(design.coolant)),
      pumps_(design.fws_pumps, this->name() + " facility water pumps") {
    if (design.units < 1) {
        throw ModelError(fmt::format("{}: needs at least one heat rejection unit", this->name()));
    }
    if (design.kind == PrimaryKind::CoolingTower && design.bankCoolant() != "water") {
        // The scenario reader refuses this with the key's path; a hand-built design is a bug.
        throw ModelError(fmt::format("{}: an open cooling tower cannot run on {}", this->name(),
                                     design.bankCoolant()));
    }
    std::vector<int> counts = design.unit_counts_needed;
    counts.push_back(design.units);
    for (int n : counts) {
        if (n < 0 || n > design.units) {
            throw ModelError(
                fmt::format("{}: {} units asked for, {} installed", this->name(), n, design.units));
        }
        if (n == 0) continue;
        if (design.kind == PrimaryKind::DryCooler) {
            dry_.try_emplace(n, design.dry_cooler, n, design.bankCoolant());
        } else {
            tower_.try_emplace(n, design.tower, n);
        }
    }
    if (design.chiller) {
        thermal::ChillerSpec spec = *design.chiller;
        spec.capacity *= design.chiller_units;
        chiller_.emplace(spec);
    }
    const double q =
        design.kind == PrimaryKind::DryCooler ? design.dry_cooler.capacity : design.tower.capacity;
    const double qn = q * design.units;
    addInput(kInletTemp, {"inlet_temp", "K", 310.0, 310.0, "water entering the plant"});
    addInput(kFlow, {"flow", "m3/s", 0.1, 0.0, "water through the plant"});
    addInput(kSetpoint, {"setpoint", "K", 305.0, 305.0, "facility supply setpoint"});
    addInput(kDryBulb, {"dry_bulb", "K", 300.0, 300.0, ""});
    addInput(kWetBulb, {"wet_bulb", "K", 290.0, 290.0, ""});
    addInput(kPressure, {"pressure", "Pa", 1e5, 101325.0, ""});
    addInput(kUnits, {"units_available", "1", 1.0, static_cast<double>(design.units), ""});
    addInput(kFans, {"fans_available", "1", 1.0, 1.0, "0 while the fans have no power"});
    addInput(kChiller, {"chiller_available", "1", 1.0, 1.0, "0 after a chiller trip"});
    addInput(kExtraHeat,
             {"extra_heat", "W", 0.1 * qn, 0.0, "rear-door heat into the water ahead of the bank"});
    addInput(kFanLimit, {"fan_limit", "1", 1.0, 1.0, "operator's cap on the units' fan speed"});
    addInput(kFwsPumpsFailed, {"fws_pumps_failed", "1", 1.0, 0.0, "facility pumps out of service"});
    addInput(kValveMax, {"cdu_valve_max", "1", 1.0, 1.0, "most-open CDU primary valve"});
    const double plates = design.outdoor ? design.outdoor->spec().exchangers : 0.0;
    addInput(kOutdoorHxRunning, {"outdoor_hx_running", "1", 1.0, plates,
                                 "outdoor loop's duty plate exchangers in service"});
    addInput(kOutdoorPumpsFailed,
             {"outdoor_pumps_failed", "1", 1.0, 0.0, "outdoor loop's pumps out of service"});
    addOutput(kOutletTemp, {"outlet_temp", "K", 305.0, 0.0, "water leaving the plant"});
    addOutput(kHeat, {"heat_rejected", "W", qn, 0.0, "heat taken from the water"});
    addOutput(kFanPower, {"fan_power", "W", 0.02 * qn, 0.0, "fans of the primary units"});
    addOutput(kChillerPower, {"chiller_power", "W", 0.02 * qn, 0.0, "trim chiller compressor"});
    addOutput(kEvaporation, {"evaporation_rate", "m3/s", 1e-4, 0.0, "tower evaporation"});
    addOutput(kDrift, {"drift_rate", "m3/s", 1e-6, 0.0, "tower drift"});
    addOutput(kBlowdown, {"blowdown_rate", "m3/s", 1e-4, 0.0, "tower blowdown"});
    addOutput(kSpray, {"spray_rate", "m3/s", 1e-4, 0.0, "adiabatic pad/spray water"});
    addOutput(kUnmet, {"setpoint_unmet", "K", 1.0, 0.0, "leaving water above the setpoint"});
    addOutput(kChillerCooling,
              {"chiller_cooling", "W", 0.1 * qn, 0.0, "trim chiller evaporator duty"});
    addOutput(kFwsPumpPower,
              {"fws_pump_power", "W", 0.005 * qn, 0.0, "facility water pumps, electric"});
    addOutput(kFwsPumpLoss,
              {"fws_pump_loss", "W", 0.002 * qn, 0.0, "pump and motor losses to the air"});
    addOutput(kFwsPumpSpeed,
              {"fws_pump_speed", "1", 1.0, 0.0, "facility pump drive speed, fraction of rated"});
    addOutput(kFwsPumpsRunning, {"fws_pumps_running", "1", 1.0, 0.0, "facility pumps staged on"});
    addOutput(kFwsPumpHead, {"fws_pump_head", "Pa", design.fws_pumps.design_head, 0.0,
                             "facility pump pressure rise"});
    addOutput(kFwsRemoteDp, {"fws_remote_dp", "Pa", design.fws_pumps.dp_setpoint, 0.0,
                             "differential-pressure setpoint in force at the remote CDU"});
    // The rear doors' heat the water took: none when the water stands (SitePower then keeps
    // it in the room air).
    addOutput(kExtraHeatTaken,
              {"extra_heat_taken", "W", 0.1 * qn, 0.0, "rear-door heat the water took"});
    addOutput(kOutdoorSupplyTemp, {"outdoor_supply_temp", "K", 300.0, 0.0,
                                   "outdoor loop's liquid entering the plate heat exchanger"});
    addOutput(kHxHeat,
              {"hx_heat", "W", qn, 0.0, "plate heat exchanger: heat from the facility water"});
    addOutput(kOutdoorFlow, {"outdoor_flow", "m3/s", 0.1, 0.0, "outdoor loop's liquid flow"});
    addOutput(kOutdoorPumpPower, {"outdoor_pump_power", "W", 0.002 * qn, 0.0,
                                  "outdoor loop's pumps, electric (also in fws_pump_power)"});
}

void HeatRejectionPlant::evaluate(std::span<const double> u, std::span<double> y) const {
    const double flow = std::max(0.0, u[kFlow]), T_set = u[kSetpoint];
    const thermal::AmbientAir air{u[kDryBulb], u[kWetBulb], u[kPressure]};
    const int n = std::clamp(static_cast<int>(std::lround(u[kUnits])), 0, design_.units);
    const bool fans = u[kFans] > 0.5;
    std::fill(y.begin(), y.end(), 0.0);
    const double mdot = water_.massFlow(flow);
    // Facility pumps: their hydraulic work heats the water ahead of the bank.
    const auto p = pumps_.operate(flow, u[kFwsPumpsFailed], u[kValveMax]);
    const double work = p.work;
    y[kFwsPumpPower] = p.power;
    y[kFwsPumpLoss] = p.power - p.work;
    y[kFwsPumpSpeed] = p.speed;
    y[kFwsPumpsRunning] = p.running;
    y[kFwsPumpHead] = p.head;
    y[kFwsRemoteDp] = p.remote_dp;
    // Rear doors (when the air side has them) add the racks' air heat to the water here too.
    const double extra = mdot > 0.0 ? std::max(0.0, u[kExtraHeat]) : 0.0;
    const double T_in =
        mdot > 0.0 ? water_.heatedTemperature(u[kInletTemp], mdot, work + extra) : u[kInletTemp];

    double T1 = T_in;
    double outdoor_work = 0.0;  // [W] outdoor loop pumps' work (rejected with the bank's heat)
    // How far the supply misses its setpoint: what the bank reports (0 while its fans or pads
    // modulate to the setpoint), the chiller's shortfall where it trims, and all of the
    // return's excess when nothing runs. Not recomputed from T_out − T_set, which reads a
    // bank's or chiller's root a few ulps above the setpoint as a miss.
    double unmet = std::max(0.0, T_in - T_set);
    if (n > 0 && flow > 0.0) {
        // The bank `run(T_in, flow, setpoint)` cools the facility water itself or, with an
        // outdoor loop, its glycol, and the plate exchanger cools the water; `record` keeps the
        // bank's own outputs.
        auto primary = [&](auto&& run, auto&& record) {
            if (!design_.outdoor) {
                const auto o = run(T_in, flow, T_set);
                T1 = o.outlet_temp;
                unmet = o.setpoint_unmet;
                record(o);
                return;
            }
            const auto [s, o] = design_.outdoor->operate(
                T_in, mdot, T_set, run,
                std::max(0, static_cast<int>(std::lround(u[kOutdoorHxRunning]))),
                std::max(0, static_cast<int>(std::lround(u[kOutdoorPumpsFailed]))));
            record(o);
            y[kFwsPumpPower] += s.pump_power;
            y[kFwsPumpLoss] += s.pump_power - s.pump_work;
            T1 = s.inner_outlet;
            unmet = s.unmet;
            y[kOutdoorSupplyTemp] = s.outer_supply;
            y[kHxHeat] = s.heat;
            y[kOutdoorFlow] = s.flow;
            y[kOutdoorPumpPower] = s.pump_power;
            // The outdoor pumps' work leaves through the bank with the exchanger's heat.
            outdoor_work = s.pump_work;
        };
        if (design_.kind == PrimaryKind::DryCooler) {
            const thermal::DryCooler& bank = dry_.at(n);
            primary(
                [&](double T, double q, double T_s) {
                    const thermal::DryCooler::Inputs in{T, q, T_s, air, u[kFanLimit]};
                    return fans ? bank.evaluate(in) : bank.evaluateAt(in, 0.0, 0.0);
                },
                [&](const thermal::DryCooler::Outputs& o) {
                    y[kFanPower] = o.fan_power;
                    y[kSpray] = o.spray_water_rate;
                });
        } else {
            const thermal::CoolingTower& cells = tower_.at(n);
            primary(
                [&](double T, double q, double T_s) {
                    const thermal::CoolingTower::Inputs in{T, q, T_s, air, u[kFanLimit]};
                    return fans ? cells.evaluate(in) : cells.evaluateAt(in, 0.0);
                },
                [&](const thermal::CoolingTower::Outputs& o) {
                    y[kFanPower] = o.fan_power;
                    y[kEvaporation] = o.evaporation_rate;
                    y[kDrift] = o.drift_rate;
                    y[kBlowdown] = o.blowdown_rate;
                });
        }
    }
    double T_out = T1;
    if (chiller_ && u[kChiller] > 0.5 && fans && mdot > 0.0 && T1 > T_set) {
        const double h1 = water_.enthalpy(T1);
        const double load = mdot * (h1 - water_.enthalpy(T_set));
        auto c = chiller_->evaluate(load, T_set, air.dry_bulb);
        T_out = water_.temperatureFromEnthalpy(h1 - c.cooling / mdot);
        // A chiller at its capacity cannot pull the water down to the setpoint: its evaporator
        // follows the water it does reach, so its lift (and power) is that of T_out, not of
        // T_set (2026-12-05: one 1.5 MW unit in Phoenix drew its power as if it made 31 °C
        // water while the supply stayed at 42.9 °C, 2.5× its Carnot-fraction figure). Where
        // the capacity itself rises with the leaving water (catalog curves), the leaving
        // temperature is found by substitution; it contracts, since a kelvin changes the
        // capacity by far less than ṁ·c_p. At T_out = T_set both branches agree, so the
        // output stays continuous where the chiller just holds the setpoint.
        for (int it = 0; it < 30 && c.cooling < load; ++it) {
            const double T_prev = T_out;
            c = chiller_->evaluate(load, T_out, air.dry_bulb);
            T_out = water_.temperatureFromEnthalpy(h1 - c.cooling / mdot);
            if (std::abs(T_out - T_prev) <= 1e-9) break;
        }
        y[kChillerPower] = c.power;
        y[kChillerCooling] = c.cooling;
        unmet = c.cooling < load ? std::max(0.0, T_out - T_set) : 0.0;
    }
    y[kOutletTemp] = T_out;
    y[kHeat] = mdot * (water_.enthalpy(u[kInletTemp]) - water_.enthalpy(T_out)) + work + extra +
               outdoor_work;
    y[kUnmet] = unmet;
    y[kExtraHeatTaken] = extra;
}

void HeatRejectionPlant::computeOutputs(double, std::span<const double>, std::span<const double> u,
                                        std::span<double> y) const {
    evaluate(u, y);
}

// --------------------------------------------------------------------------------- SitePower
SitePower::SitePower(std::string name, SitePowerDesign design)
    : Component(std::move(name)), design_(std::move(design)), chain_(design_.chain) {
    if (design_.crah_units > 0.0) {
        crah_.emplace(design_.air_side, design_.crah_units, design_.air_chiller_units);
    }
    const double P = design_.nominal_power;
    addInput(kRackPower, {"rack_power", "W", P, 0.0, "racks, grid side of the PSU shelves"});
    addInput(kRackHeatAir, {"rack_heat_air", "W", 0.1 * P, 0.0, "rack heat to air"});
    addInput(kCduPumpPower, {"cdu_pump_power", "W", 0.01 * P, 0.0, "CDU pumps, electric"});
    addInput(kCduPumpHeat, {"cdu_pump_heat", "W", 0.01 * P, 0.0, "CDU pump work into the coolant"});
    addInput(kPlantPower,
             {"plant_power", "W", 0.02 * P, 0.0, "plant fans, trim chiller, facility pumps"});
    addInput(kDryBulb, {"dry_bulb", "K", 300.0, 300.0, ""});
    addInput(kUpsMains, {"ups_mains", "1", 1.0, 1.0, "UPS input share from upstream"});
    addInput(kUpsAvailable, {"ups_battery_available", "1", 1.0, 1.0, "0: battery empty"});
    addInput(kUpsSupply, {"ups_supply", "1", 1.0, 1.0, "UPS output supply to its loads"});
    addInput(kUpsCharge, {"ups_charge_power", "W", 0.01 * P, 0.0, "UPS battery charger draw"});
    addInput(kAirSideAvailable, {"air_side_available", "1", 1.0, 1.0, "0: air side unpowered"});
    addInput(kDoorHeatToWater, {"rear_door_heat_to_water", "W", 0.1 * P, 0.0,
                                "rear doors: rack air heat the facility water took"});
    addInput(kBusEnergised, {"bus_energised", "1", 1.0, 1.0,
                             "0: no source feeds the MV bus (utility lost, generators not on)"});
    addOutput(kFacilityPower, {"facility_power", "W", P, 0.0,
                               "drawn at the MV incomer (utility, or generators after a loss)"});
    addOutput(kItPower, {"it_power", "W", P, 0.0, "racks + fabric"});
    addOutput(kCoolingPower,
              {"cooling_power", "W", 0.1 * P, 0.0, "CDU and FWS pumps, plant, air side"});
    addOutput(kAirSidePower, {"air_side_power", "W", 0.01 * P, 0.0, "CRAH compressors and fans"});
    addOutput(kLosses, {"losses", "W", 0.05 * P, 0.0, "electrical chain losses"});
    addOutput(kHeatToAmbient,
              {"heat_to_ambient", "W", 0.2 * P, 0.0, "air-side, outdoor and pump heat"});
    addOutput(kUpsLoading, {"ups_loading", "1", 1.0, 0.0, "per UPS unit"});
    addOutput(kTransformerLoading, {"transformer_loading", "1", 1.0, 0.0, "per transformer"});
    addOutput(kBuswayLoading, {"busway_loading", "1", 1.0, 0.0, "per busway"});
    addOutput(kFeedLoading, {"feed_loading", "1", 1.0, 0.0, "per rack feed"});
    addOutput(kEconomizerShare,
              {"economizer_share", "1", 1.0, 0.0, "CRAH load carried by outdoor air"});
    addOutput(kUpsBatteryPower,
              {"ups_battery_power", "W", 0.1 * P, 0.0, "UPS battery to the UPS DC bus"});
    addOutput(kUpsBatteryLoss, {"ups_battery_loss", "W", 0.01 * P, 0.0, "UPS battery losses"});
    addOutput(kAirSideUnmet, {"air_side_unmet", "W", 0.01 * P, 0.0,
                              "room heat the CRAH plant cannot take (all of it while off)"});
    addOutput(kOtherPower, {"other_power", "W", std::max(1.0, design_.other_power), 0.0,
                            "other load served (lighting, offices; 0 on a dead bus)"});
}

SitePower::Solution SitePower::solve(std::span<const double> u) const {
    const auto& d = design_;
    Solution s;
    const double fabric = d.fabric_power * std::clamp(u[kUpsSupply], 0.0, 1.0);
    const double on_ups_cooling = d.cdu_pumps_on_ups ? u[kCduPumpPower] : 0.0;
    const double it = u[kRackPower] + fabric + on_ups_cooling;
    const double g = std::clamp(u[kUpsMains], 0.0, 1.0);
    const double from_battery = (1.0 - g) * std::clamp(u[kUpsAvailable], 0.0, 1.0);
    const double charge = std::max(0.0, u[kUpsCharge]);
    const double air_on = std::clamp(u[kAirSideAvailable], 0.0, 1.0);
    // A dead bus (utility lost, generators not yet on) feeds nothing off the UPS: the other
    // load is unserved and the transformers de-energised.
    const double energised = std::clamp(u[kBusEnergised], 0.0, 1.0);
    const double other = energised * d.other_power;
    const double pump_loss = std::max(0.0, u[kCduPumpPower] - u[kCduPumpHeat]);
    // Rear doors take the rack heat to air into the facility water (the plant's load); their
    // fans' work stays in the room air, and so does the rack heat the water did not take
    // (standing water: facility pumps stopped in a utility loss).
    const bool doors = d.air_kind == thermal::AirSideKind::RearDoor;
    double door_fans = 0.0;
    if (doors && d.rear_doors > 0.0) {
        const double f = std::max(0.0, u[kRackHeatAir]) / (d.rear_doors * d.rear_door.capacity);
        door_fans = d.rear_doors * d.rear_door.fan_power * f * f * f;
    }
    const double untaken = std::max(0.0, u[kRackHeatAir] - u[kDoorHeatToWater]);
    const double base_air =
        (doors ? door_fans + untaken : u[kRackHeatAir]) + fabric + other + pump_loss;
    double room = 0.0;  // chain heat into hall and electrical rooms
    for (int iter = 0; iter < 50; ++iter) {
        s.air_load = base_air + room;
        const auto c =
            crah_ ? crah_->evaluate(s.air_load, u[kDryBulb])
                  : thermal::CrahPlant(d.air_side, s.air_load / d.air_side.crah.capacity + 1.0)
                        .evaluate(s.air_load, u[kDryBulb]);
        s.air_side = air_on * (c.chiller_power + c.fan_power + door_fans);
        s.economizer_share = c.economizer_share;
        s.air_unmet = air_on * c.unmet + (1.0 - air_on) * s.air_load;
        s.door_fans = air_on * door_fans;
        s.cooling = u[kCduPumpPower] + u[kPlantPower] + s.air_side;
        s.chain_it = it;
        s.chain_cooling = s.cooling - on_ups_cooling;
        s.chain_upstream = 1.0 - from_battery;
        s.chain_charge = charge;
        s.chain_other = other;
        s.chain_energised = energised;
        s.chain = chain_.flows(s.chain_it, s.chain_cooling, s.chain_other, d.ups_mode,
                               s.chain_upstream, s.chain_charge, s.chain_energised);
        const double next = s.chain.hall_heat + s.chain.electrical_room_heat;
        if (std::abs(next - room) <= 1e-12 * std::max(1.0, s.chain.facility_power)) {
            room = next;
            break;
        }
        room = next;
    }
    s.air_load = base_air + room;
    s.battery = from_battery * s.chain.stage[power::ChainFlows::kUps].input_power;
    const double eta = d.battery_efficiency;
    s.battery_loss = s.battery * (1.0 / eta - 1.0) + charge * (1.0 - eta);
    return s;
}

power::ChainResult SitePower::chainAt(std::span<const double> u) const {
    const Solution s = solve(u);
    return chain_.evaluate(s.chain_it, s.chain_cooling, s.chain_other, design_.ups_mode,
                           s.chain_upstream, s.chain_charge, s.chain_energised);
}

void SitePower::computeOutputs(double, std::span<const double>, std::span<const double> u,
                               std::span<double> y) const {
    const Solution s = solve(u);
    const auto& c = s.chain;
    y[kFacilityPower] = c.facility_power;
    y[kItPower] = u[kRackPower] + design_.fabric_power * std::clamp(u[kUpsSupply], 0.0, 1.0);
    y[kCoolingPower] = s.cooling;
    y[kAirSidePower] = s.air_side;
    y[kLosses] = c.total_loss;
    const double outdoor = c.total_loss - c.hall_heat - c.electrical_room_heat;
    // Door fan work is already in the room air load (it is not a second heat).
    y[kHeatToAmbient] = s.air_load + s.air_side - s.door_fans + outdoor + s.battery_loss;
    using F = power::ChainFlows;
    y[kUpsLoading] = c.stage[F::kUps].loading;
    y[kTransformerLoading] = c.stage[F::kTransformer].loading;
    y[kBuswayLoading] = c.stage[F::kBusway].loading;
    y[kFeedLoading] = c.stage[F::kRackFeed].loading;
    y[kEconomizerShare] = s.economizer_share;
    y[kUpsBatteryPower] = s.battery;
    y[kUpsBatteryLoss] = s.battery_loss;
    y[kAirSideUnmet] = s.air_unmet;
    y[kOtherPower] = s.chain_other;
}

}  // namespace dctwin::facility
