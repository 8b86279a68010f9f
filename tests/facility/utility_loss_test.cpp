// Utility loss simulated end to end (issue 10, "Utility loss in the dynamics"): the UPS
// battery's state of energy, the IT load dropped when it empties, the heat stored in the loops
// while the heat rejection is off, and generators failing to start — every figure read from
// the run and checked against a hand calculation worked here.
//
// Common hand data (scenarios/contingency_utility_loss.json: 64 GB300 racks, Milwaukee
// 15 July 15:00, the utility fails 60 s into the study):
//   UPS static_1500kw (ups.json): S_r = 1.5 MW, autonomy t_r = 5 min at rated output,
//     double-conversion efficiency points (0.25, 0.96), (0.5, 0.97), (0.75, 0.9725), (1, 0.97)
//   generators (generators.json): start delay 10 s, blocks 5 s apart: cooling water at 70 s,
//     air side at 75 s, UPS walk-in 80 → 90 s (utility_loss.h)
//   Battery energy E_full = n·S_r·t_r/η(1) (the autonomy at rated output, inverter losses
//   included); the battery then delivers the UPS input P_in = x·n·S_r/η(x) at per-unit
//   loading x. Time to empty from state of energy soe at constant load:
//     t = soe·E_full/P_in = soe·t_r·η(x)/(x·η(1))            (n and the battery η cancel)
#include "facility/utility_loss.h"

#include <gtest/gtest.h>

#include <cmath>

#include "facility/metrics.h"
#include "test_util.h"
#include "thermal/coolant.h"

