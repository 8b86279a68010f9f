// Rack loop (thermal/rack_loop.h): Q = ṁ·c_p·ΔT at steady state, the step response through
// the core Simulator + CVODE, the resistance law and the feedthrough structure.
#include "thermal/rack_loop.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "core/errors.h"
#include "core/simulator.h"
#include "core/system.h"
#include "core/units.h"
#include "test_helpers.h"

namespace dctwin::thermal {
namespace {

using testing::constantCoolant;

struct StepRun {
    std::vector<double> t, outlet;
};

/// A rack from rest (both nodes at the supply temperature) given heat Q at t = 0.
StepRun stepResponse(const Coolant& c, const RackLoopParams& p, double Q, double T_sup,
                     double t_end, double dt) {
    System sys;
    sys.add(std::make_shared<const RackLoop>("rack", c, p));
    sys.setInput("rack.heat_liquid", Q);
    sys.setInput("rack.supply_temp", T_sup);
    sys.setInput("rack.flow", p.flow_design);
    sys.finalize();
    Recorder rec(sys);
    rec.addOutput("rack.outlet_temp", "rack", "outlet_temp");
    SimulationOptions o;
    o.t_end = t_end;
    o.output_interval = dt;
    o.solver.rel_tol = 1e-9;
    o.solver.abs_tol_factor = 1e-10;
    Simulator sim(sys, o);
    sim.run(rec);
    return {rec.results().time, rec.results().channels[0].values};
}

TEST(RackLoop, SteadyStateCarriesQEqualsMdotCpDeltaT) {
    const Coolant pg = Coolant::byName("PG25");
    RackLoopParams p = RackLoopParams::fromCatalog("gb300_nvl72");
    const RackLoop rack("rack", pg, p);
    const double T_sup = units::celsiusToKelvin(35), Q = p.heat_design, V = p.flow_design;
    // Steady state by hand: fluid node from the enthalpy balance, die node Q·R above it.
    const double mdot = pg.massFlow(V);
    const double T_f = pg.heatedTemperature(T_sup, mdot, Q);
    const double T_d = T_f + Q * rack.resistance(V);
    std::vector<double> x{T_d, T_f}, u{Q, T_sup, V}, dx(2), y(5);
    rack.computeDerivatives(0, x, u, dx);
    EXPECT_NEAR(dx[0], 0.0, 1e-12);
    EXPECT_NEAR(dx[1], 0.0, 1e-12);
    rack.computeOutputs(0, x, u, y);
    // Energy: what the stream carries equals the heat put in (1e-9 relative).
    EXPECT_NEAR(y[RackLoop::kHeatToCoolant], Q, 1e-9 * Q);
    // Q = ṁ·c_p·ΔT with c_p at the mean temperature: 121.5 kW at 200 L/min of PG25 is ~9 K
    // (domain-facts B2: ΔT ≈ 10 K per rack).
    const double cp_mean = pg.specificHeat(0.5 * (T_sup + T_f));
    EXPECT_NEAR(T_f - T_sup, Q / (mdot * cp_mean), 1e-4);
    EXPECT_NEAR(T_f - T_sup, 9.1, 0.3);
    // GPU die ~31 K above the coolant at 1,400 W per GPU (B3 R_th ~0.022 K/W to the bulk).
    EXPECT_NEAR(T_d - T_f, 0.022 * 1400.0, 0.5);
    EXPECT_EQ(y[RackLoop::kOutletTemp], T_f);
    EXPECT_EQ(y[RackLoop::kDieTemp], T_d);
}

TEST(RackLoop, StepResponseHasTimeConstantCOverMdotCp) {
    const Coolant c = constantCoolant();  // ρ = 1000, c_p = 4000: exact hand numbers
    RackLoopParams p;
    p.C_metal = 30e3;
    p.fluid_volume = 0.020;
    p.flow_design = 200.0 / 60000.0;
    p.R_design = 1e-8;  // metal and fluid tightly coupled: one node of C = C_metal + M·c_p
    p.initial_temp = units::celsiusToKelvin(35);
    const double mcp = 1000.0 * p.flow_design * 4000.0;
    const double tau = (p.C_metal + 1000.0 * p.fluid_volume * 4000.0) / mcp;  // (30k+80k)/13.33k
    EXPECT_NEAR(tau, 8.25, 1e-9);
    const double Q = 100e3, dT_inf = Q / mcp;
    const StepRun r = stepResponse(c, p, Q, p.initial_temp, 10 * tau, tau / 100);
    // At t = τ the first-order response has reached 1 − e^{−1} of its final rise.
    const double at_tau = r.outlet[100] - p.initial_temp;
    EXPECT_NEAR(r.t[100], tau, 1e-9);
    EXPECT_NEAR(at_tau / dT_inf, 1.0 - std::exp(-1.0), 2e-3);
    EXPECT_NEAR(r.outlet.back() - p.initial_temp, dT_inf * (1 - std::exp(-10.0)), 1e-3);

    // With a realistic resistance the response is second order; its mean delay (area above
    // the normalised step response) is exactly E_stored/Q = (C_metal + C_fluid)/(ṁ·c_p) +
    // C_metal·R for a linear system from rest.
    p.R_design = 2.54e-4;
    const double t_mean = tau + p.C_metal * p.R_design;
    const StepRun s = stepResponse(c, p, Q, p.initial_temp, 25 * t_mean, t_mean / 400);
    double area = 0.0;
    for (std::size_t i = 1; i < s.t.size(); ++i) {
        const double g0 = 1 - (s.outlet[i - 1] - p.initial_temp) / dT_inf;
        const double g1 = 1 - (s.outlet[i] - p.initial_temp) / dT_inf;
        area += 0.5 * (g0 + g1) * (s.t[i] - s.t[i - 1]);
    }
    EXPECT_NEAR(area, t_mean, 0.01 * t_mean);
}

TEST(RackLoop, ResistanceFallsWithFlowAndLumpedCountsMultiply) {
    const Coolant pg = Coolant::byName("PG25");
    RackLoopParams p = RackLoopParams::fromCatalog("gb300_nvl72");
    p.count = 4;
    const RackLoop rack("racks", pg, p);
    EXPECT_NEAR(rack.resistance(p.flow_design), p.R_design, 1e-18);
    EXPECT_NEAR(rack.resistance(2 * p.flow_design), p.R_design * std::pow(2.0, -0.8), 1e-15);
    // No flow: R stays finite (floor 5 % of design flow).
    EXPECT_NEAR(rack.resistance(0.0), p.R_design * std::pow(0.05, -0.8), 1e-15);
    std::vector<double> x{320.0, 318.0}, u{1e5, 308.15, p.flow_design}, y(5);
    rack.computeOutputs(0, x, u, y);
    EXPECT_NEAR(y[RackLoop::kHeatTotal], 4 * y[RackLoop::kHeatToCoolant], 1e-9);
    EXPECT_NEAR(y[RackLoop::kFlowTotal], 4 * p.flow_design, 1e-15);
}

TEST(RackLoop, DieTemperatureHasNoFeedthroughFromHeat) {
    // The power layer computes heat from die temperature (leakage): wiring die_temp → a
    // leakage model → heat_liquid must not be an algebraic loop.
    class Leakage : public Component {
    public:
        Leakage() : Component("leakage") {
            addInput({"die_temp", "K", 350.0, 350.0});
            addOutput({"heat", "W", 1e5, 0.0});
        }
        void computeOutputs(double, std::span<const double>, std::span<const double> u,
                            std::span<double> y) const override {
            y[0] = 1e5 * (1.0 + 0.002 * (u[0] - 330.0));
        }
    };
    System sys;
    const auto& rack = sys.add(std::make_shared<const RackLoop>(
        "rack", Coolant::byName("PG25"), RackLoopParams::fromCatalog("gb300_nvl72")));
    sys.add(std::make_shared<const Leakage>());
    sys.connect("rack.die_temp", "leakage.die_temp");
    sys.connect("leakage.heat", "rack.heat_liquid");
    EXPECT_NO_THROW(sys.finalize());
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_FALSE(rack.outputDependsOnInput(RackLoop::kDieTemp, i));
        EXPECT_FALSE(rack.outputDependsOnInput(RackLoop::kOutletTemp, i));
        EXPECT_FALSE(rack.outputDependsOnInput(RackLoop::kHeatToCoolant, RackLoop::kHeat));
    }
}

TEST(RackLoop, NoNanOverTheInputRangeAndClearErrorsOutside) {
    const Coolant pg = Coolant::byName("PG25");
    const RackLoopParams p = RackLoopParams::fromCatalog("gb300_nvl72");
    const RackLoop rack("rack", pg, p);
    std::vector<double> dx(2), y(5);
    for (double Q : {0.0, 5e4, 1.5e5}) {
        for (double T : {283.15, 308.15, 333.15}) {
            for (double V : {0.0, 0.5 * p.flow_design, 1.5 * p.flow_design}) {
                std::vector<double> x{T + 30, T + 5}, u{Q, T, V};
                rack.computeDerivatives(0, x, u, dx);
                rack.computeOutputs(0, x, u, y);
                for (double v : dx) ASSERT_TRUE(std::isfinite(v));
                for (double v : y) ASSERT_TRUE(std::isfinite(v));
            }
        }
    }
    std::vector<double> x{330.0, 320.0};
    EXPECT_THROW(rack.computeDerivatives(0, x, std::vector<double>{-1.0, 308.0, 0.003}, dx),
                 InputError);
    EXPECT_THROW(rack.computeOutputs(0, x, std::vector<double>{1e5, 308.0, -0.001}, y), InputError);
    try {
        rack.computeOutputs(0, x, std::vector<double>{1e5, 400.0, 0.003}, y);
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("supply_temp"), std::string::npos) << e.what();
    }
    EXPECT_THROW(RackLoopParams::fromCatalog("gb400"), InputError);
}

}  // namespace
}  // namespace dctwin::thermal
