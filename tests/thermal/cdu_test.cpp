// CDU (thermal/cdu.h): catalog records reproduce their design approach (1e-6); the heat-exchanger
// core against a published textbook rating (Incropera Example 11.1); off-design flows against a
// hand calculation; pumps (N+1, affinity);
// PI control through the core Simulator; energy conservation; input ranges.
#include "thermal/cdu.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <numbers>

#include "core/errors.h"
#include "core/simulator.h"
#include "core/system.h"
#include "core/units.h"
#include "test_helpers.h"
#include "thermal/pipe.h"
#include "thermal/rack_loop.h"

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
    // The point the conductance was derived from: 1e-6 relative to the published approach
    // and duty.
    EXPECT_NEAR(op.approach, approach_published, 1e-6 * approach_published);
    EXPECT_NEAR(op.heat, Q_published, 1e-6 * Q_published);
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

TEST(Cdu, OffDesignFlowsFollowTheFilmScalingByHand) {
    // Off-design: the Deschutes record (OCP "Project Deschutes: Data Center Facilities"
    // v1.0.0, Google, 2026-02-26, §3.1: 2,000 kW, 500 gpm on the IT loop and 500 gpm = 0.25
    // gpm/kW on the facility loop, 3 °C approach at design load; our catalog's facility flow,
    // an "assumption" there, is the spec's value) at 60 % secondary flow (pumps turned down on
    // the Δp reset) and 50 % facility flow (valve half shut), same inlet temperatures.
    // NOT published data: no vendor capacity table at another approach or flow, and no
    // plate-exchanger textbook example at part flow, could be found in the sources reachable
    // here: they give one rating point each (Vertiv CoolChip CDU family and XDU1350, CoolIT
    // CHx2000, OCP Deschutes) or could not be read (Motivair MCDU brochure, nVent, Boyd); see
    // the issue 9 report. What follows is a hand calculation of the film-scaling law the
    // model uses (domain-facts C3: UA ∝ flow^0.6–0.8, two films in series; the film form
    // Nu = C·Re^n·Pr^(1/3) of Kakaç & Liu, Heat Exchangers, ch. 10, cited in thermal/cdu.h)
    // from the rating, plus the bounds any film law must respect.
    // Rating (the model's derivation from the catalog record; each number checked below):
    //   UA_d = 613.83 kW/K, C_s = 128.148 kW/K (PG25, 32.152 kg/s × 3,985.7 J/(kg K) at the
    //   HX inlet 50.68 °C), C_f = 131.283 kW/K (water, 31.408 kg/s × 4,179.9 J/(kg K) at
    //   32.0 °C), ΔT_in = 50.682 − 32.000 = 18.682 K.
    // Off-design, equal resistance split at rating (hot_resistance_fraction 0.5):
    //   hA_s = 2·613.83·0.6^0.8 = 2·613.83·0.66454 = 815.83 kW/K
    //   hA_f = 2·613.83·0.5^0.8 = 2·613.83·0.57435 = 705.10 kW/K
    //   UA   = 1/(1/815.83 + 1/705.10) = 378.22 kW/K
    //   C_s = 0.6·128.148 = 76.889, C_f = 0.5·131.283 = 65.641 kW/K → C_min = C_f,
    //   C_r = 0.85372, NTU = 378.22/65.641 = 5.7619, NTU(1 − C_r) = 0.84284,
    //   e^−0.84284 = 0.43048, ε = (1 − 0.43048)/(1 − 0.85372·0.43048) = 0.90044
    //   Q = 0.90044 · 65.641 kW/K · 18.682 K = 1,104.2 kW.
    // Bounds (any forced-convection film law has 0 ≤ n ≤ 1): n = 0 (UA fixed) gives
    // ε = 0.95240, Q = 1,168.0 kW; n = 1 gives UA = 334.82 kW/K, ε = 0.88345, Q = 1,083.4 kW.
    // Tolerance: 1e-6 relative to the hand value (the model solves the same closed forms; the
    // hand value is recomputed here in full precision from the rating), the bounds exactly.
    const CduModel m(CduSpec::fromCatalog("google_deschutes"));
    const CduDesignPoint& d = m.design();
    const CduSpec& s = m.spec();
    const Coolant& pg = m.secondaryCoolant();
    const Coolant& w = m.facilityCoolant();
    const double C_s = pg.massFlow(s.secondary_flow) * pg.specificHeat(d.secondary_hx_inlet_temp);
    const double C_f = w.massFlow(s.facility_flow) * w.specificHeat(d.facility_supply_temp);
    const double dT_in = d.secondary_hx_inlet_temp - d.facility_supply_temp;
    EXPECT_NEAR(d.UA, 613.83e3, 0.01e3);
    EXPECT_NEAR(C_s, 128.148e3, 0.001e3);
    EXPECT_NEAR(C_f, 131.283e3, 0.001e3);
    EXPECT_NEAR(dT_in, 18.682, 0.001);
    auto byHand = [&](double n) {
        const double UA =
            1.0 / (1.0 / (2.0 * d.UA * std::pow(0.6, n)) + 1.0 / (2.0 * d.UA * std::pow(0.5, n)));
        const double c_s = 0.6 * C_s, c_f = 0.5 * C_f;
        const double c_min = std::min(c_s, c_f), c_r = c_min / std::max(c_s, c_f);
        const double e = std::exp(-UA / c_min * (1.0 - c_r));
        return (1.0 - e) / (1.0 - c_r * e) * c_min * dT_in;
    };
    const HxResult hx = m.exchange(d.secondary_hx_inlet_temp, d.facility_supply_temp,
                                   0.6 * s.secondary_flow, 0.5 * s.facility_flow);
    std::printf(
        "Deschutes at 60 %% secondary, 50 %% facility flow: %.1f kW (by hand %.1f kW, "
        "bounds %.1f..%.1f kW), eps %.5f\n",
        hx.Q / 1e3, byHand(0.8) / 1e3, byHand(1.0) / 1e3, byHand(0.0) / 1e3, hx.effectiveness);
    EXPECT_NEAR(byHand(0.8), 1104.2e3, 0.1e3);
    EXPECT_NEAR(hx.Q, byHand(0.8), 1e-6 * byHand(0.8));
    EXPECT_NEAR(hx.effectiveness, 0.90044, 1e-5);
    EXPECT_LT(hx.Q, byHand(0.0));
    EXPECT_GT(hx.Q, byHand(1.0));
}

