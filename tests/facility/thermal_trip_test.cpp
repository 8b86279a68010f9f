// Thermal trip of a rack (issue 10, power/rack.h): a latch that takes the rack to standby, holds
// while the die cools, and restarts by policy; and the GPU-hours lost to heat the metrics count
// per study and per job (facility/metrics.h).
//
// The rack-level tests couple one RackPower to one RackLoop exactly as the site model does
// (facility/model.cpp: junction_temp back to the rack, the GPUs' liquid share per GPU into the
// junction node) on a constant-property coolant, so the cooling after the trip has a closed
// form.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include "core/display.h"
#include "core/simulator.h"
#include "core/system.h"
#include "core/units.h"
#include "facility/metrics.h"
#include "facility/plant.h"
#include "power/catalog.h"
#include "power/rack.h"
#include "test_util.h"
#include "tests/common/shared_file.h"
#include "thermal/coolant.h"
#include "thermal/rack_loop.h"

namespace dctwin::facility::test {
namespace {

using power::TripPolicy;
using power::TripRestart;
using units::celsiusToKelvin;

/// ρ = 1000 kg/m³ and c_p = 4000 J/(kg·K) at every temperature: exact hand numbers.
thermal::Coolant constantCoolant() {
    const auto path = dctwin::testing::writeSharedFile(
        std::filesystem::path(DCTWIN_BINARY_DIR) / "trip_test_const_coolant.json",
        R"({"name": "const", "description": "test fluid", "source": "test",
             "freezing_point_C": -10, "temperature_C": [0, 60, 120],
             "density_kg_per_m3": [1000, 1000, 1000],
             "specific_heat_J_per_kgK": [4000, 4000, 4000],
             "viscosity_Pa_s": [0.001, 0.001, 0.001],
             "conductivity_W_per_mK": [0.6, 0.6, 0.6]})");
    return thermal::Coolant::fromFile(path);
}

/// The GB300 rack loop (rack_loops.json) with a film so thin (10¹² channels) that the
/// plate-to-coolant resistance is R_design at any flow; all nodes start at T0.
thermal::RackLoopParams loopParams(double T0) {
    thermal::RackLoopParams p = thermal::RackLoopParams::fromCatalog("gb300_nvl72");
    p.branch.channels.count = 1e12;
    p.initial_temp = T0;
    return p;
}

struct TripRun {
    SampleVector t, junction, tripped, throughput;
};

/// One GB300 rack at full utilization, supply T_sup at the design flow, every node at T0 at
/// t = 0.
TripRun runRack(const TripPolicy& policy, double T_sup, double T0, double t_end, double dt) {
    const power::RackSpec spec = power::Catalog::load().rack("gb300_nvl72");
    const thermal::RackLoopParams lp = loopParams(T0);
    System sys;
    sys.add(std::make_shared<const power::RackPower>("rp", spec, 1, policy));
    sys.add(std::make_shared<const LinearCombination>(
        "hg", std::vector<LinearCombination::Term>{{"gpu_power", spec.gpu_liquid_fraction / 72}},
        "W", spec.gpu_tdp));
    sys.add(std::make_shared<const thermal::RackLoop>("rl", constantCoolant(), lp));
    sys.connect("rl.junction_temp", "rp.junction_temp");
    sys.connect("rp.heat_liquid", "rl.heat_liquid");
    sys.connect("rp.gpu_power", "hg.gpu_power");
    sys.connect("hg.value", "rl.gpu_heat");
    sys.setInput("rp.utilization", 1.0);
    sys.setInput("rl.supply_temp", T_sup);
    sys.setInput("rl.flow", lp.flow_design);
    sys.finalize();
    Recorder rec(sys);
    rec.addOutput("rl.junction_temp", "r", "junction");
    rec.addOutput("rp.tripped", "r", "tripped");
    rec.addOutput("rp.throughput", "r", "throughput");
    SimulationOptions o;
    o.t_end = t_end;
    o.output_interval = dt;
    o.solver.rel_tol = 1e-8;
    o.solver.abs_tol_factor = 1e-8;
    Simulator sim(sys, o);
    sim.run(rec);
    const auto& ch = rec.results().channels;
    return {rec.results().time, ch[0].values, ch[1].values, ch[2].values};
}

/// Plate temperature above the supply after a trip with no heat into the loop, plate and
/// fluid both θ0 above the supply at t = 0 (the derivation is in the first test).
struct Cooling {
    double l1, l2;
    double theta(double t, double theta0) const {
        return theta0 * (l2 * std::exp(l1 * t) - l1 * std::exp(l2 * t)) / (l2 - l1);
    }
    /// The time θ falls to `to` (θ is monotone, so bisection).
    double timeTo(double theta0, double to) const {
        double lo = 0.0, hi = 1e4;
        for (int i = 0; i < 200; ++i) {
            const double mid = 0.5 * (lo + hi);
            (theta(mid, theta0) > to ? lo : hi) = mid;
        }
        return lo;
    }
};
Cooling handCooling() {
    const thermal::RackLoopParams p = loopParams(300.0);
    const double C_p = p.C_metal + p.gpus * p.C_junction;  // 30,288 J/K
    const double C_f = 1000.0 * p.fluid_volume * 4000.0;   // 80,000 J/K
    const double G = 1000.0 * p.flow_design * 4000.0;      // 13,333 W/K
    const double R = p.R_design;                           // rack_loops.json
    const double b = 1 / (C_p * R) + 1 / (C_f * R) + G / C_f, c = G / (C_p * C_f * R);
    const double d = std::sqrt(b * b - 4 * c);
    return {(-b + d) / 2, (-b - d) / 2};
}

/// First sample index at which v crosses `level` in the given direction (npos: never).
std::size_t crossing(std::span<const double> v, double level, bool downward) {
    for (std::size_t i = 1; i < v.size(); ++i) {
        if (downward ? (v[i - 1] > level && v[i] <= level) : (v[i - 1] < level && v[i] >= level)) {
            return i;
        }
    }
    return std::string::npos;
}

std::size_t crossings(std::span<const double> v, double level) {
    std::size_t n = 0;
    for (std::size_t i = 1; i < v.size(); ++i) {
        if ((v[i - 1] - level) * (v[i] - level) < 0) ++n;
    }
    return n;
}

const power::RackSpec& gb300() {
    static const power::RackSpec s = power::Catalog::load().rack("gb300_nvl72");
    return s;
}

TEST(ThermalTrip, TrippedRackCoolsBelowThrottleInTheTimeItsThermalMassGives) {
    // A rack whose loop is at 97 °C (above the 95 °C shutdown temperature, racks.json) at full
    // load, supply 80 °C at the design flow. It trips at once; standby "off" puts no heat into
    // the loop, so the junctions (τ_j = C_j·R_jp = 4 × 0.012 = 48 ms) follow their plate and
    // the plate and the coolant standing in the rack cool together:
    //   C_p·dθ_p/dt = −(θ_p − θ_f)/R
    //   C_f·dθ_f/dt = (θ_p − θ_f)/R − G·θ_f               (θ = T − T_supply)
    // C_p = C_metal + 72·C_j = 30,000 + 288 = 30,288 J/K, C_f = ρ·V·c_p = 1000 × 0.020 × 4000
    // = 80,000 J/K, G = ρ·V̇·c_p = 1000 × 3.333e-3 × 4000 = 13,333 W/K, R = R_design =
    // 1.1528e-4 K/W (rack_loops.json: (0.022 − 0.012) × 0.83/72; thin film, so at any flow).
    // λ² + (1/(C_p R) + 1/(C_f R) + G/C_f)·λ + G/(C_p C_f R) = 0 → λ1 = −0.10444/s,
    // λ2 = −0.45707/s (τ 9.57 s and 2.19 s). With θ_p(0) = θ_f(0) = θ0 (so θ_p'(0) = 0):
    //   θ_p(t) = θ0·(λ2·e^{λ1 t} − λ1·e^{λ2 t})/(λ2 − λ1)
    // θ0 = 17 K down to the 87 °C throttle temperature (θ = 7 K): t = 10.93 s.
    // The trip itself is not instant: at t = 0 the rack draws full load plus the leakage of
    // 97 °C dies (2^(32/25) − 1 = 1.43 × 140 W per GPU) until L rises, e^{−t/τ_L} with
    // τ_L = 0.1 s: ≈ 150 kW to the liquid × 0.1 s = 15 kJ, + 0.14 K on C_p + C_f =
    // 110,288 J/K, which at θ_p'(10.9 s) ≈ λ1 × 7 K = −0.73 K/s is +0.19 s. Hand: 11.12 s;
    // the band (±0.15 s) is the uncertainty of that correction.
    const Cooling hand = handCooling();
    EXPECT_NEAR(hand.l1, -0.10444, 1e-4);
    EXPECT_NEAR(hand.l2, -0.45707, 1e-4);
    const double T_sup = celsiusToKelvin(80.0), T0 = celsiusToKelvin(97.0);
    const double t_hand = hand.timeTo(T0 - T_sup, gb300().throttle_temp - T_sup);
    EXPECT_NEAR(t_hand, 10.93, 0.01);
    const TripRun r = runRack(TripPolicy{}, T_sup, T0, 60.0, 0.01);
    const std::size_t i = crossing(r.junction, gb300().throttle_temp, true);
    ASSERT_NE(i, std::string::npos) << "the die never fell below the throttle temperature";
    EXPECT_NEAR(r.t[i], t_hand + 0.19, 0.15);
    // Tripped within a few τ_L: L past 0.99 by 0.5 s, and no compute after.
    EXPECT_GT(r.tripped[static_cast<std::size_t>(0.5 / 0.01)], 0.99);
    EXPECT_LT(r.throughput[static_cast<std::size_t>(0.5 / 0.01)], 0.01);
}

TEST(ThermalTrip, LatchHoldsAfterTheDieCoolsWithNoReTrip) {
    // The same trip with restart "never": the die cools to the 80 °C supply, 15 K below the
    // shutdown temperature, and the rack stays tripped. The static switch this replaces let
    // the rack come back as soon as the die cooled and trip again (or sit in the band on
    // partial power). L crosses 0.5 once and stays above 0.999; the die never returns to
    // the shutdown temperature.
    const TripRun r =
        runRack(TripPolicy{}, celsiusToKelvin(80.0), celsiusToKelvin(97.0), 120.0, 0.05);
    EXPECT_EQ(crossings(r.tripped, 0.5), 1u);
    const std::size_t cooled = crossing(r.junction, gb300().shutdown_temp, true);
    ASSERT_NE(cooled, std::string::npos);
    for (std::size_t i = cooled; i < r.t.size(); ++i) {
        ASSERT_GT(r.tripped[i], 0.999) << "at t = " << r.t[i];
        ASSERT_LT(r.junction[i], gb300().shutdown_temp) << "at t = " << r.t[i];
    }
    // 120 s = 12.5 τ1: the die is at the supply (θ0·e^{−12.5}·λ2/(λ2 − λ1) ≈ 1e-4 K).
    EXPECT_NEAR(r.junction.back(), celsiusToKelvin(80.0), 0.01);
}

TEST(ThermalTrip, AfterCoolingRestartsWhenTheDieReadsTheRestartTemperature) {
    // Supply 35 °C, loop at 97 °C, restart "after_cooling" at 50 °C. The die follows the
    // plate (standby off). The "cooled" latch C starts to set at the top of its 1 K band:
    // θ0 = 62 K to θ = 16 K (51 °C) at 15.44 s (closed form above), + 0.08 s for the trip's own
    // heat (first test: 0.14 K at θ' ≈ λ1 × 16 = −1.67 K/s). Then the snaps, each a few τ_L:
    // C passes its ~0.03 threshold once c_T ≈ 0.03 (die 0.1 K lower, +0.06 s) and reaches ~0.5
    // ~0.15 s later; L falls through 0.5 after ∫r dt = ln 2·τ_L (~0.1 s): 15.44 + 0.08 + 0.31 =
    // 15.83 s, ±0.15 s for the snap estimates. (At 50 °C itself, 16.06 s.) Back at full load
    // with 35 °C supply the rack settles at 35 + Q/G + Q·R + q·R_jp ≈ 35 + 9.4 + 14.4 + 16.7 ≈
    // 75.5 °C (Q ≈ 125 kW with the leakage), below the 87 °C throttle: no second trip.
    TripPolicy p;
    p.restart = TripRestart::AfterCooling;
    p.restart_temp = celsiusToKelvin(50.0);
    const double T_sup = celsiusToKelvin(35.0), T0 = celsiusToKelvin(97.0);
    const double t_band = handCooling().timeTo(T0 - T_sup, p.restart_temp + 1.0 - T_sup);
    EXPECT_NEAR(t_band, 15.44, 0.01);
    const TripRun r = runRack(p, T_sup, T0, 120.0, 0.05);
    const std::size_t set = crossing(r.tripped, 0.5, false);
    const std::size_t reset = crossing(r.tripped, 0.5, true);
    ASSERT_NE(set, std::string::npos);
    ASSERT_NE(reset, std::string::npos) << "never restarted";
    EXPECT_LT(r.t[set], 0.2);
    EXPECT_NEAR(r.t[reset], t_band + 0.08 + 0.31, 0.15);
    EXPECT_EQ(crossings(r.tripped, 0.5), 2u);  // one trip, one restart
    EXPECT_NEAR(r.throughput.back(), 1.0, 1e-6);
    EXPECT_LT(r.junction.back(), gb300().throttle_temp);
    EXPECT_GT(r.junction.back(), celsiusToKelvin(70.0));
}

TEST(ThermalTrip, AfterDelayRestartsTheDelayAfterTheDieFellBelowShutdown) {
    // Restart "after_delay" 30 s. The timer counts from the die falling below the shutdown
    // temperature (s_T = 0 at T ≤ 95 °C): θ 62 → 60 K at 1.31 s (closed form) + ~0.15 s for
    // the trip's heat (0.14 K at θ' ≈ λ1·θ + the plate's lag, ~−1 K/s this early): 1.46 s.
    // The reset drive is r = step(z), z = τ − 30 s: L = e^{−∫r dt/τ_L} passes 0.5 when
    // ∫₀^z (3z² − 2z³) dz = z³ − z⁴/2 = ln 2 × 0.1 s → z = 0.45 s. Hand: 1.46 + 30 + 0.45 =
    // 31.91 s, ±0.2 s for the trip-heat estimate. The die is at the supply by then; the
    // restarted rack runs at ~75.5 °C (previous test) without a second trip.
    TripPolicy p;
    p.restart = TripRestart::AfterDelay;
    p.restart_delay = 30.0;
    const double T_sup = celsiusToKelvin(35.0), T0 = celsiusToKelvin(97.0);
    const double t_cool = handCooling().timeTo(T0 - T_sup, gb300().shutdown_temp - T_sup);
    EXPECT_NEAR(t_cool, 1.31, 0.01);
    const TripRun r = runRack(p, T_sup, T0, 120.0, 0.05);
    const std::size_t reset = crossing(r.tripped, 0.5, true);
    ASSERT_NE(reset, std::string::npos) << "never restarted";
    EXPECT_NEAR(r.t[reset], t_cool + 0.15 + 30.0 + 0.45, 0.2);
    EXPECT_EQ(crossings(r.tripped, 0.5), 2u);
    EXPECT_NEAR(r.throughput.back(), 1.0, 1e-6);
}

TEST(ThermalTrip, PumpTripLostGpuHoursPerJobMatchTheTrippedRacksByHand) {
    // scenarios/contingency_cdu_pump_trip.json cut to 200 s with the 64 racks split into two
    // jobs: "hit" on the first 8 racks (first-fit placement: CDU 0, whose pumps trip at 60 s)
    // and "spared" on the other 56. Hand count: once CDU 0's racks trip at t_trip they lose
    // all 8 × 72 = 576 GPUs until the end, so
    //   hit:    tripped GPU-h = 576 × (200 − t_trip)/3600, scheduled = 576 × 200/3600 = 32
    //   spared: 56 × 72 = 4,032 GPUs, scheduled 224 GPU-h, nothing tripped or throttled (its
    //           CDUs keep their pumps)
    // t_trip is where the run's racks_tripped channel passes 4 racks (half of the 8); the
    // trapezoid over 0.5 s samples puts the edge within a quarter sample: ±576 × 0.25/3600 =
    // ±0.04 GPU-h. The lost GPU-h add the throttled minutes before the trip: at most the
    // 576 GPUs × the ~21 s from throttle to trip × the deepest clock cut 0.5 = 1.7 GPU-h.
    Json j = scenarioJson("contingency_cdu_pump_trip.json");
    j["study"]["duration_s"] = 200.0;
    Json base_job = j["workload"]["jobs"][0];
    Json hit = base_job, spared = base_job;
    hit["name"] = "hit";
    hit["racks"] = 8;
    spared["name"] = "spared";
    spared["racks"] = 56;
    j["workload"]["jobs"] = Json::array({hit, spared});
    const RunOutcome r = run(j);
    const auto& ts = r.report.timeseries;
    const auto& racks = ts.at("compute", "racks_tripped").values;
    const std::size_t i = crossing(racks, 4.0, false);
    ASSERT_NE(i, std::string::npos) << "no rack tripped";
    const double t_trip = ts.time[i - 1] + (ts.time[i] - ts.time[i - 1]) * (4.0 - racks[i - 1]) /
                                               (racks[i] - racks[i - 1]);
    const double tripped_hand = 576.0 * (200.0 - t_trip) / 3600.0;
    ASSERT_TRUE(r.summary.contains("jobs"));
    const Json& jobs = r.summary["jobs"];
    ASSERT_EQ(jobs.size(), 2u);
    EXPECT_EQ(jobs[0]["job"], "hit");
    EXPECT_NEAR(jobs[0]["gpus"].get<double>(), 576.0, 1e-9);
    EXPECT_NEAR(jobs[0]["scheduled_gpu_h"].get<double>(), 32.0, 1e-9);
    EXPECT_NEAR(jobs[0]["tripped_gpu_h"].get<double>(), tripped_hand, 0.04);
    const double lost = jobs[0]["lost_gpu_h"].get<double>();
    EXPECT_GT(lost, tripped_hand);
    EXPECT_LT(lost, tripped_hand + 1.7);
    EXPECT_NEAR(jobs[0]["compute_lost_pct"].get<double>(), 100.0 * lost / 32.0, 1e-9);
    EXPECT_EQ(jobs[1]["job"], "spared");
    EXPECT_NEAR(jobs[1]["scheduled_gpu_h"].get<double>(), 4032.0 * 200.0 / 3600.0, 1e-9);
    EXPECT_LT(jobs[1]["tripped_gpu_h"].get<double>(), 1e-9);  // rounding of L = 0
    EXPECT_DOUBLE_EQ(jobs[1]["throttled_gpu_h"].get<double>(), 0.0);
    // Site figures are the sums (one trip, both jobs running the whole study).
    EXPECT_NEAR(num(r.summary, "gpu_hours_tripped_h"), tripped_hand, 0.04);
    EXPECT_NEAR(num(r.summary, "gpu_hours_lost_h"), lost, 1e-9);
    EXPECT_NEAR(num(r.summary, "compute_lost_pct"), 100.0 * lost / 256.0, 1e-9);
    EXPECT_NEAR(num(r.summary, "max_racks_tripped"), 8.0, 1e-3);
    // What the CLI prints under "not held", the app's banner and the PDF's first page say so
    // (before, only "GPUs at their throttle temperature for 22 s"): the 8 racks, when the first
    // went (the event is at 60 s; the hand crossing at 4 racks, to a sample), and the share lost,
    // 100 × lost/256 by hand.
    const std::vector<std::string> said = notHeld(r.report.summary);
    const auto line = [&](const std::string& start) {
        for (const std::string& l : said) {
            if (l.starts_with(start)) return l;
        }
        ADD_FAILURE() << "no line starting '" << start << "'";
        return std::string();
    };
    const std::string trip = line("8 racks tripped on GPU temperature, the first ");
    const double first = num(r.summary, "first_trip_after_s");
    // The first rack goes no later than half of them (the 4-rack crossing) and within the
    // same 0.5 s output interval; the first sample past the trip (33.0 s) was later than both.
    EXPECT_LE(first, t_trip - 60.0);
    EXPECT_GE(first, t_trip - 60.0 - 0.5);
    EXPECT_NE(trip.find(fmt::format("the first {:.1f} s after the event", first)),
              std::string::npos)
        << trip;
    const std::string lost_line = line("compute lost to heat: ");
    EXPECT_NE(lost_line.find(display::formatMeasurement(100.0 * lost / 256.0) +
                             " % of the scheduled GPU-hours"),
              std::string::npos)
        << lost_line;
}

/// The pump trip of scenarios/contingency_cdu_pump_trip.json cut to 200 s, recorded every
/// 0.5 s (`fine`) and every 100 s (`coarse`); run once for the tests that compare the two.
struct TwoGrids {
    RunOutcome fine, coarse;
};
const TwoGrids& pumpTripOnTwoGrids() {
    static const TwoGrids runs = [] {
        Json j = scenarioJson("contingency_cdu_pump_trip.json");
        j["study"]["duration_s"] = 200.0;
        RunOutcome fine = run(j);
        j["study"]["output_interval_s"] = 100.0;
        return TwoGrids{std::move(fine), run(j)};
    }();
    return runs;
}

TEST(ThermalTrip, PeaksAndCrossingsDoNotDependOnTheOutputGrid) {
    // The pump trip of scenarios/contingency_cdu_pump_trip.json cut to 200 s, recorded every
    // 0.5 s and every 100 s. CDU 0's racks pass the throttle (87 C) ~11 s after the event at
    // 60 s and the shutdown (95 C, racks.json) ~33 s after it, then cool to the standing
    // coolant: all inside the 100-s grid's second interval. Read at the samples alone, the
    // 100-s run said "8 racks tripped" beside a junction peak of 80.3 C and no throttle
    // (least margin 6.7 K); the peaks, the margin, the time at the throttle and the first
    // crossings now come from the integrator's step ends, so both grids give the same
    // figures. By hand: a rack that tripped had its junction at the shutdown temperature; the
    // GPUs were at or above the throttle at least from the first throttle to the first trip.
    const auto& [fine, coarse] = pumpTripOnTwoGrids();
    ASSERT_EQ(coarse.report.timeseries.time.size(), 3u);
    const Json& f = fine.summary;
    const Json& c = coarse.summary;
    ASSERT_NEAR(num(c, "max_racks_tripped"), 8.0, 1e-3);
    EXPECT_GE(num(c, "max_gpu_junction_C"), 95.0);
    EXPECT_NEAR(num(c, "max_gpu_junction_C"), num(f, "max_gpu_junction_C"), 0.2);
    EXPECT_NEAR(num(c, "max_gpu_plate_C"), num(f, "max_gpu_plate_C"), 0.2);
    const double throttled_s = 3600.0 * num(c, "gpu_throttle_hours_h");
    EXPECT_NEAR(throttled_s, 3600.0 * num(f, "gpu_throttle_hours_h"), 1.0);
    const double first_throttle = num(c, "first_throttle_after_s");
    const double first_trip = num(c, "first_trip_after_s");
    EXPECT_NEAR(first_throttle, num(f, "first_throttle_after_s"), 0.1);
    EXPECT_NEAR(first_trip, num(f, "first_trip_after_s"), 0.1);
    EXPECT_GT(first_trip, first_throttle);
    EXPECT_GE(throttled_s, first_trip - first_throttle);
    EXPECT_LT(throttled_s, first_trip - first_throttle + 5.0);  // + the cooling through 87 C
    // The least margin: the hottest junction against the 87 C throttle, as the peak says.
    EXPECT_NEAR(c["contingency"]["min_throttle_margin_K"].get<double>(),
                87.0 - num(c, "max_gpu_junction_C"), 1e-9);
}

TEST(ThermalTrip, LostComputeDoesNotDependOnTheOutputGrid) {
    // The same 200-s pump trip at 0.5-s and 100-s output. CDU 0's 8 racks (576 GPUs) trip
    // ~33 s after the event at 60 s and stay down (restart never) to the end at 200 s. The
    // GPU-hours come from the integrator's step ends; before, they were trapezoids of the
    // samples: at 100 s the racks_tripped samples 0, 8, 8 gave 8 × 150 s = 0.333 rack-h (40 %
    // high) and the throttle, 22 s between two samples, none.
    const auto& [fine, coarse] = pumpTripOnTwoGrids();
    const Json& f = fine.summary;
    const Json& c = coarse.summary;
    // By hand: 8 racks down from the first trip to the end (the latch closes within ~0.1 s,
    // power/rack.h kLatchTime), in rack-hours.
    const double down_h = 8.0 * (140.0 - num(f, "first_trip_after_s")) / 3600.0;
    EXPECT_NEAR(num(f, "rack_hours_tripped_h"), down_h, 5e-3 * down_h);
    EXPECT_NEAR(num(c, "rack_hours_tripped_h"), down_h, 5e-3 * down_h);
    EXPECT_NEAR(num(c, "gpu_hours_tripped_h"), 72.0 * down_h, 5e-3 * 72.0 * down_h);
    // Throttled: the 0.5-s samples' trapezoid of the site channel is an independent reading
    // (the junction crosses 87 C with every 2-s iteration at first, so half a sample per
    // crossing: 2 %); the coarse run, whose samples see no throttle at all, gives the same.
    double sampled = 0.0;
    const auto& time = fine.report.timeseries.time;
    for (const Channel& ch : fine.report.timeseries.channels) {
        if (ch.group != "compute" || ch.name != "gpus_throttled") continue;
        for (std::size_t i = 1; i < time.size(); ++i) {
            sampled += 0.5 * (ch.values[i] + ch.values[i - 1]) * (time[i] - time[i - 1]);
        }
    }
    sampled /= 3600.0;
    ASSERT_GT(sampled, 1.0);
    const double throttled = num(f, "gpu_hours_throttled_h");
    EXPECT_NEAR(throttled, sampled, 0.02 * sampled);
    EXPECT_NEAR(num(c, "gpu_hours_throttled_h"), throttled, 1e-3 * throttled);
    // No more GPUs throttled than the 576 for the time the hottest junction was at 87 C.
    EXPECT_LE(throttled, 576.0 * num(f, "gpu_throttle_hours_h") * (1.0 + 1e-3));
    // Lost: the tripped racks' GPUs plus the clock the throttle took, on both grids.
    const double lost = num(f, "gpu_hours_lost_h");
    EXPECT_GT(lost, num(f, "gpu_hours_lost_to_trips_h"));
    EXPECT_LT(lost, num(f, "gpu_hours_lost_to_trips_h") + throttled);
    EXPECT_NEAR(num(c, "gpu_hours_lost_h"), lost, 1e-3 * lost);
}

TEST(ThermalTrip, TheExpectedPeakHoldsOnlyTheSwingTheRacksStillDraw) {
    // The same 200-s pump trip; its workload is averaged, so the junction channels add to the
    // junction state the peak of the iteration swing the averaging hides: at full clocks
    // junction 1.76 K + plate 0.25 K (transient_contingency_test.cpp, by hand). That swing is
    // the GPUs' dynamic power, u·(P_tdp − P_idle)·f (power/rack.h), so
    //  - a tripped rack draws none: 140 s after the trip its dies, drawing nothing, sit at
    //    their plate (τ_j = C_j·R_jp = 48 ms), and the hottest junction is the hottest plate.
    //    Before, the tripped dies read 2.0 K above their plate to the end of the run.
    //  - at the peak the dies are throttled to the deepest clock f = 0.5 (racks.json: from
    //    87 to 90 °C; the peak is at the 95 °C shutdown): junction 0.5 × 1.76 = 0.88 K, and of
    //    the plate's 0.25 K the GPUs' share of the rack's liquid swing (72 × 0.97 × 1,200 =
    //    83.8 kW of 83.8 + CPUs 36 × 0.95 × 196 = 6.7 + switch trays 9 × 0.95 × 1,600 × 0.3 =
    //    4.1 kW: 0.886) at half: 0.25 × (0.886 × 0.5 + 0.114) = 0.14 K, 1.02 K in all above a
    //    junction at the shutdown, which the latch stops within a few tenths of a kelvin into
    //    its 1 K band. Before, the full 2.0 K: a peak of 97.2 °C.
    const auto& [fine, coarse] = pumpTripOnTwoGrids();
    for (const RunOutcome* r : {&fine, &coarse}) {
        const auto& ts = r->report.timeseries;
        const double junction = ts.at("cooling", "max_gpu_junction_temp").values.back();
        const double plate = ts.at("cooling", "max_gpu_plate_temp").values.back();
        EXPECT_NEAR(junction, plate, 0.01);
        EXPECT_GE(num(r->summary, "max_gpu_junction_C"), 95.0 + 1.02 - 0.05);
        EXPECT_LE(num(r->summary, "max_gpu_junction_C"), 95.0 + 1.02 + 0.3);
    }
}

TEST(ThermalTrip, PumpTripLogSaysWhenTheRacksWent) {
    // The contingency's log (summary contingency.log, report contingency/event_log), which
    // only a utility loss had: the trip as given at 60 s, then what the step ends found, the
    // first GPU at 87 C ~11.6 s after it (by hand, transient_contingency_test.cpp) and the
    // first rack tripped later, on either output grid, in time order.
    const auto& [fine, coarse] = pumpTripOnTwoGrids();
    for (const RunOutcome* r : {&fine, &coarse}) {
        const Json& log = r->summary["contingency"]["log"];
        ASSERT_EQ(log.size(), 3u) << log.dump();
        EXPECT_DOUBLE_EQ(log[0]["t_s"].get<double>(), 60.0);
        EXPECT_EQ(log[0]["event"], "cdu_pump_trip, cdu 0, pumps 2");
        EXPECT_EQ(log[0]["source"], "event");
        EXPECT_EQ(log[1]["event"], "first GPU at its throttle temperature");
        EXPECT_NEAR(log[1]["t_s"].get<double>(), 60.0 + 11.6, 0.1 * 11.6);
        EXPECT_DOUBLE_EQ(log[1]["t_s"].get<double>() - 60.0,
                         num(r->summary, "first_throttle_after_s"));
        EXPECT_EQ(log[2]["event"], "first rack tripped on GPU temperature");
        EXPECT_EQ(log[2]["source"], "simulated");
        EXPECT_DOUBLE_EQ(log[2]["t_s"].get<double>() - 60.0, num(r->summary, "first_trip_after_s"));
        EXPECT_GT(log[2]["t_s"].get<double>(), log[1]["t_s"].get<double>());
        std::size_t rows = 0;
        for (const auto& t : r->report.tables) {
            if (t.path == "contingency/event_log") rows = t.rows();
        }
        EXPECT_EQ(rows, 3u);
    }
}

TEST(ThermalTrip, AStandbyCduThatTakesOverInTimeSavesTheRacks) {
    // The sizing counts an N+1 CDU as "a standby takes a failed one's racks"; the pump trip
    // now says when (standby_takeover_s). Without it CDU 0's racks reach the throttle 11.3 s
    // after the trip (11.6 s by hand, transient_contingency_test.cpp) and trip at 32.6 s. A
    // standby in 5 s comes before either; in 20 s after the throttle but before the trip; in
    // 40 s after both, and the racks stay down (restart: never), as without one. Until the
    // takeover the runs are the same physics, so their crossings agree with the plain trip's.
    const RunOutcome& none = pumpTripOnTwoGrids().fine;
    const double t_thr = num(none.summary, "first_throttle_after_s");
    const double t_trip = num(none.summary, "first_trip_after_s");
    ASSERT_LT(5.0, t_thr);
    ASSERT_LT(t_thr, 20.0);
    ASSERT_LT(20.0, t_trip);
    ASSERT_LT(t_trip, 40.0);
    for (const double takeover : {5.0, 20.0, 40.0}) {
        SCOPED_TRACE(takeover);
        Json j = scenarioJson("contingency_cdu_pump_trip.json");
        j["study"]["duration_s"] = 200.0;
        j["events"][0]["standby_takeover_s"] = takeover;
        const RunOutcome r = run(j);
        const Json& s = r.summary;
        if (takeover < t_thr) {
            EXPECT_EQ(num(s, "gpu_throttle_hours_h"), 0.0);
            EXPECT_LT(num(s, "max_gpu_junction_C"), gb300().throttle_temp - 273.15);
        } else {
            EXPECT_NEAR(num(s, "first_throttle_after_s"), t_thr, 0.05);
        }
        if (takeover < t_trip) {
            EXPECT_EQ(num(s, "max_racks_tripped"), 0.0);
        } else {
            EXPECT_NEAR(num(s, "first_trip_after_s"), t_trip, 0.05);
            EXPECT_EQ(num(s, "max_racks_tripped"), num(none.summary, "max_racks_tripped"));
        }
        // The log says when the standby took the racks.
        bool logged = false;
        for (const Json& e : s["contingency"]["log"]) {
            if (e["event"] == "standby CDU takes CDU 0's racks") {
                logged = true;
                EXPECT_DOUBLE_EQ(e["t_s"].get<double>(), 60.0 + takeover);
                EXPECT_EQ(e["source"], "plan");
            }
        }
        EXPECT_TRUE(logged) << s["contingency"]["log"].dump();
    }
    // One standby (N+1) takes one CDU's racks; N has none to take them.
    Json two = scenarioJson("contingency_cdu_pump_trip.json");
    two["events"][0]["standby_takeover_s"] = 10.0;
    two["events"].push_back({{"type", "cdu_pump_trip"},
                             {"at_s", 90},
                             {"cdu", 1},
                             {"pumps", 2},
                             {"standby_takeover_s", 10}});
    expectInputError([&] { sizeSite(scenario(two)); }, {"/events/1/standby_takeover_s",
                                                        "has 1 standby CDU (N+1 redundancy), taken "
                                                        "by earlier trips"});
    Json n = scenarioJson("contingency_cdu_pump_trip.json");
    n["cooling"]["cdu"]["redundancy"] = "N";
    n["events"][0]["standby_takeover_s"] = 10.0;
    expectInputError([&] { sizeSite(scenario(n)); },
                     {"/events/0/standby_takeover_s", "has 0 standby CDUs (N redundancy)"});
}

TEST(ThermalTrip, TripsOfOneCduAddUpInTimeOrder) {
    // An audit: a second trip of CDU 0 set its failed pumps to the second trip's count, so two
    // one-pump trips left it with a pump. They add up now, in time order whatever the file's.
    // Both at 60 s: the plain two-pump trip, to the bit.
    const RunOutcome& both = pumpTripOnTwoGrids().fine;
    Json j = scenarioJson("contingency_cdu_pump_trip.json");
    j["study"]["duration_s"] = 200.0;
    j["events"] =
        Json::array({{{"type", "cdu_pump_trip"}, {"at_s", 60.0}, {"cdu", 0}, {"pumps", 1}},
                     {{"type", "cdu_pump_trip"}, {"at_s", 60.0}, {"cdu", 0}, {"pumps", 1}}});
    const RunOutcome split = run(j);
    EXPECT_EQ(num(split.summary, "first_throttle_after_s"),
              num(both.summary, "first_throttle_after_s"));
    EXPECT_EQ(num(split.summary, "max_racks_tripped"), num(both.summary, "max_racks_tripped"));
    // The second pump at 100 s, listed first: the racks go ~11 s after 100 s, not after 60 s.
    j["events"][0]["at_s"] = 100.0;
    const RunOutcome late = run(j);
    double throttle = -1.0;
    for (const Json& e : late.summary["contingency"]["log"]) {
        if (e["event"] == "first GPU at its throttle temperature") throttle = e["t_s"];
    }
    EXPECT_NEAR(throttle, 100.0 + num(both.summary, "first_throttle_after_s"), 1.0);
    EXPECT_EQ(late.summary["contingency"]["events"][0].value("at_s", 0.0), 100.0);  // file order
    // Three pumps of two lost by then: refused by sizing (validate and size too), unless a
    // standby CDU took the racks between.
    j["events"][0] = {{"type", "cdu_pump_trip"}, {"at_s", 70.0}, {"cdu", 0}, {"pumps", 1}};
    j["events"][1]["pumps"] = 2;
    expectInputError([&] { sizeSite(scenario(j)); },
                     {"/events/0/pumps", "3 pumps of CDU 0 lost by then", "more than the 2"});
    j["events"][1]["standby_takeover_s"] = 5.0;
    EXPECT_NO_THROW(sizeSite(scenario(j)));
}

TEST(ThermalTrip, BadRestartPoliciesAreRejectedWithTheKeyAndTheChoices) {
    auto with = [](const Json& trip) {
        Json j = scenarioJson("contingency_cdu_pump_trip.json");
        j["it"]["racks"][0]["thermal_trip"] = trip;
        return j;
    };
    expectInputError(
        [&] {
            scenario(with({{"restart", "sometimes"}}));
        },
        {"/it/racks/0/thermal_trip/restart", "never", "after_cooling", "after_delay"});
    expectInputError(
        [&] {
            scenario(with({{"standby", "sleep"}}));
        },
        {"/it/racks/0/thermal_trip/standby", "off", "idle"});
    // A restart temperature in the throttle band (87 °C for gb300_nvl72).
    expectInputError(
        [&] {
            scenario(with({{"restart", "after_cooling"}, {"restart_temp_C", 90}}));
        },
        {"/it/racks/0/thermal_trip/restart_temp_C", "throttle temperature", "87.0"});
    // A key of another policy.
    expectInputError(
        [&] {
            scenario(with({{"restart", "never"}, {"restart_delay_s", 60}}));
        },
        {"/it/racks/0/thermal_trip/restart_delay_s", "after_delay"});
    expectInputError(
        [&] {
            scenario(with({{"restart", "after_delay"}, {"restart_delay_s", -5}}));
        },
        {"/it/racks/0/thermal_trip/restart_delay_s"});
}

// The job table's GPU-hours are summed as the run steps, not read back from per-job time
// series: the same run with and without those series gives the same table and metrics to the
// bit, and without them the report holds no jobs/ group (the pump-trip run above, where the
// "hit" job loses GPU-hours to trips and throttling, so the sums are not zero).
TEST(ThermalTrip, JobTableIsTheSameWithoutPerJobSeries) {
    Json j = scenarioJson("contingency_cdu_pump_trip.json");
    j["study"]["duration_s"] = 200.0;
    Json hit = j["workload"]["jobs"][0], spared = hit;
    hit["name"] = "hit";
    hit["racks"] = 8;
    spared["name"] = "spared";
    spared["racks"] = 56;
    j["workload"]["jobs"] = Json::array({hit, spared});
    auto groups = [](const RunOutcome& r) {
        std::set<std::string> g;
        for (const Channel& c : r.report.timeseries.channels) {
            if (c.group.rfind("jobs/", 0) == 0) g.insert(c.group);
        }
        return g;
    };
    j["study"]["per_job_channels"] = true;
    const RunOutcome with = run(j);
    j["study"]["per_job_channels"] = false;
    const RunOutcome without = run(j);
    EXPECT_EQ(groups(with), (std::set<std::string>{"jobs/hit", "jobs/spared"}));
    EXPECT_TRUE(groups(without).empty());
    // The sums against the recorded series: both jobs run the whole study, so each is close
    // to the trapezoid of its 0.5-s series (the sums are over the integrator's step ends; the
    // samples place each crossing of 87 C, one every 2-s iteration at first, to half a sample:
    // 0.6 % on the throttled hours), and zero where the series is.
    const ResultSet& ts = with.report.timeseries;
    for (int k = 0; k < 2; ++k) {
        const Json& row = with.summary["jobs"][k];
        const std::string g = "jobs/" + row["job"].get<std::string>();
        for (const auto& [col, ch] :
             {std::pair{"lost_gpu_h", "gpus_lost"}, std::pair{"tripped_gpu_h", "gpus_tripped"},
              std::pair{"throttled_gpu_h", "gpus_throttled"}}) {
            const auto& v = ts.at(g, ch).values;
            double a = 0.0;
            for (std::size_t i = 1; i < ts.time.size(); ++i) {
                a += 0.5 * (v[i] + v[i - 1]) * (ts.time[i] - ts.time[i - 1]);
            }
            EXPECT_NEAR(row[col].get<double>(), a / 3600.0, 0.01 * a / 3600.0) << g << " " << col;
        }
    }
    ASSERT_GT(with.summary["jobs"][0]["lost_gpu_h"].get<double>(), 1.0);
    EXPECT_EQ(with.summary["jobs"], without.summary["jobs"]);
    for (const char* k : {"gpu_hours_scheduled_h", "gpu_hours_lost_h", "gpu_hours_lost_to_trips_h",
                          "compute_lost_pct", "gpu_hours_tripped_h"}) {
        EXPECT_EQ(num(with.summary, k), num(without.summary, k)) << k;
    }
}

// Per-job series are on by default up to 64 jobs and off above (a campus of single-rack jobs
// would hold four series a job: 1.56 GB for a year of 5,560).
TEST(ThermalTrip, PerJobSeriesByDefaultOnlyForSitesOfUpTo64Jobs) {
    auto jobGroups = [](int jobs) {
        Json j = reference({{"study", annualStudy("07-15", 0.25, 3600.0)}});
        j["it"]["racks"][0]["count"] = jobs;
        Json one = j["workload"]["jobs"][1];
        one["racks"] = 1;
        Json list = Json::array();
        for (int k = 0; k < jobs; ++k) {
            one["name"] = "j" + std::to_string(k);
            list.push_back(one);
        }
        j["workload"]["jobs"] = list;
        j["workload"]["tenants"] = {{one["tenant"].get<std::string>(), 1.0}};
        const RunOutcome r = run(j);
        std::set<std::string> g;
        for (const Channel& c : r.report.timeseries.channels) {
            if (c.group.rfind("jobs/", 0) == 0) g.insert(c.group);
        }
        EXPECT_EQ(r.summary["jobs"].size(), static_cast<std::size_t>(jobs));
        return g.size();
    };
    EXPECT_EQ(jobGroups(64), 64u);
    EXPECT_EQ(jobGroups(65), 0u);
}

TEST(ThermalTrip, JobGpuHoursCountTheScheduleNotTheSamples) {
    // A day of the reference site at hourly output with jobs that start and end between
    // samples. Hand counts, 72 GPUs a rack (no start or end ramps on these two):
    //   "short": 4 racks from 2.25 h for 0.5 h, no sample inside: 4 × 72 × 0.5 = 144 GPU-h
    //            scheduled; what heat took from it comes from the integrator's step ends (its
    //            start and end are integration stops), not the samples: 0 on this day;
    //   "tenh":  4 racks from 0 for 10 h: 4 × 72 × 10 = 2,880 GPU-h, though the last sample
    //            inside its window is at 9 h;
    //   "later": 4 racks from 30 h, after the day: 0 GPU-h scheduled, nothing known (null).
    // Before, both were the trapezoid of the sampled channel: 0 for "short" (its energy was
    // counted all the same) and 2,736 for "tenh" (the last hour spread over half an hour).
    Json j = reference({{"study", annualStudy("07-15", 1, 3600.0)}});
    Json& jobs = j["workload"]["jobs"];
    Json short_job = jobs[1], ten_h = jobs[1];
    short_job["name"] = "short";
    short_job["racks"] = 4;
    short_job["start_h"] = 2.25;
    short_job["duration_h"] = 0.5;
    ten_h["name"] = "tenh";
    ten_h["racks"] = 4;
    ten_h["start_h"] = 0;
    ten_h["duration_h"] = 10;
    Json later = short_job;
    later["name"] = "later";
    later["start_h"] = 30;
    jobs[1] = short_job;
    jobs.push_back(ten_h);
    jobs.push_back(later);
    const RunOutcome r = run(j);
    const Json& table = r.summary["jobs"];
    ASSERT_EQ(table.size(), 5u);
    ASSERT_EQ(table[4]["job"], "later");
    EXPECT_EQ(table[4]["scheduled_gpu_h"].get<double>(), 0.0);
    EXPECT_TRUE(table[4]["lost_gpu_h"].is_null());
    EXPECT_TRUE(table[4]["compute_lost_pct"].is_null());
    const Json& s = table[1];
    const Json& t = table[3];
    ASSERT_EQ(s["job"], "short");
    ASSERT_EQ(t["job"], "tenh");
    EXPECT_NEAR(s["scheduled_gpu_h"].get<double>(), 144.0, 1e-9);
    ASSERT_TRUE(s["lost_gpu_h"].is_number());
    EXPECT_EQ(s["lost_gpu_h"].get<double>(), 0.0);
    EXPECT_EQ(s["tripped_gpu_h"].get<double>(), 0.0);
    EXPECT_EQ(s["compute_lost_pct"].get<double>(), 0.0);
    EXPECT_NEAR(t["scheduled_gpu_h"].get<double>(), 2880.0, 1e-9);
    ASSERT_TRUE(t["lost_gpu_h"].is_number());
    // Nothing is lost to heat on this ordinary July day: the clock factor is 1 exactly until
    // the die reaches the 87 °C throttle onset (racks.json throttle_temp_C; power/rack.cpp,
    // θ = step01((T − 87 °C)/3 K) is 0 below it), and the hottest die stays ~11 K under it
    // (35 °C supply + 10 K rise + ~31 K junction rise, design_point_test.cpp). So the job
    // loses, throttles and trips nothing: exactly 0 GPU-h.
    EXPECT_LT(num(r.summary, "max_gpu_junction_C"), 87.0);
    EXPECT_EQ(t["lost_gpu_h"].get<double>(), 0.0);
    EXPECT_EQ(t["throttled_gpu_h"].get<double>(), 0.0);
    EXPECT_EQ(t["tripped_gpu_h"].get<double>(), 0.0);
    // The site: every job's scheduled hours (the 32-rack pre-training job and the 24-rack
    // inference service run the whole day); the lost share over the jobs in the study.
    const double day = 24.0;
    EXPECT_NEAR(num(r.summary, "gpu_hours_scheduled_h"),
                32 * 72 * day + 24 * 72 * day + 144.0 + 2880.0, 1e-6);
    double lost = 0.0, seen = 0.0;
    for (const Json& row : table) {
        if (row["lost_gpu_h"].is_null()) continue;
        lost += row["lost_gpu_h"].get<double>();
        seen += row["scheduled_gpu_h"].get<double>();
    }
    EXPECT_NEAR(num(r.summary, "gpu_hours_lost_h"), lost, 1e-9);
    EXPECT_NEAR(num(r.summary, "compute_lost_pct"), 100.0 * lost / seen, 1e-9);
}

}  // namespace
}  // namespace dctwin::facility::test
