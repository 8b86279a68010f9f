// Issue 15: the growth margin reaches the cooling plant (CDUs, heat rejection, pumps, CRAH units,
// air-side chillers) as it reaches the electrical chain, and the CDU check counts the racks'
// heat at their operating die temperature plus the pumps' heat. Hand calculations in the
// comments, from the catalog (racks.json, rack_loops.json, cdus.json, air_side.json).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>
#include <utility>

#include "core/units.h"
#include "facility/sizing.h"
#include "test_util.h"
#include "tests/common/expect_error.h"

namespace dctwin::facility::test {
namespace {

const Json& coolingRow(const RunOutcome& r, const std::string& element) {
    return sizingRow(r, "cooling", "element", element);
}

double count(const RunOutcome& r, const std::string& element) {
    return coolingRow(r, element).value("count", -1.0);
}

Json withGrowth(double pct) { return reference({{"power", {{"growth_margin_pct", pct}}}}); }

// GB300 NVL72 at full utilization (racks.json): to liquid at the 65 °C reference die
// temperature 72 × 1,400 × 0.97 + 36 × 280 × 0.95 + 9 × 1,600 × 0.95 = 121.03 kW. Operating die
// temperature: TCS supply 35 °C + the 10 K rise the CDU pumps hold (delta_t reset) = 45 °C in
// the rack's fluid, plus one GPU's ~1,410 W × 0.022 K/W (rack_loops.json, junction to bulk
// coolant at the 200 L/min rating) = 76.0 °C; the racks draw ~165 L/min for a 10 K rise, where
// the cold-plate film is a little weaker: ~76.5 °C (the design point's junction). Leakage
// there: k·P_tdp·(2^((T − 65)/25) − 1) per GPU, liquid share 0.97, 72 GPUs: at 76.46 °C
// 72 × 0.97 × 140 W × (2^0.4584 − 1) = 3.66 kW, so 124.7 kW a rack. Pump heat: XDU1350
// 2,052 L/min × 250 kPa at rated speed = 8.55 kW into the coolant.
TEST(SizingGrowth, CduDutyAtTheOperatingDieTemperatureWithPumpHeat) {
    const ScenarioSpec sc = scenario(withGrowth(0));
    const HallSizing z = sizeSite(sc).halls.at(0);
    ASSERT_EQ(z.rack_die_temp.size(), 1u);
    // The sizing's fixed point against the design point's steady junction (the whole model:
    // CDU pump control, hydraulics, films).
    const RunOutcome d = sizeScenario(sc);
    const double Tj_design = num(d.summary, "design_max_gpu_junction_C");
    EXPECT_NEAR(units::kelvinToCelsius(z.rack_die_temp[0]), Tj_design, 0.3);
    EXPECT_NEAR(units::kelvinToCelsius(z.rack_die_temp[0]), 76.5, 0.5);
    // Heat to liquid there: 121.03 kW + 72 × 0.97 × 140 × (2^((T − 65)/25) − 1).
    const double dT = units::kelvinToCelsius(z.rack_die_temp[0]) - 65.0;
    EXPECT_NEAR(z.rack_heat_liquid[0] / 1e3, 121.032 + 9.7776 * (std::pow(2.0, dT / 25.0) - 1.0),
                0.01);
    EXPECT_NEAR(z.rack_heat_liquid[0] / 1e3, 124.7, 0.1);
    EXPECT_NEAR(z.cdu_pump_heat / 1e3, 8.55, 0.05);
    // 8 racks a CDU: 8 × 124.7 + 8.55 = 1,006 kW; the design point's busiest CDU carries what
    // the sizing counted, less the pumps' slower speed under control (≤ 8.55 kW).
    EXPECT_NEAR(z.cdu_duty_worst / 1e3, 1005.8, 1.0);
    const Json& cdu = coolingRow(d, "cdu");
    EXPECT_LE(cdu.value("design_load_per_unit", 0.0), z.cdu_duty_worst * 1.002);
    EXPECT_GE(cdu.value("design_load_per_unit", 0.0), z.cdu_duty_worst - 9e3);

    // 11 racks a CDU: at the reference die temperature 11 × 121.0 = 1,331 kW passed the
    // XDU1350's 1,368 kW and the run then carried 101.6 %; now 11 × 124.7 + 8.55 = 1,380 kW
    // (100.9 %) is refused, and 10 (1,255 kW) is what fits.
    Json j = withGrowth(0);
    j["cooling"]["cdu"]["racks_per_cdu"] = 11;
    const std::string msg = dctwin::test::inputErrorOf([&] { sizeSite(scenario(j)); });
    for (const char* f : {"/cooling/cdu/racks_per_cdu", "11 racks per CDU", "exceeds the capacity",
                          "pump heat", "at most 10 racks per CDU"}) {
        EXPECT_NE(msg.find(f), std::string::npos) << f << " not in: " << msg;
    }
    const double q11 = 11 * z.rack_heat_liquid[0] + z.cdu_pump_heat;
    EXPECT_NEAR(q11 / 1368e3, 1.009, 0.002);
    EXPECT_NE(msg.find(fmt::format("{:.0f} kW", q11 / 1e3)), std::string::npos) << msg;
}

TEST(SizingGrowth, GrowthSizesTheCoolingPlant) {
    const RunOutcome g0 = sizeScenario(scenario(withGrowth(0)));
    const RunOutcome g50 = sizeScenario(scenario(withGrowth(50)));
    // CDUs (XDU1350, 1,368 kW, N+1): at 0 % 8 racks a CDU carry 1,006 kW: 64/8 = 8 + 1 = 9.
    // At 50 %: 8 × 124.7 × 1.5 + 8.55 = 1,505 kW > 1,368 kW; 7 × 124.7 × 1.5 + 8.55 = 1,318 kW
    // fits: ⌈64/7⌉ = 10 + 1 = 11 CDUs, and their pumps (2 each) 18 → 22.
    EXPECT_EQ(count(g0, "cdu"), 9.0);
    EXPECT_EQ(count(g50, "cdu"), 11.0);
    EXPECT_EQ(count(g0, "cdu_pump"), 18.0);
    EXPECT_EQ(count(g50, "cdu_pump"), 22.0);
    EXPECT_NE(coolingRow(g50, "cdu").value("count_rule", "").find("64 racks/7 per CDU"),
              std::string::npos)
        << coolingRow(g50, "cdu")["count_rule"];
    // Facility pumps: 2 duty + 1 standby as stated, each for half of the CDUs' design flow:
    // 8 × 2,052 L/min / 2 = 136.8 L/s at 0 %, 10 × 2,052 / 2 = 171.0 L/s at 50 %.
    EXPECT_EQ(count(g0, "fws_pumps"), 3.0);
    EXPECT_EQ(count(g50, "fws_pumps"), 3.0);
    EXPECT_NEAR(coolingRow(g0, "fws_pumps").value("rating", 0.0) * 1e3, 136.8, 0.05);
    EXPECT_NEAR(coolingRow(g50, "fws_pumps").value("rating", 0.0) * 1e3, 171.0, 0.05);
    // Heat rejection: plant design heat (1 + g) × 64 × 124.66 kW racks + the CDU pumps (14.25 kW
    // electric each at rated speed) + the facility pumps' work (design flow × 250 kPa):
    //   0 %:  7,978 + 8 × 14.25 + 0.2736 × 250 = 8,160 kW
    //   50 %: 11,967 + 10 × 14.25 + 0.342 × 250 = 12,195 kW
    // over the adiabatic unit's capacity at the design day (the derated capacity, 675 kW at
    // Milwaukee's 0.4 % conditions) plus one spare; the count grows by about the ratio. With
    // the pads from 20 °C, so that the design day sets the count.
    const HallSizing z0 = sizeSite(scenario(designDaySetsTheCount(withGrowth(0)))).halls.at(0);
    const HallSizing z50 = sizeSite(scenario(designDaySetsTheCount(withGrowth(50)))).halls.at(0);
    EXPECT_NEAR(z0.design_heat_rejection / 1e3, 8160.0, 5.0);
    EXPECT_NEAR(z50.design_heat_rejection / 1e3, 12195.0, 5.0);
    for (const HallSizing* z : {&z0, &z50}) {
        const int running = z->plant.units - 1;
        // The fewest that hold the setpoint: within one unit of the capacity ratio at design.
        EXPECT_GE(running, std::ceil(z->design_heat_rejection / z->unit_capacity_at_design) - 1);
        EXPECT_LE(running, std::ceil(z->design_heat_rejection / z->unit_capacity_at_design) + 1);
    }
    EXPECT_EQ(count(g0, "heat_rejection"), sizeSite(scenario(withGrowth(0))).halls[0].plant.units);
    EXPECT_EQ(count(g50, "heat_rejection"),
              sizeSite(scenario(withGrowth(50))).halls[0].plant.units);
    EXPECT_GE(z50.plant.units - z0.plant.units, 5);
    // The 30 %: 8 racks a CDU still carry 8 × 124.66 × 1.3 + 8.55 = 1,305 kW ≤ 1,368 kW,
    // so 8 + 1 CDUs as at 0 %; the plant's design heat 1.3 × 7,978 + 114 + 68.4 = 10,554 kW
    // needs more heat-rejection units than 8,160 kW and fewer than 12,195 kW.
    const HallSizing z30 = sizeSite(scenario(designDaySetsTheCount(withGrowth(30)))).halls.at(0);
    EXPECT_EQ(z30.cdus, 8);
    EXPECT_EQ(z30.racks_per_cdu, 8);
    EXPECT_NEAR(z30.cdu_duty_worst / 1e3, 1305.0, 1.0);
    EXPECT_NEAR(z30.design_heat_rejection / 1e3, 10554.0, 5.0);
    EXPECT_GT(z30.plant.units, z0.plant.units);
    EXPECT_LT(z30.plant.units, z50.plant.units);
    // CRAH units (150 kW, N+1) on (1 + g) × the design air load: the racks' air share, fabric,
    // other loads, pump and electrical losses, 1,742 kW at the design point (the run's figure;
    // issue 10's air-side test checks it by hand), 1,770 kW with the 50 % plant (11 CDUs' pump
    // losses and the larger chain's). 0 %: ⌈1,742/150⌉ = 12 + 1 = 13; 50 %: ⌈1.5 × 1,770/150⌉
    // = ⌈17.7⌉ = 18 + 1 = 19.
    for (const auto& [r, g, n, air_kW] :
         {std::tuple{&g0, 0.0, 13.0, 1742.0}, std::tuple{&g50, 0.5, 19.0, 1770.0}}) {
        const Json& crah = coolingRow(*r, "air_side_crah");
        // The row's design load is one running unit's: the N of the N+1 carry the air load.
        const double air =
            crah.value("design_load_per_unit", 0.0) * (crah.value("count", 0.0) - 1.0);
        EXPECT_NEAR(air / 1e3, air_kW, 2.0) << g;
        EXPECT_EQ(crah.value("count", 0.0), std::ceil((1 + g) * air / 150e3) + 1) << g;
        EXPECT_EQ(crah.value("count", 0.0), n) << g;
    }
    // Air-cooled chillers (York YCAL0033EE, 100.582 kW rated, N+1). One unit at 9.0 °C chilled
    // water (18 °C supply air less the CRAH record's 27 − 18 = 9 K approach) and Milwaukee's
    // 32.4 °C design dry bulb: CAPFT = −0.26606 + 0.09987·9 − 0.0023814·81 + 0.06283·32.4
    // − 0.00096446·32.4² − 0.0011249·9·32.4 = 1.1351, so 114.17 kW. The coil load there
    // (economizer closed above 21.1 °C) is the grown air load plus the CRAH fans at it,
    // n·5 kW·f³ with f = load/(n·150 kW):
    //   0 %:  1,742 + 13·5·(1,742/1,950)³ = 1,742 + 46.3 = 1,788 kW → ⌈15.67⌉ = 16 + 1 = 17
    //   50 %: 2,655 + 19·5·(2,655/2,850)³ = 2,655 + 76.8 = 2,732 kW → ⌈23.93⌉ = 24 + 1 = 25
    for (const auto& [r, n] : {std::pair{&g0, 17.0}, std::pair{&g50, 25.0}}) {
        const Json& ch = coolingRow(*r, "air_side_chiller");
        EXPECT_EQ(ch.value("redundancy", ""), "N+1");
        EXPECT_NEAR(ch.value("rating", 0.0) / 1e3, 114.17, 0.02);
        EXPECT_EQ(ch.value("count", 0.0), n);
        EXPECT_NE(ch.value("count_rule", "").find("+1"), std::string::npos);
    }
}

}  // namespace
}  // namespace dctwin::facility::test

