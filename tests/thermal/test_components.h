#pragma once
/// @file
/// @brief Component wrappers that only the thermal tests use.
///
/// Why in tests/: the product wires chillers and air coils through the facility's plant
/// components (facility/plant.h) and never used these wrappers; they stay as test fixtures that
/// check the models behind them (thermal::Chiller, thermal::AirCoil) through the Component
/// interface, so the product libraries hold product code only (DESIGN.md §2).
#include <span>
#include <string>

#include "core/component.h"
#include "thermal/air_side.h"
#include "thermal/coolant.h"
#include "thermal/heat_rejection.h"

namespace dctwin::thermal::testing {

/// | input  | inlet_temp       | K    | water after the heat rejection unit          |
/// | input  | loop_return_temp | K    | water before the heat rejection unit (mode)  |
/// | input  | flow             | m3/s |                                              |
/// | input  | setpoint         | K    | facility supply setpoint                     |
/// | input  | condenser_temp   | K    | entering condenser water (or air)            |
/// | output | outlet_temp      | K    |                                              |
/// | output | cooling          | W    | evaporator duty                              |
/// | output | power            | W    | compressor                                   |
/// | output | heat_to_condenser| W    |                                              |
/// | output | cop              | 1    |                                              |
/// | output | mode             | 1    | EconomizerMode                               |
/// | output | setpoint_unmet   | K    | capacity shortfall as temperature            |
/// All feedthrough, no states.
class TrimChillerComponent : public Component {
public:
    TrimChillerComponent(std::string name, Chiller chiller, Coolant water);
    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    bool outputDependsOnState(std::size_t, std::size_t) const override { return false; }
    const Chiller& chiller() const { return chiller_; }

private:
    Chiller chiller_;
    Coolant water_;
};

/// AirCoil (thermal/air_side.h) as a Component: ports as the table in air_side.h, all
/// feedthrough, no states.
class AirCoilComponent : public Component {
public:
    AirCoilComponent(std::string name, AirCoil coil);
    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    bool outputDependsOnState(std::size_t, std::size_t) const override { return false; }
    const AirCoil& coil() const { return coil_; }

private:
    AirCoil coil_;
};

}  // namespace dctwin::thermal::testing
