#include "gui/cooling_schematic.h"

#include <gtest/gtest.h>

#include "gui/display_units.h"

namespace dctwin::gui {
namespace {

// Three hourly samples; heat to liquid peaks at the second (8 MW), where the loop reads
// 36/46 °C (TCS), 32/42 °C (FWS), 3 L/s per rack (180 L/min) and 0.12 m³/s of facility water
// (432 m³/h), 150 kPa across the racks.
Report plant() {
    Report r;
    ResultSet& ts = r.timeseries;
    ts.start_iso8601 = "2026-07-01T00:00:00";
    ts.time = {0.0, 3600.0, 7200.0};
    const auto add = [&](const char* g, const char* n, const char* u, std::vector<double> v) {
        ts.addChannel(g, n, u).values = std::move(v);
    };
    add("cooling", "heat_to_liquid", "W", {7.0e6, 8.0e6, 7.5e6});
    add("cooling", "heat_rejected", "W", {7.2e6, 8.3e6, 7.7e6});
    add("cooling", "tcs_supply_temp", "K", {308.15, 309.15, 310.15});
    add("cooling", "tcs_return_temp", "K", {318.15, 319.15, 320.15});
    add("cooling", "fws_supply_temp", "K", {304.15, 305.15, 306.15});
    add("cooling", "fws_return_temp", "K", {314.15, 315.15, 316.15});
    add("cooling", "rack_flow", "m3/s", {2.9e-3, 3.0e-3, 3.1e-3});
    add("cooling", "fws_flow", "m3/s", {0.11, 0.12, 0.13});
    add("cooling", "cdu_header_dp", "Pa", {140e3, 150e3, 160e3});
    add("weather", "dry_bulb", "K", {300.15, 303.15, 305.15});
    Table t;
    t.path = "sizing/cooling";
    t.addText("element", {"cdu", "rack_loop_flow", "heat_rejection", "fws_pumps"});
    t.addText("model", {"vertiv_xdu1350", "rack loop", "adiabatic_1MW", "facility water pumps"});
    t.addNumbers("count", "1", {9, 64, 13, 3});
    r.tables.push_back(t);
    return r;
}

TEST(CoolingSchematic, ShowsThePlantAtTheSampleOfPeakHeat) {
    const Report r = plant();
    const auto s = coolingAtPeakHeat(r);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->time_s, 3600.0);
    EXPECT_DOUBLE_EQ(*s->tcs_supply, 309.15);  // the same instant for every value
    EXPECT_DOUBLE_EQ(*s->fws_return, 315.15);
    EXPECT_DOUBLE_EQ(*s->fws_flow, 0.12);
    EXPECT_FALSE(s->wet_bulb);  // not in this report: shown as "–"

    CoolingSchematic view;
    view.setReport(&r);
    const QString all = view.sceneTexts().join(QLatin1Char('|'));
    for (const char* want :
         {"supply 36.0 °C", "return 46.0 °C", "supply 32.0 °C", "return 42.0 °C",
          "180 L/min per rack", "432 m³/h in all", "1.50 bar", "9 × vertiv_xdu1350", "64 racks",
          "13 × adiabatic_1MW",
          // measured values keep their decimals when whole, as the 8.30 beside them
          "heat to liquid 8.00 MW", "rejects 8.30 MW", "wet bulb –", "1 Jul 2026 01:00"}) {
        EXPECT_TRUE(all.contains(QString::fromUtf8(want)))
            << want << " not in " << all.toStdString();
    }
}

TEST(CoolingSchematic, FollowsTheUnitSwitchAndClearsWithoutCoolingData) {
    const Report r = plant();
    setUnitSystem(UnitSystem::IP);
    CoolingSchematic view;
    view.setReport(&r);
    const QString all = view.sceneTexts().join(QLatin1Char('|'));
    setUnitSystem(UnitSystem::SI);
    // 36 °C = 96.8 °F; 8 MW = 2,274.8 tons; 0.12 m³/s = 1,902 gpm.
    EXPECT_TRUE(all.contains(QStringLiteral("supply 96.8 °F"))) << all.toStdString();
    EXPECT_TRUE(all.contains(QStringLiteral("2275 ton"))) << all.toStdString();
    EXPECT_TRUE(all.contains(QStringLiteral("1902 gpm"))) << all.toStdString();

    Report none;
    view.setReport(&none);
    EXPECT_FALSE(view.state());
    EXPECT_TRUE(view.sceneTexts().isEmpty());
    view.setReport(nullptr);
    EXPECT_TRUE(view.sceneTexts().isEmpty());
}

}  // namespace
}  // namespace dctwin::gui