namespace dctwin::facility::test {
namespace {

// Issue 15's N-1 schedule for the cooling plant. Reference site at design (dctwin size), with
// its pads allowed from 20 °C so that the design day sets the heat-rejection count (at the
// shipped 28 °C the dry hours below the switch-over set it, 17 + 1 units):
//   heat rejection: 14 adiabatic coolers, 1,000 kW at their rating point (27 °C dry bulb), are
//     rated and loaded at the design weather (32.4 °C), as the air-cooled chillers are. The
//     count rule found N = 13 the fewest that hold the facility setpoint with the grown design
//     heat Q_g (1.1 x the racks' + pump work) at full duty; 12 did not. A unit's capacity
//     falls as units are added (each gets less of the flow), so 12 x c_13 <= 12 x c_12 < Q_g:
//     the 13 units' loading at Q_g lies in (12/13, 1]. The table loads them with today's heat
//     Q_d (one unit lost, 13 carry it), so failure loading x Q_g/Q_d must lie there. On the
//     catalog rating it read 61.7 % x Q_g/Q_d = 68.9 %: two-thirds loaded at the very load the
//     count found needed 13 units.
//   CDUs N+1: the standby CDU takes a failed one's racks, so the loading stays at its normal
//     value and the normal case governs; with redundancy N no failure is covered (NaN).
//   facility pumps 2+1: the standby runs, unchanged; 2+0: one pump carries both pumps' flow,
//     twice the normal loading.
TEST(SizingGrowth, CoolingTableLoadsEachElementWithItsSingleFailure) {
    const ScenarioSpec sc = scenario(designDaySetsTheCount(reference()));
    const RunOutcome r = sizeScenario(sc);
    const Json& hr = coolingRow(r, "heat_rejection");
    ASSERT_EQ(hr.value("count", 0.0), 14.0);
    // One unit's load (all 14 share it): the row's design load times its count.
    const double today = hr.value("design_load_per_unit", 0.0) * 14.0;
    const double grown = sizeSite(sc).halls[0].design_heat_rejection;
    ASSERT_GT(grown, 1.05 * today);
    const double at_n = hr.value("failure_loading_pct", 0.0) / 100.0 * grown / today;
    EXPECT_GT(at_n, 12.0 / 13.0);
    EXPECT_LE(at_n, 1.0 + 1e-6);
    // Derated on the 32.4 °C day against the 27 °C rating point; all 14 share the load normally.
    EXPECT_LT(hr.value("rating", 0.0), 0.9e6);
    EXPECT_NEAR(hr.value("design_loading_pct", 0.0), hr.value("failure_loading_pct", 0.0) * 13 / 14,
                1e-9);
    EXPECT_EQ(hr.value("governing_case", ""), "one unit lost (the others reject the heat)");
    const Json& cdu = coolingRow(r, "cdu");
    EXPECT_EQ(cdu.value("failure_loading_pct", 0.0), cdu.value("design_loading_pct", -1.0));
    EXPECT_EQ(cdu.value("governing_case", ""), "normal");
    EXPECT_EQ(coolingRow(r, "fws_pumps").value("failure_loading_pct", 0.0),
              coolingRow(r, "fws_pumps").value("design_loading_pct", -1.0));

    Json j = designDaySetsTheCount(reference());
    j["cooling"]["cdu"]["redundancy"] = "N";
    j["cooling"]["facility_loop"]["pumps_standby"] = 0;
    const RunOutcome n = sizeScenario(scenario(j));
    // NaN (no failure covered) is written as null in the summary JSON.
    EXPECT_TRUE(coolingRow(n, "cdu")["failure_loading_pct"].is_null());
    EXPECT_EQ(coolingRow(n, "cdu").value("failure_case", "x"), "");
    const Json& fp = coolingRow(n, "fws_pumps");
    EXPECT_NEAR(fp.value("failure_loading_pct", 0.0), 2.0 * fp.value("design_loading_pct", 0.0),
                1e-9);
    EXPECT_EQ(fp.value("governing_case", ""), "one pump lost (the others carry the flow)");
}

}  // namespace
}  // namespace dctwin::facility::test
