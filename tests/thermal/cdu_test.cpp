// CDU (thermal/cdu.h): catalog records reproduce their design approach; pumps (N+1, affinity);
// PI control through the core Simulator; energy conservation; input ranges.
#include "thermal/cdu.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "core/errors.h"
#include "core/simulator.h"
#include "core/system.h"
#include "core/units.h"

namespace dctwin::thermal {
namespace {

using units::celsiusToKelvin;

void expectDesignApproach(const std::string& name, double approach_published, double Q_published) {
    const CduModel m(CduSpec::fromCatalog(name));
    const CduDesignPoint& d = m.design();
    const CduSpec& s = m.spec();
    const CduOperatingPoint op =
        m.steadyState(d.secondary_return_temp, d.facility_supply_temp, s.facility_flow);
    std::printf(
        "%s: approach %.4f K at %.1f kW (published %.1f K, %.0f kW), UA %.1f kW/K, eps "
        "%.3f, pump %.2f kW (%.2f %% of duty)\n",
        name.c_str(), op.approach, op.heat / 1e3, approach_published, Q_published / 1e3, d.UA / 1e3,
        d.effectiveness, op.pump_power / 1e3, 100 * op.pump_power / op.heat);
    EXPECT_NEAR(op.approach, approach_published, 0.2);
    EXPECT_NEAR(op.heat, Q_published, 1e-3 * Q_published);
    // Hand check of the secondary rise: Q ≈ ṁ·c_p·ΔT.
    const Coolant& pg = m.secondaryCoolant();
    const double dT = Q_published / (pg.massFlow(s.secondary_flow) *
                                     pg.specificHeat(d.secondary_supply_temp + 5.0));
    EXPECT_NEAR(op.secondary_hx_inlet_temp - op.secondary_supply_temp, dT, 0.01 * dT);
    // Pump power 0.5–1.5 % of the heat moved (domain-facts B4).
    EXPECT_GT(op.pump_power / op.heat, 0.005);
    EXPECT_LT(op.pump_power / op.heat, 0.015);
}

TEST(Cdu, DeschutesReproducesItsDesignApproach) {
    // Google Project Deschutes: 2 MW, 500 gpm, 3 °C approach (domain-facts B4).
    expectDesignApproach("google_deschutes", 3.0, 2e6);
}

TEST(Cdu, Xdu1350ReproducesItsDesignApproach) {
    // Vertiv XDU1350: 1,368 kW at 4 °C approach (issue 4, domain-facts B4).
    expectDesignApproach("vertiv_xdu1350", 4.0, 1.368e6);
}

TEST(Cdu, SteadyStateConservesEnergyAndPartLoadApproachIsSmaller) {
    const CduModel m(CduSpec::fromCatalog("vertiv_xdu1350"));
    const Coolant& s = m.secondaryCoolant();
    const Coolant& f = m.facilityCoolant();
    for (double T_ret : {celsiusToKelvin(40), celsiusToKelvin(45), celsiusToKelvin(50)}) {
        for (double flow : {0.2, 0.6, 1.0}) {
            const double V_f = flow * m.spec().facility_flow;
            const CduOperatingPoint op = m.steadyState(T_ret, celsiusToKelvin(30), V_f);
            const double in = s.massFlow(op.secondary_flow) *
                                  (s.enthalpy(T_ret) - s.enthalpy(op.secondary_supply_temp)) +
                              op.pump_heat;
            const double out = f.massFlow(V_f) * (f.enthalpy(op.facility_return_temp) -
                                                  f.enthalpy(celsiusToKelvin(30)));
            EXPECT_NEAR(in, op.heat, 1e-9 * op.heat);
            EXPECT_NEAR(out, op.heat, 1e-9 * op.heat);
        }
    }
    // At the design flows ε and UA are fixed, so the approach T_ss − T_fs = Q_hx·(1/(ε·C_min) −
    // 1/C_s) is proportional to the duty: a colder return gives a proportionally smaller one.
    const CduDesignPoint& d = m.design();
    const double T_half = s.heatedTemperature(d.secondary_supply_temp,
                                              s.massFlow(m.spec().secondary_flow), 0.5 * 1.368e6);
    const CduOperatingPoint half =
        m.steadyState(T_half, d.facility_supply_temp, m.spec().facility_flow);
    // (0.5 % for the c_p change between the two inlet temperatures)
    EXPECT_NEAR(half.approach / half.heat, m.spec().approach / 1.368e6, 5e-3 * 4.0 / 1.368e6);
    EXPECT_LT(half.heat, 0.7 * 1.368e6);
}

TEST(Cdu, PumpsNPlusOneAndAffinity) {
    const CduModel m(CduSpec::fromCatalog("vertiv_xdu1350"));
    const double V = m.spec().secondary_flow;
    const PumpOperatingPoint full = m.pumps(1.0, 0.0);
    EXPECT_NEAR(full.flow, V, 1e-12);
    EXPECT_NEAR(full.power, V * 250e3 / 0.6, 1e-6);  // Q·Δp/η at design (B4)
    EXPECT_NEAR(m.pumps(1.0, 1.0).flow, V, 1e-12);   // standby takes over
    EXPECT_EQ(m.pumps(1.0, 2.0).flow, 0.0);
    const PumpOperatingPoint slow = m.pumps(0.8, 0.0);
    EXPECT_NEAR(slow.flow, 0.8 * V, 1e-10);
    EXPECT_NEAR(slow.power, 0.512 * full.power, 1e-6 * full.power);
}

/// CDU alone in a System, racks replaced by a fixed return temperature.
struct CduRun {
    std::vector<double> final_state;
    double approach, valve, heat, supply;
};
CduRun runCdu(const CduModel& m, double T_ret, double T_fs, double setpoint, double t_end) {
    System sys;
    sys.add(std::make_shared<const Cdu>("cdu", m, 8));
    sys.setInput("cdu.secondary_return_temp", T_ret);
    sys.setInput("cdu.facility_supply_temp", T_fs);
    sys.setInput("cdu.supply_temp_setpoint", setpoint);
    sys.finalize();
    Recorder rec(sys);
    for (const char* n :
         {"approach", "valve_position", "heat_transferred", "secondary_supply_temp"}) {
        rec.addOutput(std::string("cdu.") + n, "cdu", n);
    }
    SimulationOptions o;
    o.t_end = t_end;
    o.output_interval = t_end / 10;
    Simulator sim(sys, o);
    sim.run(rec);
    const auto& r = rec.results();
    return {sim.finalState(), r.channels[0].values.back(), r.channels[1].values.back(),
            r.channels[2].values.back(), r.channels[3].values.back()};
}

TEST(Cdu, ComponentSettlesOnTheDesignApproachThroughCvode) {
    const CduModel m(CduSpec::fromCatalog("vertiv_xdu1350"));
    const CduDesignPoint& d = m.design();
    // Setpoint below reach: the valve opens fully and the approach is the design one.
    const CduRun r = runCdu(m, d.secondary_return_temp, d.facility_supply_temp,
                            d.secondary_supply_temp - 2.0, 4 * 3600.0);
    EXPECT_NEAR(r.valve, 1.0, 1e-12);
    EXPECT_NEAR(r.approach, 4.0, 0.2);
    EXPECT_NEAR(r.heat, 1.368e6, 2e-3 * 1.368e6);
}

TEST(Cdu, PiControlHoldsTheSupplySetpointAtPartLoad) {
    const CduModel m(CduSpec::fromCatalog("vertiv_xdu1350"));
    const Coolant& s = m.secondaryCoolant();
    const double T_set = celsiusToKelvin(35), T_fs = celsiusToKelvin(28);
    const double T_ret = s.heatedTemperature(T_set, s.massFlow(m.spec().secondary_flow), 0.7e6);
    const CduRun r = runCdu(m, T_ret, T_fs, T_set, 6 * 3600.0);
    EXPECT_NEAR(r.supply, T_set, 0.01);
    EXPECT_GT(r.valve, 0.05);
    EXPECT_LT(r.valve, 1.0);
    // The same point from the steady solver.
    const CduOperatingPoint op =
        m.steadyStateControlled(T_ret, T_fs, T_set, m.spec().facility_flow);
    EXPECT_NEAR(op.secondary_supply_temp, T_set, 1e-9);
    EXPECT_NEAR(op.facility_flow / m.spec().facility_flow, r.valve, 1e-3);
}

TEST(Cdu, StructureLetsRacksFeedThroughAndNoNanOverTheRange) {
    const CduModel m(CduSpec::fromCatalog("google_deschutes"));
    const Cdu cdu("cdu", m, 14);
    for (std::size_t o = 0; o < cdu.outputs().size(); ++o) {
        EXPECT_FALSE(cdu.outputDependsOnInput(o, Cdu::kReturnTemp)) << cdu.outputs()[o].name;
    }
    std::vector<double> y(cdu.outputs().size()), dx(3);
    for (double T_ret : {celsiusToKelvin(20), celsiusToKelvin(45), celsiusToKelvin(70)}) {
        for (double T_fs : {celsiusToKelvin(5), celsiusToKelvin(30), celsiusToKelvin(45)}) {
            for (double avail : {0.0, m.spec().facility_flow}) {
                for (double speed : {0.0, 0.5, 1.2}) {
                    for (double failed : {0.0, 1.0, 2.0}) {
                        std::vector<double> x{celsiusToKelvin(35), celsiusToKelvin(38), 0.5};
                        std::vector<double> u{T_ret, T_fs,  avail, celsiusToKelvin(35),
                                              speed, failed};
                        cdu.computeOutputs(0, x, u, y);
                        cdu.computeDerivatives(0, x, u, dx);
                        for (double v : y) ASSERT_TRUE(std::isfinite(v));
                        for (double v : dx) ASSERT_TRUE(std::isfinite(v));
                    }
                }
            }
        }
    }
    std::vector<double> x{308.0, 310.0, 0.5};
    EXPECT_THROW(cdu.computeOutputs(0, x, std::vector<double>{318, 303, -1.0, 308, 1, 0}, y),
                 InputError);
    EXPECT_THROW(cdu.computeOutputs(0, x, std::vector<double>{318, 303, 0.03, 308, 2.0, 0}, y),
                 InputError);
    EXPECT_THROW(cdu.computeDerivatives(0, x, std::vector<double>{400, 303, 0.03, 308, 1, 0}, dx),
                 InputError);
    EXPECT_THROW(CduSpec::fromCatalog("vertiv_xdu9999"), InputError);
    // A record asking for the impossible (approach too small for its flows).
    EXPECT_THROW(CduModel(CduSpec::fromCatalog(
                     "vertiv_xdu1350", Json{{"approach_K", 0.3}, {"facility_flow_Lpm", 500}})),
                 InputError);
}

}  // namespace
}  // namespace dctwin::thermal
