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

TEST(power_RackPowerModel, TrippedRackDrawsItsStandbyAndComputesNothing) {
    // GB300 NVL72 record (racks.json): 72 GPUs idle 200 W, 36 CPUs idle 84 W, 9 NVLink trays
    // 1,600 W × 0.7 at idle, 72 NICs × 30 W, 18 trays × 100 W (DPU, SSDs, BMC), fans 1,000 W
    // at idle and 2,000 W at full. At the reference die temperature (no leakage change):
    //   standby "off":  GPUs, CPUs, switch trays 0; NICs 2,160 + trays 1,800 + fans 2,000
    //                   (u stays 1 for the fans: the tray fans do not know the GPUs tripped)
    //                   = 5,960 W DC, nothing to the liquid
    //   standby "idle": GPUs 72 × 200 = 14,400; CPUs 36 × 84 = 3,024; switches 9 × 1,120 =
    //                   10,080; NICs + trays 3,960; fans 1,000 → 32,464 W DC; liquid
    //                   0.97 × 14,400 + 0.95 × 3,024 + 0.95 × 10,080 = 26,416.8 W
    const RackPowerModel m(catalog().rack("gb300_nvl72"));
    const double T = m.spec().die_ref_temp;
    const RackPowerResult off = m.evaluate(1.0, T, 1.0, TripStandby::Off);
    EXPECT_DOUBLE_EQ(off.gpu_power, 0.0);
    EXPECT_DOUBLE_EQ(off.cpu_power, 0.0);
    EXPECT_DOUBLE_EQ(off.switch_power, 0.0);
    EXPECT_NEAR(off.dc_power, 5960.0, 1e-9);
    EXPECT_NEAR(off.heat_to_liquid, 0.0, 1e-12);
    EXPECT_DOUBLE_EQ(off.throughput_factor, 0.0);
    const RackPowerResult idle = m.evaluate(1.0, T, 1.0, TripStandby::Idle);
    EXPECT_NEAR(idle.gpu_power, 14400.0, 1e-9);
    EXPECT_NEAR(idle.dc_power, 32464.0, 1e-9);
    EXPECT_NEAR(idle.heat_to_liquid, 26416.8, 1e-9);
    EXPECT_DOUBLE_EQ(idle.throughput_factor, 0.0);
    // Idle standby is the rack at u = 0, whatever the demand.
    EXPECT_NEAR(idle.it_power, m.evaluate(0.0).it_power, 1e-9);
    // Untripped (L = 0) both standbys are the plain rack.
    EXPECT_DOUBLE_EQ(m.evaluate(0.7, T, 0.0, TripStandby::Idle).it_power,
                     m.evaluate(0.7, T).it_power);
    // Above the shutdown temperature an untripped rack still draws power: the trip is the
    // latch's, not a static function of temperature (that made racks sit in the trip band on
    // partial power, issue 10).
    EXPECT_GT(m.evaluate(1.0, m.spec().shutdown_temp + 2.0).gpu_power, 72 * 700.0);
}

