#include "gui/cooling_schematic.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

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
        ts.addChannel(g, n, u).values.assign(v.begin(), v.end());
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
    ASSERT_EQ(s->chains.size(), 1u);  // no named halls: the site is one chain
    const CoolingChain& c = s->chains.front();
    EXPECT_EQ(c.hall, "");
    EXPECT_DOUBLE_EQ(*c.tcs_supply, 309.15);  // the same instant for every value
    EXPECT_DOUBLE_EQ(*c.fws_return, 315.15);
    EXPECT_DOUBLE_EQ(*c.fws_flow, 0.12);
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

// A two-hall campus: the cooling group holds campus sums and the warmest hall's temperatures;
// each hall's own channels and its sizing rows (column "hall") describe its chain. The
// schematic drew hall A's equipment (the first "cdu" row) beside the campus's heat: "32 racks,
// heat to liquid 7.53 MW" with hall A's 8 coolers "rejects 7.56 MW", and no hall B at all.
Report campus() {
    Report r;
    ResultSet& ts = r.timeseries;
    ts.start_iso8601 = "2026-07-01T00:00:00";
    ts.time = {0.0, 3600.0};
    const auto add = [&](const std::string& g, const char* n, const char* u,
                         std::vector<double> v) {
        ts.addChannel(g, n, u).values.assign(v.begin(), v.end());
    };
    add("cooling", "heat_to_liquid", "W", {7.0e6, 7.5e6});  // peaks at the second sample
    add("cooling", "heat_rejected", "W", {7.2e6, 7.6e6});
    add("cooling", "tcs_supply_temp", "K", {308.15, 308.15});
    // Hall A: 3.8 MW to liquid at the peak, 35/45 °C, 31/42 °C; hall B: 3.7 MW, 34/44, 30/41.
    for (const auto& [h, q, tcs, fws] :
         {std::tuple{"A", 3.8e6, 308.15, 304.15}, std::tuple{"B", 3.7e6, 307.15, 303.15}}) {
        const std::string g = std::string("halls/") + h;
        add(g, "heat_to_liquid", "W", {3.0e6, q});
        add(g, "heat_rejected", "W", {3.1e6, q + 0.05e6});
        add(g, "tcs_supply_temp", "K", {tcs, tcs});
        add(g, "tcs_return_temp", "K", {tcs + 10.0, tcs + 10.0});
        add(g, "fws_supply_temp", "K", {fws, fws});
        add(g, "fws_return_temp", "K", {fws + 11.0, fws + 11.0});
        add(g, "rack_flow", "m3/s", {3.0e-3, 3.0e-3});
        add(g, "fws_flow", "m3/s", {0.1, 0.1});
    }
    Table t;
    t.path = "sizing/cooling";
    t.addText("hall", {"A", "A", "A", "A", "B", "B", "B", "B", "campus"});
    t.addText("element", {"cdu", "rack_loop_flow", "heat_rejection", "fws_pumps", "cdu",
                          "rack_loop_flow", "heat_rejection", "fws_pumps", "air_side_crah"});
    t.addText("model", {"xdu", "rack loop", "dry_1MW", "pumps", "xdu", "rack loop", "tower_3500kW",
                        "pumps", "crah"});
    t.addNumbers("count", "1", {5, 32, 8, 3, 4, 30, 3, 3, 14});
    r.tables.push_back(t);
    return r;
}

TEST(CoolingSchematic, ACampusDrawsEachHallsOwnChainAtOneInstant) {
    const Report r = campus();
    const auto s = coolingAtPeakHeat(r);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->time_s, 3600.0);
    ASSERT_EQ(s->chains.size(), 2u);
    EXPECT_EQ(s->chains[0].hall, "A");
    EXPECT_EQ(s->chains[1].hall, "B");
    EXPECT_DOUBLE_EQ(*s->chains[1].heat_to_liquid, 3.7e6);
    EXPECT_DOUBLE_EQ(*s->chains[1].tcs_supply, 307.15);

    CoolingSchematic view;
    view.setReport(&r);
    const QStringList texts = view.sceneTexts();
    const QString all = texts.join(QLatin1Char('|'));
    for (const char* want : {"Hall A", "Hall B", "32 racks\nheat to liquid 3.80 MW",
                             "30 racks\nheat to liquid 3.70 MW", "5 × xdu", "4 × xdu",
                             "8 × dry_1MW\nrejects 3.85 MW", "3 × tower_3500kW\nrejects 3.75 MW",
                             "supply 34.0 °C", "return 41.0 °C", "campus's peak heat to liquid"}) {
        EXPECT_TRUE(all.contains(QString::fromUtf8(want)))
            << want << " not in " << all.toStdString();
    }
    // Nothing of the campus's sums is drawn as one hall's.
    EXPECT_FALSE(all.contains(QStringLiteral("7.50 MW"))) << all.toStdString();
    EXPECT_FALSE(all.contains(QStringLiteral("7.60 MW"))) << all.toStdString();
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
