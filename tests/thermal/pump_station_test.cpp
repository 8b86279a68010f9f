// Facility water pump station (thermal/pump_station.h) against hand calculations.
//
// The station in these tests: design flow Q_d = 0.3 m³/s shared by 2 duty pumps (q_d = 0.15
// each) + 1 standby, design head H_d = 250 kPa, 70 % wire to water, remote setpoint 100 kPa.
// PumpCurve::fromDesignPoint gives, per pump at rated speed (shut-off ratio 1.25, shut-off
// power 35 %):
//   Δp(q, s) = 1.25·H_d·s² − 0.25·H_d·(q/q_d)²
//   P(q, s)  = 0.35·P_d·s³ + 0.65·P_d·s²·(q/q_d),   P_d = q_d·H_d/0.7 = 53,571.4 W
// and the loop needs H_req(Q) = Δp_r + (H_d − 100 kPa)·(Q/Q_d)².
#include "thermal/pump_station.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/errors.h"

namespace dctwin::thermal {
namespace {

constexpr double kQd = 0.3, kHd = 250e3, kQp = 0.15;
constexpr double kPd = kQp * kHd / 0.7;  // [W] one pump at design

PumpStationSpec station(const std::string& control = "differential_pressure") {
    PumpStationSpec s;
    s.design_flow = kQd;
    s.design_head = kHd;
    s.efficiency = 0.7;
    s.duty = 2;
    s.standby = 1;
    s.control = control;
    s.dp_setpoint = 100e3;
    s.dp_min = 30e3;
    s.valve_target = 0.9;
    s.min_speed = 0.3;
    s.drive_fixed_loss = 0.015;
    return s;
}

// Speed of one pump delivering q at Δp: 1.25·H_d·s² = Δp + 0.25·H_d·(q/q_d)².
double handSpeed(double q, double dp) {
    return std::sqrt((dp + 0.25 * kHd * (q / kQp) * (q / kQp)) / (1.25 * kHd));
}
double handPower(double q, double s) {
    return 0.35 * kPd * s * s * s + 0.65 * kPd * s * s * (q / kQp) + 0.015 * kPd;
}

TEST(PumpStation, DesignFlowRunsBothDutyPumpsAtRatedSpeed) {
    const PumpStation p(station(), "test");
    const auto r = p.operate(kQd, 0.0, 1.0);
    EXPECT_EQ(r.running, 2);
    EXPECT_NEAR(r.speed, 1.0, 1e-9);
    EXPECT_NEAR(r.head, kHd, 1e-6 * kHd);
    // 2 × (53,571 W + 1.5 % drive loss) = 108,750 W.
    EXPECT_NEAR(r.power, 2.0 * 1.015 * kPd, 1e-6 * kPd);
    EXPECT_NEAR(r.work, kQd * kHd, 1e-6 * kQd * kHd);
    EXPECT_NEAR(p.designPower(), 2.0 * 1.015 * kPd, 1e-6 * kPd);
}

TEST(PumpStation, HalfFlowStagesToTheCheaperPumpCountAsByHand) {
    // Q = 0.15 m³/s: H_req = 100 kPa + 150 kPa·0.25 = 137.5 kPa.
    //  one pump  (q = 0.15): s = √((137.5 + 62.5)/312.5) = 0.8000, P = 0.35·0.512 + 0.65·0.64
    //            = 0.5952 P_d, + 0.015 → 0.6102 P_d = 32,690 W
    //  two pumps (q = 0.075): s = √((137.5 + 15.625)/312.5) = 0.7000, P per pump
    //            = 0.35·0.343 + 0.65·0.49·0.5 = 0.2793 P_d, ×2 + 0.03 → 0.5886 P_d = 31,532 W
    // Two pumps are cheaper.
    const PumpStation p(station(), "test");
    const auto r = p.operate(0.15, 0.0, 1.0);
    const double s1 = handSpeed(0.15, 137.5e3), s2 = handSpeed(0.075, 137.5e3);
    EXPECT_NEAR(s1, 0.8, 1e-12);
    EXPECT_NEAR(s2, 0.7, 1e-12);
    const double p1 = handPower(0.15, s1), p2 = 2.0 * handPower(0.075, s2);
    ASSERT_LT(p2, p1);
    EXPECT_EQ(r.running, 2);
    EXPECT_NEAR(r.speed, 0.7, 1e-9);
    EXPECT_NEAR(r.power, p2, 1e-9 * kPd);
    EXPECT_NEAR(r.head, 137.5e3, 1e-6 * kHd);
    // Against the ideal cube law the old model used (P_d,total·0.5³ = 13,393 W), the static
    // setpoint and the pump curve's efficiency at part flow cost 2.35× more.
    EXPECT_GT(r.power, 2.0 * (0.5 * 0.5 * 0.5) * kPd);
}

TEST(PumpStation, LowFlowStagingByPowerAndMinimumSpeedHoldsHeadAboveTheNeed) {
    // Q = 0.06 m³/s (20 %): H_req = 100 + 150·0.04 = 106 kPa.
    //  one pump: s = √((106 + 0.25·250·0.16)/312.5) = √(116/312.5) = 0.6093, P = 0.1357 +
    //  0.0965 + 0.015 = 0.2473 P_d; two pumps: s = √((106 + 2.5)/312.5) = 0.5892, P = 2·(0.0716
    //  + 0.0271) + 0.03 = 0.2274 P_d → two pumps still win at this setpoint.
    const PumpStation p(station(), "test");
    const auto r = p.operate(0.06, 0.0, 1.0);
    const double p1 = handPower(0.06, handSpeed(0.06, 106e3));
    const double p2 = 2.0 * handPower(0.03, handSpeed(0.03, 106e3));
    EXPECT_NEAR(r.power, std::min(p1, p2), 1e-9 * kPd);
    EXPECT_EQ(r.running, p2 < p1 ? 2 : 1);
    // A tiny flow, the most-open valve at 5 % and the reset floor at 10 kPa: the speed that
    // makes 10 kPa at q → 0 is √(10/312.5) = 0.179, below the 30 % minimum, so the drives
    // hold 0.3 and the head is 312.5 kPa·0.09 = 28.1 kPa (the valves throttle the excess).
    PumpStationSpec low = station("valve_reset");
    low.dp_min = 10e3;
    const PumpStation q(low, "test");
    const auto m = q.operate(1e-4, 0.0, 0.05);
    EXPECT_NEAR(m.speed, 0.3, 1e-12);
    EXPECT_NEAR(m.remote_dp, 10e3, 1e-9);
    EXPECT_GT(m.head, 10e3 + 150e3 * (1e-4 / kQd) * (1e-4 / kQd));
    EXPECT_NEAR(m.head, 1.25 * kHd * 0.09, 0.01 * kHd * 0.09);
}

TEST(PumpStation, ValveResetLowersTheRemoteSetpointWithTheMostOpenValve) {
    // Δp_r = 100 kPa·(v_max/0.9)², between 30 and 100 kPa.
    const PumpStation p(station("valve_reset"), "test");
    EXPECT_NEAR(p.operate(0.2, 0.0, 0.63).remote_dp, 100e3 * 0.49, 1e-6);
    EXPECT_NEAR(p.operate(0.2, 0.0, 0.45).remote_dp, 30e3, 1e-6);  // 25 kPa → floor
    EXPECT_NEAR(p.operate(0.2, 0.0, 1.0).remote_dp, 100e3, 1e-6);  // cap
    // Fixed control ignores the valves.
    const PumpStation f(station(), "test");
    EXPECT_NEAR(f.operate(0.2, 0.0, 0.45).remote_dp, 100e3, 1e-6);
    // The reset saves power at the same flow.
    EXPECT_LT(p.operate(0.2, 0.0, 0.63).power, f.operate(0.2, 0.0, 0.63).power);
}

TEST(PumpStation, ConstantSpeedRidesThePumpCurve) {
    // Both duty pumps at rated speed at Q = 0.15: q = 0.075 per pump, Δp = 312.5 − 15.625 =
    // 296.9 kPa, P = 0.35 + 0.325 + 0.015 = 0.69 P_d per pump.
    const PumpStation p(station("constant_speed"), "test");
    const auto r = p.operate(0.15, 0.0, 0.5);
    EXPECT_EQ(r.running, 2);
    EXPECT_NEAR(r.head, 296.875e3, 1e-6 * kHd);
    EXPECT_NEAR(r.power, 2.0 * 0.69 * kPd, 1e-9 * kPd);
}

TEST(PumpStation, FailuresBeyondTheStandbyCutTheFlowTheCdusCanDraw) {
    const PumpStation p(station(), "test");
    EXPECT_EQ(p.available(1.0), 2);
    EXPECT_DOUBLE_EQ(p.flowAvailable(1.0), 1.0);  // the standby takes over
    // Two lost: one pump at rated speed on the open-valve parabola H = H_d·x², x = Q/Q_d:
    // 1.25·H_d − 0.25·H_d·(2x)² = H_d·x²  →  2x² = 1.25  →  x = √0.625 = 0.7906.
    EXPECT_NEAR(p.flowAvailable(2.0), std::sqrt(0.625), 1e-6);
    EXPECT_DOUBLE_EQ(p.flowAvailable(3.0), 0.0);
    const auto none = p.operate(0.1, 3.0, 1.0);
    EXPECT_EQ(none.running, 0);
    EXPECT_EQ(none.power, 0.0);
}

TEST(PumpStation, PowerIsContinuousAcrossStaging) {
    // The controller picks the cheaper feasible count, so P(Q) has kinks but no jumps: over
    // steps of 1e-4·Q_d the power changes by less than 0.5 % of a pump's design input.
    const PumpStation p(station("valve_reset"), "test");
    double prev = p.operate(0.0, 0.0, 0.0).power;
    int changes = 0, last = p.operate(0.0, 0.0, 0.0).running;
    for (int i = 1; i <= 10000; ++i) {
        const double x = i * 1e-4;
        const auto r = p.operate(x * kQd, 0.0, x);
        EXPECT_LT(std::abs(r.power - prev), 0.005 * kPd) << "at Q/Q_d = " << x;
        prev = r.power;
        if (r.running != last) ++changes;
        last = r.running;
    }
    EXPECT_GE(changes, 1);  // it does stage
}

TEST(PumpStation, InconsistentSpecsAreRefusedWithTheReason) {
    auto refused = [](PumpStationSpec s, const char* what) {
        try {
            PumpStation p(s, "/cooling/facility_loop");
            ADD_FAILURE() << "accepted: " << what;
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("/cooling/facility_loop"), std::string::npos);
        }
    };
    PumpStationSpec s = station();
    s.dp_setpoint = 260e3;
    refused(s, "below the loop's design pressure drop");
    s = station();
    s.control = "delta_t";
    refused(s, "expected valve_reset, differential_pressure or constant_speed");
    s = station();
    s.duty = 0;
    refused(s, "at least one duty pump");
    s = station();
    s.dp_min = 120e3;
    refused(s, "at most the setpoint");
}

}  // namespace
}  // namespace dctwin::thermal
