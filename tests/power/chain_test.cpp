// Electrical chain: transformer and UPS curves against the catalog, currents and losses by
// hand, the UPS on battery, and the transfer-sequence plan the sizing checks a utility loss with.
#include "power/chain.h"

#include <gtest/gtest.h>

#include <cmath>

#include "examples/electrical_chain.h"
#include "test_util.h"

namespace dctwin::power {
namespace {

using test::catalog;

TEST(power_Transformer, EfficiencyAtHalfLoadEqualsCatalogDoeValue) {
    // domain-facts D1: η(0.5) = DOE 2016 minimum (10 CFR 431.196), PF 1.
    for (const auto& t : catalog().transformers()) {
        EXPECT_NEAR(transformerEfficiency(t, 0.5, 1.0), t.doe_efficiency_50pct, 2e-6) << t.name;
    }
    // Hand check, 2,500 kVA: 1,250 kW / (1,250 kW + 2.2 kW + 0.25 × 14.811 kW) = 0.99530.
    const TransformerSpec t = catalog().transformer("liquid_2500kva");
    EXPECT_NEAR(transformerEfficiency(t, 0.5), 1250.0 / (1250.0 + 2.2 + 0.25 * 14.811), 1e-9);
    EXPECT_NEAR(transformerEfficiency(t, 0.5), 0.9953, 1e-6);
}

TEST(power_Ups, FittedLossCurveReproducesCatalogPoints) {
    // domain-facts D1 default points: ~96 % at 25 %, 97 % at 50 %, 97-97.5 % at 75-100 %;
    // eco ~99 %. A 3-parameter fit to 4 points: each within 0.1 percentage point.
    const UpsSpec u = catalog().ups("static_1500kw");
    for (const auto* pts : {&u.double_conversion_points, &u.eco_points}) {
        const UpsLossCurve c = UpsLossCurve::fit(*pts);
        for (const auto& [x, eta] : *pts) {
            std::printf("UPS x=%.2f catalog %.4f fit %.5f\n", x, eta, c.efficiency(x));
            EXPECT_NEAR(c.efficiency(x), eta, 0.001) << "x=" << x;
        }
    }
}

TEST(power_Ups, FitIsExactForThreePoints) {
    // Three points determine a + b x + c x² exactly.
    const std::vector<std::pair<double, double>> p{{0.25, 0.95}, {0.5, 0.97}, {1.0, 0.96}};
    const UpsLossCurve c = UpsLossCurve::fit(p);
    for (const auto& [x, eta] : p) EXPECT_NEAR(c.efficiency(x), eta, 1e-12);
}

ChainDesign referenceDesign() {
    ChainDesign d;
    d.rack_feed = catalog().conductor("rack_feeds", "feed_250a");
    d.rack_feeds = 128;  // 64 racks × A/B
    d.busway = catalog().conductor("busways", "busway_2000a");
    d.busways = 16;
    d.ups = catalog().ups("static_1500kw");
    d.ups_units = 12;
    d.lv_breaker = catalog().conductor("breakers", "lv_5000a");
    d.lv_breakers = 8;
    d.transformer = catalog().transformer("liquid_2500kva");
    d.transformers = 8;
    d.mv_feeder = catalog().conductor("breakers", "mv_1200a");
    d.mv_feeders = 2;
    return d;
}

TEST(power_ChainModel, CurrentsLossesAndBalanceByHand) {
    const ChainModel m(referenceDesign());
    const double it = 8.6e6, cooling = 1.0e6, other = 0.1e6;
    const ChainResult r = m.evaluate(it, cooling, other);
    // Rack feed: I = (8.6 MW/128) / (√3 × 415 V × 0.99) = 94.4 A per feed.
    const double I_feed = it / 128 / (std::sqrt(3.0) * 415 * 0.99);
    EXPECT_NEAR(r.element("rack_feed").current, I_feed, 1e-9);
    EXPECT_NEAR(r.element("rack_feed").loading, I_feed / 250.0, 1e-12);
    // Feed loss: 3 I² R, R from 0.2 % loss at 250 A: R = 0.002·√3·415·250/(3·250²).
    const double R = 0.002 * std::sqrt(3.0) * 415 * 250 / (3 * 250.0 * 250.0);
    EXPECT_NEAR(r.element("rack_feed").loss, 128 * 3 * I_feed * I_feed * R, 1e-6);
    // Transformer: P_NL + P_LL (S/S_r)² per unit.
    const auto& tr = r.element("transformer");
    const double S = tr.output_power / 0.99 / 8;
    EXPECT_NEAR(tr.loss, 8 * (2200 + 14811 * std::pow(S / 2.5e6, 2)), 1e-6);
    // Balance: utility = loads + every loss.
    EXPECT_NEAR(r.facility_power, it + cooling + other + r.total_loss, 1e-6);
    double sum = 0;
    for (const auto& e : r.elements) sum += e.loss;
    EXPECT_NEAR(sum, r.total_loss, 1e-6);
    EXPECT_NEAR(
        r.hall_heat + r.electrical_room_heat + r.transformer_loss + r.element("mv_feeder").loss,
        r.total_loss, 1e-6);
    // Whole-chain efficiency of the IT path near domain-facts D1 (transformer 0.995 × UPS 0.97
    // × distribution 0.997 ≈ 0.962).
    const double eta_chain = it / (r.facility_power - cooling - other);
    EXPECT_NEAR(eta_chain, 0.962, 0.01);
    // Eco mode loses less.
    EXPECT_LT(m.evaluate(it, cooling, other, UpsMode::Eco).ups_loss, r.ups_loss / 2);
}

TEST(power_ChainModel, OnBatteryTheUpsDrawsOnlyItsUpstreamShareAndTheCharger) {
    // Utility loss (facility/utility_loss.h): the UPS converts as before (same output, same
    // losses), but only the share g of its input comes through the LV switchgear; a charging
    // battery adds its draw there. So the switchgear's output is g·P_ups,in + P_ch + cooling +
    // other, with the UPS's own figures unchanged.
    const ChainModel m(referenceDesign());
    const double it = 8.6e6, cooling = 1.0e6, other = 0.1e6;
    const ChainResult full = m.evaluate(it, cooling, other);
    const double P_in = full.element("ups").input_power;
    for (double g : {0.0, 0.25, 1.0}) {
        const ChainResult r = m.evaluate(it, cooling, other, UpsMode::DoubleConversion, g, 0.5e6);
        EXPECT_DOUBLE_EQ(r.element("ups").input_power, P_in);
        EXPECT_DOUBLE_EQ(r.ups_loss, full.ups_loss);
        EXPECT_NEAR(r.element("lv_switchgear").output_power, g * P_in + 0.5e6 + cooling + other,
                    1e-6);
    }
    // All on battery, no charge: the utility side carries only cooling and other loads.
    const ChainResult bat = m.evaluate(it, cooling, other, UpsMode::DoubleConversion, 0.0, 0.0);
    EXPECT_NEAR(bat.element("lv_switchgear").output_power, cooling + other, 1e-6);
}

TEST(power_ElectricalChain, ComponentMatchesModel) {
    const examples::ElectricalChain c("chain", referenceDesign());
    std::vector<double> u(c.inputs().size()), y(c.outputs().size());
    u[c.inputIndex("it_power")] = 8e6;
    u[c.inputIndex("cooling_power")] = 1e6;
    u[c.inputIndex("other_power")] = 0;
    c.computeOutputs(0, {}, u, y);
    const ChainResult r = c.model().evaluate(8e6, 1e6, 0);
    EXPECT_DOUBLE_EQ(y[c.outputIndex("facility_power")], r.facility_power);
    EXPECT_DOUBLE_EQ(y[c.outputIndex("ups_loading")], r.element("ups").loading);
    EXPECT_EQ(c.outputs()[c.outputIndex("mv_current")].unit, "A");
}

TEST(power_UtilityLoss, BatteryBridgesGeneratorStartAndStepsAreChecked) {
    UtilityLossSpec s;
    s.critical_load = 9.0e6;
    s.mechanical_load = 1.2e6;
    s.ups = catalog().ups("static_1500kw");
    s.ups_units = 12;
    s.generator = catalog().generator("diesel_2500kw");
    s.generators = 6;
    const UtilityLossResult r = analyzeUtilityLoss(s);
    EXPECT_DOUBLE_EQ(r.generator_online, 10.0);  // NFPA 110 Level 1 (domain-facts D2)
    // Transfer completes after 2 mechanical blocks (5 s apart) and a 10 s walk-in: 10+10+10.
    EXPECT_DOUBLE_EQ(r.transfer_complete, 30.0);
    // Battery energy used: 9 MW for 20 s, then a linear walk-in (half of 10 s), / 0.95.
    const double used = 9e6 * (20 + 5) / 0.95;
    EXPECT_NEAR(r.battery_energy_initial - r.battery_energy_min, used, 1e-3 * used);
    EXPECT_TRUE(r.ride_through_ok);
    EXPECT_FALSE(r.overload);  // 0.6 MW steps and 0.9 MW/s walk-in vs 7.5 MW limit
    // Too few generators: the total overloads and is reported.
    s.generators = 4;
    EXPECT_TRUE(analyzeUtilityLoss(s).overload);
    // A 1 s battery cannot bridge a 10 s start.
    s.generators = 6;
    s.ups.ride_through = 1.0;
    const UtilityLossResult bad = analyzeUtilityLoss(s);
    EXPECT_FALSE(bad.ride_through_ok);
    EXPECT_GT(bad.battery_empty_at, 0.0);
    EXPECT_LT(bad.battery_empty_at, 10.0);
}

}  // namespace
}  // namespace dctwin::power
