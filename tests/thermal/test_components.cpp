#include "test_components.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string_view>

#include "core/errors.h"
#include "core/units.h"

namespace dctwin::thermal::testing {
namespace {

/// The water-side check of thermal/heat_rejection.cpp: temperatures inside the coolant's table
/// and a finite flow ≥ 0, else InputError naming the unit.
void checkWaterSide(std::string_view where, const Coolant& c, double T_in, double flow,
                    double setpoint) {
    auto inTable = [&](double T) { return T >= c.minTemperature() && T <= c.maxTemperature(); };
    if (!inTable(T_in) || !inTable(setpoint) || !(flow >= 0.0) || !std::isfinite(flow)) {
        throw InputError(fmt::format(
            "{}: inlet {:.2f} °C, setpoint {:.2f} °C, flow {} m3/s; expected temperatures "
            "within the {} table ({:.1f}..{:.1f} °C) and a finite flow ≥ 0",
            where, units::kelvinToCelsius(T_in), units::kelvinToCelsius(setpoint), flow, c.name(),
            units::kelvinToCelsius(c.minTemperature()),
            units::kelvinToCelsius(c.maxTemperature())));
    }
}

}  // namespace

TrimChillerComponent::TrimChillerComponent(std::string name, Chiller chiller, Coolant water)
    : Component(std::move(name)), chiller_(std::move(chiller)), water_(std::move(water)) {
    const double Qn = chiller_.spec().capacity;
    addInput({"inlet_temp", "K", 303.15, 303.15, "water after the heat rejection unit"});
    addInput({"loop_return_temp", "K", 303.15, 303.15, "water before the heat rejection unit"});
    addInput({"flow", "m3/s", 0.05, 0.05, "water flow"});
    addInput({"setpoint", "K", 300.15, 300.15, "supply setpoint"});
    addInput({"condenser_temp", "K", 302.55, 302.55, "entering condenser water or air"});
    addOutput({"outlet_temp", "K", 300.0, 0.0, "water out"});
    addOutput({"cooling", "W", Qn, 0.0, "evaporator duty"});
    addOutput({"power", "W", Qn / 5.0, 0.0, "compressor power"});
    addOutput({"heat_to_condenser", "W", Qn, 0.0, "condenser heat"});
    addOutput({"cop", "1", 5.0, 0.0, "coefficient of performance"});
    addOutput({"mode", "1", 1.0, 0.0, "0 economizer, 1 integrated, 2 mechanical"});
    addOutput({"setpoint_unmet", "K", 1.0, 0.0, "outlet above setpoint (capacity short)"});
}

void TrimChillerComponent::computeOutputs(double, std::span<const double>,
                                          std::span<const double> u, std::span<double> y) const {
    const double T_in = u[0], T_ret = u[1], flow = u[2], T_set = u[3], T_cond = u[4];
    checkWaterSide(fmt::format("trim chiller '{}'", name()), water_, T_in, flow, T_set);
    const EconomizerMode mode = economizerMode(T_ret, T_in, T_set);
    const double mdot = water_.massFlow(flow);
    const double load = mode == EconomizerMode::Economizer
                            ? 0.0
                            : mdot * (water_.enthalpy(T_in) - water_.enthalpy(T_set));
    const Chiller::Outputs o = chiller_.evaluate(load, T_set, T_cond);
    y[0] = water_.heatedTemperature(T_in, mdot, -o.cooling);
    if (mdot <= 0.0) y[0] = T_in;
    y[1] = o.cooling;
    y[2] = o.power;
    y[3] = o.heat_to_condenser;
    y[4] = o.cop;
    y[5] = static_cast<double>(static_cast<int>(mode));
    y[6] = std::max(0.0, y[0] - T_set);
}

AirCoilComponent::AirCoilComponent(std::string name, AirCoil coil)
    : Component(std::move(name)), coil_(std::move(coil)) {
    const auto& s = coil_.spec();
    const double n = coil_.units();
    addInput({"heat_air", "W", n * s.capacity, n * s.capacity, "heat into the air"});
    addInput({"water_supply_temp", "K", s.rating_water_temp, s.rating_water_temp, "water supply"});
    addInput({"water_flow", "m3/s", n * s.water_flow, n * s.water_flow, "water flow"});
    addInput({"room_temp", "K", s.rating_room_temp, s.rating_room_temp,
              "air entering the racks or unit"});
    addOutput({"heat_to_water", "W", n * s.capacity, 0.0, "heat into the water"});
    addOutput({"water_return_temp", "K", s.rating_water_temp, 0.0, "water return"});
    addOutput({"fan_power", "W", std::max(1.0, n * s.fan_power), 0.0, "fans"});
    addOutput({"heat_to_room", "W", n * s.capacity, 0.0, "heat left in the room"});
    addOutput({"required_water_temp", "K", s.rating_water_temp, 0.0,
               "room-neutral water supply temperature"});
    addOutput({"air_outlet_temp", "K", s.rating_room_temp, 0.0, "air leaving the coil"});
}

void AirCoilComponent::computeOutputs(double, std::span<const double>, std::span<const double> u,
                                      std::span<double> y) const {
    const AirCoil::Outputs o = coil_.evaluate(u[0], u[1], u[2], u[3]);
    y[0] = o.heat_to_water;
    y[1] = o.water_return_temp;
    y[2] = o.fan_power;
    y[3] = o.heat_to_room;
    y[4] = o.required_water_temp;
    y[5] = o.air_outlet_temp;
}

}  // namespace dctwin::thermal::testing
