// Pumps, system curves and the Newton network solver (thermal/hydraulics.h) against hand
// solutions (domain-facts "Key formulas" C2).
#include "thermal/hydraulics.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>

#include "core/errors.h"

namespace dctwin::thermal {
namespace {

// A CDU-class pump: 0.0342 m³/s (2,052 L/min) at 250 kPa, 60 % wire to water (domain-facts B4).
const PumpCurve kPump = PumpCurve::fromDesignPoint(0.0342, 250e3, 0.6);

TEST(Pumps, AffinityLaws) {
    for (double s : {0.5, 0.7, 1.1}) {
        for (double q : {0.0, 0.01, 0.0342}) {
            // Q ∝ N, Δp ∝ N², P ∝ N³ at corresponding points.
            EXPECT_NEAR(kPump.pressureRise(s * q, s), s * s * kPump.pressureRise(q, 1.0), 1e-7);
            EXPECT_NEAR(kPump.electricPower(s * q, s), s * s * s * kPump.electricPower(q, 1.0),
                        1e-9);
        }
    }
    // Design point: wire-to-water efficiency 0.6, power 0.0342·250e3/0.6 = 14,250 W.
    EXPECT_NEAR(kPump.wireToWaterEfficiency(0.0342, 1.0), 0.6, 1e-12);
    EXPECT_NEAR(kPump.electricPower(0.0342, 1.0), 14250.0, 1e-9);
    // On a system curve through the origin the operating point follows the affinity laws:
    // 70 % speed → 70 % flow and 0.7³ = 34.3 % power (C2: "70 % flow takes ~34 %").
    const SystemCurve sys = SystemCurve::throughPoint(0.0342, 250e3);
    const PumpOperatingPoint full = pumpOperatingPoint(kPump, 1, 1.0, sys, "test");
    const PumpOperatingPoint part = pumpOperatingPoint(kPump, 1, 0.7, sys, "test");
    EXPECT_NEAR(full.flow, 0.0342, 1e-12);
    EXPECT_NEAR(part.flow / full.flow, 0.7, 1e-10);
    EXPECT_NEAR(part.pressure_rise / full.pressure_rise, 0.49, 1e-9);
    EXPECT_NEAR(part.power / full.power, 0.343, 1e-9);
    EXPECT_EQ(pumpOperatingPoint(kPump, 0, 1.0, sys, "test").flow, 0.0);
    EXPECT_EQ(runningPumps(2, 1, 1.0), 1);  // N+1: one failure leaves the duty pump
    EXPECT_EQ(runningPumps(2, 1, 2.0), 0);
    EXPECT_EQ(runningPumps(3, 2, 2.0), 1);
}

TEST(Pumps, NoOperatingPointAboveShutOffHead) {
    const SystemCurve lift{1e7, 2.0, 400e3};  // static requirement above the 312.5 kPa shut-off
    try {
        pumpOperatingPoint(kPump, 1, 1.0, lift, "CDU test pumps");
        FAIL() << "no error";
    } catch (const ModelError& e) {
        EXPECT_NE(std::string(e.what()).find("shut-off"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("CDU test pumps"), std::string::npos);
    }
}

TEST(Network, TwoParallelPumpsAndEightRackBranchesMatchTheHandSolution) {
    // Hand solution: identical branches each carry Q/8 at Δp = k_r·(Q/8)²; each pump carries
    // Q/2 at Δp = H0 − c·(Q/2)². Equal Δp: Q = sqrt(H0 / (c/4 + k_r/64)).
    const PumpCurve pump = PumpCurve::fromDesignPoint(0.0171, 250e3, 0.6);
    const double H0 = pump.H0, c = -pump.H2;
    const double k_r = 250e3 / std::pow(0.0342 / 8, 2);  // 8 racks share 0.0342 m³/s at 250 kPa
    HydraulicNetwork net("tcs");
    const auto ret = net.addNode("return header");
    const auto sup = net.addNode("supply header");
    const auto p1 = net.addPump("pump 1", ret, sup, pump);
    const auto p2 = net.addPump("pump 2", ret, sup, pump);
    std::vector<std::size_t> racks;
    for (int i = 0; i < 8; ++i)
        racks.push_back(net.addResistance(fmt::format("rack {}", i), sup, ret, k_r));
    const HydraulicSolution s = net.solve();
    const double Q = std::sqrt(H0 / (c / 4 + k_r / 64));
    double total = 0.0;
    for (auto b : racks) {
        EXPECT_NEAR(s.flow[b], Q / 8, 0.01 * Q / 8);
        total += s.flow[b];
    }
    EXPECT_NEAR(total, Q, 0.01 * Q);
    EXPECT_NEAR(s.flow[p1], Q / 2, 0.01 * Q / 2);
    EXPECT_NEAR(s.flow[p2], Q / 2, 0.01 * Q / 2);
    EXPECT_NEAR(s.pressure[sup], k_r * (Q / 8) * (Q / 8), 0.01 * 250e3);
    std::printf("network: Q = %.6f m3/s (hand %.6f), relative error %.2e, %d Newton iterations\n",
                total, Q, std::abs(total - Q) / Q, s.iterations);
    // The design numbers make the hand solution the design flow exactly.
    EXPECT_NEAR(Q, 0.0342, 1e-12);
    EXPECT_NEAR(net.pumpPower(s, p1), pump.electricPower(Q / 2, 1.0), 1e-6);
    // One pump tripped (check valve closes): the other carries everything, at a lower flow.
    net.setRunning(p2, 0);
    const HydraulicSolution t = net.solve(&s);
    const double Q1 = std::sqrt(H0 / (c + k_r / 64));
    EXPECT_NEAR(t.flow[p1], Q1, 1e-6 * Q1);
    EXPECT_EQ(t.flow[p2], 0.0);
}

TEST(Network, BalancingValveAndPumpsInSeries) {
    // One pump (series = 2 stages) feeding two branches, one throttled by a valve at 50 %.
    // Hand: k_valve = k_open/0.5²; parallel k_eq: 1/√k_eq = 1/√k1 + 1/√(k2 + k_valve);
    // 2·(H0 − c·Q²) = k_eq·Q².
    const double k1 = 4e8, k2 = 3e8, kv = 1e8;
    HydraulicNetwork net("loop");
    const auto a = net.addNode("a");
    const auto b = net.addNode("b");
    const auto m = net.addNode("m");
    const auto pump = net.addPump("pump", a, b, kPump, 1, 2);
    const auto r1 = net.addResistance("r1", b, a, k1);
    const auto r2 = net.addResistance("r2", b, m, k2);
    const auto v = net.addValve("valve", m, a, kv, 0.5);
    const HydraulicSolution s = net.solve();
    const double k2v = k2 + kv / 0.25;
    const double keq = 1.0 / std::pow(1.0 / std::sqrt(k1) + 1.0 / std::sqrt(k2v), 2);
    const double Q = std::sqrt(2 * kPump.H0 / (2 * -kPump.H2 + keq));
    EXPECT_NEAR(s.flow[pump], Q, 1e-8 * Q);
    EXPECT_NEAR(s.flow[r1] / s.flow[r2], std::sqrt(k2v / k1), 1e-8);
    EXPECT_NEAR(s.flow[r2], s.flow[v], 1e-12);
    EXPECT_NEAR(net.pumpPressureRise(s, pump), 2 * kPump.pressureRise(Q, 1.0), 1e-3);
}

TEST(Network, ClearErrorsWhenNoOperatingPointExists) {
    HydraulicNetwork net("open loop");
    const auto a = net.addNode("basin");
    const auto b = net.addNode("distribution");
    net.addPump("pump", a, b, kPump);
    net.addResistance("lift", b, a, 1e8, 2.0, 500e3);  // 500 kPa static lift > 312.5 kPa shut-off
    try {
        net.solve();
        FAIL() << "no error";
    } catch (const ModelError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("open loop"), std::string::npos) << m;
        EXPECT_NE(m.find("shut-off"), std::string::npos) << m;
    }
    HydraulicNetwork island("island");
    island.addNode("a");
    island.addNode("b");
    const auto c = island.addNode("c");
    const auto d = island.addNode("d");
    island.addResistance("r", c, d, 1e8);
    island.addPump("p", 0, 1, kPump);
    island.addResistance("r0", 1, 0, 1e8);
    EXPECT_THROW(island.solve(), ModelError);
    EXPECT_THROW(net.addResistance("bad", a, b, -1.0), InputError);
    EXPECT_THROW(net.addResistance("self", a, a, 1.0), ModelError);
}

TEST(PumpGroupComponent, NPlusOneAndOutputs) {
    PumpGroup::Params p{kPump, 2, 1, SystemCurve::throughPoint(0.0342, 250e3)};
    PumpGroup g("pumps", p);
    std::vector<double> y(4);
    std::vector<double> u{1.0, 0.0};
    g.computeOutputs(0, {}, u, y);
    EXPECT_NEAR(y[0], 0.0342, 1e-12);
    EXPECT_NEAR(y[2], 14250.0, 1e-6);
    u[1] = 1.0;  // one failed: the standby takes over
    g.computeOutputs(0, {}, u, y);
    EXPECT_NEAR(y[0], 0.0342, 1e-12);
    u[1] = 2.0;
    g.computeOutputs(0, {}, u, y);
    EXPECT_EQ(y[0], 0.0);
    EXPECT_EQ(y[2], 0.0);
    u = {1.5, 0.0};
    EXPECT_THROW(g.computeOutputs(0, {}, u, y), InputError);
}

}  // namespace
}  // namespace dctwin::thermal