namespace dctwin::facility::test {
namespace {

constexpr double kLoss = 60.0;  // [s] the scenario's utility loss
constexpr double kTr = 300.0;   // [s] static_1500kw autonomy at rated output

Json utilityLoss(double duration_s, const Json& event_patch = Json::object()) {
    Json j = scenarioJson("contingency_utility_loss.json");
    j["study"]["duration_s"] = duration_s;
    j["events"][0] = mergePatch(j["events"][0], event_patch);
    return j;
}

const SampleVector& channel(const RunOutcome& r, const char* g, const char* n) {
    return r.report.timeseries.at(g, n).values;
}

/// Linear interpolation of a channel at time t.
double at(const RunOutcome& r, const char* g, const char* n, double t) {
    const auto& time = r.report.timeseries.time;
    const auto& v = channel(r, g, n);
    for (std::size_t i = 1; i < time.size(); ++i) {
        if (time[i] >= t) {
            const double f = (t - time[i - 1]) / (time[i] - time[i - 1]);
            return v[i - 1] + f * (v[i] - v[i - 1]);
        }
    }
    return v.back();
}

/// Catalog efficiency of static_1500kw (double conversion) at loading x, linear between the
/// catalog points (not the fitted loss curve the model uses).
double etaCatalog(double x) {
    const double px[] = {0.25, 0.5, 0.75, 1.0}, pe[] = {0.96, 0.97, 0.9725, 0.97};
    for (int i = 1; i < 4; ++i) {
        if (x <= px[i])
            return pe[i - 1] + (x - px[i - 1]) / (px[i] - px[i - 1]) * (pe[i] - pe[i - 1]);
    }
    return pe[3];
}

double metric(const RunOutcome& r, const std::string& name) {
    for (const auto& m : r.report.summary) {
        if (m.name == name) return m.value;
    }
    ADD_FAILURE() << "no summary metric " << name;
    return NAN;
}

/// The event log entry (table contingency/event_log) whose text starts with `what`.
double logged(const RunOutcome& r, const std::string& what) {
    for (const auto& t : r.report.tables) {
        if (t.path != "contingency/event_log") continue;
        const auto& time = std::get<std::vector<double>>(t.columns[0].data);
        const auto& text = std::get<std::vector<std::string>>(t.columns[1].data);
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (text[i].rfind(what, 0) == 0) return time[i];
        }
    }
    return NAN;
}

/// ΔSOE by hand: the recorded UPS loading x(t) turned into battery draw with the catalog's
/// efficiency, integrated by trapezoids between t0 and t1, the walk-in's mains share g(t)
/// (linear 80 → 90 s) taken off the draw and the charger's η_b·g·0.1·n·S_r added:
///   d(soe)/dt = −(1 − g)·(x/η(x))·η(1)/t_r + g·0.1·η_b²·η(1)/t_r      (η_b = 0.95)
double handSoeDrop(const RunOutcome& r, double t0, double t1) {
    const auto& time = r.report.timeseries.time;
    const auto& x = channel(r, "power", "ups_loading");
    auto g = [](double t) { return std::clamp((t - 80.0) / 10.0, 0.0, 1.0); };
    auto rate = [&](std::size_t i) {
        const double discharge = (1.0 - g(time[i])) * x[i] / etaCatalog(x[i]) * 0.97 / kTr;
        const double charge = g(time[i]) * 0.1 * 0.95 * 0.95 * 0.97 / kTr;
        return discharge - charge;
    };
    double drop = 0.0;
    for (std::size_t i = 1; i < time.size(); ++i) {
        if (time[i - 1] < t0 || time[i] > t1) continue;
        drop += 0.5 * (rate(i - 1) + rate(i)) * (time[i] - time[i - 1]);
    }
    return drop;
}

TEST(UtilityLoss, PlanAppliesBlocksTheOnlineSetsCanTakeAndRefusesTheRest) {
    // Four 2 MW sets, start 10 s, blocks 5 s apart, step limit 50 % of the online capacity.
    // Loads: cooling water 0.3 + 0.2 MW, air side 0.5 MW, UPS input 4 MW over a 10 s walk-in.
    UtilityLossOptions o;
    o.at = 100.0;
    const GeneratorFleet fleet{4, 2e6, 10.0, 0.5, 5.0};
    UtilityLossLoads loads;
    loads.fans = 0.3e6;
    loads.fws_pumps = 0.2e6;
    loads.air_side = 0.5e6;
    loads.ups_input = 4e6;
    loads.trim_chillers = true;
    const UtilityLossPlan all = planUtilityLoss(o, fleet, loads);
    ASSERT_EQ(all.blocks.size(), 3u);
    EXPECT_DOUBLE_EQ(all.generators_online, 110.0);
    EXPECT_DOUBLE_EQ(all.fws_pumps_on, 110.0 + 5.0);
    EXPECT_DOUBLE_EQ(all.fans_on, 110.0 + 10.0);
    EXPECT_DOUBLE_EQ(all.air_side_on, 115.0 + 30.0);
    EXPECT_DOUBLE_EQ(all.chillers_on, 115.0 + 120.0);
    EXPECT_DOUBLE_EQ(all.walk_in_start, 120.0);
    EXPECT_DOUBLE_EQ(all.walk_in_end, 130.0);
    EXPECT_DOUBLE_EQ(all.it_restart_at, 130.0 + 300.0);
    EXPECT_DOUBLE_EQ(all.blocks[2].step, 0.4e6);  // 4 MW over 10 s, judged per second
    EXPECT_DOUBLE_EQ(all.blocks[2].total, 5e6);
    EXPECT_EQ(all.blocks[1].what, "air side and trim chillers");
    // A plant without trim chillers (the reference's dry coolers) plans no chiller restart and
    // names the block for what it carries; it read "trim chillers available" at 235 s.
    UtilityLossLoads no_trim = loads;
    no_trim.trim_chillers = false;
    const UtilityLossPlan dry = planUtilityLoss(o, fleet, no_trim);
    EXPECT_EQ(dry.blocks[1].what, "air side");
    EXPECT_FALSE(std::isfinite(dry.chillers_on));
    EXPECT_DOUBLE_EQ(dry.air_side_on, all.air_side_on);
    // Two sets fail: 4 MW online, the UPS (5 MW with the cooling) is refused; the battery
    // then has to carry it for good.
    o.generators_failing = 2;
    const UtilityLossPlan two = planUtilityLoss(o, fleet, loads);
    EXPECT_TRUE(two.blocks[0].applied && two.blocks[1].applied);
    EXPECT_FALSE(two.blocks[2].applied);
    EXPECT_FALSE(std::isfinite(two.walk_in_end));
    EXPECT_FALSE(std::isfinite(two.it_restart_at));
    // All fail: nothing starts, nothing comes back.
    o.generators_failing = 4;
    const UtilityLossPlan none = planUtilityLoss(o, fleet, loads);
    EXPECT_TRUE(none.blocks.empty());
    EXPECT_FALSE(std::isfinite(none.fans_on));
}

TEST(UtilityLoss, BatteryShorterThanGeneratorStartDropsTheItLoadWhenItEmpties) {
    // The battery holds 1 % at the loss. Before it the UPS runs at x = 0.4708 per unit
    // (recorded, 8.43 MW IT + CDU pumps); the catalog gives η(0.4708) = 0.96 + 0.2208/0.25 ×
    // 0.01 = 0.96883, so the battery lasts t = 0.01 × 300 s × 0.96883/(0.4708 × 0.97) = 6.36 s:
    // the IT load drops at ≈ 66.4 s, before the generators even start (70 s). The generators
    // carry the UPS from 90 s; the racks restart 30 s later (it_restart_s), at 120 s.
    const RunOutcome r = run(utilityLoss(180.0, {{"battery_soe_pct", 1}, {"it_restart_s", 30}}));
    const double x = at(r, "power", "ups_loading", kLoss - 0.5);
    const double t_hand = 0.01 * kTr * etaCatalog(x) / (x * 0.97);
    EXPECT_NEAR(x, 0.4708, 0.002);
    EXPECT_NEAR(metric(r, "it_dropped_at_s"), t_hand, 0.02 * t_hand);
    EXPECT_NEAR(logged(r, "UPS battery empty"), kLoss + t_hand, 0.02 * t_hand);
    EXPECT_NEAR(metric(r, "ups_ride_through_s"), t_hand, 0.02 * t_hand);
    // The racks draw nothing while dropped, and come back 30 s after the generators carry the
    // UPS (latch τ = 0.1 s: within 0.5 s).
    EXPECT_LT(at(r, "power", "it_power", 100.0), 1e3);
    EXPECT_NEAR(logged(r, "IT load back"), 120.0, 0.5);
    // Energy not served: the pre-loss IT power (8.43 MW) over the 120 − 66.4 = 53.6 s gap.
    const double p_it = at(r, "power", "it_power", kLoss - 0.5);
    EXPECT_NEAR(metric(r, "it_load_lost_MWh"), p_it * (120.0 - kLoss - t_hand) / 3.6e9,
                0.02 * p_it * 53.6 / 3.6e9);
    // The dies follow: with no power they fall from ≈ 75.6 °C toward the coolant left in the
    // racks (≈ 52 °C, no flow: the CDU pumps lost their UPS supply too). The junction sits
    // R_jc·P ≈ 0.022 K/W × 1.2 kW ≈ 26 K above the coolant at load: at least 15 K of that must
    // be gone within 4 s of the drop (τ_junction ≈ 0.05 s, plate τ ≈ 3 s); measured from 1 s
    // before it, when the dies are still at load.
    const double Tj_drop = at(r, "cooling", "mean_gpu_junction_temp", kLoss + t_hand - 1.0);
    EXPECT_LT(at(r, "cooling", "mean_gpu_junction_temp", kLoss + t_hand + 4.0), Tj_drop - 15.0);
    EXPECT_LT(at(r, "cooling", "max_gpu_junction_temp", 110.0), Tj_drop - 15.0);
    EXPECT_LT(std::abs(num(r.summary, "energy_balance_rel_error")), 1e-3);
}

TEST(UtilityLoss, RidesThroughOnBatteryAndTheLoopsStoreTheHeatDuringTheGap) {
    // Full battery: the UPS carries IT and the CDU pumps from 60 s until its input is on the
    // generators at 90 s (start 10 s, blocks at 70 and 75 s, walk-in 80 → 90 s): ride-through
    // 30 s, nothing dropped.
    const RunOutcome r = run(utilityLoss(180.0));
    EXPECT_NEAR(metric(r, "ups_ride_through_s"), 30.0, 1e-9);
    EXPECT_TRUE(std::isnan(metric(r, "it_dropped_at_s")));
    EXPECT_EQ(metric(r, "it_load_lost_MWh"), 0.0);
    EXPECT_GT(at(r, "power", "it_power", 100.0), 8.0e6);
    EXPECT_DOUBLE_EQ(metric(r, "fans_back_at_s"), 20.0);  // block at 70 s + 10 s restart
    // Heat stored in the loops: from 60 s until the facility pumps restart at 75 s (block at
    // 70 s + 5 s) no water reaches the CDUs and the fans are off, so the TCS is a closed mass
    // taking the racks' liquid heat. By hand, per rack (rack_loops.json, cdus.json; PG25
    // ρ = 1,019 kg/m³, c_p = 3,972 J/(kg·K)):
    //   cold plates 30 kJ/K + junctions 72 × 4 J/K + rack coolant 20 L × 4.048 kJ/(L·K)
    //   = 111.2 kJ/K; CDU secondary 100 L per CDU / 8 racks = 50.6 kJ/K; total 161.8 kJ/K,
    //   site 64 × 161.8 = 10.36 MJ/K
    //   heat in: the steady liquid heat before the loss, Q = 7.19 MW (recorded), so
    //   ΔT = Q·Δt/C = 7.19 MW × 15 s / 10.36 MJ/K = 10.4 K for the whole loop.
    // Read from the run as the same capacities' weighted rise: plates and junctions at the
    // plate temperature, the racks' coolant at the return (their fluid node is the outlet), the
    // CDU's at its supply. Not the junction alone: how the rise splits between the plates and
    // the supply depends on the flow (the CDU pumps hold theirs while the loop runs hot: plates
    // +5.9 K, supply +16.3 K; with the pumps slowed, as before, +8.3 and +13.3 K).
    const double Q = at(r, "cooling", "heat_to_liquid", kLoss - 0.5);
    EXPECT_NEAR(Q, 7.19e6, 0.05e6);
    const auto pg25 = thermal::Coolant::byName("PG25");
    const double rho_cp = pg25.referenceDensity() * pg25.specificHeat(318.15) * 1e-3;  // J/(L·K)
    const double C = 64 * (30e3 + 72 * 4.0 + 20 * rho_cp + 100.0 / 8 * rho_cp);
    const double dT_hand = Q * 15.0 / C;
    EXPECT_NEAR(dT_hand, 10.4, 0.1);
    auto rise = [&](const char* name) {
        return at(r, "cooling", name, 75.0) - at(r, "cooling", name, kLoss);
    };
    const double dT = (64 * (30e3 + 72 * 4.0) * rise("max_gpu_plate_temp") +
                       64 * 20 * rho_cp * rise("tcs_return_temp") +
                       64 * 100.0 / 8 * rho_cp * rise("tcs_supply_temp")) /
                      C;
    // 5 %: the pump heat and the CDUs' heat exchange with their own standing facility water
    // are not in the hand figure (10.5 K measured).
    EXPECT_NEAR(dT, dT_hand, 0.05 * dT_hand);
    // Once water and fans are back the loops give the heat up again: 30 s later the junctions
    // are within 3 K of where they started.
    EXPECT_LT(at(r, "cooling", "mean_gpu_junction_temp", 120.0),
              at(r, "cooling", "mean_gpu_junction_temp", kLoss) + 3.0);
    EXPECT_LT(std::abs(num(r.summary, "energy_balance_rel_error")), 1e-3);
    // The CRAH plant is unpowered from the loss until its block (75 s) and its 30 s restart
    // (utility_loss.h): 45 s in which the whole room air load goes unremoved. The load by hand,
    // as in air_side_test.cpp: the racks' heat to air (recorded), fabric outside the racks,
    // the 150 kW of other loads, 40 % of the CDU pump power (their losses) and ~3.3 % of IT
    // (indoor electrical losses, domain-facts D1).
    EXPECT_NEAR(metric(r, "air_side_unmet_hours_h") * 3600.0, 45.0, 1e-6);
    const double air_hand = at(r, "cooling", "heat_to_air", kLoss - 0.5) +
                            1e3 * metric(r, "fabric_power_kW") + 150e3 +
                            0.4 * at(r, "cooling", "cdu_pump_power", kLoss - 0.5) +
                            0.033 * at(r, "power", "it_power", kLoss - 0.5);
    EXPECT_NEAR(metric(r, "max_air_side_unmet_kW") * 1e3, air_hand, 0.05 * air_hand);
    EXPECT_EQ(at(r, "cooling", "air_side_unmet", kLoss - 0.5), 0.0);
    EXPECT_EQ(at(r, "cooling", "air_side_unmet", 110.0), 0.0);
}

TEST(UtilityLoss, CduPumpsOnTheUpsHoldTheirFlowWhileTheLoopRunsHot) {
    // With the facility water stopped the TCS supply rises toward the return and the racks'
    // ΔT collapses; the pumps' differential-pressure reset read that as "less flow needed" and
    // slowed the pumps on the UPS from 0.61 to 0.32 of speed for ~15 s, halving the rack flow
    // just when the plates heat (physics audit). The reset is suspended while the supply is
    // more than 1–2 K above its setpoint (thermal/cdu.h): the pumps may not fall below their
    // speed before the loss until the supply is back within 1 K. Pumps controlled on the TCS
    // ΔT itself ("delta_t") fell alike, to 0.28 of speed, and the dies throttled for 5.9 s
    // (junction 87.9 °C); they are overridden toward the design flow the same way.
    for (const char* control : {"differential_pressure", "delta_t"}) {
        SCOPED_TRACE(control);
        Json j = utilityLoss(180.0);
        j["cooling"]["cdu"]["control_variable"] = control;
        const RunOutcome r = run(j);
        const double before = at(r, "cooling", "cdu_pump_speed", kLoss - 0.5);
        const double setpoint = at(r, "cooling", "tcs_supply_temp", kLoss - 0.5);
        const auto& time = r.report.timeseries.time;
        const auto& speed = channel(r, "cooling", "cdu_pump_speed");
        const auto& supply = channel(r, "cooling", "tcs_supply_temp");
        double hottest = 0.0, slowest_hot = 1.0;
        for (std::size_t i = 0; i < time.size(); ++i) {
            hottest = std::max(hottest, supply[i] - setpoint);
            if (time[i] > kLoss && supply[i] - setpoint > 2.0) {
                slowest_hot = std::min(slowest_hot, speed[i]);
            }
        }
        EXPECT_GT(hottest, 10.0) << "the supply ran hot, as the test needs";
        EXPECT_GE(slowest_hot, before - 1e-3) << "pump speed before the loss " << before;
        EXPECT_EQ(metric(r, "gpu_throttle_hours_h"), 0.0);
    }
}

TEST(UtilityLoss, WhatWasNotHeldReadsInSentences) {
    // facility::notHeld: the lines the CLI prints under "not held", the GUI's banner and the
    // PDF's first page, from the metrics alone.
    const std::vector<Metric> m = {{"fws_hours_above_setpoint_h", 20.0 / 3600, "h"},
                                   {"fws_max_excess_K", 10.24, "K"},
                                   {"tcs_hours_above_setpoint_h", 0.0, "h"},
                                   {"tcs_max_excess_K", 0.0, "K"},
                                   {"air_side_unmet_hours_h", 2.5, "h"},
                                   {"max_air_side_unmet_kW", 1704.2, "kW"},
                                   {"gpu_throttle_hours_h", 0.0, "h"}};
    const std::vector<std::string> lines = notHeld(m);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], "facility supply above its setpoint for 20 s (up to 10.2 K)");
    EXPECT_EQ(lines[1], "air side short for 2.5 h (up to 1704 kW of room heat)");
    // A trip: how many racks, when the first went, and what the heat cost in compute.
    const std::vector<std::string> trip = notHeld({{"max_racks_tripped", 8.0, "1"},
                                                   {"first_trip_after_s", 32.5, "s"},
                                                   {"rack_hours_tripped_h", 1.127, "h"},
                                                   {"compute_lost_pct", 10.716, "%"},
                                                   {"gpu_hours_lost_h", 82.3, "GPU·h"},
                                                   {"gpu_hours_lost_to_trips_h", 81.16, "GPU·h"}});
    ASSERT_EQ(trip.size(), 2u);
    EXPECT_EQ(trip[0],
              "8 racks tripped on GPU temperature, the first 32.5 s after the event (1.1 "
              "rack-hours down)");
    EXPECT_EQ(trip[1],
              "compute lost to heat: 10.7 % of the scheduled GPU-hours (82.3 GPU-hours, 81.2 "
              "of them on tripped racks)");
    // An annual run has no event: the trip line then says no "after".
    EXPECT_EQ(notHeld({{"max_racks_tripped", 1.0, "1"}, {"rack_hours_tripped_h", 0.5, "h"}}),
              std::vector<std::string>{"1 rack tripped on GPU temperature (0.5 rack-hours down)"});
    // A design point has none of these metrics: nothing to say.
    EXPECT_TRUE(notHeld({{"design_pue", 1.15, "1"}}).empty());
}

