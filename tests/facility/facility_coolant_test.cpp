// The facility loop's liquid (/cooling/facility_loop/coolant): a glycol against frost on the
// outdoor coils, what it costs the plant, and the freeze check against the site's winter
// design dry bulb. Hand figures in the comments.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "facility/metrics.h"
#include "facility/sizing.h"
#include "test_util.h"
#include "tests/common/expect_error.h"

namespace dctwin::facility::test {
namespace {

/// The freeze line among what was not held ("" when there is none).
std::string freezeLine(const Json& summary) {
    for (const std::string& line : notHeldInSummary(summary)) {
        if (line.find("freezes") != std::string::npos) return line;
    }
    return {};
}

Json oneSummerDay(Json j) {
    j["study"] = annualStudy("07-15", 1, 3600);
    return j;
}

TEST(FacilityCoolant, WaterInMilwaukeesOutdoorCoilsIsReportedAndPg40IsNot) {
    // Milwaukee's EPW: "DESIGN CONDITIONS,…,Heating,1,-20,…": the 99.6 % heating dry bulb is
    // −20.0 °C. Water freezes at 0 °C; PG40 at −21.1 °C (ASHRAE Fundamentals ch. 31; the Airedale
    // DeltaChill manual's glycol table: −21.1 °C at 40 %), PG30 at −12.8 °C.
    const RunOutcome water = run(oneSummerDay(reference()));
    EXPECT_NEAR(num(water.summary, "heating_design_dry_bulb_C"), -20.0, 1e-9);
    EXPECT_NEAR(num(water.summary, "fws_freezing_point_C"), 0.0, 1e-9);
    EXPECT_EQ(freezeLine(water.summary),
              "facility loop freezes at 0.0 °C, above the site's 99.6 % heating dry bulb "
              "(-20.0 °C): its outdoor coils need a liquid freezing below that "
              "(facility_loop/coolant, or a glycol loop outdoors behind a plate heat exchanger: "
              "heat_rejection/outdoor_loop)");
    Json pg30 = reference(), pg40 = reference();
    pg30["cooling"]["facility_loop"] = {{"coolant", "PG30"}};
    pg40["cooling"]["facility_loop"] = {{"coolant", "PG40"}};
    const RunOutcome r30 = run(oneSummerDay(pg30)), r40 = run(oneSummerDay(pg40));
    EXPECT_NEAR(num(r30.summary, "fws_freezing_point_C"), -12.8, 1e-9);
    EXPECT_NE(freezeLine(r30.summary).find("freezes at -12.8 °C"), std::string::npos);
    EXPECT_NEAR(num(r40.summary, "fws_freezing_point_C"), -21.1, 1e-9);
    EXPECT_EQ(freezeLine(r40.summary), "");
    // What PG40 costs the CDUs: rated on water, their facility-side film is 0.41 of water's
    // (tests/thermal/cdu_test.cpp), so at the facility supply the rated 4 K approach gives
    // (31 °C) they no longer hold the 35 °C TCS supply on a July day, which water does.
    const auto setpointLine = [](const Json& summary) {
        for (const std::string& line : notHeldInSummary(summary)) {
            if (line.rfind("TCS supply above its setpoint", 0) == 0) return true;
        }
        return false;
    };
    EXPECT_TRUE(setpointLine(r40.summary));
    EXPECT_FALSE(setpointLine(water.summary));
    EXPECT_GT(num(r40.summary, "tcs_max_excess_K"), 0.0);
    EXPECT_EQ(num(water.summary, "tcs_max_excess_K"), 0.0);
    // The excess quoted ("up to … K") is over the 35 °C setpoint, the warmest CDU's sampled
    // supply less 308.15 K (not over the setpoint plus the 0.05 K the hours are counted from).
    double warmest = 0.0;
    for (double v : r40.report.timeseries.at("cooling", "tcs_supply_temp_max").values) {
        warmest = std::max(warmest, v - 308.15);
    }
    EXPECT_GT(warmest, 0.05);
    EXPECT_NEAR(num(r40.summary, "tcs_max_excess_K"), warmest, 1e-9);
    EXPECT_GT(num(r40.summary, "design_tcs_supply_temp_C"),
              num(water.summary, "design_tcs_supply_temp_C") + 0.3);
    // Phoenix: 99.6 % heating dry bulb 4.0 °C in its EPW's DESIGN CONDITIONS, above water's
    // freezing point, so water is no exposure there.
    Json phoenix = reference();
    phoenix["site"]["weather"] = weather("phoenix");
    const RunOutcome hot = run(oneSummerDay(phoenix));
    EXPECT_GT(num(hot.summary, "heating_design_dry_bulb_C"), 0.0);
    EXPECT_EQ(freezeLine(hot.summary), "");
}

TEST(FacilityCoolant, ACoolingTowerRunsOnWaterAndSaysSo) {
    Json j = reference();
    j["cooling"]["heat_rejection"] = {{"type", "cooling_tower"}};
    j["cooling"]["facility_loop"] = {{"coolant", "PG40"}};
    expectInputError([&] { scenario(j); },
                     {"/cooling/facility_loop/coolant", "'PG40'", "cooling tower",
                      "valid choice with cooling_tower: water"});
    // A tower's plant has no outdoor coils of the loop's liquid: no freeze figures, no line.
    j["cooling"]["facility_loop"] = {{"coolant", "water"}};
    j["site"]["weather"] = weather("phoenix");
    const RunOutcome tower = run(oneSummerDay(j));
    EXPECT_FALSE(tower.summary.contains("fws_freezing_point_C"));
    EXPECT_EQ(freezeLine(tower.summary), "");
}

TEST(FacilityCoolant, Pg40CostsPumpHeadUnitsAndCapacityAtTheDesignPoint) {
    Json j = reference();
    j["cooling"]["facility_loop"] = {{"coolant", "PG40"}};
    const SiteSizing water = sizeSite(scenario(reference())), glycol = sizeSite(scenario(j));
    const HallSizing &w = water.halls.front(), &g = glycol.halls.front();
    // Pump head: 250 kPa given with water, scaled by Blasius at the 31 °C supply setpoint,
    // (ρ/ρ_w)^(3/4)·(μ/μ_w)^(1/4). From the coolant tables at 30 °C: ρ 1,031.03 / 995.65 kg/m³,
    // μ 3.09 / 0.7973 mPa·s: 1.0264 × 1.4031 = 1.440; at 31 °C a little less (both viscosities
    // fall, the glycol's faster). The Airedale DeltaChill manual's pressure-drop factor for 40 %
    // glycol is 1.45 (for its evaporators, with its own flow correction).
    EXPECT_EQ(w.fws_pressure_drop_factor, 1.0);
    EXPECT_GT(g.fws_pressure_drop_factor, 1.40);
    EXPECT_LT(g.fws_pressure_drop_factor, 1.44);
    EXPECT_NEAR(g.plant.fws_pumps.design_head, 250e3 * g.fws_pressure_drop_factor, 1e-6);
    EXPECT_NE(g.fws_pump_rule.find("PG40 through pipes of 250 kPa with water"), std::string::npos)
        << g.fws_pump_rule;
    // The same design flow (the CDUs' rated facility flow) carries less heat per kelvin
    // (ρ·c_p 1,025 × 3,768 against 992 × 4,180 J/(m³ K) at 40 °C: −6.9 %) through a coil
    // whose tube film is 0.39 of water's: each unit rejects less at the design weather and
    // more units are needed.
    EXPECT_EQ(w.design_fws_flow, g.design_fws_flow);
    EXPECT_LT(g.unit_capacity_at_design, 0.9 * w.unit_capacity_at_design);
    EXPECT_GT(g.plant.units, w.plant.units);
    EXPECT_EQ(g.plant.coolant, "PG40");
}

TEST(FacilityCoolant, AnOutdoorGlycolLoopKeepsTheFacilityWaterIndoors) {
    // The reference's adiabatic coolers on PG40 behind a plate exchanger (2 K approach), the
    // facility loop and CDUs on water. The coolers must now make glycol 2 K below the 31 °C
    // facility supply: dry in the 27.5 °C air below the default 28 °C switch-over they cannot
    // (sizing says so and names a switch-over of 25.9 °C), so the pads come in at 25 °C.
    Json j = reference();
    j["cooling"]["heat_rejection"]["outdoor_loop"] = {{"coolant", "PG40"}};
    expectInputError([&] { sizeSite(scenario(j)); },
                     {"/cooling/heat_rejection/switch_over_temp_C", "at or below 25.9"});
    j["cooling"]["heat_rejection"]["switch_over_temp_C"] = 25;
    const SiteSizing water = sizeSite(scenario(reference())), iso = sizeSite(scenario(j));
    const HallSizing &w = water.halls.front(), &g = iso.halls.front();
    ASSERT_TRUE(g.plant.outdoor.has_value());
    EXPECT_EQ(g.plant.coolant, "water");
    EXPECT_EQ(g.plant.bankCoolant(), "PG40");
    EXPECT_NEAR(g.plant.outdoor->designSupply(), g.fws_supply_setpoint - 2.0, 1e-12);
    // The facility loop's own pumps and head are water's; the exchanger is sized on the
    // same design heat the units are counted on.
    EXPECT_EQ(g.fws_pressure_drop_factor, 1.0);
    EXPECT_NEAR(g.plant.outdoor->designDuty(), g.design_heat_rejection, 1e-6);
    // Glycol 2 K colder through the same coils (and a glycol tube film): each unit rejects
    // less at the design weather, and more units are needed.
    EXPECT_LT(g.unit_capacity_at_design, 0.9 * w.unit_capacity_at_design);
    EXPECT_GT(g.plant.units, w.plant.units);

    const RunOutcome r = run(oneSummerDay(j)), rw = run(oneSummerDay(reference()));
    // Only the outdoor loop's liquid stands in frost, and it freezes below −20.0 °C.
    EXPECT_NEAR(num(r.summary, "outdoor_loop_freezing_point_C"), -21.1, 1e-9);
    EXPECT_FALSE(r.summary.contains("fws_freezing_point_C"));
    EXPECT_EQ(freezeLine(r.summary), "");
    // The CDUs keep water on their facility side: no TCS miss, unlike PG40 through them
    // (the test above).
    EXPECT_EQ(num(r.summary, "tcs_max_excess_K"), 0.0);
    // The outdoor pumps' work goes out through the coolers, their losses to the air: the
    // site's energy balance closes as the water-only plant's does.
    EXPECT_LT(std::abs(num(r.summary, "energy_balance_rel_error")), 1e-6);
    EXPECT_GT(num(r.summary, "fws_pump_energy_MWh"), num(rw.summary, "fws_pump_energy_MWh"));
}

/// A row of the summary's cooling table; a test failure (and an empty row) if it is missing.
const Json& coolingRow(const Json& summary, const std::string& element) {
    if (const Json* row = findRow(summary["sizing"]["cooling"], element)) return *row;
    ADD_FAILURE() << "no " << element << " row: " << summary["sizing"]["cooling"];
    static const Json none = Json::object();
    return none;
}

TEST(FacilityCoolant, TheOutdoorLoopsExchangersAndPumpsAreCountedWithTheirSpares) {
    // Defaults: one duty plate and a standby (N+1), two duty pumps and a standby (2+1), as
    // the CDUs and the facility pumps are counted (domain-facts D2: Tier III, concurrently
    // maintainable, is N+1 on the cooling path; without a spare the one plate carrying all
    // of the hall's heat is a single point of failure).
    Json j = reference();
    j["cooling"]["heat_rejection"]["outdoor_loop"] = {{"coolant", "PG40"}};
    j["cooling"]["heat_rejection"]["switch_over_temp_C"] = 25;
    const RunOutcome one = sizeScenario(scenario(j));
    const Json& hx = coolingRow(one.summary, "outdoor_hx");
    const Json& pumps = coolingRow(one.summary, "outdoor_pumps");
    EXPECT_EQ(hx.value("count", 0.0), 2.0);
    EXPECT_EQ(hx.value("redundancy", ""), "N+1");
    EXPECT_EQ(pumps.value("count", 0.0), 3.0);
    EXPECT_EQ(pumps.value("redundancy", ""), "2+1");
    // A standby takes a failed unit's duty: the N-1 loading is the design loading.
    EXPECT_EQ(hx.value("failure_loading_pct", 0.0), hx.value("design_loading_pct", 1.0));
    EXPECT_EQ(pumps.value("failure_loading_pct", 0.0), pumps.value("design_loading_pct", 1.0));

    // Three plates and four pumps with no spare: each carries a third (a quarter) of what one
    // did, and losing one puts its share on the others: N/(N − 1) = 3/2 (4/3) of the loading.
    Json k = j;
    k["cooling"]["heat_rejection"]["outdoor_loop"].update(
        {{"exchangers", 3}, {"exchangers_standby", 0}, {"pumps_duty", 4}, {"pumps_standby", 0}});
    const RunOutcome three = sizeScenario(scenario(k));
    const Json& hx3 = coolingRow(three.summary, "outdoor_hx");
    const Json& p4 = coolingRow(three.summary, "outdoor_pumps");
    EXPECT_EQ(hx3.value("count", 0.0), 3.0);
    EXPECT_EQ(hx3.value("redundancy", ""), "N");
    EXPECT_EQ(p4.value("redundancy", ""), "4+0");
    EXPECT_NEAR(hx3.value("rating", 0.0), hx.value("rating", 0.0) / 3.0,
                1e-9 * hx.value("rating", 0.0));
    EXPECT_NEAR(p4.value("rating", 0.0), pumps.value("rating", 0.0) / 2.0,
                1e-12 * pumps.value("rating", 0.0));
    EXPECT_NEAR(hx3.value("design_load_per_unit", 0.0), hx.value("design_load_per_unit", 0.0) / 3.0,
                1e-6 * hx.value("design_load_per_unit", 0.0));
    EXPECT_NEAR(hx3.value("failure_loading_pct", 0.0), 1.5 * hx3.value("design_loading_pct", 0.0),
                1e-9);
    EXPECT_NEAR(p4.value("failure_loading_pct", 0.0),
                4.0 / 3.0 * p4.value("design_loading_pct", 0.0), 1e-9);
    // The loading is the heat and flow at the design point: the exchangers pass the design
    // point's heat (less than the 8,960 kW design heat they are rated for: the design point's
    // racks and the CDUs' margins), and the tracking pumps run at the facility flow's share of
    // its design, as the facility pumps do.
    EXPECT_NEAR(pumps.value("design_loading_pct", 0.0),
                coolingRow(one.summary, "fws_pumps").value("design_loading_pct", 1.0), 1e-6);
    // At least one duty exchanger and pump; the error names the key and its range.
    Json bad = j;
    bad["cooling"]["heat_rejection"]["outdoor_loop"]["exchangers"] = 0;
    expectInputError([&] { scenario(bad); },
                     {"/cooling/heat_rejection/outdoor_loop/exchangers", "1"});
    // Counting changes no physics: parallel duty units are one unit of their sum.
    for (const char* metric :
         {"design_facility_power_kW", "design_setpoint_unmet_K", "design_heat_rejected_kW"}) {
        EXPECT_EQ(num(three.summary, metric), num(one.summary, metric)) << metric;
    }
}

TEST(FacilityCoolant, LosingOutdoorPlatesCostsApproachThenEverything) {
    // The CDU-trip contingency's July afternoon, its plant behind a PG40 loop of two duty
    // plates and one standby. One plate lost at 60 s, the standby valved in 300 s later: the
    // remaining plate takes the whole flow (UA 0.87 of the pair's, thermal/outdoor_loop.h),
    // so the coolers make the glycol colder and the facility supply holds; with the standby
    // in, the loop is back where it was.
    Json j = scenarioJson("contingency_cdu_pump_trip.json");
    j["cooling"]["heat_rejection"]["outdoor_loop"] = {{"exchangers", 2}};
    j["cooling"]["heat_rejection"]["switch_over_temp_C"] = 25;
    j["study"]["duration_s"] = 900.0;
    j["study"]["output_interval_s"] = 10.0;
    j["events"] = Json::array({{{"type", "outdoor_hx_loss"},
                                {"at_s", 60.0},
                                {"exchangers", 1},
                                {"standby_takeover_s", 300.0}}});
    const RunOutcome r = run(j);
    const auto& ts = r.report.timeseries;
    const auto& glycol = ts.at("cooling", "outdoor_supply_temp").values;
    const auto& fws = ts.at("cooling", "fws_supply_temp").values;
    const std::size_t before = 5, during = 20, after = 60;  // 50 s, 200 s, 600 s
    EXPECT_LT(glycol[during], glycol[before] - 0.1);
    EXPECT_NEAR(glycol[after], glycol[before], 1e-6);
    EXPECT_EQ(num(r.summary, "fws_max_excess_K"), 0.0);
    bool logged = false;
    for (const Json& e : r.summary["contingency"]["log"]) {
        logged |= e.value("event", "") == "standby plate exchanger valved in: 2 in service";
    }
    EXPECT_TRUE(logged) << r.summary["contingency"]["log"].dump();

    // Both plates lost and no standby valved in: nothing passes, the glycol pumps stop and the
    // facility supply climbs (the CDUs' valves open and the facility pumps speed up).
    j["events"] = Json::array({{{"type", "outdoor_hx_loss"}, {"at_s", 60.0}, {"exchangers", 2}}});
    const RunOutcome lost = run(j);
    // The one standby is left; no takeover was asked for.
    EXPECT_EQ(lost.summary["contingency"]["events"][0].value("standby_left", -1), 1);
    const auto& lt = lost.report.timeseries;
    EXPECT_EQ(lt.at("cooling", "hx_heat").values[during], 0.0);
    EXPECT_GT(lt.at("cooling", "hx_heat").values[before], 1e6);
    const auto& supply = lt.at("cooling", "fws_supply_temp").values;
    EXPECT_GT(supply.back(), supply[before] + 5.0);
    EXPECT_GT(num(lost.summary, "fws_max_excess_K"), 5.0);
    EXPECT_NEAR(fws[before], supply[before], 1e-9);

    // A takeover with no standby left valves nothing in and logs nothing: one plate and no
    // spare, lost.
    Json bare = j;
    bare["cooling"]["heat_rejection"]["outdoor_loop"] = {{"exchangers", 1},
                                                         {"exchangers_standby", 0}};
    bare["events"] = Json::array({{{"type", "outdoor_hx_loss"},
                                   {"at_s", 60.0},
                                   {"exchangers", 1},
                                   {"standby_takeover_s", 60.0}}});
    const RunOutcome alone = run(bare);
    const Json& ev = alone.summary["contingency"]["events"][0];
    EXPECT_EQ(ev.value("standby_left", -1), 0);
    EXPECT_FALSE(ev.contains("exchangers_running_after_takeover"));
    for (const Json& e : alone.summary["contingency"]["log"]) {
        EXPECT_EQ(e.value("event", "").find("valved in"), std::string::npos) << e.dump();
    }
    EXPECT_EQ(alone.report.timeseries.at("cooling", "hx_heat").values.back(), 0.0);
    // A plate lost while a takeover is pending counts before it: one lost at 60 s (the standby
    // due at 360 s), the other at 100 s. Between, nothing passes; the standby then valves in
    // the one healthy plate left. With the standby lost too, there is none to valve in.
    Json pending = j;
    pending["events"] = Json::array({{{"type", "outdoor_hx_loss"},
                                      {"at_s", 60.0},
                                      {"exchangers", 1},
                                      {"standby_takeover_s", 300.0}},
                                     {{"type", "outdoor_hx_loss"}, {"at_s", 100.0}}});
    const RunOutcome meanwhile = run(pending);
    const auto& hx = meanwhile.report.timeseries.at("cooling", "hx_heat").values;
    EXPECT_GT(hx[8], 1e6);   // 80 s: one plate
    EXPECT_EQ(hx[20], 0.0);  // 200 s: none
    EXPECT_GT(hx[60], 1e6);  // 600 s: the standby
    EXPECT_EQ(meanwhile.summary["contingency"]["events"][0].value(
                  "exchangers_running_after_takeover", -1),
              1);
    pending["events"][1]["exchangers"] = 2;
    const RunOutcome gone = run(pending);
    EXPECT_EQ(gone.report.timeseries.at("cooling", "hx_heat").values[60], 0.0);
    bool none_left = false;
    for (const Json& e : gone.summary["contingency"]["log"]) {
        none_left |= e.value("event", "") == "no standby plate exchanger left to valve in";
        EXPECT_EQ(e.value("event", "").find("valved in:"), std::string::npos) << e.dump();
    }
    EXPECT_TRUE(none_left) << gone.summary["contingency"]["log"].dump();

    // The event needs an outdoor loop, and no more plates than are installed.
    Json none = j;
    none["cooling"]["heat_rejection"].erase("outdoor_loop");
    expectInputError([&] { run(none); }, {"/events/0", "outdoor_hx_loss needs an outdoor loop"});
    j["events"] = Json::array({{{"type", "outdoor_hx_loss"}, {"at_s", 60.0}, {"exchangers", 4}}});
    expectInputError([&] { run(j); }, {"/events/0/exchangers", "more than the 3 installed"});
}

TEST(FacilityCoolant, LosingOutdoorPumpsCutsTheGlycolFlowOnlyBeyondTheStandby) {
    // The July afternoon above behind a PG40 loop with constant-speed pumps, 2 duty + 1
    // standby. One pump lost at 60 s: the standby runs in its place and nothing moves. Two
    // lost: the one left runs against the loop at √2.5/2 = 0.791 of the design flow
    // (thermal/outdoor_loop.h), the exchanger passes less per kelvin and the coolers make the
    // glycol colder to hold the facility supply. All three: the loop stops.
    Json j = scenarioJson("contingency_cdu_pump_trip.json");
    j["cooling"]["heat_rejection"]["outdoor_loop"] = {{"pump_control", "constant_speed"}};
    j["cooling"]["heat_rejection"]["switch_over_temp_C"] = 25;
    j["study"]["duration_s"] = 900.0;
    j["study"]["output_interval_s"] = 10.0;
    auto lose = [&](int pumps) {
        Json k = j;
        k["events"] =
            Json::array({{{"type", "outdoor_pump_trip"}, {"at_s", 60.0}, {"pumps", pumps}}});
        return run(k);
    };
    const std::size_t before = 5, during = 30;  // 50 s, 300 s
    const RunOutcome one = lose(1);
    const auto& flow1 = one.report.timeseries.at("cooling", "outdoor_flow").values;
    const double design = flow1[before];
    EXPECT_GT(design, 0.1);
    for (double q : flow1) EXPECT_EQ(q, design);
    const Json& ev1 = one.summary["contingency"]["events"][0];
    EXPECT_EQ(ev1.value("pumps_running", -1), 2);
    EXPECT_EQ(ev1.value("flow_available_pct", -1.0), 100.0);

    const RunOutcome two = lose(2);
    const auto& ts = two.report.timeseries;
    const double r = std::sqrt(1.25 / 2.0);
    EXPECT_NEAR(ts.at("cooling", "outdoor_flow").values[during], r * design, 1e-9 * design);
    const Json& ev2 = two.summary["contingency"]["events"][0];
    EXPECT_EQ(ev2.value("pumps_running", -1), 1);
    EXPECT_NEAR(ev2.value("flow_available_pct", -1.0), 100.0 * r, 0.005);  // to 0.01 %
    const auto& glycol = ts.at("cooling", "outdoor_supply_temp").values;
    const auto& glycol1 = one.report.timeseries.at("cooling", "outdoor_supply_temp").values;
    EXPECT_LT(glycol[during], glycol1[during] - 0.1);
    EXPECT_EQ(num(two.summary, "fws_max_excess_K"), 0.0);
    // The loop's pump power on its own channel, by the cube of the flow (friction only, the
    // efficiency held at design): 0.791³ = 0.494 of the design's.
    const double p1 = one.report.timeseries.at("cooling", "outdoor_pump_power").values[during];
    EXPECT_GT(p1, 10e3);
    EXPECT_NEAR(ts.at("cooling", "outdoor_pump_power").values[during], r * r * r * p1, 1e-6 * p1);

    const RunOutcome all = lose(3);
    const auto& at = all.report.timeseries;
    EXPECT_EQ(at.at("cooling", "outdoor_flow").values[during], 0.0);
    EXPECT_EQ(at.at("cooling", "hx_heat").values[during], 0.0);
    EXPECT_GT(num(all.summary, "fws_max_excess_K"), 5.0);

    // The event needs an outdoor loop, and no more pumps than are installed.
    Json none = j;
    none["cooling"]["heat_rejection"].erase("outdoor_loop");
    none["events"] = Json::array({{{"type", "outdoor_pump_trip"}, {"at_s", 60.0}}});
    expectInputError([&] { run(none); },
                     {"/events/0", "outdoor_pump_trip needs an outdoor loop", "fws_pump_trip"});
    j["events"] = Json::array({{{"type", "outdoor_pump_trip"}, {"at_s", 60.0}, {"pumps", 2}},
                               {{"type", "outdoor_pump_trip"}, {"at_s", 90.0}, {"pumps", 2}}});
    expectInputError([&] { run(j); }, {"/events/1/pumps", "4 outdoor loop pumps lost in all",
                                       "more than the 3 installed"});
    // Refused as the scenario is read, so `validate` and `size` say what `run` says (they
    // called these "valid").
    expectInputError([&] { scenario(j); }, {"/events/1/pumps", "more than the 3 installed"});
    expectInputError([&] { scenario(none); }, {"/events/0", "an outdoor_pump_trip needs"});

    // On a campus the error names the hall and the halls that have a loop: hall A takes the
    // campus's plant with its loop, hall B its own tower without one.
    Json campus = scenarioJson("campus_two_halls.json");
    campus["cooling"]["heat_rejection"]["outdoor_loop"] = Json::object();
    campus["events"] =
        Json::array({{{"type", "outdoor_pump_trip"}, {"at_s", 60.0}, {"hall", "B"}}});
    expectInputError([&] { scenario(campus); },
                     {"/events/0/hall", "hall 'B' has no outdoor loop",
                      "/halls/1/cooling/heat_rejection/outdoor_loop", "halls with one: A"});
    campus["events"][0]["hall"] = "A";
    EXPECT_NO_THROW(scenario(campus));
    campus["events"][0].erase("hall");
    expectInputError([&] { scenario(campus); },
                     {"/events/0/hall", "an outdoor_pump_trip on a campus of 2 halls"});
}

TEST(FacilityCoolant, ATowerBehindAPlateExchangerSpraysWater) {
    Json j = reference();
    j["cooling"]["heat_rejection"] = {{"type", "cooling_tower"},
                                      {"outdoor_loop", {{"coolant", "PG40"}}}};
    expectInputError([&] { scenario(j); }, {"/cooling/heat_rejection/outdoor_loop/coolant",
                                            "'PG40'", "valid choice with cooling_tower: water"});
    // Water in the tower's loop; the facility loop behind the exchanger may hold glycol.
    j["cooling"]["heat_rejection"]["outdoor_loop"] = {{"coolant", "water"}};
    j["cooling"]["facility_loop"] = {{"coolant", "PG40"}};
    const SiteSizing z = sizeSite(scenario(j));
    EXPECT_EQ(z.halls.front().plant.bankCoolant(), "water");
    EXPECT_EQ(z.halls.front().plant.coolant, "PG40");
}

}  // namespace
}  // namespace dctwin::facility::test
