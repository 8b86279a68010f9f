// core/display.h: the display units and number text the app, the PDF and `dctwin size` share.
// Expected texts are written out by hand from the SI values.
#include "core/display.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace dctwin::display {
namespace {

TEST(Display, NumbersReadAtTheirMagnitude) {
    EXPECT_EQ(formatNumber(15'790'000.0), "15,790,000");
    EXPECT_EQ(formatNumber(-12'345.4), "-12,345");
    EXPECT_EQ(formatNumber(1368.0), "1368");
    EXPECT_EQ(formatNumber(16.0), "16");
    // 308.25 K − 273.15 − 0.1: whole within round-off, so it reads as a count would.
    EXPECT_EQ(formatNumber(308.25 - 273.15 - 0.1), "35");
    EXPECT_EQ(formatNumber(1.001), "1.00");  // never "1": the band is 1e-9, not 0.005
    EXPECT_EQ(formatNumber(0.7246), "0.72");
    EXPECT_EQ(formatNumber(0.0342), "0.0342");
    EXPECT_EQ(formatNumber(2.5e-5), "2.5e-05");
    EXPECT_EQ(formatNumber(std::numeric_limits<double>::quiet_NaN()), "–");
    // Measurements keep their decimals whether or not they are whole.
    EXPECT_EQ(formatMeasurement(35.0), "35.0");
    EXPECT_EQ(formatMeasurement(31.04), "31.0");
    EXPECT_EQ(formatMeasurement(250.4), "250");
}

TEST(Display, UnitsFollowTheMagnitude) {
    const Unit mw = unitFor("W", 1.5e6);
    EXPECT_EQ(mw.label, "MW");
    EXPECT_DOUBLE_EQ(mw.fromSI(1.5e6), 1.5);
    EXPECT_EQ(unitFor("VA", 2.5e6).label, "MVA");
    EXPECT_EQ(unitFor("VA", 2.5e3).label, "kVA");
    // 0.0342 m³/s = 0.0342 × 60,000 L/min = 2052 L/min; 0.1368 m³/s = 492.48 m³/h.
    EXPECT_NEAR(unitFor("m3/s", 0.0342).fromSI(0.0342), 2052.0, 1e-9);
    EXPECT_EQ(unitFor("m3/s", 0.0342).label, "L/min");
    EXPECT_NEAR(unitFor("m3/s", 0.1368).fromSI(0.1368), 492.48, 1e-9);
    EXPECT_NEAR(unitFor("K", 300.0).fromSI(308.15), 35.0, 1e-12);
    EXPECT_EQ(unitFor("Pa", 2.5e5).label, "bar");
    // IP: 35 °C = 95 °F; a temperature difference of 1 K = 1.8 °F of difference; 1 ton of
    // refrigeration = 12,000 BTU/h = 3516.85 W.
    EXPECT_NEAR(unitFor("K", 300.0, UnitSystem::IP).fromSI(308.15), 95.0, 1e-9);
    EXPECT_EQ(unitForQuantity("throttle_margin", "K", 10.0, UnitSystem::IP).label, "Δ°F");
    EXPECT_NEAR(unitForQuantity("heat_rejected", "W", 1e6, UnitSystem::IP).fromSI(3516.8528), 1.0,
                1e-9);
    EXPECT_EQ(unitForQuantity("it_power", "W", 1e6, UnitSystem::IP).label, "MW");
}

TEST(Display, NamesReadAsWords) {
    EXPECT_EQ(readableName("design_loading_pct", "%"), "design loading");
    EXPECT_EQ(readableName("wue_L_per_kWh", "L/kWh"), "WUE");
    EXPECT_EQ(readableName("it_energy_MWh", "MWh"), "IT energy");
    EXPECT_EQ(readableName("count_rule", ""), "count rule");
}

TEST(Display, ATableReadsInEachRowsUnit) {
    Table t;
    t.path = "sizing/power";
    t.addText("element", {"ups", "transformer", "rack_feed"});
    t.addNumbers("rating", "", {1.5e6, 2.5e6, 250.0});
    t.addText("unit", {"W", "VA", "A"});
    t.addNumbers("design_loading_pct", "%", {55.29, 57.73, std::nan("")});
    t.addNumbers("voltage_V", "V", {415.0, 415.0, 415.0});
    const TableDisplay d(t, UnitSystem::SI);
    EXPECT_EQ(d.cell(t, 0, 1), "1.50");
    EXPECT_EQ(d.cell(t, 0, 2), "MW");
    EXPECT_EQ(d.cell(t, 1, 1), "2.50");
    EXPECT_EQ(d.cell(t, 1, 2), "MVA");
    EXPECT_EQ(d.cell(t, 2, 1), "250");
    EXPECT_EQ(d.cell(t, 2, 2), "A");
    EXPECT_EQ(d.cell(t, 0, 3), "55.29");
    EXPECT_EQ(d.cell(t, 2, 3), "–");
    EXPECT_EQ(d.header(t, 3), "design loading [%]");
    EXPECT_EQ(d.header(t, 4), "voltage [V]");
    EXPECT_EQ(d.loadingColumn(), 3);
    // The cooling table's heat duties are in tons in IP: 1.368 MW / 3516.85 W = 389 ton.
    Table c = t;
    c.path = "sizing/cooling";
    c.columns[1] = {"rating", "", std::vector<double>{1.368e6, 2.5e6, 250.0}};
    const TableDisplay ip(c, UnitSystem::IP);
    EXPECT_EQ(ip.cell(c, 0, 2), "ton");
    EXPECT_EQ(ip.cell(c, 0, 1), "389");
}

TEST(Display, ARowOfRatiosReadsToFourDecimals) {
    // An ensemble's percentiles (sweep/percentiles): each row its own unit. PUE (unit "1")
    // read 1.08, 1.09, 1.12 where the cases table beside it gave 1.0795, 1.0873, 1.1154.
    Table t;
    t.path = "sweep/percentiles";
    t.addText("metric", {"pue", "facility_energy_MWh", "energy_balance_rel_error"});
    t.addText("unit", {"1", "MWh", "1"});
    t.addNumbers("members", "1", {5, 5, 5});
    t.addNumbers("P50", "", {1.0873, 77699.7, -1.98e-9});
    const TableDisplay d(t, UnitSystem::SI);
    EXPECT_EQ(d.cell(t, 0, 3), "1.0873");
    EXPECT_EQ(d.cell(t, 1, 3), "77,700");
    EXPECT_EQ(d.cell(t, 0, 2), "5");  // a count stays whole
    // Far from 1 the rule does not apply (a relative error reads as the small number it is).
    EXPECT_EQ(d.cell(t, 2, 3).find("0.0000"), std::string::npos) << d.cell(t, 2, 3);
}

TEST(Display, AnHourlyWaterRateReadsInCubicMetresOrGallonsPerMinute) {
    // design_water_m3_per_h: "7.93 m3/h" stood beside "190 m³" in the summary.
    EXPECT_EQ(unitFor("m3/h", 7.93, UnitSystem::SI).label, "m³/h");
    EXPECT_DOUBLE_EQ(unitFor("m3/h", 7.93, UnitSystem::SI).fromSI(7.93), 7.93);
    // 1 m³/h = 264.172 US gal / 60 min = 4.4029 gpm: 7.93 m³/h = 34.91 gpm.
    const Unit ip = unitFor("m3/h", 7.93, UnitSystem::IP);
    EXPECT_EQ(ip.label, "gpm");
    EXPECT_NEAR(ip.fromSI(7.93), 34.91, 0.01);
}

TEST(Display, AColumnOfTimesReadsWithOnePrecision) {
    // The utility loss's event log: "60" above "88.50" read as two precisions. A time column
    // takes the fewest decimals that show all its values (here one), every row alike.
    Table t;
    t.path = "contingency/event_log";
    t.addNumbers("t_s", "s", {60.0, 70.0, 88.5, 195.0, std::nan("")});
    t.addText("event", {"utility lost", "generators online", "UPS battery at its minimum",
                        "trim chillers available", "no time"});
    const TableDisplay d(t, UnitSystem::SI);
    EXPECT_EQ(d.cell(t, 0, 0), "60.0");
    EXPECT_EQ(d.cell(t, 2, 0), "88.5");
    EXPECT_EQ(d.cell(t, 3, 0), "195.0");
    EXPECT_EQ(d.cell(t, 4, 0), "–");
    // Whole seconds stay whole; a finer time takes two decimals, no more.
    Table w = t;
    w.columns[0].data = std::vector<double>{60.0, 75.0};
    w.columns[1].data = std::vector<std::string>{"a", "b"};
    EXPECT_EQ(TableDisplay(w, UnitSystem::SI).cell(w, 1, 0), "75");
    w.columns[0].data = std::vector<double>{60.0, 60.126};
    EXPECT_EQ(TableDisplay(w, UnitSystem::SI).cell(w, 0, 0), "60.00");
    EXPECT_EQ(TableDisplay(w, UnitSystem::SI).cell(w, 1, 0), "60.13");
}

}  // namespace
}  // namespace dctwin::display