TEST(UtilityLoss, RearDoorHeatStaysInTheRoomWhileTheFacilityWaterStands) {
    // Rear doors put the racks' air heat into the facility water. From the loss at 60 s until
    // the facility pumps restart at 75 s the water stands, so the doors' heat cannot leave
    // through it and stays in the room air. The run loses no energy either way: what the
    // utility, UPS and stores give equals what leaves. Before the plant reported the heat its
    // water took, the doors' heat vanished in those 15 s: the racks' 0.79 MW of air heat ×
    // 15 s = 11.9 MJ of the 5.31 GJ the run draws, a balance error of 2.2e-3 (measured
    // 2.25e-3), against 3e-8 with CRAH units on the same event.
    Json j = utilityLoss(600.0);
    j["cooling"]["air_side"] = {{"kind", "rear_door"}};
    const RunOutcome r = run(j);
    EXPECT_LT(std::abs(num(r.summary, "energy_balance_rel_error")), 1e-6);
}

TEST(UtilityLoss, BatteryStateOfEnergyAtThePickupMatchesHandIntegration) {
    // Full battery; the state of energy when the UPS input is fully on the generators (90 s)
    // against the hand integral of the recorded loading (handSoeDrop): ≈ 25 s of draw at
    // 1.59e-3 per s less 5 s of charge at 2.92e-4 per s ≈ 0.038, within 2 % of the drop. The
    // minimum is just before 90 s, where the charger overtakes the fading battery draw.
    const RunOutcome r = run(utilityLoss(180.0));
    const double drop_hand = handSoeDrop(r, kLoss, 90.0);
    EXPECT_NEAR(drop_hand, 0.038, 0.002);
    EXPECT_NEAR(1.0 - at(r, "power", "ups_battery_soe", 90.0), drop_hand, 0.02 * drop_hand);
    EXPECT_NEAR(1.0 - metric(r, "ups_battery_soe_min"), drop_hand, 0.03 * drop_hand);
    // Recharging at the charger limit afterwards: +2.92e-4 per s (taper only within 1 % of
    // full), so 90 s later it has regained 0.0263.
    EXPECT_NEAR(at(r, "power", "ups_battery_soe", 179.0) - at(r, "power", "ups_battery_soe", 90.0),
                89.0 * 0.1 * 0.95 * 0.95 * 0.97 / kTr, 0.02 * 89.0 * 2.92e-4);
}