TEST(power_RackPower, LatchSetsAboveShutdownHoldsWhenCooledAndResetsByPolicy) {
    // Latch drives (rack.h): S = s_T + (1 − s_T)·g·(1 − r), R = r + (1 − r)(1 − s_T)(1 − g)
    // with s_T = step((T − 95 °C)/1 K), g = step((L − 0.02)/0.08).
    const RackSpec spec = catalog().rack("gb300_nvl72");
    const double T_sd = spec.shutdown_temp, tau = RackPower::kLatchTime;
    auto rate = [&](const RackPower& c, double T, double L, double timer = 0.0) {
        std::vector<double> x{L}, u{1.0, T}, dx(c.states().size());
        if (c.states().size() == 2) x.push_back(timer);
        c.computeDerivatives(0.0, x, u, dx);
        return dx[0];
    };
    const RackPower never("never", spec, 1);
    // Running and cool: L = 0 is a rest point; a small partial latch decays at −L/τ.
    EXPECT_DOUBLE_EQ(rate(never, T_sd - 10.0, 0.0), 0.0);
    EXPECT_NEAR(rate(never, T_sd - 10.0, 0.01), -0.01 / tau, 1e-12);
    // Die 1 K above T_sd (s_T = 1): dL/dt = (1 − L)/τ.
    EXPECT_NEAR(rate(never, T_sd + 1.0, 0.0), 1.0 / tau, 1e-12);
    // Tripped and cooled far below: holds (g = 1, r = 0 → dL/dt = (1 − L)/τ = 0 at L = 1).
    EXPECT_DOUBLE_EQ(rate(never, T_sd - 60.0, 1.0), 0.0);
    // Past its threshold a latch the die no longer drives still completes: at L = 0.1 (g = 1)
    // dL/dt = 0.9/τ.
    EXPECT_NEAR(rate(never, T_sd - 60.0, 0.1), 0.9 / tau, 1e-12);

    TripPolicy cool;
    cool.restart = TripRestart::AfterCooling;
    cool.restart_temp = units::celsiusToKelvin(50.0);
    const RackPower after_cooling("cool", spec, 1, cool);
    ASSERT_EQ(after_cooling.states().size(), 2u);
    // The restart follows the "cooled" latch C, not the die: with C = 0 the latch holds even
    // with the die at T_restart; with C = 1 it resets (r = 1: dL/dt = −L/τ) even with the die
    // back above T_restart (the restarted GPUs' own heat).
    EXPECT_DOUBLE_EQ(rate(after_cooling, cool.restart_temp, 1.0, 0.0), 0.0);
    EXPECT_NEAR(rate(after_cooling, cool.restart_temp + 20.0, 1.0, 1.0), -1.0 / tau, 1e-12);
    // C sets at the restart temperature and is reset by the next trip.
    {
        std::vector<double> x{1.0, 0.0}, u{1.0, cool.restart_temp}, dx(2);
        after_cooling.computeDerivatives(0.0, x, u, dx);
        EXPECT_NEAR(dx[1], 1.0 / tau, 1e-12);
        x = {0.0, 1.0};
        u[1] = T_sd + 1.0;
        after_cooling.computeDerivatives(0.0, x, u, dx);
        EXPECT_NEAR(dx[1], -1.0 / tau, 1e-12);
        EXPECT_NEAR(dx[0], 1.0 / tau, 1e-12);  // and the trip sets L at once
    }

    TripPolicy delay;
    delay.restart = TripRestart::AfterDelay;
    delay.restart_delay = 30.0;
    const RackPower after_delay("delay", spec, 1, delay);
    ASSERT_EQ(after_delay.states().size(), 2u);
    // Before the delay the latch holds; 1 s after it (end of the 1 s band) it resets.
    EXPECT_DOUBLE_EQ(rate(after_delay, T_sd - 20.0, 1.0, 29.0), 0.0);
    EXPECT_NEAR(rate(after_delay, T_sd - 20.0, 1.0, 31.0), -1.0 / tau, 1e-12);
    // The timer counts 1 s/s with the die cooled and is held at 0 while the die is hot.
    std::vector<double> x{1.0, 12.0}, u{1.0, T_sd - 20.0}, dx(2);
    after_delay.computeDerivatives(0.0, x, u, dx);
    EXPECT_DOUBLE_EQ(dx[1], 1.0);
    u[1] = T_sd + 1.0;
    after_delay.computeDerivatives(0.0, x, u, dx);
    EXPECT_NEAR(dx[1], 1.0 - 12.0 / tau, 1e-12);
}

TEST(power_RackPower, ComponentScalesByCountAndDeclaresFeedthrough) {
    const RackPower c("racks", catalog().rack("gb300_nvl72"), 8);
    std::vector<double> x{0.0}, u{1.0, c.model().spec().die_ref_temp, 1.0}, y(c.outputs().size());
    c.computeOutputs(0.0, x, u, y);
    EXPECT_NEAR(y[RackPower::kItPower], 8 * c.model().evaluate(1.0).it_power, 1e-6);
    EXPECT_NEAR(y[RackPower::kHeatLiquid] + y[RackPower::kHeatAir], y[RackPower::kItPower], 1e-6);
    EXPECT_TRUE(c.outputDependsOnInput(RackPower::kItPower, RackPower::kUtilization));
    EXPECT_TRUE(c.outputDependsOnInput(RackPower::kItPower, RackPower::kJunctionTemp));
    EXPECT_FALSE(c.outputDependsOnInput(RackPower::kThroughput, RackPower::kUtilization));
    // The latch is a state: throughput and power depend on it, the clock factor does not.
    EXPECT_TRUE(c.outputDependsOnState(RackPower::kThroughput, RackPower::kTrip));
    EXPECT_TRUE(c.outputDependsOnState(RackPower::kItPower, RackPower::kTrip));
    EXPECT_FALSE(c.outputDependsOnState(RackPower::kClock, RackPower::kTrip));
    EXPECT_FALSE(c.outputDependsOnInput(RackPower::kTripped, RackPower::kJunctionTemp));
    EXPECT_EQ(c.outputIndex("gpu_power"), RackPower::kGpuPower);
    EXPECT_EQ(c.outputs()[RackPower::kItPower].unit, "W");
    // Without supply (utility loss, UPS battery empty) the racks draw nothing and compute
    // nothing.
    u[RackPower::kSupply] = 0.0;
    c.computeOutputs(0.0, x, u, y);
    EXPECT_EQ(y[RackPower::kItPower], 0.0);
    EXPECT_EQ(y[RackPower::kThroughput], 0.0);
}

}  // namespace
}  // namespace dctwin::power
