// Air-side coils, pipes, mixers and water/energy meters (thermal/air_side.h, pipe.h, water.h):
// energy conservation, transport delay, hand calculations.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <memory>
#include <vector>

#include "core/errors.h"
#include "core/simulator.h"
#include "core/system.h"
#include "core/units.h"
#include "test_components.h"
#include "test_helpers.h"
#include "thermal/air_side.h"
#include "thermal/pipe.h"
#include "thermal/water.h"

namespace dctwin::thermal {
namespace {

using testing::constantCoolant;
using units::celsiusToKelvin;

TEST(AirSide, RearDoorRatingEnergyAndWaterRequirement) {
    const AirCoil door(AirCoilSpec::fromCatalog("passive_rear_door_20kW"), 1);
    const auto& s = door.spec();
    // At its rating the door takes the whole 20 kW: the room sees no heat (room-neutral).
    const AirCoil::Outputs r =
        door.evaluate(20e3, s.rating_water_temp, s.water_flow, s.rating_room_temp);
    EXPECT_NEAR(r.heat_to_water, 20e3, 1e-6 * 20e3);
    EXPECT_NEAR(r.heat_to_room, 0.0, 1e-6 * 20e3);
    EXPECT_NEAR(r.required_water_temp, s.rating_water_temp, 1e-6);
    // A GB300 rack puts ~13.5 kW on air (A4, B5): with warmer water some stays in the room.
    for (double Tw : {celsiusToKelvin(16), celsiusToKelvin(22), celsiusToKelvin(26)}) {
        const AirCoil::Outputs o = door.evaluate(13.5e3, Tw, s.water_flow, celsiusToKelvin(25));
        // Energy: air heat + fan work = water heat + room heat (1e-9 relative).
        EXPECT_NEAR(o.heat_to_water + o.heat_to_room, 13.5e3 + o.fan_power, 1e-9 * 13.5e3);
        // Water return from the enthalpy balance.
        const Coolant& w = door.coolant();
        EXPECT_NEAR(w.massFlow(s.water_flow) * (w.enthalpy(o.water_return_temp) - w.enthalpy(Tw)),
                    o.heat_to_water, 1e-9 * o.heat_to_water);
        // Water at the required temperature makes the door room-neutral.
        const AirCoil::Outputs n =
            door.evaluate(13.5e3, o.required_water_temp, s.water_flow, celsiusToKelvin(25));
        EXPECT_NEAR(n.heat_to_room, 0.0, 1e-6 * 13.5e3);
    }
    EXPECT_GT(
        door.evaluate(13.5e3, celsiusToKelvin(26), s.water_flow, celsiusToKelvin(25)).heat_to_room,
        0.0);
    // Off design by hand (air_side.json passive_rear_door_20kW: 20 kW, 1.12 m³/s, 60 L/min,
    // 25 °C room, 18 °C water). Air at 25 °C, ρ = 101,325/(287.04 × 298.15) = 1.1840 kg/m³:
    // ṁ·c_p = 1.12 × 1.1840 × 1,006 = 1,334.0 W/K, below the water's ~4,180 W/K, so the air
    // is C_min. Rating: air enters at 25 + 20,000/1,334.0 = 39.99 °C, 21.99 K above the
    // water: ε·C_min = 20,000/21.99 = 909.4 W/K, fixed at these flows (UA depends on the
    // flows only; water's c_p at 18 against 22 °C moves C_r by 0.07 %). The rack's 13.5 kW
    // into a 25 °C room: air in at 25 + 13,500/1,334.0 = 35.12 °C; room-neutral water
    // 35.12 − 13,500/909.4 = 20.28 °C; at 22 °C water, 909.4 × (35.12 − 22) = 11.93 kW to
    // water and 1.57 kW left in the room. Bands 0.2 % of the heat (27 W) and 0.03 K: the
    // hand figures carry 4 digits; a 1 % change of the door's air flow, density or rating
    // moves the heat by ≥ 50 W.
    const AirCoil::Outputs h22 =
        door.evaluate(13.5e3, celsiusToKelvin(22), s.water_flow, celsiusToKelvin(25));
    EXPECT_NEAR(h22.air_inlet_temp, celsiusToKelvin(35.12), 0.01);
    EXPECT_NEAR(h22.required_water_temp, celsiusToKelvin(20.28), 0.03);
    EXPECT_NEAR(h22.heat_to_water, 11.93e3, 0.002 * 13.5e3);
    EXPECT_NEAR(h22.heat_to_room, 1.57e3, 0.002 * 13.5e3);
}

TEST(AirSide, CrahFanLawAndErrors) {
    const AirCoil crah(AirCoilSpec::fromCatalog("crah_150kW"), 2);
    const auto& s = crah.spec();
    const AirCoil::Outputs full =
        crah.evaluate(2e5, s.rating_water_temp, 2 * s.water_flow, s.rating_room_temp);
    const AirCoil::Outputs half =
        crah.evaluate(2e5, s.rating_water_temp, 2 * s.water_flow, s.rating_room_temp, 0.5);
    EXPECT_NEAR(full.fan_power, 2 * 5e3, 1e-9);
    EXPECT_NEAR(half.fan_power, full.fan_power / 8, 1e-9);  // P ∝ airflow³
    EXPECT_THROW(crah.evaluate(-1.0, 291.0, 0.01, 300.0), InputError);
    EXPECT_THROW(crah.evaluate(1e5, 291.0, 0.01, 400.0), InputError);
    EXPECT_THROW(AirCoilSpec::fromCatalog("passive_rear_door_20kW", Json{{"fan_power_kW", 1.0}}),
                 InputError);
    testing::AirCoilComponent comp("crah", crah);
    std::vector<double> u(comp.inputs().size()), y(comp.outputs().size());
    u[comp.inputIndex("heat_air")] = 1e5;
    u[comp.inputIndex("water_supply_temp")] = 291.15;
    u[comp.inputIndex("water_flow")] = 0.01;
    u[comp.inputIndex("room_temp")] = 300.15;
    comp.computeOutputs(0, {}, u, y);
    for (double v : y) EXPECT_TRUE(std::isfinite(v));
}

TEST(Pipe, TransportDelayAndSteadyHeatLoss) {
    const Coolant c = constantCoolant();
    PipeParams p;
    p.volume = 2.0;
    p.segments = 8;
    p.initial_temp = celsiusToKelvin(30);
    p.nominal_flow = 0.04;
    // Step of the inlet from 30 to 40 °C at 0.04 m³/s: mean delay V/V̇ = 50 s for N tanks in
    // series (area above the normalised response), without wall mass.
    System sys;
    sys.add(std::make_shared<const Pipe>("pipe", c, p));
    sys.setInput("pipe.inlet_temp", celsiusToKelvin(40));
    sys.setInput("pipe.flow", 0.04);
    sys.finalize();
    Recorder rec(sys);
    rec.addOutput("pipe.outlet_temp", "pipe", "outlet_temp");
    SimulationOptions o;
    o.t_end = 600;
    o.output_interval = 0.25;
    o.solver.rel_tol = 1e-9;
    o.solver.abs_tol_factor = 1e-10;
    Simulator sim(sys, o);
    sim.run(rec);
    const auto& t = rec.results().time;
    const auto& v = rec.results().channels[0].values;
    double area = 0.0;
    for (std::size_t i = 1; i < t.size(); ++i) {
        area +=
            0.5 * ((1 - (v[i - 1] - 303.15) / 10) + (1 - (v[i] - 303.15) / 10)) * (t[i] - t[i - 1]);
    }
    const Pipe pipe("p", c, p);
    EXPECT_NEAR(pipe.transportDelay(0.04), 50.0, 1e-12);
    EXPECT_NEAR(area, 50.0, 0.2);
    // N = 8 tanks in series give an Erlang-8 residence time: at half the delay the outlet has
    // risen by P(Poisson(4) ≥ 8) = 1 − Σ_{k<8} e^{−4}·4^k/k! = 0.05113 of the step.
    double cdf = 0.0, term = std::exp(-4.0);
    for (int k = 0; k < 8; ++k) {
        cdf += term;
        term *= 4.0 / (k + 1);
    }
    EXPECT_NEAR((v[static_cast<std::size_t>(25.0 / 0.25)] - 303.15) / 10.0, 1.0 - cdf, 2e-4);

    // Steady state with heat loss: each tank T_i − T_a = (T_{i−1} − T_a)·ṁc/(ṁc + UA/N).
    p.UA_ambient = 400.0;
    const Pipe lossy("lossy", c, p);
    const double mc = 1000 * 0.04 * 4000, ua = 400.0 / 8, Ta = celsiusToKelvin(20);
    const std::size_t inlet = lossy.inputIndex("inlet_temp"), flow = lossy.inputIndex("flow");
    std::vector<double> x(8), dx(8), u(lossy.inputs().size());
    u[inlet] = celsiusToKelvin(40);
    u[flow] = 0.04;
    u[lossy.inputIndex("ambient_temp")] = Ta;
    double T = u[inlet];
    for (auto& xi : x) xi = T = Ta + (T - Ta) * mc / (mc + ua);
    lossy.computeDerivatives(0, x, u, dx);
    for (double d : dx) EXPECT_NEAR(d, 0.0, 1e-12);
    // Energy: enthalpy drop of the stream = heat lost to the surroundings.
    EXPECT_NEAR(mc * (u[inlet] - x.back()), lossy.heatLoss(x, Ta), 1e-9 * lossy.heatLoss(x, Ta));
    u[flow] = -0.01;
    EXPECT_THROW(lossy.computeDerivatives(0, x, u, dx), InputError);
}

TEST(Mixer, EnthalpyWeightedAndConservative) {
    const Coolant pg = Coolant::byName("PG25");
    const Mixer mix("mix", pg, {4.0, 2.0, 0.0});
    std::vector<double> u(mix.inputs().size()), y(mix.outputs().size());
    const auto in = [&mix](const char* name) { return mix.inputIndex(name); };
    const std::size_t temp = mix.outputIndex("temp"), flow = mix.outputIndex("flow");
    u[in("temp_1")] = celsiusToKelvin(45);
    u[in("flow_1")] = 0.003;
    u[in("temp_2")] = celsiusToKelvin(50);
    u[in("flow_2")] = 0.004;
    u[in("temp_3")] = celsiusToKelvin(90);
    u[in("flow_3")] = 0.01;
    mix.computeOutputs(0, {}, u, y);
    const double m1 = 4 * pg.massFlow(0.003), m2 = 2 * pg.massFlow(0.004);
    EXPECT_NEAR((m1 + m2) * pg.enthalpy(y[temp]),
                m1 * pg.enthalpy(u[in("temp_1")]) + m2 * pg.enthalpy(u[in("temp_2")]),
                1e-9 * m1 * 4e4);
    EXPECT_NEAR(y[flow], 4 * 0.003 + 2 * 0.004, 1e-15);
    u[in("flow_1")] = u[in("flow_2")] = u[in("flow_3")] = 0.0;  // no flow anywhere: still defined
    mix.computeOutputs(0, {}, u, y);
    EXPECT_TRUE(std::isfinite(y[temp]));
    EXPECT_EQ(y[flow], 0.0);
    // Total flow does not depend on temperatures.
    EXPECT_FALSE(mix.outputDependsOnInput(flow, in("temp_1")));
    // Multiplicities must be finite and ≥ 0, and there must be some; a mixer with the same
    // ones as another computes as it does (they share one copy).
    EXPECT_THROW(Mixer("m", pg, {1.0, std::nan("")}), InputError);
    EXPECT_THROW(Mixer("m", pg, {1.0, -1.0}), InputError);
    EXPECT_THROW(Mixer("m", pg, {}), InputError);
    const Mixer twin("twin", pg, {4.0, 2.0, 0.0});
    std::vector<double> y2(y.size());
    u[in("flow_1")] = 0.002;
    mix.computeOutputs(0, {}, u, y);
    twin.computeOutputs(0, {}, u, y2);
    EXPECT_EQ(y, y2);
    EXPECT_EQ(twin.streams(), 3u);
}

TEST(Mixer, TempMaxIsASmoothMaximumThatLumpingLeavesAlone) {
    // temp_max = T* + s·ln(Σ w_j·e^((T_j − T*)/s)/Σ w_j), s = 0.3 K (thermal/pipe.h).
    const Coolant pg = Coolant::byName("PG25");
    const double s = Mixer::kMaxSmoothing;
    auto tempMax = [&](const Mixer& mix, const std::vector<double>& temps) {
        std::vector<double> u(mix.inputs().size()), y(mix.outputs().size());
        for (std::size_t j = 0; j < temps.size(); ++j) {
            u[2 * j] = temps[j];
            u[2 * j + 1] = 0.003;
        }
        mix.computeOutputs(0, {}, u, y);
        return y[mix.outputIndex("temp_max")];
    };
    const double T = celsiusToKelvin(45);
    // All streams equal: the maximum is that temperature, lumped or not.
    EXPECT_NEAR(tempMax(Mixer("m", pg, {8.0}), {T}), T, 1e-12);
    EXPECT_NEAR(tempMax(Mixer("m", pg, {3.0, 5.0}), {T, T}), T, 1e-12);
    // One rack 8 K above seven others: T_hot + s·ln((1 + 7·e^(−8/s))/8), by hand
    // T_hot − 0.623832 K (e^(−26.7) is below double precision next to 1).
    const double hot = T + 8.0;
    EXPECT_NEAR(tempMax(Mixer("m", pg, {1.0, 7.0}), {hot, T}), hot - 0.3 * std::log(8.0), 1e-9);
    EXPECT_NEAR(hot - 0.3 * std::log(8.0), hot - 0.623832, 1e-6);
    // Lumping: seven racks as one stream of multiplicity 7 or as seven streams, the same.
    EXPECT_NEAR(tempMax(Mixer("m", pg, {1.0, 7.0}), {T + 0.4, T}),
                tempMax(Mixer("m", pg, {1, 1, 1, 1, 1, 1, 1, 1}), {T + 0.4, T, T, T, T, T, T, T}),
                1e-12);
    // Two racks 0.2 K apart, weights 1 and 1: T_hi + s·ln((1 + e^(−0.2/s))/2), by hand
    // e^(−2/3) = 0.513417, ln(0.756709) = −0.278777, × 0.3 = −0.083633 K.
    EXPECT_NEAR(tempMax(Mixer("m", pg, {1.0, 1.0}), {T + 0.2, T}), T + 0.2 - 0.083633, 1e-6);
    // A stream of multiplicity 0 is not there, however hot.
    EXPECT_NEAR(tempMax(Mixer("m", pg, {1.0, 0.0}), {T, T + 30}), T, 1e-12);
    EXPECT_NEAR(s, 0.3, 0.0);
    // It reads temperatures only.
    const Mixer mix("m", pg, {1.0, 1.0});
    EXPECT_TRUE(mix.outputDependsOnInput(mix.outputIndex("temp_max"), mix.inputIndex("temp_2")));
    EXPECT_FALSE(mix.outputDependsOnInput(mix.outputIndex("temp_max"), mix.inputIndex("flow_2")));
}

TEST(WaterMeter, AccumulatesRatesAndSumsMakeUp) {
    System sys;
    sys.add(std::make_shared<const WaterUseMeter>("water", 1e-3));
    sys.setInput("water.evaporation_rate", 2e-3);
    sys.setInput("water.drift_rate", 1e-5);
    sys.setInput("water.blowdown_rate", 6e-4);
    sys.setInput("water.spray_rate", 1e-4);
    sys.finalize();
    Recorder rec(sys);
    rec.addOutput("water.total", "water", "total");
    rec.addOutput("water.makeup_rate", "water", "makeup_rate");
    SimulationOptions o;
    o.t_end = 3600;
    o.output_interval = 600;
    Simulator sim(sys, o);
    sim.run(rec);
    const double rate = 2e-3 + 1e-5 + 6e-4 + 1e-4;
    EXPECT_NEAR(rec.results().channels[0].values.back(), rate * 3600, 1e-6 * rate * 3600);
    EXPECT_NEAR(rec.results().channels[1].values.back(), rate, 1e-15);
    EXPECT_NEAR(sim.finalState()[sys.stateIndex("water.evaporated")], 2e-3 * 3600, 1e-6 * 7.2);
}

}  // namespace
}  // namespace dctwin::thermal
