// Transient and contingency studies (issue 5, "What it must show", fourth point): power
// smoothing against synchronized training swings, a CDU pump trip and a utility loss.
#include <gtest/gtest.h>

#include <cmath>

#include "power/catalog.h"
#include "test_util.h"

namespace dctwin::facility::test {
namespace {

// scenarios/transient_training_swings.json cut to two minutes at 0.1 s output (60 iterations
// of the 2 s training step).
Json shortTransient(bool smoothing) {
    Json j = scenarioJson("transient_training_swings.json");
    j["study"] = {{"kind", "transient"},
                  {"start", "07-15"},
                  {"start_hour", 14},
                  {"duration_s", 120.0},
                  {"output_interval_s", 0.1}};
    j["power"]["smoothing"]["enabled"] = smoothing;
    return j;
}

double metric(const RunOutcome& r, const std::string& name) {
    for (const auto& m : r.report.summary) {
        if (m.name == name) return m.value;
    }
    ADD_FAILURE() << "no summary metric " << name;
    return NAN;
}

double throttleTempC() { return power::Catalog::load().rack("gb300_nvl72").throttle_temp - 273.15; }

TEST(Transient, SmoothingMakesTheGridSideSwingSmallerThanTheRackDemandSwing) {
    // DESIGN.md §3.1: PSU storage, a 60 % power floor and ramp limits stand between the
    // training square wave and the grid. Rack demand swing by hand: 64 racks × 50 % of the
    // idle-to-cap range (compute 100 %, communication 50 %) × ~100 kW ≈ 3 MW.
    const RunOutcome on = run(shortTransient(true));
    const double demand = num(on.summary, "rack_demand_swing_kW");
    const double grid = num(on.summary, "it_grid_swing_kW");
    EXPECT_TRUE(on.summary["power_smoothing"].get<bool>());
    EXPECT_GT(demand, 1500.0);
    EXPECT_LT(demand, 5000.0);
    EXPECT_LT(grid, 0.8 * demand);
    EXPECT_LT(std::abs(num(on.summary, "energy_balance_rel_error")), 1e-3);
    // The floor burns energy in the communication phase (DESIGN.md §3.1: an output).
    EXPECT_GT(metric(on, "smoothing_burn_energy_MWh"), 0.0);
}

TEST(Transient, WithoutSmoothingTheGridSeesTheRackDemandSwing) {
    // Without smoothing the grid-side IT power is rack demand plus the constant fabric, so its
    // swing equals the rack demand swing.
    const RunOutcome off = run(shortTransient(false));
    const double demand = num(off.summary, "rack_demand_swing_kW");
    EXPECT_FALSE(off.summary["power_smoothing"].get<bool>());
    EXPECT_GT(demand, 1500.0);
    EXPECT_NEAR(num(off.summary, "it_grid_swing_kW"), demand, 0.01 * demand);
    EXPECT_LT(std::abs(num(off.summary, "energy_balance_rel_error")), 1e-3);
    EXPECT_EQ(metric(off, "smoothing_burn_energy_MWh"), 0.0);
}

TEST(Transient, JunctionSwingAndCyclesMatchTheSquareWaveByHand) {
    // The training square wave without smoothing, resolved at 0.01 s for two minutes. Per GPU
    // (racks.json, rack_loops.json): compute u = 1.0, communication u = 0.5, each 1 s.
    //   GPU heat swing   ΔP = 0.97 × 1,200 W × 0.5 = 582 W
    //   leakage          dP/dT = 0.1 × 1,400 W × ln 2/25 K × 2^((70.0 − 65)/25) = 4.46 W/K at
    //                    the run's 70.0 °C mean junction (mean_gpu_junction_C; 62.5 °C before
    //                    issue 9's pump reset warmed the coolant, which gave 8.06 K below),
    //                    which raises the junction's resistance to
    //                    R' = 0.012/(1 − 0.97 × 0.012 × 4.46) = 0.01266 K/W, τ' = 4 × R' = 51 ms
    //   junction         a first-order node driven by a square wave (high for D·T, low for
    //                    (1 − D)·T) swings by R'·ΔP·(1 − a)(1 − b)/(1 − a·b), a = e^{−D·T/τ'},
    //                    b = e^{−(1−D)·T/τ'}; here a = b = e^{−20} ≈ 0: R'·ΔP = 7.37 K. (The
    //                    fundamental alone, (4/π)·R'·ΔP/√(1 + (ωτ')²) = 9.2 K, overstates it
    //                    by 26 %: a square wave's peak to peak is not its fundamental's.)
    //   plate            the rack's liquid heat swings by 72 × 582 + CPUs 36 × 0.95 × 196 × 0.5
    //                    + switches 9 × 0.95 × 1,600 × 0.3 × 0.5 = 47.3 kW; the plates
    //                    (30.3 kJ/K) behind R_pc = 9.45e-5 K/W (1.28× design flow) are a node of
    //                    τ_p = 2.86 s: a = b = e^{−1/2.86} = 0.705, 9.45e-5 × 47.3 kW ×
    //                    (1 − a)/(1 + a) = 0.77 K (the coolant, 80 kJ/K, barely moves at 0.5 Hz)
    //   both peak at the end of the compute phase: 7.37 + 0.77 = 8.14 K peak to peak.
    // Measured 8.20 K (+0.7 %, 2026-12-06); the band (2 %) trips when the junction's resistance
    // or the GPU's share of the heat moves by 1.5-3 % (R'·ΔP is 91 % of the swing).
    // Cycles: one per 2 s iteration, of that range: 60 in 120 s, 43,200 per day, all in the
    // 5–10 K bin.
    Json j = shortTransient(false);
    j["study"]["output_interval_s"] = 0.01;
    const RunOutcome r = run(j);
    EXPECT_NEAR(metric(r, "gpu_junction_swing_K"), 8.14, 0.02 * 8.14);
    EXPECT_NEAR(metric(r, "gpu_cycles_over_2K"), 60.0, 1.0);
    EXPECT_NEAR(metric(r, "gpu_cycles_over_2K_per_day"), 43200.0, 720.0);
    EXPECT_NEAR(metric(r, "gpu_cycles_5_10K_per_day"), 43200.0, 720.0);
    EXPECT_EQ(metric(r, "gpu_cycles_over_20K_per_day"), 0.0);
    // The junction peak sits above the plates by about q_high·R' (GPU 1,400 W to liquid 97 %:
    // 1,358 W × 0.0125 K/W = 17 K); what the old single node reported was the plate side.
    EXPECT_GT(metric(r, "max_gpu_junction_C") - metric(r, "max_gpu_plate_C"), 15.0);
    EXPECT_LT(std::abs(num(r.summary, "energy_balance_rel_error")), 1e-3);
}

TEST(Contingency, CduPumpTripThrottlesGpusWithinTwoMinutes) {
    // scenarios/contingency_cdu_pump_trip.json cut to 3 minutes: both pumps of CDU 0 trip at
    // 60 s; its 8 racks keep drawing ~120 kW each with no coolant flow. Hand estimate: without
    // flow the dies heat the cold plates and the coolant standing in them (a few kg of copper
    // and PG25 per tray, ~10-30 kJ/K per rack) at ~120 kW: several K per second from ~20 K
    // below the 87 °C throttle temperature, i.e. seconds to tens of seconds, well under 120 s;
    // the re-derivation with the junction offset is the next test.
    Json j = scenarioJson("contingency_cdu_pump_trip.json");
    j["study"]["duration_s"] = 180.0;
    const RunOutcome r = run(j);
    ASSERT_TRUE(r.summary.contains("contingency"));
    const Json& c = r.summary["contingency"];
    ASSERT_TRUE(c["first_throttle_after_s"].is_number()) << c.dump();
    const double t = c["first_throttle_after_s"].get<double>();
    EXPECT_GT(t, 0.0);
    EXPECT_LT(t, 120.0);
    EXPECT_GT(num(r.summary, "max_gpu_junction_C"), throttleTempC());
    EXPECT_LT(c["min_throttle_margin_K"].get<double>(), 0.0);
    EXPECT_LT(std::abs(num(r.summary, "energy_balance_rel_error")), 1e-3);
}

TEST(Contingency, PumpTripTimeToThrottleFollowsThePlateHeatingAndTheJunctionOffset) {
    // The same trip, the time to throttle by hand (figures from racks.json, rack_loops.json,
    // cdus.json; PG25 at ~40 °C: ρ ≈ 1,014 kg/m³, c_p ≈ 3.96 kJ/(kg·K)).
    // Before the trip (the study's averaged workload: compute 0.7 × 100 %, communication
    // 0.3 × 60 %, mean u = 0.88):
    //   GPU      200 + 0.88 × 1,200 + ~6 W leakage = 1,262 W, 97 % to liquid: q = 1,224 W
    //   rack     Q = 72 × 1,224 + CPUs 36 × 0.95 × 256.5 + switches 9 × 0.95 × 1,600 ×
    //            (0.7 + 0.3 × 0.88) = 88.1 + 8.8 + 13.2 = 110.1 kW to liquid
    //   coolant  the CDU resets its header Δp until the racks run at the 10 K TCS rise
    //            (cdus.json delta_t_setpoint_K): outlet 35 + 10 = 45 °C, at
    //            110.1 kW/(1,014 × 3,960 × 10 K) = 2.74e-3 m³/s = 164.5 L/min per rack
    //   plate    cold-plate channels at 164.5 L/min: Re 212.7, Gz 19.97, Nu 4.691 against
    //            4.875 at 200 L/min, so R = 2.23e-5 (conduction) + 9.30e-5 × 4.875/4.691
    //            = 1.189e-4 K/W per rack (rack_loop_test.cpp): + 13.1 K → 58.1 °C
    //   junction + q·R_jp = 1,224 × 0.012 = 14.7 K, + the expected peak of the hidden square
    //            wave, junction 1.76 K + plate 0.25 K (regression_test.cpp) → 74.8 °C:
    //            margin 87 − 74.8 = 12.2 K
    //   The run has 11.4 K: the dies at 73.6 °C leak more than the ~6 W taken above (+0.36 K
    //   on R_jp, +0.24 K on the plate) and the reset sits 0.1 K above its 10 K, the supply
    //   0.07 K above 35 °C; the test allows 1 K.
    // After the trip the flow is 0 and the channels' film falls to fully developed laminar
    // (Nu 3.66): R0 = 2.23e-5 + 9.30e-5 × 4.875/3.66 = 1.461e-4 K/W, so the plates and the
    // 20 L of coolant standing in them (80.3 kJ/K) heat together with the plates and junctions
    // (30.3 kJ/K): 110.1 kW/110.6 kJ/K = 0.995 K/s. The plate-to-coolant offset relaxes from
    // 13.1 K to Q·R0·C_f/C = 11.7 K with τ = R0·C_p·C_f/C = 3.2 s, taking 0.73 × 1.4 = 1.0 K
    // off the plate's rise; the junction keeps its offset (τ_j = 48 ms). Throttle after
    // (11.4 + 1.0)/0.995 = 12.5 s; leakage adds ~3 % heat per 10 K of die (IT 1,002 →
    // 1,036 kW at +10 K in the run), ~0.9 K by then: ~11.6 s. (Before issue 9 the pumps ran
    // the racks at 256.5 L/min and a 5 %-flow floor held the film: 5.5 s.)
    Json j = scenarioJson("contingency_cdu_pump_trip.json");
    j["study"]["duration_s"] = 90.0;
    j["study"]["output_interval_s"] = 0.1;
    const RunOutcome r = run(j);
    const Json& c = r.summary["contingency"];
    ASSERT_TRUE(c["first_throttle_after_s"].is_number()) << c.dump();
    EXPECT_NEAR(c["first_throttle_after_s"].get<double>(), 11.6, 0.1 * 11.6);
    // The margin before the trip: the hand 12.2 K within the 1 K budget above.
    const auto& margin = r.report.timeseries.at("cooling", "throttle_margin").values;
    EXPECT_NEAR(margin[static_cast<std::size_t>(59.0 / 0.1)], 12.2, 1.0);
}

TEST(Contingency, UtilityLossReportsItsSimulatedLogInTheSummaryAndTheReport) {
    // scenarios/contingency_utility_loss.json cut to 3 minutes: the utility fails at 60 s. The
    // physics is checked in utility_loss_test.cpp; here, that what the run decided reaches the
    // summary JSON (contingency/events/0/simulated and log) and the report's event-log table,
    // and that the plan is reported as a plan. Full battery: the UPS carries its bus until its
    // input is on the generators at 90 s (start 10 s, blocks 5 s apart, walk-in 10 s), a
    // ride-through of 30 s; it never empties, so no simulated "battery empty" entry.
    Json j = scenarioJson("contingency_utility_loss.json");
    j["study"]["duration_s"] = 180.0;
    const RunOutcome r = run(j);
    ASSERT_TRUE(r.summary.contains("contingency"));
    const Json& c = r.summary["contingency"];
    ASSERT_EQ(c["events"].size(), 1u);
    const Json& e = c["events"][0];
    EXPECT_EQ(e["type"], "utility_loss");
    EXPECT_DOUBLE_EQ(e["simulated"]["ups_ride_through_s"].get<double>(), 30.0) << e.dump();
    EXPECT_TRUE(e["simulated"]["it_dropped_after_s"].is_null());
    EXPECT_GT(e["simulated"]["ups_battery_soe_min"].get<double>(), 0.9);
    EXPECT_LT(e["simulated"]["ups_battery_soe_min"].get<double>(), 1.0);
    EXPECT_DOUBLE_EQ(e["plan"]["generators_online_at_s"].get<double>(), 70.0);
    EXPECT_FALSE(e["overload"].get<bool>());
    int simulated = 0, empty = 0;
    ASSERT_TRUE(c.contains("log")) << c.dump();
    for (const auto& entry : c["log"]) {
        if (entry["source"] == "simulated") ++simulated;
        if (entry["event"].get<std::string>().find("battery empty") != std::string::npos) ++empty;
    }
    EXPECT_EQ(simulated, 1);  // the battery minimum
    EXPECT_EQ(empty, 0);
    bool table = false;
    for (const auto& t : r.report.tables) {
        if (t.path == "contingency/event_log") table = t.rows() == c["log"].size();
    }
    EXPECT_TRUE(table);
    EXPECT_LT(std::abs(num(r.summary, "energy_balance_rel_error")), 1e-3);
}

// Audit F6: while the utility is lost and the generators are not yet online, no source feeds
// the MV bus, so nothing is drawn from it. The run drew 167.6 kW "from the utility" in that
// window: the 150 kW other load and the 8 transformers' no-load loss (8 × 2.2 kW). Hand
// values (scenarios/contingency_utility_loss.json: loss at 60 s, generators online at 70 s
// — start delay 10 s — their first block at 70 s restarting the facility pumps at 75 s and the
// fans at 80 s, the UPS on battery until its walk-in at 80 s):
//   60 s < t < 70 s  facility power 0 W: the UPS on battery, the generator-fed cooling off,
//                    the other load unserved, the transformers de-energised;
//   70 s < t < 75 s  the generators feed the bus: the other load and the no-load loss come
//                    back, 150 + 8 × 2.2 = 167.6 kW (+ ≈ 7 W of load loss at 0.8 % loading);
//   other energy     150 kW × (120 − 10) s = 4.583 kWh over a 120 s study, not 150 kW ×
//                    120 s = 5.000 kWh.
// With every set failing to start the bus stays dead: facility power 0 from the loss on and
// the other load served only for the first 60 s, 150 kW × 60 s = 2.5 kWh.
TEST(Contingency, UtilityLossDrawsNothingWhileNoSourceFeedsTheBus) {
    auto at = [](const RunOutcome& r, const char* name, double t) {
        const auto& time = r.report.timeseries.time;
        const auto& v = r.report.timeseries.at("power", name).values;
        for (std::size_t i = 0; i < time.size(); ++i) {
            if (std::abs(time[i] - t) < 1e-6) return v[i];
        }
        ADD_FAILURE() << "no sample at " << t << " s";
        return std::nan("");
    };
    Json j = scenarioJson("contingency_utility_loss.json");
    j["study"]["duration_s"] = 120.0;
    const RunOutcome r = run(j);
    EXPECT_GT(at(r, "facility_power", 59.5), 8e6);  // before the loss: the whole site
    for (double t : {60.5, 62.0, 65.0, 69.5}) {
        EXPECT_NEAR(at(r, "facility_power", t), 0.0, 1e-6) << t << " s";
        EXPECT_NEAR(at(r, "grid_power", t), 0.0, 1e-6) << t << " s";
    }
    for (double t : {70.5, 72.0, 74.5}) {
        EXPECT_NEAR(at(r, "facility_power", t), 167.6e3, 50.0) << t << " s";
    }
    EXPECT_NEAR(metric(r, "other_energy_MWh"), 150e3 * 110.0 / 3.6e9, 1e-12);
    // The energy balance closes: what the bus and the UPS battery gave left as heat or is
    // stored.
    EXPECT_LT(std::abs(num(r.summary, "energy_balance_rel_error")), 1e-5);

    j["events"][0]["generators_failing"] = 7;
    const RunOutcome none = run(j);
    for (double t : {60.5, 70.5, 90.0, 119.5}) {
        EXPECT_NEAR(at(none, "facility_power", t), 0.0, 1e-6) << t << " s";
    }
    EXPECT_NEAR(metric(none, "other_energy_MWh"), 150e3 * 60.0 / 3.6e9, 1e-12);
    EXPECT_LT(std::abs(num(none.summary, "energy_balance_rel_error")), 1e-5);
}

TEST(Contingency, DefaultToleranceSettlesTheReportedRampsAndMargins) {
    // The contingency scenarios leave rel_tol at the transient default. What they report must
    // not depend on it: against the same run at 1e-8, measured 2026-12-02 on the shipped
    // files, the old default 1e-5 put the pump trip's largest ramp-up 2.1 % low (4.74 against
    // 4.84 kW/s) and the utility loss's least throttle margin 1.7 % low (0.257 against
    // 0.261 K); the default 1e-6 leaves 0.24 % and 0.05 %, everything else below 0.02 %.
    // Band 0.5 %: a quarter of what 1e-5 missed, twice what 1e-6 leaves.
    for (const char* file : {"contingency_cdu_pump_trip.json", "contingency_utility_loss.json"}) {
        Json j = scenarioJson(file);
        ASSERT_FALSE(j["study"].contains("rel_tol")) << file;
        const RunOutcome def = run(j);
        j["study"]["rel_tol"] = 1e-8;
        const RunOutcome tight = run(j);
        for (const char* key :
             {"it_grid_max_ramp_up_MW_per_s", "utility_max_ramp_up_MW_per_s",
              "it_grid_max_ramp_down_MW_per_s", "utility_swing_60s_MW", "max_gpu_junction_C"}) {
            const double want = num(tight.summary, key);
            EXPECT_NEAR(num(def.summary, key), want, 5e-3 * std::abs(want)) << file << " " << key;
        }
        ASSERT_TRUE(tight.summary["contingency"].contains("min_throttle_margin_K")) << file;
        const double want = tight.summary["contingency"]["min_throttle_margin_K"].get<double>();
        EXPECT_NEAR(def.summary["contingency"]["min_throttle_margin_K"].get<double>(), want,
                    5e-3 * std::abs(want))
            << file;
    }
}

}  // namespace
}  // namespace dctwin::facility::test
