#include <gtest/gtest.h>

#include <QAction>
#include <QMenuBar>
#include <cmath>

#include "gui/display_units.h"
#include "gui/main_window.h"
#include "gui/plot/chart_adapter.h"
#include "gui/results_view.h"
#include "gui/table_models.h"

namespace dctwin::gui {
namespace {

// The unit system is process-wide (one switch for every view); each test leaves it SI.
struct Ip {
    Ip() { setUnitSystem(UnitSystem::IP); }
    ~Ip() { setUnitSystem(UnitSystem::SI); }
};

// Published factors, not the project's constants: NIST SP 811 (1 US gallon = 3.785411784 L,
// 1 psi = 6.894757 kPa), ASHRAE (1 ton of refrigeration = 12,000 Btu/h = 3.51685 kW),
// °F = °C × 9/5 + 32.
TEST(UnitSystem, IpConversionsMatchPublishedFactors) {
    const Ip ip;
    const DisplayUnit ton = displayUnitForQuantity("heat_rejected", "W", 8e6);
    EXPECT_EQ(ton.label, QStringLiteral("ton"));
    EXPECT_NEAR(ton.fromSI(3516.85), 1.0, 1e-6);
    EXPECT_NEAR(ton.fromSI(8.0e6), 2274.76, 0.01);  // 8 MW of heat

    const DisplayUnit gal = displayUnitFor("m3", 1e5);
    EXPECT_EQ(gal.label, QStringLiteral("gal"));
    EXPECT_NEAR(gal.fromSI(3.785411784e-3), 1.0, 1e-12);
    EXPECT_NEAR(gal.fromSI(1.0), 264.172052, 1e-6);

    const DisplayUnit gpm = displayUnitFor("m3/s", 0.05);
    EXPECT_EQ(gpm.label, QStringLiteral("gpm"));
    EXPECT_NEAR(gpm.fromSI(3.785411784e-3 / 60.0), 1.0, 1e-12);
    EXPECT_NEAR(gpm.fromSI(1e-3 / 60.0), 0.264172052, 1e-9);  // 1 L/min

    const DisplayUnit psi = displayUnitFor("Pa", 2e5);
    EXPECT_EQ(psi.label, QStringLiteral("psi"));
    EXPECT_NEAR(psi.fromSI(6894.757), 1.0, 1e-6);
    EXPECT_NEAR(psi.fromSI(100e3), 14.5038, 1e-4);

    const DisplayUnit f = displayUnitFor("K", 320.0);
    EXPECT_EQ(f.label, QStringLiteral("°F"));
    EXPECT_NEAR(f.fromSI(273.15), 32.0, 1e-9);
    EXPECT_NEAR(f.fromSI(308.15), 95.0, 1e-9);   // 35 °C supply
    EXPECT_NEAR(f.fromSI(373.15), 212.0, 1e-9);  // boiling water
    EXPECT_NEAR(displayUnitFor("C", 40.0).fromSI(-40.0), -40.0, 1e-9);
    // A difference has no offset: a 10 K approach is 18 °F of difference.
    const DisplayUnit d = displayUnitForQuantity("design_throttle_margin_K", "K", 10.0);
    EXPECT_EQ(d.label, QStringLiteral("Δ°F"));
    EXPECT_NEAR(d.fromSI(10.0), 18.0, 1e-12);
    // Electrical power and energy stay kW/MW and kWh/MWh in IP, as US practice reads them.
    EXPECT_EQ(displayUnitForQuantity("it_power", "W", 8e6).label, QStringLiteral("MW"));
    EXPECT_EQ(displayUnitForQuantity("cdu_pump_power", "W", 1.2e5).label, QStringLiteral("kW"));
}

TEST(UnitSystem, NoValueReadsAsADashNotNan) {
    // A job that no output sample saw running has no lost GPU-hours (null in the report);
    // the tables showed "nan".
    EXPECT_EQ(formatNumber(std::nan("")), QStringLiteral("–"));
    EXPECT_EQ(formatNumber(2880.0), QStringLiteral("2880"));
    EXPECT_EQ(formatNumber(0.0), QStringLiteral("0"));
}

TEST(UnitSystem, WholeNumbersAfterAConversionReadWhole) {
    // A whole number that passed through arithmetic read "35.00" beside an exact "31".
    const double t = displayUnitFor("K", 320.0).fromSI(273.15 + 35.1) - 0.1;
    ASSERT_NE(t, 35.0);  // 35.00000000000002
    EXPECT_EQ(formatNumber(t), QStringLiteral("35"));
    EXPECT_EQ(formatNumber(-12.000000000001), QStringLiteral("-12"));
    // Values that are not whole keep their decimals, however close to a whole number.
    EXPECT_EQ(formatNumber(1.001), QStringLiteral("1.00"));
    EXPECT_EQ(formatNumber(1.077), QStringLiteral("1.08"));
    EXPECT_EQ(formatNumber(35.004), QStringLiteral("35.00"));
    EXPECT_EQ(formatNumber(99.5), QStringLiteral("99.50"));
}

TEST(UnitSystem, MeasurementsKeepTheirDecimalsWhenWhole) {
    // The Design tab's cooling chain read "supply 35.00 °C" (a sample 4e-7 K off the setpoint)
    // beside "supply 31 °C" (a sample exactly on it).
    EXPECT_EQ(formatMeasurement(35.0000004), QStringLiteral("35.0"));
    EXPECT_EQ(formatMeasurement(31.0), QStringLiteral("31.0"));
    EXPECT_EQ(formatMeasurement(8.6), QStringLiteral("8.60"));
    EXPECT_EQ(formatMeasurement(611.742), QStringLiteral("612"));
    EXPECT_EQ(formatMeasurement(15790000.0), QStringLiteral("15,790,000"));
    EXPECT_EQ(formatMeasurement(-0.0123), QStringLiteral("-0.0123"));
    EXPECT_EQ(formatMeasurement(0.0), QStringLiteral("0.0"));
    EXPECT_EQ(formatMeasurement(std::nan("")), QStringLiteral("–"));
}

TEST(UnitSystem, SiIsUnchanged) {
    ASSERT_EQ(unitSystem(), UnitSystem::SI);
    EXPECT_EQ(displayUnitFor("K", 320.0).label, QStringLiteral("°C"));
    EXPECT_NEAR(displayUnitFor("K", 320.0).fromSI(308.15), 35.0, 1e-9);
    EXPECT_EQ(displayUnitFor("m3/s", 0.01).label, QStringLiteral("L/min"));
    EXPECT_EQ(displayUnitFor("m3", 10.0).label, QStringLiteral("m³"));
    EXPECT_EQ(displayUnitFor("Pa", 2e4).label, QStringLiteral("kPa"));
    EXPECT_EQ(displayUnitForQuantity("heat_rejected", "W", 8e6).label, QStringLiteral("MW"));
}

TEST(UnitSystem, ViewMenuSwitchesEveryTableAndChartAndBack) {
    auto report = std::make_shared<Report>();
    ResultSet& ts = report->timeseries;
    for (int h = 0; h <= 48; ++h) ts.time.push_back(h * 3600.0);
    const auto fill = [&](const char* g, const char* n, const char* u, double v) {
        Channel& c = ts.addChannel(g, n, u);
        c.values.assign(ts.time.size(), v);
    };
    fill("power", "it_power", "W", 8.0e6);
    fill("cooling", "tcs_supply_temp", "K", 308.15);
    fill("cooling", "heat_to_liquid", "W", 7.0e6);
    fill("cooling", "cdu_pump_power", "W", 1.2e5);
    report->summary = {{"max_gpu_junction_C", 80.0, "C"}, {"water_m3", 1000.0, "m3"}};
    MainWindow w;
    w.showReport(report);
    ChartPanel* temps = w.results()->charts(ResultsView::CoolingTab)[0];
    ChartPanel* heat = w.results()->charts(ResultsView::CoolingTab)[1];
    EXPECT_NEAR(temps->drawnPoints(QStringLiteral("TCS supply")).front().y(), 35.0, 1e-9);

    w.setDisplayUnits(UnitSystem::IP);
    temps = w.results()->charts(ResultsView::CoolingTab)[0];
    EXPECT_NEAR(temps->drawnPoints(QStringLiteral("TCS supply")).front().y(), 95.0, 1e-9);
    // Heat in tons (7 MW = 1,990.4 tons); the pumps on their own axis stay in kW.
    EXPECT_NEAR(heat->drawnPoints(QStringLiteral("heat to liquid")).front().y(), 7.0e6 / 3516.85,
                0.01);
    EXPECT_EQ(heat->rightUnit(), QStringLiteral("kW"));
    SummaryTableModel* summary = w.results()->summaryModel();
    QStringList cells;
    for (int r = 0; r < summary->rowCount(); ++r) {
        for (int c = 0; c < summary->columnCount(); ++c) {
            cells << summary->data(summary->index(r, c)).toString();
        }
    }
    const QString all = cells.join(QLatin1Char('|'));
    EXPECT_TRUE(all.contains(QStringLiteral("176"))) << all.toStdString();      // 80 °C in °F
    EXPECT_TRUE(all.contains(QStringLiteral("264,172"))) << all.toStdString();  // gal
    w.setDisplayUnits(UnitSystem::SI);
    EXPECT_NEAR(w.results()
                    ->charts(ResultsView::CoolingTab)[0]
                    ->drawnPoints(QStringLiteral("TCS supply"))
                    .front()
                    .y(),
                35.0, 1e-9);
}

TEST(UnitSystem, SizingTablesFollowTheSwitch) {
    // The cooling table's capacities are heat duties (tons in IP), its flows gpm and heads psi;
    // the electrical table's powers stay kW/MW, as US practice reads them.
    auto report = std::make_shared<Report>();
    Table cooling;
    cooling.path = "sizing/cooling";
    cooling.addText("element", {"cdu", "cdu_pump", "fws_pump_head"});
    cooling.addNumbers("rating", "", {1.368e6, 0.0342, 250e3});
    cooling.addText("unit", {"W", "m3/s", "Pa"});
    cooling.addNumbers("count", "1", {9, 18, 3});
    Table power;
    power.path = "sizing/power";
    power.addText("element", {"ups"});
    power.addNumbers("rating", "", {1.5e6});
    power.addText("unit", {"W"});
    report->tables = {power, cooling};
    MainWindow w;
    w.showReport(report);
    SizingTableModel* c = w.results()->coolingSizingModel();
    SizingTableModel* p = w.results()->powerSizingModel();
    const auto cell = [](SizingTableModel* m, int r, int col) {
        return m->data(m->index(r, col)).toString();
    };
    EXPECT_EQ(cell(c, 0, 1) + " " + cell(c, 0, 2), QStringLiteral("1.37 MW"));
    EXPECT_EQ(cell(c, 1, 1) + " " + cell(c, 1, 2), QStringLiteral("2052 L/min"));
    w.setDisplayUnits(UnitSystem::IP);
    // 1,368 kW / 3.51685 kW per ton = 389 tons; 0.0342 m³/s = 542 gpm; 250 kPa = 36.26 psi.
    EXPECT_EQ(cell(c, 0, 1) + " " + cell(c, 0, 2), QStringLiteral("389 ton"));
    EXPECT_EQ(cell(c, 1, 1) + " " + cell(c, 1, 2), QStringLiteral("542 gpm"));
    EXPECT_EQ(cell(c, 2, 1) + " " + cell(c, 2, 2), QStringLiteral("36.26 psi"));
    EXPECT_EQ(cell(p, 0, 1) + " " + cell(p, 0, 2), QStringLiteral("1.50 MW"));
    w.setDisplayUnits(UnitSystem::SI);
    EXPECT_EQ(cell(c, 0, 1) + " " + cell(c, 0, 2), QStringLiteral("1.37 MW"));
}

}  // namespace
}  // namespace dctwin::gui
