#include "examples/electrical_chain.h"

#include <algorithm>

namespace dctwin::examples {
using power::ChainDesign;
using power::ChainResult;
using power::UpsMode;

ElectricalChain::ElectricalChain(std::string name, ChainDesign design, UpsMode mode,
                                 double nominal_power)
    : Component(std::move(name)), model_(std::move(design)), mode_(mode) {
    const double P = nominal_power;
    addInput(kItPower, {"it_power", "W", P, 0.0, "AC power at the rack shelf inputs"});
    addInput(kCoolingPower, {"cooling_power", "W", 0.1 * P, 0.0, "cooling plant electrical power"});
    addInput(kOtherPower, {"other_power", "W", 0.01 * P, 0.0, "other facility loads"});
    addOutput({"facility_power", "W", P, 0.0, "power from the utility"});
    addOutput({"total_loss", "W", 0.03 * P, 0.0, "all chain losses"});
    addOutput({"ups_loss", "W", 0.03 * P, 0.0, "UPS losses"});
    addOutput({"transformer_loss", "W", 0.005 * P, 0.0, "transformer losses"});
    addOutput({"distribution_loss", "W", 0.005 * P, 0.0, "feeds, busways, switchgear, MV"});
    addOutput({"hall_heat", "W", 0.005 * P, 0.0, "feed and busway losses (data hall)"});
    addOutput({"electrical_room_heat", "W", 0.03 * P, 0.0, "UPS and LV switchgear losses"});
    addOutput({"feed_loading", "1", 1.0, 0.0, "per rack feed"});
    addOutput({"busway_loading", "1", 1.0, 0.0, "per busway"});
    addOutput({"ups_loading", "1", 1.0, 0.0, "per UPS unit"});
    addOutput({"transformer_loading", "1", 1.0, 0.0, "per transformer"});
    addOutput({"mv_current", "A", 500.0, 0.0, "MV current at the utility"});
}

void ElectricalChain::computeOutputs(double, std::span<const double>, std::span<const double> u,
                                     std::span<double> y) const {
    const ChainResult r =
        model_.evaluate(std::max(0.0, u[kItPower]), std::max(0.0, u[kCoolingPower]),
                        std::max(0.0, u[kOtherPower]), mode_);
    y[0] = r.facility_power;
    y[1] = r.total_loss;
    y[2] = r.ups_loss;
    y[3] = r.transformer_loss;
    y[4] = r.distribution_loss;
    y[5] = r.hall_heat;
    y[6] = r.electrical_room_heat;
    y[7] = r.elements[0].loading;
    y[8] = r.elements[1].loading;
    y[9] = r.elements[2].loading;
    y[10] = r.elements[4].loading;
    y[11] = r.mv_current;
}

}  // namespace dctwin::examples