TEST(UtilityLoss, WhatFailedBeforeOrDuringTheOutageStaysFailedAfterIt) {
    // An audit: the generators' restart put the trim chiller back although it had tripped
    // before the loss, and a facility pump lost while the pumps stood (a trip during the
    // outage) came back with them. The restart now returns each schedule to what the other
    // events leave it at by then. Three units of 18 left (15 lost at 10 s) so that the chiller
    // trims, the chiller tripped at 30 s, the utility lost at 60 s (chillers back at 85 s on
    // this plan), all three facility pumps lost at 65 s (their block restarts them at 75 s).
    Json j = utilityLoss(300.0, {{"chillers_restart_s", 10.0}});
    j["cooling"]["heat_rejection"]["trim_chiller"] = {{"units", 4},
                                                      {"model", "york_ycal0033ee_air_cooled"}};
    j["study"]["output_interval_s"] = 1.0;
    const Json loss = j["events"][0];
    j["events"] =
        Json::array({{{"type", "heat_rejection_unit_loss"}, {"at_s", 10.0}, {"units", 15}}, loss});
    const RunOutcome trims = run(j);
    EXPECT_GT(at(trims, "cooling", "chiller_power", 20.0), 50e3);   // the premise: it trims
    EXPECT_GT(at(trims, "cooling", "chiller_power", 200.0), 50e3);  // and is back after
    j["events"].push_back({{"type", "chiller_trip"}, {"at_s", 30.0}});
    j["events"].push_back({{"type", "fws_pump_trip"}, {"at_s", 65.0}, {"pumps", 3}});
    const RunOutcome r = run(j);
    EXPECT_EQ(at(r, "cooling", "chiller_power", 200.0), 0.0);
    EXPECT_EQ(at(r, "cooling", "fws_pumps_running", 200.0), 0.0);
    EXPECT_EQ(at(r, "cooling", "fws_flow", 200.0), 0.0);
}

