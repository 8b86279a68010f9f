// Rack power against the catalog's published figures (domain-facts A1, A3, A4).
#include "power/rack.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/units.h"
#include "test_util.h"

namespace dctwin::power {
namespace {

using test::catalog;

TEST(power_RackPowerModel, FullUtilizationDrawsCatalogTdpWithin3Percent) {
    // Published GB300 NVL72 TDP 135 kW (domain-facts A1); the model is a bottom-up budget.
    const RackPowerModel m(catalog().rack("gb300_nvl72"));
    const RackPowerResult r = m.evaluate(1.0);
    const double rel = r.it_power / m.spec().tdp - 1.0;
    RecordProperty("gb300_full_kW", std::to_string(r.it_power / 1e3));
    std::printf(
        "GB300 full load: %.2f kW AC (%.2f %% of 135 kW TDP), DC %.2f kW, PSU loss %.2f kW\n",
        r.it_power / 1e3, 100 * r.it_power / m.spec().tdp, r.dc_power / 1e3, r.psu_loss / 1e3);
    EXPECT_LT(std::abs(rel), 0.03);
    // GPUs: 72 × 1,400 W exactly at the reference die temperature.
    EXPECT_NEAR(r.gpu_power, 72 * 1400.0, 1e-9);
    EXPECT_DOUBLE_EQ(r.throughput_factor, 1.0);
}

TEST(power_RackPowerModel, OtherRacksWithinTheirPublishedFigures) {
    for (const char* name : {"gb200_nvl72", "vera_rubin_nvl144"}) {
        const RackPowerModel m(catalog().rack(name));
        const double p = m.evaluate(1.0).it_power;
        // GB200 ~120 kW nominal (A1); Vera Rubin ~190 kW Max-Q, provisional (A6): 5 %.
        EXPECT_LT(std::abs(p / m.spec().tdp - 1.0), 0.05) << name << " " << p;
    }
}

TEST(power_RackPowerModel, IdleDrawsCatalogIdleFraction) {
    // domain-facts A4: rack idle 20-30 % of TDP, catalog 25 %; tolerance 2 points of TDP.
    const RackPowerModel m(catalog().rack("gb300_nvl72"));
    const double frac = m.evaluate(0.0).it_power / m.spec().tdp;
    std::printf("GB300 idle: %.2f %% of TDP\n", 100 * frac);
    EXPECT_NEAR(frac, m.spec().idle_fraction, 0.02);
}

TEST(power_RackPowerModel, PsuLossesFollowTheCurve) {
    const RackPowerModel m(catalog().rack("gb300_nvl72"));
    for (double u : {0.0, 0.3, 0.7, 1.0}) {
        const RackPowerResult r = m.evaluate(u);
        // Shelf load x = P_dc/(8 × 33 kW); η by linear interpolation of the catalog points
        // (0.1, 0.94) (0.2, 0.965) (0.3, 0.972) (0.5, 0.975) (0.75, 0.973) (1.0, 0.97).
        const double x = r.dc_power / 264000.0;
        const double pts[][2] = {{0.1, 0.94},  {0.2, 0.965},  {0.3, 0.972},
                                 {0.5, 0.975}, {0.75, 0.973}, {1.0, 0.97}};
        double eta = pts[0][1];
        for (int i = 0; i + 1 < 6; ++i) {
            if (x >= pts[i][0] && x <= pts[i + 1][0]) {
                eta = pts[i][1] +
                      (pts[i + 1][1] - pts[i][1]) * (x - pts[i][0]) / (pts[i + 1][0] - pts[i][0]);
            }
        }
        EXPECT_NEAR(r.psu_loss, r.dc_power * (1.0 / eta - 1.0), 1e-6) << "u=" << u;
        EXPECT_NEAR(r.it_power, r.dc_power + r.psu_loss, 1e-6);
    }
    // At full load the shelves run near 50 %, the ~97.5 % peak of domain-facts A3.
    EXPECT_NEAR(m.evaluate(1.0).psu_efficiency, 0.975, 0.001);
}

TEST(power_RackPowerModel, HeatSplitNear90PercentLiquidAndClosesTheBalance) {
    const RackPowerModel m(catalog().rack("gb300_nvl72"));
    const RackPowerResult r = m.evaluate(1.0);
    EXPECT_NEAR(r.heat_to_liquid + r.heat_to_air, r.it_power, 1e-6);
    EXPECT_NEAR(r.heat_to_liquid / r.it_power, m.spec().heat_to_liquid_fraction, 0.02);
}

TEST(power_RackPowerModel, LeakageRisesAndThrottlingCutsPowerAndThroughput) {
    const RackPowerModel m(catalog().rack("gb300_nvl72"));
    const RackSpec& s = m.spec();
    const double T_ref = s.die_ref_temp;
    // 25 K hotter doubles the leakage: +10 % of TGP per GPU = 140 W × 72.
    const auto hot = m.evaluate(1.0, T_ref + 20.0);  // still below 87 °C throttle
    const double expected = 72 * 0.1 * 1400 * (std::exp2(20.0 / 25.0) - 1.0);
    EXPECT_NEAR(hot.gpu_power - 72 * 1400.0, expected, 1e-6);
    EXPECT_DOUBLE_EQ(hot.throughput_factor, 1.0);
    // Fully throttled (T ≥ T_thr + width): clock factor = min clock fraction.
    const auto thr = m.evaluate(1.0, s.throttle_temp + s.throttle_width + 0.1);
    EXPECT_NEAR(thr.throughput_factor, s.throttle_min_clock_fraction, 1e-12);
    EXPECT_LT(thr.gpu_power, hot.gpu_power);
    // Smooth: halfway through the band, smoothstep gives θ = 0.5.
    const auto mid = m.evaluate(1.0, s.throttle_temp + 0.5 * s.throttle_width);
    EXPECT_NEAR(mid.throughput_factor, 1.0 - 0.5 * (1.0 - s.throttle_min_clock_fraction), 1e-12);
}

TEST(power_RackPower, ComponentScalesByCountAndDeclaresFeedthrough) {
    const RackPower c("racks", catalog().rack("gb300_nvl72"), 8);
    std::vector<double> u{1.0, c.model().spec().die_ref_temp, 1.0}, y(c.outputs().size());
    c.computeOutputs(0.0, {}, u, y);
    EXPECT_NEAR(y[RackPower::kItPower], 8 * c.model().evaluate(1.0).it_power, 1e-6);
    EXPECT_NEAR(y[RackPower::kHeatLiquid] + y[RackPower::kHeatAir], y[RackPower::kItPower], 1e-6);
    EXPECT_TRUE(c.outputDependsOnInput(RackPower::kItPower, RackPower::kUtilization));
    EXPECT_TRUE(c.outputDependsOnInput(RackPower::kItPower, RackPower::kJunctionTemp));
    EXPECT_FALSE(c.outputDependsOnInput(RackPower::kThroughput, RackPower::kUtilization));
    EXPECT_EQ(c.outputIndex("gpu_power"), RackPower::kGpuPower);
    EXPECT_EQ(c.outputs()[RackPower::kItPower].unit, "W");
    // Without supply (utility loss, UPS battery empty) the racks draw nothing and compute
    // nothing.
    u[RackPower::kSupply] = 0.0;
    c.computeOutputs(0.0, {}, u, y);
    EXPECT_EQ(y[RackPower::kItPower], 0.0);
    EXPECT_EQ(y[RackPower::kThroughput], 0.0);
}

}  // namespace
}  // namespace dctwin::power
