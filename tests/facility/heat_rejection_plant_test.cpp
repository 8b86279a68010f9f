// The heat-rejection plant's trim chiller (facility/plant.h): a chiller at its capacity
// cannot pull the water to the setpoint, and its evaporator follows the water it reaches.
#include <gtest/gtest.h>

#include <vector>

#include "core/units.h"
#include "facility/plant.h"
#include "thermal/heat_rejection.h"

namespace dctwin::facility::test {
namespace {

using P = HeatRejectionPlant;
using units::celsiusToKelvin;
using units::kelvinToCelsius;

// Phoenix's 0.4 % design day (43.6 °C dry bulb, 20.7 °C coincident wet bulb; the
// design-point test's weather) against a 31 °C facility supply: too hot for dry coolers
// alone, so whatever reaches the setpoint is the chiller's work.
constexpr double kDryBulbC = 43.6, kWetBulbC = 20.7, kSetpointC = 31.0;

PlantDesign design(int chiller_units, const Json& chiller_overrides = Json::object()) {
    PlantDesign d;
    d.kind = PrimaryKind::DryCooler;
    d.dry_cooler = thermal::DryCoolerSpec::fromCatalog("generic_dry_cooler_1MW");
    d.units = 10;
    d.chiller = thermal::ChillerSpec::fromCatalog("carnot_centrifugal", chiller_overrides);
    d.chiller_units = chiller_units;
    d.fws_pumps.design_flow = 0.2;
    return d;
}

std::vector<double> outputs(const P& plant, double inlet_C) {
    std::vector<double> u(plant.inputs().size()), y(plant.outputs().size());
    for (std::size_t i = 0; i < u.size(); ++i) u[i] = plant.inputs()[i].start;
    u[P::kInletTemp] = celsiusToKelvin(inlet_C);
    u[P::kFlow] = 0.2;  // [m³/s] ~ 0.83 MW per kelvin
    u[P::kSetpoint] = celsiusToKelvin(kSetpointC);
    u[P::kDryBulb] = celsiusToKelvin(kDryBulbC);
    u[P::kWetBulb] = celsiusToKelvin(kWetBulbC);
    u[P::kPressure] = 101325.0;
    plant.evaluate(u, y);
    return y;
}

// Carnot fraction (thermal/heat_rejection.h, ChillerSpec::Kind::Carnot) written out by hand:
// evaporating `evaporator_offset` below the leaving water, condensing `condenser_offset` above
// the dry bulb (air-cooled), COP = η₂ · T_evap / (T_cond − T_evap).
double carnotCop(const thermal::ChillerSpec& s, double leaving_K) {
    const double T_evap = leaving_K - s.evaporator_offset;
    const double T_cond = celsiusToKelvin(kDryBulbC) + s.condenser_offset;
    return s.second_law_efficiency * T_evap / (T_cond - T_evap);
}

TEST(HeatRejectionPlant, AChillerAtItsCapacityDrawsThePowerOfTheWaterItReaches) {
    // 50 °C water back from the racks: 19 K to take out at ~0.83 MW/K, ~16 MW, against one
    // 1.5 MW chiller. It runs flat out and the supply stays well above 31 °C.
    const PlantDesign d = design(1);
    const P plant("plant", d);
    const std::vector<double> y = outputs(plant, 50.0);
    const double leaving = y[P::kOutletTemp];
    ASSERT_GT(kelvinToCelsius(leaving), kSetpointC + 5.0);
    EXPECT_DOUBLE_EQ(y[P::kChillerCooling], d.chiller->capacity);
    EXPECT_NEAR(y[P::kUnmet], leaving - celsiusToKelvin(kSetpointC), 1e-9);
    // Its evaporator sits 2 K below the water it delivers, not below 31 °C water it never
    // makes. Before 2026-12-05 the power was that of 31 °C water: larger by the ratio of the
    // two COPs, more than 2× at these temperatures.
    const double expected = d.chiller->capacity / carnotCop(*d.chiller, leaving);
    EXPECT_NEAR(y[P::kChillerPower], expected, 1e-9 * expected);
    const double at_setpoint =
        d.chiller->capacity / carnotCop(*d.chiller, celsiusToKelvin(kSetpointC));
    EXPECT_LT(y[P::kChillerPower], 0.6 * at_setpoint);
}

TEST(HeatRejectionPlant, TheChillersPowerIsContinuousWhereItJustHoldsTheSetpoint) {
    // Twenty units hold 31 °C: the leaving water is the setpoint, the power that of the load
    // at 31 °C, and nothing is unmet.
    const PlantDesign big = design(20);
    const std::vector<double> held = outputs(P("plant", big), 50.0);
    const double load = held[P::kChillerCooling];
    EXPECT_NEAR(held[P::kOutletTemp], celsiusToKelvin(kSetpointC), 1e-9);
    EXPECT_EQ(held[P::kUnmet], 0.0);
    EXPECT_NEAR(held[P::kChillerPower], load / carnotCop(*big.chiller, celsiusToKelvin(kSetpointC)),
                1e-9 * load);
    // A chiller a millionth too small: the water misses by a millionth of the duty's ΔT
    // (~19 µK), and its power moves by that order, not by a jump to another lift.
    const PlantDesign small = design(1, Json{{"capacity_kW", load * (1.0 - 1e-6) / 1e3}});
    const std::vector<double> short_of_it = outputs(P("plant", small), 50.0);
    EXPECT_GT(short_of_it[P::kUnmet], 0.0);
    EXPECT_LT(short_of_it[P::kUnmet], 1e-4);
    EXPECT_NEAR(short_of_it[P::kChillerPower], held[P::kChillerPower],
                1e-5 * held[P::kChillerPower]);
}

TEST(Schedule, HoldsTheLatestChangeAtOrBeforeTheTimeAndOfTwoAtOnceTheOneListedLater) {
    // Listed out of time order, as an event walk appends them; two changes at 100 s.
    const std::vector<std::pair<double, double>> changes{
        {300.0, 3.0}, {100.0, 1.0}, {200.0, 2.0}, {100.0, 4.0}};
    EXPECT_EQ(scheduledValue(changes, 99.0, 7.0), 7.0);   // before any change: the initial
    EXPECT_EQ(scheduledValue(changes, 100.0, 7.0), 4.0);  // at a change; the later-listed of two
    EXPECT_EQ(scheduledValue(changes, 250.0, 7.0), 2.0);
    EXPECT_EQ(scheduledValue(changes, 1e9, 7.0), 3.0);
    EXPECT_EQ(scheduledValue({}, 5.0, 7.0), 7.0);
    // The plant's Schedule follows the same rule (the values by hand, as above).
    const Schedule s("s", "1", 1.0, 7.0, changes);
    EXPECT_EQ(s.valueAt(99.0), 7.0);
    EXPECT_EQ(s.valueAt(100.0), 4.0);
    EXPECT_EQ(s.valueAt(250.0), 2.0);
    EXPECT_EQ(s.valueAt(300.0), 3.0);
}

}  // namespace
}  // namespace dctwin::facility::test
