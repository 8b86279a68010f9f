#include "gui/table_models.h"

#include <gtest/gtest.h>

#include "gui/display_units.h"

namespace dctwin::gui {
namespace {

Table powerSizing() {
    Table t;
    t.path = "sizing/power";
    t.addText("element", {"transformer", "UPS", "busway", "generator"});
    t.addNumbers("rating", "W", {3.0e6, 1.5e6, 8.0e5, 2.5e6});
    t.addNumbers("count", "1", {4, 8, 16, 4});
    t.addText("redundancy", {"2N", "4N/3", "N", "N+1"});
    t.addNumbers("design_loading_pct", "%", {45.0, 60.0, 80.5, 80.0});
    return t;
}

TEST(LoadingColour, Thresholds) {
    const QColor green = loadingColour(10.0), amber = loadingColour(70.0),
                 red = loadingColour(95.0);
    EXPECT_NE(green, amber);
    EXPECT_NE(amber, red);
    EXPECT_NE(green, red);
    EXPECT_GT(green.green(), green.red());  // green is green
    EXPECT_GT(red.red(), red.green());      // red is red
    EXPECT_EQ(loadingColour(59.99), green);
    EXPECT_EQ(loadingColour(60.0), amber);
    EXPECT_EQ(loadingColour(80.0), amber);
    EXPECT_EQ(loadingColour(80.01), red);
    EXPECT_FALSE(loadingColour(std::nan("")).isValid());
}

TEST(SizingTableModel, ColoursTheLoadingColumnOnly) {
    SizingTableModel m;
    m.setTable(powerSizing());
    ASSERT_EQ(m.rowCount(), 4);
    ASSERT_EQ(m.columnCount(), 5);
    ASSERT_EQ(m.loadingColumn(), 4);
    const auto bg = [&](int row, int col) {
        return m.data(m.index(row, col), Qt::BackgroundRole).value<QColor>();
    };
    EXPECT_EQ(bg(0, 4), loadingColour(45.0));  // green
    EXPECT_EQ(bg(1, 4), loadingColour(70.0));  // amber at exactly 60 %
    EXPECT_EQ(bg(2, 4), loadingColour(95.0));  // red above 80 %
    EXPECT_EQ(bg(3, 4), loadingColour(70.0));  // amber at exactly 80 %
    EXPECT_FALSE(m.data(m.index(0, 1), Qt::BackgroundRole).isValid());
    EXPECT_FALSE(m.data(m.index(0, 0), Qt::BackgroundRole).isValid());
}

TEST(SizingTableModel, ShowsValuesInDisplayUnits) {
    SizingTableModel m;
    m.setTable(powerSizing());
    EXPECT_EQ(m.headerData(1, Qt::Horizontal).toString(), QStringLiteral("rating [MW]"));
    EXPECT_EQ(m.headerData(0, Qt::Horizontal).toString(), QStringLiteral("element"));
    // Words, not snake_case, and no unit suffix beside the unit in brackets.
    EXPECT_EQ(m.headerData(4, Qt::Horizontal).toString(), QStringLiteral("design loading [%]"));
    EXPECT_EQ(m.data(m.index(0, 1)).toString(), QStringLiteral("3"));
    EXPECT_EQ(m.data(m.index(2, 1)).toString(), QStringLiteral("0.80"));
    EXPECT_EQ(m.data(m.index(2, 2)).toString(), QStringLiteral("16"));  // counts stay whole
    EXPECT_DOUBLE_EQ(m.data(m.index(2, 1), Qt::UserRole).toDouble(), 8.0e5);
    EXPECT_EQ(m.data(m.index(1, 3)).toString(), QStringLiteral("4N/3"));
    EXPECT_EQ(m.data(m.index(2, 4)).toString(), QStringLiteral("80.50"));
}

TEST(SizingTableModel, EveryColouredCellSaysWhichLimit) {
    SizingTableModel m;
    m.setTable(powerSizing());
    const auto tip = [&](int row) { return m.data(m.index(row, 4), Qt::ToolTipRole).toString(); };
    EXPECT_TRUE(tip(2).contains(QStringLiteral("80 % continuous-load limit")))
        << tip(2).toStdString();
    EXPECT_TRUE(tip(2).contains(QStringLiteral("red")));
    EXPECT_TRUE(tip(1).contains(QStringLiteral("amber")));
    EXPECT_TRUE(tip(0).contains(QStringLiteral("green")));
    EXPECT_FALSE(m.data(m.index(0, 1), Qt::ToolTipRole).isValid());
}

TEST(SizingTableModel, CoolingRowsAreReadAgainstTheirCapacityNotTheNec80) {
    // The reference's cooling plant at design: CRAHs 89.4 %, heat rejection 81.8 % of what
    // they carry on the design day, a CDU at 73.1 %. On the power table's scale all three were
    // amber or red, with a tooltip citing the NEC's limit for breakers and busway.
    Table t;
    t.path = "sizing/cooling";
    t.addText("element", {"cdu", "heat_rejection", "air_side_crah", "air_side_chiller"});
    t.addNumbers("design_loading_pct", "%", {73.1, 81.8, 95.0, 104.0});
    SizingTableModel m;
    m.setTable(t);
    ASSERT_EQ(m.loadingColumn(), 1);
    const auto bg = [&](int row) {
        return m.data(m.index(row, 1), Qt::BackgroundRole).value<QColor>();
    };
    const auto tip = [&](int row) { return m.data(m.index(row, 1), Qt::ToolTipRole).toString(); };
    const QColor green = loadingColour(10.0), amber = loadingColour(70.0),
                 red = loadingColour(95.0);
    EXPECT_EQ(bg(0), green);
    EXPECT_EQ(bg(1), green);
    EXPECT_EQ(bg(2), amber);  // less than a tenth left
    EXPECT_EQ(bg(3), red);    // cannot carry the design load
    for (int row = 0; row < 4; ++row) {
        EXPECT_FALSE(tip(row).contains(QStringLiteral("NEC"))) << tip(row).toStdString();
        EXPECT_TRUE(tip(row).contains(QStringLiteral("capacity at the design conditions")));
    }
    EXPECT_TRUE(tip(3).contains(QStringLiteral("cannot carry")));
    // The boundaries, and the power table's scale unchanged.
    EXPECT_EQ(loadingColour(89.99, LoadingScale::Cooling), green);
    EXPECT_EQ(loadingColour(90.0, LoadingScale::Cooling), amber);
    EXPECT_EQ(loadingColour(100.0, LoadingScale::Cooling), amber);
    EXPECT_EQ(loadingColour(100.01, LoadingScale::Cooling), red);
    EXPECT_EQ(loadingScaleOf("sizing/power"), LoadingScale::Electrical);
}

TEST(SizingTableModel, TheRackLoopFlowRowIsNotColouredAsALoad) {
    // rack_loop_flow is the least-supplied rack's flow against its design flow (92.7 % on the
    // reference): more is better. On the cooling scale it was amber, "less than a tenth left".
    Table t;
    t.path = "sizing/cooling";
    t.addText("element", {"cdu", "rack_loop_flow", "cdu_pump_speed"});
    t.addNumbers("design_loading_pct", "%", {92.7, 92.7, 92.7});
    SizingTableModel m;
    m.setTable(t);
    const auto bg = [&](int row) { return m.data(m.index(row, 1), Qt::BackgroundRole); };
    const auto tip = [&](int row) { return m.data(m.index(row, 1), Qt::ToolTipRole).toString(); };
    EXPECT_EQ(bg(0).value<QColor>(), loadingColour(95.0, LoadingScale::Cooling));  // amber
    EXPECT_FALSE(bg(1).isValid()) << bg(1).value<QColor>().name().toStdString();
    // A drive near its full speed has little left: still on the cooling scale.
    EXPECT_EQ(bg(2).value<QColor>(), bg(0).value<QColor>());
    EXPECT_TRUE(tip(1).startsWith(QStringLiteral("92.7 % of the design flow")))
        << tip(1).toStdString();
    EXPECT_TRUE(tip(1).contains(QStringLiteral("not a load"))) << tip(1).toStdString();
    EXPECT_FALSE(tip(1).contains(QStringLiteral("amber")));
    // The same element in another table keeps that table's scale.
    EXPECT_EQ(loadingScaleOf("sizing/power", "rack_loop_flow"), LoadingScale::Electrical);
}

TEST(SummaryTableModel, NamesMetricsInWordsAndGroupsLargeNumbers) {
    SummaryTableModel m;
    m.setMetrics({{"pue", 1.12, "1", "power usage effectiveness"},
                  {"facility_energy_MWh", 15790.4, "MWh", "energy drawn from the utility"},
                  {"design_tcs_supply_temp_C", 35.0, "C", "TCS supply"}});
    EXPECT_EQ(m.data(m.index(0, 0)).toString(), QStringLiteral("Power usage effectiveness"));
    EXPECT_TRUE(
        m.data(m.index(0, 0), Qt::ToolTipRole).toString().startsWith(QStringLiteral("pue")));
    EXPECT_EQ(m.data(m.index(1, 1)).toString(), QStringLiteral("15,790"));
    EXPECT_EQ(m.data(m.index(1, 2)).toString(), QStringLiteral("MWh"));  // the metric's own unit
    EXPECT_EQ(m.data(m.index(2, 2)).toString(), QStringLiteral("°C"));   // not "C"
}

TEST(SizingTableModel, RatingsInTheRowsOwnEngineeringUnit) {
    // As power/sizing.cpp writes it: one rating column, each row's unit beside it.
    Table t;
    t.path = "sizing/power";
    t.addText("element", {"ups", "transformer", "busway", "psu_shelf"});
    t.addNumbers("rating", "", {1.5e6, 2.5e6, 2000.0, 33000.0});
    t.addText("unit", {"W", "VA", "A", "W"});
    t.addText("count_rule",
              {"m=max(ceil(I/(3 x 1.00 Iu)), ceil(I/(4 x 0.80 Iu)))=3 per system x 4", "", "", ""});
    SizingTableModel m;
    m.setTable(t);
    const auto text = [&](int r, int c) { return m.data(m.index(r, c)).toString(); };
    EXPECT_EQ(text(0, 1), QStringLiteral("1.50"));
    EXPECT_EQ(text(0, 2), QStringLiteral("MW"));
    EXPECT_EQ(text(1, 1), QStringLiteral("2.50"));
    EXPECT_EQ(text(1, 2), QStringLiteral("MVA"));
    EXPECT_EQ(text(2, 1), QStringLiteral("2000"));
    EXPECT_EQ(text(2, 2), QStringLiteral("A"));
    EXPECT_EQ(text(3, 1), QStringLiteral("33"));
    EXPECT_EQ(text(3, 2), QStringLiteral("kW"));
    EXPECT_DOUBLE_EQ(m.data(m.index(0, 1), Qt::UserRole).toDouble(), 1.5e6);  // SI kept
    EXPECT_TRUE(m.data(m.index(0, 3), Qt::ToolTipRole).toString().contains(QStringLiteral("x 4")));
}

TEST(SizingTableModel, TableWithoutLoadingHasNoColours) {
    Table t;
    t.path = "sizing/water";
    t.addText("element", {"make-up"});
    t.addNumbers("annual", "m3", {12000.0});
    SizingTableModel m;
    m.setTable(t);
    EXPECT_EQ(m.loadingColumn(), -1);
    EXPECT_FALSE(m.data(m.index(0, 1), Qt::BackgroundRole).isValid());
}

TEST(SummaryTableModel, ListsMetricsWithUnits) {
    SummaryTableModel m;
    m.setMetrics(
        {{"pue", 1.12, "1"}, {"wue_L_per_kWh", 0.35, "L/kWh"}, {"peak_it_kW", 8640, "kW"}});
    ASSERT_EQ(m.rowCount(), 3);
    ASSERT_EQ(m.columnCount(), 3);
    EXPECT_EQ(m.data(m.index(0, 0)).toString(), QStringLiteral("PUE"));
    // The unit in words is dropped beside the unit in brackets (the sweep table's header read
    // "wue L per kWh [L/kWh]"), and abbreviations are in capitals.
    EXPECT_EQ(m.data(m.index(1, 0)).toString(), QStringLiteral("WUE"));
    EXPECT_EQ(m.data(m.index(2, 0)).toString(), QStringLiteral("peak IT"));
    EXPECT_EQ(readableName("facility_energy_MWh", "MWh"), QStringLiteral("facility energy"));
    EXPECT_EQ(readableName("water_m3", "m3"), QStringLiteral("water"));
    EXPECT_EQ(readableName("flow_m3_per_s", "m3/s"), QStringLiteral("flow"));
    EXPECT_EQ(readableName("units", ""), QStringLiteral("units"));  // "it" inside a word stays
    // A PUE to four decimals, as the CLI and the tables print it (two hid 1.0774 vs 1.0762).
    EXPECT_EQ(m.data(m.index(0, 1)).toString(), QStringLiteral("1.1200"));
    EXPECT_EQ(m.data(m.index(0, 2)).toString(), QString());  // dimensionless
    EXPECT_EQ(m.data(m.index(1, 2)).toString(), QStringLiteral("L/kWh"));
    EXPECT_EQ(m.data(m.index(2, 1)).toString(), QStringLiteral("8640"));
    ASSERT_NE(findMetric(m.metrics(), "wue_L_per_kWh"), nullptr);
    EXPECT_EQ(findMetric(m.metrics(), "nope"), nullptr);
}

TEST(SummaryTableModel, ConvertsSIMetricsForDisplay) {
    SummaryTableModel m;
    m.setMetrics({{"max_gpu_junction_temp", 351.0, "K"},
                  {"throttle_margin", 10.0, "K"},
                  {"it_energy", 3.6e12, "J"},
                  {"peak_it_power", 8.9e6, "W"}});
    const auto text = [&](int r, int c) { return m.data(m.index(r, c)).toString(); };
    EXPECT_EQ(text(0, 1), QStringLiteral("77.85"));
    EXPECT_EQ(text(0, 2), QStringLiteral("°C"));
    EXPECT_EQ(text(1, 1), QStringLiteral("10"));  // a difference stays in K
    EXPECT_EQ(text(1, 2), QStringLiteral("K"));
    EXPECT_EQ(text(2, 1), QStringLiteral("1000"));
    EXPECT_EQ(text(2, 2), QStringLiteral("MWh"));
    EXPECT_EQ(text(3, 1), QStringLiteral("8.90"));
    EXPECT_EQ(text(3, 2), QStringLiteral("MW"));
    EXPECT_DOUBLE_EQ(m.data(m.index(0, 1), Qt::UserRole).toDouble(), 351.0);
    EXPECT_EQ(findMetric(m.metrics(), "nope"), nullptr);
}

TEST(DisplayUnits, ConvertsFromSI) {
    const DisplayUnit c = displayUnitFor("K", 320.0);
    EXPECT_EQ(c.label, QStringLiteral("°C"));
    EXPECT_NEAR(c.fromSI(308.15), 35.0, 1e-12);
    EXPECT_EQ(displayUnitFor("W", 135e3).label, QStringLiteral("kW"));
    EXPECT_NEAR(displayUnitFor("W", 135e3).fromSI(135e3), 135.0, 1e-12);
    EXPECT_EQ(displayUnitFor("W", 9.5e6).label, QStringLiteral("MW"));
    EXPECT_NEAR(displayUnitFor("W", 9.5e6).fromSI(9.5e6), 9.5, 1e-12);
    EXPECT_EQ(displayUnitFor("W", 500.0).label, QStringLiteral("W"));
    const DisplayUnit lpm = displayUnitFor("m3/s", 200.0 / 60000.0);
    EXPECT_EQ(lpm.label, QStringLiteral("L/min"));
    EXPECT_NEAR(lpm.fromSI(200.0 / 60000.0), 200.0, 1e-9);
    const DisplayUnit m3h = displayUnitFor("m3/s", 0.5);
    EXPECT_EQ(m3h.label, QStringLiteral("m³/h"));
    EXPECT_NEAR(m3h.fromSI(0.5), 1800.0, 1e-9);
    EXPECT_EQ(displayUnitFor("m3", 10.0).label, QStringLiteral("m³"));
    EXPECT_EQ(displayUnitFor("1", 1.0).label, QString());
    EXPECT_EQ(displayUnitFor("furlong", 1.0).label, QStringLiteral("furlong"));
    EXPECT_EQ(timeAxisFor(365 * 86400.0).divisor, 86400.0);
    EXPECT_EQ(timeAxisFor(86400.0).divisor, 3600.0);
    EXPECT_EQ(timeAxisFor(60.0).divisor, 1.0);
}

TEST(DisplayUnits, DecimationKeepsExtremesInOrder) {
    std::vector<double> y(52560);
    for (std::size_t i = 0; i < y.size(); ++i) y[i] = static_cast<double>(i % 100);
    y[12345] = 1000.0;  // a single-sample peak must survive
    y[40000] = -50.0;
    const auto idx = decimationIndices(y, 2000);
    EXPECT_LE(idx.size(), 4002u);
    EXPECT_TRUE(std::is_sorted(idx.begin(), idx.end()));
    EXPECT_TRUE(std::adjacent_find(idx.begin(), idx.end()) == idx.end());  // no repeats
    EXPECT_EQ(idx.front(), 0u);  // the line spans the whole series
    EXPECT_EQ(idx.back(), y.size() - 1);
    EXPECT_NE(std::find(idx.begin(), idx.end(), 12345u), idx.end());
    EXPECT_NE(std::find(idx.begin(), idx.end(), 40000u), idx.end());
    EXPECT_EQ(decimationIndices({1.0, 2.0, 3.0}, 2000).size(), 3u);
}

}  // namespace
}  // namespace dctwin::gui