TEST(Cdu, HeatExchangerCoreRatesIncroperaExample11_1) {
    // Published data for the CDU's heat-exchanger core (thermal::heatExchange, counterflow,
    // the same call CduModel::exchange makes) at a point independent of our catalog: Incropera,
    // DeWitt, Bergman & Lavine, Fundamentals of Heat and Mass Transfer, 6th ed., Example 11.1
    // (counterflow concentric-tube lubricating-oil cooler). Given: oil 0.1 kg/s, c_p 2131
    // J/(kg K), in at 100 °C; water 0.2 kg/s, c_p 4178 J/(kg K), in at 30 °C; U = 38.1
    // W/(m² K); inner tube D_i = 25 mm. The example sizes the tube for an oil outlet of 60 °C
    // and finds q = 8,524 W, T_c,o = 40.2 °C, ΔT_lm = 43.2 °C and L = 65.9 m (the same
    // numbers are quoted in several public ε-NTU validation scripts).
    // Here the exchanger the book sized is rated the other way round, as a CDU is at off-design:
    // UA = U·π·D_i·L = 38.1 · π · 0.025 · 65.9 = 197.20 W/K, C_h = 213.1 W/K, C_c = 835.6 W/K,
    // C_r = 0.25503, NTU = 0.92537, NTU(1 − C_r) = 0.68938, e^−0.68938 = 0.50189,
    // ε = 0.49811/0.87200 = 0.57123, q = 0.57123 · 213.1 · 70 = 8,521 W. The rated point must
    // return the book's duty and outlet temperatures within the book's precision: U and L are
    // given to 3 significant figures (±0.13 % and ±0.08 %), which moves q by ±0.12 %; the band
    // is ±0.3 % on q and ±0.05 K on the outlets.
    // This checks the ε-NTU core at a published point; it is NOT a published CDU off-design
    // point. A search of the stored web pages, documentation and code (Vertiv XDU1350 and
    // CoolChip guides, CoolIT CHx, Motivair MCDU, nVent, Boyd, APC/Schneider CDU technical
    // specifications, plate-exchanger validation data in Modelica Buildings) found no CDU
    // capacity table at a second approach or flow, and no plate-exchanger textbook example
    // rated at two flows whose answer could be cited (issue 9 report).
    const double UA = 38.1 * std::numbers::pi * 0.025 * 65.9;
    const double C_h = 0.1 * 2131.0, C_c = 0.2 * 4178.0;
    const HxResult r = heatExchange(HxArrangement::Counterflow, UA, C_h, celsiusToKelvin(100.0),
                                    C_c, celsiusToKelvin(30.0));
    std::printf(
        "Incropera Ex. 11.1 rated: q %.1f W (book 8524), eps %.5f, T_h,o %.3f C, "
        "T_c,o %.3f C (book 40.2)\n",
        r.Q, r.effectiveness, 100.0 - r.Q / C_h, 30.0 + r.Q / C_c);
    EXPECT_NEAR(r.Q, 8524.0, 0.003 * 8524.0);
    EXPECT_NEAR(100.0 - r.Q / C_h, 60.0, 0.05);
    EXPECT_NEAR(30.0 + r.Q / C_c, 40.2, 0.05);
    // And the hand value above, which the core must reproduce to rounding.
    EXPECT_NEAR(r.effectiveness, 0.57123, 2e-5);
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

/// `racks` GB300 branches (rack_loops.json) on the CDU, in one slot.
std::shared_ptr<const Cdu> makeCdu(const CduModel& m, double racks) {
    const RackLoopParams rp = RackLoopParams::fromCatalog("gb300_nvl72");
    return std::make_shared<const Cdu>(
        "cdu", m,
        std::vector<RackBranch>{RackBranch(rp.branch, FluidState::of(m.secondaryCoolant(), 313.15),
                                           4.0 * rp.flow_design)},
        std::vector<RackManifold::Slot>{{0, racks}});
}

/// The record with its pumps on a flow setpoint at the design flow (the rating condition).
CduModel atDesignFlow(const std::string& name) {
    return CduModel(CduSpec::fromCatalog(name, Json{{"control_variable", "flow"}}));
}

/// CDU alone in a System, racks replaced by a fixed return temperature.
struct CduRun {
    std::vector<double> final_state;
    double approach, valve, heat, supply;
};
CduRun runCdu(const CduModel& m, double T_ret, double T_fs, double setpoint, double t_end) {
    System sys;
    sys.add(makeCdu(m, 8));
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
    const CduModel m = atDesignFlow("vertiv_xdu1350");
    const CduDesignPoint& d = m.design();
    // Setpoint below reach: the valve opens fully and the approach is the design one.
    const CduRun r = runCdu(m, d.secondary_return_temp, d.facility_supply_temp,
                            d.secondary_supply_temp - 2.0, 4 * 3600.0);
    EXPECT_NEAR(r.valve, 1.0, 1e-12);
    EXPECT_NEAR(r.approach, 4.0, 0.2);
    EXPECT_NEAR(r.heat, 1.368e6, 2e-3 * 1.368e6);
}

TEST(Cdu, PiControlHoldsTheSupplySetpointAtPartLoad) {
    const CduModel m = atDesignFlow("vertiv_xdu1350");
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

/// The CDU with 8 GB300 branches, fixed return temperature, settled for `t_end`; the named
/// outputs at the end.
std::map<std::string, double> settleCdu(const CduModel& m, double T_ret, double t_end) {
    System sys;
    sys.add(makeCdu(m, 8));
    sys.setInput("cdu.secondary_return_temp", T_ret);
    sys.setInput("cdu.critical_return_temp", T_ret);  // 8 equal racks: the hottest is the mix
    sys.setInput("cdu.facility_supply_temp", celsiusToKelvin(30));
    sys.setInput("cdu.supply_temp_setpoint", celsiusToKelvin(35));
    sys.setInput("cdu.dp_setpoint", m.spec().dp_setpoint);
    sys.finalize();
    Recorder rec(sys);
    const std::vector<std::string> names = {"header_dp",  "pump_dp",     "pump_speed",
                                            "pump_power", "rack_flow_1", "secondary_flow"};
    for (const auto& n : names) rec.addOutput("cdu." + n, "cdu", n);
    SimulationOptions o;
    o.t_end = t_end;
    o.output_interval = t_end;
    Simulator sim(sys, o);
    sim.run(rec);
    std::map<std::string, double> out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        out[names[i]] = rec.results().channels[i].values.back();
    }
    return out;
}

TEST(Cdu, OverridesInAnotherUnitThanTheCatalogsReplaceIt) {
    // cdus.json gives the XDU1350 as capacity_kW 1368 and secondary_flow_Lpm 2052; a scenario
    // that overrides them in MW and gpm (units the scenario reference offers) was refused with
    // "'capacity' is given more than once (capacity_kW, capacity_MW)". Now the override is the
    // value: 1.5 MW, and 600 gpm × 3.785411784 L/gal / 60 s = 0.037854 m³/s.
    const CduSpec s = CduSpec::fromCatalog("vertiv_xdu1350",
                                           Json{{"capacity_MW", 1.5}, {"secondary_flow_gpm", 600}});
    EXPECT_DOUBLE_EQ(s.capacity, 1.5e6);
    EXPECT_NEAR(s.secondary_flow, 600 * 3.785411784e-3 / 60.0, 1e-12);
    EXPECT_NEAR(CduSpec::fromCatalog("vertiv_xdu1350").capacity, 1368e3, 1e-9);
}

TEST(Cdu, DifferentialPressureControlHoldsTheHeaderSetpoint) {
    const CduModel m(CduSpec::fromCatalog("vertiv_xdu1350",
                                          Json{{"dp_reset", "none"}, {"dp_setpoint_kPa", 60}}));
    const auto r = settleCdu(m, celsiusToKelvin(45), 1200.0);
    EXPECT_NEAR(r.at("header_dp"), 60e3, 1e-3 * 60e3);
    // The pumps deliver the header Δp plus the CDU's own k·Q² (100 kPa at 2,052 L/min):
    EXPECT_NEAR(r.at("pump_dp"),
                60e3 + 100e3 * std::pow(r.at("secondary_flow") / m.spec().secondary_flow, 2),
                1e-6 * r.at("pump_dp"));
    // and the speed is the one at which the curve gives that rise at that flow:
    // H0·s² + H2·Q² = Δp_pump (H1 = 0) ⇒ s = √((Δp_pump − H2·Q²)/H0).
    const PumpCurve& c = m.pumpCurve();
    const double Q = r.at("secondary_flow");
    EXPECT_NEAR(r.at("pump_speed"), std::sqrt((r.at("pump_dp") - c.H2 * Q * Q) / c.H0), 1e-4);
    EXPECT_NEAR(Q, 8.0 * r.at("rack_flow_1"), 1e-12);
}

TEST(Cdu, ResetOnTemperatureDifferenceCutsIdlePumpPowerBelowThirtyPercent) {
    // ASHRAE 90.1-2019 §6.5.4.2 asks variable-flow pumps to draw at most 30 % of design power
    // at 50 % flow; with the setpoint reset the idle racks (ΔT 2.5 K against the 10 K
    // setpoint) pull the header down to the 10 kPa floor, full load (ΔT 12 K) up to 100 kPa.
    const CduModel m(CduSpec::fromCatalog("vertiv_xdu1350"));
    const auto idle = settleCdu(m, celsiusToKelvin(37.5), 4 * 3600.0);
    const auto full = settleCdu(m, celsiusToKelvin(47), 4 * 3600.0);
    EXPECT_NEAR(idle.at("header_dp"), 10e3, 1e-3 * 10e3);
    EXPECT_NEAR(full.at("header_dp"), 100e3, 1e-3 * 100e3);
    EXPECT_LT(idle.at("pump_power"), 0.30 * full.at("pump_power"));
    EXPECT_GE(idle.at("pump_speed"), m.spec().min_speed - 1e-9);
}

/// One training rack (130 kW to liquid) and seven idle ones (20 kW each) on one CDU, as racks
/// with their own jobs share a CDU in a campus: rack loops, the return mixer and the CDU wired
/// as the site model wires them, settled for 4 h at a 30 °C facility supply. The temperature
/// rises of the hot rack and of the mixed return, and the header Δp.
struct HotRackRun {
    double hot_rise, mixed_rise, header_dp, hot_flow;
};
HotRackRun settleHotRack(const std::string& reset) {
    const CduModel m(CduSpec::fromCatalog("vertiv_xdu1350", Json{{"dp_reset", reset}}));
    const Coolant& pg = m.secondaryCoolant();
    RackLoopParams hot = RackLoopParams::fromCatalog("gb300_nvl72");
    RackLoopParams idle = hot;
    idle.count = 7.0;
    System sys;
    sys.add(std::make_shared<const Cdu>(
        "cdu", m,
        std::vector<RackBranch>{
            RackBranch(hot.branch, FluidState::of(pg, 313.15), 4.0 * hot.flow_design)},
        std::vector<RackManifold::Slot>{{0, 1.0}, {0, 7.0}}));
    sys.add(std::make_shared<const RackLoop>("hot", pg, hot));
    sys.add(std::make_shared<const RackLoop>("idle", pg, idle));
    sys.add(std::make_shared<const Mixer>("mix", pg, std::vector<double>{1.0, 7.0}));
    for (const char* r : {"hot", "idle"}) {
        sys.connect(std::string("cdu.secondary_supply_temp"), std::string(r) + ".supply_temp");
    }
    sys.connect("cdu.rack_flow_1", "hot.flow");
    sys.connect("cdu.rack_flow_2", "idle.flow");
    sys.connect("hot.outlet_temp", "mix.temp_1");
    sys.connect("cdu.rack_flow_1", "mix.flow_1");
    sys.connect("idle.outlet_temp", "mix.temp_2");
    sys.connect("cdu.rack_flow_2", "mix.flow_2");
    sys.connect("mix.temp", "cdu.secondary_return_temp");
    sys.connect("mix.temp_max", "cdu.critical_return_temp");
    sys.setInput("hot.heat_liquid", 130e3);
    sys.setInput("idle.heat_liquid", 20e3);
    sys.setInput("cdu.facility_supply_temp", celsiusToKelvin(30));
    sys.setInput("cdu.supply_temp_setpoint", celsiusToKelvin(35));
    sys.setInput("cdu.dp_setpoint", m.spec().dp_setpoint);
    sys.finalize();
    Recorder rec(sys);
    for (const char* port : {"hot.outlet_temp", "mix.temp", "cdu.secondary_supply_temp",
                             "cdu.header_dp", "cdu.rack_flow_1"}) {
        rec.addOutput(port, "t", port);
    }
    SimulationOptions o;
    o.t_end = 4 * 3600.0;
    o.output_interval = o.t_end;
    Simulator sim(sys, o);
    sim.run(rec);
    auto last = [&](std::size_t i) { return rec.results().channels[i].values.back(); };
    return {last(0) - last(2), last(1) - last(2), last(3), last(4)};
}

TEST(Cdu, CriticalRackResetHoldsTheHottestRackNotTheMix) {
    // Reset on the critical rack (the catalog's choice): the reset integral rests where the
    // mixer's smooth maximum T* + s·ln(Σ w_j·e^((T_j − T*)/s)/Σ w_j) is 10 K above the supply.
    // The idle racks sit ~8 K below the hot one, so their terms are e^(−8/0.3) ≈ 3e-12 and
    // the maximum is T_hot + 0.3·ln(1/8) = T_hot − 0.6238 K: the hot rack rises 10.624 K. Its
    // flow then carries its 130 kW: V̇ = Q/(ρ·c_p·ΔT), ρ the density the loop's volume flows
    // are taken at and c_p = 3.93 kJ/(kg·K) for 25 % propylene glycol at 40 °C (ASHRAE
    // Handbook—Fundamentals 2017, ch. 31, propylene glycol solutions), within 1 %.
    const HotRackRun critical = settleHotRack("critical_rack");
    std::printf("critical_rack: hot rise %.4f K, mixed %.3f K, header %.1f kPa, hot %.1f L/min\n",
                critical.hot_rise, critical.mixed_rise, critical.header_dp / 1e3,
                critical.hot_flow * 60000.0);
    EXPECT_NEAR(critical.hot_rise, 10.0 + 0.3 * std::log(8.0), 0.01);
    const Coolant pg = Coolant::byName("PG25");
    const double by_hand = 130e3 / (pg.referenceDensity() * 3930.0 * critical.hot_rise);
    EXPECT_NEAR(critical.hot_flow, by_hand, 0.01 * by_hand);
    EXPECT_GT(critical.header_dp, 10e3);  // off the floor: the hot rack asks for pressure
    // Reset on the mixed return (as before): 270 kW over 8 racks' worth of equal branches
    // needs less than the floor's flow for a 10 K mix, so the header rests on its 10 kPa floor
    // and every branch draws the same flow (up to the branch law's viscosity term). On equal
    // flows the rises go as the heats: the hot rack rises 130/(270/8) = 3.85× the mix, ~30 K,
    // where its junctions would throttle.
    const HotRackRun mixed = settleHotRack("delta_t");
    std::printf("delta_t: hot rise %.3f K, mixed %.4f K, header %.1f kPa\n", mixed.hot_rise,
                mixed.mixed_rise, mixed.header_dp / 1e3);
    EXPECT_NEAR(mixed.header_dp, 10e3, 1e-3 * 10e3);
    EXPECT_LT(mixed.mixed_rise, 10.0);
    EXPECT_NEAR(mixed.hot_rise, 130.0 / 33.75 * mixed.mixed_rise, 0.02 * mixed.hot_rise);
    EXPECT_GT(mixed.hot_rise, 2.5 * critical.hot_rise);
}

TEST(Cdu, ConstantSpeedHalfSpeedPowerIsAnEighthPlusTheDriveLoss) {
    // On 8 branches of fittings only (Δp ∝ Q², with the CDU's k·Q² a parabola through the
    // origin), half speed moves half the flow and draws (0.5)³ of the curve power plus the
    // drive's fixed loss F (1.5 % of design power): P(0.5) = 0.125·(P(1) − F) + F, within 2 %.
    const CduModel m(
        CduSpec::fromCatalog("vertiv_xdu1350", Json{{"control_variable", "constant_speed"}}));
    RackBranchSpec b;
    b.hose = Duct{0.038, 0.0, 0.0, 1.0};
    b.minor_loss_K = 6.0;
    b.channels = Duct{0.5e-3, 0.0, 0.0, 1.0};
    b.plate_length = 0.06;
    b.valve_kvs = 40.0;
    const Cdu cdu("cdu", m, {RackBranch(b, FluidState::of(m.secondaryCoolant(), 313.15), 0.05)},
                  {RackManifold::Slot{0, 8.0}});
    std::vector<double> x{308.15, 310.0, 0.5, 1.0, 1.0, 100e3};
    std::vector<double> y(cdu.outputs().size());
    auto at = [&](double speed) {
        std::vector<double> u{318.15, 303.15, 0.03, 308.15, speed, 0.0, 100e3, 318.15, 1.0};
        cdu.computeOutputs(0, x, u, y);
        return std::make_pair(y[Cdu::kOutSecondaryFlow], y[Cdu::kOutPumpPower]);
    };
    const auto [Q1, P1] = at(1.0);
    const auto [Q05, P05] = at(0.5);
    const double F = m.spec().drive_fixed_loss * m.design().pump_power;
    EXPECT_NEAR(Q05 / Q1, 0.5, 1e-6);
    EXPECT_NEAR(P05, 0.125 * (P1 - F) + F, 0.02 * P05);
}

TEST(Cdu, CdusSharingAModelAndManifoldComputeAsCdusWithTheirOwn) {
    // Identical CDUs of a campus share one model and one rack manifold (issue 12). A CDU
    // built that way must compute what one with its own copies computes, to the last bit; a
    // manifold built for other pumps is refused.
    const CduModel own = atDesignFlow("vertiv_xdu1350");
    const auto shared_model = std::make_shared<const CduModel>(own);
    const RackLoopParams rp = RackLoopParams::fromCatalog("gb300_nvl72");
    const RackBranch branch(rp.branch, FluidState::of(own.secondaryCoolant(), 313.15),
                            4.0 * rp.flow_design);
    const std::vector<RackManifold::Slot> slots{{0, 3.0}, {0, 5.0}};
    const auto manifold = Cdu::makeManifold(*shared_model, {branch}, slots);
    const Cdu alone("a", own, {branch}, slots);
    const Cdu first("b", shared_model, manifold, Cdu::Control{});
    const Cdu second("c", shared_model, manifold, Cdu::Control{});
    EXPECT_EQ(&first.manifold(), &second.manifold());
    EXPECT_EQ(&first.model(), &second.model());
    const std::vector<double> x{308.15, 310.0, 0.7, 0.9, 0.9, 100e3};
    for (const double valve : {1.0, 0.6}) {
        const std::vector<double> u{318.15, 303.15, 0.03,  308.15, 1.0,
                                    0.0,    100e3,  318.4, 1.0,    valve};
        const std::string where = fmt::format("valve {}", valve);
        testing::expectComputesAlike(alone, first, x, u, where);
        testing::expectComputesAlike(first, second, x, u, where);
    }
    const auto other = std::make_shared<const CduModel>(atDesignFlow("google_deschutes"));
    EXPECT_THROW(Cdu("d", other, manifold, Cdu::Control{}), ModelError);
    EXPECT_THROW(Cdu("e", nullptr, manifold, Cdu::Control{}), ModelError);
    EXPECT_THROW(Cdu("f", shared_model, nullptr, Cdu::Control{}), ModelError);
}

TEST(Cdu, AnotherSecondaryCoolantReRatesTheHeatExchanger) {
    // The same CDU rated on PG25 running water: water's film conductance at equal mass flow is
    // higher (k ×1.29, μ ×0.47, Pr ×0.38 at 40 °C: ×1.72 on the secondary hA), so at the same
    // flows and temperatures the approach is smaller; PG30 the other way.
    const CduSpec spec = CduSpec::fromCatalog("vertiv_xdu1350");
    const CduModel pg25(spec), water(spec, "water"), pg30(spec, "PG30");
    EXPECT_NEAR(water.secondaryFilmFactor(), 1.72, 0.05 * 1.72);
    EXPECT_LT(pg30.secondaryFilmFactor(), 1.0);
    const CduDesignPoint& d = pg25.design();
    auto approach = [&](const CduModel& m) {
        return m.steadyState(d.secondary_return_temp, d.facility_supply_temp, spec.facility_flow)
            .approach;
    };
    EXPECT_NEAR(approach(pg25), 4.0, 1e-6 * 4.0);  // its rating, 1e-6 relative
    EXPECT_LT(approach(water), approach(pg25) - 0.3);
    EXPECT_GT(approach(pg30), approach(pg25));
}

TEST(Cdu, AGlycolFacilityLoopReRatesTheFacilitySideAndWidensTheApproach) {
    // The CDU is rated with water on its facility side. PG40 there: by the plate correlation at
    // equal mass flow, at 40 °C from the coolant tables, k 0.415/0.6305, μ 2.21/0.6527 mPa·s,
    // Pr 20.07/4.327: 0.658 × 0.3773 × 1.667 = 0.414 of water's facility-side film (at the
    // design's mean facility temperature, ~33 °C for this unit, a little lower still).
    const CduSpec spec = CduSpec::fromCatalog("vertiv_xdu1350");
    const CduModel water(spec), pg40(spec, "", "PG40");
    EXPECT_EQ(water.facilityFilmFactor(), 1.0);
    EXPECT_EQ(CduModel(spec, "", "water").facilityFilmFactor(), 1.0);
    EXPECT_GT(pg40.facilityFilmFactor(), 0.36);
    EXPECT_LT(pg40.facilityFilmFactor(), 0.414);
    EXPECT_EQ(pg40.facilityCoolant().name(), "PG40");
    // The design point is the rating's (water) whatever runs in the unit.
    EXPECT_EQ(pg40.design().UA, water.design().UA);
    // At the rated flows and temperatures the glycol moves less heat per kelvin on a worse
    // film: the approach widens (the unit holds its TCS setpoint only with colder facility
    // water), and its facility water leaves warmer for the same heat per volume.
    const CduDesignPoint& d = water.design();
    auto at = [&](const CduModel& m) {
        return m.steadyState(d.secondary_return_temp, d.facility_supply_temp, spec.facility_flow);
    };
    EXPECT_NEAR(at(water).approach, spec.approach, 1e-6 * spec.approach);
    EXPECT_GT(at(pg40).approach, spec.approach + 0.3);
}

TEST(Cdu, StructureLetsRacksFeedThroughAndNoNanOverTheRange) {
    const CduModel m(CduSpec::fromCatalog("google_deschutes"));
    const auto cdu_ptr = makeCdu(m, 14);
    const Cdu& cdu = *cdu_ptr;
    for (std::size_t o = 0; o < cdu.outputs().size(); ++o) {
        EXPECT_FALSE(cdu.outputDependsOnInput(o, Cdu::kReturnTemp)) << cdu.outputs()[o].name;
    }
    std::vector<double> y(cdu.outputs().size()), dx(cdu.states().size()),
        dx_given(cdu.states().size());
    for (double T_ret : {celsiusToKelvin(20), celsiusToKelvin(45), celsiusToKelvin(70)}) {
        for (double T_fs : {celsiusToKelvin(5), celsiusToKelvin(30), celsiusToKelvin(45)}) {
            for (double avail : {0.0, m.spec().facility_flow}) {
                for (double speed : {0.0, 0.5, 1.2}) {
                    for (double failed : {0.0, 1.0, 2.0}) {
                        for (double valve : {0.0, 0.2, 1.0}) {
                            std::vector<double> x{
                                celsiusToKelvin(35), celsiusToKelvin(38), 0.5, speed, speed, 50e3};
                            std::vector<double> u{T_ret, T_fs,   avail, celsiusToKelvin(35),
                                                  1.0,   failed, 100e3, T_ret,
                                                  valve};
                            cdu.computeOutputs(0, x, u, y);
                            cdu.computeDerivatives(0, x, u, dx);
                            for (double v : y) ASSERT_TRUE(std::isfinite(v));
                            for (double v : dx) ASSERT_TRUE(std::isfinite(v));
                            // The System's path reads the hydraulics from the outputs; it
                            // must give the same numbers to the bit.
                            cdu.computeDerivativesGivenOutputs(0, x, u, y, dx_given);
                            for (std::size_t i = 0; i < dx.size(); ++i) {
                                ASSERT_EQ(dx_given[i], dx[i]) << cdu.states()[i].name;
                            }
                        }
                    }
                }
            }
        }
    }
    std::vector<double> x{308.0, 310.0, 0.5, 0.5, 0.5, 50e3};
    EXPECT_THROW(cdu.computeOutputs(
                     0, x, std::vector<double>{318, 303, -1.0, 308, 1, 0, 100e3, 318, 1.0}, y),
                 InputError);
    EXPECT_THROW(cdu.computeOutputs(
                     0, x, std::vector<double>{318, 303, 0.03, 308, 2.0, 0, 100e3, 318, 1.0}, y),
                 InputError);
    EXPECT_THROW(cdu.computeOutputs(
                     0, x, std::vector<double>{318, 303, 0.03, 308, 1.0, 0, 100e3, 318, 1.5}, y),
                 InputError);
    // A temperature outside the coolant's table is a ModelError (a state the run reached; the
    // simulation reports it with its time), the port checks above InputErrors.
    EXPECT_THROW(cdu.computeDerivatives(
                     0, x, std::vector<double>{400, 303, 0.03, 308, 1, 0, 100e3, 400, 1.0}, dx),
                 ModelError);
    EXPECT_THROW(CduSpec::fromCatalog("vertiv_xdu9999"), InputError);
    // A record asking for the impossible (approach too small for its flows).
    EXPECT_THROW(CduModel(CduSpec::fromCatalog(
                     "vertiv_xdu1350", Json{{"approach_K", 0.3}, {"facility_flow_Lpm", 500}})),
                 InputError);
}

}  // namespace
}  // namespace dctwin::thermal
