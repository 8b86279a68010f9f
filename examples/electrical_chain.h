#pragma once
/// @file
/// @brief ElectricalChain: power::ChainModel as a stand-alone core Component.
///
/// Why here and not in power/: the product wires the chain through facility's SitePower
/// component (facility/plant.h); only the power week example (examples/power_week.cpp) and the
/// chain tests (tests/power/chain_test.cpp) use a chain on its own, so it lives beside them.
///
/// No states; algebraic, direct feedthrough from every input (equations in power/chain.h):
///   | kind   | name                 | unit | meaning                                   |
///   |--------|----------------------|------|-------------------------------------------|
///   | input  | it_power             | W    | AC power at the rack shelf inputs         |
///   | input  | cooling_power        | W    | cooling plant electrical power            |
///   | input  | other_power          | W    | lighting, offices, ... (no UPS)           |
///   | output | facility_power       | W    | power drawn from the utility              |
///   | output | total_loss           | W    | all chain losses                          |
///   | output | ups_loss             | W    |                                           |
///   | output | transformer_loss     | W    |                                           |
///   | output | distribution_loss    | W    | feeds + busways + LV switchgear + MV      |
///   | output | hall_heat            | W    | feed and busway losses (data hall air)    |
///   | output | electrical_room_heat | W    | UPS and LV switchgear losses              |
///   | output | feed_loading         | 1    | per rack feed                             |
///   | output | busway_loading       | 1    | per busway                                |
///   | output | ups_loading          | 1    | per UPS unit                              |
///   | output | transformer_loading  | 1    | per transformer                           |
///   | output | mv_current           | A    | total MV current at the utility           |
#include <span>
#include <string>

#include "core/component.h"
#include "power/chain.h"

namespace dctwin::examples {

class ElectricalChain : public Component {
public:
    /// @param name component name (prefix of its ports).
    /// @param design element ratings and counts, e.g. power::chainDesignFromSizing().
    /// @param mode UPS operating mode for the whole run.
    /// @param nominal_power [W] scale of the ports' nominal values (solver tolerances).
    ElectricalChain(std::string name, power::ChainDesign design,
                    power::UpsMode mode = power::UpsMode::DoubleConversion,
                    double nominal_power = 1e7);
    const power::ChainModel& model() const { return model_; }
    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    bool outputDependsOnState(std::size_t, std::size_t) const override { return false; }
    bool derivativeDependsOnState(std::size_t, std::size_t) const override { return false; }
    bool derivativeDependsOnInput(std::size_t, std::size_t) const override { return false; }

    static constexpr std::size_t kItPower = 0, kCoolingPower = 1, kOtherPower = 2;

private:
    power::ChainModel model_;
    power::UpsMode mode_;
};

}  // namespace dctwin::examples