TEST(UtilityLoss, GeneratorsFailingToStart) {
    // 7 sets installed (N+1), 2.5 MW each. One fails: the 6 left (15 MW, step limit 7.5 MW)
    // take every block, the ride-through is unchanged.
    {
        const RunOutcome r = run(utilityLoss(180.0, {{"generators_failing", 1}}));
        EXPECT_NEAR(metric(r, "ups_ride_through_s"), 30.0, 1e-9);
        EXPECT_TRUE(std::isnan(metric(r, "it_dropped_at_s")));
        EXPECT_NEAR(logged(r, "6 of 7 generator sets online"), 70.0, 1e-9);
    }
    // Four fail: the 3 left (7.5 MW) take the cooling blocks but not the UPS (10.5 MW with
    // it), so the UPS runs on its full battery until it is empty: t = 300 s × η(x)/(x·η(1))
    // = 636 s at x = 0.4708, and the IT load never comes back.
    const RunOutcome r = run(utilityLoss(780.0, {{"generators_failing", 4}}));
    const double x = at(r, "power", "ups_loading", kLoss - 0.5);
    const double t_hand = kTr * etaCatalog(x) / (x * 0.97);
    EXPECT_NEAR(t_hand, 636.0, 2.0);
    EXPECT_NEAR(metric(r, "it_dropped_at_s"), t_hand, 0.02 * t_hand);
    EXPECT_FALSE(std::isfinite(logged(r, "IT load back")));
    // The battery is at its minimum, empty, from the drop on: its charge then trails off
    // within the integrator's tolerance (1e-5 and below, slightly negative by the end), and
    // the lowest of those values had been logged as "at its minimum, -0.0 %" minutes later.
    EXPECT_EQ(metric(r, "ups_battery_soe_min"), 0.0);
    EXPECT_FALSE(std::isfinite(logged(r, "UPS battery at its minimum")));
    EXPECT_TRUE(std::isfinite(logged(r, "generator block refused: UPS walk-in")));
    EXPECT_TRUE(r.summary["contingency"]["overload"].get<bool>());
    EXPECT_LT(at(r, "power", "it_power", 770.0), 1e3);
    EXPECT_LT(std::abs(num(r.summary, "energy_balance_rel_error")), 1e-3);
}

}  // namespace
}  // namespace dctwin::facility::test
