// Axis ranges and tick labels of ChartPanel: what the labels say must tell the values apart.
#include <gtest/gtest.h>

#include <QApplication>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <cmath>
#include <vector>

#include "gui/plot/chart_adapter.h"

namespace dctwin::gui {
namespace {

QValueAxis* axis(ChartPanel& p, Qt::Orientation o) {
    auto* view = p.findChild<QChartView*>();
    if (!view) return nullptr;
    const auto axes = view->chart()->axes(o);
    return axes.isEmpty() ? nullptr : qobject_cast<QValueAxis*>(axes.front());
}

// The labels QValueAxis draws: its printf-style format applied to each tick value.
QStringList tickLabels(const QValueAxis& a) {
    QStringList out;
    const int n = a.tickCount();
    for (int i = 0; i < n; ++i) {
        const double v = a.min() + (a.max() - a.min()) * i / (n - 1);
        out << QString::asprintf(a.labelFormat().toLatin1().constData(), v);
    }
    return out;
}

// One line series in a panel of w × h, laid out as on screen.
void showLine(ChartPanel& p, QSize size, const QString& x_title, const QString& name,
              const std::vector<double>& x, const std::vector<double>& y, const QString& unit) {
    p.resize(size);
    p.setAxisTitles(x_title, QStringLiteral("value"));
    p.setSeries(name, x, y, unit);
    p.show();
    QApplication::processEvents();
}

TEST(ChartAxes, ASeriesSteadyToPartsPerMillionGetsLabelsThatDiffer) {
    // The facility water flow through a CDU pump trip: 611.742 m³/h, moving in the sixth
    // digit. Its axis spanned that, and all six labels read "611.742".
    std::vector<double> t, flow;
    for (int i = 0; i <= 600; ++i) {
        t.push_back(i / 60.0);
        flow.push_back(611.742 - 2e-6 * i);
    }
    ChartPanel p;
    showLine(p, {600, 400}, QStringLiteral("time [min]"), QStringLiteral("facility water flow"), t,
             flow, QStringLiteral("m³/h"));
    QValueAxis* y = axis(p, Qt::Vertical);
    ASSERT_NE(y, nullptr);
    EXPECT_GE(y->max() - y->min(), 0.02 * 611.742);
    EXPECT_LE(y->min(), 611.741);
    EXPECT_GE(y->max(), 611.742);
    const QStringList labels = tickLabels(*y);
    EXPECT_EQ(QStringList(labels).removeDuplicates(), 0) << labels.join(' ').toStdString();
}

TEST(ChartAxes, RoundOffBelowZeroDoesNotMoveAPowerAxisOffZero) {
    // The utility loss's heat rejected: 7 MW, then −1.7e-8 W while the plant stands. The
    // axis read −5 … 15 MW.
    std::vector<double> t, q;
    for (int i = 0; i <= 600; ++i) {
        t.push_back(i / 60.0);
        q.push_back(i > 60 && i < 75 ? -1.67e-8 : 12.0);
    }
    ChartPanel p;
    showLine(p, {600, 400}, QStringLiteral("time [min]"), QStringLiteral("heat rejected"), t, q,
             QStringLiteral("MW"));
    QValueAxis* y = axis(p, Qt::Vertical);
    ASSERT_NE(y, nullptr);
    EXPECT_EQ(y->min(), 0.0);
    EXPECT_GE(y->max(), 12.0);
}

TEST(ChartAxes, AShortLoadDurationAxisLabelsItsTicksInFewDigits) {
    // A 10-minute study's load-duration curve runs 0 … 1/6 h. The ticks split that range
    // (the curve ends at its last hour), and "%g" wrote them 0.0416667, 0.0833333, …, cut to
    // "0.0416…" under the axis.
    std::vector<double> hours, power;
    for (int i = 0; i <= 600; ++i) {
        hours.push_back(i / 3600.0);
        power.push_back(9.8 - 0.002 * i);
    }
    ChartPanel p;
    showLine(p, {400, 300}, QStringLiteral("hours at or above [h]"), QStringLiteral("IT power"),
             hours, power, QStringLiteral("MW"));
    QValueAxis* x = axis(p, Qt::Horizontal);
    ASSERT_NE(x, nullptr);
    const QStringList labels = tickLabels(*x);
    for (const QString& l : labels) EXPECT_LE(l.size(), 5) << l.toStdString();
    EXPECT_EQ(labels.front(), QStringLiteral("0.000"));
    EXPECT_EQ(labels.back(), QStringLiteral("0.167"));
    EXPECT_EQ(QStringList(labels).removeDuplicates(), 0) << labels.join(' ').toStdString();
    // A year's axis keeps whole hours: 0, 2190, …, 8760.
    ChartPanel year;
    showLine(year, {400, 300}, QStringLiteral("hours at or above [h]"), QStringLiteral("IT power"),
             {0.0, 8760.0}, {9.0, 8.0}, QStringLiteral("MW"));
    QValueAxis* xy = axis(year, Qt::Horizontal);
    ASSERT_NE(xy, nullptr);
    EXPECT_EQ(tickLabels(*xy).back(), QStringLiteral("8760"));
}

TEST(ChartAxes, PueBarsStartAtOne) {
    // The reference year's months run 1.067 … 1.102: from zero the twelve bars looked alike,
    // from PUE's floor of 1 the summer's extra cooling shows.
    ChartPanel p;
    p.resize(500, 250);
    p.setBarFloor(1.0);
    p.addBarSet({"1", "2", "7"}, QStringLiteral("PUE"), {1.067, 1.067, 1.102}, QString());
    p.show();
    QApplication::processEvents();
    QValueAxis* y = axis(p, Qt::Vertical);
    ASSERT_NE(y, nullptr);
    EXPECT_DOUBLE_EQ(y->min(), 1.0);
    EXPECT_GE(y->max(), 1.102);
    EXPECT_LE(y->max(), 1.2);
    // The floor is the panel's: a report opened next (clear, new bars) keeps it.
    p.clear();
    p.addBarSet({"1"}, QStringLiteral("PUE"), {1.3}, QString());
    EXPECT_DOUBLE_EQ(axis(p, Qt::Vertical)->min(), 1.0);
    // Other bar charts (energy by use) still start at zero.
    ChartPanel energy;
    energy.addBarSet({"IT", "facility"}, QStringLiteral("energy"), {71459, 76988}, "MWh");
    EXPECT_DOUBLE_EQ(axis(energy, Qt::Vertical)->min(), 0.0);
}

TEST(ChartLegend, LinesShowTheirPenAreasAFilledSquare) {
    // A right-axis line is dashed; its legend marker is a piece of the line in its pen, so
    // the legend shows the dash and the right axis is titled by its unit alone. The stacked
    // areas keep a filled square (drawn from the series, an area's marker was a hollow outline
    // and the legend lost the layers' colours).
    ChartPanel p;
    const std::vector<double> t = {0.0, 1.0, 2.0, 3.0};
    p.setStackedAreas({QStringLiteral("IT"), QStringLiteral("cooling")}, t,
                      {{5.0, 5.0, 5.0, 5.0}, {1.0, 1.0, 1.0, 1.0}}, QStringLiteral("MW"));
    p.setMeanSeries(QStringLiteral("facility"), t, {6.0, 6.0, 6.0, 6.0}, QStringLiteral("MW"));
    p.setSeries(QStringLiteral("pumps"), t, {200.0, 210.0, 205.0, 200.0}, QStringLiteral("kW"),
                ChartPanel::Axis::Right);
    p.setRightAxisTitle(QString());
    p.resize(640, 400);
    p.show();
    QApplication::processEvents();
    auto* view = p.findChild<QChartView*>();
    ASSERT_NE(view, nullptr);
    int areas = 0, lines = 0;
    for (QLegendMarker* m : view->chart()->legend()->markers()) {
        if (m->type() == QLegendMarker::LegendMarkerTypeArea) {
            ++areas;
            EXPECT_EQ(m->shape(), QLegend::MarkerShapeRectangle) << m->label().toStdString();
            EXPECT_NE(m->brush().style(), Qt::NoBrush) << m->label().toStdString();
        } else if (m->type() == QLegendMarker::LegendMarkerTypeXY) {
            ++lines;
            EXPECT_EQ(m->shape(), QLegend::MarkerShapeFromSeries) << m->label().toStdString();
            const auto* line = qobject_cast<QLineSeries*>(m->series());
            ASSERT_NE(line, nullptr);
            EXPECT_EQ(line->pen().style(),
                      m->label() == QStringLiteral("pumps") ? Qt::DashLine : Qt::SolidLine)
                << m->label().toStdString();
        }
    }
    EXPECT_EQ(areas, 2);
    EXPECT_EQ(lines, 2);
    const auto right = view->chart()->axes(Qt::Vertical);
    ASSERT_EQ(right.size(), 2);
    EXPECT_EQ(right.back()->titleText(), QStringLiteral("[kW]"));
}

TEST(ChartAxes, AScatterOfCasesGetsRoundTicksFromZero) {
    // The weather ensemble's five cases, WUE against PUE as the Sweep tab plots them. The x
    // axis was the points' range padded by 5 %: ticks at -0.02, 0.12, 0.25, 0.39, 0.53, a
    // negative water use among them.
    ChartPanel p;
    p.resize(800, 400);
    p.setAxisTitles(QStringLiteral("WUE [L/kWh]"), QStringLiteral("PUE"));
    const std::vector<double> wue = {0.500, 0.163, 0.0333, 0.0561, 0.00704};
    const std::vector<double> pue = {1.1218, 1.1058, 1.0873, 1.0827, 1.0774};
    for (std::size_t i = 0; i < wue.size(); ++i) {
        p.addScatter(QStringLiteral("case %1").arg(i), {wue[i]}, {pue[i]}, QString());
    }
    p.show();
    QApplication::processEvents();
    QValueAxis* x = axis(p, Qt::Horizontal);
    ASSERT_NE(x, nullptr);
    EXPECT_DOUBLE_EQ(x->min(), 0.0);  // water use starts at zero
    EXPECT_GT(x->max(), 0.5);         // every point inside
    EXPECT_LE(x->max(), 0.6 + 1e-12);
    // Round ticks, each written with the step's decimals: 0.0, 0.1, ... (or 0.2 steps).
    const QStringList labels = tickLabels(*x);
    ASSERT_GE(labels.size(), 3);
    for (const QString& l : labels) {
        bool ok = false;
        const double v = l.toDouble(&ok);
        ASSERT_TRUE(ok) << l.toStdString();
        EXPECT_NEAR(v * 10.0, std::round(v * 10.0), 1e-9) << l.toStdString();
        EXPECT_EQ(l.size(), 3) << l.toStdString();  // "0.1", not "0.10" or "0.125"
    }
    // Cases that use no water at all (dry coolers) sit on a 0–1 axis, not −0.5 to 0.5.
    ChartPanel dry;
    dry.resize(800, 400);
    dry.addScatter(QStringLiteral("a"), {0.0}, {1.07}, QString());
    dry.addScatter(QStringLiteral("b"), {0.0}, {1.13}, QString());
    dry.show();
    QApplication::processEvents();
    QValueAxis* dx = axis(dry, Qt::Horizontal);
    ASSERT_NE(dx, nullptr);
    EXPECT_DOUBLE_EQ(dx->min(), 0.0);
    EXPECT_GT(dx->max(), 0.0);
}

}  // namespace
}  // namespace dctwin::gui
