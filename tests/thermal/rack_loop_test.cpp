// Rack loop (thermal/rack_loop.h): Q = ṁ·c_p·ΔT at steady state, the step response through
// the core Simulator + CVODE (coolant node and the GPU junction node against hand solutions),
// energy conservation, the resistance law and the feedthrough structure.
#include "thermal/rack_loop.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <thread>

#include "core/errors.h"
#include "core/simulator.h"
#include "core/system.h"
#include "core/units.h"
#include "test_helpers.h"

namespace dctwin::thermal {
namespace {

using testing::constantCoolant;

/// The catalog rack branch with so many cold-plate channels that the film resistance is
/// negligible: R = R_design at any flow, for the tests of the node dynamics.
RackBranchSpec negligibleFilm() {
    RackBranchSpec b = RackLoopParams::fromCatalog("gb300_nvl72").branch;
    b.channels.count = 1e12;
    return b;
}

struct StepRun {
    SampleVector t, outlet;
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
    // Plate Q·R above the fluid; the junction q_gpu·R_jp above its plate, q_gpu the design
    // heat of one GPU (83 % of the rack's liquid heat over 72 GPUs).
    const double T_p = T_f + Q * rack.resistance(V);
    const double q_gpu = 0.83 * Q / 72.0;
    const double T_j = T_p + q_gpu * 0.012;
    std::vector<double> x{T_p, T_f, T_j}, u{Q, T_sup, V, q_gpu}, dx(3), y(6);
    rack.computeDerivatives(0, x, u, dx);
    EXPECT_NEAR(dx[0], 0.0, 1e-12);
    EXPECT_NEAR(dx[1], 0.0, 1e-12);
    EXPECT_NEAR(dx[2], 0.0, 1e-12);
    rack.computeOutputs(0, x, u, y);
    // Energy: what the stream carries equals the heat put in (1e-9 relative).
    EXPECT_NEAR(y[RackLoop::kHeatToCoolant], Q, 1e-9 * Q);
    // Q = ṁ·c_p·ΔT with c_p at the mean temperature: 121.5 kW at 200 L/min of PG25 is ~9 K
    // (domain-facts B2: ΔT ≈ 10 K per rack).
    const double cp_mean = pg.specificHeat(0.5 * (T_sup + T_f));
    EXPECT_NEAR(T_f - T_sup, Q / (mdot * cp_mean), 1e-4);
    EXPECT_NEAR(T_f - T_sup, 9.1, 0.3);
    // GPU junction ~31 K above the coolant at 1,400 W per GPU (B3 R_th ~0.022 K/W to the
    // bulk), of which 0.012 K/W junction to plate (rack_loops.json junction_resistance).
    EXPECT_NEAR(T_j - T_f, 0.022 * 1400.0, 0.5);
    EXPECT_NEAR(T_j - T_p, 0.012 * 1400.0, 0.1);
    EXPECT_EQ(y[RackLoop::kOutletTemp], T_f);
    EXPECT_EQ(y[RackLoop::kJunctionTemp], T_j);
    EXPECT_EQ(y[RackLoop::kPlateTemp], T_p);
}

TEST(RackLoop, StepResponseHasTimeConstantCOverMdotCp) {
    const Coolant c = constantCoolant();  // ρ = 1000, c_p = 4000: exact hand numbers
    RackLoopParams p;
    p.branch = negligibleFilm();
    p.C_metal = 30e3;
    p.fluid_volume = 0.020;
    p.flow_design = 200.0 / 60000.0;
    p.R_design = 1e-8;   // metal and fluid tightly coupled: one node of C = C_metal + M·c_p
    p.C_junction = 1.0;  // 72 GPUs × 1 J/K: with no GPU heat the junctions follow the plate
    p.initial_temp = units::celsiusToKelvin(35);
    const double mcp = 1000.0 * p.flow_design * 4000.0;
    const double C_j = p.gpus * p.C_junction;  // 72 J/K
    const double tau =
        (p.C_metal + C_j + 1000.0 * p.fluid_volume * 4000.0) / mcp;  // 110,072/13,333
    EXPECT_NEAR(tau, 8.2554, 1e-4);
    const double Q = 100e3, dT_inf = Q / mcp;
    const StepRun r = stepResponse(c, p, Q, p.initial_temp, 10 * tau, tau / 100);
    // At t = τ the first-order response has reached 1 − e^{−1} of its final rise.
    const double at_tau = r.outlet[100] - p.initial_temp;
    EXPECT_NEAR(r.t[100], tau, 1e-9);
    EXPECT_NEAR(at_tau / dT_inf, 1.0 - std::exp(-1.0), 2e-3);
    EXPECT_NEAR(r.outlet.back() - p.initial_temp, dT_inf * (1 - std::exp(-10.0)), 1e-3);

    // With a realistic resistance the response is second order; its mean delay (area above
    // the normalised step response) is exactly E_stored/Q = (C_metal + C_j + C_fluid)/(ṁ·c_p) +
    // (C_metal + C_j)·R for a linear system from rest (the junctions carry no heat of their
    // own here, so they sit at the plate temperature).
    p.R_design = 2.54e-4;
    const double t_mean = tau + (p.C_metal + C_j) * p.R_design;
    const StepRun s = stepResponse(c, p, Q, p.initial_temp, 25 * t_mean, t_mean / 400);
    double area = 0.0;
    for (std::size_t i = 1; i < s.t.size(); ++i) {
        const double g0 = 1 - (s.outlet[i - 1] - p.initial_temp) / dT_inf;
        const double g1 = 1 - (s.outlet[i] - p.initial_temp) / dT_inf;
        area += 0.5 * (g0 + g1) * (s.t[i] - s.t[i - 1]);
    }
    EXPECT_NEAR(area, t_mean, 0.01 * t_mean);
}

/// The rack's GPUs given q per GPU at t = 0 (and no other heat): junction, plate and outlet.
struct JunctionRun {
    SampleVector t, junction, plate, outlet, heat_out;
};
JunctionRun junctionStep(const Coolant& c, const RackLoopParams& p, double q, double T_sup,
                         double t_end, double dt) {
    System sys;
    sys.add(std::make_shared<const RackLoop>("rack", c, p));
    sys.setInput("rack.heat_liquid", p.gpus * q);
    sys.setInput("rack.gpu_heat", q);
    sys.setInput("rack.supply_temp", T_sup);
    sys.setInput("rack.flow", p.flow_design);
    sys.finalize();
    Recorder rec(sys);
    rec.addOutput("rack.junction_temp", "rack", "junction_temp");
    rec.addOutput("rack.plate_temp", "rack", "plate_temp");
    rec.addOutput("rack.outlet_temp", "rack", "outlet_temp");
    rec.addOutput("rack.heat_to_coolant", "rack", "heat_to_coolant");
    SimulationOptions o;
    o.t_end = t_end;
    o.output_interval = dt;
    o.solver.rel_tol = 1e-9;
    o.solver.abs_tol_factor = 1e-10;
    Simulator sim(sys, o);
    sim.run(rec);
    const auto& ch = rec.results().channels;
    return {rec.results().time, ch[0].values, ch[1].values, ch[2].values, ch[3].values};
}

/// GB300 rack-loop values (rack_loops.json) on the constant-property coolant, with a coolant
/// volume so small (1 mL) that the fluid node settles in ~0.2 ms: the plate then sees the
/// supply through R_design + 1/(ṁ·c_p), and junction + plate are a two-node network.
RackLoopParams junctionTestParams() {
    RackLoopParams p;
    p.branch = negligibleFilm();
    p.C_metal = 30e3;
    p.fluid_volume = 1e-6;
    p.flow_design = 200.0 / 60000.0;
    p.gpus = 72;
    p.C_junction = 4.0;
    p.R_junction = 0.012;
    p.R_design = (0.022 - 0.012) * 0.83 / 72.0;
    p.initial_temp = units::celsiusToKelvin(35);
    return p;
}

TEST(RackLoop, JunctionStepRisesWithItsOwnTimeConstantThenWithThePlates) {
    const Coolant c = constantCoolant();  // ρ = 1000, c_p = 4000
    const RackLoopParams p = junctionTestParams();
    const double q = 1400.0;  // [W] per GPU (B300 TGP, domain-facts A2)

    // Hand solution, per GPU. Node 1 the junction (C1, R1 to the plate), node 2 its share of
    // the plate (C2 = C_metal/N), R2 = N·(R_design + 1/(ṁ·c_p)) from plate to supply:
    //   C1·θ1' = q − (θ1 − θ2)/R1,   C2·θ2' = (θ1 − θ2)/R1 − θ2/R2,   θ(0) = 0.
    // θ1(t) = θ1∞ + A·e^{λa·t} + B·e^{λb·t}, θ1∞ = q·(R1 + R2), with λ the eigenvalues of
    // [[−1/(R1C1), 1/(R1C1)], [1/(R1C2), −(1/R1 + 1/R2)/C2]] and A + B = −θ1∞,
    // λa·A + λb·B = θ1'(0) = q/C1.
    const double N = p.gpus, mcp = 1000.0 * p.flow_design * 4000.0;
    const double C1 = p.C_junction, R1 = p.R_junction, C2 = p.C_metal / N;
    const double R2 = N * (p.R_design + 1.0 / mcp);
    const double tr = -1.0 / (R1 * C1) - (1.0 / R1 + 1.0 / R2) / C2;
    const double det = 1.0 / (R1 * R2 * C1 * C2);
    const double disc = std::sqrt(tr * tr - 4.0 * det);
    const double la = 0.5 * (tr - disc), lb = 0.5 * (tr + disc);  // fast, slow
    const double th_inf = q * (R1 + R2);
    const double A = (q / C1 + lb * th_inf) / (la - lb), B = -th_inf - A;
    auto hand = [&](double t) { return th_inf + A * std::exp(la * t) + B * std::exp(lb * t); };
    // The fast time constant is ~C1·R1 = 48 ms ("tens of ms"), the slow one the plate's,
    // ~C2·(R1 + R2) ≈ 11 s less the junction's share: seconds.
    const double tau_fast = -1.0 / la, tau_slow = -1.0 / lb;
    EXPECT_NEAR(tau_fast, 0.0475, 0.001);
    EXPECT_GT(tau_slow, 2.0);
    EXPECT_LT(tau_slow, 20.0);

    const double dt = 1e-3;
    const JunctionRun r = junctionStep(c, p, q, p.initial_temp, 60.0, dt);
    auto at = [&](double t) { return static_cast<std::size_t>(std::lround(t / dt)); };
    for (double t : {0.01, 0.048, 0.1, 0.2, 0.5, 1.0, 3.0, 6.0, 20.0, 60.0}) {
        const double rise = r.junction[at(t)] - p.initial_temp;
        EXPECT_NEAR(rise, hand(t), 0.02 * hand(t)) << "t = " << t << " s";
    }
    // After a few junction time constants the junction stands q·R1 = 16.8 K above its plate
    // (the plate's own rise continues with the slow time constant).
    EXPECT_NEAR(r.junction[at(0.3)] - r.plate[at(0.3)], q * R1 * (1 - std::exp(-0.3 / tau_fast)),
                0.02 * q * R1);
    // Within one fast time constant the junction covers ~63 % of q·R1 while the plate has
    // hardly moved: the junction has a time constant of its own.
    EXPECT_LT(r.plate[at(tau_fast)] - p.initial_temp, 0.05 * q * R1);
}

TEST(RackLoop, JunctionStepConservesEnergy) {
    // Every joule the GPUs give is either stored (junctions, plates, coolant) or carried away
    // by the stream: E(t) − E(0) = Q·t − ∫ heat_to_coolant dt.
    const Coolant c = constantCoolant();
    RackLoopParams p = junctionTestParams();
    p.fluid_volume = 0.020;  // the catalog's coolant volume this time
    const RackLoop rack("rack", c, p);
    const double q = 1400.0, Q = p.gpus * q, dt = 1e-3;
    const JunctionRun r = junctionStep(c, p, q, p.initial_temp, 30.0, dt);
    auto stored = [&](std::size_t i) {
        return rack.storedEnergy(std::vector<double>{r.plate[i], r.outlet[i], r.junction[i]});
    };
    double out = 0.0;
    for (std::size_t i = 1; i < r.t.size(); ++i) {
        out += 0.5 * (r.heat_out[i - 1] + r.heat_out[i]) * (r.t[i] - r.t[i - 1]);
    }
    const double in = Q * r.t.back();
    const double dE = stored(r.t.size() - 1) - stored(0);
    EXPECT_NEAR(dE, in - out, 1e-5 * in);
    EXPECT_GT(dE, 0.3 * in);  // most of the first 30 s heats the masses
}

TEST(RackLoop, SquareWaveResponseOfTheJunctionByHand) {
    // τ ≪ T: the junction follows the square wave, peak to peak R·ΔP, peak R·ΔP·(1 − D) above
    // the response to the mean. 0.012 K/W × 600 W = 7.2 K; D = 0.7: 2.16 K.
    EXPECT_NEAR(junctionSquareWaveSwing(0.012, 0.048, 600.0, 2.0, 0.5), 7.2, 1e-6);
    EXPECT_NEAR(junctionSquareWaveExcess(0.012, 0.048, 600.0, 2.0, 0.7), 0.012 * 600 * 0.3, 1e-6);
    // τ = T/2 and D = 0.5, by hand: a = b = e^{−D·T/τ} = e^{−1} = 0.367879; swing factor
    // (1 − a)/(1 + a) = 0.462117; excess factor (1 − a)/(1 − a²) − 0.5 = 1/(1 + a) − 0.5 =
    // 0.231059.
    EXPECT_NEAR(junctionSquareWaveSwing(1.0, 1.0, 1.0, 2.0, 0.5), 0.462117, 1e-6);
    EXPECT_NEAR(junctionSquareWaveExcess(1.0, 1.0, 1.0, 2.0, 0.5), 0.231059, 1e-6);
    // τ ≫ T: the junction cannot follow; both → 0 (as T/(4τ) for D = 0.5).
    EXPECT_NEAR(junctionSquareWaveSwing(1.0, 1000.0, 1.0, 2.0, 0.5), 2.0 / 4000.0, 1e-6);
}

TEST(RackLoop, FilmResistanceFollowsTheChannelCorrelationAndTheCoolant) {
    const Coolant pg = Coolant::byName("PG25");
    RackLoopParams p = RackLoopParams::fromCatalog("gb300_nvl72");
    p.count = 4;
    const RackLoop rack("racks", pg, p);
    // At its rating (PG25, design flow) the resistance is the catalog's.
    EXPECT_NEAR(rack.resistance(p.flow_design), p.R_design, 1e-12 * p.R_design);
    // By hand, PG25 at 40 °C (ρ 1014.3, μ 1.387e-3, k 0.4875, Pr 11.265) in 24,000 channels
    // of 0.5 mm: 200 L/min gives v = 0.7074 m/s, Re = 258.6, Gz = Re·Pr·D/L = 24.28,
    // Nu = 3.66 + 0.0668·Gz/(1 + 0.04·Gz^(2/3)) = 4.875; h = Nu·k/D = 4,753 W/(m²·K); area
    // A = 24,000·π·0.5 mm·60 mm = 2.262 m²; film 1/(h·A) = 9.30e-5 K/W of the 1.153e-4.
    const double R_film = 1.0 / (4753.0 * 24000.0 * M_PI * 0.5e-3 * 0.06);
    EXPECT_NEAR(rack.conductionResistance(), p.R_design - R_film, 0.01 * R_film);
    // Twice the flow: Gz = 48.56, Nu = 5.777: the film part falls by 4.875/5.774 (laminar
    // channels gain little from flow, unlike a turbulent Re^0.8).
    EXPECT_NEAR(rack.resistance(2 * p.flow_design),
                rack.conductionResistance() + R_film * 4.875 / 5.777, 0.005 * p.R_design);
    // Against a published curve (domain-facts B3: OCP "OAI System Liquid Cooling
    // Guidelines", Fig. 13, a 1 kW OAM cold plate in PG25 at 30 °C inlet): 0.0183, 0.0176,
    // 0.0170, 0.0166, 0.0157 K/W at 1.5, 2.0, 2.5, 3.0, 3.5 L/min per plate. 1.5 L/min per kW
    // is OCP's design flow (domain-facts B2) as the catalog's 200 L/min is this rack's, so
    // the curve's ratios to its 1.5 L/min point are compared with the rack's at the same
    // flow ratios: 1.333, 1.667, 2, 2.333 × design give 0.950, 0.909, 0.874, 0.844 against
    // OCP's 0.962, 0.929, 0.907, 0.858 (−1.3, −2.2, −3.6, −1.6 %). Not the same plate, and
    // OCP's resistance is to the coolant inlet while the rack's is to its bulk, so the shape
    // only: band 5 %. A turbulent-like film (∝ flow^0.8: 0.66 at twice the flow) or a
    // flow-blind one (1.00) would trip it.
    const double R_d = rack.resistance(p.flow_design);
    for (const auto& [lpm, ocp] :
         {std::pair{2.0, 0.0176}, {2.5, 0.0170}, {3.0, 0.0166}, {3.5, 0.0157}}) {
        const double model = rack.resistance(lpm / 1.5 * p.flow_design) / R_d;
        EXPECT_NEAR(model, ocp / 0.0183, 0.05 * ocp / 0.0183) << lpm << " L/min per plate";
    }
    // No flow: fully developed laminar Nu = 3.66 keeps R finite.
    EXPECT_NEAR(rack.resistance(0.0), rack.conductionResistance() + R_film * 4.875 / 3.66,
                0.005 * p.R_design);
    // Water in the same plates at the same flow (k 0.6305, μ 0.6527e-3, Pr 4.327 at 40 °C):
    // Re 537.7, Gz 19.39, Nu 4.665, h = 4.665·0.6305/0.5e-3 = 5,882: film 7.52e-5 K/W, so the
    // rack's plate sits 121.5 kW·(9.30 − 7.52)e-5 = 2.2 K nearer the coolant.
    const RackLoop with_water("racks", Coolant::byName("water"), p);
    EXPECT_NEAR(with_water.resistance(p.flow_design),
                rack.conductionResistance() + 1.0 / (5882.0 * 2.262), 0.01 * p.R_design);
    std::vector<double> x{320.0, 318.0, 330.0}, u{1e5, 308.15, p.flow_design, 1e3}, y(6);
    rack.computeOutputs(0, x, u, y);
    EXPECT_NEAR(y[RackLoop::kHeatTotal], 4 * y[RackLoop::kHeatToCoolant], 1e-9);
    EXPECT_NEAR(y[RackLoop::kFlowTotal], 4 * p.flow_design, 1e-15);
}

TEST(RackLoop, RememberedResistanceBelongsToItsOwnPlatesAndFlow) {
    // RackLoop::resistance reuses the last result on the thread when the flow and all the
    // plate and coolant parameters match. Racks that differ in one parameter (channel count)
    // or in coolant, and one rack at another flow, called alternately, must each get what a
    // thread that never saw the others computes.
    RackLoopParams p = RackLoopParams::fromCatalog("gb300_nvl72");
    RackLoopParams fewer = p;
    fewer.branch.channels.count = 0.8 * p.branch.channels.count;
    const RackLoop a("a", Coolant::byName("PG25"), p), b("b", Coolant::byName("PG25"), fewer),
        w("w", Coolant::byName("water"), p), a2("a2", Coolant::byName("PG25"), p);
    const double Q = 0.9 * p.flow_design;
    auto fresh = [](const RackLoop& r, double flow) {
        double R = 0.0;
        std::thread([&] { R = r.resistance(flow); }).join();  // a new thread: an empty memo
        return R;
    };
    const double Ra = fresh(a, Q), Rb = fresh(b, Q), Rw = fresh(w, Q), Ra_more = fresh(a, 1.1 * Q);
    for (int round = 0; round < 2; ++round) {
        EXPECT_EQ(a.resistance(Q), Ra);
        EXPECT_EQ(b.resistance(Q), Rb);
        EXPECT_EQ(w.resistance(Q), Rw);
        EXPECT_EQ(a2.resistance(Q), Ra);  // same parameters: the remembered value is right
        EXPECT_EQ(a.resistance(1.1 * Q), Ra_more);
    }
    // The four values are distinct, so the checks above can tell them apart: fewer channels
    // give a higher resistance, water (higher k) a lower one, more flow a lower one.
    EXPECT_GT(Rb, Ra);
    EXPECT_LT(Rw, Ra);
    EXPECT_LT(Ra_more, Ra);
}

TEST(RackLoop, RacksOfASharedKindComputeWhatAPrivateCopyComputes) {
    // A campus model builds one Kind per rack kind and hands it to every rack of that kind
    // (the parameters are read on every evaluation; one copy each made the model memory-
    // bound). Outputs and derivatives must be those of a rack built with its own parameters,
    // bit for bit, and a kind that fails its checks names the rack it was built for.
    RackLoopParams p = RackLoopParams::fromCatalog("gb300_nvl72");
    p.count = 3;
    const Coolant c = Coolant::byName("PG25");
    const auto kind = RackLoop::makeKind(c, p, "rl_a");
    const RackLoop own("own", c, p), a("a", kind), b("b", kind);
    const std::vector<double> x = {units::celsiusToKelvin(52), units::celsiusToKelvin(48),
                                   units::celsiusToKelvin(71)};
    const std::vector<double> u = {118e3, units::celsiusToKelvin(40), 0.9 * p.flow_design, 1350.0};
    testing::expectComputesAlike(own, a, x, u, "rack a");
    testing::expectComputesAlike(own, b, x, u, "rack b");
    std::vector<double> y1(6);
    a.computeOutputs(0.0, x, u, y1);
    EXPECT_EQ(a.params().count, 3.0);
    EXPECT_EQ(&a.params(), &b.params());  // one copy of the parameters
    // heat_to_coolant_total is count × the per-rack stream.
    EXPECT_EQ(y1[RackLoop::kHeatTotal], 3.0 * y1[RackLoop::kHeatToCoolant]);
    RackLoopParams bad = p;
    bad.C_metal = -1.0;
    try {
        RackLoop::makeKind(c, bad, "rl_g7_gb300");
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("rl_g7_gb300"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("C_metal"), std::string::npos) << e.what();
    }
    EXPECT_THROW(RackLoop("null", std::shared_ptr<const RackLoop::Kind>{}), ModelError);
}

TEST(RackLoop, JunctionTemperatureHasNoFeedthroughFromHeat) {
    // The power layer computes heat from the junction temperature (leakage): wiring
    // junction_temp → a leakage model → heat_liquid and gpu_heat must not be an algebraic loop.
    class Leakage : public Component {
    public:
        Leakage() : Component("leakage") {
            addInput({"junction_temp", "K", 350.0, 350.0});
            addOutput({"heat", "W", 1e5, 0.0});
            addOutput({"gpu_heat", "W", 1e3, 0.0});
        }
        void computeOutputs(double, std::span<const double>, std::span<const double> u,
                            std::span<double> y) const override {
            y[0] = 1e5 * (1.0 + 0.002 * (u[0] - 330.0));
            y[1] = 0.83 * y[0] / 72.0;
        }
    };
    System sys;
    const auto& rack = sys.add(std::make_shared<const RackLoop>(
        "rack", Coolant::byName("PG25"), RackLoopParams::fromCatalog("gb300_nvl72")));
    sys.add(std::make_shared<const Leakage>());
    sys.connect("rack.junction_temp", "leakage.junction_temp");
    sys.connect("leakage.heat", "rack.heat_liquid");
    sys.connect("leakage.gpu_heat", "rack.gpu_heat");
    EXPECT_NO_THROW(sys.finalize());
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_FALSE(rack.outputDependsOnInput(RackLoop::kJunctionTemp, i));
        EXPECT_FALSE(rack.outputDependsOnInput(RackLoop::kPlateTemp, i));
        EXPECT_FALSE(rack.outputDependsOnInput(RackLoop::kOutletTemp, i));
        EXPECT_FALSE(rack.outputDependsOnInput(RackLoop::kHeatToCoolant, RackLoop::kHeat));
        EXPECT_FALSE(rack.outputDependsOnInput(RackLoop::kHeatToCoolant, RackLoop::kGpuHeat));
    }
}

TEST(RackLoop, NoNanOverTheInputRangeAndClearErrorsOutside) {
    const Coolant pg = Coolant::byName("PG25");
    const RackLoopParams p = RackLoopParams::fromCatalog("gb300_nvl72");
    const RackLoop rack("rack", pg, p);
    std::vector<double> dx(3), y(6);
    for (double Q : {0.0, 5e4, 1.5e5}) {
        for (double T : {283.15, 308.15, 333.15}) {
            for (double V : {0.0, 0.5 * p.flow_design, 1.5 * p.flow_design}) {
                std::vector<double> x{T + 30, T + 5, T + 45}, u{Q, T, V, 0.83 * Q / 72.0};
                rack.computeDerivatives(0, x, u, dx);
                rack.computeOutputs(0, x, u, y);
                for (double v : dx) ASSERT_TRUE(std::isfinite(v));
                for (double v : y) ASSERT_TRUE(std::isfinite(v));
            }
        }
    }
    std::vector<double> x{330.0, 320.0, 345.0};
    EXPECT_THROW(rack.computeDerivatives(0, x, std::vector<double>{-1.0, 308.0, 0.003, 0.0}, dx),
                 InputError);
    EXPECT_THROW(rack.computeDerivatives(0, x, std::vector<double>{1e5, 308.0, 0.003, -1.0}, dx),
                 InputError);
    EXPECT_THROW(rack.computeOutputs(0, x, std::vector<double>{1e5, 308.0, -0.001, 0.0}, y),
                 InputError);
    try {
        rack.computeOutputs(0, x, std::vector<double>{1e5, 400.0, 0.003, 0.0}, y);
        FAIL();
    } catch (const ModelError& e) {  // outside the coolant's table: as the coolant says it
        EXPECT_NE(std::string(e.what()).find("supply_temp"), std::string::npos) << e.what();
    }
    EXPECT_THROW(RackLoopParams::fromCatalog("gb400"), InputError);
}

}  // namespace
}  // namespace dctwin::thermal
