// Outdoor glycol loop behind a plate heat exchanger (thermal/outdoor_loop.h) against hand
// calculations: the design approach, the exchanger off its design flow by the series film
// rule (domain-facts C3) and the counterflow ε (Incropera Table 11.3), and a bank at its limit
// solved by hand as three linear equations.
#include "thermal/outdoor_loop.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/errors.h"
#include "core/units.h"

namespace dctwin::thermal {
namespace {

constexpr double kFlow = 0.25;      // [m³/s] facility water at design
constexpr double kDuty = 8e6;       // [W]
constexpr double kSupply = 304.15;  // [K] 31 °C

/// A bank that rejects what it is asked up to UA_b·(T_in − T_air), its limit.
struct LinearBank {
    const Coolant& liquid;
    double UA_b;   // [W/K]
    double T_air;  // [K]
    mutable int calls = 0;
    struct Out {
        double heat_rejected = 0.0, setpoint_unmet = 0.0;
    };
    Out operator()(double T_in, double flow, double T_set) const {
        ++calls;
        const double mdot = liquid.massFlow(flow);
        const double need = std::max(0.0, mdot * (liquid.enthalpy(T_in) - liquid.enthalpy(T_set)));
        const double cap = std::max(0.0, UA_b * (T_in - T_air));
        if (need <= cap) return {need, 0.0};
        const double T_out = liquid.temperatureFromEnthalpy(liquid.enthalpy(T_in) - cap / mdot);
        return {cap, T_out - T_set};
    }
};

TEST(OutdoorLoop, DesignPointHoldsTheApproachAndBalancesTheFlows) {
    const Coolant water = Coolant::byName("water");
    OutdoorLoopSpec spec;  // PG40, 2 K, 150 kPa, 0.7
    const OutdoorLoop loop(spec, water, kFlow, kDuty, kSupply);
    const Coolant& pg = loop.liquid();
    EXPECT_EQ(pg.name(), "PG40");
    // Balanced capacity rates: ṁ_o·c_p,o = ṁ_i·c_p,i at the design means (the water's range
    // ~7.7 K at 8 MW and 0.25 m³/s, so its mean ~34.9 °C and the glycol's ~32.9 °C).
    const double mdot_i = water.massFlow(kFlow);
    const double T_r = water.heatedTemperature(kSupply, mdot_i, kDuty);
    const double T_mean = 0.5 * (kSupply + T_r);
    EXPECT_NEAR(loop.massFlow() * pg.specificHeat(T_mean - 2.0),
                mdot_i * water.specificHeat(T_mean), 1e-6);
    // PG40's c_p is ~3.7 kJ/(kg·K) against water's 4.18: ~13 % more mass flow.
    EXPECT_GT(loop.massFlow() / mdot_i, 1.08);
    EXPECT_LT(loop.massFlow() / mdot_i, 1.18);
    // Pumps: W = Δp·V̇, P = W/η.
    EXPECT_NEAR(loop.pumpWork(), 150e3 * loop.flow(), 1e-9);
    EXPECT_NEAR(loop.pumpPower(), loop.pumpWork() / 0.7, 1e-9);
    // UA by hand from the design approach: ε = Q/(C·(T_r − (T_s − 2 K))), NTU = ε/(1 − ε).
    const double C = mdot_i * water.specificHeat(T_mean);
    const double eps = kDuty / (C * (T_r - (kSupply - 2.0)));
    EXPECT_NEAR(loop.designUa(), eps / (1.0 - eps) * C, 1e-6 * loop.designUa());
    // At design, a bank that can do more than asked: the water leaves at its setpoint and the
    // glycol enters 2 K below it.
    const LinearBank bank{pg, 5e6, 288.15};
    const auto [s, o] = loop.operate(T_r, mdot_i, kSupply, bank);
    EXPECT_NEAR(s.inner_outlet, kSupply, 1e-9);
    EXPECT_NEAR(s.outer_supply, kSupply - 2.0, 1e-9);
    EXPECT_NEAR(s.heat, kDuty, 1e-6 * kDuty);
    EXPECT_EQ(s.unmet, 0.0);
    // The bank rejects the exchanger's heat and the pumps' work.
    EXPECT_NEAR(o.heat_rejected, kDuty + loop.pumpWork(), 1e-6 * kDuty);
    EXPECT_EQ(bank.calls, 1);
}

TEST(OutdoorLoop, OffDesignFlowFollowsTheSeriesFilms) {
    const Coolant water = Coolant::byName("water");
    OutdoorLoopSpec constant;
    constant.track_flow = false;
    const OutdoorLoop tracking(OutdoorLoopSpec{}, water, kFlow, kDuty, kSupply);
    const OutdoorLoop fixed(constant, water, kFlow, kDuty, kSupply);
    const double mdot_i = water.massFlow(kFlow);
    const double T_r = water.heatedTemperature(kSupply, mdot_i, kDuty);
    const double T_mean = 0.5 * (kSupply + T_r);
    const double UA_d = tracking.designUa();
    const double C_half = 0.5 * mdot_i * water.specificHeat(T_mean);
    // Half the water, the glycol pumps at rated speed: hA_w = 2·UA_d·0.5^0.8, hA_g = 2·UA_d,
    // UA = 1/(1/hA_w + 1/hA_g); C_min the water's, C_r = 0.5; counterflow ε by hand.
    {
        const double hA_w = 2.0 * UA_d * std::pow(0.5, 0.8), hA_g = 2.0 * UA_d;
        const double UA = 1.0 / (1.0 / hA_w + 1.0 / hA_g);
        const double ntu = UA / C_half, cr = 0.5;
        const double e = std::exp(-ntu * (1.0 - cr));
        const double eps = (1.0 - e) / (1.0 - cr * e);
        EXPECT_NEAR(fixed.conductance(0.5 * mdot_i), eps * C_half, 1e-9 * eps * C_half);
        EXPECT_EQ(fixed.speed(0.5 * mdot_i), 1.0);
    }
    // Tracking: both flows halve, UA = UA_d·0.5^0.8, C_r = 1, ε = NTU/(1 + NTU); the pumps at
    // half speed take an eighth of their design power (affinity, friction only).
    {
        const double ntu = UA_d * std::pow(0.5, 0.8) / C_half;
        EXPECT_NEAR(tracking.conductance(0.5 * mdot_i), ntu / (1.0 + ntu) * C_half, 1e-9 * C_half);
        EXPECT_DOUBLE_EQ(tracking.speed(0.5 * mdot_i), 0.5);
        EXPECT_DOUBLE_EQ(tracking.speed(0.1 * mdot_i), 0.3);  // the minimum speed
        const LinearBank bank{tracking.liquid(), 5e6, 288.15};
        const double T_in = water.heatedTemperature(kSupply, 0.5 * mdot_i, 0.5 * kDuty);
        const auto [s, o] = tracking.operate(T_in, 0.5 * mdot_i, kSupply, bank);
        EXPECT_NEAR(s.pump_power, tracking.pumpPower() / 8.0, 1e-9 * tracking.pumpPower());
        EXPECT_NEAR(s.flow, 0.5 * tracking.flow(), 1e-15);
        EXPECT_NEAR(s.inner_outlet, kSupply, 1e-9);
        EXPECT_NEAR(s.heat, 0.5 * kDuty, 1e-6 * kDuty);
        // Half the heat through a UA that fell only to 0.5^0.8: the glycol sits closer to the
        // water than the design 2 K. By hand, balanced: T_in − T_os = Q/(ε·C).
        EXPECT_NEAR(s.outer_supply, T_in - 0.5 * kDuty / (ntu / (1.0 + ntu) * C_half), 1e-9);
        EXPECT_GT(s.outer_supply, kSupply - 2.0);
    }
}

TEST(OutdoorLoop, PlatesOutOfServiceLeaveTheOthersTheWholeFlow) {
    // Two duty plates, design flows. One lost: the other takes both streams whole, twice its
    // design flow on each side, so its films scale by 2^0.8 and UA = ½·UA_d·2^0.8 = 0.871·UA_d
    // (not half); balanced, ε = NTU/(1 + NTU).
    const Coolant water = Coolant::byName("water");
    OutdoorLoopSpec two;
    two.exchangers = 2;
    two.track_flow = false;
    const OutdoorLoop loop(two, water, kFlow, kDuty, kSupply);
    const OutdoorLoop one(OutdoorLoopSpec{}, water, kFlow, kDuty, kSupply);
    const double mdot_i = water.massFlow(kFlow);
    const double T_r = water.heatedTemperature(kSupply, mdot_i, kDuty);
    const double C = mdot_i * water.specificHeat(0.5 * (kSupply + T_r));
    // The pair is sized as one plate of the whole duty: the same design UA, bit for bit.
    EXPECT_EQ(loop.designUa(), one.designUa());
    EXPECT_EQ(loop.conductanceAt(mdot_i, 1.0, 2), one.conductance(mdot_i));
    const double ntu = 0.5 * loop.designUa() * std::pow(2.0, 0.8) / C;
    const double k1 = ntu / (1.0 + ntu) * C;
    EXPECT_NEAR(loop.conductanceAt(mdot_i, 1.0, 1), k1, 1e-9 * k1);
    EXPECT_EQ(loop.conductanceAt(mdot_i, 1.0, 0), 0.0);
    // Operated on one plate with a bank that can do what is asked: the setpoint holds, the
    // glycol colder by hand: T_in − T_os = Q/k.
    const LinearBank bank{loop.liquid(), 5e6, 288.15};
    const auto [s, o] = loop.operate(T_r, mdot_i, kSupply, bank, 1);
    EXPECT_NEAR(s.inner_outlet, kSupply, 1e-9);
    EXPECT_NEAR(s.outer_supply, T_r - kDuty / k1, 1e-6);
    EXPECT_LT(s.outer_supply, kSupply - 2.0);
    // None in service: nothing passes, the pumps stop, the water leaves as it came and its
    // excess over the setpoint is unmet.
    const auto [n, no] = loop.operate(T_r, mdot_i, kSupply, bank, 0);
    EXPECT_EQ(n.heat, 0.0);
    EXPECT_EQ(n.pump_power, 0.0);
    EXPECT_EQ(n.flow, 0.0);
    EXPECT_EQ(n.inner_outlet, T_r);
    EXPECT_NEAR(n.unmet, T_r - kSupply, 1e-12);
    EXPECT_EQ(no.heat_rejected, 0.0);
}

TEST(OutdoorLoop, PumpsLostBeyondTheStandbyCapTheGlycolFlow) {
    // Quadratic pumps through their design point with a shut-off of 1.25·Δp_d, against a loop
    // of friction only through the design point. n of N duty pumps at rated speed, with
    // x = V̇/V̇_d: Δp_d·(1.25 − 0.25·(N·x/n)²) = Δp_d·x², so x = √(1.25/(1 + 0.25·(N/n)²)):
    // one of two √(1.25/2) = 0.7906, two of three √0.8 = 0.8944.
    const Coolant water = Coolant::byName("water");
    OutdoorLoopSpec spec;  // 2 duty + 1 standby
    spec.track_flow = false;
    const OutdoorLoop loop(spec, water, kFlow, kDuty, kSupply);
    EXPECT_EQ(loop.maxSpeed(0), 1.0);
    EXPECT_EQ(loop.maxSpeed(1), 1.0);  // the standby runs in its place
    EXPECT_NEAR(loop.maxSpeed(2), std::sqrt(1.25 / 2.0), 1e-9);
    EXPECT_EQ(loop.maxSpeed(3), 0.0);
    OutdoorLoopSpec three = spec;
    three.pumps_duty = 3;
    three.pumps_standby = 0;
    EXPECT_NEAR(OutdoorLoop(three, water, kFlow, kDuty, kSupply).maxSpeed(1), std::sqrt(0.8), 1e-9);

    // Operated with one pump left and a bank that can do what is asked: the glycol flows at
    // 0.79 of design, the pumps' work falls with its cube (friction only), the exchanger's k
    // is the one at that flow, and the glycol is made colder by hand (T_in − T_os = Q/k) so
    // that the setpoint holds.
    const double mdot_i = water.massFlow(kFlow);
    const double T_r = water.heatedTemperature(kSupply, mdot_i, kDuty);
    const LinearBank bank{loop.liquid(), 5e6, 288.15};
    const double r = std::sqrt(1.25 / 2.0);
    const auto [full, fo] = loop.operate(T_r, mdot_i, kSupply, bank, -1, 1);
    const auto [s, o] = loop.operate(T_r, mdot_i, kSupply, bank, -1, 2);
    EXPECT_NEAR(full.flow, loop.flow(), 1e-12);
    EXPECT_NEAR(s.flow, r * loop.flow(), 1e-12);
    EXPECT_NEAR(s.pump_work, loop.pumpWork() * r * r * r, 1e-6);
    const double k = loop.conductanceAt(mdot_i, r);
    EXPECT_LT(k, loop.conductanceAt(mdot_i, 1.0));
    EXPECT_NEAR(s.inner_outlet, kSupply, 1e-9);
    EXPECT_NEAR(s.outer_supply, T_r - kDuty / k, 1e-6);
    EXPECT_LT(s.outer_supply, full.outer_supply - 0.1);
    // None left: the loop stops as with no plate in service.
    const auto [n, no] = loop.operate(T_r, mdot_i, kSupply, bank, -1, 3);
    EXPECT_EQ(n.heat, 0.0);
    EXPECT_EQ(n.flow, 0.0);
    EXPECT_EQ(n.pump_power, 0.0);
    EXPECT_EQ(n.inner_outlet, T_r);
    EXPECT_EQ(no.heat_rejected, 0.0);
}

TEST(OutdoorLoop, BankAtItsLimitSettlesWhereItRejectsWhatTheExchangerPasses) {
    const Coolant water = Coolant::byName("water");
    const OutdoorLoop loop(OutdoorLoopSpec{}, water, kFlow, kDuty, kSupply);
    const double mdot_i = water.massFlow(kFlow);
    const double T_in = water.heatedTemperature(kSupply, mdot_i, kDuty);
    // A bank of 1.2 MW/K in 25 °C air: at the design glycol return (~39 °C) it could reject
    // ~17 MW, so hold it to 0.5 MW/K: ~7 MW at most, short of the 8 MW asked.
    const double UA_b = 0.5e6, T_air = 298.15;
    const LinearBank bank{loop.liquid(), UA_b, T_air};
    const auto [s, o] = loop.operate(T_in, mdot_i, kSupply, bank);
    EXPECT_GT(s.unmet, 0.0);
    // By hand, with constant heat capacities (the glycol's C_o = ṁ_o·c_p at the state's mean):
    //   Q = k·(T_in − T_os),  T_or = T_os + (Q + W)/C_o,  Q + W = UA_b·(T_or − T_air).
    // Linear in T_os: Q + W = UA_b·(T_os − T_air) + (UA_b/C_o)·(Q + W), so
    //   (Q + W)·(1 − UA_b/C_o) = UA_b·(T_os − T_air),  with Q = k·(T_in − T_os).
    const double k = loop.conductance(mdot_i), W = loop.pumpWork();
    const double C_o =
        loop.massFlow() * loop.liquid().specificHeat(0.5 * (s.outer_supply + s.outer_return));
    const double a = 1.0 - UA_b / C_o;
    // (k·T_in − k·T_os + W)·a = UA_b·T_os − UA_b·T_air
    const double T_os = (a * (k * T_in + W) + UA_b * T_air) / (a * k + UA_b);
    EXPECT_NEAR(s.outer_supply, T_os, 0.02);  // c_p's variation over the ~8 K range
    // The defining balances hold to round-off: the bank takes the exchanger's heat and the
    // pumps' work, and the water leaves with the exchanger's heat removed.
    EXPECT_NEAR(o.heat_rejected, s.heat + W, 1e-6 * kDuty);
    EXPECT_NEAR(s.heat, k * (T_in - s.outer_supply), 1e-6 * kDuty);
    EXPECT_NEAR(mdot_i * (water.enthalpy(T_in) - water.enthalpy(s.inner_outlet)), s.heat,
                1e-6 * kDuty);
    EXPECT_NEAR(s.unmet, s.inner_outlet - kSupply, 1e-12);
}

/// A coil in air of unlimited capacity rate: Q ≤ C_w·(1 − e^(−UA/C_w))·(T_in − T_air), its
/// tube film (UA) ∝ ṁ^0.8 as the dry coolers' liquid side.
struct CoilBank {
    const Coolant& liquid;
    double UA_d, mdot_d, T_air;
    double capacity(double T_in, double mdot) const {
        const double C = mdot * liquid.specificHeat(T_in);
        const double UA = UA_d * std::pow(mdot / mdot_d, 0.8);
        return C * -std::expm1(-UA / C) * (T_in - T_air);
    }
    LinearBank::Out operator()(double T_in, double flow, double T_set) const {
        const double mdot = liquid.massFlow(flow);
        const double need = std::max(0.0, mdot * (liquid.enthalpy(T_in) - liquid.enthalpy(T_set)));
        const double cap = std::max(0.0, capacity(T_in, mdot));
        if (need <= cap) return {need, 0.0};
        const double T_out = liquid.temperatureFromEnthalpy(liquid.enthalpy(T_in) - cap / mdot);
        return {cap, T_out - T_set};
    }
};

TEST(OutdoorLoop, TrackingPumpsSpeedUpBeforeTheSetpointIsLost) {
    // Half the design water flow at the full design heat (a hot hour with the CDU valves
    // throttled): the tracked glycol pumps run at half speed. By hand (c_p 4.18 and 3.7
    // kJ/(kg·K), ṁ_w 249 kg/s, UA_d 4.0 MW/K): at half speed k = 0.42 MW/K, the glycol must
    // enter at 27.5 °C and returns at 42.9 °C, and a coil of 0.8 MW/K at rated glycol flow
    // (0.46 MW/K at half) in 20 °C air rejects ~6.4 MW of the 8 MW; at rated speed k =
    // 0.50 MW/K, 30.5 °C in and 38.2 °C out, it could reject ~10 MW. The pumps speed up to
    // where the coil just holds: its capacity there is the exchanger's heat plus the pumps'
    // work, and their power is P_d·r³.
    const Coolant water = Coolant::byName("water");
    const OutdoorLoop loop(OutdoorLoopSpec{}, water, kFlow, kDuty, kSupply);
    const double mdot = 0.5 * water.massFlow(kFlow);
    const double T_in = water.heatedTemperature(kSupply, mdot, kDuty);
    const CoilBank bank{loop.liquid(), 0.8e6, loop.massFlow(), 293.15};
    const auto [s, o] = loop.operate(T_in, mdot, kSupply, bank);
    EXPECT_EQ(s.unmet, 0.0);
    EXPECT_NEAR(s.inner_outlet, kSupply, 1e-9);
    const double r = s.flow / loop.flow();
    EXPECT_GT(r, 0.55);
    EXPECT_LT(r, 0.95);
    EXPECT_NEAR(s.pump_power, loop.pumpPower() * r * r * r, 1e-9 * loop.pumpPower());
    // At the least speed that holds, the coil is at its limit (to the 1e-9 bisection).
    EXPECT_NEAR(bank.capacity(s.outer_return, loop.liquid().massFlow(s.flow)), s.heat + s.pump_work,
                1e-4 * kDuty);
    // The premise: at half speed the coil falls short of what holding the setpoint needs.
    {
        const Coolant& pg = loop.liquid();
        const double k = loop.conductanceAt(mdot, 0.5), W = loop.pumpWork() / 8.0;
        const double mdot_o = 0.5 * loop.massFlow();
        const double T_os = T_in - kDuty / k;
        const double T_or = pg.temperatureFromEnthalpy(pg.enthalpy(T_os) + (kDuty + W) / mdot_o);
        EXPECT_LT(bank.capacity(T_or, mdot_o), 0.9 * (kDuty + W));
    }
    // Constant-speed pumps hold it too, at rated power.
    OutdoorLoopSpec constant;
    constant.track_flow = false;
    const OutdoorLoop fixed(constant, water, kFlow, kDuty, kSupply);
    const auto [sc, oc] = fixed.operate(T_in, mdot, kSupply, bank);
    EXPECT_EQ(sc.unmet, 0.0);
    EXPECT_NEAR(sc.pump_power, fixed.pumpPower(), 1e-9);
}

TEST(OutdoorLoop, TrackingPumpsSpeedUpOnlyToTheTopSpeedLeft) {
    // The case above in 23 °C air: with every pump the tracked pumps speed up past 0.79 of
    // rated speed to hold the setpoint (0.88 here); with one of the two duty pumps left they
    // stop at 0.79 (the test above), and the coil, at its limit there, lets the facility
    // water leave above its setpoint (0.53 K here).
    const Coolant water = Coolant::byName("water");
    const OutdoorLoop loop(OutdoorLoopSpec{}, water, kFlow, kDuty, kSupply);
    const double mdot = 0.5 * water.massFlow(kFlow);
    const double T_in = water.heatedTemperature(kSupply, mdot, kDuty);
    const CoilBank bank{loop.liquid(), 0.8e6, loop.massFlow(), 296.65};
    const auto [all, ao] = loop.operate(T_in, mdot, kSupply, bank);
    const auto [one, oo] = loop.operate(T_in, mdot, kSupply, bank, -1, 2);
    const double r_max = std::sqrt(1.25 / 2.0);
    EXPECT_EQ(all.unmet, 0.0);
    EXPECT_GT(all.flow, r_max * loop.flow());
    EXPECT_NEAR(one.flow, r_max * loop.flow(), 1e-12);
    EXPECT_GT(one.unmet, 0.0);
    // At its limit the coil rejects what the exchanger passes plus the pumps' work.
    EXPECT_NEAR(bank.capacity(one.outer_return, loop.liquid().massFlow(one.flow)),
                one.heat + one.pump_work, 1e-6 * kDuty);
}

TEST(OutdoorLoop, ABankThatRejectsNothingLeavesThePumpWorkInTheWater) {
    // Fans stopped: the loop warms until the exchanger hands the pumps' work to the water,
    // Q = −W, at T_os = T_in + W/k.
    const Coolant water = Coolant::byName("water");
    const OutdoorLoop loop(OutdoorLoopSpec{}, water, kFlow, kDuty, kSupply);
    const double mdot_i = water.massFlow(kFlow);
    const double T_in = water.heatedTemperature(kSupply, mdot_i, kDuty);
    const LinearBank bank{loop.liquid(), 0.0, T_in};
    const auto [s, o] = loop.operate(T_in, mdot_i, kSupply, bank);
    EXPECT_NEAR(s.heat, -loop.pumpWork(), 1e-6 * loop.pumpWork());
    EXPECT_NEAR(s.pump_work, loop.pumpWork(), 1e-9);  // the design flow: rated speed
    EXPECT_NEAR(s.outer_supply, T_in + loop.pumpWork() / loop.conductance(mdot_i), 1e-9);
    EXPECT_GT(s.inner_outlet, T_in);
    EXPECT_EQ(o.heat_rejected, 0.0);
}

TEST(OutdoorLoop, RefusesADesignItCannotTake) {
    const Coolant water = Coolant::byName("water");
    OutdoorLoopSpec spec;
    EXPECT_THROW(OutdoorLoop(spec, water, 0.0, kDuty, kSupply), InputError);
    spec.approach = 0.0;
    EXPECT_THROW(OutdoorLoop(spec, water, kFlow, kDuty, kSupply), InputError);
    spec.approach = 2.0;
    spec.coolant = "brine";
    EXPECT_THROW(OutdoorLoop(spec, water, kFlow, kDuty, kSupply), InputError);
}

}  // namespace
}  // namespace dctwin::thermal
